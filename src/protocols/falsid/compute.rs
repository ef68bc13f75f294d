//! Per-subset numbers: classification (section 3) and the Top-k diagnostic from the distance matrix.

use super::inputs::Subset;
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::falsid_labels::{id_key, LabelRow};
use crate::formats::falsid_matrix::Matrix;
use crate::metrics::falsid::{first_match_rank, nearest, top_k, Confusion, Ties};
use std::collections::HashMap;

pub struct TopkSettings {
    pub ks: Vec<usize>,
    pub ties: Ties,
    pub exclude_no_match: bool,
    pub by_writer: bool,
    pub nonfinite_error: bool,
    pub stem: bool,
    pub exclude_missing: bool,
}

/// One subset's results.
#[derive(Default)]
pub struct SubsetResult {
    pub name: String,
    /// GT items in GT order: (id, label, prediction).
    pub items: Vec<(String, u8, Option<u8>)>,
    pub confusion: Confusion,
    pub scored: bool,
    /// Top-k per k (None = no matrix / not computable).
    pub topk: Vec<Option<f64>>,
    /// Per GT item: nearest neighbours (GT index, distance) and the first-match rank.
    pub neighbours: Vec<Vec<(usize, f64)>>,
    pub ranks: Vec<Option<usize>>,
    pub has_matrix: bool,
    /// Ordered, downsampled matrix: (labels, values row-major).
    pub heat: Option<(Vec<String>, Vec<Option<f64>>)>,
    /// Same-class and other-class distance histograms: (bin centres, same, other) as fractions.
    pub hist: Option<Hist>,
}

pub fn classify(s: &Subset, exclude_missing: bool, diags: &mut Diags) -> SubsetResult {
    let mut r = SubsetResult {
        name: s.name.clone(),
        ..Default::default()
    };
    let mut missing = Vec::new();
    for g in &s.gt {
        let p = s.pred.get(&g.key).map(|x| x.0);
        if p.is_none() {
            missing.push(g.id.clone());
        }
        r.items.push((g.id.clone(), g.label, p));
    }
    let (y, pred): (Vec<u8>, Vec<Option<u8>>) = r
        .items
        .iter()
        .filter(|(_, _, p)| !(exclude_missing && p.is_none()))
        .map(|(_, y, p)| (*y, *p))
        .unzip();
    r.confusion = Confusion::of(&y, &pred);
    r.scored = true;
    if !missing.is_empty() {
        diags.push(
            Diagnostic::warning(
                "falsid.labels.missing",
                format!(
                    "{} of {} GT items of {} have no predicted label ({})",
                    missing.len(),
                    s.gt.len(),
                    s.name,
                    if exclude_missing {
                        "left out"
                    } else {
                        "counted wrong"
                    }
                ),
            )
            .file(s.gt_files.first().map_or("", String::as_str))
            .found(first_ids(&missing))
            .hint("Predict a label for every GT item of the subset."),
        );
    }
    let unknown: Vec<String> = {
        let mut v: Vec<&(u8, usize, crate::formats::falsid_labels::LabelRow)> = s
            .pred
            .values()
            .filter(|(_, _, row)| !s.gt_index.contains_key(&row.key))
            .collect();
        v.sort_by_key(|x| (x.1, x.2.line));
        v.iter().map(|x| x.2.id.clone()).collect()
    };
    if !unknown.is_empty() {
        diags.push(
            Diagnostic::warning(
                "falsid.labels.unknown_id",
                format!(
                    "{} predicted ids of {} are not in the GT (ignored)",
                    unknown.len(),
                    s.name
                ),
            )
            .found(first_ids(&unknown))
            .hint("Check the ids match the GT's (option id_match = stem ignores file extensions)."),
        );
    }
    let classes = (
        r.confusion.tp + r.confusion.fn_ > 0,
        r.confusion.tn + r.confusion.fp > 0,
    );
    if classes.0 != classes.1 {
        diags.push(Diagnostic::warning("falsid.subset.single_class", format!("the GT of {} has one class only: its balanced accuracy is the recall of that class", s.name)));
    }
    r
}

