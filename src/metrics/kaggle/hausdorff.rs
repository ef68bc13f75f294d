//! The Hausdorff distance between two pixel sets: `max(h(A, B), h(B, A))` with `h(A, B) = max over a ∈ A of
//! min over b ∈ B of ‖a − b‖₂` in pixels, as SciPy 1.17.1's `scipy.spatial.distance.directed_hausdorff` gives it
//! on the sets' (row, column) coordinates. Computed exactly with squared Euclidean distance transforms
//! (Felzenszwalb and Huttenlocher, "Distance Transforms of Sampled Functions", 2012) over the bounding box of
//! both sets: every nearest pixel lies in the box, and `sqrt` is monotonic, so the maximum of the transform's
//! square roots is SciPy's maximum of distances.

use super::rle::Runs;

/// The symmetric Hausdorff distance of two masks of an image `height` pixels tall; `None` when either is empty
/// (SciPy's directed distance to an empty set is undefined).
pub fn hausdorff(a: &Runs, b: &Runs, height: u32) -> Option<f64> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let (mut r0, mut r1, mut c0, mut c1) = (u32::MAX, 0, u32::MAX, 0);
    for (r, c) in a.pixels(height).chain(b.pixels(height)) {
        (r0, r1, c0, c1) = (r0.min(r), r1.max(r), c0.min(c), c1.max(c));
    }
    let (h, w) = ((r1 - r0 + 1) as usize, (c1 - c0 + 1) as usize);
    let grid = |m: &Runs| {
        let mut g = vec![false; h * w];
        for (r, c) in m.pixels(height) {
            g[(r - r0) as usize * w + (c - c0) as usize] = true;
        }
        g
    };
    let (ga, gb) = (grid(a), grid(b));
    let directed = |from: &[bool], to: &[bool]| {
        let d = squared_edt(to, h, w);
        from.iter()
            .zip(&d)
            .filter(|(f, _)| **f)
            .map(|(_, &d)| d)
            .fold(0.0f64, f64::max)
    };
    Some(directed(&ga, &gb).max(directed(&gb, &ga)).sqrt())
}

/// The squared distance from each cell of an `h × w` grid (row-major) to the nearest set cell.
fn squared_edt(set: &[bool], h: usize, w: usize) -> Vec<f64> {
    const INF: f64 = 1e20;
    let mut d = vec![0.0f64; h * w];
    let mut f = vec![0.0f64; h.max(w)];
    let mut out = vec![0.0f64; h.max(w)];
    let mut env = Envelope::new(h.max(w));
    for c in 0..w {
        for r in 0..h {
            f[r] = if set[r * w + c] { 0.0 } else { INF };
        }
        env.transform(&f[..h], &mut out[..h]);
        for r in 0..h {
            d[r * w + c] = out[r];
        }
    }
    for r in 0..h {
        f[..w].copy_from_slice(&d[r * w..(r + 1) * w]);
        env.transform(&f[..w], &mut out[..w]);
        d[r * w..(r + 1) * w].copy_from_slice(&out[..w]);
    }
    d
}

/// The lower envelope of parabolas of the 1-D transform (the paper's algorithm 1), its buffers kept.
struct Envelope {
    v: Vec<usize>,
    z: Vec<f64>,
}

impl Envelope {
    fn new(n: usize) -> Envelope {
        Envelope {
            v: vec![0; n],
            z: vec![0.0; n + 1],
        }
    }
    /// `out[q] = min over p of (q − p)² + f[p]`.
    fn transform(&mut self, f: &[f64], out: &mut [f64]) {
        let n = f.len();
        let (v, z) = (&mut self.v, &mut self.z);
        let mut k = 0usize;
        v[0] = 0;
        z[0] = f64::NEG_INFINITY;
        z[1] = f64::INFINITY;
        let sect = |q: usize, p: usize| {
            ((f[q] + (q * q) as f64) - (f[p] + (p * p) as f64)) / (2.0 * q as f64 - 2.0 * p as f64)
        };
        for q in 1..n {
            let mut s = sect(q, v[k]);
            while s <= z[k] {
                k -= 1;
                s = sect(q, v[k]);
            }
            k += 1;
            v[k] = q;
            z[k] = s;
            z[k + 1] = f64::INFINITY;
        }
        k = 0;
        for (q, o) in out.iter_mut().enumerate() {
            while z[k + 1] < q as f64 {
                k += 1;
            }
            let dq = q as f64 - v[k] as f64;
            *o = dq * dq + f[v[k]];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force on small masks.
    #[test]
    fn agrees_with_brute_force() {
        let h = 7;
        let a = Runs::normalized(vec![(3, 2), (20, 4)]);
        let b = Runs::normalized(vec![(40, 1), (9, 3)]);
        let pa: Vec<_> = a.pixels(h).collect();
        let pb: Vec<_> = b.pixels(h).collect();
        let dir = |x: &[(u32, u32)], y: &[(u32, u32)]| {
            x.iter()
                .map(|p| {
                    y.iter()
                        .map(|q| {
                            let (dr, dc) = (p.0 as f64 - q.0 as f64, p.1 as f64 - q.1 as f64);
                            (dr * dr + dc * dc).sqrt()
                        })
                        .fold(f64::INFINITY, f64::min)
                })
                .fold(0.0, f64::max)
        };
        let want = dir(&pa, &pb).max(dir(&pb, &pa));
        assert_eq!(hausdorff(&a, &b, h), Some(want));
    }
}
