//! Protocol `fest`: ICDAR 2025 FEST text-line segmentation from PNG masks (docs/specs/fest.md). GT lines are the
//! connected components of the GT mask, predicted lines the colours of the prediction; per image Pixel IU,
//! Line IU, DR, RA and FM as `evaluate_util.py` computes them (from a contingency table), numpy means per
//! manuscript, and the leaderboard mean of the manuscripts' Line IU.

mod image;
mod labels;
mod layout;
mod options;
pub mod overlay;
pub mod page_image;
mod preflight;
mod report;
mod text;
mod units;

use options::{Aggregation, BothFail, Connectivity, EmptyMetric, PixelIu, PredEncoding, RaGuard};
pub use options::{FestOptions, OPTIONS};
pub use text::{py_float, render_text};

use super::options::OptionSet;
use super::{Class, Example, Progress, Protocol, ProtocolInfo, Run, UsageError};
use crate::diag::Diagnostic;
use crate::input::kind::Kind;
use crate::input::Role;
use crate::metrics::fest::{Matching, Params};
use crate::report::{Mode, Report};

pub const INFO: ProtocolInfo = ProtocolInfo {
    id: "fest",
    name: "ICDAR 2025 FEST text-line segmentation",
    built: true,
    summary: "Pixel IU, Line IU, Detection Rate, Recognition Accuracy and F-measure from GT and predicted PNG masks, \
              as the FEST 2025 evaluate_util.py computes them: per image, numpy means per manuscript, and the \
              leaderboard mean of the manuscripts' Line IU. Overlays show where lines were missed or merged.",
    gt_files: "GT masks (PNG, white lines on black): two files, a folder, or the data set layout \
               <MS>/text-line-gt-<MS>/<split>/NNN.png; folders or zips; Codalab ref/.",
    pred_files: "Prediction masks (PNG, one colour per line on black), named like the GT images: a folder, \
                 <MS>/NNN.png per manuscript, or a zip (Codalab res/).",
    options: FestOptions::SPECS,
    examples: &[Example {
        id: "synthetic",
        label: "Synthetic 40×20 page (3 GT lines, 5 predicted)",
        gt: &["examples/fest/gt/001.png"],
        pred: &["examples/fest/pred/001.png"],
        set: &[],
    }],
    official_noun: "official script",
    head_len: 64,
};

/// The decoding and metric settings of one run.
pub(crate) struct Settings {
    pub decode: image::Decode,
    pub params: Params,
    pub pooled: bool,
}

/// The settings of one run from its options and memory budget; a background colour that is not one, the
/// component encoding in official mode and a size cap that is not positive are usage errors.
pub(crate) fn settings(
    opts: &FestOptions,
    budget: crate::budget::Budget,
    mode: Mode,
) -> Result<Settings, UsageError> {
    let background = match opts.background_colour.as_str() {
        "lowest" | "" => None,
        s => {
            let h = s.trim_start_matches('#');
            match (h.len(), u32::from_str_radix(h, 16)) {
                (6, Ok(v)) => Some(v),
                _ => {
                    return Err(UsageError(format!(
                        "option `background_colour`: expected lowest or an RGB hex colour like #000000, found `{s}`"
                    )))
                }
            }
        }
    };
    let components = opts.pred_encoding == PredEncoding::Components;
    if components && mode == Mode::Official {
        return Err(UsageError(
            "option `pred_encoding`: components is available in corrected mode only".into(),
        ));
    }
    let max_mp = opts.max_megapixels;
    if max_mp <= 0 {
        return Err(UsageError(
            "option `max_megapixels`: expected a positive integer".into(),
        ));
    }
    Ok(Settings {
        decode: image::Decode {
            eight: opts.connectivity != Connectivity::Four,
            wrap: opts.label_wrap,
            background,
            components,
            max_pixels: crate::formats::png_mask::pixel_cap(max_mp as u64, budget, 13),
            budget,
        },
        params: Params {
            iou_threshold: opts.iou_threshold.unwrap_or(0.75),
            pr_threshold: opts.pr_threshold.unwrap_or(0.75),
            strict: opts.strict_threshold,
            matching: match opts.matching {
                options::Matching::Greedy => Matching::Greedy,
                options::Matching::Hungarian => Matching::Hungarian,
                options::Matching::BestPerGt => Matching::BestPerGt,
            },
            count_unmatched: opts.count_unmatched,
            both_fail_el: opts.both_fail == BothFail::MlEl,
            ra_guard_n2: opts.ra_guard == RaGuard::N2,
            empty_zero: opts.empty_metric == EmptyMetric::Zero,
            page_pixel_iu: opts.pixel_iu == PixelIu::Page,
        },
        pooled: opts.aggregation == Aggregation::Pooled,
    })
}

