//! The Levenshtein edit distance (unit costs) and the alignment behind it, shared by `metrics::aij` (1 − NED)
//! and `metrics::text` (jiwer, NED, ANLS).
//!
//! [`distance`] is the plain distance (any optimal alignment gives it). [`align`] is the alignment that
//! rapidfuzz 3.x's `Levenshtein.editops` / `opcodes` returns (rapidfuzz-cpp `levenshtein_editops`, called by
//! jiwer 4.0's `process_words`): among the optimal alignments it picks one by a fixed rule, and jiwer's hits,
//! substitutions, deletions and insertions (hence MER, WIL, WIP) depend on that choice. The rule, transcribed
//! from rapidfuzz-cpp `distance/Levenshtein_impl.hpp`:
//!
//! - the common prefix and suffix are removed first (`remove_common_affix`), at every level;
//! - when the bit matrix would reach 1 MiB (`2 · min(len₁, 2·max+1) · len₂ / 8 ≥ 2²⁰`, `len₁ ≥ 65`, `len₂ ≥ 10`,
//!   `max` the distance bound handed down) the pair is split by Hirschberg's method: `s2` at `len₂ / 2`, `s1` at
//!   the first position (from 0) where left distance + right distance is smallest (`find_hirschberg_pos`);
//! - otherwise the alignment is read back from the end of the matrix (`recover_alignment`): a deletion when the
//!   vertical delta at (col, row) is +1, else step up a row and take an insertion when the vertical delta there
//!   is −1, else a match or a substitution on the diagonal.

use rustc_hash::FxHashMap;
use std::hash::Hash;

/// One edit operation of an alignment: on `s1[i]` (the reference) and `s2[j]` (the hypothesis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Equal,
    Replace,
    Delete,
    Insert,
}

/// The counts of an alignment (jiwer's `hits`, `substitutions`, `deletions`, `insertions`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub hits: u64,
    pub substitutions: u64,
    pub deletions: u64,
    pub insertions: u64,
}

impl Counts {
    /// Substitutions + deletions + insertions: the distance.
    pub fn errors(&self) -> u64 {
        self.substitutions + self.deletions + self.insertions
    }
    pub fn add(&mut self, o: &Counts) {
        self.hits += o.hits;
        self.substitutions += o.substitutions;
        self.deletions += o.deletions;
        self.insertions += o.insertions;
    }
}

/// The Levenshtein distance between `a` and `b` (unit costs), on one row of the matrix.
pub fn distance<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let (a, b) = trim_affix(a, b);
    let (a, b) = if a.len() < b.len() { (b, a) } else { (a, b) };
    if b.is_empty() {
        return a.len();
    }
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y {
                diag
            } else {
                1 + diag.min(up).min(row[j])
            };
            diag = up;
        }
    }
    row[b.len()]
}

/// The Levenshtein distance between two strings, on Unicode scalar values (Python's `len`): [`Pattern`]'s
/// bit-parallel columns, the shorter string as the pattern.
pub fn char_distance(a: &str, b: &str) -> usize {
    if a == b {
        return 0;
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (a, b) = trim_affix(&a, &b);
    let (a, b) = if a.len() < b.len() { (a, b) } else { (b, a) };
    if a.is_empty() {
        return b.len();
    }
    let mut pattern = Pattern::new(a);
    let mut columns = Columns::new(a.len());
    let mut d = a.len();
    for y in b {
        d = d + columns.step(pattern.eq(y)) - 1;
    }
    d
}

/// The match masks of a pattern for Myers' bit-parallel edit distance (Myers 1999, "A fast bit-vector
/// algorithm for approximate string matching based on dynamic programming", in the block form of its section
/// 4; as rapidfuzz's `PatternMatchVector` / `BlockPatternMatchVector`): for each distinct element of the
/// pattern, one bit per pattern position where it occurs, in 64-bit words. Only the words with a bit set are
/// kept (at most one per position), so that a long pattern of many distinct elements stays linear in size.
struct Pattern<'a, T> {
    ids: FxHashMap<&'a T, usize>,
    /// The words of element `id`: `entries[starts[id]..starts[id + 1]]`, as (word index, bits).
    starts: Vec<usize>,
    entries: Vec<(usize, u64)>,
    /// The masks of the element last asked for, every word.
    eq: Vec<u64>,
}