pub fn first_ids(ids: &[String]) -> String {
    let mut s: Vec<String> = ids.iter().take(5).map(|i| excerpt(i)).collect();
    if ids.len() > 5 {
        s.push("…".into());
    }
    s.join(", ")
}

/// The Top-k diagnostic of one subset; fills `topk`, `neighbours`, `ranks`, `heat`, `hist`.
pub fn topk(s: &mut Subset, r: &mut SubsetResult, set: &TopkSettings, diags: &mut Diags) {
    r.topk = vec![None; set.ks.len()];
    let Some((path, m)) = s.matrix.as_mut() else {
        return;
    };
    let path = path.clone();
    let gt = GtSide {
        rows: &s.gt,
        index: &s.gt_index,
        name: &s.name,
    };
    let Some(map) = gt_of_rows(&gt, m, set.stem, &path, diags) else {
        return;
    };
    if !check_values(m, set.nonfinite_error, &path, diags) {
        return;
    }
    let class = classes(&gt, &map, set.by_writer);
    rank_queries(&gt, m, &map, &class, set, r, &path, diags);
    r.heat = Some(heat(m, &class, set.by_writer));
    r.hist = hist(m, &class);
}

/// The subset's ground truth as the Top-k computation reads it.
struct GtSide<'a> {
    rows: &'a [LabelRow],
    index: &'a HashMap<String, usize>,
    name: &'a str,
}

/// Matrix index -> GT index: by the matrix's ids, else the GT order; `None` after an error (ids that differ
/// from the subset's GT ids, or a matrix without ids of another size).
fn gt_of_rows(
    gt: &GtSide,
    m: &Matrix,
    stem: bool,
    path: &str,
    diags: &mut Diags,
) -> Option<Vec<usize>> {
    let ngt = gt.rows.len();
    let Some(ids) = &m.ids else {
        if m.n != ngt {
            diags.push(
                Diagnostic::error("falsid.matrix.size", format!("a {0}×{0} matrix without ids, but {1} has {ngt} GT items", m.n, gt.name))
                    .file(path)
                    .expected(format!("{ngt}×{ngt}"))
                    .found(format!("{0}×{0}", m.n))
                    .hint("Without an id column the rows follow the GT file order; write all of the subset's items."),
            );
            return None;
        }
        return Some((0..ngt).collect());
    };
    let mut map = Vec::with_capacity(ids.len());
    let mut extra = Vec::new();
    let mut seen = vec![false; ngt];
    for id in ids {
        match gt.index.get(&id_key(id, stem)) {
            Some(&g) if !seen[g] => {
                seen[g] = true;
                map.push(g);
            }
            _ => extra.push(id.clone()),
        }
    }
    let missing: Vec<String> = gt
        .rows
        .iter()
        .zip(&seen)
        .filter(|(_, x)| !**x)
        .map(|(g, _)| g.id.clone())
        .collect();
    if !extra.is_empty() || !missing.is_empty() {
        diags.push(
            Diagnostic::error(
                "falsid.matrix.ids",
                format!(
                    "the matrix ids differ from the GT ids of {}: {} missing, {} extra",
                    gt.name,
                    missing.len(),
                    extra.len()
                ),
            )
            .file(path)
            .expected(format!("the {ngt} GT ids of {}", gt.name))
            .found(format!(
                "missing: {}; extra: {}",
                first_ids(&missing),
                first_ids(&extra)
            ))
            .hint("The matrix must hold exactly the subset's GT items, each once."),
        );
        return None;
    }
    Some(map)
}

