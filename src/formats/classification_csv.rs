//! CSV inputs of the `classification` family (docs/specs/families.md section 1): a GT `id,label` table and a
//! submission as hard labels, per-class score columns (Kaggle's multi-class layout) or one binary score
//! column. Streaming: ids are kept once (the GT's), submission values land in per-GT-row arrays.

use super::id_csv::{self, Batch, CsvIn, IdIndex, Matcher, BATCH};
use super::id_index::{early_rows, early_tags, touch_rows, EarlyColumns, Tag};
use crate::budget::{refusal, Budget, FAMILY_ROW_BYTES};
use crate::diag::{excerpt, Diagnostic, Diags};
use std::collections::HashMap;

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
}

impl Classes {
    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
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
    let mut held = 0u64;
    let mut over = false;
    let mut g = GtRows::default();
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
                let id = id_csv::id_column(FAMILY, file, h, id_opt, diags);
                cols = id.zip(id.and_then(|id| {
                    id_csv::value_column(FAMILY, file, h, id, label_opt, LABEL_DEFAULTS, diags)
                }));
                if let Some((ic, _)) = cols {
                    let _ = shared.set((ic, None));
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
        ..
    } = g;
    if raw.is_empty() {
        diags.push(id_csv::empty_gt(FAMILY, file));
        return None;
    }
    let (classes, labels) = classes_of(&names, &raw);
    Some(Gt {
        file: file.to_string(),
        ids,
        labels,
        lines,
        classes,
    })
}

/// The GT rows read so far: ids, each row's label as an index into the distinct labels, lines.
#[derive(Default)]
struct GtRows {
    ids: IdIndex,
    raw: Vec<u32>,
    lines: Vec<u64>,
    distinct: HashMap<String, u32>,
    names: Vec<String>,
}

impl GtRows {
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
        if let Err(first) = self.ids.insert_tagged(row.get(ic), tag) {
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
        let k = match self.distinct.get(label) {
            Some(&k) => k,
            None => {
                let n = self.distinct.len() as u32;
                self.distinct.insert(label.to_string(), n);
                self.names.push(label.to_string());
                n
            }
        };
        self.raw.push(k);
        self.lines.push(row.line);
    }
}

/// The GT classes of the distinct labels `names` (integers when every label parses as one: equal values merge,
/// `01` and `1`; else strings), and each row's class index from its index into `names` (`raw`).
fn classes_of(names: &[String], raw: &[u32]) -> (Classes, Vec<u32>) {
    let parsed: Option<Vec<i64>> = names.iter().map(|s| s.parse::<i64>().ok()).collect();
    let classes = match parsed {
        Some(v) => {
            let mut u = v.clone();
            u.sort_unstable();
            u.dedup();
            Classes {
                names: u.iter().map(|x| x.to_string()).collect(),
                ints: Some(u),
            }
        }
        None => {
            let mut u = names.to_vec();
            u.sort_unstable();
            Classes {
                names: u,
                ints: None,
            }
        }
    };
    let remap: Vec<u32> = names
        .iter()
        .map(|s| classes.index(s).unwrap_or(0) as u32)
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
}

impl Layout {
    pub fn as_str(self) -> &'static str {
        match self {
            Layout::Labels => "labels",
            Layout::Scores => "scores",
            Layout::BinaryScore => "binary score",
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
}

/// Reads a submission against the GT. `None` when its layout cannot be told (an error says why).
#[allow(clippy::too_many_arguments)] // the GT, the file and its reader, then the options it reads under
pub fn read_submission<'i>(
    gt: &Gt,
    file: &str,
    r: impl Into<CsvIn<'i>>,
    delimiter: u8,
    id_opt: &str,
    label_opt: &str,
    budget: Budget,
    diags: &mut Diags,
) -> Option<Submission> {
    let mut m = Matcher::new(FAMILY, file, gt.ids.len());
    let mut s = SubmissionReader::new(gt, file);
    let mut found = Vec::new();
    let shared = EarlyColumns::new();
    id_csv::read_batched_with(
        FAMILY,
        file,
        r,
        delimiter,
        BATCH,
        early_rows(&gt.ids, &shared),
        diags,
        |ev, diags| match ev {
            Batch::Header(h) => {
                let Some(ic) = id_csv::id_column(FAMILY, file, h, id_opt, diags) else {
                    return false;
                };
                let _ = shared.set((ic, None));
                s.header(h, ic, label_opt, budget, diags)
            }
            Batch::Rows(rows) => {
                m.lookup(&gt.ids, rows, s.id_col, &mut found);
                if s.sub.layout == Layout::Scores {
                    touch_rows(&s.sub.scores, &found, s.k.max(1));
                }
                for (row, &f) in rows.iter().zip(&found) {
                    let Some(i) = m.accept(row, s.id_col, f, diags) else {
                        continue;
                    };
                    if s.sub.layout == Layout::Scores {
                        s.scores_row(row, i, diags);
                    } else {
                        s.label_row(row, i, diags);
                    }
                }
                true
            }
        },
    )?;
    if !s.usable {
        return None;
    }
    let mut sub = s.finish(diags);
    sub.seen = m.seen;
    Some(sub)
}