impl<'a, T: Eq + Hash> Pattern<'a, T> {
    fn new(s: &'a [T]) -> Self {
        let mut ids: FxHashMap<&T, usize> = FxHashMap::default();
        let id: Vec<usize> = s
            .iter()
            .map(|x| {
                let next = ids.len();
                *ids.entry(x).or_insert(next)
            })
            .collect();
        // The positions grouped by element (a counting sort), in increasing order within an element.
        let mut starts = vec![0usize; ids.len() + 1];
        for &k in &id {
            starts[k + 1] += 1;
        }
        for k in 0..ids.len() {
            starts[k + 1] += starts[k];
        }
        let mut fill = starts.clone();
        let mut positions = vec![0usize; s.len()];
        for (i, &k) in id.iter().enumerate() {
            positions[fill[k]] = i;
            fill[k] += 1;
        }
        let mut entries = Vec::with_capacity(s.len());
        let mut word_starts = Vec::with_capacity(ids.len() + 1);
        for k in 0..ids.len() {
            word_starts.push(entries.len());
            for &i in &positions[starts[k]..starts[k + 1]] {
                let own = entries.len() > word_starts[k];
                match entries.last_mut() {
                    Some((w, bits)) if own && *w == i / 64 => *bits |= 1 << (i % 64),
                    _ => entries.push((i / 64, 1 << (i % 64))),
                }
            }
        }
        word_starts.push(entries.len());
        Pattern {
            ids,
            starts: word_starts,
            entries,
            eq: vec![0; s.len().div_ceil(64)],
        }
    }

    /// The positions of the pattern equal to `y`, as bits.
    fn eq(&mut self, y: &T) -> &[u64] {
        self.eq.fill(0);
        if let Some(&k) = self.ids.get(y) {
            for &(w, bits) in &self.entries[self.starts[k]..self.starts[k + 1]] {
                self.eq[w] = bits;
            }
        }
        &self.eq
    }
}

/// One column of the edit-distance matrix of a pattern of `len` elements against a text, as Myers' vertical
/// delta bit vectors: bit `i` of `pv` (`mv`) is set when D[i + 1][j] − D[i][j] is +1 (−1), column `j` being the
/// number of text elements consumed.
struct Columns {
    pv: Vec<u64>,
    mv: Vec<u64>,
    /// The bit of the last pattern position in the last word.
    last: u32,
}

impl Columns {
    /// Column 0: D[i][0] = i, every delta +1.
    fn new(len: usize) -> Self {
        let words = len.div_ceil(64);
        Columns {
            pv: vec![!0; words],
            mv: vec![0; words],
            last: ((len + 63) % 64) as u32,
        }
    }

    /// Consumes one text element whose match masks are `eq`; returns D[len][j + 1] − D[len][j] + 1 (0, 1 or 2).
    fn step(&mut self, eq: &[u64]) -> usize {
        // Myers' Advance_Block on every word, the horizontal delta carried from word to word (+1 into the
        // first: D[0][j] = j).
        let mut hin: i32 = 1;
        let n = self.pv.len();
        let mut out = 1;
        for (w, &word) in eq.iter().enumerate().take(n) {
            let (pv, mv) = (self.pv[w], self.mv[w]);
            let mut e = word;
            let xv = e | mv;
            if hin < 0 {
                e |= 1;
            }
            let xh = (((e & pv).wrapping_add(pv)) ^ pv) | e;
            let mut ph = mv | !(xh | pv);
            let mut mh = pv & xh;
            let bit = if w + 1 == n { self.last } else { 63 };
            let hout = ((ph >> bit) & 1) as i32 - ((mh >> bit) & 1) as i32;
            if w + 1 == n {
                out = (1 + hout) as usize;
            }
            ph <<= 1;
            mh <<= 1;
            if hin < 0 {
                mh |= 1;
            } else if hin > 0 {
                ph |= 1;
            }
            self.pv[w] = mh | !(xv | ph);
            self.mv[w] = ph & xv;
            hin = hout;
        }
        out
    }
}

