//! One category: read its GT and submission files, rank the matched lines, and compute AP under the active
//! reading and the other readings the report shows (docs/specs/chalearn-ce.md sections 3, 4, 6).

mod aps;
mod rank;

pub use aps::Aps;
pub use rank::{sort_desc_stable, steps};

use crate::diag::{Diagnostic, Diags};
use crate::formats::chalearn::{read_gt, read_submission, Label};
use crate::input::Entry;
use crate::metrics::voc_ap::{Integration, Step};
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieOrder {
    File,
    Grouped,
    PositivesFirst,
    NegativesFirst,
}

impl TieOrder {
    pub fn parse(s: &str) -> TieOrder {
        match s {
            "grouped" => TieOrder::Grouped,
            "positives_first" => TieOrder::PositivesFirst,
            "negatives_first" => TieOrder::NegativesFirst,
            _ => TieOrder::File,
        }
    }
}

/// How one AP is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub tie: TieOrder,
    pub append_missing: bool,
    pub integration: Integration,
    pub sentinels: bool,
}

/// Settings that apply while reading.
#[derive(Clone, Copy, Debug)]
pub struct ReadSettings {
    pub duplicates_error: bool,
    pub gt_zero_ignore: bool,
    pub stem: bool,
    /// Keep what the bootstrap's units need ([`Outcome::kept`]).
    pub keep: bool,
}

/// Image ids of all GT files, interned once; `slot[gid]` is the id's position in the current category's GT.
#[derive(Default)]
pub struct Interner {
    /// Ids of up to 15 bytes, packed with their length into one `u128` (no pointer to follow per probe).
    small: HashMap<u128, u32, FxBuildHasher>,
    long: HashMap<Box<[u8]>, u32, FxBuildHasher>,
    slot: Vec<u32>,
    /// The packed key of each id (`LONG` for long ids), to check a guess without probing the table.
    keys: Vec<u128>,
    /// Id found by the previous call, and whether the two before were consecutive ids: GT files (and most
    /// submissions) list the same images in the same order, so the next id is then tried first.
    last: u32,
    in_order: bool,
}

const LONG: u128 = u128::MAX;

fn pack(id: &[u8]) -> Option<u128> {
    let mut b = [0u8; 16];
    b.get_mut(..id.len())?.copy_from_slice(id);
    if id.len() > 15 {
        return None;
    }
    b[15] = id.len() as u8;
    Some(u128::from_le_bytes(b))
}

const NONE: u32 = u32::MAX;

/// `id` without a final extension (`002234.jpg` → `002234`), for `id_match = stem`.
pub fn stem_of(id: &[u8]) -> &[u8] {
    match id.iter().rposition(|b| *b == b'.') {
        Some(i) if i > 0 => &id[..i],
        _ => id,
    }
}

impl Interner {
    fn intern(&mut self, key: &[u8]) -> u32 {
        if let Some(g) = self.lookup(key) {
            return g;
        }
        let g = self.slot.len() as u32;
        match pack(key) {
            Some(k) => {
                self.small.insert(k, g);
                self.keys.push(k);
            }
            None => {
                self.long.insert(key.into(), g);
                self.keys.push(LONG);
            }
        }
        self.slot.push(NONE);
        self.found(g);
        g
    }

    fn lookup(&mut self, key: &[u8]) -> Option<u32> {
        let packed = pack(key);
        if let Some(k) = packed {
            let guess = self.last.wrapping_add(1);
            if self.in_order && self.keys.get(guess as usize) == Some(&k) {
                self.last = guess;
                return Some(guess);
            }
        }
        let g = match packed {
            Some(k) => self.small.get(&k).copied(),
            None => self.long.get(key).copied(),
        }?;
        self.found(g);
        Some(g)
    }

