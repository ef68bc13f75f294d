use super::*;
use crate::report::Series;

fn texts(a: &Axis) -> Vec<&str> {
    a.ticks.iter().map(|t| t.text.as_str()).collect()
}

#[test]
fn ticks_are_nice_and_cover_the_range() {
    let a = nice_axis(0.0, 0.93, 5, false);
    assert_eq!((a.lo, a.hi), (0.0, 1.0));
    assert_eq!(texts(&a), ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
    assert_eq!(
        a.ticks[3].at, 0.6,
        "12 significant digits: not 0.6000000000000001"
    );
    let a = nice_axis(-3.2, 14.0, 5, false);
    assert_eq!((a.lo, a.hi), (-5.0, 15.0));
    assert_eq!(texts(&a), ["-5", "0", "5", "10", "15"]);
    // counts: integer steps, even over a short span
    assert_eq!(texts(&nice_axis(0.0, 3.0, 5, true)), ["0", "1", "2", "3"]);
    // one value, no value
    assert_eq!(
        texts(&nice_axis(0.0, 0.0, 5, false)),
        ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]
    );
    assert_eq!(texts(&nice_axis(f64::NAN, 1.0, 5, false)).len(), 6);
    let a = nice_axis(0.0, 0.00042, 4, false);
    assert_eq!(
        texts(&a),
        ["0.0000", "0.0001", "0.0002", "0.0003", "0.0004", "0.0005"]
    );
    assert_eq!(nice_step(7.0, 5), 1.0);
    assert_eq!(nice_step(12.0, 5), 2.0);
    assert_eq!(nice_step(1000.0, 4), 200.0);
}

#[test]
fn labels_lose_their_common_prefix_at_a_boundary() {
    let l = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (p, short) = distinct_labels(&l(&["Latin14396/001", "Latin14396/002"]));
    assert_eq!((p.as_str(), short), ("Latin14396/", l(&["001", "002"])));
    let (p, short) = distinct_labels(&l(&["q1", "q2", "q10"]));
    assert_eq!((p.as_str(), short), ("q", l(&["1", "2", "10"])));
    // never a whole label
    assert_eq!(distinct_labels(&l(&["a/", "a/b"])).0, "");
    assert_eq!(distinct_labels(&l(&["only"])).0, "");
    assert_eq!(svg::middle("abcdefghij", 5), "ab…ij");
    assert_eq!(shorten("abcdefghij", 5), "abcd…");
}

fn bars_plot() -> Plot {
    Plot {
        id: "line_iu".into(),
        kind: "bars".into(),
        title: "Line IU per image".into(),
        x_label: "image".into(),
        y_label: "line IU".into(),
        labels: vec![
            "Latin14396/001".into(),
            "Latin14396/002".into(),
            "Latin14396/003".into(),
        ],
        values: vec![Some(0.5), Some(1.0 / 3.0), None],
        series: Vec::new(),
    }
}

use super::super::svg;

#[test]
fn a_bar_chart_spec() {
    let s = spec(&bars_plot());
    assert_eq!(s.x.label, "image (Latin14396/…)");
    assert_eq!(s.y.label, "line IU");
    assert_eq!(
        texts(&s.y),
        ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"],
        "scores in [0, 1]: the unit range"
    );
    assert_eq!(
        texts(&s.x),
        ["001", "002", "003"],
        "the bars' labels without their prefix"
    );
    let bar_texts: Vec<&str> = s.bars.iter().map(|b| b.text.as_str()).collect();
    assert_eq!(
        bar_texts,
        [
            "Latin14396/001: 0.5",
            "Latin14396/002: 0.333333",
            "Latin14396/003: no value"
        ]
    );
    assert_eq!(s.bars[1].short, "002");
    assert_eq!(s.summary, "Line IU per image: bar chart; 3 values; from 0.333333 to 0.5; x axis: image; y axis: line IU");
    assert_eq!(s.data.head, ["image", "line IU"]);
    assert_eq!(s.data.rows[2], ["Latin14396/003", "—"]);
    let svg = svg::draw(&s, 720.0, 270.0);
    assert_eq!(svg.matches("class=\"plot-bar\"").count(), 2);
    assert!(
        svg.contains(">002<title>Latin14396/002</title></text>"),
        "{svg}"
    );
}

#[test]
fn a_histogram_of_counts_has_integer_ticks() {
    let mut p = bars_plot();
    p.kind = "histogram".into();
    p.labels = vec!["0–0.1".into(), "0.1–0.2".into(), "0.2–0.3".into()];
    p.values = vec![Some(3.0), Some(0.0), Some(1.0)];
    let s = spec(&p);
    assert_eq!(texts(&s.y), ["0", "1", "2", "3"]);
    assert_eq!(s.x.label, "image", "a histogram keeps its labels whole");
}

