//! One image pair: decode both masks, label them, build the contingency table, match and count (spec 2–4),
//! with the per-image diagnostics of spec 6.

use super::labels::{colour_labels, components, contingency, count_runs, Contingency, Run};
use super::layout::Job;
use crate::diag::Diagnostic;
use crate::formats::png_mask::{decode_gray, decode_rgb, Mask};
use crate::metrics::fest::{match_image, ImageMatch, Params, Table};
use crate::report::Mode;

/// Decoding settings.
pub struct Decode {
    pub eight: bool,
    pub wrap: bool,
    /// `None` = lowest colour.
    pub background: Option<u32>,
    pub components: bool,
    pub max_pixels: u64,
    /// The run's memory budget: images whose component tables would exceed it are refused before labelling.
    pub budget: crate::budget::Budget,
}

/// Bytes per pixel of one image pair (the GT mask 1, the prediction's colours 4 and labels 4, slack 4).
const BYTES_PER_PIXEL: u64 = 13;
/// Bytes per GT run, measured: the run 16, its union–find slots 8, a contingency segment 16 (twice while
/// merged), GT sizes, the matching's per-component tables and the report's, with vector growth. 64 MP of
/// isolated dots (16 million runs) peaked at 3.1 GB: (3.1 GB − 64 M × 13) / 16 M ≈ 144.
const BYTES_PER_GT_RUN: u64 = 160;
/// Bytes per run of a prediction read as components: as a GT run, plus a label's colour list.
const BYTES_PER_PRED_RUN: u64 = 224;

/// Refuses (before labelling) an image whose runs would take the component tables past the budget.
fn fits(
    path: &str,
    what: &str,
    runs: u64,
    per_run: u64,
    pixels: u64,
    budget: crate::budget::Budget,
) -> Result<(), Box<Diagnostic>> {
    let need = pixels
        .saturating_mul(BYTES_PER_PIXEL)
        .saturating_add(runs.saturating_mul(per_run));
    budget
        .check(&format!("labelling {what} ({runs} runs of pixels, {pixels} pixels)"), need)
        .map_err(|msg| {
            Box::new(
                Diagnostic::error("input.limit", msg)
                    .file(path)
                    .found(format!("{runs} runs"))
                    .hint("A text-line mask has a few thousand runs per megapixel; this one is noise or a pattern, not lines."),
            )
        })
}

/// Everything known about one scored image.
pub struct Scored {
    pub width: u32,
    pub height: u32,
    pub gt_runs: Vec<Run>,
    /// Prediction label per pixel (0 = background).
    pub pred_labels: Vec<u32>,
    pub gt_size: Vec<u64>,
    pub pred_size: Vec<u64>,
    /// Colours of each prediction label.
    pub colours: Vec<Vec<u32>>,
    pub pairs: Vec<(u32, u32, u64)>,
    pub matched: ImageMatch,
    pub missing_pred: bool,
}

pub(super) fn read(e: &crate::input::Entry) -> Result<Vec<u8>, Box<Diagnostic>> {
    e.read_all()
        .map_err(|err| Box::new(Diagnostic::read_error(&e.path, err)))
}

pub fn hex(c: u32) -> String {
    format!("#{:06x}", c & 0xFF_FFFF)
}

fn rgb(c: u32) -> String {
    format!("({},{},{})", c >> 16 & 255, c >> 8 & 255, c & 255)
}

