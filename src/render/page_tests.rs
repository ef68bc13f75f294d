use super::*;
use crate::report::{Label, Mode, Plot, Scores};

fn label(id: &str) -> Label {
    Label {
        id: id.into(),
        label: id.into(),
        decimals: 5,
    }
}

fn report(protocol: &str, ids: &[&str], scores: &[(&str, Option<f64>)]) -> Report {
    let mut r = Report::new(protocol, Mode::Official);
    r.display.headline = ids.iter().map(|id| label(id)).collect();
    r.scores = scores
        .iter()
        .fold(Scores::new(), |s, (id, v)| s.with(id, *v));
    r
}

/// A binary-score submission on the default metric: accuracy is null, roc_auc computed; the big number is a
/// number and the computed metrics are listed before the null ones.
#[test]
fn a_null_first_metric_gives_way_to_a_computed_one() {
    let ids = ["accuracy", "f1", "log_loss", "roc_auc", "average_precision"];
    let r = report(
        "classification",
        &ids,
        &[
            ("accuracy", None),
            ("f1", None),
            ("log_loss", Some(0.4)),
            ("roc_auc", Some(0.9)),
            ("average_precision", Some(0.8)),
        ],
    );
    let h = headline(&r);
    assert_eq!(h.primary.as_deref(), Some("log_loss"));
    assert_eq!(h.rest, ["roc_auc", "average_precision", "accuracy", "f1"]);
}

/// With an error in the input nothing is computed: the headline stays the protocol's first metric.
#[test]
fn with_errors_the_headline_stays() {
    let mut r = report(
        "classification",
        &["accuracy", "roc_auc"],
        &[("accuracy", None), ("roc_auc", None)],
    );
    r.diagnostics.push(Diagnostic::error("x.bad", "bad"));
    assert_eq!(headline(&r).primary.as_deref(), Some("accuracy"));
}

/// The cause cited first is the damaged line of the submission, not the id it failed to give at the GT's line.
#[test]
fn the_cause_is_the_damaged_line() {
    let mut r = report("classification", &["accuracy"], &[("accuracy", None)]);
    r.diagnostics = vec![
        Diagnostic::error("classification.missing_id", "id u25001 missing")
            .file("gt.csv")
            .line(25001)
            .official("KeyError"),
        Diagnostic::info("classification.corrected_same", "same"),
        Diagnostic::error("classification.csv", "malformed line")
            .file("pred.csv")
            .line(25002),
    ];
    let c = cause(&r).expect("a cause");
    assert_eq!(
        (c.code.as_str(), c.line),
        ("classification.csv", Some(25002))
    );
    r.diagnostics.retain(|d| d.severity != Severity::Error);
    assert!(cause(&r).is_none());
}

/// Required and input-describing options, the leaderboard metric and values equal to the default are not
/// deviations; a real change of how the input is scored is.
#[test]
fn deviations_are_changes_of_scoring_only() {
    let mut r = report("segmentation", &["mIoU"], &[("mIoU", Some(0.5))]);
    r.deviations = vec![
        "num_classes = 19 deviates from official (none)".into(),
        "metric = mDice deviates from official (mIoU)".into(),
        "ignore_index = 255.0 deviates from official (255)".into(),
        "ignore_index = 0 deviates from official (255)".into(),
        "a note that is not an option line".into(),
    ];
    assert_eq!(
        deviations(&r),
        [
            "ignore_index = 0 deviates from official (255)",
            "a note that is not an option line"
        ]
    );
    let mut c = report("classification", &["accuracy"], &[("accuracy", Some(1.0))]);
    c.deviations = vec!["label_column = churn deviates from official ()".into()];
    assert!(deviations(&c).is_empty());
}

/// The four families' modes are the same by definition: one column; the others keep two.
#[test]
fn families_show_one_mode() {
    for p in ["classification", "regression", "segmentation", "detection"] {
        assert!(view(&report(p, &[], &[])).one_mode, "{p}");
    }
    for p in ["kws", "falsid", "aij2022"] {
        assert!(!view(&report(p, &[], &[])).one_mode, "{p}");
    }
}

/// Segmentation's IoU bars are labelled by class value 0 … 18 (its labels), never by position 1 … 19.
#[test]
fn bar_ticks_use_the_bar_labels() {
    let p = Plot {
        id: "class_iou".into(),
        kind: "bars".into(),
        title: "IoU per class".into(),
        x_label: "class".into(),
        y_label: "IoU".into(),
        labels: (0..19).map(|k| k.to_string()).collect(),
        values: (0..19).map(|k| Some(k as f64 / 19.0)).collect(),
        series: Vec::new(),
    };
    let s = crate::render::plot::spec(&p);
    let texts: Vec<&str> = s.x.ticks.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(texts.first(), Some(&"0"), "{texts:?}");
    assert_eq!(texts.last(), Some(&"18"), "{texts:?}");
    assert!(!texts.contains(&"19"), "{texts:?}");
}
