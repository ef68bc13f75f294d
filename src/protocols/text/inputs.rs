//! Reading both sides in their layouts and pairing them by id (docs/specs/families.md section 0, applied to
//! `text`): a GT id absent from the submission is `text.missing_id` (an error, or a warning and an empty
//! hypothesis with `missing = worst`), an id the GT lacks `text.unknown_id`, a repeated id
//! `text.duplicate_id`; every one located where the file gives a location.

use super::{Missing, Normalize, TextOptions, ID};
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::text_input::{self as fmt, squad, Layout, Record};
use crate::input::{Entry, FileSet, Role};
use crate::metrics::text::squad::Version;
use crate::protocols::UsageError;
use rustc_hash::FxHashMap;
use unicode_normalization::UnicodeNormalization;

/// The paired items, in GT order.
#[derive(Default)]
pub struct Pairs {
    pub ids: Vec<String>,
    pub refs: Vec<Vec<String>>,
    pub hyps: Vec<String>,
    /// The `squad` layout: the script version and each question's `bool(qa['answers'])`.
    pub squad: Option<(Version, Vec<bool>)>,
    pub layout: Option<Layout>,
    /// The submission's files, and for each item the index of the one its hypothesis came from (`u32::MAX`:
    /// none, the item is missing).
    pub pred_files: Vec<String>,
    pub hyp_file: Vec<u32>,
}

/// One side as read: its records, and where they came from.
pub struct Side {
    pub records: Vec<(Record, String)>,
    pub layout: Layout,
    pub squad: Option<(Version, Vec<bool>)>,
}

/// The stem of an entry's name (the id of a `files` or `page` item).
fn stem(e: &Entry) -> &str {
    let n = e.name();
    n.rsplit_once('.').map_or(n, |(s, _)| s)
}

/// The delimiter option.
pub fn delimiter(d: &str) -> Result<u8, UsageError> {
    crate::protocols::classification::inputs::delimiter(d)
}

