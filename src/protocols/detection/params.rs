//! The options of `detection` (docs/specs/families.md section 3) turned into pycocotools' `Params`.

use super::UsageError;
use crate::metrics::coco::{linspace, Params, STAT_IDS};
use crate::protocols::options::{List, OptionSet, OptionSpec};

/// Caps on the parameter lists (the per-image state is areas × thresholds × detections bytes).
const MAX_THRESHOLDS: usize = 101;
const MAX_AREAS: usize = 16;

pub const DEFAULT_IOU: &str = "0.50:0.05:0.95";
pub const DEFAULT_AREAS: &str = "all=0:1e10,small=0:1024,medium=1024:9216,large=9216:1e10";

crate::choice! {
    /// Option `metric`: the leaderboard metric, one of the 12 COCO stats ([`STAT_IDS`]).
    pub enum Metric {
        Ap = "AP",
        Ap50 = "AP50",
        Ap75 = "AP75",
        Aps = "APs",
        Apm = "APm",
        Apl = "APl",
        Ar1 = "AR1",
        Ar10 = "AR10",
        Ar100 = "AR100",
        Ars = "ARs",
        Arm = "ARm",
        Arl = "ARl",
    }
}

crate::options! {
    /// The options of `detection`.
    pub struct DetectionOptions {
        metric: Metric = ("AP", "AP"), "The leaderboard metric (one of the 12 COCO stats), shown first.";
        max_dets: List = ("1,10,100", "1,10,100"),
            "Params.maxDets: at least three distinct positive integers (sorted, as COCOeval sorts them). \
             The first AP line asks for maxDets=100 whatever this says, as summarize() does.";
        iou_thresholds: String = (DEFAULT_IOU, DEFAULT_IOU),
            "Params.iouThrs: start:step:stop (np.linspace(start, stop, round((stop-start)/step)+1)) or a \
             comma-separated list. AP50/AP75 are null when 0.5/0.75 is not one of them.";
        area_ranges: String = (DEFAULT_AREAS, DEFAULT_AREAS),
            "Params.areaRng and areaRngLbl: label=min:max, comma-separated (inclusive bounds on the GT \
             `area` field and on a detection's w·h). summarize() reads the labels all, small, medium, large.";
        use_cats: bool = ("true", "true"),
            "Params.useCats: match detections to GT of their own category (false: category-agnostic).";
    }
}

/// The option table (`dropscore list`, the page, the config validator).
pub const OPTIONS: &[OptionSpec] = DetectionOptions::SPECS;

fn bad(name: &str, what: &str, found: &str) -> UsageError {
    UsageError(format!("option `{name}`: expected {what}, found `{found}`"))
}

fn number(name: &str, what: &str, s: &str) -> Result<f64, UsageError> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(bad(name, what, s)),
    }
}

/// `iou_thresholds`: `a:step:b` (pycocotools' own linspace construction) or a list.
pub fn iou_thresholds(s: &str) -> Result<Vec<f64>, UsageError> {
    let what =
        "start:step:stop or a comma-separated list of at most 101 distinct numbers in [0, 1]";
    let v = if s.contains(':') {
        let parts: Vec<&str> = s.split(':').collect();
        if parts.len() != 3 {
            return Err(bad("iou_thresholds", what, s));
        }
        let a = number("iou_thresholds", what, parts[0])?;
        let step = number("iou_thresholds", what, parts[1])?;
        let b = number("iou_thresholds", what, parts[2])?;
        let n = ((b - a) / step).round_ties_even() + 1.0;
        if step <= 0.0 || b < a || !(1.0..=10_000.0).contains(&n) {
            return Err(bad("iou_thresholds", what, s));
        }
        linspace(a, b, n as usize)
    } else {
        s.split(',')
            .map(|x| number("iou_thresholds", what, x))
            .collect::<Result<Vec<f64>, _>>()?
    };
    let distinct = v.iter().enumerate().all(|(i, x)| !v[..i].contains(x));
    if v.is_empty()
        || v.len() > MAX_THRESHOLDS
        || !distinct
        || v.iter().any(|x| !(0.0..=1.0).contains(x))
    {
        return Err(bad("iou_thresholds", what, s));
    }
    Ok(v)
}

