//! CSV inputs of the `classification` family (docs/specs/families.md section 1): a GT `id,label` table and a
//! submission as hard labels, per-class score columns (Kaggle's multi-class layout) or one binary score
//! column. Streaming: ids are kept once (the GT's), submission values land in per-GT-row arrays.

use super::id_csv::{self, Batch, CsvIn, IdIndex, BATCH};
use super::id_index::{early_tags, EarlyColumns, Tag};
use super::pandas_cells::{self as pandas, IdKeys, ReadAs};
use crate::budget::{Budget, FAMILY_ROW_BYTES};
use crate::diag::{Diagnostic, Diags};

pub mod columns;
pub mod names;
pub mod shape;
mod submission;
pub use submission::read_submission;

pub const FAMILY: &str = "classification";
/// Column names tried for the label column when the header has more than one other column.
pub const LABEL_DEFAULTS: &[&str] = &["label", "target", "class", "y"];
/// A submission row without a usable value.
pub const NONE: u32 = u32::MAX;

/// The GT classes: integers in numeric order when every GT label parses as one, else strings in code-point
/// order (NumPy's `unique`).
#[derive(Clone, Debug, PartialEq)]
pub struct Classes {
    pub names: Vec<String>,
    pub ints: Option<Vec<i64>>,
    /// Predicted labels are read as pandas reads them ([`Classes::index_value`]).
    pub pandas: bool,
}

impl Classes {
    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
    /// A single integer class 0 or 1: a binary problem of which the ground truth holds one class (scikit-learn
    /// still scores it as binary, positive label 1).
    pub fn single_binary(&self) -> bool {
        matches!(self.ints.as_deref(), Some([0]) | Some([1]))
    }
    /// Two classes, or [`Self::single_binary`].
    pub fn binary(&self) -> bool {
        self.len() == 2 || self.single_binary()
    }
    /// The class count the metrics' rules read: 2 for [`Self::single_binary`].
    pub fn metric_k(&self) -> usize {
        if self.single_binary() {
            2
        } else {
            self.len()
        }
    }
    /// The class index of a label cell (trimmed), if it is a GT class: as [`Classes::index`], and as pandas
    /// reads cells ([`Classes::pandas`]): against integer classes, an integral float (`3.0`) or a boolean is
    /// the integer it equals in NumPy; against the classes `False` and `True`, `0` and `1` are them.
    pub fn index_value(&self, s: &str) -> Option<usize> {
        if !self.pandas {
            return self.index(s);
        }
        match &self.ints {
            Some(v) => pandas::integral(s)
                .or_else(|| pandas::boolean(s).map(i64::from))
                .and_then(|x| v.binary_search(&x).ok()),
            None if self.bools() => {
                let b = pandas::boolean(s).or(match pandas::integral(s) {
                    Some(0) => Some(false),
                    Some(1) => Some(true),
                    _ => None,
                })?;
                self.index(if b { "True" } else { "False" })
            }
            None => self.index(s),
        }
    }
    /// Classes `False` and `True` (or one of them), as pandas reads a column of booleans.
    pub fn bools(&self) -> bool {
        self.pandas
            && !self.names.is_empty()
            && self.names.iter().all(|n| n == "False" || n == "True")
    }
    /// The class index of a label text (trimmed), if it is a GT class.
    pub fn index(&self, s: &str) -> Option<usize> {
        match &self.ints {
            Some(v) => s.parse::<i64>().ok().and_then(|x| v.binary_search(&x).ok()),
            None => self.names.binary_search_by(|n| n.as_str().cmp(s)).ok(),
        }
    }
}

pub struct Gt {
    pub file: String,
    pub ids: IdIndex,
    /// Class index per row.
    pub labels: Vec<u32>,
    /// 1-based line per row.
    pub lines: Vec<u64>,
    pub classes: Classes,
    /// The ids' pandas keys (`read_as = pandas`).
    pub keys: IdKeys,
    /// Each row's weight (scikit-learn's `sample_weight`), when a weight column is read; else empty.
    pub weights: Vec<f64>,
}

/// Reads the GT table (`size`: the input's size in bytes, 0 when unknown; it sizes the id table ahead). `None`
/// when it cannot be used (no header, no label column, no row).
#[allow(clippy::too_many_arguments)] // the file, its reader and size, then the options it reads under
pub fn read_gt<'i>(
    file: &str,
    r: impl Into<CsvIn<'i>>,
    size: u64,
    delimiter: u8,
    id_opt: &str,
    label_opt: &str,
    budget: Budget,
    diags: &mut Diags,
) -> Option<Gt> {
    let cols = (id_opt, label_opt);
    read_gt_as(file, r, size, delimiter, cols, ReadAs::Text, budget, diags)
}

