//! aij2022 per-id detail of the METEOR tasks (options `details` and `explain`): light detail keeps every score,
//! `details = auto` turns light above 2,000 ids, and `explain` gives one id's full detail, equal to that id's
//! detail in a full report.

mod common;

use common::{bytes_input, has, input, score_inputs};
use dropscore::input::{FileSet, Limits, Role};
use dropscore::protocols::{self, Quiet, Request};
use dropscore::{Mode, Report};

fn captioning(set: &[(&str, &str)]) -> Report {
    score_inputs(
        "aij2022",
        vec![
            input("aij2022/captioning_gt.json", Some(Role::Gt)),
            input("aij2022/captioning_pred.json", Some(Role::Pred)),
        ],
        Mode::Official,
        set,
    )
}

fn item<'a>(r: &'a Report, id: &str) -> &'a dropscore::report::Item {
    r.items.iter().find(|i| i.id == id).expect(id)
}

#[test]
fn light_detail_keeps_every_score() {
    let full = captioning(&[]);
    let light = captioning(&[("details", "light")]);
    assert_eq!(full.scores.get("captioning_meteor"), Some(0.666359375));
    assert_eq!(light.scores, full.scores);
    assert_eq!(light.items.len(), full.items.len());
    for (a, b) in full.items.iter().zip(&light.items) {
        assert_eq!(a.id, b.id);
        assert_eq!(a.scores, b.scores);
        // The best option (one scoring above 0) carries the alignment in the full detail.
        let positive = a.scores.get("meteor").unwrap() > 0.0;
        assert_eq!(
            a.detail["best"]["alignment"].is_object(),
            positive,
            "{}",
            a.id
        );
        assert!(b.detail.get("best").is_none());
        let per: Vec<f64> = a.detail["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["score"].as_f64().unwrap())
            .collect();
        let light_per: Vec<f64> = b.detail["option_scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(per, light_per, "{}", a.id);
        assert_eq!(a.detail["answer"], b.detail["answer"]);
    }
    // Neither option is a deviation from the official scorer.
    assert!(light.deviations.iter().all(|d| !d.contains("details")));
}

#[test]
fn explain_gives_one_full_item() {
    let full = captioning(&[]);
    for id in ["0", "3"] {
        let one = captioning(&[
            ("details", "light"),
            ("explain", &format!("captioning/{id}")),
        ]);
        assert_eq!(one.items.len(), 1);
        let want = item(&full, &format!("captioning/{id}"));
        assert_eq!(one.items[0].detail, want.detail);
        assert_eq!(one.items[0].scores.get("meteor"), want.scores.get("meteor"));
        assert_eq!(
            one.scores.get("captioning_meteor"),
            want.scores.get("meteor")
        );
        assert!(has(&one, "aij.explain"));
    }
    let missing = captioning(&[("explain", "captioning/nope")]);
    assert!(has(&missing, "aij.explain.unknown_id"));
    let files = FileSet::build(
        vec![input("aij2022/captioning_gt.json", Some(Role::Gt))],
        &Limits::default(),
    );
    let req = Request {
        set: vec![("explain".into(), "textqa/1".into())],
        ..Request::new(Mode::Official)
    };
    let e = protocols::score("aij2022", &files, &req, &mut Quiet).unwrap_err();
    assert!(e.0.contains("option `explain`"), "{}", e.0);
}

#[test]
fn auto_detail_turns_light_above_2000_ids() {
    for (n, light) in [(2000, false), (2001, true)] {
        let mut gt = String::from("{");
        let mut pred = String::from("{");
        for i in 0..n {
            let sep = if i > 0 { "," } else { "" };
            gt += &format!(
                r#"{sep}"{i}": [{{"type": "text", "content": ["кошка спит на диване", "собака бежит"]}}]"#
            );
            pred += &format!(r#"{sep}"{i}": [{{"type": "text", "content": "кошка спит"}}]"#);
        }
        gt += "}";
        pred += "}";
        let r = score_inputs(
            "aij2022",
            vec![
                bytes_input("captioning_gt.json", Some(Role::Gt), gt.into_bytes()),
                bytes_input("captioning_pred.json", Some(Role::Pred), pred.into_bytes()),
            ],
            Mode::Official,
            &[],
        );
        assert_eq!(r.items.len(), n);
        let it = &r.items[0];
        assert_eq!(it.detail.get("best").is_none(), light, "{n} ids");
        assert_eq!(it.detail.get("option_scores").is_some(), light, "{n} ids");
        // "кошка спит" vs "кошка спит на диване": m = 2, P = 1, R = 1/2, one chunk.
        let fmean = 0.5 / (0.9 + 0.1 * 0.5);
        let want = (1.0 - 0.5 * (0.5f64).powi(3)) * fmean;
        assert!((it.scores.get("meteor").unwrap() - want).abs() < 1e-15);
    }
}

#[test]
fn corrected_mode_reads_a_non_list_prediction_as_no_answer() {
    // The README rule (first text element) finds none in `5`: the id scores 0 with no answer; only the official
    // loop iterates the prediction and raises (TypeError), as the contest's script does.
    let gt = r#"{"0": [{"type": "text", "content": ["кошка спит"]}], "1": [{"type": "text", "content": ["собака"]}]}"#;
    let pred = r#"{"0": 5, "1": [{"type": "text", "content": "собака"}]}"#;
    let run = |mode| {
        score_inputs(
            "aij2022",
            vec![
                bytes_input("captioning_gt.json", Some(Role::Gt), gt.as_bytes().to_vec()),
                bytes_input(
                    "captioning_pred.json",
                    Some(Role::Pred),
                    pred.as_bytes().to_vec(),
                ),
            ],
            mode,
            &[],
        )
    };
    let c = run(Mode::Corrected);
    assert!(!has(&c, "aij.item.exception"), "{:?}", c.diagnostics);
    assert_eq!(item(&c, "captioning/0").scores.get("meteor"), Some(0.0));
    assert!(item(&c, "captioning/0").detail["answer"].is_null());
    assert!(has(&run(Mode::Official), "aij.cap.crash"));
}