#[test]
fn a_line_chart_spec() {
    let series = |label: &str, y: Vec<Option<f64>>| Series {
        label: label.into(),
        x: (0..y.len()).map(|i| i as f64 / 10.0).collect(),
        y,
    };
    let p = Plot {
        id: "pr".into(),
        kind: "lines".into(),
        title: "PR".into(),
        x_label: "recall".into(),
        y_label: "precision".into(),
        labels: Vec::new(),
        values: Vec::new(),
        series: vec![
            series("q1", vec![Some(1.0), None, Some(0.5)]),
            series("mean", vec![Some(0.9), Some(0.7), Some(0.4)]),
        ],
    };
    let s = spec(&p);
    assert_eq!((s.x.lo, s.x.hi), (0.0, 0.2));
    assert_eq!(texts(&s.x), ["0.00", "0.05", "0.10", "0.15", "0.20"]);
    assert_eq!(
        s.series[0].points,
        [Some([0.0, 1.0]), None, Some([0.2, 0.5])]
    );
    assert_eq!(s.series[1].class, "series-1");
    assert_eq!(s.series[0].markers[1], "q1: recall 0.2, precision 0.5");
    assert_eq!(s.legend.len(), 2);
    assert_eq!(s.data.head, ["recall", "q1", "mean"]);
    assert_eq!(s.data.rows[1], ["0.1", "—", "0.7"]);
    let svg = svg::draw(&s, 720.0, 270.0);
    assert_eq!(svg.matches("<path d=\"M").count(), 2);
    assert_eq!(svg.matches("<circle").count(), 5);
}

#[test]
fn a_heat_map_spec() {
    let p = Plot {
        id: "confusion".into(),
        kind: "heatmap".into(),
        title: "Confusion".into(),
        x_label: "predicted".into(),
        y_label: "true".into(),
        labels: vec!["a".into(), "b".into()],
        values: vec![Some(2.0), Some(0.0), None, Some(1.0)],
        series: Vec::new(),
    };
    let s = spec(&p);
    let h = s.heat.as_ref().expect("heat");
    assert!(h.values_shown);
    assert_eq!(
        (h.cells[0].fill.as_deref(), h.cells[0].light),
        (Some("hsl(214 70% 32%)"), true)
    );
    assert_eq!(h.cells[1].fill.as_deref(), Some("hsl(214 70% 94%)"));
    assert_eq!(
        (h.cells[2].fill.as_deref(), h.cells[2].title.as_str()),
        (None, "true b, predicted a: no value")
    );
    assert_eq!(h.cells[3].title, "true b, predicted b: 1");
    assert_eq!(
        (s.x.label.as_str(), s.y.label.as_str()),
        ("predicted →", "← true")
    );
    let svg = svg::draw(&s, 720.0, 270.0);
    assert_eq!(svg.matches("class=\"heat-cell\"").count(), 3);
    assert_eq!(svg.matches("heat-cell heat-null").count(), 1);
}

#[test]
fn many_heat_map_rows_are_named_by_prefix_runs() {
    let labels: Vec<String> = ["A #1", "A #2", "B #1", "B #2", "B #3", "C #1", "C #2"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let b = prefix_blocks(&labels);
    let runs: Vec<(usize, usize, &str)> = b
        .iter()
        .map(|b| (b.start, b.end, b.text.as_str()))
        .collect();
    assert_eq!(runs, [(0, 2, "A"), (2, 5, "B"), (5, 7, "C")]);
}

#[test]
fn detail_arrays_and_plot_objects_become_specs() {
    let pr = serde_json::json!([1.0, 0.8, null, 0.5]);
    let s = detail_spec("q7", "pr11", &pr).expect("a PR curve");
    assert_eq!(s.title, "q7: 4-point interpolated precision–recall");
    assert_eq!(s.series[0].points[1], Some([1.0 / 3.0, 0.8]));
    let s = detail_spec("q7", "ranks", &serde_json::json!([3, 1])).expect("a line");
    assert_eq!(
        (s.x.label.as_str(), s.series[0].points[0]),
        ("index", Some([1.0, 3.0]))
    );
    let obj = serde_json::json!({"kind": "lines", "title": "t", "series": [{"label": "s", "x": [0, 1], "y": [0, 1], "style": "fill"}]});
    assert_eq!(
        detail_spec("q", "curve", &obj).map(|s| s.series[0].style.clone()),
        Some("fill".into())
    );
    assert!(detail_spec("q", "hit_strip", &serde_json::json!("0101")).is_none());
    assert!(detail_spec("q", "one", &serde_json::json!([1])).is_none());
}

#[test]
fn tick_texts_that_would_overlap_are_left_out() {
    let ticks: Vec<Tick> = [1.0, 2.0, 4.0, 6.0, 8.0, 10.0]
        .iter()
        .map(|&at| Tick {
            at,
            text: "0.0–0.1".into(),
        })
        .collect();
    // 7 characters: about 52 px apart at least
    let at = |px: f64| {
        svg::fitting(&ticks, |a| a * px)
            .iter()
            .map(|t| t.at)
            .collect::<Vec<_>>()
    };
    assert_eq!(at(60.0), [1.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
    assert_eq!(at(27.0), [1.0, 4.0, 6.0, 8.0, 10.0]);
    assert_eq!(at(14.0), [1.0, 6.0, 10.0]);
}
