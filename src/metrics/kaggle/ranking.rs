//! Kaggle's list metrics: MAP@k over predicted lists, and F1 over label sets.

use crate::metrics::mean::numpy_mean;

/// Average precision at k of one row, as Kaggle's published `apk` computes it (Ben Hamner's `ml_metrics`
/// `average_precision.apk`, the code of the H&M and Santander metric pages): the predictions cut to `k`; a
/// prediction in `actual` and not earlier among the predictions is a hit; the sum of the precisions at the hits
/// divided by `min(len(actual), k)` (`len` counting repeated actual items); an empty `actual` scores 0.
pub fn apk<T: PartialEq>(actual: &[T], predicted: &[T], k: usize) -> f64 {
    if actual.is_empty() || k == 0 {
        return 0.0;
    }
    let predicted = &predicted[..predicted.len().min(k)];
    let (mut score, mut hits) = (0.0f64, 0.0f64);
    for (i, p) in predicted.iter().enumerate() {
        if actual.contains(p) && !predicted[..i].contains(p) {
            hits += 1.0;
            score += hits / (i as f64 + 1.0);
        }
    }
    score / actual.len().min(k) as f64
}

/// The three F1 averages of scikit-learn 1.9.1's `f1_score` on `MultiLabelBinarizer` columns (the labels of
/// both sides): `micro` from the summed counts, `macro` the mean over labels, `samples` the mean over rows; a
/// zero denominator scores 0 (`zero_division="warn"`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct F1s {
    pub micro: Option<f64>,
    pub macro_: Option<f64>,
    pub samples: Option<f64>,
}

/// `rows`: each row's true and predicted label codes (each set without repeats); `labels`: how many codes.
pub fn f1s(rows: &[(Vec<u32>, Vec<u32>)], labels: usize) -> F1s {
    let f = |tp: u64, t: u64, p: u64| {
        let den = (t + p) as f64;
        if den == 0.0 {
            0.0
        } else {
            2.0 * tp as f64 / den
        }
    };
    let mut per = vec![(0u64, 0u64, 0u64); labels];
    let mut samples = Vec::with_capacity(rows.len());
    for (t, p) in rows {
        let tp = t.iter().filter(|x| p.contains(x)).count() as u64;
        samples.push(f(tp, t.len() as u64, p.len() as u64));
        for &x in t {
            per[x as usize].1 += 1;
            if p.contains(&x) {
                per[x as usize].0 += 1;
            }
        }
        for &x in p {
            per[x as usize].2 += 1;
        }
    }
    let (tp, t, p) = per
        .iter()
        .fold((0, 0, 0), |a, c| (a.0 + c.0, a.1 + c.1, a.2 + c.2));
    let macro_: Vec<f64> = per.iter().map(|c| f(c.0, c.1, c.2)).collect();
    F1s {
        micro: (!rows.is_empty()).then(|| f(tp, t, p)),
        macro_: numpy_mean(&macro_),
        samples: numpy_mean(&samples),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apk_as_ml_metrics() {
        assert_eq!(apk(&[1, 2, 3], &[1, 1, 4, 3], 3), 1.0 / 3.0);
        assert_eq!(apk::<u32>(&[], &[1], 3), 0.0);
        assert_eq!(apk(&[1], &[2, 1], 5), 0.5);
    }
}
