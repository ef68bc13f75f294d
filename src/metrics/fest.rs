//! FEST 2025 text-line metrics (docs/specs/fest.md sections 3 and 4) from a GT-label × prediction-label
//! contingency table. Source: `evaluate_util.py` of the FEST 2025 organizers (`udiads_textline_evaluate`),
//! whose O(N1·N2·H·W) loop computes, per GT line g and predicted label p, I(g,p) = |G_g ∩ P_p| and
//! IoU = I / (|G_g| + |P_p| − I); the table gives the same integers in one pass.
//!
//! Per image (official): best(g) = the lowest label p with the largest IoU > 0; M = #{(g,p): IoU ≥ T_a};
//! for each g with a best p: tp = I, fp = |P_p| − I, fn = |G_g| − I summed into TP, FP, FN, and the pair is CL
//! (P ≥ T and R ≥ T), ML (R < T) or EL (otherwise); Pixel IU = TP/(TP+FP+FN), Line IU = CL/(CL+ML+EL),
//! DR = M/N1, RA = M/N2 (guard on N1 only), FM = 2·(DR·RA)/(DR+RA).

use super::assignment::max_weight_matching;

/// A metric value as the official script produces it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum V {
    /// A computed binary64 quotient (printed by Python as a float, e.g. `0.0`).
    Num(f64),
    /// The integer `0` of a short-circuit (printed `0`).
    Zero,
    /// 0/0 under `empty_metric = undefined` (JSON `null`).
    Undef,
    /// The official script raises ZeroDivisionError here.
    DivZero,
}

impl V {
    pub fn value(self) -> Option<f64> {
        match self {
            V::Num(x) => Some(x),
            V::Zero => Some(0.0),
            V::Undef | V::DivZero => None,
        }
    }
    fn is_zero(self) -> bool {
        self.value() == Some(0.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matching {
    /// Official: each GT line takes its best prediction (several GT lines may take the same one).
    BestPerGt,
    /// One-to-one, greedy by IoU descending; ties to the lower GT label, then the lower prediction label.
    Greedy,
    /// One-to-one, maximal total IoU.
    Hungarian,
}

#[derive(Clone, Debug)]
pub struct Params {
    pub iou_threshold: f64,
    pub pr_threshold: f64,
    pub strict: bool,
    pub matching: Matching,
    pub count_unmatched: bool,
    /// A pair failing both thresholds counts as ML and EL (`both_fail = ml+el`).
    pub both_fail_el: bool,
    /// RA guarded by N2 (and DR by N1) instead of both by N1.
    pub ra_guard_n2: bool,
    /// 0/0 gives the integer 0 (`empty_metric = zero`) instead of undefined.
    pub empty_zero: bool,
    /// Pixel IU = page-level foreground IoU instead of the matched-pairs IoU.
    pub page_pixel_iu: bool,
}

impl Params {
    pub fn official() -> Self {
        Params {
            iou_threshold: 0.75,
            pr_threshold: 0.75,
            strict: false,
            matching: Matching::BestPerGt,
            count_unmatched: false,
            both_fail_el: false,
            ra_guard_n2: false,
            empty_zero: true,
            page_pixel_iu: false,
        }
    }
}

/// Integer counts of one image (or summed over a manuscript for `aggregation = pooled`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub n1: u64,
    pub n2: u64,
    pub m: u64,
    pub tp: u64,
    pub fp: u64,
    pub fn_: u64,
    pub cl: u64,
    pub ml: u64,
    pub el: u64,
    /// Page-level foreground intersection and union (corrected Pixel IU).
    pub fg_inter: u64,
    pub fg_union: u64,
}

impl Counts {
    pub fn add(&mut self, o: &Counts) {
        self.n1 += o.n1;
        self.n2 += o.n2;
        self.m += o.m;
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
        self.cl += o.cl;
        self.ml += o.ml;
        self.el += o.el;
        self.fg_inter += o.fg_inter;
        self.fg_union += o.fg_union;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Cl,
    Ml,
    El,
    /// Failing both thresholds under `both_fail = ml+el`.
    MlEl,
    /// Unmatched line counted by `count_unmatched` (ML for GT, EL for predictions).
    Unmatched,
    /// Not counted by the chosen mode (no overlapping prediction in official mode).
    NotCounted,
}

impl Class {
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Cl => "CL",
            Class::Ml => "ML",
            Class::El => "EL",
            Class::MlEl => "ML+EL",
            Class::Unmatched => "unmatched",
            Class::NotCounted => "not counted",
        }
    }
}

/// What happened to one GT line.
#[derive(Clone, Debug, PartialEq)]
pub struct GtLine {
    /// The prediction label it is paired with.
    pub pred: Option<u32>,
    pub intersection: u64,
    pub iou: f64,
    pub precision: f64,
    pub recall: f64,
    pub class: Class,
}

/// The table of one image: sizes indexed by label (index 0 = background, unused) and the non-zero
/// intersections `(g, p, I)` sorted by `(g, p)`.
pub struct Table<'a> {
    pub gt_size: &'a [u64],
    pub pred_size: &'a [u64],
    pub pairs: &'a [(u32, u32, u64)],
    pub fg_inter: u64,
    pub fg_union: u64,
}

