//! The two files of a Kaggle competition (`solution.csv`, `submission.csv`), read with the cell parser of the
//! metric, and their rows matched by id: an id of the submission the solution lacks, an id of the solution
//! the submission lacks and (where one row per id is the rule) a repeated id are located errors, as Kaggle's
//! `ParticipantVisibleError` names the row.

use super::ID;
use crate::budget::Budget;
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::classification_csv::names::Names;
use crate::formats::csv_records::{CsvIn, Row};
use crate::formats::kaggle_csv::{self as kcsv, Columns, Table};
use crate::formats::pandas_cells::ReadAs;
use crate::input::{Entry, FileSet, Role};

/// No group (an id the solution lacks).
pub const NONE: u32 = u32::MAX;

/// The single solution and single submission entries; `None` with an error when there are none or several.
pub fn pick<'a>(files: &'a FileSet, diags: &mut Diags) -> Option<(&'a Entry, &'a Entry)> {
    let mut one = |role: Role, what: &str| -> Option<&'a Entry> {
        let all: Vec<&Entry> = files.with_role(role).collect();
        if all.len() == 1 {
            return Some(all[0]);
        }
        diags.push(
            Diagnostic::error(
                &format!("{ID}.{}_files", role.as_str()),
                format!("{} {what} files; expected one", all.len()),
            )
            .hint(format!("Drop exactly one {what} CSV file.")),
        );
        None
    };
    let gt = one(Role::Gt, "solution");
    let pred = one(Role::Pred, "submission");
    gt.zip(pred)
}

/// The `delimiter` option: one ASCII character, or `tab`.
pub fn delimiter(text: &str) -> Result<u8, crate::protocols::UsageError> {
    match text {
        "tab" | "\\t" | "\t" => Ok(b'\t'),
        d if d.len() == 1 && d.is_ascii() => Ok(d.as_bytes()[0]),
        d => Err(crate::protocols::UsageError(format!(
            "option `delimiter`: expected one ASCII character or `tab`, found `{d}`"
        ))),
    }
}

/// Refuses inputs whose values would not fit the budget: the parsed values take at most about four bytes per
/// byte of the two files (8-byte runs of at least 4 characters `1 1 `, list items with their headers).
pub fn fits(gt: &Entry, pred: &Entry, budget: Budget, diags: &mut Diags) -> bool {
    let need = 4 * (gt.size + pred.size) + (1 << 20);
    if budget
        .check("the parsed solution and submission", need)
        .is_ok()
    {
        return true;
    }
    diags.push(crate::budget::refusal(
        &pred.path,
        None,
        "the parsed solution and submission",
        need,
        budget,
    ));
    false
}

/// Reads `entry` with the cell parser `parse`.
pub fn read<T>(
    entry: &Entry,
    delim: u8,
    columns: &Columns,
    diags: &mut Diags,
    parse: &mut kcsv::Parse<T>,
) -> Option<Table<T>> {
    let input = open(entry, diags)?;
    kcsv::read(&entry.path, input, delim, columns, diags, parse)
}

/// Reads `entry` with the batch parser `parse`.
pub fn read_batches<T>(
    entry: &Entry,
    delim: u8,
    columns: &Columns,
    diags: &mut Diags,
    parse: &mut kcsv::ParseBatch<T>,
) -> Option<Table<T>> {
    let input = open(entry, diags)?;
    kcsv::read_batches(&entry.path, input, delim, columns, diags, parse)
}

/// `entry` as a CSV input: tokenised ahead on a second thread from 1 MiB up.
fn open<'e>(entry: &'e Entry, diags: &mut Diags) -> Option<CsvIn<'e>> {
    match entry.open_send() {
        Some(r) if entry.size >= 1 << 20 => Some(CsvIn::Ahead(r)),
        _ => match entry.open() {
            Ok(r) => Some(CsvIn::Stream(r)),
            Err(e) => {
                diags.push(Diagnostic::read_error(&entry.path, e));
                None
            }
        },
    }
}

