//! Kendall's τ over orderings, as the Google AI4Code competition (2022) scores predicted cell orders with its
//! published metric (Kaggle notebook "Competition Metric - Kendall Tau Correlation", `kendall_tau`):
//!
//! ```python
//! def count_inversions(a):
//!     inversions = 0
//!     sorted_so_far = []
//!     for i, u in enumerate(a):
//!         j = bisect(sorted_so_far, u)
//!         inversions += i - j
//!         sorted_so_far.insert(j, u)
//!     return inversions
//!
//! def kendall_tau(ground_truth, predictions):
//!     total_inversions = 0
//!     total_2max = 0  # twice the maximum possible inversions across all instances
//!     for gt, pred in zip(ground_truth, predictions):
//!         ranks = [gt.index(x) for x in pred]  # rank predicted order in terms of ground truth
//!         total_inversions += count_inversions(ranks)
//!         n = len(gt)
//!         total_2max += n * (n - 1)
//!     return 1 - 4 * total_inversions / total_2max
//! ```

/// The pairs i < j with `a[i] > a[j]` (equal values are no inversion: `bisect` is `bisect_right`), by merge
/// sort in O(n log n).
pub fn inversions(a: &[usize]) -> u64 {
    let mut v = a.to_vec();
    let mut buf = vec![0usize; v.len()];
    count(&mut v, &mut buf)
}

fn count(v: &mut [usize], buf: &mut [usize]) -> u64 {
    let n = v.len();
    if n < 2 {
        return 0;
    }
    let mid = n / 2;
    let mut inv = count(&mut v[..mid], &mut buf[..mid]) + count(&mut v[mid..], &mut buf[mid..]);
    let (mut i, mut j, mut k) = (0, mid, 0);
    while i < mid && j < n {
        if v[j] < v[i] {
            inv += (mid - i) as u64;
            buf[k] = v[j];
            j += 1;
        } else {
            buf[k] = v[i];
            i += 1;
        }
        k += 1;
    }
    buf[k..k + mid - i].copy_from_slice(&v[i..mid]);
    let k = k + mid - i;
    buf[k..k + n - j].copy_from_slice(&v[j..n]);
    v.copy_from_slice(&buf[..n]);
    inv
}

/// The ranks of `pred`'s items in `truth` (`gt.index(x)`: an item's first position), or the first item that is
/// not in `truth` (Python raises `ValueError`).
pub fn ranks<'a>(truth: &[&str], pred: &[&'a str]) -> Result<Vec<usize>, &'a str> {
    let mut first = std::collections::HashMap::with_capacity(truth.len());
    for (i, t) in truth.iter().enumerate() {
        first.entry(*t).or_insert(i);
    }
    pred.iter()
        .map(|x| first.get(x).copied().ok_or(*x))
        .collect()
}

/// `1 - 4 * total_inversions / total_2max`; `None` when `total_2max` is 0 (Python's `ZeroDivisionError`).
pub fn kendall_tau(total_inversions: u64, total_2max: u64) -> Option<f64> {
    (total_2max > 0).then(|| 1.0 - (4 * total_inversions) as f64 / total_2max as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_the_published_code() {
        assert_eq!(inversions(&[0, 1, 2]), 0);
        assert_eq!(inversions(&[2, 1, 0]), 3);
        assert_eq!(inversions(&[1, 1, 0]), 2);
        assert_eq!(inversions(&[0, 2, 1, 1]), 2);
        let r = ranks(&["a", "b", "c"], &["c", "a", "b"]).unwrap();
        assert_eq!(r, vec![2, 0, 1]);
        assert_eq!(ranks(&["a"], &["z"]), Err("z"));
        // kendall_tau([["a","b","c"]], [["c","a","b"]]) = 1 - 4 * 2 / 6
        assert_eq!(kendall_tau(inversions(&r), 6), Some(1.0 - 8.0 / 6.0));
        assert_eq!(kendall_tau(0, 0), None);
    }
}
