//! Maximum-weight bipartite matching (the Hungarian method, Kuhn 1955 / Munkres 1957, in the O(n²·m)
//! potentials form), used by `fest` `matching = hungarian` (docs/specs/fest.md 4 #2). Only edges with a positive
//! weight can be matched; rows and columns without edges are left out of the dense problem.

/// The pairs `(row, col)` of a matching of maximal total weight over `edges` (`(row, col, weight)`, weights > 0
/// kept). Problems with more than 250 000 cells (500 × 500 lines) fall back to the greedy matching (by weight descending, ties to
/// the lower row, then the lower column).
pub fn max_weight_matching(edges: &[(u32, u32, f64)]) -> Vec<(u32, u32)> {
    let edges: Vec<_> = edges.iter().copied().filter(|e| e.2 > 0.0).collect();
    let mut rows: Vec<u32> = edges.iter().map(|e| e.0).collect();
    let mut cols: Vec<u32> = edges.iter().map(|e| e.1).collect();
    rows.sort_unstable();
    rows.dedup();
    cols.sort_unstable();
    cols.dedup();
    if rows.is_empty() {
        return Vec::new();
    }
    let (n, m) = (rows.len(), cols.len());
    if n.saturating_mul(m) > 250_000 {
        return greedy(&edges);
    }
    // Work with n' ≤ m' (transpose when there are more rows than columns).
    let transpose = n > m;
    let (nn, mm) = if transpose { (m, n) } else { (n, m) };
    let mut w = vec![0.0f64; nn * mm];
    for &(r, c, x) in &edges {
        let (Ok(i), Ok(j)) = (rows.binary_search(&r), cols.binary_search(&c)) else {
            continue;
        };
        let (i, j) = if transpose { (j, i) } else { (i, j) };
        w[i * mm + j] = x;
    }
    let assign = hungarian_min(nn, mm, |i, j| -w[i * mm + j]);
    let mut out = Vec::new();
    for (i, j) in assign.into_iter().enumerate() {
        if w[i * mm + j] > 0.0 {
            let (r, c) = if transpose {
                (cols[i], rows[j])
            } else {
                (rows[i], cols[j])
            };
            let (r, c) = if transpose { (c, r) } else { (r, c) };
            out.push((r, c));
        }
    }
    out.sort_unstable();
    out
}

fn greedy(edges: &[(u32, u32, f64)]) -> Vec<(u32, u32)> {
    let mut e = edges.to_vec();
    e.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
    let mut ru = std::collections::HashSet::new();
    let mut cu = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (r, c, _) in e {
        if !ru.contains(&r) && !cu.contains(&c) {
            ru.insert(r);
            cu.insert(c);
            out.push((r, c));
        }
    }
    out.sort_unstable();
    out
}

/// Minimum-cost assignment of n rows to distinct columns among m ≥ n: returns the column of each row.
fn hungarian_min(n: usize, m: usize, cost: impl Fn(usize, usize) -> f64) -> Vec<usize> {
    let inf = f64::INFINITY;
    let mut u = vec![0.0; n + 1];
    let mut v = vec![0.0; m + 1];
    let mut p = vec![0usize; m + 1];
    let mut way = vec![0usize; m + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0;
        let mut minv = vec![inf; m + 1];
        let mut used = vec![false; m + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = inf;
            let mut j1 = 0;
            for j in 1..=m {
                if !used[j] {
                    let cur = cost(i0 - 1, j - 1) - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=m {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 || j1 == 0 {
                break;
            }
        }
        while j0 != 0 {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        }
    }
    let mut ans = vec![0usize; n];
    for j in 1..=m {
        if p[j] != 0 {
            ans[p[j] - 1] = j - 1;
        }
    }
    ans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hungarian_beats_greedy() {
        // greedy takes (1,1)=0.9 then (2,2)=0.1: 1.0; optimal (1,2)+(2,1) = 0.8 + 0.8 = 1.6.
        let e = [(1, 1, 0.9), (1, 2, 0.8), (2, 1, 0.8), (2, 2, 0.1)];
        assert_eq!(max_weight_matching(&e), vec![(1, 2), (2, 1)]);
        assert_eq!(greedy(&e), vec![(1, 1), (2, 2)]);
        let t = [(1, 5, 0.5), (2, 5, 0.6), (3, 5, 0.1)];
        assert_eq!(max_weight_matching(&t), vec![(2, 5)]);
    }
}
