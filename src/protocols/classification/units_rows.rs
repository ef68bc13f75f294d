//! The pass in row order of a block of replicates whose confusion matrix has at most four cells (two labels):
//! the per-row mean metrics' weighted sums and the confusion counts in one loop. The means' sums are chains of
//! additions, one per row, that the processor waits on; the counts' integer additions run in their shadow
//! instead of in a pass of their own.

use crate::stats::units::{times, Weight};
use crate::stats::wide::wide;

/// The rows added to one packed count before it is unpacked: a count of 16 bits holds `ROWS` weights of at
/// most 255.
const ROWS: usize = 256;

/// The rows whose weights [`pass`] reads from each replicate's stream at a time.
const GROUP: usize = 4;

/// What one pass gives for each of K replicates: the mean metrics (as [`ScoresPart::means`]) and each
/// cell's weighted count (`None` when a weight is past 255: then the caller counts them otherwise).
pub(super) type Pass<const K: usize> = ([[Option<f64>; 3]; K], Option<[[u64; 4]; K]>);

/// The weighted means of the per-row columns `columns` (`finite`: every value of them is) and the weighted
/// counts of the cells `cell` (each row's cell, below 4) of K replicates in one pass. Each mean is
/// `weighted_mean` of its column to the bit (the same products added in the same order as
/// `crate::stats::units::weighted_means_k`).
pub(super) fn means_and_cells<W: Weight, const K: usize>(
    (columns, finite): ([Option<&[f64]>; 3], bool),
    cell: &[u8],
    ws: [&[W]; K],
) -> Pass<K> {
    let present: Vec<&[f64]> = columns.iter().filter_map(|c| *c).collect();
    let (sums, counts) = match (finite, &present[..]) {
        (_, []) => pass::<W, K, 0, true>([], cell, ws),
        (true, &[a]) => pass::<W, K, 1, true>([a], cell, ws),
        (true, &[a, b]) => pass::<W, K, 2, true>([a, b], cell, ws),
        (true, &[a, b, c, ..]) => pass::<W, K, 3, true>([a, b, c], cell, ws),
        (false, &[a]) => pass::<W, K, 1, false>([a], cell, ws),
        (false, &[a, b]) => pass::<W, K, 2, false>([a, b], cell, ws),
        (false, &[a, b, c, ..]) => pass::<W, K, 3, false>([a, b, c], cell, ws),
    };
    let (sums, total, counts) = (sums.0, sums.1, counts);
    let means = std::array::from_fn(|r| {
        let of = |j: usize| (total[r] > 0).then(|| sums[r][j] / total[r] as f64);
        placed(&columns, (0..3).map(of))
    });
    (means, counts)
}

/// The values of the present columns (`values`, in order) at their columns' places, `None` at an absent
/// column's.
pub(super) fn placed(
    columns: &[Option<&[f64]>; 3],
    mut values: impl Iterator<Item = Option<f64>>,
) -> [Option<f64>; 3] {
    columns.map(|c| c.and_then(|_| values.next().flatten()))
}

