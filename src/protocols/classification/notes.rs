//! The diagnostics of the `classification` family that depend on the options and the submission's layout
//! (docs/specs/families.md sections 1 and 5): the positive class, what the layout leaves out, rows that are not
//! probabilities, and what a submission must contain for the leaderboard metric.

use super::compute::applies;
use super::{UsageError, ID};
use crate::diag::{Diagnostic, Diags};
use crate::formats::classification_csv::{self as csvin, Layout};

/// The positive class: option `positive_label` (a GT class, else a usage error), or 1 for {0, 1} labels. Two
/// classes without one: f1, precision and recall as the leaderboard metric are a usage error, else a note.
pub fn positive_class(
    pos_opt: &str,
    gt: &csvin::Gt,
    metric: &str,
    diags: &mut Diags,
) -> Result<Option<usize>, UsageError> {
    let pos_opt = pos_opt.trim();
    let positive = if !pos_opt.is_empty() {
        match gt.classes.index(pos_opt) {
            Some(p) => Some(p),
            None => {
                return Err(UsageError(format!(
                    "option `positive_label`: `{pos_opt}` is not a GT class (classes: {})",
                    gt.classes.names.join(", ")
                )))
            }
        }
    } else if gt.classes.ints.as_deref() == Some(&[0, 1]) {
        Some(1)
    } else if gt.classes.ints.as_deref() == Some(&[1]) {
        // One class, 1: the positive class of scikit-learn's default pos_label.
        Some(0)
    } else {
        None
    };
    if gt.classes.len() == 2 && positive.is_none() {
        if matches!(metric, "f1" | "precision" | "recall") {
            return Err(UsageError(format!(
                "option `metric = {metric}` needs `positive_label` (the GT classes are {})",
                gt.classes.names.join(", ")
            )));
        }
        diags.push(
            Diagnostic::info(
                &format!("{ID}.no_positive_label"),
                format!(
                    "f1, precision and recall need `positive_label` (classes: {})",
                    gt.classes.names.join(", ")
                ),
            )
            .hint("Set the option positive_label to the positive class."),
        );
    }
    Ok(positive)
}

/// What the submission's labels and layout leave out: mixed label types, the binary score layout, labels
/// outside two GT classes, a leaderboard metric the layout cannot give.
pub fn submission_notes(
    sub: &csvin::Submission,
    classes: &csvin::Classes,
    metric: &str,
    diags: &mut Diags,
) {
    let k = classes.metric_k();
    if let (Some((line, col, text, count)), None) = (&sub.mixed, &sub.numbers_as_labels) {
        diags.push(
            Diagnostic::warning(&format!("{ID}.mixed_label_types"), format!("{count} predicted label(s) are not integers while the GT classes are (first: `{text}`); label metrics are null"))
                .file(&sub.file).at(*line, *col)
                .official("scikit-learn raises (Mix of label input types)"),
        );
    }
    if sub.layout == Layout::BinaryScore {
        diags.push(
            Diagnostic::info(
                &format!("{ID}.binary_score"),
                "binary score layout: only score metrics are computed; hard-label metrics are null",
            )
            .file(&sub.file),
        );
    }
    if k == 2 && !sub.extra.is_empty() {
        diags.push(
            Diagnostic::info(
                &format!("{ID}.binary_extra_label"),
                "a predicted label outside the two GT classes: f1, precision and recall are null",
            )
            .official("scikit-learn raises (Target is multiclass but average='binary')")
            .file(&sub.file),
        );
    }
    if sub.layout == Layout::LabelScores {
        diags.push(
            Diagnostic::info(
                &format!("{ID}.labels_as_scores"),
                format!("the submission holds class labels only; read as the positive class's scores too, because the leaderboard metric `{metric}` needs scores (as scikit-learn's scorer takes them)"),
            )
            .file(&sub.file)
            .hint("Submit probabilities (the positive class's score) for a finer ranking."),
        );
    }
    let has_scores = sub.layout != Layout::Labels;
    if let (false, Some(first)) = (applies(metric, k, has_scores), &sub.numbers_as_labels) {
        diags.push(
            Diagnostic::error(
                &format!("{ID}.metric_not_applicable"),
                format!(
                    "the leaderboard metric `{metric}` cannot be computed from one column of numbers (first: `{}`): {}",
                    crate::diag::excerpt(first),
                    needed_layout(metric, classes)
                ),
            )
            .file(&sub.file)
            .hint("Give one score column per class (each row's probabilities, summing to 1), named by the GT's class labels."),
        );
    } else if !applies(metric, k, has_scores) {
        diags.push(
            Diagnostic::error(
                &format!("{ID}.metric_not_applicable"),
                format!(
                    "the leaderboard metric `{metric}` cannot be computed from a {} submission: {}",
                    sub.layout.as_str(),
                    needed_layout(metric, classes)
                ),
            )
            .file(&sub.file)
            .hint("Submit the layout the competition asks for."),
        );
    }
}

/// Multi-class scores whose rows do not sum to 1 (the first at GT row `row`, summing to `sum`): the ROC AUCs
/// are null as scikit-learn raises; an error when one of them is the leaderboard metric.
pub fn not_probabilities(
    sub: &csvin::Submission,
    row: usize,
    sum: f64,
    metric: &str,
) -> Diagnostic {
    let code = format!("{ID}.not_probabilities");
    let text = format!(
        "the score rows must sum to 1 for the multi-class ROC AUCs (the first that does not sums to {sum}); roc_auc_ovr, roc_auc_ovr_weighted and roc_auc_ovo are null"
    );
    let d = if matches!(
        metric,
        "roc_auc_ovr" | "roc_auc_ovr_weighted" | "roc_auc_ovo"
    ) {
        Diagnostic::error(&code, text)
    } else {
        Diagnostic::warning(&code, text)
    };
    d.file(&sub.file)
        .line(sub.seen.get(row).copied().unwrap_or(0))
        .official("scikit-learn raises: Target scores need to be probabilities for multiclass roc_auc, i.e. they should sum up to 1.0 over classes")
        .hint("Give probabilities: divide each row by its sum (np.allclose(1, row sum) must hold).")
}

/// One sentence: what a submission must contain for `metric` with the GT `classes`.
fn needed_layout(metric: &str, classes: &csvin::Classes) -> String {
    let k = classes.metric_k();
    let names = crate::diag::excerpt(&classes.names.join(", "));
    if !applies(metric, k, true) {
        let need = match metric {
            "f1" | "precision" | "recall" | "roc_auc" | "brier_score" => "exactly two classes",
            _ => "three classes or more",
        };
        return format!("it needs {need} in the ground truth, which has {k} ({names})");
    }
    if k == 2 {
        format!("it needs scores, the submission must give each id the positive class's score (one numeric column) or one score column per class ({names})")
    } else {
        format!("it needs scores, the submission must give each id one score column per class, named by the class labels ({names})")
    }
}