/// The distances' checks: NaN/inf (an error, or sorted as +inf), negative values, a non-zero diagonal or
/// asymmetric pairs, rows aligned by id. `false` when the non-finite values are an error.
fn check_values(m: &mut Matrix, nonfinite_error: bool, path: &str, diags: &mut Diags) -> bool {
    let st = m.stats();
    let rc = |(i, j): (usize, usize)| format!("row {}, column {}", i + 1, j + 1);
    if st.nonfinite > 0 {
        let (i, j) = st.first_nonfinite.unwrap_or((0, 0));
        let mut d = if nonfinite_error {
            Diagnostic::error(
                "falsid.matrix.nonfinite",
                format!(
                    "{} NaN/inf distances (first at {})",
                    st.nonfinite,
                    rc((i, j))
                ),
            )
            .hint("Replace them by finite distances, or set nonfinite = as_inf.")
        } else {
            Diagnostic::warning(
                "falsid.matrix.nonfinite",
                format!(
                    "{} NaN/inf distances sort as +inf (first at {})",
                    st.nonfinite,
                    rc((i, j))
                ),
            )
            .hint("Write finite distances; NaN usually means a failed feature extraction.")
        }
        .file(path);
        if let Some(l) = m.row_lines.get(i) {
            d = d.line(*l);
        }
        diags.push(d);
        if nonfinite_error {
            return false;
        }
        m.nonfinite_as_inf();
    }
    if st.negative > 0 {
        diags.push(
            Diagnostic::warning("falsid.matrix.negative", format!("{} negative distances, used as they are (first at {})", st.negative, rc(st.first_negative.unwrap_or((0, 0)))))
                .file(path)
                .hint("Distances are usually ≥ 0; a similarity matrix must be converted (e.g. 1 − similarity)."),
        );
    }
    if st.nonzero_diagonal > 0 || st.asymmetric_pairs > 0 {
        diags.push(
            Diagnostic::info("falsid.matrix.asymmetric", format!("{} non-zero diagonal values, {} asymmetric pairs{}: rows are the queries and each query is excluded by index", st.nonzero_diagonal, st.asymmetric_pairs, st.first_asymmetric.map(|p| format!(" (first at {})", rc(p))).unwrap_or_default()))
                .file(path),
        );
    }
    if m.reordered {
        diags.push(
            Diagnostic::info(
                "falsid.matrix.row_order",
                "rows come in another order than the columns; they were aligned by id",
            )
            .file(path),
        );
    }
    true
}

/// Classes by matrix index: the writer (numbered in order of appearance) or the label.
fn classes(gt: &GtSide, map: &[usize], by_writer: bool) -> Vec<u32> {
    if by_writer {
        let mut ids: HashMap<String, u32> = HashMap::new();
        map.iter()
            .map(|&g| {
                let w = gt.rows[g].writer.clone().unwrap_or_default();
                let k = ids.len() as u32;
                *ids.entry(w).or_insert(k)
            })
            .collect()
    } else {
        map.iter().map(|&g| u32::from(gt.rows[g].label)).collect()
    }
}

/// Each query's first-match rank and nearest neighbours, the Top-k accuracies, and the notes on capped k and
/// queries without a match.
#[allow(clippy::too_many_arguments)]
fn rank_queries(
    gt: &GtSide,
    m: &Matrix,
    map: &[usize],
    class: &[u32],
    set: &TopkSettings,
    r: &mut SubsetResult,
    path: &str,
    diags: &mut Diags,
) {
    let n = m.n;
    let ngt = gt.rows.len();
    let kmax = set
        .ks
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .min(n.saturating_sub(1))
        .min(10);
    let mut ranks_m = vec![None; n];
    r.neighbours = vec![Vec::new(); ngt];
    r.ranks = vec![None; ngt];
    for q in 0..n {
        let row = m.row(q);
        ranks_m[q] = first_match_rank(row, q, class, set.ties);
        r.ranks[map[q]] = ranks_m[q];
        r.neighbours[map[q]] = nearest(row, q, class, kmax, set.ties)
            .into_iter()
            .map(|j| (map[j], row[j]))
            .collect();
    }
    // Queries taken into account: with missing_prediction = exclude the GT items are still all queries.
    let _ = set.exclude_missing;
    r.has_matrix = true;
    for (slot, &k) in r.topk.iter_mut().zip(&set.ks) {
        *slot = top_k(&ranks_m, k, set.exclude_no_match);
    }
    if set.ks.iter().any(|&k| k > n.saturating_sub(1)) {
        diags.push(
            Diagnostic::info(
                "falsid.topk.capped",
                format!("{}: k capped at N − 1 = {}", gt.name, n.saturating_sub(1)),
            )
            .file(path),
        );
    }
    let no_match = ranks_m.iter().filter(|x| x.is_none()).count();
    if no_match > 0 {
        diags.push(
            Diagnostic::warning(
                "falsid.topk.no_match",
                format!(
                    "{no_match} queries of {} have no other item of their class: {}",
                    gt.name,
                    if set.exclude_no_match {
                        "left out"
                    } else {
                        "counted as misses"
                    }
                ),
            )
            .file(path),
        );
    }
}

