//! The ranking of one category: a stable descending sort of the confidences ([`crate::metrics::radix`]) and
//! the PR thresholds under each tie order.

use super::TieOrder;
use crate::metrics::radix::{self, desc_key, score_of};
use crate::metrics::voc_ap::Step;

/// Sorts by confidence, descending, stable (equal confidences keep file order): what
/// `v.sort_by(|a, b| b.0.total_cmp(&a.0))` gives, by the radix sort on the confidences' order-preserving keys,
/// in the buffers given (kept for the next category). Large rankings sort several times faster than by
/// comparisons.
pub fn sort_desc_stable(
    v: &mut [(f64, bool)],
    keyed: &mut Vec<(u64, bool)>,
    scratch: &mut Vec<(u64, bool)>,
) {
    keyed.clear();
    keyed.extend(v.iter().map(|&(x, p)| (desc_key(x), p)));
    radix::sort(keyed, scratch);
    for (dst, &(k, p)) in v.iter_mut().zip(keyed.iter()) {
        *dst = (score_of(k), p);
    }
}

/// The ranking's thresholds under a tie order, with the missing images appended as one last tie group.
pub fn steps(ranked: &[(f64, bool)], appended: &[bool], tie: TieOrder, out: &mut Vec<Step>) {
    out.clear();
    let emit_group = |labels: &mut dyn Iterator<Item = bool>, out: &mut Vec<Step>| match tie {
        TieOrder::File => out.extend(labels.map(|p| Step { tp: p as u32, n: 1 })),
        _ => {
            let (mut p, mut n) = (0u32, 0u32);
            for l in labels {
                p += l as u32;
                n += 1;
            }
            match tie {
                TieOrder::Grouped => out.push(Step { tp: p, n }),
                TieOrder::PositivesFirst => {
                    out.extend((0..p).map(|_| Step { tp: 1, n: 1 }));
                    out.extend((0..n - p).map(|_| Step { tp: 0, n: 1 }));
                }
                _ => {
                    out.extend((0..n - p).map(|_| Step { tp: 0, n: 1 }));
                    out.extend((0..p).map(|_| Step { tp: 1, n: 1 }));
                }
            }
        }
    };
    if tie == TieOrder::File {
        out.extend(ranked.iter().map(|&(_, p)| Step { tp: p as u32, n: 1 }));
    } else {
        let mut i = 0;
        while i < ranked.len() {
            let c = ranked[i].0;
            let mut j = i + 1;
            while j < ranked.len() && ranked[j].0 == c {
                j += 1;
            }
            if j == i + 1 {
                // A group of one is one step under every tie order.
                out.push(Step {
                    tp: ranked[i].1 as u32,
                    n: 1,
                });
            } else {
                emit_group(&mut ranked[i..j].iter().map(|x| x.1), out);
            }
            i = j;
        }
    }
    if !appended.is_empty() {
        emit_group(&mut appended.iter().copied(), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_sort_equals_the_stable_comparison_sort() {
        let mut seed = 0x2015u64;
        let mut next = move || crate::xorshift64(&mut seed);
        let specials = [
            0.0,
            1.0,
            -1.0,
            0.5,
            1e-300,
            -1e300,
            f64::MIN_POSITIVE,
            5e-324,
            f64::MAX,
        ];
        for n in [0, 1, 2, 255, 256, 1000, 30_000] {
            let v: Vec<(f64, bool)> = (0..n)
                .map(|i| {
                    let r = next();
                    let x = match r % 4 {
                        0 => specials[(r >> 8) as usize % specials.len()],
                        1 => ((r >> 11) % 1000) as f64 / 1000.0,
                        2 => f64::from_bits(r >> 2) * if r & 2 == 0 { 1.0 } else { -1.0 },
                        _ => (r >> 11) as f64 / (1u64 << 53) as f64,
                    };
                    (if x.is_finite() { x } else { 0.25 }, i % 3 == 0)
                })
                .collect();
            let mut want = v.clone();
            want.sort_by(|a, b| b.0.total_cmp(&a.0));
            let mut got = v;
            sort_desc_stable(&mut got, &mut Vec::new(), &mut Vec::new());
            let bits =
                |w: &[(f64, bool)]| w.iter().map(|(x, p)| (x.to_bits(), *p)).collect::<Vec<_>>();
            assert_eq!(bits(&got), bits(&want), "n = {n}");
        }
    }
}