/// A submission being read: its layout's columns and the counts its layout is told by at the end.
struct SubmissionReader<'g> {
    gt: &'g Gt,
    file: &'g str,
    /// GT rows and classes.
    n: usize,
    k: usize,
    sub: Submission,
    id_col: usize,
    label_col: usize,
    /// Scores layout: the column of each class.
    class_cols: Vec<usize>,
    extra_index: HashMap<String, u32>,
    /// Single-column layout: the value as a number too, and the non-numeric cells (binary score if some value
    /// is not a GT class).
    single: bool,
    not_class: u64,
    first_not_class: Option<(u64, u64, String)>,
    number_errors: Diags,
    number_bad: u64,
    not_number: u64,
    /// The header was read and a layout found.
    usable: bool,
}

impl<'g> SubmissionReader<'g> {
    fn new(gt: &'g Gt, file: &'g str) -> Self {
        SubmissionReader {
            gt,
            file,
            n: gt.ids.len(),
            k: gt.classes.len(),
            sub: Submission {
                file: file.to_string(),
                ..Submission::default()
            },
            id_col: 0,
            label_col: 0,
            class_cols: Vec::new(),
            extra_index: HashMap::new(),
            single: false,
            not_class: 0,
            first_not_class: None,
            number_errors: Diags::new(),
            number_bad: 0,
            not_number: 0,
            usable: false,
        }
    }

    /// The layout from the header `h` (id column `ic`): a named label column, score columns named by the GT
    /// classes, one other column, or the label column found by name. False when none fits (reported).
    fn header(
        &mut self,
        h: &[String],
        ic: usize,
        label_opt: &str,
        budget: Budget,
        diags: &mut Diags,
    ) -> bool {
        self.id_col = ic;
        let others: Vec<usize> = (0..h.len()).filter(|&i| i != ic).collect();
        let named_label = if label_opt.is_empty() {
            None
        } else {
            h.iter().position(|x| x == label_opt)
        };
        let is_class: Vec<Option<usize>> = h.iter().map(|x| self.gt.classes.index(x)).collect();
        let any_class = others.iter().any(|&c| is_class[c].is_some());
        if let Some(c) =
            named_label.filter(|_| !(others.len() >= 2 && any_class && label_opt.is_empty()))
        {
            self.label_col = c;
        } else if others.len() >= 2 && any_class {
            if !self.score_columns(h, &others, &is_class, budget, diags) {
                return false;
            }
        } else if others.len() == 1 {
            self.label_col = others[0];
            self.single = true;
        } else {
            match id_csv::value_column(FAMILY, self.file, h, ic, label_opt, LABEL_DEFAULTS, diags) {
                Some(c) => self.label_col = c,
                None => return false,
            }
        }
        if self.sub.layout == Layout::Labels {
            self.sub.pred = vec![NONE; self.n];
            if self.single && self.k == 2 {
                self.sub.scores = vec![f64::NAN; self.n];
            }
        }
        self.usable = true;
        true
    }

    /// The scores layout: each class's column (`others`, the columns besides the id; `is_class`, the class each
    /// names), and the n × k table, checked against the budget before it is allocated. False when a class has
    /// no column or the table does not fit (reported).
    fn score_columns(
        &mut self,
        h: &[String],
        others: &[usize],
        is_class: &[Option<usize>],
        budget: Budget,
        diags: &mut Diags,
    ) -> bool {
        let (file, n, k, classes) = (self.file, self.n, self.k, &self.gt.classes);
        self.sub.layout = Layout::Scores;
        self.class_cols = vec![usize::MAX; k];
        for &c in others {
            match is_class[c] {
                Some(j) if self.class_cols[j] == usize::MAX => self.class_cols[j] = c,
                Some(_) => diags.push(
                    Diagnostic::error(
                        &format!("{FAMILY}.duplicate_class_column"),
                        format!("class `{}` has two columns", h[c]),
                    )
                    .file(file)
                    .at(1, 1)
                    .found(h[c].clone())
                    .hint("Give each class one score column."),
                ),
                None => diags.push(
                    Diagnostic::warning(
                        &format!("{FAMILY}.ignored_column"),
                        format!("column `{}` is not a GT class; ignored", excerpt(&h[c])),
                    )
                    .file(file)
                    .at(1, 1)
                    .found(excerpt(&h[c]))
                    .hint("Name the score columns exactly by the GT class labels."),
                ),
            }
        }
        let missing: Vec<&str> = (0..k)
            .filter(|&j| self.class_cols[j] == usize::MAX)
            .map(|j| classes.names[j].as_str())
            .collect();
        if !missing.is_empty() {
            diags.push(
                Diagnostic::error(
                    &format!("{FAMILY}.missing_class_column"),
                    format!(
                        "no score column for class{} {}",
                        if missing.len() > 1 { "es" } else { "" },
                        excerpt(&missing.join(", "))
                    ),
                )
                .file(file)
                .at(1, 1)
                .expected(excerpt(&classes.names.join(",")))
                .found(excerpt(&h.join(",")))
                .hint("Add one score column per GT class, named by the class label."),
            );
            return false;
        }
        // n × k binary64 scores, checked before they are allocated.
        let need = (n as u64).saturating_mul(k as u64).saturating_mul(8);
        if need > budget.max_memory {
            diags.push(refusal(
                file,
                Some(1),
                &format!("the score table ({n} GT rows × {k} class columns × 8 bytes)"),
                need,
                budget,
            ));
            return false;
        }
        self.sub.scores = vec![f64::NAN; n * k];
        true
    }

