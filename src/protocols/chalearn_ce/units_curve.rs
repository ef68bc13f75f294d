//! A replicate's AP of one category without expanding the ranking by the weights: the same numbers as
//! `voc_ap::pr_points`, `envelope_into` and `area_of_envelope_into` on the expanded steps, bit for bit, in
//! time linear in the ranked lines plus the weighted positives.
//!
//! On the expanded curve, the points between two positives (and those before the first) keep the recall of
//! the point before them, and their precision `TP / N` only falls as `N` grows. So a stretch of such points
//! is kept as its last point (its precision, and the first point's, the stretch's largest); every other point
//! is a positive and is kept as it is. The envelope (`mpre[i] = max(mpre[i], mpre[i + 1])` from the right) of
//! a stretch's last point is `max(its precision, the envelope after it)`, of the stretch's first point
//! `max(the first's precision, that)`, and the points inside reach no term: their recall step is zero. The
//! terms of the area are then the kept points' terms, at their places in the full array, and every other term
//! is +0.0; NumPy's pairwise sum of the full array is evaluated with those zeros left out ([`sparse_sum`]),
//! which is exact: every term is ≥ +0.0, and adding +0.0 to a partial sum (≥ +0.0) leaves it unchanged.

use super::category::TieOrder;
use crate::metrics::voc_ap::Integration;

/// A point of the curve that a replicate keeps: a positive, a sentinel, or the last point of a stretch of
/// points with one recall.
#[derive(Clone, Copy, Debug)]
struct Key {
    /// Its index in `mrec`.
    at: usize,
    rec: f64,
    prec: f64,
    /// The precision of the stretch's first point (`prec` when the key is one point).
    first: f64,
    /// `mpre` after the envelope.
    env: f64,
}

/// The curve of one category under construction, reused from category to category.
#[derive(Default)]
pub struct Curve {
    npos: f64,
    tp: u64,
    n: u64,
    /// The points so far (sentinel included).
    len: usize,
    /// The points of the open stretch (no positive since the last key), and its first point's precision.
    stretch: usize,
    stretch_first: f64,
    keys: Vec<Key>,
    terms: Vec<(usize, f64)>,
    dense: Vec<f64>,
}

impl Curve {
    /// A new curve with `npos` positives (> 0), with or without the sentinel (0, 0) in front.
    pub fn start(&mut self, npos: u64, sentinels: bool) {
        self.npos = npos as f64;
        (self.tp, self.n, self.len, self.stretch) = (0, 0, 0, 0);
        self.keys.clear();
        if sentinels {
            self.push(0.0, 0.0);
        }
    }

    fn push(&mut self, rec: f64, prec: f64) {
        self.keys.push(Key {
            at: self.len,
            rec,
            prec,
            first: prec,
            env: 0.0,
        });
        self.len += 1;
    }

    fn close_stretch(&mut self) {
        if self.stretch > 0 {
            self.len += self.stretch - 1;
            self.push(self.tp as f64 / self.npos, self.tp as f64 / self.n as f64);
            self.keys.last_mut().expect("pushed").first = self.stretch_first;
            self.stretch = 0;
        }
    }

    /// `count` thresholds, each with `tp` more positives among `n` more ranked items (`pr_points`' steps;
    /// those with `n = 0` give no point).
    #[inline]
    pub fn steps(&mut self, tp: u64, n: u64, count: u64) {
        if n == 0 || count == 0 {
            return;
        }
        if tp == 0 {
            if self.stretch == 0 {
                self.stretch_first = self.tp as f64 / (self.n + n) as f64;
            }
            self.stretch += count as usize;
            self.n += n * count;
            return;
        }
        for _ in 0..count {
            self.close_stretch();
            self.tp += tp;
            self.n += n;
            self.push(self.tp as f64 / self.npos, self.tp as f64 / self.n as f64);
        }
    }