pub struct ImageMatch {
    pub counts: Counts,
    pub gt: Vec<GtLine>,
    /// For each prediction label (index 0 unused): the GT lines paired with it, and whether it counts.
    pub pred_gt: Vec<Vec<u32>>,
    pub pred_counted: Vec<bool>,
}

/// IoU of integers in binary64, 0 when the intersection is 0.
pub fn iou(i: u64, g: u64, p: u64) -> f64 {
    if i == 0 {
        0.0
    } else {
        i as f64 / (g + p - i) as f64
    }
}

fn ratio(n: u64, d: u64) -> f64 {
    if d == 0 {
        0.0
    } else {
        n as f64 / d as f64
    }
}

/// Pairs GT and predicted lines and classifies every pair (spec 3; options of spec 5).
pub fn match_image(t: &Table, prm: &Params) -> ImageMatch {
    let n1 = t.gt_size.len().saturating_sub(1);
    let n2 = t.pred_size.len().saturating_sub(1);
    let mut counts = Counts {
        n1: n1 as u64,
        n2: n2 as u64,
        fg_inter: t.fg_inter,
        fg_union: t.fg_union,
        ..Counts::default()
    };
    // (g, p, I) of the chosen pairs.
    let chosen = match prm.matching {
        Matching::BestPerGt => best_per_gt(t, prm, &mut counts.m),
        Matching::Greedy => greedy(t),
        Matching::Hungarian => hungarian(t),
    };
    if prm.matching != Matching::BestPerGt {
        counts.m = chosen
            .iter()
            .filter(|&&(g, p, n)| t.iou(g, p, n) >= prm.iou_threshold)
            .count() as u64;
    }
    let blank = GtLine {
        pred: None,
        intersection: 0,
        iou: 0.0,
        precision: 0.0,
        recall: 0.0,
        class: Class::NotCounted,
    };
    let mut gt = vec![blank; n1 + 1];
    let mut pred_gt: Vec<Vec<u32>> = vec![Vec::new(); n2 + 1];
    let mut pred_counted = vec![false; n2 + 1];
    for &(g, p, n) in &chosen {
        let (sg, sp) = (t.gt(g), t.pred(p));
        let (tp, fp, fn_) = (n, sp - n, sg - n);
        counts.tp += tp;
        counts.fp += fp;
        counts.fn_ += fn_;
        let pr = ratio(tp, tp + fp);
        let rc = ratio(tp, tp + fn_);
        let class = classify(pr, rc, prm, &mut counts);
        if let Some(slot) = gt.get_mut(g as usize) {
            *slot = GtLine {
                pred: Some(p),
                intersection: n,
                iou: iou(n, sg, sp),
                precision: pr,
                recall: rc,
                class,
            };
        }
        if let Some(v) = pred_gt.get_mut(p as usize) {
            v.push(g);
        }
        if let Some(c) = pred_counted.get_mut(p as usize) {
            *c = true;
        }
    }
    if prm.count_unmatched {
        for line in gt.iter_mut().skip(1) {
            if line.pred.is_none() {
                counts.ml += 1;
                line.class = Class::Unmatched;
            }
        }
        for c in pred_counted.iter_mut().skip(1) {
            if !*c {
                counts.el += 1;
                *c = true;
            }
        }
    }
    ImageMatch {
        counts,
        gt,
        pred_gt,
        pred_counted,
    }
}

impl Table<'_> {
    /// The size of GT line `g` (0 beyond the table).
    fn gt(&self, g: u32) -> u64 {
        self.gt_size.get(g as usize).copied().unwrap_or(0)
    }
    /// The size of predicted line `p` (0 beyond the table).
    fn pred(&self, p: u32) -> u64 {
        self.pred_size.get(p as usize).copied().unwrap_or(0)
    }
    /// The IoU of GT line `g` and predicted line `p`, whose intersection is `n`.
    fn iou(&self, g: u32, p: u32, n: u64) -> f64 {
        iou(n, self.gt(g), self.pred(p))
    }
}

/// Each GT line's best prediction by IoU (the first of equal ones, none at IoU 0), as the official loop picks
/// them; `m` counts every pair at or above the IoU threshold (all n1 × n2 pairs for a threshold ≤ 0).
fn best_per_gt(t: &Table, prm: &Params, m: &mut u64) -> Vec<(u32, u32, u64)> {
    let mut chosen = Vec::new();
    let mut i = 0;
    while i < t.pairs.len() {
        let g = t.pairs[i].0;
        let (mut v, mut b) = (0.0f64, None);
        while i < t.pairs.len() && t.pairs[i].0 == g {
            let (_, p, n) = t.pairs[i];
            let x = t.iou(g, p, n);
            if x >= prm.iou_threshold {
                *m += 1;
            }
            if x > v {
                v = x;
                b = Some((p, n));
            }
            i += 1;
        }
        if let Some((p, n)) = b {
            chosen.push((g, p, n));
        }
    }
    if prm.iou_threshold <= 0.0 {
        // Zero-IoU pairs pass a non-positive threshold in the official all-pairs loop.
        let (n1, n2) = (
            t.gt_size.len().saturating_sub(1),
            t.pred_size.len().saturating_sub(1),
        );
        *m = n1 as u64 * n2 as u64;
    }
    chosen
}

