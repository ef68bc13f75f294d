//! Tables of several target columns keyed by an id (Kaggle's multi-target layout, docs/specs/families.md
//! sections 1 and 2): a GT `id,<t1>,<t2>,…` and a submission with the same columns in any order, every cell a finite
//! decimal number. Shared by the `classification` (one binary target per column) and `regression` families;
//! every refusal names its file, line and column.

use super::shape::header_problem;
use crate::budget::{Budget, FAMILY_ROW_BYTES};
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::id_csv::{self, Batch, CsvIn, IdIndex, Matcher, Row, BATCH};
use crate::formats::id_index::{
    early_numbers, early_rows_every, early_tags, touch_rows, EarlyColumns, NumberColumns,
};
use crate::formats::pandas_cells::{read_number, IdKeys, ReadAs};

/// A GT of several target columns.
pub struct ColumnsGt {
    pub file: String,
    pub ids: IdIndex,
    /// The target column names, in the order of the option (or of the GT's header).
    pub names: Vec<String>,
    /// Row-major, `names.len()` values per row.
    pub values: Cells,
    pub lines: Vec<u64>,
    /// With a group column: each row's group (an index into `group_names`, in first-seen order).
    pub groups: Vec<u32>,
    pub group_names: Vec<String>,
    pub read_as: ReadAs,
    /// The ids' pandas keys (`read_as = pandas`).
    pub keys: IdKeys,
    /// With a weight column: each row's weight (scikit-learn's `sample_weight`); else empty.
    pub weights: Vec<f64>,
}

impl ColumnsGt {
    /// Column `j`'s values, one per GT row.
    pub fn column(&self, j: usize) -> Vec<f64> {
        let m = self.names.len();
        (0..self.lines.len())
            .map(|i| self.values.get(i * m + j))
            .collect()
    }
}

/// The cells of a GT table: a byte each while every value is a small integer, read back exactly (0/1 labels,
/// a skipped -1: a 1M x 6 binary table in 6 MB rather than 48), else a float each.
#[derive(Clone, Debug)]
pub enum Cells {
    Small(Vec<i8>),
    Wide(Vec<f64>),
}

impl Default for Cells {
    fn default() -> Self {
        Cells::Small(Vec::new())
    }
}

impl Cells {
    /// `v` as a small integer, if it is one exactly (not `-0.0`, not NaN).
    #[inline]
    fn small(v: f64) -> Option<i8> {
        let s = v as i8;
        (f64::from(s).to_bits() == v.to_bits()).then_some(s)
    }

    /// Appends `v` (the cells turn wide at the first value that is not small).
    #[inline]
    pub fn push(&mut self, v: f64) {
        match self {
            Cells::Small(c) => match Self::small(v) {
                Some(s) => c.push(s),
                None => {
                    let mut w: Vec<f64> = Vec::with_capacity(c.capacity().max(c.len() + 1));
                    w.extend(c.iter().map(|&s| f64::from(s)));
                    w.push(v);
                    *self = Cells::Wide(w);
                }
            },
            Cells::Wide(w) => w.push(v),
        }
    }