/// [`read_gt`] with cells read as `read_as` says.
#[allow(clippy::too_many_arguments)] // the file, its reader and size, then the options it reads under
pub fn read_gt_as<'i>(
    file: &str,
    r: impl Into<CsvIn<'i>>,
    size: u64,
    delimiter: u8,
    (id_opt, label_opt): (&str, &str),
    read_as: ReadAs,
    budget: Budget,
    diags: &mut Diags,
) -> Option<Gt> {
    let cols = (id_opt, label_opt, "");
    read_gt_weighted(file, r, size, delimiter, cols, read_as, budget, diags)
}

/// [`read_gt_as`] with a weight column named `weight_opt` (empty: none): each row's weight a finite number
/// ≥ 0 in [`Gt::weights`] (a negative one is refused, `classification.negative_weight`).
#[allow(clippy::too_many_arguments)] // the file, its reader and size, then the options it reads under
pub fn read_gt_weighted<'i>(
    file: &str,
    r: impl Into<CsvIn<'i>>,
    size: u64,
    delimiter: u8,
    (id_opt, label_opt, weight_opt): (&str, &str, &str),
    read_as: ReadAs,
    budget: Budget,
    diags: &mut Diags,
) -> Option<Gt> {
    let mut held = 0u64;
    let mut over = false;
    let mut g = GtRows::of(read_as);
    let mut cols: Option<(usize, usize)> = None;
    let mut tags = Vec::new();
    let shared = EarlyColumns::new();
    id_csv::read_batched_with(
        FAMILY,
        file,
        r,
        delimiter,
        BATCH,
        early_tags(&shared),
        diags,
        |ev, diags| match ev {
            Batch::Header(h) => {
                if let Some(d) = shape::header_problem(FAMILY, file, h, delimiter, None) {
                    diags.push(d);
                    return false;
                }
                let id = id_csv::id_column(FAMILY, file, h, id_opt, diags);
                cols = id.zip(id.and_then(|id| {
                    id_csv::value_column(FAMILY, file, h, id, label_opt, LABEL_DEFAULTS, diags)
                }));
                if let Some((ic, _)) = cols {
                    let _ = shared.set((ic, None));
                }
                if !weight_opt.is_empty() && cols.is_some() {
                    g.weight_col = h.iter().position(|c| c == weight_opt);
                    if g.weight_col.is_none() {
                        let d =
                            id_csv::missing_column(FAMILY, file, h, weight_opt, "weight_column");
                        diags.push(d);
                        return false;
                    }
                }
                cols.is_some()
            }
            Batch::Rows(rows) => {
                let Some((ic, lc)) = cols else { return false };
                let bytes = |row: &id_csv::Row| {
                    (row.get(ic).len() + row.get(lc).len()) as u64 + FAMILY_ROW_BYTES
                };
                let what = format!("its id, its label and {FAMILY_ROW_BYTES} bytes each");
                if !id_csv::charge_rows(&mut held, rows, bytes, &what, budget, file, diags) {
                    over = true;
                    return false;
                }
                if g.ids.is_empty() {
                    g.ids.reserve(id_csv::expected_rows(size, rows, budget));
                }
                g.ids.prepare_rows(rows.iter(), ic, &mut tags);
                for (row, &tag) in rows.iter().zip(&tags) {
                    g.add(file, row, (ic, lc), tag, diags);
                }
                true
            }
        },
    )?;
    cols?;
    if over {
        return None;
    }
    let GtRows {
        ids,
        raw,
        lines,
        names,
        keys,
        weights,
        ..
    } = g;
    if raw.is_empty() {
        diags.push(id_csv::empty_gt(FAMILY, file));
        return None;
    }
    let (classes, labels) = classes_of(&names, &raw, read_as == ReadAs::Pandas);
    Some(Gt {
        file: file.to_string(),
        ids,
        labels,
        lines,
        classes,
        keys,
        weights,
    })
}

/// The GT rows read so far: ids, each row's label as an index into the distinct labels, lines.
#[derive(Default)]
struct GtRows {
    ids: IdIndex,
    raw: Vec<u32>,
    lines: Vec<u64>,
    distinct: names::Names,
    names: Vec<String>,
    read_as: ReadAs,
    keys: IdKeys,
    /// The weight column, and each row's weight.
    weight_col: Option<usize>,
    weights: Vec<f64>,
}