/// One-to-one pairs, taken by decreasing IoU (ties by GT, then prediction label), sorted by `(g, p)`.
fn greedy(t: &Table) -> Vec<(u32, u32, u64)> {
    let (n1, n2) = (
        t.gt_size.len().saturating_sub(1),
        t.pred_size.len().saturating_sub(1),
    );
    let mut all: Vec<(f64, u32, u32, u64)> = t
        .pairs
        .iter()
        .map(|&(g, p, n)| (t.iou(g, p, n), g, p, n))
        .collect();
    all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut gt_used = vec![false; n1 + 1];
    let mut pr_used = vec![false; n2 + 1];
    let mut chosen = Vec::new();
    for (_, g, p, n) in all {
        let (gu, pu) = (g as usize, p as usize);
        if gu <= n1 && pu <= n2 && !gt_used[gu] && !pr_used[pu] {
            gt_used[gu] = true;
            pr_used[pu] = true;
            chosen.push((g, p, n));
        }
    }
    chosen.sort_unstable();
    chosen
}

/// The one-to-one pairs of largest total IoU ([`max_weight_matching`]), sorted by `(g, p)`.
fn hungarian(t: &Table) -> Vec<(u32, u32, u64)> {
    let weighted: Vec<(u32, u32, f64)> = t
        .pairs
        .iter()
        .map(|&(g, p, n)| (g, p, t.iou(g, p, n)))
        .collect();
    let mut chosen = Vec::new();
    for (g, p) in max_weight_matching(&weighted) {
        if let Ok(k) = t.pairs.binary_search_by(|x| (x.0, x.1).cmp(&(g, p))) {
            chosen.push(t.pairs[k]);
        }
    }
    chosen.sort_unstable();
    chosen
}

/// The class of a pair of precision `pr` and recall `rc`, counted in `counts`: CL when both pass the
/// threshold, ML when the recall fails (also EL with `both_fail_el` when the precision fails too), else EL.
fn classify(pr: f64, rc: f64, prm: &Params, counts: &mut Counts) -> Class {
    let pass = |x: f64| {
        if prm.strict {
            x > prm.pr_threshold
        } else {
            x >= prm.pr_threshold
        }
    };
    if pass(pr) && pass(rc) {
        counts.cl += 1;
        Class::Cl
    } else if !pass(rc) {
        counts.ml += 1;
        if prm.both_fail_el && !pass(pr) {
            counts.el += 1;
            Class::MlEl
        } else {
            Class::Ml
        }
    } else {
        counts.el += 1;
        Class::El
    }
}

/// The five metrics from counts (spec 3 and 4 #5–#7).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Five {
    pub pixel_iu: V,
    pub line_iu: V,
    pub dr: V,
    pub ra: V,
    pub fm: V,
}

impl Five {
    pub fn get(&self, k: usize) -> V {
        [self.pixel_iu, self.line_iu, self.dr, self.ra, self.fm][k]
    }
}

pub const IDS: [&str; 5] = ["pixel_iu", "line_iu", "dr", "ra", "fm"];

pub fn five(c: &Counts, prm: &Params) -> Five {
    let empty = if prm.empty_zero { V::Zero } else { V::Undef };
    let q = |n: u64, d: u64| {
        if d == 0 {
            empty
        } else {
            V::Num(n as f64 / d as f64)
        }
    };
    let pixel_iu = if prm.page_pixel_iu {
        q(c.fg_inter, c.fg_union)
    } else {
        q(c.tp, c.tp + c.fp + c.fn_)
    };
    let line_iu = q(c.cl, c.cl + c.ml + c.el);
    let (dr, ra) = if prm.ra_guard_n2 {
        (q(c.m, c.n1), q(c.m, c.n2))
    } else if c.n1 == 0 {
        (empty, empty)
    } else if c.n2 == 0 {
        (V::Num(c.m as f64 / c.n1 as f64), V::DivZero)
    } else {
        (
            V::Num(c.m as f64 / c.n1 as f64),
            V::Num(c.m as f64 / c.n2 as f64),
        )
    };
    let fm = match (dr, ra) {
        (V::DivZero, _) | (_, V::DivZero) => V::DivZero,
        (V::Undef, o) | (o, V::Undef) => {
            if o.is_zero() {
                V::Zero
            } else {
                V::Undef
            }
        }
        (a, b) => {
            let (a, b) = (a.value().unwrap_or(0.0), b.value().unwrap_or(0.0));
            if a + b == 0.0 {
                V::Zero
            } else {
                V::Num(2.0 * (a * b) / (a + b))
            }
        }
    };
    Five {
        pixel_iu,
        line_iu,
        dr,
        ra,
        fm,
    }
}