    fn found(&mut self, g: u32) {
        self.in_order = g == self.last.wrapping_add(1);
        self.last = g;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Pos,
    Neg,
    Ignore,
}

/// Everything the report needs about one category.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub npos: u64,
    pub nneg: u64,
    pub ignored: u64,
    pub submitted: u64,
    pub matched: u64,
    pub unknown: u64,
    pub duplicates: u64,
    pub missing_pos: u64,
    pub missing_neg: u64,
    pub has_file: bool,
    /// An error blocks this category's AP.
    pub blocked: bool,
    /// The submission file could not be read to its end: nothing is said about its missing images.
    pub unreadable: bool,
    /// Matched lines sorted by confidence, descending, stable in file order: (confidence, positive).
    pub ranked: Vec<(f64, bool)>,
    /// Labels of the GT images missing from the submission, in GT order (true = positive).
    pub missing: Vec<bool>,
    /// Some confidences are equal.
    pub any_ties: bool,
    /// Some equal confidences hold both a positive and a negative (the tie order changes AP).
    pub mixed_ties: bool,
    /// With [`ReadSettings::keep`]: what the bootstrap's units need.
    pub kept: Option<Kept>,
}

/// One category as the bootstrap's units read it: its GT images in GT order (the id as matched, and
/// `Some(positive)`, `None` for an ignored image), and its matched lines in file order (the confidence as
/// ranked, the image's GT position).
#[derive(Clone, Debug, Default)]
pub struct Kept {
    pub gt: Vec<(Box<str>, Option<bool>)>,
    pub lines: Vec<(f64, u32)>,
    /// The category has a submission file (without one its AP is 0).
    pub has_file: bool,
}

/// Buffers reused from one category to the next (100 categories of 30,000 images would otherwise map and fault
/// in fresh pages for every vector).
#[derive(Default)]
pub struct Buffers {
    kinds: Vec<Kind>,
    gids: Vec<u32>,
    seen: Vec<bool>,
    ranked: Vec<(f64, bool)>,
    missing: Vec<bool>,
    /// The radix sort's buffers ([`sort_desc_stable`]).
    keyed: Vec<(u64, bool)>,
    scratch: Vec<(u64, bool)>,
    pub ap: ApBuffers,
}

impl Buffers {
    /// Takes back the vectors of a finished category.
    pub fn recycle(&mut self, o: Outcome) {
        self.ranked = o.ranked;
        self.missing = o.missing;
    }
}

#[derive(Default)]
pub struct ApBuffers {
    steps: Vec<Step>,
    points: Vec<(f64, f64)>,
    terms: Vec<f64>,
    /// Envelopes `(mrec, mpre)`; the first `used` are this category's, keyed in `Aps::curves`.
    pool: Vec<(Vec<f64>, Vec<f64>)>,
}

/// Reads one category's GT and (optional) submission file.
pub fn read(
    gt: &Entry,
    sub: Option<&Entry>,
    set: ReadSettings,
    ids: &mut Interner,
    diags: &mut Diags,
    bufs: &mut Buffers,
) -> Outcome {
    let mut out = Outcome {
        kept: set.keep.then(Kept::default),
        ..Outcome::default()
    };
    read_gt_file(gt, set, ids, bufs, diags, &mut out);
    bufs.seen.clear();
    bufs.seen.resize(bufs.kinds.len(), false);
    if let Some(sub) = sub {
        read_submission_file(sub, set, ids, bufs, diags, &mut out);
    }
    let (kinds, seen) = (&bufs.kinds, &bufs.seen);
    out.missing = std::mem::take(&mut bufs.missing);
    out.missing.clear();
    for (p, k) in kinds.iter().enumerate() {
        if !seen[p] && *k != Kind::Ignore {
            out.missing.push(*k == Kind::Pos);
            if *k == Kind::Pos {
                out.missing_pos += 1;
            } else {
                out.missing_neg += 1;
            }
        }
    }
    for &g in bufs.gids.iter() {
        ids.slot[g as usize] = NONE;
    }
    if let Some(k) = out.kept.as_mut() {
        k.has_file = out.has_file;
    }
    if out.missing.len() > 1 {
        out.any_ties = true;
        out.mixed_ties |= out.missing_pos > 0 && out.missing_neg > 0;
    }
    out
}