/// The matrix ordered by class (then index), averaged over at most 48×48 blocks.
fn heat(
    m: &crate::formats::falsid_matrix::Matrix,
    class: &[u32],
    by_writer: bool,
) -> (Vec<String>, Vec<Option<f64>>) {
    let n = m.n;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (class[i], i));
    let b = n.clamp(1, 48);
    let bounds: Vec<usize> = (0..=b).map(|k| k * n / b).collect();
    let cname = |c: u32| {
        if by_writer {
            format!("writer {c}")
        } else if c == 0 {
            "authentic".to_string()
        } else {
            "imitation".to_string()
        }
    };
    let labels: Vec<String> = (0..b)
        .map(|k| {
            let (lo, hi) = (bounds[k], bounds[k + 1]);
            let c = order.get(lo).map_or(0, |&i| class[i]);
            if hi - lo <= 1 {
                format!("{} #{}", cname(c), lo + 1)
            } else {
                format!("{} #{}–{}", cname(c), lo + 1, hi)
            }
        })
        .collect();
    let mut vals = vec![None; b * b];
    for bi in 0..b {
        for bj in 0..b {
            let (mut sum, mut cnt) = (0.0f64, 0u64);
            for &i in &order[bounds[bi]..bounds[bi + 1]] {
                let row = m.row(i);
                for &j in &order[bounds[bj]..bounds[bj + 1]] {
                    let v = row[j];
                    if v.is_finite() && i != j {
                        sum += v;
                        cnt += 1;
                    }
                }
            }
            vals[bi * b + bj] = (cnt > 0).then(|| sum / cnt as f64);
        }
    }
    (labels, vals)
}

/// (bin centres, same-class fractions, other-class fractions).
pub type Hist = (Vec<f64>, Vec<Option<f64>>, Vec<Option<f64>>);

/// Histograms (40 bins over the finite off-diagonal range) of same-class and other-class distances, each as
/// fractions of its pairs.
fn hist(m: &crate::formats::falsid_matrix::Matrix, class: &[u32]) -> Option<Hist> {
    let n = m.n;
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for i in 0..n {
        for (j, &v) in m.row(i).iter().enumerate() {
            if i != j && v.is_finite() {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
    }
    if lo > hi {
        return None;
    }
    const B: usize = 40;
    let w = if hi > lo { (hi - lo) / B as f64 } else { 1.0 };
    let (mut same, mut other) = (vec![0u64; B], vec![0u64; B]);
    for i in 0..n {
        for (j, &v) in m.row(i).iter().enumerate() {
            if i != j && v.is_finite() {
                let k = (((v - lo) / w) as usize).min(B - 1);
                if class[i] == class[j] {
                    same[k] += 1;
                } else {
                    other[k] += 1;
                }
            }
        }
    }
    let frac = |c: &[u64]| {
        let t: u64 = c.iter().sum();
        c.iter()
            .map(|x| (t > 0).then(|| *x as f64 / t as f64))
            .collect::<Vec<_>>()
    };
    let centres = (0..B).map(|k| lo + (k as f64 + 0.5) * w).collect();
    Some((centres, frac(&same), frac(&other)))
}
