//! Labels of one image: GT connected components (run-based union–find, numbered in raster order of their first
//! pixel, as spec 2.3 orders them), prediction colour labels (spec 2.4), and the GT × prediction contingency
//! table built in one pass over the GT runs.

/// A horizontal run of foreground pixels `[x0, x1)` on row `y`, with its (final) component label.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    pub y: u32,
    pub x0: u32,
    pub x1: u32,
    pub label: u32,
}

/// Connected components of the foreground (`fg(index)`), 8- or 4-connected. Returns the runs (labels 1..=n)
/// and n.
pub fn components(w: u32, h: u32, eight: bool, fg: impl Fn(usize) -> bool) -> (Vec<Run>, u32) {
    let mut runs: Vec<Run> = Vec::new();
    let mut parent: Vec<u32> = Vec::new();
    let (w, h) = (w as usize, h as usize);
    let mut prev = 0..0usize; // runs of the previous row
    for y in 0..h {
        let start = runs.len();
        let base = y * w;
        let mut x = 0;
        let mut k = prev.start;
        while x < w {
            if !fg(base + x) {
                x += 1;
                continue;
            }
            let x0 = x;
            while x < w && fg(base + x) {
                x += 1;
            }
            let label = parent.len() as u32;
            parent.push(label);
            // Previous-row runs touching [x0, x): 4-conn needs a shared column, 8-conn also a corner.
            let (lo, hi) = if eight {
                (x0.saturating_sub(1), x + 1)
            } else {
                (x0, x)
            };
            while k < prev.end && (runs[k].x1 as usize) <= lo {
                k += 1;
            }
            let mut j = k;
            while j < prev.end && (runs[j].x0 as usize) < hi {
                union(&mut parent, label, runs[j].label);
                j += 1;
            }
            runs.push(Run {
                y: y as u32,
                x0: x0 as u32,
                x1: x as u32,
                label,
            });
        }
        prev = start..runs.len();
    }
    // Roots are the smallest provisional label of each component = the label of its first run.
    let mut fin = vec![0u32; parent.len()];
    let mut n = 0u32;
    for l in 0..parent.len() {
        let r = find(&mut parent, l as u32) as usize;
        if r == l {
            n += 1;
            fin[l] = n;
        } else {
            fin[l] = fin[r];
        }
    }
    for r in &mut runs {
        r.label = fin[r.label as usize];
    }
    (runs, n)
}

/// The number of horizontal foreground runs (what [`components`] allocates per), counted without allocating.
pub fn count_runs(w: u32, h: u32, fg: impl Fn(usize) -> bool) -> u64 {
    let (w, h) = (w as usize, h as usize);
    let mut n = 0u64;
    for y in 0..h {
        let base = y * w;
        let mut inside = false;
        for x in 0..w {
            let f = fg(base + x);
            n += (f && !inside) as u64;
            inside = f;
        }
    }
    n
}

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    let mut r = x;
    while parent[r as usize] != r {
        r = parent[r as usize];
    }
    while parent[x as usize] != r {
        let nx = parent[x as usize];
        parent[x as usize] = r;
        x = nx;
    }
    r
}

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra < rb {
        parent[rb as usize] = ra;
    } else if rb < ra {
        parent[ra as usize] = rb;
    }
}

/// Prediction colours → labels (spec 2.4). `pixels` (packed 0xRRGGBB) are replaced by labels in place.
pub struct PredLabels {
    /// Pixel count of each label (index 0 = background).
    pub size: Vec<u64>,
    /// For each label, its colours (lowest first; several when labels wrap).
    pub colours: Vec<Vec<u32>>,
    /// Distinct colours K, the lowest colour, whether (0,0,0) occurs, the largest non-black colour and its count.
    pub distinct: usize,
    pub lowest: Option<u32>,
    pub has_black: bool,
    pub largest_non_black: Option<(u32, u64)>,
}

/// The label of each colour rank: 0 for the background's rank (`bg_rank`; the lowest colour when
/// `lowest_is_background`), the others numbered in rank order from 1, modulo 256 with `wrap`.
fn labels_of_ranks(
    distinct: usize,
    bg_rank: Option<u32>,
    lowest_is_background: bool,
    wrap: bool,
) -> Vec<u32> {
    (0..distinct as u32)
        .map(|r| {
            let l = match bg_rank {
                Some(b) if r == b => 0,
                Some(b) if lowest_is_background => r - b,
                Some(b) if r > b => r,
                _ => r + 1,
            };
            if wrap {
                l % 256
            } else {
                l
            }
        })
        .collect()
}

