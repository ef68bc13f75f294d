//! `fest`'s bootstrap replicates (docs/specs/statistics.md sections 1 and 2): unit = image, strata =
//! manuscripts (each drawn separately, its size kept). Replicate r equals, to 1e-12 relative, the protocol's
//! own Line IU on the data set in which every image appears as many times as drawn (copies `p{i}_{c}` next to
//! each other in pairing order, in their manuscript), written out and scored from scratch: random text-line
//! masks, both modes, per-image and pooled aggregation.

mod common;
use common::resample::xorshift as rng;
use common::*;
use dropscore::input::{Input, Role};
use dropscore::stats::{interval, Resampler};
use dropscore::{Mode, Report};

fn encode(w: u32, h: u32, color: png::ColorType, px: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut e = png::Encoder::new(&mut out, w, h);
        e.set_color(color);
        e.set_depth(png::BitDepth::Eight);
        e.write_header().unwrap().write_image_data(px).unwrap();
    }
    out
}

const W: u32 = 40;
const H: u32 = 32;

/// One page: its GT mask (white lines on black) and its predicted colour mask.
#[derive(Clone)]
struct Page {
    gt: Vec<u8>,
    pred: Vec<u8>,
}

/// Up to four horizontal lines (rows 8·j … 8·j + 3), each predicted shifted, cut or missed, and a spurious
/// predicted line now and then; at least one predicted line (an empty prediction stops the official script).
fn random_page(next: &mut impl FnMut(u64) -> u64) -> Page {
    let mut gt = vec![0u8; (W * H) as usize];
    let mut pred = vec![0u8; (W * H * 3) as usize];
    let mut any = false;
    let paint = |pred: &mut Vec<u8>, y0: u32, x0: u32, x1: u32, colour: [u8; 3]| {
        for y in y0..(y0 + 4).min(H) {
            for x in x0..x1.min(W) {
                let i = ((y * W + x) * 3) as usize;
                pred[i..i + 3].copy_from_slice(&colour);
            }
        }
    };
    for j in 0..4u32 {
        if next(4) == 0 {
            continue;
        }
        let (x0, x1) = (next(10) as u32, 20 + next(20) as u32);
        for y in 8 * j..8 * j + 4 {
            for x in x0..x1 {
                gt[(y * W + x) as usize] = 255;
            }
        }
        if next(5) != 0 {
            let y = (8 * j + next(3) as u32).saturating_sub(1);
            let colour = [40 * (j as u8 + 1), 10 * next(20) as u8, 200];
            paint(
                &mut pred,
                y,
                x0 + next(6) as u32,
                x1 - next(8) as u32,
                colour,
            );
            any = true;
        }
    }
    if !any || next(4) == 0 {
        paint(&mut pred, 8 * next(4) as u32 + 5, 30, 39, [250, 250, 1]);
    }
    Page { gt, pred }
}

struct Case {
    /// Manuscripts, each its pages in pairing order.
    manuscripts: Vec<Vec<Page>>,
    mode: Mode,
    set: Vec<(&'static str, &'static str)>,
}

fn random_case(seed: u64) -> Case {
    let mut next = rng(seed);
    let manuscripts = (0..1 + next(3))
        .map(|_| (0..2 + next(4)).map(|_| random_page(&mut next)).collect())
        .collect();
    let mode = if next(2) == 0 {
        Mode::Official
    } else {
        Mode::Corrected
    };
    let mut set = Vec::new();
    if next(3) == 0 {
        set.push(("aggregation", "pooled"));
    }
    if next(3) == 0 {
        set.push(("iou_threshold", "0.5"));
    }
    Case {
        manuscripts,
        mode,
        set,
    }
}

/// The data set layout with page i of manuscript m copied `w[m][i]` times (`p{i}_{c}`).
fn inputs(case: &Case, w: &[Vec<u32>]) -> Vec<Input> {
    let mut v = Vec::new();
    for (m, pages) in case.manuscripts.iter().enumerate() {
        for (i, (p, &k)) in pages.iter().zip(&w[m]).enumerate() {
            for c in 0..k {
                let stem = format!("p{i:03}_{c:03}");
                v.push(bytes_input(
                    &format!("ref/M{m}/text-line-gt-M{m}/test/{stem}.png"),
                    Some(Role::Gt),
                    encode(W, H, png::ColorType::Grayscale, &p.gt),
                ));
                v.push(bytes_input(
                    &format!("res/M{m}/{stem}.png"),
                    Some(Role::Pred),
                    encode(W, H, png::ColorType::Rgb, &p.pred),
                ));
            }
        }
    }
    v
}