/// The GT file: each image's kind (positive, negative, ignored) in `bufs.kinds`, its interned id in
/// `bufs.gids` and its position in the interner's slot; a repeated id keeps its first label (a warning).
fn read_gt_file(
    gt: &Entry,
    set: ReadSettings,
    ids: &mut Interner,
    bufs: &mut Buffers,
    diags: &mut Diags,
    out: &mut Outcome,
) {
    let kinds = &mut bufs.kinds;
    let gids = &mut bufs.gids;
    kinds.clear();
    gids.clear();
    let (mut gt_dups, mut gt_dup_first) = (0u64, (0u64, String::new()));
    let st = read_gt(gt.text_file(), diags, |id, label, no| {
        let key = if set.stem { stem_of(id) } else { id };
        let g = ids.intern(key);
        let slot = &mut ids.slot[g as usize];
        if *slot != NONE {
            gt_dups += 1;
            if gt_dup_first.0 == 0 {
                gt_dup_first = (no, String::from_utf8_lossy(id).into_owned());
            }
            return;
        }
        *slot = kinds.len() as u32;
        gids.push(g);
        let kind = match label {
            Label::Positive => Kind::Pos,
            Label::Zero if set.gt_zero_ignore => Kind::Ignore,
            _ => Kind::Neg,
        };
        kinds.push(kind);
        if let Some(k) = out.kept.as_mut() {
            let id = String::from_utf8_lossy(key).into();
            k.gt.push((id, (kind != Kind::Ignore).then_some(kind == Kind::Pos)));
        }
    });
    if st.bad > 0 {
        out.blocked = true;
    }
    if gt_dups > 0 {
        diags.push(
            Diagnostic::warning(
                "chalearn.gt.duplicate_id",
                format!("{gt_dups} image id(s) repeated in the GT file; the first label is used"),
            )
            .file(&gt.path)
            .line(gt_dup_first.0)
            .found(crate::diag::excerpt(&gt_dup_first.1))
            .hint("List each image once per GT file."),
        );
    }
    for k in kinds.iter() {
        match k {
            Kind::Pos => out.npos += 1,
            Kind::Neg => out.nneg += 1,
            Kind::Ignore => out.ignored += 1,
        }
    }
}

/// The first lines of the unknown and of the repeated ids of a submission file.
#[derive(Default)]
struct Firsts {
    unknown: Vec<(u64, String)>,
    repeated: Vec<(u64, String)>,
}