    /// Cell `i` (NaN past the end).
    #[inline]
    pub fn get(&self, i: usize) -> f64 {
        match self {
            Cells::Small(c) => c.get(i).map_or(f64::NAN, |&s| f64::from(s)),
            Cells::Wide(w) => w.get(i).copied().unwrap_or(f64::NAN),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Cells::Small(c) => c.len(),
            Cells::Wide(w) => w.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A submission against a [`ColumnsGt`]: values per GT row and target column (NaN where not given).
pub struct ColumnsSubmission {
    pub file: String,
    pub values: Vec<f64>,
    /// 1-based line per GT row (0 = not given).
    pub seen: Vec<u64>,
}

impl ColumnsSubmission {
    pub fn column(&self, j: usize, m: usize) -> Vec<f64> {
        self.values.iter().skip(j).step_by(m).copied().collect()
    }
}

/// The id column and the target columns of header `h` in the order of `wanted` (empty: every column of the
/// header but the id column and the `other` ones); `None` with a located error naming a missing column.
fn target_columns(
    family: &str,
    file: &str,
    h: &[String],
    (id_opt, wanted, other): (&str, &[String], &[usize]),
    diags: &mut Diags,
) -> Option<(usize, Vec<usize>)> {
    let id = id_csv::id_column(family, file, h, id_opt, diags)?;
    if wanted.is_empty() {
        let cols: Vec<usize> = (0..h.len())
            .filter(|&c| c != id && !other.contains(&c))
            .collect();
        if cols.is_empty() {
            diags.push(id_csv::missing_column(
                family,
                file,
                h,
                "(a target column)",
                "target_columns",
            ));
            return None;
        }
        return Some((id, cols));
    }
    let mut cols = Vec::with_capacity(wanted.len());
    for w in wanted {
        match h.iter().position(|x| x == w) {
            Some(c) => cols.push(c),
            None => {
                diags.push(id_csv::missing_column(family, file, h, w, "target_columns"));
                return None;
            }
        }
    }
    Some((id, cols))
}

/// The names a GT is read under: the id column option, the target columns (empty: every non-id, non-group,
/// non-weight column), the group column and the weight column (empty: none).
pub struct GtColumns<'a> {
    pub id: &'a str,
    pub targets: &'a [String],
    pub group: &'a str,
    pub weight: &'a str,
    pub read_as: ReadAs,
}

/// The column `name` of header `h` (named by `option`), or a located error naming it.
fn named_column(
    family: &str,
    file: &str,
    h: &[String],
    (name, option): (&str, &str),
    diags: &mut Diags,
) -> Option<usize> {
    let c = h.iter().position(|x| x == name);
    if c.is_none() {
        diags.push(id_csv::missing_column(family, file, h, name, option));
    }
    c
}

/// Reads a GT of target columns.
#[allow(clippy::too_many_arguments)] // the file, its reader and size, then the options it reads under
pub fn read_gt<'i>(
    family: &str,
    file: &str,
    r: impl Into<CsvIn<'i>>,
    size: u64,
    delimiter: u8,
    opts: GtColumns,
    budget: Budget,
    diags: &mut Diags,
) -> Option<ColumnsGt> {
    let mut gt = ColumnsGt {
        file: file.to_string(),
        ids: IdIndex::default(),
        names: Vec::new(),
        values: Cells::default(),
        lines: Vec::new(),
        groups: Vec::new(),
        group_names: Vec::new(),
        read_as: opts.read_as,
        keys: IdKeys::default(),
        weights: Vec::new(),
    };
    let mut group_index = std::collections::HashMap::<String, u32>::new();
    let (mut group, mut weight) = (None, None);
    let (mut cols, mut held, mut over, mut tags) = (None, 0u64, false, Vec::new());
    let (shared, numbered) = (EarlyColumns::new(), NumberColumns::new());
    let each = |ev: Batch, diags: &mut Diags| match ev {
        Batch::Header(h) => {
            if let Some(d) = header_problem(family, file, h, delimiter, None) {
                diags.push(d);
                return false;
            }
            if !opts.group.is_empty() {
                group = named_column(family, file, h, (opts.group, "group_column"), diags);
                if group.is_none() {
                    return false;
                }
            }
            if !opts.weight.is_empty() {
                weight = named_column(family, file, h, (opts.weight, "weight_column"), diags);
                if weight.is_none() {
                    return false;
                }
            }
            let other: Vec<usize> = group.into_iter().chain(weight).collect();
            cols = target_columns(family, file, h, (opts.id, opts.targets, &other), diags);
            if let Some((ic, c)) = &cols {
                gt.names = c.iter().map(|&j| h[j].clone()).collect();
                let _ = numbered.set(c.clone());
                let _ = shared.set((*ic, None));
            }
            cols.is_some()
        }
        Batch::Rows(rows) => {
            let Some((ic, c)) = &cols else { return false };
            let per_row = FAMILY_ROW_BYTES + 8 * c.len() as u64;
            let bytes = |row: &Row| row.get(*ic).len() as u64 + per_row;
            let what = format!("its id and {per_row} bytes each");
            if !id_csv::charge_rows(&mut held, rows, bytes, &what, budget, file, diags) {
                over = true;
                return false;
            }
            if gt.ids.is_empty() {
                gt.ids.reserve(id_csv::expected_rows(size, rows, budget));
            }
            gt.ids.prepare_rows(rows.iter(), *ic, &mut tags);
            for (row, &tag) in rows.iter().zip(&tags) {
                let repeat = gt.keys.repeat(gt.read_as, &gt.ids, row.get(*ic));
                if let Some(first) =
                    repeat.or_else(|| gt.ids.insert_tagged(row.get(*ic), tag).err())
                {
                    let first = gt.lines[first];
                    diags.push(id_csv::duplicate_gt_id(family, file, row, *ic, first));
                    continue;
                }
                for (k, &j) in c.iter().enumerate() {
                    let v = early_number(row, k)
                        .or_else(|| read_number(gt.read_as, family, file, row, j, diags));
                    gt.values.push(v.unwrap_or(f64::NAN));
                }
                if let Some(g) = group {
                    let name = row.get(g);
                    let next = group_index.len() as u32;
                    let code = *group_index.entry(name.to_string()).or_insert_with(|| {
                        gt.group_names.push(name.to_string());
                        next
                    });
                    gt.groups.push(code);
                }
                if let Some(wc) = weight {
                    gt.weights
                        .push(super::weight(gt.read_as, file, row, wc, diags));
                }
                gt.lines.push(row.line);
            }
            true
        }
    };
    id_csv::read_batched_with(
        family,
        file,
        r,
        delimiter,
        BATCH,
        early_numbers(early_tags(&shared), &numbered),
        diags,
        each,
    )?;
    cols?;
    if over {
        return None;
    }
    if gt.lines.is_empty() {
        diags.push(id_csv::empty_gt(family, file));
        return None;
    }
    Some(gt)
}

/// Reads a submission of the GT's target columns (found by name, in any order; other columns ignored).
pub fn read_submission<'i>(
    family: &str,
    gt: &ColumnsGt,
    file: &str,
    r: impl Into<CsvIn<'i>>,
    delimiter: u8,
    id_opt: &str,
    diags: &mut Diags,
) -> Option<ColumnsSubmission> {
    let (n, m) = (gt.ids.len(), gt.names.len());
    let mut matcher = Matcher::new(family, file, n);
    // Zeroed, so fresh pages untouched until a row is written (no pass of NaN before the reading): every cell
    // of an accepted row is written below, the rows never accepted are NaN'd after.
    let mut values = vec![0.0; n * m];
    let (mut cols, mut found) = (None, Vec::new());
    let (shared, numbered) = (EarlyColumns::new(), NumberColumns::new());
    let each = |ev: Batch, diags: &mut Diags| match ev {
        Batch::Header(h) => {
            let is_gt_id = |c: &str| gt.ids.find(c).is_some();
            if let Some(d) = header_problem(family, file, h, delimiter, Some(&is_gt_id)) {
                diags.push(d);
                return false;
            }
            cols = target_columns(family, file, h, (id_opt, &gt.names, &[]), diags);
            if let Some((ic, c)) = &cols {
                let _ = numbered.set(c.clone());
                let _ = shared.set((*ic, None));
            }
            cols.is_some()
        }
        Batch::Rows(rows) => {
            let Some((ic, c)) = &cols else { return false };
            matcher.lookup(&gt.ids, rows, *ic, &mut found);
            if gt.read_as == ReadAs::Pandas {
                gt.keys.resolve(&gt.ids, rows, *ic, &mut found);
            }
            // The batch's rows of the table fetched together: a submission in another order than the
            // GT's writes each row at a random place (1M x 6 Jigsaw layout: 48 MB).
            touch_rows(&values, &found, m);
            for (row, &f) in rows.iter().zip(&found) {
                if let Some(i) = matcher.accept(row, *ic, f, diags) {
                    for (k, &j) in c.iter().enumerate() {
                        let v = early_number(row, k)
                            .or_else(|| read_number(gt.read_as, family, file, row, j, diags));
                        values[i * m + k] = v.unwrap_or(f64::NAN);
                    }
                }
            }
            true
        }
    };
    // The tokenising thread reads every target column's number too: it finds the rows of one block in three.
    let early = early_numbers(early_rows_every(&gt.ids, &shared, 3), &numbered);
    let read = id_csv::read_batched_with(family, file, r, delimiter, BATCH, early, diags, each);
    read?;
    cols?;
    for (i, _) in matcher
        .seen
        .iter()
        .enumerate()
        .filter(|(_, &line)| line == 0)
    {
        values[i * m..(i + 1) * m].fill(f64::NAN);
    }
    Some(ColumnsSubmission {
        file: file.to_string(),
        values,
        seen: matcher.seen,
    })
}

