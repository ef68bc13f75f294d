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

mod bitpar;

pub use bitpar::Key;
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

/// The Levenshtein distance between two strings, on Unicode scalar values (Python's `len`): [`bitpar::run`]
/// with the shorter string as the pattern.
pub fn char_distance(a: &str, b: &str) -> usize {
    if a == b {
        return 0;
    }
    with_chars(a, |a| with_chars(b, |b| key_distance(a, b)))
}

/// The Levenshtein distance between two sequences of keys: [`bitpar::run`] with the shorter as the pattern.
pub fn key_distance<K: Key>(a: &[K], b: &[K]) -> usize {
    let (a, b) = trim_affix(a, b);
    let (a, b) = if a.len() < b.len() { (a, b) } else { (b, a) };
    if a.is_empty() {
        return b.len();
    }
    bitpar::run(a, b, |_, _| {})
}

/// Calls `f` with the characters of `s`, on the stack when `s` is short (no allocation per line).
pub fn with_chars<R>(s: &str, f: impl FnOnce(&[char]) -> R) -> R {
    const STACK: usize = 256;
    if s.len() <= STACK {
        let mut buf = ['\0'; STACK];
        let mut n = 0;
        for c in s.chars() {
            buf[n] = c;
            n += 1;
        }
        f(&buf[..n])
    } else {
        f(&s.chars().collect::<Vec<char>>())
    }
}

/// `s1` and `s2` as keys: each distinct element of `s1` its index of first appearance, an element of `s2`
/// the same key when `s1` holds it, else `u32::MAX` (only elements of `s1` are ever compared with elements
/// of `s2`, so equality between the two is all the keys keep).
pub fn intern<T: Eq + Hash>(s1: &[T], s2: &[T]) -> (Vec<u32>, Vec<u32>) {
    let mut ids: FxHashMap<&T, u32> = FxHashMap::default();
    let a = s1
        .iter()
        .map(|x| {
            let next = ids.len() as u32;
            *ids.entry(x).or_insert(next)
        })
        .collect();
    let b = s2
        .iter()
        .map(|x| ids.get(x).copied().unwrap_or(u32::MAX))
        .collect();
    (a, b)
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
pub fn counts<K: Key>(s1: &[K], s2: &[K]) -> Counts {
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
pub fn align<K: Key>(s1: &[K], s2: &[K], op: &mut dyn FnMut(Op, usize, usize)) {
    let max = s1.len().max(s2.len());
    hirschberg(s1, s2, 0, 0, max, op);
}

/// [`counts`] of two token sequences (jiwer's words), the tokens interned to keys first ([`intern`]).
pub fn token_counts<T: Eq + Hash>(s1: &[T], s2: &[T]) -> Counts {
    let (a, b) = intern(s1, s2);
    counts(&a, &b)
}

/// The full alignment as a sequence of operations, matches included (for display).
pub fn alignment<K: Key>(s1: &[K], s2: &[K]) -> Vec<(Op, usize, usize)> {
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
fn hirschberg<K: Key>(
    s1: &[K],
    s2: &[K],
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
    let left = bitpar::last_row(s1, &s2[..mid2]);
    let rev = |s: &[K]| s.iter().rev().copied().collect::<Vec<K>>();
    let right = bitpar::last_row(&rev(s1), &rev(&s2[mid2..]));
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

/// `levenshtein_align` + `recover_alignment`: the vertical deltas of every column of the matrix kept as two bit
/// sets (as rapidfuzz's `VP` / `VN`), read back from the end.
fn leaf<K: Key>(s1: &[K], s2: &[K], p1: usize, p2: usize, op: &mut dyn FnMut(Op, usize, usize)) {
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
    bitpar::run(s1, s2, |pv, mv| {
        vp.extend_from_slice(pv);
        vn.extend_from_slice(mv);
    });
    for (o, i, j) in read_back(s1, s2, words, &vp, &vn) {
        op(o, p1 + i, p2 + j);
    }
}

/// `recover_alignment`: the edit operations (in order, positions within `s1` and `s2`) read back from the end of
/// the matrix whose vertical deltas are the bit sets `vp` / `vn` (`words` 64-bit words a row of `s2`).
fn read_back<K: Key>(
    s1: &[K],
    s2: &[K],
    words: usize,
    vp: &[u64],
    vn: &[u64],
) -> Vec<(Op, usize, usize)> {
    let test = |m: &[u64], row: usize, c: usize| m[row * words + c / 64] >> (c % 64) & 1 == 1;
    let mut ops = Vec::new();
    let (mut c, mut r) = (s1.len(), s2.len());
    while r > 0 && c > 0 {
        if test(vp, r - 1, c - 1) {
            c -= 1;
            ops.push((Op::Delete, c, r));
        } else {
            r -= 1;
            if r > 0 && test(vn, r - 1, c - 1) {
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
        read_back(s1, s2, words, &vp, &vn)
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

    /// Hirschberg's distance rows from the bit-parallel run equal the scalar rows, on one and on several
    /// words; token keys give the counts of the tokens themselves.
    #[test]
    fn last_row_and_tokens() {
        let mut seed = 0x2545_f491_4f6c_dd1d;
        let s = random_strings(&mut seed, 200, 300);
        for pair in s.chunks_exact(2) {
            let (a, b) = (&pair[0], &pair[1]);
            let scalar: Vec<usize> = (0..=a.len()).map(|i| distance(&a[..i], b)).collect();
            assert_eq!(bitpar::last_row(a, b), scalar, "{a:?} {b:?}");
            let words: Vec<String> = a.iter().map(|c| c.to_string()).collect();
            let other: Vec<String> = b.iter().map(|c| c.to_string()).collect();
            assert_eq!(token_counts(&words, &other), counts(a, b));
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
