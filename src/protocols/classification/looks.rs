//! What a CSV of the table families (`classification`, `regression`) looks like from its first bytes, so that
//! the role layer can tell swapped inputs (docs/specs/README.md, "Role detection"): a value column named like a
//! prediction (`prediction`, `pred`, `y_pred`…) or like the truth (`truth`, `gt`, `y_true`…), and for
//! classification, columns of non-integer numbers (scores, which a GT label column never holds); else the file
//! name decides. Names a submission may share with its GT (`label`, `target`, `score`) say nothing.

use crate::protocols::shell::Class;

/// Value-column names that only a submission uses.
const PRED_NAMES: &[&str] = &[
    "prediction",
    "predictions",
    "pred",
    "preds",
    "predicted",
    "y_pred",
    "yhat",
    "y_hat",
];
/// Value-column names that only a ground truth uses.
const GT_NAMES: &[&str] = &["truth", "ground_truth", "groundtruth", "gt", "y_true"];

/// The class of a table file from its `head`; `scores`: columns of non-integer numbers mark a submission.
pub fn classify(path: &str, head: &[u8], scores: bool) -> Class {
    let text = crate::formats::lines::strip_bom(head);
    let Ok(text) = std::str::from_utf8(cut_at_char(text)) else {
        return Class::either();
    };
    let mut lines = text.lines();
    let Some(header) = lines.next() else {
        return Class::either();
    };
    let delim = [',', '\t', ';']
        .into_iter()
        .find(|d| header.contains(*d))
        .unwrap_or(',');
    let cells = |l: &str| -> Vec<String> {
        l.split(delim)
            .map(|c| c.trim().trim_matches('"').trim().to_ascii_lowercase())
            .collect()
    };
    let names = cells(header);
    if names.len() < 2 {
        return Class::either().or_name(path);
    }
    let id = names.iter().position(|n| n == "id").unwrap_or(0);
    let values: Vec<&String> = names
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != id)
        .map(|(_, n)| n)
        .collect();
    if let Some(n) = values.iter().find(|n| PRED_NAMES.contains(&n.as_str())) {
        return Class::pred(format!("has a `{n}` column"));
    }
    if let Some(n) = values.iter().find(|n| GT_NAMES.contains(&n.as_str())) {
        return Class::gt(format!("has a `{n}` column"));
    }
    if scores && holds_scores(lines, &cells, id, names.len()) {
        return Class::pred(
            "holds non-integer numbers, like scores (a GT label column holds classes)",
        );
    }
    Class::either().or_name(path)
}

/// The complete rows of the head (the last line may be cut) have every value column a number, and some of them
/// are not integers.
fn holds_scores<'a>(
    lines: impl Iterator<Item = &'a str>,
    cells: &dyn Fn(&str) -> Vec<String>,
    id: usize,
    width: usize,
) -> bool {
    let rows: Vec<Vec<String>> = lines.map(cells).collect();
    let complete = &rows[..rows.len().saturating_sub(1)];
    if complete.is_empty() {
        return false;
    }
    let mut fraction = false;
    for row in complete {
        if row.len() != width {
            return false;
        }
        for (_, c) in row.iter().enumerate().filter(|&(i, _)| i != id) {
            match c.parse::<f64>() {
                Ok(v) if v.is_finite() => fraction |= v.fract() != 0.0,
                _ => return false,
            }
        }
    }
    fraction
}

/// `head` without a UTF-8 sequence cut at its end.
fn cut_at_char(head: &[u8]) -> &[u8] {
    match std::str::from_utf8(head) {
        Ok(_) => head,
        Err(e) => &head[..e.valid_up_to()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocols::shell::Looks;

    #[test]
    fn names_and_scores() {
        let c = |p: &str, h: &str, s: bool| classify(p, h.as_bytes(), s).looks;
        assert_eq!(c("a.csv", "id,prediction\n1,2\n", false), Looks::Pred);
        assert_eq!(c("a.csv", "id,target\n1,2.5\n", false), Looks::Either);
        assert_eq!(c("a.csv", "id,target\n1,2.5\n2,3\n", true), Looks::Pred);
        assert_eq!(c("a.csv", "id,label\n1,2\n2,1\n", true), Looks::Either);
        assert_eq!(
            c("a.csv", "id,cat,dog\n1,0.5,0.5\n2,1,0\n", true),
            Looks::Pred
        );
        assert_eq!(c("a.csv", "id,y_true\n1,0\n", true), Looks::Gt);
        assert_eq!(c("gt.csv", "id,label\n1,a\n", true), Looks::Gt);
    }
}