/// The submission file: each known id's confidence once (the first occurrence; unknown ids dropped), ranked
/// by confidence descending (stable), with its ties noted.
fn read_submission_file(
    sub: &Entry,
    set: ReadSettings,
    ids: &mut Interner,
    bufs: &mut Buffers,
    diags: &mut Diags,
    out: &mut Outcome,
) {
    out.has_file = true;
    let (kinds, seen) = (&bufs.kinds, &mut bufs.seen);
    let mut matched = std::mem::take(&mut bufs.ranked);
    matched.clear();
    let mut firsts = Firsts::default();
    let st = read_submission(sub.text_file(), diags, |id, conf, no| {
        out.submitted += 1;
        let key = if set.stem { stem_of(id) } else { id };
        let pos = ids
            .lookup(key)
            .map(|g| ids.slot[g as usize])
            .filter(|p| *p != NONE);
        let Some(pos) = pos else {
            out.unknown += 1;
            if firsts.unknown.len() < 5 {
                firsts
                    .unknown
                    .push((no, String::from_utf8_lossy(id).into_owned()));
            }
            return;
        };
        let p = pos as usize;
        if seen[p] {
            out.duplicates += 1;
            if firsts.repeated.len() < if set.duplicates_error { 50 } else { 5 } {
                firsts
                    .repeated
                    .push((no, String::from_utf8_lossy(id).into_owned()));
            }
            return;
        }
        seen[p] = true;
        match kinds[p] {
            Kind::Ignore => {}
            k => {
                out.matched += 1;
                // + 0.0 turns -0.0 into 0.0: equal confidences compare equal bit for bit below.
                matched.push((conf + 0.0, k == Kind::Pos));
                if let Some(kept) = out.kept.as_mut() {
                    kept.lines.push((conf + 0.0, pos));
                }
            }
        }
    });
    if st.bad > 0 || (set.duplicates_error && out.duplicates > 0) {
        out.blocked = true;
    }
    out.unreadable = st.unreadable;
    submission_notes(sub, out, &firsts, set, diags);
    // Confidence descending, stable in file order; -0.0 ties with 0.0 as in Python and NumPy.
    sort_desc_stable(&mut matched, &mut bufs.keyed, &mut bufs.scratch);
    let mut i = 0;
    while i < matched.len() {
        let (c, first) = matched[i];
        let mut j = i + 1;
        while j < matched.len() && matched[j].0 == c {
            out.any_ties = true;
            out.mixed_ties |= matched[j].1 != first;
            j += 1;
        }
        i = j;
    }
    out.ranked = matched;
}

/// The submission's unknown ids (a warning) and repeated ids (errors with `duplicates = error`, else a
/// warning).
fn submission_notes(
    sub: &Entry,
    out: &Outcome,
    firsts: &Firsts,
    set: ReadSettings,
    diags: &mut Diags,
) {
    let (unknown_first, dup_first) = (&firsts.unknown, &firsts.repeated);
    if out.unknown > 0 {
        diags.push(
            Diagnostic::warning(
                "chalearn.res.unknown_id",
                format!(
                    "{} image id(s) not in this category's GT are dropped; first: {}",
                    out.unknown,
                    listing(unknown_first)
                ),
            )
            .file(&sub.path)
            .line(unknown_first.first().map_or(1, |x| x.0))
            .found(unknown_first.first().map(|x| crate::diag::excerpt(&x.1)).unwrap_or_default())
            .hint("Use the image ids of the GT file exactly (or set id_match=stem if only the extension differs).")
            .official("not published; dropscore drops them"),
        );
    }
    if set.duplicates_error {
        for (no, id) in dup_first {
            diags.push(
                Diagnostic::error(
                    "chalearn.res.duplicate_id",
                    "image id repeated in this category file",
                )
                .file(&sub.path)
                .at(*no, 1)
                .found(crate::diag::excerpt(id))
                .hint("List each image once per category file.")
                .official("not published; dropscore's official reading keeps the first occurrence"),
            );
        }
        if out.duplicates > dup_first.len() as u64 {
            diags.push(
                Diagnostic::error(
                    "chalearn.res.duplicate_id",
                    format!(
                        "{} more repeated image ids in this file",
                        out.duplicates - dup_first.len() as u64
                    ),
                )
                .file(&sub.path),
            );
        }
    } else if !dup_first.is_empty() {
        diags.push(
            Diagnostic::warning(
                "chalearn.res.duplicate_id",
                format!(
                    "{} repeated image id(s); the first occurrence is kept; repeats: {}",
                    out.duplicates,
                    listing(dup_first)
                ),
            )
            .file(&sub.path)
            .line(dup_first[0].0)
            .found(crate::diag::excerpt(&dup_first[0].1))
            .hint("List each image once per category file.")
            .official("not published; the first occurrence is kept [default]"),
        );
    }
}

fn listing(v: &[(u64, String)]) -> String {
    v.iter()
        .map(|(no, id)| format!("{} (line {no})", crate::diag::excerpt(id)))
        .collect::<Vec<_>>()
        .join(", ")
}