/// `a` and `b` without their common prefix and suffix.
fn trim_affix<'a, T: PartialEq>(a: &'a [T], b: &'a [T]) -> (&'a [T], &'a [T]) {
    let p = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[p..], &b[p..]);
    let s = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (&a[..a.len() - s], &b[..b.len() - s])
}

/// The counts of rapidfuzz's alignment of `s1` (reference) with `s2` (hypothesis).
pub fn counts<T: Eq + Hash>(s1: &[T], s2: &[T]) -> Counts {
    let mut c = Counts::default();
    align(s1, s2, &mut |op, _, _| match op {
        Op::Replace => c.substitutions += 1,
        Op::Delete => c.deletions += 1,
        Op::Insert => c.insertions += 1,
        Op::Equal => {}
    });
    c.hits = s1.len() as u64 - c.substitutions - c.deletions;
    c
}

/// Calls `op(kind, i, j)` for every edit operation of rapidfuzz's alignment of `s1` with `s2` in order (`i`,
/// `j`: positions in `s1` and `s2` where the operation applies; matches are not reported).
pub fn align<T: Eq + Hash>(s1: &[T], s2: &[T], op: &mut dyn FnMut(Op, usize, usize)) {
    let max = s1.len().max(s2.len());
    hirschberg(s1, s2, 0, 0, max, op);
}

/// The full alignment as a sequence of operations, matches included (for display).
pub fn alignment<T: Eq + Hash>(s1: &[T], s2: &[T]) -> Vec<(Op, usize, usize)> {
    let mut edits = Vec::new();
    align(s1, s2, &mut |o, i, j| edits.push((o, i, j)));
    let mut out = Vec::with_capacity(s1.len().max(s2.len()));
    let (mut i, mut j) = (0, 0);
    for (o, ei, ej) in edits {
        while i < ei && j < ej {
            out.push((Op::Equal, i, j));
            i += 1;
            j += 1;
        }
        out.push((o, ei, ej));
        match o {
            Op::Replace => (i, j) = (ei + 1, ej + 1),
            Op::Delete => (i, j) = (ei + 1, ej),
            Op::Insert => (i, j) = (ei, ej + 1),
            Op::Equal => {}
        }
    }
    while i < s1.len() && j < s2.len() {
        out.push((Op::Equal, i, j));
        i += 1;
        j += 1;
    }
    out
}