impl GtRows {
    fn of(read_as: ReadAs) -> Self {
        GtRows {
            read_as,
            ..GtRows::default()
        }
    }
    /// Adds `row` (id and label columns `cols`, the id's tag `tag`); a repeated id is reported and skipped.
    #[inline]
    fn add(
        &mut self,
        file: &str,
        row: &id_csv::Row,
        (ic, lc): (usize, usize),
        tag: Tag,
        diags: &mut Diags,
    ) {
        let repeat = self.keys.repeat(self.read_as, &self.ids, row.get(ic));
        if let Some(first) = repeat.or_else(|| self.ids.insert_tagged(row.get(ic), tag).err()) {
            diags.push(id_csv::duplicate_gt_id(
                FAMILY,
                file,
                row,
                ic,
                self.lines[first],
            ));
            return;
        }
        let label = row.get(lc);
        if label.is_empty() {
            diags.push(
                Diagnostic::error(&format!("{FAMILY}.empty_cell"), "empty GT label")
                    .file(file)
                    .at(row.line, row.column(lc))
                    .hint("Give every GT row a label."),
            );
        }
        let (k, new) = (self.distinct).get_or_insert(label, self.names.len() as u32);
        if new {
            self.names.push(label.to_string());
        }
        self.raw.push(k);
        self.lines.push(row.line);
        if let Some(wc) = self.weight_col {
            self.weights
                .push(weight(self.read_as, file, row, wc, diags));
        }
    }
}

/// A row's weight (column `wc`): a number as `read_as` reads it, refused when negative; NaN when refused.
fn weight(read_as: ReadAs, file: &str, row: &id_csv::Row, wc: usize, diags: &mut Diags) -> f64 {
    match pandas::read_number(read_as, FAMILY, file, row, wc, diags) {
        Some(w) if w < 0.0 => {
            diags.push(
                Diagnostic::error(
                    &format!("{FAMILY}.negative_weight"),
                    format!("negative weight `{}`", row.get(wc)),
                )
                .file(file)
                .at(row.line, row.column(wc))
                .hint("Give every GT row a weight ≥ 0 (scikit-learn's sample_weight)."),
            );
            f64::NAN
        }
        Some(w) => w,
        None => f64::NAN,
    }
}

/// The GT classes of the distinct labels `names` (integers when every label parses as one: equal values merge,
/// `01` and `1`; else strings), and each row's class index from its index into `names` (`raw`). As pandas reads
/// a column (`pandas`): integers also when every label is an integral number (`3.0`), and `False`/`True` when
/// every label is a boolean.
fn classes_of(names: &[String], raw: &[u32], pandas: bool) -> (Classes, Vec<u32>) {
    let parsed: Option<Vec<i64>> = names
        .iter()
        .map(|s| match pandas {
            true => pandas::integral(s),
            false => s.parse::<i64>().ok(),
        })
        .collect();
    let bools = pandas && names.iter().all(|s| pandas::boolean(s).is_some());
    let classes = match parsed {
        Some(v) => {
            let mut u = v.clone();
            u.sort_unstable();
            u.dedup();
            Classes {
                names: u.iter().map(|x| x.to_string()).collect(),
                ints: Some(u),
                pandas,
            }
        }
        None => {
            let mut u: Vec<String> = match bools {
                true => (names.iter())
                    .map(|s| match pandas::boolean(s) == Some(true) {
                        true => "True".to_string(),
                        false => "False".to_string(),
                    })
                    .collect(),
                false => names.to_vec(),
            };
            u.sort_unstable();
            u.dedup();
            Classes {
                names: u,
                ints: None,
                pandas,
            }
        }
    };
    let remap: Vec<u32> = names
        .iter()
        .map(|s| classes.index_value(s).unwrap_or(0) as u32)
        .collect();
    let labels = raw.iter().map(|&k| remap[k as usize]).collect();
    (classes, labels)
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    #[default]
    Labels,
    Scores,
    BinaryScore,
    /// Hard labels of two integer classes read as the positive class's score too, because the leaderboard
    /// metric needs scores (scikit-learn's `roc_auc_score` takes any numbers as scores): label and score metrics.
    LabelScores,
}

impl Layout {
    pub fn as_str(self) -> &'static str {
        match self {
            Layout::Labels => "labels",
            Layout::Scores => "scores",
            Layout::BinaryScore => "binary score",
            Layout::LabelScores => "labels read as scores",
        }
    }
}

/// A submission, aligned to the GT rows.
#[derive(Default)]
pub struct Submission {
    pub file: String,
    pub layout: Layout,
    /// Labels layout: per GT row the label index (0..k: GT classes; k + j: `extra[j]`), or [`NONE`].
    pub pred: Vec<u32>,
    /// Predicted labels that are not GT classes, in first-seen order.
    pub extra: Vec<String>,
    /// A predicted label that is not an integer while the GT classes are (scikit-learn: "Mix of label input
    /// types"): (line, column, text) of the first one and the count.
    pub mixed: Option<(u64, u64, String, u64)>,
    /// Scores layout: n×k row-major; binary score layout: n values. NaN where absent.
    pub scores: Vec<f64>,
    /// 1-based line per GT row (0 = not given).
    pub seen: Vec<u64>,
    /// Rows with an unusable value (located errors already given).
    pub bad_values: u64,
    /// A single column of numbers against three classes or more, for a metric that needs scores: read as
    /// labels (none a GT class); the first value as written. The protocol says what the metric needs instead
    /// of listing the numbers as unknown labels.
    pub numbers_as_labels: Option<String>,
}