fn score(case: &Case, w: &[Vec<u32>], extra: &[(&str, &str)]) -> Report {
    let mut set = case.set.clone();
    set.extend_from_slice(extra);
    score_inputs("fest", inputs(case, w), case.mode, &set)
}

fn split(case: &Case, flat: &[u32]) -> Vec<Vec<u32>> {
    let mut at = 0;
    case.manuscripts
        .iter()
        .map(|p| {
            at += p.len();
            flat[at - p.len()..at].to_vec()
        })
        .collect()
}

/// Replicates against the repeated data sets; false when the case has no units (the official script fails).
fn check(case: &Case, seeds: &[u128]) -> bool {
    let sizes: Vec<usize> = case.manuscripts.iter().map(Vec::len).collect();
    let ones: Vec<Vec<u32>> = sizes.iter().map(|&n| vec![1; n]).collect();
    let r = score(case, &ones, &[("bootstrap", "1")]);
    let Some(units) = r.units.0.as_deref() else {
        assert_eq!(r.scores.get("line_iu"), None, "{:#?}", r.diagnostics);
        return false;
    };
    assert_eq!((units.unit, units.strata), ("image", Some("manuscript")));
    assert_eq!(units.sizes, sizes);
    let n = units.count();
    assert_eq!(
        units.replicate.values(&vec![1; n])[0],
        r.scores.get("line_iu")
    );
    let mut all: Vec<Vec<u32>> = seeds
        .iter()
        .map(|&s| {
            let mut d = Resampler::new(s, &sizes, 1);
            let mut w = vec![0; n];
            assert!(d.next_weights(&mut w));
            w
        })
        .collect();
    all.push((0..n as u32).map(|u| u % 3).collect());
    for w in &all {
        let per = split(case, w);
        if per.iter().any(|s| s.iter().sum::<u32>() == 0) {
            continue; // a manuscript without images: not a bootstrap draw (sizes are kept)
        }
        let full = score(case, &per, &[]);
        let v = units.replicate.values(w)[0];
        assert!(
            close(v, full.scores.get("line_iu")),
            "replicate {v:?}, repeated set {:?} (weights {per:?}, {:?} {:?})",
            full.scores.get("line_iu"),
            case.mode,
            case.set
        );
    }
    true
}

#[test]
fn replicates_equal_repeated_random_data_sets() {
    let mut checked = 0;
    for case in 1..=30u64 {
        checked += check(&random_case(case), &[case as u128, 300 + case as u128]) as u32;
    }
    assert!(checked >= 20, "{checked}");
}

/// The report's interval (B = 40, seed 9, confidence 0.9) equals the percentile interval of the Line IU of the
/// 40 repeated data sets of the stratified draws; a second scoring gives the same intervals.
#[test]
fn intervals_in_the_report_equal_those_of_the_repeated_sets() {
    let case = (1..)
        .map(random_case)
        .find(|c| c.manuscripts.len() > 1 && check(c, &[]))
        .unwrap();
    let sizes: Vec<usize> = case.manuscripts.iter().map(Vec::len).collect();
    let ones: Vec<Vec<u32>> = sizes.iter().map(|&n| vec![1; n]).collect();
    let set = [("bootstrap", "40"), ("seed", "9"), ("confidence", "0.9")];
    let r = score(&case, &ones, &set);
    let s = r.statistics.as_ref().unwrap();
    assert_eq!(
        (s.unit.as_str(), s.strata.as_deref()),
        ("image", Some("manuscript"))
    );
    let n: usize = sizes.iter().sum();
    let mut d = Resampler::new(9, &sizes, 40);
    let mut w = vec![0; n];
    let mut column = Vec::new();
    while d.next_weights(&mut w) {
        column.push(score(&case, &split(&case, &w), &[]).scores.get("line_iu"));
    }
    let want = interval(&column, 0.9);
    let got = &r
        .intervals
        .0
        .iter()
        .find(|(m, _)| m == "line_iu")
        .unwrap()
        .1;
    assert!(
        close(got.low, want.low) && close(got.high, want.high),
        "{got:?} {want:?}"
    );
    assert!(close(got.se, want.se), "{got:?} {want:?}");
    assert_eq!(got.left_out, want.left_out as u64);
    assert_eq!(
        score(&case, &ones, &set).intervals,
        r.intervals,
        "deterministic"
    );
}
