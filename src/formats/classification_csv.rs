//! CSV inputs of the `classification` family (specs/families.md section 1): a GT `id,label` table and a
//! submission as hard labels, per-class score columns (Kaggle's multi-class layout) or one binary score
//! column. Streaming: ids are kept once (the GT's), submission values land in per-GT-row arrays.

use super::id_csv::{self, Batch, CsvIn, IdIndex, Matcher, BATCH};
use super::id_index::{early_rows, early_tags, touch_rows, EarlyColumns};
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
    let mut ids = IdIndex::default();
    let mut raw: Vec<u32> = Vec::new();
    let mut lines = Vec::new();
    let mut distinct: HashMap<String, u32> = HashMap::new();
    let mut names: Vec<String> = Vec::new();
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
                let label = id.and_then(|id| {
                    id_csv::value_column(FAMILY, file, h, id, label_opt, LABEL_DEFAULTS, diags)
                });
                cols = id.zip(label);
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
                if ids.is_empty() {
                    ids.reserve(id_csv::expected_rows(size, rows, budget));
                }
                ids.prepare_rows(rows.iter(), ic, &mut tags);
                for (row, &tag) in rows.iter().zip(&tags) {
                    let id = row.get(ic);
                    if let Err(first) = ids.insert_tagged(id, tag) {
                        diags.push(id_csv::duplicate_gt_id(FAMILY, file, row, ic, lines[first]));
                        continue;
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
                    let k = match distinct.get(label) {
                        Some(&k) => k,
                        None => {
                            let n = distinct.len() as u32;
                            distinct.insert(label.to_string(), n);
                            names.push(label.to_string());
                            n
                        }
                    };
                    raw.push(k);
                    lines.push(row.line);
                }
                true
            }
        },
    )?;
    cols?;
    if over {
        return None;
    }
    if raw.is_empty() {
        diags.push(
            Diagnostic::error(
                &format!("{FAMILY}.empty_file"),
                "the ground truth has no rows",
            )
            .file(file)
            .hint("Drop the complete ground-truth file."),
        );
        return None;
    }
    // Classes: integers when every label parses as one (equal values merge: `01` and `1`), else strings.
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
            let mut u = names.clone();
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
    Some(Gt {
        file: file.to_string(),
        ids,
        labels,
        lines,
        classes,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
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
    let n = gt.ids.len();
    let k = gt.classes.len();
    let mut m = Matcher::new(FAMILY, file, n);
    let mut sub = Submission {
        file: file.to_string(),
        layout: Layout::Labels,
        pred: Vec::new(),
        extra: Vec::new(),
        mixed: None,
        scores: Vec::new(),
        seen: Vec::new(),
        bad_values: 0,
    };
    let mut id_col = 0;
    let mut label_col = 0;
    let mut class_cols: Vec<usize> = Vec::new();
    let mut extra_index: HashMap<String, u32> = HashMap::new();
    // Single-column layout: the value as a number too, and the non-numeric cells (binary score if some value
    // is not a GT class).
    let mut single = false;
    let mut not_class = 0u64;
    let mut first_not_class: Option<(u64, u64, String)> = None;
    let mut number_errors = Diags::new();
    let mut number_bad = 0u64;
    let mut not_number = 0u64;
    let mut usable = false;
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
                id_col = ic;
                let _ = shared.set((ic, None));
                let others: Vec<usize> = (0..h.len()).filter(|&i| i != ic).collect();
                let named_label = if label_opt.is_empty() {
                    None
                } else {
                    h.iter().position(|x| x == label_opt)
                };
                let is_class: Vec<Option<usize>> = h.iter().map(|x| gt.classes.index(x)).collect();
                let any_class = others.iter().any(|&c| is_class[c].is_some());
                if let Some(c) = named_label
                    .filter(|_| !(others.len() >= 2 && any_class && label_opt.is_empty()))
                {
                    label_col = c;
                } else if others.len() >= 2 && any_class {
                    sub.layout = Layout::Scores;
                    class_cols = vec![usize::MAX; k];
                    for &c in &others {
                        match is_class[c] {
                            Some(j) if class_cols[j] == usize::MAX => class_cols[j] = c,
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
                                    format!(
                                        "column `{}` is not a GT class; ignored",
                                        excerpt(&h[c])
                                    ),
                                )
                                .file(file)
                                .at(1, 1)
                                .found(excerpt(&h[c]))
                                .hint("Name the score columns exactly by the GT class labels."),
                            ),
                        }
                    }
                    let missing: Vec<&str> = (0..k)
                        .filter(|&j| class_cols[j] == usize::MAX)
                        .map(|j| gt.classes.names[j].as_str())
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
                            .expected(excerpt(&gt.classes.names.join(",")))
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
                    sub.scores = vec![f64::NAN; n * k];
                } else if others.len() == 1 {
                    label_col = others[0];
                    single = true;
                } else {
                    match id_csv::value_column(
                        FAMILY,
                        file,
                        h,
                        ic,
                        label_opt,
                        LABEL_DEFAULTS,
                        diags,
                    ) {
                        Some(c) => label_col = c,
                        None => return false,
                    }
                }
                if sub.layout == Layout::Labels {
                    sub.pred = vec![NONE; n];
                    if single && k == 2 {
                        sub.scores = vec![f64::NAN; n];
                    }
                }
                usable = true;
                true
            }
            Batch::Rows(rows) => {
                m.lookup(&gt.ids, rows, id_col, &mut found);
                if sub.layout == Layout::Scores {
                    touch_rows(&sub.scores, &found, k.max(1));
                }
                for (row, &f) in rows.iter().zip(&found) {
                    let Some(i) = m.accept(row, id_col, f, diags) else {
                        continue;
                    };
                    if sub.layout == Layout::Scores {
                        let mut ok = true;
                        for (j, &c) in class_cols.iter().enumerate() {
                            match id_csv::number(FAMILY, file, row, c, diags) {
                                Some(v) => sub.scores[i * k + j] = v,
                                None => ok = false,
                            }
                        }
                        if !ok {
                            sub.bad_values += 1;
                        }
                        continue;
                    }
                    let s = row.get(label_col);
                    if !sub.scores.is_empty() {
                        match id_csv::number(FAMILY, file, row, label_col, &mut number_errors) {
                            Some(v) => sub.scores[i] = v,
                            // NaN or an infinity is still a number: the column stays a score column,
                            // and the cell a located error there.
                            None if s.parse::<f64>().is_ok() => number_bad += 1,
                            None => {
                                number_bad += 1;
                                not_number += 1;
                            }
                        }
                    }
                    if s.is_empty() {
                        diags.push(
                            Diagnostic::error(
                                &format!("{FAMILY}.empty_cell"),
                                "empty predicted label",
                            )
                            .file(file)
                            .at(row.line, row.column(label_col))
                            .hint("Give every row a predicted label."),
                        );
                        sub.bad_values += 1;
                        continue;
                    }
                    if let Some(j) = gt.classes.index(s) {
                        sub.pred[i] = j as u32;
                        continue;
                    }
                    not_class += 1;
                    if first_not_class.is_none() {
                        first_not_class = Some((row.line, row.column(label_col), s.to_string()));
                    }
                    if gt.classes.ints.is_some() && s.parse::<i64>().is_err() {
                        match &mut sub.mixed {
                            Some(x) => x.3 += 1,
                            None => {
                                sub.mixed =
                                    Some((row.line, row.column(label_col), s.to_string(), 1))
                            }
                        }
                        continue;
                    }
                    let key = match s.parse::<i64>() {
                        Ok(x) if gt.classes.ints.is_some() => x.to_string(),
                        _ => s.to_string(),
                    };
                    let e = extra_index.len() as u32;
                    let j = *extra_index.entry(key.clone()).or_insert_with(|| {
                        sub.extra.push(key);
                        e
                    });
                    sub.pred[i] = k as u32 + j;
                }
                true
            }
        },
    )?;
    if !usable {
        return None;
    }
    if single && k == 2 && not_class > 0 && not_number == 0 {
        // Binary score layout: every value is a number (NaN and infinities are errors located here).
        sub.layout = Layout::BinaryScore;
        sub.pred = Vec::new();
        sub.extra.clear();
        sub.mixed = None;
        sub.bad_values = number_bad;
        for d in number_errors.finish() {
            diags.push(d);
        }
    } else {
        if single {
            sub.scores = Vec::new();
        }
        if let Some((line, col, text)) = first_not_class.filter(|_| sub.mixed.is_none()) {
            diags.push(
                Diagnostic::info(&format!("{FAMILY}.unknown_label"), format!("{not_class} predicted label{} not a GT class (first: `{}`); counted as wrong", if not_class > 1 { "s are" } else { " is" }, excerpt(&text)))
                    .file(file).at(line, col)
                    .found(excerpt(&text))
                    .official("scikit-learn counts it as a class of its own (a column of the confusion matrix)"),
            );
        }
    }
    sub.seen = m.seen;
    Some(sub)
}
