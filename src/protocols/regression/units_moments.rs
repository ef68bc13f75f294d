//! The two passes of a regression replicate ([`super::passes`]) in one: the centred second moments that the
//! second pass sums around the replicate's own means (Σ k·(t − t̄)², Σ k·(p − p̄)², Σ k·(t − t̄)(p − p̄),
//! Σ k·(d − d̄)² with d = t − p) are summed in the first pass around fixed centres instead (the unweighted
//! means of the full data, c), and shifted: Σ k·(x − x̄)² = Σ k·(x − c)² − (Σ k·(x − c))² / Σ k, the
//! textbook shift of the computing formula (Chan, Golub and LeVeque, "Algorithms for computing the sample
//! variance", The American Statistician 37(3), 1983). A bootstrap mean sits within about sd/√n of c, so the
//! subtracted term is about 1/n of the sum, and the shift's condition number (√(1 + term / moment), ibid.)
//! about 1: it costs no precision. Where the term is more than 2^-10 of the sum (small or degenerate
//! replicates: a sum of 0, one drawn row), that replicate takes the two passes instead. The first five sums
//! (|p − t|, (t − p)², APE, SMAPE, squared log) are those of the first pass, to the bit; the sums of t, p and
//! t − p, which only the second pass reads (for its means), are left at 0 in the [`First`] given here. The
//! moments agree with the two passes to the last bits (within the spec's 1e-12 of NumPy's).

use super::passes::{largest_drawn, First};
use super::Fast;
use crate::stats::units::Weight;
use crate::stats::wide::wide;

/// The subtracted term's largest share of a moment's sum.
const SHARE: f64 = 1.0 / 1024.0;

/// Each replicate's [`First`] and, when the one pass gives them, its four moments (see [`fused`]).
pub(super) type Fused<const K: usize> = ([First; K], [Option<[f64; 4]>; K]);

/// The first pass's [`First`] and the second pass's four moments of each replicate of the block, in one pass
/// over the rows: `None` (the caller then takes the two passes) when a term may not be finite
/// ([`Fast::plain`]); a replicate's moments `None` when its shift is too large (see the module's comment).
pub(super) fn fused<W: Weight, const K: usize>(fast: &Fast, ws: [&[W]; K]) -> Option<Fused<K>> {
    if !fast.plain {
        return None;
    }
    let n = ws
        .iter()
        .map(|w| w.len())
        .fold(fast.targets.len(), usize::min);
    let ws = ws.map(|w| &w[..n]);
    let columns = [
        &fast.targets[..n],
        &fast.preds[..n],
        &fast.ape[..n],
        &fast.smape[..n],
        &fast.sle[..n],
    ];
    let (sums, count, heaviest) = wide(
        #[inline(always)]
        || fused_rows(columns, fast.centre, ws),
    );
    let mut firsts = [First {
        sums: [0.0; 8],
        count: 0,
        largest: f64::NAN,
        fits: true,
    }; K];
    let mut moments = [None; K];
    for r in 0..K {
        let s = sums[r];
        moments[r] = shifted_moments(&s, count[r]);
        firsts[r] = First {
            sums: [s[0], s[1], s[2], s[3], s[4], 0.0, 0.0, 0.0],
            count: count[r],
            largest: largest_drawn(fast, ws[r]),
            fits: heaviest[r] <= 255,
        };
    }
    Some((firsts, moments))
}

/// A replicate's four moments from its twelve sums ([`fused_rows`]) and its Σ k, `count`: `None` when a
/// shift is too large (see the module's comment).
pub(super) fn shifted_moments(s: &[f64; 12], count: u64) -> Option<[f64; 4]> {
    let nf = count as f64;
    let shifted = |s1: f64, s2: f64| {
        let term = s1 * s1 / nf;
        (s2 > 0.0 && term <= SHARE * s2).then_some(s2 - term)
    };
    match (
        shifted(s[5], s[8]),
        shifted(s[6], s[9]),
        shifted(s[7], s[11]),
    ) {
        (Some(ctt), Some(cpp), Some(cdd)) => Some([ctt, cpp, s[10] - s[5] * s[6] / nf, cdd]),
        _ => None,
    }
}