/// Scores one job; `Err` = the image cannot be scored (its diagnostics are in `diags`).
pub fn score(
    job: &Job,
    dec: &Decode,
    prm: &Params,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
) -> Option<Scored> {
    let gt_path = &job.gt.path;
    let gt = match read(job.gt).and_then(|b| decode_gray(gt_path, &b, dec.max_pixels)) {
        Ok(m) => m,
        Err(d) => {
            diags.push(*d);
            return None;
        }
    };
    let (w, h) = (gt.width, gt.height);
    if gt.lost_count > 0 {
        diags.push(lost_foreground(&gt, gt_path));
    }
    let pixels_n = w as u64 * h as u64;
    let gt_run_count = count_runs(w, h, |i| gt.pixels[i] != 0);
    if let Err(d) = fits(
        gt_path,
        "the GT mask",
        gt_run_count,
        BYTES_PER_GT_RUN,
        pixels_n,
        dec.budget,
    ) {
        diags.push(*d);
        return None;
    }
    let (gt_runs, n1) = components(w, h, dec.eight, |i| gt.pixels[i] != 0);
    drop(gt);
    if n1 == 0 {
        diags.push(empty_gt(gt_path));
    }
    let (mut pixels, missing_pred) = read_pred(job, (w, h), dec, mode, diags)?;
    let pred_path = job.pred.map(|p| p.path.clone()).unwrap_or_default();
    let (pred_size, colours) = if dec.components && mode == Mode::Corrected {
        let bg = dec
            .background
            .unwrap_or_else(|| pixels.iter().copied().min().unwrap_or(0));
        let pred_runs = count_runs(w, h, |i| pixels[i] != bg);
        let all = gt_run_count.saturating_mul(BYTES_PER_GT_RUN) / BYTES_PER_PRED_RUN + pred_runs;
        if let Err(d) = fits(
            &pred_path,
            "the prediction's components",
            all,
            BYTES_PER_PRED_RUN,
            pixels_n,
            dec.budget,
        ) {
            diags.push(*d);
            return None;
        }
        pred_components(&mut pixels, w, h, bg)
    } else {
        let l = colour_labels(&mut pixels, dec.background, dec.wrap);
        if !missing_pred {
            pred_warnings(&l, &pred_path, n1, pixels_n, dec, mode, diags);
        }
        (l.size, l.colours)
    };
    let c = contingency(&gt_runs, n1, w, &pixels, pred_size.len());
    let matched = match_image(&table_of(&c, &pred_size), prm);
    Some(Scored {
        width: w,
        height: h,
        gt_runs,
        pred_labels: pixels,
        gt_size: c.gt_size,
        pred_size,
        colours,
        pairs: c.pairs,
        matched,
        missing_pred,
    })
}

/// The matching's view of an image pair: the contingency table, the label sizes and the page-level
/// foreground intersection and union.
fn table_of<'c>(c: &'c Contingency, pred_size: &'c [u64]) -> Table<'c> {
    let pred_fg: u64 = pred_size.iter().skip(1).sum();
    let gt_fg: u64 = c.gt_size.iter().sum();
    Table {
        gt_size: &c.gt_size,
        pred_size,
        pairs: &c.pairs,
        fg_inter: c.fg_inter,
        fg_union: gt_fg + pred_fg - c.fg_inter,
    }
}

/// A GT mask without any line.
fn empty_gt(gt_path: &str) -> Diagnostic {
    Diagnostic::warning(
        "fest.gt.empty",
        "GT image without any text-line pixel (N1 = 0)",
    )
    .file(gt_path)
    .hint(
        "Check that this is the right mask; its metrics are 0 (official) or undefined (corrected).",
    )
    .official("all five metrics 0, counted in the mean")
}

/// The warning on GT foreground read as background: 16-bit values below 256, or near-black colours.
fn lost_foreground(gt: &Mask<u8>, gt_path: &str) -> Diagnostic {
    let w = gt.width;
    let (x, y) = (
        gt.lost_first % w.max(1) as u64,
        gt.lost_first / w.max(1) as u64,
    );
    let (code, what) = if gt.sixteen_bit {
        (
            "fest.gt.sixteen_bit_low",
            "16-bit foreground values below 256 read as background (OpenCV keeps the high byte)",
        )
    } else {
        (
            "fest.gt.dark_foreground",
            "near-black colours read as background (their truncated luma is 0)",
        )
    };
    let mut d = Diagnostic::warning(code, format!("{} pixels: {what}", gt.lost_count))
        .file(gt_path)
        .found(format!("{} pixels, first at ({x}, {y})", gt.lost_count))
        .hint("Write the GT as white (255) lines on black (0), 8-bit.")
        .official("reads them as background");
    d.pixel = Some([x, y]);
    d
}