/// `area_ranges`: `label=min:max,…`.
pub fn area_ranges(s: &str) -> Result<(Vec<[f64; 2]>, Vec<String>), UsageError> {
    let what = "at most 16 label=min:max pairs, comma-separated, with distinct labels";
    let mut rng = Vec::new();
    let mut lbl: Vec<String> = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (l, r) = part
            .split_once('=')
            .ok_or_else(|| bad("area_ranges", what, s))?;
        let (lo, hi) = r
            .split_once(':')
            .ok_or_else(|| bad("area_ranges", what, s))?;
        let l = l.trim().to_string();
        if l.is_empty() || lbl.contains(&l) {
            return Err(bad("area_ranges", what, s));
        }
        rng.push([
            number("area_ranges", what, lo)?,
            number("area_ranges", what, hi)?,
        ]);
        lbl.push(l);
    }
    if rng.is_empty() || rng.len() > MAX_AREAS {
        return Err(bad("area_ranges", what, s));
    }
    Ok((rng, lbl))
}

/// `max_dets`: at least 3 distinct positive integers, sorted. pycocotools uses each as a slice bound
/// (`dtind[0:maxDet]`, `dtScores[0:maxDet]`), so any positive integer is accepted, and one beyond every
/// image's detections means all of them: a value past the machine's integers (2⁶⁴ − 1 natively, 2³² − 1 in
/// the page) reads as the largest, which has that meaning.
pub fn max_dets(list: &[String]) -> Result<Vec<usize>, UsageError> {
    let what = "at least three distinct positive integers, e.g. 1,10,100";
    let joined = list.join(",");
    let mut v = list
        .iter()
        .map(|x| {
            let x = x.trim_start_matches('0');
            match x.parse::<usize>() {
                Ok(n) if n > 0 => Ok(n),
                _ if !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit()) => Ok(usize::MAX),
                _ => Err(bad("max_dets", what, &joined)),
            }
        })
        .collect::<Result<Vec<usize>, _>>()?;
    v.sort_unstable();
    v.dedup();
    if v.len() < 3 || v.len() != list.len() {
        return Err(bad("max_dets", what, &joined));
    }
    Ok(v)
}

/// The `Params` and the leaderboard metric of a run.
pub fn params(opts: &DetectionOptions) -> Result<(Params, &'static str), UsageError> {
    let metric = STAT_IDS
        .iter()
        .copied()
        .find(|m| *m == opts.metric.as_str())
        .unwrap_or("AP");
    let (area_rng, area_lbl) = area_ranges(&opts.area_ranges)?;
    let p = Params {
        iou_thrs: iou_thresholds(&opts.iou_thresholds)?,
        max_dets: max_dets(&opts.max_dets.items())?,
        area_rng,
        area_lbl,
        use_cats: opts.use_cats,
        ..Params::default()
    };
    Ok((p, metric))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_cocos() {
        let d = Params::default();
        assert_eq!(iou_thresholds(DEFAULT_IOU).unwrap(), d.iou_thrs);
        let (r, l) = area_ranges(DEFAULT_AREAS).unwrap();
        assert_eq!((r, l), (d.area_rng, d.area_lbl));
        assert_eq!(
            max_dets(&["100".into(), "1".into(), "10".into()]).unwrap(),
            vec![1, 10, 100]
        );
        assert!(max_dets(&["1".into(), "10".into()]).is_err());
        assert_eq!(iou_thresholds("0.5,0.75").unwrap(), vec![0.5, 0.75]);
        assert!(iou_thresholds("0.5:0:1").is_err());
    }
}