    /// The class scores of `row` (GT row `i`).
    #[inline]
    fn scores_row(&mut self, row: &id_csv::Row, i: usize, diags: &mut Diags) {
        let k = self.k;
        let mut ok = true;
        for (j, &c) in self.class_cols.iter().enumerate() {
            match id_csv::number(FAMILY, self.file, row, c, diags) {
                Some(v) => self.sub.scores[i * k + j] = v,
                None => ok = false,
            }
        }
        if !ok {
            self.sub.bad_values += 1;
        }
    }

    /// The predicted label of `row` (GT row `i`), and in the single-column layout its value as a number.
    #[inline]
    fn label_row(&mut self, row: &id_csv::Row, i: usize, diags: &mut Diags) {
        let (file, label_col) = (self.file, self.label_col);
        let s = row.get(label_col);
        if !self.sub.scores.is_empty() {
            match id_csv::number(FAMILY, file, row, label_col, &mut self.number_errors) {
                Some(v) => self.sub.scores[i] = v,
                // NaN or an infinity is still a number: the column stays a score column, and the cell a
                // located error there.
                None if s.parse::<f64>().is_ok() => self.number_bad += 1,
                None => {
                    self.number_bad += 1;
                    self.not_number += 1;
                }
            }
        }
        if s.is_empty() {
            diags.push(
                Diagnostic::error(&format!("{FAMILY}.empty_cell"), "empty predicted label")
                    .file(file)
                    .at(row.line, row.column(label_col))
                    .hint("Give every row a predicted label."),
            );
            self.sub.bad_values += 1;
            return;
        }
        if let Some(j) = self.gt.classes.index(s) {
            self.sub.pred[i] = j as u32;
            return;
        }
        self.not_class_label(row, i, s);
    }

    /// A predicted label `s` (of `row`, GT row `i`) that is not a GT class: counted, and kept as an extra label
    /// (a label of another type than the GT's is counted apart).
    fn not_class_label(&mut self, row: &id_csv::Row, i: usize, s: &str) {
        let label_col = self.label_col;
        self.not_class += 1;
        if self.first_not_class.is_none() {
            self.first_not_class = Some((row.line, row.column(label_col), s.to_string()));
        }
        let ints = self.gt.classes.ints.is_some();
        if ints && s.parse::<i64>().is_err() {
            match &mut self.sub.mixed {
                Some(x) => x.3 += 1,
                None => self.sub.mixed = Some((row.line, row.column(label_col), s.to_string(), 1)),
            }
            return;
        }
        let key = match s.parse::<i64>() {
            Ok(x) if ints => x.to_string(),
            _ => s.to_string(),
        };
        let e = self.extra_index.len() as u32;
        let extra = &mut self.sub.extra;
        let j = *self.extra_index.entry(key.clone()).or_insert_with(|| {
            extra.push(key);
            e
        });
        self.sub.pred[i] = self.k as u32 + j;
    }

    /// The submission, its layout told: a single column of numbers against two classes is a binary score.
    fn finish(mut self, diags: &mut Diags) -> Submission {
        let file = self.file;
        let mut sub = self.sub;
        if self.single && self.k == 2 && self.not_class > 0 && self.not_number == 0 {
            // Binary score layout: every value is a number (NaN and infinities are errors located here).
            sub.layout = Layout::BinaryScore;
            sub.pred = Vec::new();
            sub.extra.clear();
            sub.mixed = None;
            sub.bad_values = self.number_bad;
            for d in self.number_errors.finish() {
                diags.push(d);
            }
            return sub;
        }
        if self.single {
            sub.scores = Vec::new();
        }
        let not_class = self.not_class;
        if let Some((line, col, text)) = self.first_not_class.take().filter(|_| sub.mixed.is_none())
        {
            diags.push(
                Diagnostic::info(&format!("{FAMILY}.unknown_label"), format!("{not_class} predicted label{} not a GT class (first: `{}`); counted as wrong", if not_class > 1 { "s are" } else { " is" }, excerpt(&text)))
                    .file(file).at(line, col)
                    .found(excerpt(&text))
                    .official("scikit-learn counts it as a class of its own (a column of the confusion matrix)"),
            );
        }
        sub
    }
}
