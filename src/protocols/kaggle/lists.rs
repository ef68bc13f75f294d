//! One value per id: space-separated predicted lists (MAP@k), label sets (F1) and strings (Levenshtein, word
//! Jaccard). Each id has one row on each side.

use super::inputs;
use super::KaggleOptions;
use crate::diag::Diags;
use crate::formats::csv_records::Row;
use crate::formats::kaggle_csv::{At, Columns, Table};
use crate::input::Entry;
use crate::items::Ids;
use crate::metrics::edit;
use crate::metrics::kaggle::ranking;
use crate::metrics::kaggle::rle::Empty;
use crate::metrics::mean::numpy_mean;
use crate::metrics::text::similarity;
use rustc_hash::FxHashMap;

/// The metrics of predicted lists, label sets and strings.
pub const MAP: &[&str] = &["map"];
pub const TAGS: &[&str] = &["f1_micro", "f1_macro", "f1_samples"];
pub const STRINGS: &[&str] = &["levenshtein", "sequence_levenshtein", "word_jaccard"];
pub const ORDERINGS: &[&str] = &["kendall_tau"];

/// The scored rows: the solution's ids in order, one value per id and column, and the set's metrics.
pub struct Scored {
    /// Held as the report's item table holds them (one text arena: no allocation per id).
    pub ids: Ids,
    pub columns: Vec<(&'static str, Vec<f64>)>,
    pub scores: Vec<(&'static str, Option<f64>)>,
}

/// The solution's ids and each id's solution and submission values.
type Pairs<T> = (Vec<String>, Vec<(T, T)>);

/// `ids` as an [`Ids`] table.
pub fn id_table(ids: &[String]) -> Ids {
    let mut t = Ids::default();
    for id in ids {
        t.push(id);
    }
    t
}

/// Both files read with `parse` (of a row's value cell, `at.value`) and matched, one row per id: each id's
/// solution and submission values.
pub(super) fn read_pairs<T>(
    gt_e: &Entry,
    pred_e: &Entry,
    opts: &KaggleOptions,
    delim: u8,
    diags: &mut Diags,
    parse: &mut dyn FnMut(&Row, &At) -> T,
) -> Option<Pairs<T>> {
    let mut columns = Columns {
        id: &opts.id_column,
        value: &opts.column,
        value_option: "column",
        extra: &[],
    };
    let mut cell = |r: &Row, at: &At, _: &mut Diags| Some(parse(r, at));
    let gt: Table<T> = inputs::read(gt_e, delim, &columns, diags, &mut cell)?;
    let name = gt.column.clone();
    if opts.column.is_empty() {
        columns.value = &name;
    }
    let mut sub: Table<T> = inputs::read(pred_e, delim, &columns, diags, &mut cell)?;
    let mut gt = gt;
    let m = inputs::matched_as(&gt, &sub, false, opts.read_as.mode(), diags);
    Some(inputs::one_each(&mut gt, &mut sub, &m))
}

/// Items interned as codes: the same text, the same code, across both files. Items of at most 15 bytes (article
/// and customer numbers) are keyed by their bytes and length packed into a `u128`, so that a lookup compares
/// numbers rather than following a pointer to a string.
#[derive(Default)]
struct Codes {
    short: FxHashMap<u128, u32>,
    long: FxHashMap<String, u32>,
}

impl Codes {
    fn code(&mut self, w: &str) -> u32 {
        let next = (self.short.len() + self.long.len()) as u32;
        if w.len() <= 15 {
            let mut b = [0u8; 16];
            b[..w.len()].copy_from_slice(w.as_bytes());
            b[15] = w.len() as u8;
            return *self.short.entry(u128::from_le_bytes(b)).or_insert(next);
        }
        match self.long.get(w) {
            Some(&c) => c,
            None => {
                self.long.insert(w.to_string(), next);
                next
            }
        }
    }
    fn list(&mut self, cell: &str) -> Vec<u32> {
        cell.split_ascii_whitespace()
            .map(|w| self.code(w))
            .collect()
    }
}

/// A row's items, as packed numbers when each has at most 15 bytes (compared as numbers, not through `memcmp`);
/// the buffers are kept from row to row.
#[derive(Default)]
struct Items {
    a: Vec<u128>,
    p: Vec<u128>,
}

/// The items of `s` (split on ASCII whitespace, as `str::split_ascii_whitespace` splits), at most `limit` of them,
/// each packed into one number (its bytes and its length); false when one has more than 15 bytes.
fn pack_items(s: &[u8], limit: usize, out: &mut Vec<u128>) -> bool {
    const ONES: u128 = u128::from_le_bytes([1; 16]);
    const HIGH: u128 = u128::from_le_bytes([0x80; 16]);
    let n = s.len();
    let mut i = 0;
    while out.len() < limit {
        while i < n && s[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == n {
            break;
        }
        let start = i;
        let (len, bytes) = match s.get(start..start + 16) {
            Some(w) => {
                let mut b = [0u8; 16];
                b.copy_from_slice(w);
                // The first byte up to b' ' (the high bit of `x - 0x21` where `x` had none; a borrow only
                // marks bytes after it): the item ends there if that byte is whitespace.
                let x = u128::from_le_bytes(b);
                let low = x.wrapping_sub(ONES * 0x21) & !x & HIGH;
                let len = (low.trailing_zeros() / 8) as usize;
                if len == 16 {
                    return false;
                }
                let len = match s[start + len].is_ascii_whitespace() {
                    true => len,
                    false => item_len(&s[start..]),
                };
                (len, x & ((1u128 << (8 * len.min(15))) - 1))
            }
            None => {
                let len = item_len(&s[start..]);
                let mut b = [0u8; 16];
                if len <= 15 {
                    b[..len].copy_from_slice(&s[start..start + len]);
                }
                (len, u128::from_le_bytes(b))
            }
        };
        if len > 15 {
            return false;
        }
        i = start + len;
        out.push(bytes | (len as u128) << 120);
    }
    true
}

/// The length of the item at the start of `s` (up to the first ASCII whitespace).
fn item_len(s: &[u8]) -> usize {
    s.iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(s.len())
}

impl Items {
    /// Kaggle's `apk` of the true items `t` and the predicted `s` (the first `k`); compared as strings when an
    /// item is longer than 15 bytes.
    fn apk(&mut self, t: &str, s: &str, k: usize) -> f64 {
        let (a, p) = (&mut self.a, &mut self.p);
        a.clear();
        p.clear();
        if pack_items(t.as_bytes(), usize::MAX, a) && pack_items(s.as_bytes(), k, p) {
            return ranking::apk(a, p, k);
        }
        let a: Vec<&str> = t.split_ascii_whitespace().collect();
        let p: Vec<&str> = s.split_ascii_whitespace().take(k).collect();
        ranking::apk(&a, &p, k)
    }
}

/// MAP@k (Kaggle's `apk` per row, NumPy's mean).
pub fn map(
    gt: &Entry,
    pred: &Entry,
    opts: &KaggleOptions,
    delim: u8,
    k: usize,
    diags: &mut Diags,
) -> Option<Scored> {
    // The solution's cells appended to one buffer (a range of it per cell: no allocation per cell), its ids
    // indexed, then each submission row scored as it is read (its first row of an id; the matching errors are
    // the same as after reading both): the submission's cells are never kept.
    let mut text = String::with_capacity(gt.size.min(1 << 30) as usize);
    let mut columns = Columns {
        id: &opts.id_column,
        value: &opts.column,
        value_option: "column",
        extra: &[],
    };
    let mut cell = |r: &Row, at: &At, _: &mut Diags| {
        let start = text.len();
        text.push_str(r.get(at.value));
        Some(start..text.len())
    };
    let mut gt_t: Table<std::ops::Range<usize>> =
        inputs::read(gt, delim, &columns, diags, &mut cell)?;
    let name = gt_t.column.clone();
    if opts.column.is_empty() {
        columns.value = &name;
    }
    let mut index = inputs::GtIndex::new(&gt_t, false, opts.read_as.mode());
    let mut ap = vec![f64::NAN; index.len()];
    let mut scored = vec![false; index.len()];
    let mut items = Items::default();
    let mut truths: Vec<(u32, std::ops::Range<usize>)> = Vec::new();
    // The submission's row number of the batch's first row.
    let mut row = 0;
    // A batch's ids looked up first, then their solution cells, then the rows scored: the lookups of a batch
    // wait on memory together.
    let mut score = |rows: &[Row], at: &At, _: &mut Diags, out: &mut Vec<Option<()>>| {
        truths.clear();
        for (k, r) in rows.iter().enumerate() {
            truths.push((index.group(&gt_t, row + k, r.get(at.id)), 0..0));
        }
        row += rows.len();
        for (g, t) in truths.iter_mut() {
            if *g != inputs::NONE && !scored[*g as usize] {
                scored[*g as usize] = true;
                match &gt_t.values[index.first[*g as usize] as usize] {
                    Some(r) => *t = r.clone(),
                    None => *g = inputs::NONE,
                }
            } else {
                *g = inputs::NONE;
            }
        }
        for (r, (g, t)) in rows.iter().zip(&truths) {
            if *g != inputs::NONE {
                ap[*g as usize] = items.apk(&text[t.clone()], r.get(at.value), k);
            }
            out.push(Some(()));
        }
    };
    let sub_t: Table<()> = inputs::read_batches(pred, delim, &columns, diags, &mut score)?;
    let m = index.matched(&gt_t, &sub_t, diags);
    let kept_row = |g: usize, r: u32| scored[g] && gt_t.values[r as usize].is_some();
    // Every solution row kept, each its own id (the usual case): the solution's id table is the report's.
    let all = m.len() == gt_t.ids.len()
        && (m.first.iter().enumerate()).all(|(g, &r)| g == r as usize && kept_row(g, r));
    let (mut ids, mut kept) = (Ids::default(), Vec::with_capacity(m.len()));
    for (g, &r) in m.first.iter().enumerate() {
        if kept_row(g, r) {
            if !all {
                ids.push(gt_t.ids.get(r as usize));
            }
            kept.push(ap[g]);
        }
    }
    if all {
        ids = std::mem::take(&mut gt_t.ids);
    }
    let score = numpy_mean(&kept);
    Some(Scored {
        ids,
        columns: vec![("ap", kept)],
        scores: vec![("map", score)],
    })
}

/// Micro, macro and samples F1 over label sets (`MultiLabelBinarizer` fitted on both sides).
pub fn tags(
    gt: &Entry,
    pred: &Entry,
    opts: &KaggleOptions,
    delim: u8,
    diags: &mut Diags,
) -> Option<Scored> {
    let mut codes = Codes::default();
    let mut set = |c: &str| {
        let mut v = codes.list(c);
        v.sort_unstable();
        v.dedup();
        v
    };
    let (ids, pairs) = read_pairs(gt, pred, opts, delim, diags, &mut |r, at| {
        set(r.get(at.value))
    })?;
    let labels = pairs
        .iter()
        .flat_map(|(a, p)| a.iter().chain(p))
        .map(|&c| c as usize + 1)
        .max()
        .unwrap_or(0);
    let f = ranking::f1s(&pairs, labels);
    let per: Vec<f64> = pairs
        .iter()
        .map(|(t, p)| {
            let tp = t.iter().filter(|x| p.contains(x)).count();
            let den = t.len() + p.len();
            if den == 0 {
                0.0
            } else {
                2.0 * tp as f64 / den as f64
            }
        })
        .collect();
    Some(Scored {
        ids: id_table(&ids),
        columns: vec![("f1", per)],
        scores: vec![
            ("f1_micro", f.micro),
            ("f1_macro", f.macro_),
            ("f1_samples", f.samples),
        ],
    })
}

/// The mean Levenshtein distance over characters and over space-separated tokens, and the mean word Jaccard
/// (Tweet Sentiment Extraction's `jaccard`; two empty strings score as `empty` says).
pub fn strings(
    gt: &Entry,
    pred: &Entry,
    opts: &KaggleOptions,
    delim: u8,
    empty: Empty,
    diags: &mut Diags,
) -> Option<Scored> {
    let (ids, pairs) = read_pairs(gt, pred, opts, delim, diags, &mut |r, at| {
        r.get(at.value).to_string()
    })?;
    let mut chars = Vec::with_capacity(pairs.len());
    let mut tokens = Vec::with_capacity(pairs.len());
    let mut jac = Vec::with_capacity(pairs.len());
    for (t, p) in &pairs {
        chars.push(edit::char_distance(t, p) as f64);
        let (a, b): (Vec<&str>, Vec<&str>) = (
            t.split_ascii_whitespace().collect(),
            p.split_ascii_whitespace().collect(),
        );
        tokens.push(edit::distance(&a, &b) as f64);
        jac.push(similarity::jaccard(t, p).or(match empty {
            Empty::One => Some(1.0),
            Empty::Zero => Some(0.0),
            Empty::Skip => None,
        }));
    }
    let kept: Vec<f64> = jac.iter().flatten().copied().collect();
    Some(Scored {
        ids: id_table(&ids),
        scores: vec![
            ("levenshtein", numpy_mean(&chars)),
            ("sequence_levenshtein", numpy_mean(&tokens)),
            ("word_jaccard", numpy_mean(&kept)),
        ],
        columns: vec![
            ("levenshtein", chars),
            ("sequence_levenshtein", tokens),
            (
                "word_jaccard",
                jac.iter().map(|v| v.unwrap_or(f64::NAN)).collect(),
            ),
        ],
    })
}

/// Kendall's τ over space-separated orderings (AI4Code's `kendall_tau`: the predicted order's ranks in the true
/// order, inversions summed over ids, 1 − 4 Σ inversions / Σ n(n − 1)); per id, its own τ. An item of a
/// predicted order that is not in the id's true order is a refusal naming the id (Python's `gt.index` raises).
pub fn orderings(
    gt: &Entry,
    pred: &Entry,
    opts: &KaggleOptions,
    delim: u8,
    diags: &mut Diags,
) -> Option<Scored> {
    use crate::metrics::kaggle::ordering;
    // Each cell's items, with where it is: its row (line) and column name.
    let split = &mut |r: &Row, at: &At| {
        let items: Vec<String> = (r.get(at.value).split_ascii_whitespace())
            .map(str::to_string)
            .collect();
        let column = at.header.get(at.value).cloned().unwrap_or_default();
        (items, r.line, column)
    };
    let (ids, pairs) = read_pairs(gt, pred, opts, delim, diags, split)?;
    let (mut inversions, mut two_max) = (0u64, 0u64);
    let mut per = Vec::with_capacity(pairs.len());
    for (id, ((t, _, _), (p, line, column))) in ids.iter().zip(&pairs) {
        let t: Vec<&str> = t.iter().map(String::as_str).collect();
        let p: Vec<&str> = p.iter().map(String::as_str).collect();
        match ordering::ranks(&t, &p) {
            Ok(r) => {
                let inv = ordering::inversions(&r);
                let n = t.len() as u64;
                inversions += inv;
                two_max += n * n.saturating_sub(1);
                per.push(ordering::kendall_tau(inv, n * n.saturating_sub(1)).unwrap_or(f64::NAN));
            }
            Err(item) => {
                diags.push(
                    crate::diag::Diagnostic::error(
                        "kaggle.unknown_item",
                        format!(
                            "row {} (id `{}`), column `{}`: `{}` is not in the solution's order",
                            line.saturating_sub(1),
                            crate::diag::excerpt(id),
                            crate::diag::excerpt(column),
                            crate::diag::excerpt(item)
                        ),
                    )
                    .file(&pred.path)
                    .line(*line)
                    .found(crate::diag::excerpt(item))
                    .hint("Order exactly the solution's items of each id."),
                );
                per.push(f64::NAN);
            }
        }
    }
    Some(Scored {
        ids: id_table(&ids),
        scores: vec![("kendall_tau", ordering::kendall_tau(inversions, two_max))],
        columns: vec![("kendall_tau", per)],
    })
}

#[cfg(test)]
mod tests {
    use super::Items;
    use crate::metrics::kaggle::ranking;

    /// The packed items score as the items compared as strings, whatever the separators and lengths.
    #[test]
    fn packed_apk_is_the_strings_apk() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut items = Items::default();
        let words = [
            "a",
            "bb",
            "a1",
            "0123456789abcde",
            "0123456789abcdef",
            "x",
            "",
            "é",
            "a\x01b",
            "0123456789abcdé",
        ];
        let seps = [" ", "  ", "\t", "\r\n", "\x0C"];
        for _ in 0..20_000 {
            let cell = |x: &mut u64| {
                let n = crate::xorshift64(x) % 14;
                let mut s = String::new();
                for _ in 0..n {
                    s.push_str(words[(crate::xorshift64(x) % words.len() as u64) as usize]);
                    s.push_str(seps[(crate::xorshift64(x) % seps.len() as u64) as usize]);
                }
                s
            };
            let (t, p) = (cell(&mut x), cell(&mut x));
            let k = (crate::xorshift64(&mut x) % 13) as usize;
            let a: Vec<&str> = t.split_ascii_whitespace().collect();
            let q: Vec<&str> = p.split_ascii_whitespace().take(k).collect();
            let want = ranking::apk(&a, &q, k);
            assert_eq!(
                items.apk(&t, &p, k).to_bits(),
                want.to_bits(),
                "{t:?} {p:?} {k}"
            );
        }
    }
}
