//! FalsID metrics (docs/specs/falsid.md sections 3–4): subset accuracy, balanced accuracy (UAR), confusion counts
//! with positive = imitation (1), and the Top-k retrieval diagnostic from a distance matrix. Pure functions.
//!
//! Source: the evaluation page https://icdar26-falsid.sciencesconf.org/page/evaluation_process
//! (Overall = (1/S) Σ_i (1/N_i) Σ_j 1{ŷ_j = y_j}); balanced accuracy as scikit-learn's
//! `balanced_accuracy_score` (mean over the classes present in y_true of each class's recall).

/// Confusion counts, positive class = imitation (1). A missing prediction counts as wrong: an imitation
/// without prediction is a false negative, an authentic one a false positive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Confusion {
    pub tp: u64,
    pub fp: u64,
    pub fn_: u64,
    pub tn: u64,
}

impl Confusion {
    /// `y`: GT labels (0/1); `pred`: predicted labels, `None` = missing.
    pub fn of(y: &[u8], pred: &[Option<u8>]) -> Confusion {
        let mut c = Confusion::default();
        for (t, p) in y.iter().zip(pred) {
            let right = *p == Some(*t);
            match (*t, right) {
                (1, true) => c.tp += 1,
                (1, false) => c.fn_ += 1,
                (_, true) => c.tn += 1,
                (_, false) => c.fp += 1,
            }
        }
        c
    }
    pub fn add(&mut self, o: &Confusion) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
        self.tn += o.tn;
    }
    pub fn n(&self) -> u64 {
        self.tp + self.fp + self.fn_ + self.tn
    }
    /// (TP + TN) / N: `accuracy_score`.
    pub fn accuracy(&self) -> Option<f64> {
        ratio(self.tp + self.tn, self.n())
    }
    /// TP / (TP + FP).
    pub fn precision(&self) -> Option<f64> {
        ratio(self.tp, self.tp + self.fp)
    }
    /// TPR = TP / (TP + FN): recall of class 1.
    pub fn recall(&self) -> Option<f64> {
        ratio(self.tp, self.tp + self.fn_)
    }
    /// TNR = TN / (TN + FP): recall of class 0.
    pub fn specificity(&self) -> Option<f64> {
        ratio(self.tn, self.tn + self.fp)
    }
    /// Balanced accuracy: mean of the recalls of the classes present in the GT, i.e. (TNR + TPR) / 2 with
    /// both classes, the one recall with one class (scikit-learn: `np.mean(per_class[~isnan])`).
    pub fn balanced_accuracy(&self) -> Option<f64> {
        match (self.specificity(), self.recall()) {
            (Some(a), Some(b)) => Some((a + b) / 2.0),
            (Some(a), None) => Some(a),
            (None, Some(b)) => Some(b),
            (None, None) => None,
        }
    }
}

/// `a / b` as binary64, `None` when `b = 0`.
pub fn ratio(a: u64, b: u64) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// The mean over subsets: a left-to-right sum divided by the count (`sum(list) / len(list)`), over the
/// values that exist. `None` if none does.
pub fn mean_over_subsets(xs: &[Option<f64>]) -> Option<f64> {
    let v: Vec<f64> = xs.iter().flatten().copied().collect();
    crate::metrics::mean::plain_mean(&v)
}

/// Tie order of the Top-k diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// By (distance, column index): `numpy.argsort(kind="stable")`.
    Stable,
    /// By (distance, same class ? 1 : 0, column index): other-class items first.
    Pessimistic,
}