/// The `k`-th target column's number of `row` as the tokenising thread read it ([`early_numbers`]): what
/// [`read_number`] gives in either mode for a field that is a finite number (no such field is a boolean or a
/// missing value to pandas); `None` (not read, or not a finite number) leaves the field to [`read_number`].
#[inline]
fn early_number(row: &Row, k: usize) -> Option<f64> {
    row.numbers.get(k).copied().filter(|v| !v.is_nan())
}

/// A GT cell of a binary target column that is neither class nor the skipped value: a located error naming
/// the column.
pub fn not_binary(family: &str, gt: &ColumnsGt, row: usize, col: usize, value: f64) -> Diagnostic {
    Diagnostic::error(
        &format!("{family}.not_binary"),
        format!(
            "target column `{}` holds `{value}`; a column-wise metric reads 0 and 1 (and the skipped value)",
            excerpt(&gt.names[col])
        ),
    )
    .file(&gt.file)
    .line(gt.lines[row])
    .expected("0 or 1")
    .found(value.to_string())
    .hint("Give each target column 0/1 labels, or set `skip_target` to the value that marks a row out of a column.")
}

#[cfg(test)]
mod tests {
    use super::Cells;

    /// Cells read back bit for bit, small while they can be, wide from the first value that is not small.
    #[test]
    fn cells_read_back_exactly() {
        let mut c = Cells::default();
        let small = [0.0, 1.0, -1.0, 127.0, -128.0, 1.0];
        small.iter().for_each(|&v| c.push(v));
        assert!(matches!(c, Cells::Small(_)));
        let wide = [-0.0, 0.5, f64::NAN, 128.0, 1e300, -129.0];
        for (k, &v) in wide.iter().enumerate() {
            let mut d = c.clone();
            d.push(v);
            assert!(matches!(d, Cells::Wide(_)), "{v}");
            d.push(1.0);
            let want: Vec<u64> = small
                .iter()
                .chain([&wide[k], &1.0])
                .map(|v| v.to_bits())
                .collect();
            let got: Vec<u64> = (0..d.len()).map(|i| d.get(i).to_bits()).collect();
            assert_eq!(got, want);
        }
        assert!(c.get(100).is_nan());
    }
}