/// The prediction's colours at the GT's size `(w, h)`, and whether it is missing (then all background in
/// corrected mode; official mode fails, as the script does). `None` after an error.
fn read_pred(
    job: &Job,
    (w, h): (u32, u32),
    dec: &Decode,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Vec<u32>, bool)> {
    let gt_path = &job.gt.path;
    let Some(p) = job.pred else {
        let want = format!("{}.png", job.stem);
        if mode == Mode::Official {
            diags.push(
                Diagnostic::error(
                    "fest.official.missing_prediction",
                    format!("no prediction `{want}` for this GT image"),
                )
                .file(gt_path)
                .expected(want)
                .hint("Add the prediction, or use corrected mode to score it as all background.")
                .official("crashes (cvtColor on None)"),
            );
            return None;
        }
        diags.push(
            Diagnostic::warning(
                "fest.official.missing_prediction",
                format!("no prediction `{want}`: scored as all background"),
            )
            .file(gt_path)
            .hint("Add the prediction if it exists.")
            .official("crashes (cvtColor on None)"),
        );
        return Some((vec![0u32; w as usize * h as usize], true));
    };
    match read(p).and_then(|b| decode_rgb(&p.path, &b, dec.max_pixels)) {
        Ok(m) if (m.width, m.height) != (w, h) => {
            diags.push(
                Diagnostic::error("fest.input.size_mismatch", "prediction and GT sizes differ")
                    .file(&p.path)
                    .expected(format!("{w}×{h} (as {gt_path})"))
                    .found(format!("{}×{}", m.width, m.height))
                    .hint("Predict on the full page at the GT's resolution.")
                    .official("crashes (broadcast error) or meaningless values"),
            );
            None
        }
        Ok(m) => Some((m.pixels, false)),
        Err(d) => {
            diags.push(*d);
            None
        }
    }
}

/// Corrected mode's reading of a prediction as connected components of non-background (`bg`) pixels: the
/// pixels become component labels; returns each label's size (0: the background) and up to 4 of its colours.
fn pred_components(pixels: &mut Vec<u32>, w: u32, h: u32, bg: u32) -> (Vec<u64>, Vec<Vec<u32>>) {
    let (runs, n) = components(w, h, true, |i| pixels[i] != bg);
    let mut lab = vec![0u32; pixels.len()];
    let mut size = vec![0u64; n as usize + 1];
    let mut cols = vec![Vec::new(); n as usize + 1];
    for r in &runs {
        let base = r.y as usize * w as usize;
        for x in r.x0..r.x1 {
            let c = pixels[base + x as usize];
            if !cols[r.label as usize].contains(&c) && cols[r.label as usize].len() < 4 {
                cols[r.label as usize].push(c);
            }
            lab[base + x as usize] = r.label;
        }
        size[r.label as usize] += (r.x1 - r.x0) as u64;
    }
    size[0] = pixels.len() as u64 - size.iter().skip(1).sum::<u64>();
    *pixels = lab;
    (size, cols)
}

fn pred_warnings(
    l: &super::labels::PredLabels,
    path: &str,
    n1: u32,
    npix: u64,
    dec: &Decode,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
) {
    if !l.has_black && l.distinct > 0 {
        let low = l.lowest.unwrap_or(0);
        let what = if dec.background.is_none() {
            format!(
                "no black pixel: the lowest colour {} {} is read as background",
                rgb(low),
                hex(low)
            )
        } else {
            format!(
                "no black pixel: every colour is a line, including the lowest {} {}",
                rgb(low),
                hex(low)
            )
        };
        diags.push(
            Diagnostic::warning("fest.pred.no_black", what)
                .file(path)
                .found(rgb(low))
                .hint("Paint the background black (0,0,0).")
                .official("the smallest colour is background"),
        );
    }
    if l.distinct == 2 && n1 > 1 && !(dec.components && mode == Mode::Corrected) {
        diags.push(
            Diagnostic::warning("fest.pred.binary_mask", format!("binary mask (2 colours): read as one predicted line against {n1} GT lines"))
                .file(path)
                .hint("Colour each predicted line differently (an instance map); corrected mode can read components with --set pred_encoding=components.")
                .official("one predicted line"),
        );
    }
    if let Some((c, n)) = l.largest_non_black {
        if n * 2 > npix {
            diags.push(
                Diagnostic::warning("fest.pred.large_region", format!("colour {} {} covers {n} of {npix} pixels (more than half the page)", rgb(c), hex(c)))
                    .file(path)
                    .found(rgb(c))
                    .hint("A white or coloured background is scored as one giant line; use black (0,0,0).")
                    .official("counted as a line"),
            );
        }
    }
    if l.distinct > 256 {
        diags.push(
            Diagnostic::warning(
                "fest.pred.label_wrap",
                if dec.wrap {
                    format!("{} colours: labels wrap modulo 256 (ranks r and r+256 merge; 256, 512, … are background)", l.distinct)
                } else {
                    format!("{} colours: more than the official 256 labels (no wrap in this mode)", l.distinct)
                },
            )
            .file(path)
            .found(format!("{} colours", l.distinct))
            .hint("Use at most 255 line colours per page.")
            .official("labels stored as uint8 wrap modulo 256"),
        );
    }
}