/// The solution's ids matched with the submission's rows.
pub struct Matched {
    /// Groups: the solution's distinct ids, in the order they first appear; `first[g]` is the group's first row.
    pub first: Vec<u32>,
    /// The group of each solution row.
    pub gt_group: Vec<u32>,
    /// The group of each submission row ([`NONE`]: an id the solution lacks).
    pub sub_group: Vec<u32>,
}

impl Matched {
    pub fn len(&self) -> usize {
        self.first.len()
    }
    /// Each group's rows (indices into the side's rows), in file order.
    pub fn members(groups: &[u32], n: usize) -> Vec<Vec<u32>> {
        let mut out = vec![Vec::new(); n];
        for (r, &g) in groups.iter().enumerate() {
            if g != NONE {
                out[g as usize].push(r as u32);
            }
        }
        out
    }
}

/// Matches the rows by id, the ids compared as `read_as` says. `several`: an id may have several rows on either
/// side (one mask per row, the union or the objects of an image); otherwise a repeated id is an error.
pub fn matched_as<T, U>(
    gt: &Table<T>,
    sub: &Table<U>,
    several: bool,
    read_as: ReadAs,
    diags: &mut Diags,
) -> Matched {
    GtIndex::new(gt, several, read_as).matched(gt, sub, diags)
}

/// Each solution id (in order) with its solution and submission values, taken out of the tables: the id's first
/// row on each side (`m` matched them one row an id); ids whose value is missing on either side are left out.
pub fn one_each<T, U>(
    gt: &mut Table<T>,
    sub: &mut Table<U>,
    m: &Matched,
) -> (Vec<String>, Vec<(T, U)>) {
    let mut sub_of = vec![NONE; m.len()];
    for (r, &g) in m.sub_group.iter().enumerate() {
        if g != NONE && sub_of[g as usize] == NONE {
            sub_of[g as usize] = r as u32;
        }
    }
    let (mut ids, mut pairs) = (Vec::with_capacity(m.len()), Vec::with_capacity(m.len()));
    for (g, &r) in m.first.iter().enumerate() {
        let (Some(t), Some(Some(p))) = (
            gt.values[r as usize].take(),
            sub.values.get_mut(sub_of[g] as usize).map(Option::take),
        ) else {
            continue;
        };
        ids.push(gt.ids.get(r as usize).to_string());
        pairs.push((t, p));
    }
    (ids, pairs)
}

/// The solution's ids indexed, before the submission is read (so that its rows can be scored as they are
/// read): the first half of [`matched_as`], its errors (repeated ids) held until [`GtIndex::matched`].
///
/// A submission row whose id is the solution's id at the same row (a submission in the sample submission's
/// order, the usual case) takes that row's group without a lookup; ids read as text and strictly increasing
/// (no repeats, every row its own group) are indexed only when a submission row is out of that order.
pub struct GtIndex {
    // Ids of at most 16 bytes keyed by their bytes in the table itself (`Names`): no pointer followed per lookup.
    index: Option<Names>,
    /// The solution's groups: `first[g]` is group `g`'s first row.
    pub first: Vec<u32>,
    gt_group: Vec<u32>,
    several: bool,
    read_as: ReadAs,
    held: Diags,
}

impl GtIndex {
    pub fn new<T>(gt: &Table<T>, several: bool, read_as: ReadAs) -> GtIndex {
        let n = gt.ids.len();
        let increasing =
            read_as == ReadAs::Text && (1..n).all(|r| gt.ids.get(r - 1) < gt.ids.get(r));
        if increasing {
            let rows: Vec<u32> = (0..n as u32).collect();
            return GtIndex {
                index: None,
                first: rows.clone(),
                gt_group: rows,
                several,
                read_as,
                held: Diags::new(),
            };
        }
        let mut index = Names::default();
        if n > 0 {
            index.reserve_like(&read_as.key(gt.ids.get(0)), n);
        }
        let (mut first, mut gt_group) = (Vec::new(), Vec::with_capacity(n));
        let mut held = Diags::new();
        for r in 0..n {
            let id = gt.ids.get(r);
            let next = first.len() as u32;
            let g = index.get_or_insert(&read_as.key(id), next).0;
            if g == next {
                first.push(r as u32);
            } else if !several {
                held.push(repeated(
                    &gt.file,
                    id,
                    gt.lines[r],
                    gt.lines[first[g as usize] as usize],
                ));
            }
            gt_group.push(g);
        }
        GtIndex {
            index: Some(index),
            first,
            gt_group,
            several,
            read_as,
            held,
        }
    }

