//! What the two table families (`classification`, `regression`) share: the one GT and one submission file,
//! the delimiter option, missing-id diagnostics, and plot helpers.

use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::id_csv::CsvIn;
use crate::input::{Entry, FileSet, Role};
use crate::protocols::UsageError;
use crate::report::Plot;

/// The single GT and single submission entries; `None` with an error when there are none or several.
pub fn pick<'a>(
    family: &str,
    files: &'a FileSet,
    diags: &mut Diags,
) -> Option<(&'a Entry, &'a Entry)> {
    let mut one = |role: Role, what: &str| -> Option<&'a Entry> {
        let all: Vec<&Entry> = files.with_role(role).collect();
        match all.len() {
            1 => Some(all[0]),
            0 => {
                diags.push(
                    Diagnostic::error(
                        &format!("{family}.no_{}", role.as_str()),
                        format!("no {what} file"),
                    )
                    .hint(format!("Drop the {what} CSV file.")),
                );
                None
            }
            n => {
                diags.push(
                    Diagnostic::error(
                        &format!("{family}.several_{}", role.as_str()),
                        format!("{n} {what} files; expected one"),
                    )
                    .found(excerpt(
                        &all.iter()
                            .map(|e| e.path.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                    ))
                    .hint(format!("Drop exactly one {what} CSV file.")),
                );
                None
            }
        }
    };
    let gt = one(Role::Gt, "ground-truth");
    let pred = one(Role::Pred, "submission");
    gt.zip(pred)
}

/// The `delimiter` option: one ASCII character, or `tab` / `\t`.
pub fn delimiter(text: &str) -> Result<u8, UsageError> {
    match text {
        "tab" | "\\t" | "\t" => Ok(b'\t'),
        d if d.len() == 1 && d.is_ascii() => Ok(d.as_bytes()[0]),
        d => Err(UsageError(format!(
            "option `delimiter`: expected one ASCII character or `tab`, found `{d}`"
        ))),
    }
}

/// One error (`missing = error`) or warning (`missing = worst`) per GT id absent from the submission, at its GT
/// line (capped per code by [`Diags`]; the summary gives the count).
pub fn missing_ids(
    family: &str,
    gt_file: &str,
    ids: &crate::formats::id_csv::IdIndex,
    lines: &[u64],
    missing: &[usize],
    worst: bool,
    diags: &mut Diags,
) {
    let n = missing.len();
    for &i in missing {
        let id = ids.get(i);
        let d = if worst {
            Diagnostic::warning(&format!("{family}.missing_id"), format!("id `{}` is not in the submission; scored as the worst prediction ({n} missing)", excerpt(id)))
        } else {
            Diagnostic::error(
                &format!("{family}.missing_id"),
                format!(
                    "id `{}` is not in the submission ({n} missing)",
                    excerpt(id)
                ),
            )
            .official("rejects the submission (as Kaggle does)")
        };
        diags.push(
            d.file(gt_file)
                .line(lines[i])
                .expected(excerpt(id))
                .hint("Give one row per GT id (or let the organizer set missing = worst)."),
        );
    }
}

/// At most `max` evenly spaced points of a curve (first and last kept), rounded to 4 decimals for display.
pub fn thin(xs: &[f64], ys: &[f64], max: usize) -> (Vec<f64>, Vec<Option<f64>>) {
    let n = xs.len();
    let idx: Vec<usize> = if n <= max {
        (0..n).collect()
    } else {
        (0..max).map(|j| j * (n - 1) / (max - 1)).collect()
    };
    let r4 = |v: f64| (v * 1e4).round() / 1e4;
    (
        idx.iter().map(|&i| r4(xs[i])).collect(),
        idx.iter()
            .map(|&i| Some(r4(ys[i])).filter(|v| v.is_finite()))
            .collect(),
    )
}

/// An empty plot of `kind` with its titles.
pub fn plot(id: &str, kind: &str, title: &str, x_label: &str, y_label: &str) -> Plot {
    Plot {
        id: id.into(),
        kind: kind.into(),
        title: title.into(),
        x_label: x_label.into(),
        y_label: y_label.into(),
        labels: Vec::new(),
        values: Vec::new(),
        series: Vec::new(),
    }
}

/// Entries from this size on are tokenised ahead on a second thread, where they can be ([`CsvIn::Ahead`]).
pub const AHEAD_BYTES: u64 = 1 << 20;

/// `read` applied to the (decompressed) stream of `entry`; a file that cannot be opened is `input.read_error`.
pub fn read_entry<'e, T>(
    entry: &'e Entry,
    diags: &mut Diags,
    read: impl FnOnce(CsvIn<'e>, &mut Diags) -> Option<T>,
) -> Option<T> {
    if entry.size >= AHEAD_BYTES {
        if let Some(r) = entry.open_send() {
            return read(CsvIn::Ahead(r), diags);
        }
    }
    match entry.open().map(CsvIn::Stream) {
        Ok(r) => read(r, diags),
        Err(e) => {
            diags.push(Diagnostic::read_error(&entry.path, e));
            None
        }
    }
}

/// The info line every family report carries in `corrected` mode.
pub fn corrected_note(family: &str) -> Diagnostic {
    Diagnostic::info(
        &format!("{family}.corrected_same"),
        "this family has no corrected behaviour: `corrected` gives the reference library's numbers, as `official` does",
    )
}

/// GT row indices in natural id order (the report's item order); a GT already in that order is not sorted.
pub fn natural_order(ids: &crate::formats::id_csv::IdIndex) -> Vec<usize> {
    use crate::report::natural_cmp;
    let n = ids.len();
    let mut order: Vec<usize> = (0..n).collect();
    let sorted =
        (1..n).all(|i| natural_cmp(ids.get(i - 1), ids.get(i)) != std::cmp::Ordering::Greater);
    if !sorted {
        order.sort_by(|&a, &b| natural_cmp(ids.get(a), ids.get(b)));
    }
    order
}