/// The `fest` protocol.
pub struct Fest;

impl Protocol for Fest {
    const INFO: &'static ProtocolInfo = &INFO;
    type Options = FestOptions;

    /// The one leaderboard value, the mean line IU.
    fn score_ids(&self, _: &FestOptions) -> Option<Vec<String>> {
        Some(vec![report::LEADERBOARD.to_string()])
    }

    fn extras(&self) -> &'static crate::protocols::views::Extras {
        &overlay::EXTRAS
    }
    /// The spec's own rules read the GT side (page images are reported and skipped, any other non-PNG entry
    /// is `fest.official.gt_unreadable`) and any prediction that is not a valid PNG (`fest.input.bad_png`
    /// with its byte offset, docs/specs/fest.md 6). Only a prediction of a kind known to be something else (a
    /// JPEG, a document, an archive) or an empty one is named as such first.
    fn accepts(&self, kind: Kind, role: Option<Role>) -> bool {
        role != Some(Role::Pred)
            || matches!(
                kind,
                Kind::Png | Kind::Text | Kind::Xml | Kind::Json | Kind::Binary
            )
    }
    fn classify(&self, path: &str, _head: &[u8]) -> Class {
        let in_gt_folder = path
            .split(['/', '\\', '!'])
            .any(|c| c.to_ascii_lowercase().starts_with("text-line-gt"));
        if in_gt_folder {
            Class::gt("lies in a text-line-gt folder of the data set")
        } else {
            Class::either().or_name(path)
        }
    }
    fn score(
        &self,
        run: &mut Run,
        opts: &FestOptions,
        progress: &mut dyn Progress,
    ) -> Result<Report, UsageError> {
        let st = settings(opts, run.opts.budget(), run.mode)?;
        progress.update(0.0, "pairing files");
        let mut diags: Vec<Diagnostic> = Vec::new();
        let manuscripts = layout::build(
            run.files,
            run.mode,
            &opts.split,
            &opts.manuscript_map,
            &mut diags,
        );
        let mut report = report::build(&manuscripts, &st, run.mode, &mut diags, progress);
        run.diags.extend(diags);
        if !run.wants_units() {
            report.units = Default::default();
        }
        Ok(report)
    }
    fn render_text(&self, report: &Report) -> Option<String> {
        Some(render_text(report))
    }
    fn explain(&self, official: &Report, corrected: &Report) -> Vec<String> {
        explain(official, corrected)
    }
    fn manifest(&self, run: &mut Run, opts: &FestOptions) -> serde_json::Value {
        preflight::manifest(run, opts)
    }
    fn check(
        &self,
        run: &mut Run,
        opts: &FestOptions,
        expects: &serde_json::Value,
    ) -> super::preflight::Found {
        preflight::check(run, opts, expects)
    }
}

/// One line per difference between the official and the corrected report of the same input.
fn explain(official: &Report, corrected: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    let (a, b) = (
        official.scores.get("line_iu"),
        corrected.scores.get("line_iu"),
    );
    if a != b {
        lines.push(format!(
            "Leaderboard Line IU: official {}, corrected {}.",
            a.map_or("none".into(), py_float),
            b.map_or("none".into(), py_float)
        ));
    }
    let count = |r: &Report, code: &str| r.diagnostics.iter().filter(|d| d.code == code).count();
    for (code, text) in [
        ("fest.pred.no_black", "predictions without black: official reads the lowest colour as background, corrected uses black"),
        ("fest.pred.label_wrap", "more than 256 colours: official labels wrap modulo 256, corrected keeps every colour"),
        ("fest.gt.empty", "GT images without lines: official scores 0, corrected leaves the 0/0 metrics out"),
        ("fest.input.duplicate_stem", "repeated stems: official scores the image once per GT entry, corrected once"),
    ] {
        let n = count(official, code);
        if n > 0 {
            lines.push(format!("{n}× {code}: {text}."));
        }
    }
    let shared = |r: &Report| -> u64 {
        r.items
            .iter()
            .filter_map(|i| i.detail.get("shared_predictions").and_then(|v| v.as_u64()))
            .sum()
    };
    let s = shared(official);
    if s > 0 {
        lines.push(format!(
            "{s} predicted line(s) are the best match of several GT lines: official counts their false-positive pixels once per GT line, corrected matches one to one."
        ));
    }
    lines.push("Corrected counts unmatched GT lines as missed and unmatched predictions as extra, and its Pixel IU is the page-level foreground IoU.".into());
    lines
}
