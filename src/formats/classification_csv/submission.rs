//! The submission of the `classification` family: its layout told from the header and the values (hard labels,
//! per-class scores, one binary score, or labels read as scores), its values aligned to the GT rows.

use super::{Gt, Layout, Submission, FAMILY, LABEL_DEFAULTS, NONE};
use crate::budget::{refusal, Budget};
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::id_csv::{self, Batch, CsvIn, Matcher, BATCH};
use crate::formats::id_index::{early_rows, touch_rows, EarlyColumns};
use crate::formats::pandas_cells;
use std::collections::HashMap;

/// Reads a submission against the GT. `None` when its layout cannot be told (an error says why).
/// `wants_scores`: the leaderboard metric needs scores, so a single column of integer class labels is read as
/// scores too ([`Layout::LabelScores`]).
#[allow(clippy::too_many_arguments)] // the GT, the file and its reader, then the options it reads under
pub fn read_submission<'i>(
    gt: &Gt,
    file: &str,
    r: impl Into<CsvIn<'i>>,
    delimiter: u8,
    (id_opt, label_opt): (&str, &str),
    wants_scores: bool,
    budget: Budget,
    diags: &mut Diags,
) -> Option<Submission> {
    let mut m = Matcher::new(FAMILY, file, gt.ids.len());
    let mut s = SubmissionReader::new(gt, file);
    s.wants_scores = wants_scores;
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
                let is_gt_id = |c: &str| gt.ids.find(c).is_some();
                if let Some(d) =
                    super::shape::header_problem(FAMILY, file, h, delimiter, Some(&is_gt_id))
                {
                    diags.push(d);
                    return false;
                }
                let Some(ic) = id_csv::id_column(FAMILY, file, h, id_opt, diags) else {
                    return false;
                };
                let _ = shared.set((ic, None));
                s.header(h, ic, label_opt, budget, diags)
            }
            Batch::Rows(rows) => {
                m.lookup(&gt.ids, rows, s.id_col, &mut found);
                if gt.classes.pandas {
                    gt.keys.resolve(&gt.ids, rows, s.id_col, &mut found);
                }
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
    /// String GT classes by name: one hash per row instead of a binary search over the sorted names (with
    /// 100,000 classes, 17 string comparisons per row).
    class_index: super::names::Names,
    /// Single-column layout: the value as a number too, and the non-numeric cells (binary score if some value
    /// is not a GT class).
    single: bool,
    not_class: u64,
    first_not_class: Option<(u64, u64, String)>,
    number_errors: Diags,
    number_bad: u64,
    not_number: u64,
    /// The leaderboard metric needs scores.
    wants_scores: bool,
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
            class_index: match gt.classes.ints {
                Some(_) => Default::default(),
                None => (gt.classes.names.iter().enumerate())
                    .map(|(j, name)| (name.as_str(), j as u32))
                    .collect(),
            },
            single: false,
            not_class: 0,
            first_not_class: None,
            number_errors: Diags::new(),
            number_bad: 0,
            not_number: 0,
            wants_scores: false,
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
        // One value column (named, the only one, or found by name among others): its values are labels, or
        // one binary score each when they are numbers (told at the end).
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
        } else {
            match id_csv::value_column(FAMILY, self.file, h, ic, label_opt, LABEL_DEFAULTS, diags) {
                Some(c) => self.label_col = c,
                None => return false,
            }
        }
        self.single = self.sub.layout == Layout::Labels;
        if self.sub.layout == Layout::Labels {
            self.sub.pred = vec![NONE; self.n];
            if self.single && self.gt.classes.binary() {
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
            match number(self.gt.classes.pandas, self.file, row, c, diags) {
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
        let pandas = self.gt.classes.pandas;
        if !self.sub.scores.is_empty() {
            match number(pandas, file, row, label_col, &mut self.number_errors) {
                Some(v) => self.sub.scores[i] = v,
                // NaN or an infinity is still a number (and so is a missing value as pandas reads it): the
                // column stays a score column, and the cell a located error there.
                None if s.parse::<f64>().is_ok() || (pandas && pandas_cells::is_na(s)) => {
                    self.number_bad += 1
                }
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
        let classes = &self.gt.classes;
        let class = match classes.ints {
            Some(_) => classes.index_value(s).map(|j| j as u32),
            None if classes.bools() => classes.index_value(s).map(|j| j as u32),
            None => self.class_index.get(s),
        };
        if let Some(j) = class {
            self.sub.pred[i] = j;
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
        let int = match self.gt.classes.pandas {
            true => pandas_cells::integral(s),
            false => s.parse::<i64>().ok(),
        };
        if ints && int.is_none() {
            match &mut self.sub.mixed {
                Some(x) => x.3 += 1,
                None => self.sub.mixed = Some((row.line, row.column(label_col), s.to_string(), 1)),
            }
            return;
        }
        let key = match int {
            Some(x) if ints => x.to_string(),
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
        let numbers = self.single && self.gt.classes.binary() && self.not_number == 0;
        // A ground truth of one class, 0 or 1: the labels 0 and 1 are the binary problem's labels, not scores.
        let binary_labels = self.gt.classes.single_binary()
            && sub.mixed.is_none()
            && sub.extra.iter().all(|e| e == "0" || e == "1");
        let not_class = if binary_labels { 0 } else { self.not_class };
        if numbers
            && not_class == 0
            && self.wants_scores
            && sub.mixed.is_none()
            && self.number_bad == 0
        {
            // Integer class labels only, and a leaderboard metric that needs scores: the labels are the scores
            // too, as scikit-learn's score metrics take them.
            sub.layout = Layout::LabelScores;
            return sub;
        }
        if numbers && not_class > 0 {
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
        let numeric = |t: &str| t.parse::<f64>().is_ok();
        let no_class = sub.pred.iter().all(|&p| p == NONE || p as usize >= self.k);
        let first_numeric = (self.first_not_class.as_ref()).is_some_and(|f| numeric(&f.2));
        if self.single
            && self.wants_scores
            && not_class > 0
            && no_class
            && first_numeric
            && sub.extra.iter().all(|t| numeric(t))
        {
            // Scores given in one column (of three classes or more: two are a binary score, above): none is
            // a class; the metric's needs say it all (integer GT classes keep them "mixed" labels: null).
            sub.numbers_as_labels = self.first_not_class.take().map(|(_, _, text)| text);
        }
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

/// A number cell, as pandas reads it when `pandas` (see [`pandas_cells::number`]), else as text.
fn number(
    pandas: bool,
    file: &str,
    row: &id_csv::Row,
    col: usize,
    diags: &mut Diags,
) -> Option<f64> {
    let read_as = match pandas {
        true => pandas_cells::ReadAs::Pandas,
        false => pandas_cells::ReadAs::Text,
    };
    pandas_cells::read_number(read_as, FAMILY, file, row, col, diags)
}
