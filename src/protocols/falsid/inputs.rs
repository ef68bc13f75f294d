//! Sorting the dropped files into GT label files, predicted label files and distance matrices
//! (docs/specs/falsid.md 2), and merging them into one record per subset.

use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::falsid_labels::{self as labels, LabelConfig, LabelFile, LabelRow};
use crate::formats::falsid_matrix::{self as matrix, Matrix};
use crate::input::{Entry, FileSet, Role};
use crate::protocols::Progress;
use std::collections::HashMap;

/// One subset: its GT items in GT file order, the predictions by key, the matrix.
#[derive(Default)]
pub struct Subset {
    pub name: String,
    pub gt: Vec<LabelRow>,
    pub gt_files: Vec<String>,
    pub gt_index: HashMap<String, usize>,
    /// key → (label, file index in `pred_files`, row)
    pub pred: HashMap<String, (u8, usize, LabelRow)>,
    pub matrix: Option<(String, Matrix)>,
}

pub struct Gathered {
    pub subsets: Vec<Subset>,
    pub has_gt: bool,
    pub has_pred_labels: bool,
    pub gt_has_writer: bool,
}

/// The role layer's view: a distance matrix (`.npy`, or a name with `dist`/`matri`) is a prediction; label
/// files look alike in both roles.
pub fn classify(path: &str, head: &[u8]) -> crate::protocols::Class {
    let name = path
        .rsplit(['/', '\\', '!'])
        .next()
        .unwrap_or(path)
        .to_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    if name.ends_with(".npy") || head.starts_with(b"\x93NUMPY") {
        crate::protocols::Class::pred("is a NumPy distance matrix")
    } else if name.contains("dist") || name.contains("matri") {
        crate::protocols::Class::pred("is named as a distance matrix")
    } else {
        crate::protocols::Class::either()
    }
}

/// True if a prediction file is a distance matrix rather than a label file.
fn is_matrix(entry: &Entry, cfg: &LabelConfig) -> bool {
    let name = entry.name().to_lowercase();
    if name.ends_with(".npy") {
        return true;
    }
    let Ok(head) = entry.head(1 << 16) else {
        return false;
    };
    if head.starts_with(b"\x93NUMPY") {
        return true;
    }
    let delim = matrix::detect_delimiter(&head);
    let first = head
        .split(|b| *b == b'\n' || *b == b'\r')
        .find(|l| !l.trim_ascii().is_empty())
        .unwrap_or(b"");
    let fields = match delim {
        Some(d) => first.split(|b| *b == d).count(),
        None => first
            .split(|b| b.is_ascii_whitespace())
            .filter(|f| !f.is_empty())
            .count(),
    };
    if fields >= 5 || name.contains("dist") || name.contains("matri") {
        return true;
    }
    if let Err(e) = std::str::from_utf8(&head) {
        if e.error_len().is_some() {
            return false; // not text: the label reader locates the bad byte
        }
    }
    !labels::looks_like_labels(&head, cfg)
}

fn read_matrix(entry: &Entry, diags: &mut Diags) -> Option<Matrix> {
    let name = entry.name().to_lowercase();
    let npy = name.ends_with(".npy")
        || entry
            .head(6)
            .map(|h| h.starts_with(b"\x93NUMPY"))
            .unwrap_or(false);
    let reader = match entry.buffered() {
        Ok(r) => r,
        Err(e) => {
            diags.push(Diagnostic::read_error(&entry.path, e));
            return None;
        }
    };
    if npy {
        matrix::read_npy(&entry.path, reader, entry.size, diags)
    } else {
        let head = entry.head(1 << 20).unwrap_or_default();
        // No line is buffered beyond the field limit (1/32 of max_memory).
        matrix::read_text(
            &entry.path,
            crate::budget::LineGuard::new(reader, entry.field_limit()),
            matrix::detect_delimiter(&head),
            entry.size,
            diags,
        )
    }
}

fn read_labels(entry: &Entry, cfg: &LabelConfig, diags: &mut Diags) -> Option<LabelFile> {
    match entry.read_all() {
        Ok(b) => labels::read(&entry.path, entry.name(), &b, cfg, diags),
        Err(e) => {
            diags.push(Diagnostic::read_error(&entry.path, e));
            None
        }
    }
}

