//! CSV inputs of the `regression` family (docs/specs/families.md section 2): GT `id,target` and submission
//! `id,<prediction>`, decimal floats; NaN, infinities, empty and non-numeric cells are located errors.

use super::classification_csv::shape::{header_problem, IsGtId};
use super::id_csv::{self, Batch, CsvIn, IdIndex, Matcher, Row, Tag, BATCH};
use super::id_index::{early_rows, early_tags, EarlyColumns};
use super::pandas_cells::{self as pandas, IdKeys, ReadAs};
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
    pub read_as: ReadAs,
    /// The ids' pandas keys (`read_as = pandas`).
    pub keys: IdKeys,
    /// Each row's weight (scikit-learn's `sample_weight`), when a weight column is read; else empty.
    pub weights: Vec<f64>,
}

/// Reads the GT (`size`: the input's size in bytes, 0 when unknown; it sizes the id table ahead), cells as
/// text. `None` when it cannot be used.
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
    let cols = (id_opt, value_opt, "");
    read_gt_as(file, r, size, delimiter, cols, ReadAs::Text, budget, diags)
}

/// [`read_gt`] with cells read as `read_as` says, and a weight column named `weight_opt` (empty: none; each
/// row's weight a number, in [`Gt::weights`]).
#[allow(clippy::too_many_arguments)] // the file, its reader and size, then the options it reads under
pub fn read_gt_as<'i>(
    file: &str,
    r: impl Into<CsvIn<'i>>,
    size: u64,
    delimiter: u8,
    (id_opt, value_opt, weight_opt): (&str, &str, &str),
    read_as: ReadAs,
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
        read_as,
        keys: IdKeys::default(),
        weights: Vec::new(),
    };
    let mut cols = None;
    let mut weight_col = None;
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
            if !weight_opt.is_empty() {
                weight_col = h.iter().position(|c| c == weight_opt);
                if weight_col.is_none() {
                    let d = id_csv::missing_column(FAMILY, file, h, weight_opt, "weight_column");
                    diags.push(d);
                    return false;
                }
            }
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
                gt_row(&mut gt, file, row, (ic, vc, weight_col), tag, diags);
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

/// One GT row: its id (field `ic`, tag `tag`), target (field `vc`) and weight (field `wc`, if any).
fn gt_row(
    gt: &mut Gt,
    file: &str,
    row: &Row,
    (ic, vc, wc): (usize, usize, Option<usize>),
    tag: Tag,
    diags: &mut Diags,
) {
    let id = row.get(ic);
    let repeat = gt.keys.repeat(gt.read_as, &gt.ids, id);
    if let Some(first) = repeat.or_else(|| gt.ids.insert_tagged(id, tag).err()) {
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
        .or_else(|| number(gt.read_as, file, row, vc, diags))
        .unwrap_or(f64::NAN);
    gt.targets.push(v);
    if let Some(wc) = wc {
        let w = number(gt.read_as, file, row, wc, diags);
        gt.weights.push(w.unwrap_or(f64::NAN));
    }
    gt.lines.push(row.line);
}

pub struct Submission {
    pub file: String,
    /// Per GT row; NaN where not given or unusable.
    pub preds: Vec<f64>,
    /// 1-based line per GT row (0 = not given).
    pub seen: Vec<u64>,
}

/// A number cell read as `read_as` says.
fn number(read_as: ReadAs, file: &str, row: &Row, col: usize, diags: &mut Diags) -> Option<f64> {
    pandas::read_number(read_as, FAMILY, file, row, col, diags)
}

/// Reads a submission against the GT (cells read as the GT was). `None` when its columns cannot be told.
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
            if gt.read_as == ReadAs::Pandas {
                gt.keys.resolve(&gt.ids, rows, ic, &mut found);
            }
            for (row, &f) in rows.iter().zip(&found) {
                if let Some(i) = m.accept(row, ic, f, diags) {
                    let v = (row.early.number).or_else(|| number(gt.read_as, file, row, vc, diags));
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