/// `background`: `None` = the lowest colour (official), `Some(c)` = colour c. `wrap`: labels modulo 256.
pub fn colour_labels(pixels: &mut [u32], background: Option<u32>, wrap: bool) -> PredLabels {
    // Distinct colours via a 2²⁴-bit set; rank(c) = number of set bits below c.
    let mut bits = vec![0u64; 1 << 18];
    for &c in pixels.iter() {
        let c = c & 0xFF_FFFF;
        bits[(c >> 6) as usize] |= 1u64 << (c & 63);
    }
    let mut prefix = vec![0u32; 1 << 18];
    let mut acc = 0u32;
    for (p, b) in prefix.iter_mut().zip(&bits) {
        *p = acc;
        acc += b.count_ones();
    }
    let distinct = acc as usize;
    let rank = |c: u32| -> u32 {
        let c = c & 0xFF_FFFF;
        let word = bits[(c >> 6) as usize];
        prefix[(c >> 6) as usize] + (word & ((1u64 << (c & 63)) - 1)).count_ones()
    };
    let present = |c: u32| bits[(c >> 6) as usize] & (1u64 << (c & 63)) != 0;
    let mut sorted: Vec<u32> = Vec::with_capacity(distinct);
    for (i, &b) in bits.iter().enumerate() {
        let mut b = b;
        while b != 0 {
            let t = b.trailing_zeros();
            sorted.push(((i as u32) << 6) | t);
            b &= b - 1;
        }
    }
    // Label of each rank.
    let bg_rank = match background {
        None => Some(0u32),
        Some(c) if present(c) => Some(rank(c)),
        Some(_) => None,
    };
    let label_of_rank = labels_of_ranks(distinct, bg_rank, background.is_none(), wrap);
    let nlabels = label_of_rank
        .iter()
        .copied()
        .max()
        .map_or(1, |m| m as usize + 1);
    let mut size = vec![0u64; nlabels];
    let mut rank_count = vec![0u64; distinct];
    let mut last = (u32::MAX, 0u32, 0u32);
    for px in pixels.iter_mut() {
        let (r, l) = if *px == last.0 {
            (last.1, last.2)
        } else {
            let r = rank(*px);
            let l = label_of_rank[r as usize];
            last = (*px, r, l);
            (r, l)
        };
        rank_count[r as usize] += 1;
        size[l as usize] += 1;
        *px = l;
    }
    let mut colours = vec![Vec::new(); nlabels];
    for (r, &c) in sorted.iter().enumerate() {
        colours[label_of_rank[r] as usize].push(c);
    }
    let largest_non_black = sorted
        .iter()
        .zip(&rank_count)
        .filter(|(c, _)| **c != 0)
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(c, n)| (*c, *n));
    PredLabels {
        size,
        colours,
        distinct,
        lowest: sorted.first().copied(),
        has_black: present(0),
        largest_non_black,
    }
}

/// The contingency table: the non-zero `(g, p, I)` sorted by `(g, p)`, GT sizes by label, and the page-level
/// foreground intersection (GT foreground pixels whose prediction label is not 0).
pub struct Contingency {
    pub pairs: Vec<(u32, u32, u64)>,
    pub gt_size: Vec<u64>,
    pub fg_inter: u64,
}

pub fn contingency(
    runs: &[Run],
    n1: u32,
    w: u32,
    pred: &[u32],
    n_pred_labels: usize,
) -> Contingency {
    let mut gt_size = vec![0u64; n1 as usize + 1];
    let cols = n_pred_labels.max(1);
    let dense = (n1 as usize + 1).saturating_mul(cols) <= 1 << 20;
    let mut table = if dense {
        vec![0u64; (n1 as usize + 1) * cols]
    } else {
        Vec::new()
    };
    // Sparse tables collect one (g, p, n) per run segment and merge them after sorting: 16 bytes a segment,
    // a third of a hash map's.
    let mut sparse: Vec<(u32, u32, u64)> = Vec::new();
    let mut fg_inter = 0u64;
    for r in runs {
        let g = r.label;
        gt_size[g as usize] += (r.x1 - r.x0) as u64;
        let base = r.y as usize * w as usize;
        let row = &pred[base + r.x0 as usize..base + r.x1 as usize];
        let mut i = 0;
        while i < row.len() {
            let p = row[i];
            let mut j = i + 1;
            while j < row.len() && row[j] == p {
                j += 1;
            }
            if p != 0 {
                let n = (j - i) as u64;
                fg_inter += n;
                if dense {
                    table[g as usize * cols + p as usize] += n;
                } else {
                    match sparse.last_mut() {
                        Some(last) if (last.0, last.1) == (g, p) => last.2 += n,
                        _ => sparse.push((g, p, n)),
                    }
                }
            }
            i = j;
        }
    }
    let mut pairs: Vec<(u32, u32, u64)> = if dense {
        table
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(k, n)| ((k / cols) as u32, (k % cols) as u32, *n))
            .collect()
    } else {
        sparse.sort_unstable_by_key(|t| (t.0, t.1));
        let mut merged: Vec<(u32, u32, u64)> = Vec::with_capacity(sparse.len());
        for (g, p, n) in sparse {
            match merged.last_mut() {
                Some(last) if (last.0, last.1) == (g, p) => last.2 += n,
                _ => merged.push((g, p, n)),
            }
        }
        merged
    };
    pairs.sort_unstable();
    Contingency {
        pairs,
        gt_size,
        fg_inter,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonal_touch_merges_only_in_8() {
        // 1 0
        // 0 1
        let fg = [true, false, false, true];
        assert_eq!(components(2, 2, true, |i| fg[i]).1, 1);
        assert_eq!(components(2, 2, false, |i| fg[i]).1, 2);
    }

    #[test]
    fn u_shape_is_one_and_raster_ordered() {
        // 1 0 1 0 1
        // 1 1 1 0 0
        let fg = [1, 0, 1, 0, 1, 1, 1, 1, 0, 0];
        let (runs, n) = components(5, 2, true, |i| fg[i] == 1);
        assert_eq!(n, 2);
        assert_eq!(
            runs.iter().map(|r| r.label).collect::<Vec<_>>(),
            vec![1, 1, 2, 1]
        );
    }

    #[test]
    fn colours_rank_and_wrap() {
        let mut px: Vec<u32> = (0..300u32).map(|i| i * 7).collect();
        let l = colour_labels(&mut px, None, true);
        assert_eq!(l.size.len(), 256);
        assert_eq!(px[256], 0);
        assert_eq!(px[257], 1);
        let mut px2 = vec![0x0000FF, 0x00FF00, 0x0000FF];
        let l2 = colour_labels(&mut px2, Some(0), false);
        assert_eq!((l2.size.len(), px2), (3, vec![1, 2, 1]));
    }
}