pub fn gather(
    files: &FileSet,
    cfg: &LabelConfig,
    diags: &mut Diags,
    progress: &mut dyn Progress,
) -> Gathered {
    let mut subsets: Vec<Subset> = cfg
        .subsets
        .iter()
        .map(|s| Subset {
            name: s.clone(),
            ..Default::default()
        })
        .collect();
    let mut out_pred_files = Vec::new();
    let (mut has_gt, mut has_pred_labels, mut gt_has_writer) = (false, false, false);
    // Which file gave each key of each subset, per role (for `conflicting_sources`).
    let total = files.entries.len().max(1);
    for (k, entry) in files.entries.iter().enumerate() {
        progress.update(0.6 * k as f64 / total as f64, "reading files");
        let role = match entry.role {
            Some(r) => r,
            None if is_matrix(entry, cfg) => Role::Pred,
            None => {
                diags.push(
                    Diagnostic::error("input.role_ambiguous", "cannot tell whether this label file is the ground truth or a prediction")
                        .file(&entry.path)
                        .hint("Drop it on the ground-truth or the prediction zone (CLI: --gt or --pred), or put it in a ref/ or res/ folder."),
                );
                continue;
            }
        };
        if role == Role::Pred && is_matrix(entry, cfg) {
            add_matrix(entry, cfg, &mut subsets, diags);
            continue;
        }
        let Some(file) = read_labels(entry, cfg, diags) else {
            continue;
        };
        match role {
            Role::Gt => {
                has_gt = true;
                gt_has_writer |= file.has_writer;
                for row in file.rows {
                    let s = &mut subsets[row.subset];
                    if let Some(&i) = s.gt_index.get(&row.key) {
                        conflict(diags, &entry.path, &row, &s.gt_files[i], s.gt[i].line);
                        continue;
                    }
                    s.gt_index.insert(row.key.clone(), s.gt.len());
                    s.gt_files.push(entry.path.clone());
                    s.gt.push(row);
                }
            }
            Role::Pred => {
                has_pred_labels = true;
                let fi = out_pred_files.len();
                out_pred_files.push(entry.path.clone());
                for row in file.rows {
                    let s = &mut subsets[row.subset];
                    if let Some((_, f, prev)) = s.pred.get(&row.key) {
                        conflict(diags, &entry.path, &row, &out_pred_files[*f], prev.line);
                        continue;
                    }
                    s.pred.insert(row.key.clone(), (row.label, fi, row));
                }
            }
        }
    }
    Gathered {
        subsets,
        has_gt,
        has_pred_labels,
        gt_has_writer,
    }
}

/// A distance matrix: its subset from its file name (exactly one subset named), one matrix per subset.
fn add_matrix(entry: &Entry, cfg: &LabelConfig, subsets: &mut [Subset], diags: &mut Diags) {
    let subset = match labels::subset_from_name(entry.name(), cfg.subsets) {
        Ok(Some(i)) => i,
        other => {
            diags.push(
                Diagnostic::error(
                    "falsid.input.subset_unknown",
                    "the matrix file name names no single subset",
                )
                .file(&entry.path)
                .expected(format!(
                    "a file name containing exactly one of {}",
                    cfg.subsets.join(", ")
                ))
                .found(match other {
                    Err(names) => {
                        format!("{} (names {})", entry.name(), names.join(" and "))
                    }
                    _ => entry.name().to_string(),
                })
                .hint("Rename the file, e.g. dist_pizan.csv."),
            );
            return;
        }
    };
    let Some(m) = read_matrix(entry, diags) else {
        return;
    };
    let s = &mut subsets[subset];
    if let Some((first, _)) = &s.matrix {
        diags.push(
            Diagnostic::error(
                "falsid.input.duplicate_matrix",
                format!(
                    "a second distance matrix for {} (the first is {first})",
                    s.name
                ),
            )
            .file(&entry.path)
            .hint("Drop one matrix per subset."),
        );
        return;
    }
    s.matrix = Some((entry.path.clone(), m));
}

fn conflict(diags: &mut Diags, path: &str, row: &LabelRow, other: &str, other_line: u64) {
    diags.push(
        Diagnostic::error(
            "falsid.labels.conflicting_sources",
            format!(
                "id `{}` is also labelled in {other} (line {other_line})",
                excerpt(&row.id)
            ),
        )
        .file(path)
        .at(row.line, 1)
        .found(excerpt(&row.id))
        .hint("Give each sample's label once: either the merged file or the per-subset files."),
    );
}
