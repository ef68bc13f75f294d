//! Myers' bit-parallel columns of the edit-distance matrix (Myers 1999, "A fast bit-vector algorithm for
//! approximate string matching based on dynamic programming", the block form of its section 4; as rapidfuzz
//! 3.x's `levenshtein_hyrroe2003` for a pattern of at most 64 elements and `levenshtein_hyrroe2003_block`
//! above): the one run behind the distance, Hirschberg's distance rows and the alignment's bit matrix.
//!
//! Elements are [`Key`]s (a character's code point, or a token's id interned per pair), the pattern's match
//! masks kept as rapidfuzz's `PatternMatchVector` keeps them: a direct table for keys below 256, a hash map
//! for the others; a pattern longer than 64 keeps only the words with a bit set (at most one per position),
//! so that a long pattern of many distinct elements stays linear in size.

use rustc_hash::FxHashMap;

/// An element of a compared sequence, as a 32-bit key (equal keys: equal elements).
pub trait Key: Copy + Eq {
    fn key(self) -> u32;
}

impl Key for char {
    #[inline]
    fn key(self) -> u32 {
        self as u32
    }
}

impl Key for u32 {
    #[inline]
    fn key(self) -> u32 {
        self
    }
}

/// The match masks of a pattern of at most 64 elements.
struct Short {
    low: [u64; 256],
    high: FxHashMap<u32, u64>,
}

impl Short {
    fn new<K: Key>(s: &[K]) -> Self {
        let mut p = Short {
            low: [0; 256],
            high: FxHashMap::default(),
        };
        for (i, x) in s.iter().enumerate() {
            let k = x.key();
            if k < 256 {
                p.low[k as usize] |= 1 << i;
            } else {
                *p.high.entry(k).or_insert(0) |= 1 << i;
            }
        }
        p
    }

    #[inline]
    fn eq(&self, k: u32) -> u64 {
        if k < 256 {
            self.low[k as usize]
        } else if self.high.is_empty() {
            0
        } else {
            self.high.get(&k).copied().unwrap_or(0)
        }
    }
}

/// The match masks of a longer pattern: for each distinct element, the words with a bit set.
struct Long {
    ids: FxHashMap<u32, usize>,
    /// The words of element `id`: `entries[starts[id]..starts[id + 1]]`, as (word index, bits).
    starts: Vec<usize>,
    entries: Vec<(usize, u64)>,
    /// The masks of the element last asked for, every word.
    eq: Vec<u64>,
}

impl Long {
    fn new<K: Key>(s: &[K]) -> Self {
        let mut ids: FxHashMap<u32, usize> = FxHashMap::default();
        let id: Vec<usize> = s
            .iter()
            .map(|x| {
                let next = ids.len();
                *ids.entry(x.key()).or_insert(next)
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
        Long {
            ids,
            starts: word_starts,
            entries,
            eq: vec![0; s.len().div_ceil(64)],
        }
    }

    /// The positions of the pattern equal to `k`, as bits.
    fn eq(&mut self, k: u32) -> &[u64] {
        self.eq.fill(0);
        if let Some(&id) = self.ids.get(&k) {
            for &(w, bits) in &self.entries[self.starts[id]..self.starts[id + 1]] {
                self.eq[w] = bits;
            }
        }
        &self.eq
    }
}

/// Runs `pattern` (non-empty) against `text`: after each text element, `column(pv, mv)` receives that
/// column's vertical deltas (bit `i` of `pv` (`mv`) set when D[i + 1][j] − D[i][j] is +1 (−1), column `j`
/// the number of text elements consumed; bits past the pattern's end are meaningless). Returns
/// D[len pattern][len text], the distance.
pub fn run<K: Key>(pattern: &[K], text: &[K], mut column: impl FnMut(&[u64], &[u64])) -> usize {
    let m = pattern.len();
    let mut d = m;
    if m <= 64 {
        let masks = Short::new(pattern);
        let (mut pv, mut mv) = (!0u64, 0u64);
        let last = m - 1;
        for y in text {
            let (out, npv, nmv) = advance(masks.eq(y.key()), pv, mv, 1, last);
            (pv, mv) = (npv, nmv);
            d = d + out.1 - 1;
            column(&[pv], &[mv]);
        }
        return d;
    }
    let mut masks = Long::new(pattern);
    let words = m.div_ceil(64);
    let (mut pv, mut mv) = (vec![!0u64; words], vec![0u64; words]);
    let last = ((m + 63) % 64) as u32;
    for y in text {
        let eq = masks.eq(y.key());
        // Advance_Block on every word, the horizontal delta carried from word to word (+1 into the first:
        // D[0][j] = j).
        let mut hin: i32 = 1;
        for w in 0..words {
            let bit = if w + 1 == words { last as usize } else { 63 };
            let ((hout, out), npv, nmv) = advance(eq[w], pv[w], mv[w], hin, bit);
            (pv[w], mv[w]) = (npv, nmv);
            if w + 1 == words {
                d = d + out - 1;
            }
            hin = hout;
        }
        column(&pv, &mv);
    }
    d
}

/// Myers' Advance_Block on one word: match masks `eq`, vertical deltas `pv`/`mv`, horizontal delta `hin`
/// (−1, 0 or +1) into bit 0; returns ((the horizontal delta out of bit `bit`, that delta + 1), new `pv`, new
/// `mv`).
#[inline(always)]
fn advance(eq: u64, pv: u64, mv: u64, hin: i32, bit: usize) -> ((i32, usize), u64, u64) {
    let mut e = eq;
    let xv = e | mv;
    if hin < 0 {
        e |= 1;
    }
    let xh = (((e & pv).wrapping_add(pv)) ^ pv) | e;
    let mut ph = mv | !(xh | pv);
    let mut mh = pv & xh;
    let hout = ((ph >> bit) & 1) as i32 - ((mh >> bit) & 1) as i32;
    ph <<= 1;
    mh <<= 1;
    if hin < 0 {
        mh |= 1;
    } else if hin > 0 {
        ph |= 1;
    }
    ((hout, (1 + hout) as usize), mh | !(xv | ph), ph & xv)
}

/// The distances of every prefix of `s1` to the whole of `s2`: entry `i` is lev(s1[..i], s2) (the last
/// column of [`run`] with `s1` as the pattern, its vertical deltas summed from D[0][len s2] = len s2).
pub fn last_row<K: Key>(s1: &[K], s2: &[K]) -> Vec<usize> {
    let mut out = Vec::with_capacity(s1.len() + 1);
    out.push(s2.len());
    if s1.is_empty() {
        return out;
    }
    let words = s1.len().div_ceil(64);
    let (mut pv, mut mv) = (vec![!0u64; words], vec![0u64; words]);
    let mut j = 0;
    run(s1, s2, |p, m| {
        // Only the last column is read.
        j += 1;
        if j == s2.len() {
            pv.copy_from_slice(&p[..words]);
            mv.copy_from_slice(&m[..words]);
        }
    });
    let mut d = s2.len();
    for i in 0..s1.len() {
        let (w, b) = (i / 64, i % 64);
        if pv[w] >> b & 1 == 1 {
            d += 1;
        } else if mv[w] >> b & 1 == 1 {
            d -= 1;
        }
        out.push(d);
    }
    out
}