/// [`fused`]'s loop over the rows: each replicate's Σ k·x of |p − t|, (t − p)², the APE, SMAPE and
/// squared log terms (in the first pass's order: blocks of 256 rows), of a = t − c_t, b = p − c_p,
/// e = a − b, a², b², a·b and e²; Σ k; the largest k.
#[inline(always)]
#[allow(clippy::type_complexity)]
fn fused_rows<W: Weight, const K: usize>(
    [t, p, ape, smape, sle]: [&[f64]; 5],
    [ct, cp]: [f64; 2],
    ws: [&[W]; K],
) -> ([[f64; 12]; K], [u64; K], [u32; K]) {
    let n = ws.iter().map(|w| w.len()).fold(t.len(), usize::min);
    let (t, p, ape, smape, sle) = (&t[..n], &p[..n], &ape[..n], &smape[..n], &sle[..n]);
    let ws = ws.map(|w| &w[..n]);
    let (mut count, mut heaviest) = ([0u64; K], [0u32; K]);
    let mut sums = [[0.0f64; 12]; K];
    let mut start = 0;
    while start < n {
        let end = (start + 256).min(n);
        let mut block = [[0.0f64; 12]; K];
        for i in start..end {
            let d = t[i] - p[i];
            let abs = (p[i] - t[i]).abs();
            let (a, b) = (t[i] - ct, p[i] - cp);
            let e = a - b;
            let terms = [
                abs,
                d * d,
                ape[i],
                smape[i],
                sle[i],
                a,
                b,
                e,
                a * a,
                b * b,
                a * b,
                e * e,
            ];
            for r in 0..K {
                let k: u32 = ws[r][i].into();
                for (s, &x) in block[r].iter_mut().zip(&terms) {
                    // Every term is finite ([`Fast::plain`]): a zero weight adds ±0.0.
                    *s += x * k as f64;
                }
                count[r] += k as u64;
                heaviest[r] = heaviest[r].max(k);
            }
        }
        for (s, b) in sums.iter_mut().zip(block) {
            for (s, b) in s.iter_mut().zip(b) {
                *s += b;
            }
        }
        start = end;
    }
    (sums, count, heaviest)
}

#[cfg(test)]
mod tests {
    use super::super::passes;
    use super::{fused, Fast};

    /// At 20,000 rows the one pass gives a replicate's moments, within 1e-12 of the two passes' (and its
    /// first pass's sums to the bit); at 10 rows it leaves them to the two passes.
    #[test]
    fn one_pass_moments_equal_the_two_passes() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [10usize, 20_000] {
            let t: Vec<f64> = (0..n)
                .map(|_| (next() % 1000) as f64 / 7.0 + 50.0)
                .collect();
            let p: Vec<f64> = t.iter().map(|v| v + (next() % 100) as f64 / 9.0).collect();
            let fast = Fast::new(&t, &p, true);
            let w: Vec<u32> = (0..n).map(|_| (next() % 3) as u32).collect();
            let [first] = passes::first(&fast, [&w]);
            let [second] = passes::second(&fast, [&w], [first.means()]);
            let Some(([one], [moments])) = fused(&fast, [&w]) else {
                panic!("n {n}: every term is finite")
            };
            assert_eq!(one.sums[..5], first.sums[..5]);
            assert_eq!((one.count, one.fits), (first.count, first.fits));
            match moments {
                Some(m) => {
                    assert_eq!(n, 20_000);
                    for (a, b) in m.iter().zip(second) {
                        assert!((a - b).abs() <= 1e-12 * b.abs(), "{a} != {b}");
                    }
                }
                None => assert_eq!(n, 10),
            }
        }
    }
}