    /// The number of groups (distinct solution ids).
    pub fn len(&self) -> usize {
        self.first.len()
    }

    /// The group of the id of the submission's row `r` ([`NONE`]: an id the solution lacks).
    #[inline]
    pub fn group<T>(&mut self, gt: &Table<T>, r: usize, id: &str) -> u32 {
        if r < gt.ids.len() && gt.ids.get(r) == id {
            return self.gt_group[r];
        }
        let read_as = self.read_as;
        let index = self.index.get_or_insert_with(|| {
            // Only ids read as text, strictly increasing, are left unindexed: every row is its own group.
            let mut index = Names::default();
            if !gt.ids.is_empty() {
                index.reserve_like(gt.ids.get(0), gt.ids.len());
            }
            for r in 0..gt.ids.len() {
                index.get_or_insert(gt.ids.get(r), r as u32);
            }
            index
        });
        index.get(&read_as.key(id)).unwrap_or(NONE)
    }

    /// The submission's rows matched to the groups: the errors of both halves pushed (the solution's repeated
    /// ids, then the submission's unknown and repeated ids in row order, then the ids it lacks).
    pub fn matched<T, U>(mut self, gt: &Table<T>, sub: &Table<U>, diags: &mut Diags) -> Matched {
        let several = self.several;
        diags.absorb(std::mem::take(&mut self.held));
        let mut seen = vec![NONE; self.first.len()];
        let mut sub_group = Vec::with_capacity(sub.ids.len());
        for r in 0..sub.ids.len() {
            let id = sub.ids.get(r);
            let g = self.group(gt, r, id);
            if g == NONE {
                diags.push(
                    Diagnostic::error(
                        &format!("{ID}.unknown_id"),
                        format!(
                            "row {}: id `{}` is not in the solution",
                            sub.lines[r].saturating_sub(1),
                            excerpt(id)
                        ),
                    )
                    .file(&sub.file)
                    .line(sub.lines[r])
                    .hint("Submit exactly the ids of the sample submission."),
                );
            } else if seen[g as usize] != NONE && !several {
                diags.push(repeated(
                    &sub.file,
                    id,
                    sub.lines[r],
                    sub.lines[seen[g as usize] as usize],
                ));
            } else if seen[g as usize] == NONE {
                seen[g as usize] = r as u32;
            }
            sub_group.push(g);
        }
        for (g, s) in seen.iter().enumerate() {
            if *s == NONE {
                diags.push(missing(gt, self.first[g] as usize, &sub.file));
            }
        }
        Matched {
            first: self.first,
            gt_group: self.gt_group,
            sub_group,
        }
    }
}

/// The solution's row `r` has an id the submission lacks.
fn missing<T>(gt: &Table<T>, r: usize, sub_file: &str) -> Diagnostic {
    Diagnostic::error(
        &format!("{ID}.missing_id"),
        format!(
            "id `{}` (solution row {}) is not in the submission",
            excerpt(gt.ids.get(r)),
            gt.lines[r].saturating_sub(1)
        ),
    )
    .file(&gt.file)
    .line(gt.lines[r])
    .hint(format!(
        "Give every id of the sample submission a row in `{sub_file}` (an empty value where there is nothing to predict)."
    ))
}

fn repeated(file: &str, id: &str, line: u64, before: u64) -> Diagnostic {
    Diagnostic::error(
        &format!("{ID}.duplicate_id"),
        format!(
            "row {}: id `{}` is repeated (first in row {})",
            line.saturating_sub(1),
            excerpt(id),
            before.saturating_sub(1)
        ),
    )
    .file(file)
    .line(line)
    .hint("Give each id one row.")
}

/// A cell error of the kind `what` at `row`'s column `col`.
pub fn cell_error(
    file: &str,
    row: &Row,
    at: &kcsv::At,
    col: usize,
    what: &str,
    message: String,
) -> Diagnostic {
    kcsv::cell_error(file, row, at, col, what, message)
}