/// Reads every entry of `role` in its layout (`forced`, else detected from the first entry).
pub fn read_side(
    files: &FileSet,
    role: Role,
    forced: Option<Layout>,
    opts: &TextOptions,
    diags: &mut Diags,
) -> Result<Option<Side>, UsageError> {
    let entries: Vec<&Entry> = files.with_role(role).collect();
    let what = if role == Role::Gt {
        "ground-truth"
    } else {
        "submission"
    };
    let Some(first) = entries.first() else {
        diags.push(
            Diagnostic::error(
                &format!("{ID}.no_{}", role.as_str()),
                format!("no {what} file"),
            )
            .hint(format!("Drop the {what} file(s).")),
        );
        return Ok(None);
    };
    let head = first.head(4096).unwrap_or_default();
    let layout = forced.unwrap_or_else(|| fmt::detect(first.name(), &head));
    let single = matches!(layout, Layout::Table | Layout::Json | Layout::Squad);
    if single && entries.len() > 1 {
        diags.push(
            Diagnostic::error(
                &format!("{ID}.several_{}", role.as_str()),
                format!(
                    "{} {what} files; the {} layout takes one",
                    entries.len(),
                    layout.name()
                ),
            )
            .found(excerpt(
                &entries
                    .iter()
                    .map(|e| e.path.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            )),
        );
        return Ok(None);
    }
    let delim = delimiter(&opts.delimiter)?;
    let mut side = Side {
        records: Vec::new(),
        layout,
        squad: None,
    };
    let mut ok = true;
    for e in &entries {
        let bytes = match e.read_all() {
            Ok(b) => b,
            Err(err) => {
                diags.push(Diagnostic::read_error(&e.path, err));
                ok = false;
                continue;
            }
        };
        let recs = read_entry(
            e,
            &bytes,
            layout,
            delim,
            opts,
            entries.len() == 1,
            &mut side,
            diags,
        );
        match recs {
            Some(rs) => side
                .records
                .extend(rs.into_iter().map(|r| (r, e.path.clone()))),
            None => ok = false,
        }
    }
    Ok(ok.then_some(side))
}

#[allow(clippy::too_many_arguments)]
fn read_entry(
    e: &Entry,
    bytes: &[u8],
    layout: Layout,
    delim: u8,
    opts: &TextOptions,
    alone: bool,
    side: &mut Side,
    diags: &mut Diags,
) -> Option<Vec<Record>> {
    if layout == Layout::Table {
        return fmt::table::read(
            &e.path,
            bytes,
            delim,
            &opts.id_column,
            &opts.text_column,
            diags,
        );
    }
    let text = fmt::utf8(&e.path, bytes, diags)?;
    match layout {
        Layout::Json => fmt::json::read(&e.path, text, diags),
        Layout::Squad => {
            let d = squad::read(&e.path, text, diags)?;
            side.squad = Some((d.version, d.has_answer));
            Some(d.records)
        }
        Layout::Page => fmt::page::read(&e.path, stem(e), text, diags),
        Layout::Files | Layout::Table => {
            // One file each side pairs whatever the names: its id is then the fixed `text`.
            let id = if alone {
                "text".to_string()
            } else {
                stem(e).to_string()
            };
            Some(vec![Record {
                id,
                texts: vec![text.to_string()],
                line: 0,
                column: 0,
            }])
        }
    }
}

fn located(d: Diagnostic, r: &Record, file: &str) -> Diagnostic {
    let d = d.file(file);
    match (r.line, r.column) {
        (0, _) => d,
        (l, 0) => d.line(l),
        (l, c) => d.at(l, c),
    }
}

/// Normalises a text as the `normalize` option asks.
pub fn normalize(s: String, n: Normalize) -> String {
    match n {
        Normalize::None => s,
        Normalize::Nfc => s.nfc().collect(),
        Normalize::Nfkc => s.nfkc().collect(),
    }
}

/// Pairs the two sides by id. Returns `None` when an error blocks the scores (the diagnostics say which).
pub fn pair(gt: Side, pred: Side, opts: &TextOptions, diags: &mut Diags) -> Pairs {
    let mut out = Pairs {
        squad: gt.squad.clone(),
        layout: Some(gt.layout),
        ..Pairs::default()
    };
    let mut index: FxHashMap<String, usize> = FxHashMap::default();
    let mut keep = Vec::new();
    for (k, (r, file)) in gt.records.into_iter().enumerate() {
        if index.contains_key(&r.id) {
            let d = Diagnostic::error(
                &format!("{ID}.duplicate_id"),
                format!("id `{}` appears twice in the ground truth", excerpt(&r.id)),
            )
            .hint("Give each item one id.");
            diags.push(located(d, &r, &file));
            continue;
        }
        index.insert(r.id.clone(), out.ids.len());
        keep.push(k);
        out.ids.push(r.id);
        out.refs.push(
            r.texts
                .into_iter()
                .map(|t| normalize(t, opts.normalize))
                .collect(),
        );
    }
    if let Some((_, has)) = out.squad.as_mut() {
        *has = keep.iter().map(|&k| has[k]).collect();
    }
    let mut hyps: Vec<Option<String>> = vec![None; out.ids.len()];
    let mut hyp_file = vec![u32::MAX; out.ids.len()];
    for (r, file) in pred.records {
        let Some(&i) = index.get(&r.id) else {
            let d = Diagnostic::error(
                &format!("{ID}.unknown_id"),
                format!("id `{}` is not in the ground truth", excerpt(&r.id)),
            )
            .hint("Give only the ground truth's ids (for SQuAD: its question ids).");
            diags.push(located(d, &r, &file));
            continue;
        };
        if hyps[i].is_some() {
            let d = Diagnostic::error(
                &format!("{ID}.duplicate_id"),
                format!("id `{}` appears twice in the submission", excerpt(&r.id)),
            )
            .hint("Give each id one prediction.");
            diags.push(located(d, &r, &file));
            continue;
        }
        if r.texts.len() != 1 {
            let d = Diagnostic::error(
                &format!("{ID}.several_hypotheses"),
                format!(
                    "id `{}` has {} predictions; a submission gives one text per id",
                    excerpt(&r.id),
                    r.texts.len()
                ),
            );
            diags.push(located(d, &r, &file));
            continue;
        }
        if out.pred_files.last() != Some(&file) {
            out.pred_files.push(file.clone());
        }
        hyp_file[i] = (out.pred_files.len() - 1) as u32;
        hyps[i] = r
            .texts
            .into_iter()
            .next()
            .map(|t| normalize(t, opts.normalize));
    }
    let n_missing = hyps.iter().filter(|h| h.is_none()).count();
    for (i, h) in hyps.iter().enumerate().filter(|(_, h)| h.is_none()) {
        let id = excerpt(&out.ids[i]);
        let d = match opts.missing {
            Missing::Worst => Diagnostic::warning(&format!("{ID}.missing_id"), format!("id `{id}` is not in the submission; scored as an empty text ({n_missing} missing)")),
            Missing::Error => Diagnostic::error(&format!("{ID}.missing_id"), format!("id `{id}` is not in the submission ({n_missing} missing)"))
                .official("rejects the submission (as Kaggle does)"),
        };
        let _ = h;
        diags.push(
            d.expected(id)
                .hint("Give one prediction per GT id (or let the organizer set missing = worst)."),
        );
    }
    out.hyps = hyps.into_iter().map(Option::unwrap_or_default).collect();
    out.hyp_file = hyp_file;
    out
}