/// The sums of C columns (then zeros) and the total weight of K replicates, and the cells' counts ([`means_and_cells`];
/// `None` when a weight is past 255).
#[allow(clippy::type_complexity)]
fn pass<W: Weight, const K: usize, const C: usize, const FINITE: bool>(
    x: [&[f64]; C],
    cell: &[u8],
    ws: [&[W]; K],
) -> (([[f64; 3]; K], [u64; K]), Option<[[u64; 4]; K]>) {
    let n = x
        .iter()
        .map(|c| c.len())
        .chain(ws.iter().map(|w| w.len()))
        .fold(cell.len(), usize::min);
    let (x, ws, cell) = (x.map(|c| &c[..n]), ws.map(|w| &w[..n]), &cell[..n]);
    // The sums live in the loop (returned at its end), so that they stay in registers. Column c's sums of
    // the K replicates are side by side (`s[c]`: one vector), and each row's K weights are read from the K
    // streams GROUP rows at a time (vector loads, regrouped by row in registers).
    let (s, total, counts, any) = wide(
        #[inline(always)]
        || {
            let mut s = [[0.0f64; K]; C];
            let mut counts = [[0u64; 4]; K];
            let (mut total, mut any) = ([0u64; K], [0u32; K]);
            for (c0, cells) in cell.chunks(ROWS).enumerate() {
                let at = c0 * ROWS..c0 * ROWS + cells.len();
                // This stretch of every column, as long as `cells` (no bounds checks in the loop).
                let xs = x.map(|c| &c[at.clone()][..cells.len()]);
                let wk = ws.map(|w| &w[at.clone()][..cells.len()]);
                // Each replicate's four counts of this stretch, 16 bits each.
                let mut packed = [0u64; K];
                let mut row = |i: usize, k: [u32; K], ce: u8| {
                    let shift = 16 * (ce & 3) as u32;
                    for (c, sc) in s.iter_mut().enumerate() {
                        let v = xs[c][i];
                        for r in 0..K {
                            sc[r] += if FINITE {
                                v * k[r] as f64
                            } else {
                                times(v, k[r])
                            };
                        }
                    }
                    for r in 0..K {
                        packed[r] = packed[r].wrapping_add(((k[r] & 0xffff) as u64) << shift);
                        total[r] += k[r] as u64;
                        any[r] |= k[r];
                    }
                };
                let groups = cells.len() / GROUP * GROUP;
                for g in (0..groups).step_by(GROUP) {
                    let kk: [[u32; GROUP]; K] =
                        wk.map(|w| std::array::from_fn(|j| w[g + j].into()));
                    for j in 0..GROUP {
                        row(g + j, kk.map(|k| k[j]), cells[g + j]);
                    }
                }
                for i in groups..cells.len() {
                    row(i, wk.map(|w| w[i].into()), cells[i]);
                }
                for r in 0..K {
                    for (c, count) in counts[r].iter_mut().enumerate() {
                        *count += packed[r] >> (16 * c) & 0xffff;
                    }
                }
            }
            let s: [[f64; C]; K] = std::array::from_fn(|r| std::array::from_fn(|c| s[c][r]));
            (s, total, counts, any.iter().fold(0, |a, &b| a | b))
        },
    );
    let sums = s.map(|s| std::array::from_fn(|c| s.get(c).copied().unwrap_or(0.0)));
    ((sums, total), (any <= 255).then_some(counts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::units::weighted_mean;

    /// Each mean is `weighted_mean` to the bit and each count the plain sum, for any present columns, with
    /// and without infinite terms; no counts when a weight is past 255.
    #[test]
    fn one_pass_equals_each_sum() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [0usize, 1, 255, 256, 257, 1000] {
            let cols: Vec<Vec<f64>> = (0..3)
                .map(|_| (0..n).map(|_| (next() % 1000) as f64 / 7.0).collect())
                .collect();
            let mut inf = cols[1].clone();
            if n > 0 {
                inf[n / 2] = f64::INFINITY;
            }
            let cell: Vec<u8> = (0..n).map(|_| (next() % 4) as u8).collect();
            for big in [0u64, 300] {
                let ws: Vec<Vec<u32>> = (0..4)
                    .map(|r| {
                        (0..n)
                            .map(|_| (next() % (1 + r as u64 + big)) as u32)
                            .collect()
                    })
                    .collect();
                let ws = [&ws[0][..], &ws[1], &ws[2], &ws[3]];
                let cases: [([Option<&[f64]>; 3], bool); 4] = [
                    ([None, None, None], true),
                    ([Some(&cols[0]), None, Some(&cols[2])], true),
                    ([Some(&cols[0]), Some(&cols[1]), Some(&cols[2])], true),
                    ([Some(&cols[0]), Some(&inf), None], false),
                ];
                for columns in cases {
                    let (means, counts) = means_and_cells(columns, &cell, ws);
                    for (r, w) in ws.iter().enumerate() {
                        let bits = |m: Option<f64>| m.map(f64::to_bits);
                        let expected = columns.0.map(|c| c.and_then(|c| weighted_mean(c, w)));
                        assert_eq!(means[r].map(bits), expected.map(bits), "n {n}");
                        let mut naive = [0u64; 4];
                        for (&c, &k) in cell.iter().zip(*w) {
                            naive[c as usize] += k as u64;
                        }
                        let fits = ws.iter().all(|w| w.iter().all(|&k| k <= 255));
                        assert_eq!(counts.map(|c| c[r]), fits.then_some(naive), "n {n}");
                    }
                    // The same weights as bytes: the same bits.
                    if big == 0 {
                        let b: Vec<Vec<u8>> = ws
                            .iter()
                            .map(|w| w.iter().map(|&k| k as u8).collect())
                            .collect();
                        let from_bytes =
                            means_and_cells(columns, &cell, [&b[0][..], &b[1], &b[2], &b[3]]);
                        assert_eq!(format!("{from_bytes:?}"), format!("{:?}", (means, counts)));
                    }
                }
            }
        }
    }
}
