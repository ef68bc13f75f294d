//! Tests of the regression replicate against the metrics on the repeated rows.

use super::*;

/// A replicate without GT weights equals every metric of the repeated rows (`metric_values`, the protocol's
/// own computation): sizes 1 to 1,000 with many ties, weights 0 to 3. The values are dyadic, so that the
/// sums are exact and the comparison checks the logic (median, ranks, undefined cases) to 1e-12.
#[test]
fn weighted_replicate_equals_the_repeated_rows() {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for n in [1usize, 2, 3, 10, 200, 1000] {
        let t: Vec<f64> = (0..n).map(|_| (next() % 50) as f64 / 4.0 - 2.0).collect();
        let p: Vec<f64> = (0..n).map(|_| (next() % 40) as f64 / 8.0 - 0.5).collect();
        let fast = Fast::new(&t, &p, true);
        for _ in 0..20 {
            let w: Vec<u32> = (0..n).map(|_| (next() % 4) as u32).collect();
            if w.iter().all(|&k| k == 0) {
                continue;
            }
            let got = fast.values(&w);
            let expected = metric_values(&repeated(&t, &w), &repeated(&p, &w), &mut || {});
            for (id, e) in expected {
                let g = got.iter().find(|(k, _)| *k == id).and_then(|(_, v)| *v);
                match (g.filter(|v| v.is_finite()), e.filter(|v| v.is_finite())) {
                    (Some(a), Some(b)) => assert!(
                        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0),
                        "n {n}, {id}: {a} != {b}"
                    ),
                    (None, None) => {}
                    other => panic!("n {n}, {id}: {other:?}"),
                }
            }
        }
    }
}

/// With GT weights, a replicate equals scikit-learn's weighted metrics (`regression_weighted::by_id`) on the
/// repeated rows, each copy keeping its row's weight, to 1e-12; zero GT weights included.
#[test]
fn gt_weights_replicate_equals_the_repeated_rows() {
    use crate::metrics::regression_weighted::{by_id, WEIGHTED};
    let mut x: u64 = 0x51_7cc1_b727_220a;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for n in [1usize, 2, 3, 10, 200, 1000] {
        let t: Vec<f64> = (0..n).map(|_| (next() % 50) as f64 / 4.0 - 2.0).collect();
        let p: Vec<f64> = (0..n).map(|_| (next() % 40) as f64 / 8.0 - 0.5).collect();
        let g: Vec<f64> = (0..n).map(|_| (next() % 5) as f64 * 0.75).collect();
        let fast = Fast::new(&t, &p, false);
        for _ in 0..20 {
            let w: Vec<u32> = (0..n).map(|_| (next() % 4) as u32).collect();
            let got = fast.weighted_values(&g, true, &w);
            let (rt, rp, rg) = (repeated(&t, &w), repeated(&p, &w), repeated(&g, &w));
            for id in WEIGHTED {
                let g = got.iter().find(|(k, _)| k == id).and_then(|(_, v)| *v);
                let e = if rt.is_empty() {
                    None
                } else {
                    by_id(id, &rt, &rp, &rg)
                };
                match (g.filter(|v| v.is_finite()), e.filter(|v| v.is_finite())) {
                    (Some(a), Some(b)) => assert!(
                        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0),
                        "n {n}, {id}: {a} != {b}"
                    ),
                    (None, None) => {}
                    other => panic!("n {n}, {id}: {other:?}"),
                }
            }
        }
    }
}
