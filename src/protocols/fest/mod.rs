//! Protocol `fest`: ICDAR 2025 FEST text-line segmentation from PNG masks (specs/fest.md). GT lines are the
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

pub use options::OPTIONS;
pub use text::{py_float, render_text};

use super::{Class, Example, Options, Progress, Protocol, ProtocolInfo, Run, UsageError};
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
    options: OPTIONS,
    examples: &[Example {
        id: "synthetic",
        label: "Synthetic 40×20 page (3 GT lines, 5 predicted)",
        gt: &["examples/fest/gt/001.png"],
        pred: &["examples/fest/pred/001.png"],
        set: &[],
    }],
};

/// The decoding and metric settings of one run.
pub(crate) struct Settings {
    pub decode: image::Decode,
    pub params: Params,
    pub pooled: bool,
}

pub(crate) fn settings(opts: &Options, mode: Mode) -> Result<Settings, UsageError> {
    let background = match opts.get("background_colour") {
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
    if opts.get("pred_encoding") == "components" && mode == Mode::Official {
        return Err(UsageError(
            "option `pred_encoding`: components is available in corrected mode only".into(),
        ));
    }
    let max_mp = opts.int("max_megapixels").unwrap_or(64);
    if max_mp <= 0 {
        return Err(UsageError(
            "option `max_megapixels`: expected a positive integer".into(),
        ));
    }
    Ok(Settings {
        decode: image::Decode {
            eight: opts.get("connectivity") != "4",
            wrap: opts.flag("label_wrap"),
            background,
            components: opts.get("pred_encoding") == "components",
            max_pixels: (max_mp as u64).saturating_mul(1_000_000),
            budget: opts.budget(),
        },
        params: Params {
            iou_threshold: opts.number("iou_threshold").unwrap_or(0.75),
            pr_threshold: opts.number("pr_threshold").unwrap_or(0.75),
            strict: opts.flag("strict_threshold"),
            matching: match opts.get("matching") {
                "greedy" => Matching::Greedy,
                "hungarian" => Matching::Hungarian,
                _ => Matching::BestPerGt,
            },
            count_unmatched: opts.flag("count_unmatched"),
            both_fail_el: opts.get("both_fail") == "ml+el",
            ra_guard_n2: opts.get("ra_guard") == "n2",
            empty_zero: opts.get("empty_metric") == "zero",
            page_pixel_iu: opts.get("pixel_iu") == "page",
        },
        pooled: opts.get("aggregation") == "pooled",
    })
}

/// The `fest` protocol.
pub struct Fest;

impl Protocol for Fest {
    fn info(&self) -> &'static ProtocolInfo {
        &INFO
    }
    fn extras(&self) -> &'static crate::protocols::views::Extras {
        &overlay::EXTRAS
    }
    fn head_len(&self) -> usize {
        64
    }
    /// The spec's own rules read the GT side (page images are reported and skipped, any other non-PNG entry
    /// is `fest.official.gt_unreadable`) and any prediction that is not a valid PNG (`fest.input.bad_png`
    /// with its byte offset, specs/fest.md 6). Only a prediction of a kind known to be something else (a
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
    fn score(&self, run: &mut Run, progress: &mut dyn Progress) -> Result<Report, UsageError> {
        let st = settings(&run.opts, run.mode)?;
        progress.update(0.0, "pairing files");
        let mut diags: Vec<Diagnostic> = Vec::new();
        let manuscripts = layout::build(
            run.files,
            run.mode,
            run.opts.get("split"),
            run.opts.get("manuscript_map"),
            &mut diags,
        );
        let mut report = report::build(&manuscripts, &st, run.mode, &mut diags, progress);
        run.diags.extend(diags);
        run.diags.extend(std::mem::take(&mut report.diagnostics));
        Ok(report)
    }
    fn render_text(&self, report: &Report) -> String {
        render_text(report)
    }
    fn official_noun(&self) -> &'static str {
        "official script"
    }
    fn explain(&self, official: &Report, corrected: &Report) -> Vec<String> {
        explain(official, corrected)
    }
    fn manifest(&self, run: &mut Run) -> Option<serde_json::Value> {
        Some(preflight::manifest(run))
    }
    fn check(&self, run: &mut Run, expects: &serde_json::Value) -> Option<super::preflight::Found> {
        Some(preflight::check(run, expects))
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