/// `levenshtein_align_hirschberg`: `s1`, `s2` start at `p1`, `p2` of the whole strings; `max` bounds the
/// distance of this part.
fn hirschberg<T: Eq + Hash>(
    s1: &[T],
    s2: &[T],
    p1: usize,
    p2: usize,
    max: usize,
    op: &mut dyn FnMut(Op, usize, usize),
) {
    let pre = s1.iter().zip(s2).take_while(|(x, y)| x == y).count();
    let (s1, s2, p1, p2) = (&s1[pre..], &s2[pre..], p1 + pre, p2 + pre);
    let suf = s1
        .iter()
        .rev()
        .zip(s2.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (s1, s2) = (&s1[..s1.len() - suf], &s2[..s2.len() - suf]);
    let max = max.min(s1.len().max(s2.len()));
    let full_band = s1.len().min(2usize.saturating_mul(max).saturating_add(1));
    let matrix_size = (2 * full_band as u128 * s2.len() as u128) / 8;
    if matrix_size < 1024 * 1024 || s1.len() < 65 || s2.len() < 10 {
        leaf(s1, s2, p1, p2, op);
        return;
    }
    let mid2 = s2.len() / 2;
    let left = last_row(s1.iter(), s2[..mid2].iter());
    let right = last_row(s1.iter().rev(), s2[mid2..].iter().rev());
    let n = s1.len();
    let (mut best, mut mid1) = (usize::MAX, 0);
    for m in 0..=n {
        let score = left[m] + right[n - m];
        if score < best {
            (best, mid1) = (score, m);
        }
    }
    let (ls, rs) = (left[mid1], right[n - mid1]);
    hirschberg(&s1[..mid1], &s2[..mid2], p1, p2, ls, op);
    hirschberg(&s1[mid1..], &s2[mid2..], p1 + mid1, p2 + mid2, rs, op);
}

/// The distances of every prefix of `s1` to the whole of `s2`: entry `i` is lev(s1[..i], s2).
fn last_row<'a, T: PartialEq + 'a>(
    s1: impl Iterator<Item = &'a T> + Clone,
    s2: impl Iterator<Item = &'a T>,
) -> Vec<usize> {
    let a: Vec<&T> = s1.collect();
    let mut col: Vec<usize> = (0..=a.len()).collect();
    for (r, y) in s2.enumerate() {
        let mut diag = col[0];
        col[0] = r + 1;
        for (i, x) in a.iter().enumerate() {
            let left = col[i + 1];
            col[i + 1] = if *x == y {
                diag
            } else {
                1 + diag.min(left).min(col[i])
            };
            diag = left;
        }
    }
    col
}

/// `levenshtein_align` + `recover_alignment`: the vertical deltas of every column of the matrix kept as two bit
/// sets (as rapidfuzz's `VP` / `VN`), read back from the end.
fn leaf<T: Eq + Hash>(
    s1: &[T],
    s2: &[T],
    p1: usize,
    p2: usize,
    op: &mut dyn FnMut(Op, usize, usize),
) {
    let (n1, n2) = (s1.len(), s2.len());
    if n1 == 0 || n2 == 0 {
        (0..n1).for_each(|i| op(Op::Delete, p1 + i, p2));
        (0..n2).for_each(|j| op(Op::Insert, p1, p2 + j));
        return;
    }
    // Myers' bit-parallel columns give every vertical delta of the matrix (the same bits as rapidfuzz's
    // `levenshtein_matrix`), 64 cells per operation.
    let words = n1.div_ceil(64);
    let mut vp = Vec::with_capacity(words * n2);
    let mut vn = Vec::with_capacity(words * n2);
    let mut pattern = Pattern::new(s1);
    let mut columns = Columns::new(n1);
    for y in s2 {
        columns.step(pattern.eq(y));
        vp.extend_from_slice(&columns.pv);
        vn.extend_from_slice(&columns.mv);
    }
    let test = |m: &[u64], row: usize, c: usize| m[row * words + c / 64] >> (c % 64) & 1 == 1;
    let mut ops = Vec::new();
    let (mut c, mut r) = (n1, n2);
    while r > 0 && c > 0 {
        if test(&vp, r - 1, c - 1) {
            c -= 1;
            ops.push((Op::Delete, c, r));
        } else {
            r -= 1;
            if r > 0 && test(&vn, r - 1, c - 1) {
                ops.push((Op::Insert, c, r));
            } else {
                c -= 1;
                if s1[c] != s2[r] {
                    ops.push((Op::Replace, c, r));
                }
            }
        }
    }
    while c > 0 {
        c -= 1;
        ops.push((Op::Delete, c, r));
    }
    while r > 0 {
        r -= 1;
        ops.push((Op::Insert, c, r));
    }
    for &(o, i, j) in ops.iter().rev() {
        op(o, p1 + i, p2 + j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn distances() {
        assert_eq!(char_distance("kitten", "sitting"), 3);
        assert_eq!(char_distance("", "abc"), 3);
        assert_eq!(char_distance("хор", "Хор"), 1);
    }

    /// The dynamic programme the bit-parallel [`leaf`] replaced: every cell of the matrix, the vertical deltas
    /// kept as bits, then [`leaf`]'s read-back.
    fn leaf_scalar(s1: &[char], s2: &[char]) -> Vec<(Op, usize, usize)> {
        let (n1, n2) = (s1.len(), s2.len());
        let words = n1.div_ceil(64).max(1);
        let mut vp = vec![0u64; words * n2];
        let mut vn = vec![0u64; words * n2];
        let mut col: Vec<u32> = (0..=n1 as u32).collect();
        for (r, y) in s2.iter().enumerate() {
            let mut diag = col[0];
            col[0] = r as u32 + 1;
            for (i, x) in s1.iter().enumerate() {
                let left = col[i + 1];
                col[i + 1] = if x == y {
                    diag
                } else {
                    1 + diag.min(left).min(col[i])
                };
                diag = left;
                let (bit, w) = (1u64 << (i % 64), r * words + i / 64);
                if col[i + 1] > col[i] {
                    vp[w] |= bit;
                } else if col[i + 1] < col[i] {
                    vn[w] |= bit;
                }
            }
        }
        let test = |m: &[u64], row: usize, c: usize| m[row * words + c / 64] >> (c % 64) & 1 == 1;
        let mut ops = Vec::new();
        let (mut c, mut r) = (n1, n2);
        while r > 0 && c > 0 {
            if test(&vp, r - 1, c - 1) {
                c -= 1;
                ops.push((Op::Delete, c, r));
            } else {
                r -= 1;
                if r > 0 && test(&vn, r - 1, c - 1) {
                    ops.push((Op::Insert, c, r));
                } else {
                    c -= 1;
                    if s1[c] != s2[r] {
                        ops.push((Op::Replace, c, r));
                    }
                }
            }
        }
        while c > 0 {
            c -= 1;
            ops.push((Op::Delete, c, r));
        }
        while r > 0 {
            r -= 1;
            ops.push((Op::Insert, c, r));
        }
        ops.reverse();
        ops
    }

    /// A seeded generator of strings over a small alphabet (many matches and ties).
    fn random_strings(seed: &mut u64, count: usize, max_len: usize) -> Vec<Vec<char>> {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        (0..count)
            .map(|_| {
                let len = (next() % (max_len as u64 + 1)) as usize;
                let alphabet = 2 + next() % 5;
                (0..len)
                    .map(|_| char::from(b'a' + (next() % alphabet) as u8))
                    .collect()
            })
            .collect()
    }

    /// Myers' bit-parallel columns give the same alignment as the full dynamic programme, on one and on several
    /// 64-bit words, and the same distance.
    #[test]
    fn bit_parallel_equals_dynamic_programme() {
        let mut seed = 0x9e37_79b9_7f4a_7c15;
        let s = random_strings(&mut seed, 600, 200);
        for pair in s.chunks_exact(2) {
            let (a, b) = (&pair[0], &pair[1]);
            let mut ops = Vec::new();
            leaf(a, b, 0, 0, &mut |o, i, j| ops.push((o, i, j)));
            assert_eq!(ops, leaf_scalar(a, b), "{a:?} {b:?}");
            let (sa, sb): (String, String) = (a.iter().collect(), b.iter().collect());
            assert_eq!(char_distance(&sa, &sb), distance(a, b), "{sa} {sb}");
        }
    }

    /// rapidfuzz 3.14.6: `Levenshtein.opcodes("ab", "ba")` is delete a, equal b, insert a.
    #[test]
    fn rapidfuzz_tie_break() {
        let c = counts(&ch("ab"), &ch("ba"));
        assert_eq!(
            (c.hits, c.substitutions, c.deletions, c.insertions),
            (1, 0, 1, 1)
        );
        let c = counts(&ch("kitten"), &ch("sitting"));
        assert_eq!(c.errors(), 3);
    }
}