    /// A tie group of `n` ranked items, `p` of them positive, as `category::rank::steps` emits it (not for
    /// [`TieOrder::File`], whose items are steps of their own).
    pub fn group(&mut self, p: u64, n: u64, tie: TieOrder) {
        match tie {
            TieOrder::Grouped => self.steps(p, n, 1),
            TieOrder::PositivesFirst => {
                self.steps(1, 1, p);
                self.steps(0, 1, n - p);
            }
            _ => {
                self.steps(0, 1, n - p);
                self.steps(1, 1, p);
            }
        }
    }

    /// The area under the envelope, with or without the sentinel (1, 0) at the end.
    pub fn area(&mut self, sentinels: bool, integration: Integration) -> f64 {
        self.close_stretch();
        if sentinels {
            self.push(1.0, 0.0);
        }
        let mut run = f64::NEG_INFINITY;
        for k in self.keys.iter_mut().rev() {
            k.env = if run > k.prec { run } else { k.prec };
            run = if k.first > k.env { k.first } else { k.env };
        }
        self.terms.clear();
        for pair in self.keys.windows(2) {
            let (prev, k) = (pair[0], pair[1]);
            // The first point after `prev`: `k` itself, or the first of its stretch.
            let env = if k.first > k.env { k.first } else { k.env };
            let d = k.rec - prev.rec;
            let term = match integration {
                Integration::Trapezoid => d * (env + prev.env) / 2.0,
                Integration::Step if k.rec != prev.rec => d * env,
                Integration::Step => continue,
            };
            self.terms.push((prev.at, term));
        }
        match integration {
            Integration::Trapezoid if self.len >= 2 => {
                self.terms.retain(|t| t.1 != 0.0);
                sparse_sum(self.len - 1, 0, &self.terms)
            }
            Integration::Step if !self.terms.is_empty() => {
                self.dense.clear();
                self.dense.extend(self.terms.iter().map(|t| t.1));
                crate::metrics::mean::numpy_sum(&self.dense)
            }
            _ => 0.0,
        }
    }
}

/// `numpy_sum` of the `n` (≥ 1) terms from index `from` on, which are +0.0 but for `terms` (index, value),
/// ascending, each value ≥ +0.0: the same pairwise blocks, the zeros left out.
fn sparse_sum(n: usize, from: usize, terms: &[(usize, f64)]) -> f64 {
    if terms.is_empty() {
        return 0.0;
    }
    if n < 8 {
        let mut s = -0.0;
        for t in terms {
            s += t.1;
        }
        s
    } else if n <= 128 {
        let full = n - n % 8;
        let mut r = [0.0f64; 8];
        let mut rest = terms.len();
        for (i, t) in terms.iter().enumerate() {
            let at = t.0 - from;
            if at >= full {
                rest = i;
                break;
            }
            r[at % 8] += t.1;
        }
        let mut s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for t in &terms[rest..] {
            s += t.1;
        }
        s
    } else {
        let mut m = n / 2;
        m -= m % 8;
        let split = terms.partition_point(|t| t.0 < from + m);
        sparse_sum(m, from, &terms[..split]) + sparse_sum(n - m, from + m, &terms[split..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::mean::numpy_sum;

    #[test]
    fn sparse_sum_equals_the_dense_pairwise_sum() {
        let mut seed = 0x5eedu64;
        for n in [1, 2, 7, 8, 9, 64, 127, 128, 129, 300, 1000, 4099] {
            for density in [1, 3, 10, 100] {
                let mut dense = vec![0.0; n];
                let mut terms = Vec::new();
                for (i, x) in dense.iter_mut().enumerate() {
                    let r = crate::xorshift64(&mut seed);
                    if r.is_multiple_of(density) {
                        *x = (r >> 11) as f64 / (1u64 << 53) as f64 * 0.37;
                        terms.push((i, *x));
                    }
                }
                let want = numpy_sum(&dense);
                assert_eq!(
                    sparse_sum(n, 0, &terms).to_bits(),
                    want.to_bits(),
                    "{n} {density}"
                );
            }
        }
    }
}
