//! CSV inputs of the `regression` family (docs/specs/families.md section 2): GT `id,target` and submission
//! `id,<prediction>`, decimal floats; NaN, infinities, empty and non-numeric cells are located errors.

use super::classification_csv::shape::{header_problem, IsGtId};
use super::id_csv::{self, Batch, CsvIn, IdIndex, Matcher, Row, Tag, BATCH};
use super::id_index::{early_rows, early_tags, EarlyColumns};
use crate::budget::{Budget, FAMILY_ROW_BYTES};
use crate::diag::Diags;

pub const FAMILY: &str = "regression";
/// Value column names tried when the header has more than one other column.
pub const VALUE_DEFAULTS: &[&str] = &["target", "prediction", "pred", "value", "y"];

pub struct Gt {
    pub file: String,
    pub ids: IdIndex,
    pub targets: Vec<f64>,
    pub lines: Vec<u64>,
}

/// Reads the GT (`size`: the input's size in bytes, 0 when unknown; it sizes the id table ahead). `None` when it cannot be used.
#[allow(clippy::too_many_arguments)] // the file, its reader and size, then the options it reads under
pub fn read_gt<'i>(
    file: &str,
    r: impl Into<CsvIn<'i>>,
    size: u64,
    delimiter: u8,
    id_opt: &str,
    value_opt: &str,
    budget: Budget,
    diags: &mut Diags,
) -> Option<Gt> {
    let mut held = 0u64;
    let mut over = false;
    let mut gt = Gt {
        file: file.to_string(),
        ids: IdIndex::default(),
        targets: Vec::new(),
        lines: Vec::new(),
    };
    let mut cols = None;
    let mut tags = Vec::new();
    let shared = EarlyColumns::new();
    let each = |ev: Batch, diags: &mut Diags| match ev {
        Batch::Header(h) => {
            cols = columns(
                file,
                h,
                (id_opt, value_opt),
                (delimiter, None),
                &shared,
                diags,
            );
            cols.is_some()
        }
        Batch::Rows(rows) => {
            let Some((ic, vc)) = cols else { return false };
            let bytes = |row: &Row| row.get(ic).len() as u64 + FAMILY_ROW_BYTES;
            let what = format!("its id and {FAMILY_ROW_BYTES} bytes each");
            if !id_csv::charge_rows(&mut held, rows, bytes, &what, budget, file, diags) {
                over = true;
                return false;
            }
            if gt.ids.is_empty() {
                gt.ids.reserve(id_csv::expected_rows(size, rows, budget));
            }
            gt.ids.prepare_rows(rows.iter(), ic, &mut tags);
            for (row, &tag) in rows.iter().zip(&tags) {
                gt_row(&mut gt, file, row, (ic, vc), tag, diags);
            }
            true
        }
    };
    let early = early_tags(&shared);
    id_csv::read_batched_with(FAMILY, file, r, delimiter, BATCH, early, diags, each)?;
    cols?;
    if over {
        return None;
    }
    if gt.targets.is_empty() {
        diags.push(id_csv::empty_gt(FAMILY, file));
        return None;
    }
    Some(gt)
}

/// One GT row: its id (field `ic`, tag `tag`) and target (field `vc`).
fn gt_row(
    gt: &mut Gt,
    file: &str,
    row: &Row,
    (ic, vc): (usize, usize),
    tag: Tag,
    diags: &mut Diags,
) {
    let id = row.get(ic);
    if let Err(first) = gt.ids.insert_tagged(id, tag) {
        diags.push(id_csv::duplicate_gt_id(
            FAMILY,
            file,
            row,
            ic,
            gt.lines[first],
        ));
        return;
    }
    let v = (row.early.number)
        .or_else(|| id_csv::number(FAMILY, file, row, vc, diags))
        .unwrap_or(f64::NAN);
    gt.targets.push(v);
    gt.lines.push(row.line);
}

pub struct Submission {
    pub file: String,
    /// Per GT row; NaN where not given or unusable.
    pub preds: Vec<f64>,
    /// 1-based line per GT row (0 = not given).
    pub seen: Vec<u64>,
}

/// Reads a submission against the GT. `None` when its columns cannot be told.
pub fn read_submission<'i>(
    gt: &Gt,
    file: &str,
    r: impl Into<CsvIn<'i>>,
    delimiter: u8,
    id_opt: &str,
    value_opt: &str,
    diags: &mut Diags,
) -> Option<Submission> {
    let n = gt.ids.len();
    let mut m = Matcher::new(FAMILY, file, n);
    let mut preds = vec![f64::NAN; n];
    let mut cols = None;
    let mut found = Vec::new();
    let shared = EarlyColumns::new();
    let each = |ev: Batch, diags: &mut Diags| match ev {
        Batch::Header(h) => {
            let is_gt_id = |c: &str| gt.ids.find(c).is_some();
            cols = columns(
                file,
                h,
                (id_opt, value_opt),
                (delimiter, Some(&is_gt_id)),
                &shared,
                diags,
            );
            cols.is_some()
        }
        Batch::Rows(rows) => {
            let Some((ic, vc)) = cols else { return false };
            m.lookup(&gt.ids, rows, ic, &mut found);
            for (row, &f) in rows.iter().zip(&found) {
                if let Some(i) = m.accept(row, ic, f, diags) {
                    let v =
                        (row.early.number).or_else(|| id_csv::number(FAMILY, file, row, vc, diags));
                    if let Some(v) = v {
                        preds[i] = v;
                    }
                }
            }
            true
        }
    };
    let early = early_rows(&gt.ids, &shared);
    id_csv::read_batched_with(FAMILY, file, r, delimiter, BATCH, early, diags, each)?;
    cols?;
    Some(Submission {
        file: file.to_string(),
        preds,
        seen: m.seen,
    })
}

/// The id and value columns of header `h` (options `id_opt`, `value_opt`; `None` with an error: the problem
/// with the header, `delimiter` and `is_gt_id` as [`header_problem`] takes them), also handed to the `early`
/// function.
fn columns(
    file: &str,
    h: &[String],
    (id_opt, value_opt): (&str, &str),
    (delimiter, is_gt_id): (u8, IsGtId),
    shared: &EarlyColumns,
    diags: &mut Diags,
) -> Option<(usize, usize)> {
    if let Some(d) = header_problem(FAMILY, file, h, delimiter, is_gt_id) {
        diags.push(d);
        return None;
    }
    let id = id_csv::id_column(FAMILY, file, h, id_opt, diags)?;
    let v = id_csv::value_column(FAMILY, file, h, id, value_opt, VALUE_DEFAULTS, diags)?;
    let _ = shared.set((id, Some(v)));
    Some((id, v))
}