/// The 1-based rank, among the items j ≠ q ordered by `ties`, of the first item of the query's class;
/// `None` when no other item has that class. Distances must be non-NaN (map non-finite values to +inf first).
/// O(N): the first same-class item s is the minimum of (d, j) over the same class; its rank is 1 + the number
/// of other-class items ordered before it.
pub fn first_match_rank(row: &[f64], q: usize, class: &[u32], ties: Ties) -> Option<usize> {
    let cq = *class.get(q)?;
    let mut best: Option<(f64, usize)> = None;
    for (j, (&d, &c)) in row.iter().zip(class).enumerate() {
        if j != q && c == cq && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, j));
        }
    }
    let (ds, s) = best?;
    let mut before = 0usize;
    for (j, (&d, &c)) in row.iter().zip(class).enumerate() {
        if j == q || c == cq {
            continue;
        }
        let ahead = match ties {
            Ties::Stable => d < ds || (d == ds && j < s),
            Ties::Pessimistic => d <= ds,
        };
        if ahead {
            before += 1;
        }
    }
    Some(before + 1)
}

/// The first `k` items j ≠ q in the order of `ties` (for display: each sample's nearest neighbours).
pub fn nearest(row: &[f64], q: usize, class: &[u32], k: usize, ties: Ties) -> Vec<usize> {
    let cq = class.get(q).copied();
    let key = |j: usize| {
        let same = u8::from(ties == Ties::Pessimistic && class.get(j).copied() == cq);
        (row[j], same, j)
    };
    let less = |a: (f64, u8, usize), b: (f64, u8, usize)| {
        a.0 < b.0 || (a.0 == b.0 && (a.1, a.2) < (b.1, b.2))
    };
    let mut best: Vec<usize> = Vec::with_capacity(k + 1);
    if k == 0 {
        return best;
    }
    for j in 0..row.len() {
        if j == q {
            continue;
        }
        if best.len() == k && !less(key(j), key(best[k - 1])) {
            continue;
        }
        let pos = best
            .iter()
            .position(|&b| less(key(j), key(b)))
            .unwrap_or(best.len());
        best.insert(pos, j);
        best.truncate(k);
    }
    best
}

/// Top-k of one subset from each query's first-match rank (`None` = no same-class item).
/// `k_eff = min(k, N − 1)`; with `exclude_no_match`, queries without a same-class item are not counted.
pub fn top_k(ranks: &[Option<usize>], k: usize, exclude_no_match: bool) -> Option<f64> {
    let n = ranks.len();
    let k_eff = k.min(n.saturating_sub(1));
    let mut hits = 0u64;
    let mut counted = 0u64;
    for r in ranks {
        match r {
            Some(r) => {
                counted += 1;
                if *r <= k_eff {
                    hits += 1;
                }
            }
            None if exclude_no_match => {}
            None => counted += 1,
        }
    }
    ratio(hits, counted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_topk() {
        // docs/specs/falsid.md 7.2
        let d = [
            [0., 1., 2., 3.],
            [1., 0., 1., 2.],
            [2., 1., 0., 5.],
            [3., 2., 5., 0.],
        ];
        let class = [0, 0, 1, 1];
        let ranks = |t| {
            (0..4)
                .map(|q| first_match_rank(&d[q], q, &class, t))
                .collect::<Vec<_>>()
        };
        let st = ranks(Ties::Stable);
        assert_eq!(top_k(&st, 1, false), Some(0.5));
        assert_eq!(top_k(&st, 3, false), Some(1.0));
        assert_eq!(top_k(&st, 5, false), Some(1.0));
        assert_eq!(top_k(&ranks(Ties::Pessimistic), 1, false), Some(0.25));
        assert_eq!(nearest(&d[1], 1, &class, 2, Ties::Stable), vec![0, 2]);
        assert_eq!(nearest(&d[1], 1, &class, 2, Ties::Pessimistic), vec![2, 0]);
    }

    #[test]
    fn balanced() {
        let c = Confusion::of(&[0, 0, 1, 1], &[Some(0), Some(0), Some(1), Some(0)]);
        assert_eq!(c.accuracy(), Some(0.75));
        assert_eq!(c.balanced_accuracy(), Some(0.75));
        let c = Confusion::of(&[0, 0], &[Some(0), None]);
        assert_eq!(c.balanced_accuracy(), Some(0.5));
    }
}
