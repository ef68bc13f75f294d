//! Protocol `aij2022`: AI Journey 2022 FusionBrain Challenge 2.0 (docs/specs/aij2022.md). Six open tasks —
//! TextQA F1, MathQA EM, ImageGeneration (FID + CLIP), ImageCaptioning (METEOR + CLIP), VisualQA METEOR,
//! TRitW 1 − NED — each as the contest's `evaluation/` scripts compute it, and the integral score.

mod clip;
mod ctx;
mod detect;
pub mod exercise;
mod explain;
mod extras;
mod generation;
mod hints;
mod ids;
mod lemmas;
mod meteor_tasks;
mod options;
mod preflight;
mod pyjson;
mod render;
mod text;
pub mod units;

pub use ctx::{text_bytes, Ctx, StemMemo, DETAIL_BYTES, DETAIL_LIMIT};
pub use options::{AijOptions, OPTIONS};
use options::{Details, Extraction, NumericPath};

use super::options::OptionSet;
use super::{Class, Example, Progress, Protocol, ProtocolInfo, Run, UsageError};
use crate::diag::Diagnostic;
use crate::formats::aij_json::Doc;
use crate::input::kind::Kind;
use crate::input::Role;
use crate::metrics::aij::fid::{captioning_score, generation_score, integral};
use crate::metrics::aij::meteor::Synonyms;
use crate::metrics::mean::numpy_mean;
use crate::report::{natural_cmp, Group, Item, Mode, Report, Scores};
use std::collections::HashMap;

pub const INFO: ProtocolInfo = ProtocolInfo {
    id: "aij2022",
    name: "AI Journey 2022 FusionBrain",
    built: true,
    summary: "The six open tasks of the FusionBrain Challenge 2.0 as the contest's scorer computes them: TextQA token F1 and \
              MathQA exact match (with lemmas and the letter fallback), VisualQA and captioning METEOR, TRitW 1 − NED, FID \
              and CLIP from precomputed features, and the integral score.",
    gt_files: "Per task: <task>_gt.json (and captioning/generation _input.json), or the combined GT JSON with ids.json; \
               for generation the reference .npy activations or .npz statistics.",
    pred_files: "Per task: <task>_pred.json, or the combined predictions.json; for generation the generated side's .npy/.npz; \
                 CLIP scores as clip_scores.json / .csv, or embeddings clip_image.npy + clip_text.npy + clip_ids.json.",
    options: AijOptions::SPECS,
    examples: &[
        Example {
            id: "text",
            label: "Text tasks (TextQA, MathQA, VQA, TRitW, captioning)",
            gt: &[
                "examples/aij2022/textqa_gt.json",
                "examples/aij2022/mathqa_gt.json",
                "examples/aij2022/vqa_gt.json",
                "examples/aij2022/text_recognition_gt.json",
                "examples/aij2022/captioning_gt.json",
                "examples/aij2022/lemmas.tsv",
            ],
            pred: &[
                "examples/aij2022/textqa_pred.json",
                "examples/aij2022/mathqa_pred.json",
                "examples/aij2022/vqa_pred.json",
                "examples/aij2022/text_recognition_pred.json",
                "examples/aij2022/captioning_pred.json",
            ],
            set: &[],
        },
        Example {
            id: "fid",
            label: "FID from two .npz statistics files",
            gt: &["examples/aij2022/fid_A_gt_stats.npz"],
            pred: &["examples/aij2022/fid_A_pred_stats_uncompressed.npz"],
            set: &[],
        },
    ],
    official_noun: "official scorer",
    head_len: 256,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Task {
    TextQa,
    MathQa,
    Generation,
    Captioning,
    Vqa,
    Titw,
}

impl Task {
    pub const ALL: [Task; 6] = [
        Task::TextQa,
        Task::MathQa,
        Task::Generation,
        Task::Captioning,
        Task::Vqa,
        Task::Titw,
    ];
    pub fn id(self) -> &'static str {
        match self {
            Task::TextQa => "textqa",
            Task::MathQa => "mathqa",
            Task::Generation => "generation",
            Task::Captioning => "captioning",
            Task::Vqa => "vqa",
            Task::Titw => "titw",
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Task::TextQa => "TextQA",
            Task::MathQa => "MathQA",
            Task::Generation => "ImageGeneration",
            Task::Captioning => "ImageCaptioning",
            Task::Vqa => "VisualQA",
            Task::Titw => "TRitW",
        }
    }
    /// `split_tasks.py`'s task numbers.
    pub fn from_num(n: u64) -> Option<Task> {
        Task::ALL.get(n as usize).copied()
    }
    /// Prize-eligibility threshold (75 % of the baseline; docs/specs/aij2022.md 3.8).
    pub fn threshold(self) -> f64 {
        match self {
            Task::TextQa => 0.2,
            Task::MathQa => 0.25,
            Task::Generation => 0.21,
            Task::Captioning => 0.15,
            Task::Vqa => 0.24,
            Task::Titw => 0.13,
        }
    }
}

/// One task's outcome.
pub struct TaskResult {
    pub task: Task,
    pub score: Option<f64>,
    pub parts: Vec<(&'static str, Option<f64>)>,
    pub items: Vec<Item>,
    pub diags: Vec<Diagnostic>,
    pub official_fails: bool,
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl TaskResult {
    fn new(task: Task) -> Self {
        TaskResult {
            task,
            score: None,
            parts: Vec::new(),
            items: Vec::new(),
            diags: Vec::new(),
            official_fails: false,
            extra: Default::default(),
        }
    }
    fn part(&self, id: &str) -> Option<f64> {
        self.parts
            .iter()
            .find(|(k, _)| *k == id)
            .and_then(|(_, v)| *v)
    }
}

fn read_synonyms(file: &str, bytes: &[u8]) -> Synonyms {
    let mut m = Synonyms::new();
    for line in String::from_utf8_lossy(bytes).lines() {
        if let Some((k, v)) = line.trim_end_matches('\r').split_once('\t') {
            m.insert(
                k.to_lowercase(),
                v.split('|')
                    .filter(|s| !s.is_empty())
                    .map(str::to_lowercase)
                    .collect(),
            );
        }
    }
    let _ = file;
    m
}

/// The `aij2022` protocol.
pub struct Aij2022;

impl Protocol for Aij2022 {
    const INFO: &'static ProtocolInfo = &INFO;
    type Options = AijOptions;

    /// The tasks' scores, the integral and the parts (render::score_ids).
    fn score_ids(&self, _: &AijOptions) -> Option<Vec<String>> {
        Some(render::score_ids())
    }

    fn extras(&self) -> &'static crate::protocols::views::Extras {
        &extras::EXTRAS
    }
    /// JSON documents, CSV/TSV tables, NumPy arrays, and the generation task's images.
    fn accepts(&self, kind: Kind, _role: Option<Role>) -> bool {
        matches!(kind, Kind::Json | Kind::Text | Kind::Npy | Kind::Npz) || kind.is_image()
    }
    fn classify(&self, path: &str, head: &[u8]) -> Class {
        detect::classify(path, head)
    }
    fn score(
        &self,
        run: &mut Run,
        opts: &AijOptions,
        progress: &mut dyn Progress,
    ) -> Result<Report, UsageError> {
        score(run, opts, progress)
    }
    fn render_text(&self, report: &Report) -> Option<String> {
        Some(render::render_text(report))
    }
    fn explain(&self, official: &Report, corrected: &Report) -> Vec<String> {
        explain::explain(official, corrected)
    }
    fn exercise(&self) -> Option<f64> {
        exercise::exercise(1000)
    }
    fn manifest(&self, run: &mut Run, opts: &AijOptions) -> serde_json::Value {
        preflight::manifest(run, opts)
    }
    fn check(
        &self,
        run: &mut Run,
        _opts: &AijOptions,
        expects: &serde_json::Value,
    ) -> super::preflight::Found {
        preflight::check(run, expects)
    }
    fn hints(&self, report: &Report) -> crate::report::Hints {
        hints::hints(report)
    }
}

fn score(
    run: &mut Run,
    opts: &AijOptions,
    progress: &mut dyn Progress,
) -> Result<Report, UsageError> {
    let hidden = options::hidden(opts)?;
    let explain = options::explained(opts)?;
    progress.update(0.0, "reading files");
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut found = detect::find(run.files, opts, run.opts.budget(), run.mode, &mut diags);
    detect::split_combined(&mut found, &mut diags);
    let mut ctx = new_ctx(run, opts, &explain);
    if let Some((name, bytes)) = &found.lemma_table {
        ctx.lemmas.load_table(name, bytes, &mut diags);
    }
    if let Some((name, bytes)) = &found.ruwordnet {
        ctx.synonyms = Some(read_synonyms(name, bytes));
    }
    let want = match &explain {
        Some((task, _)) => task.id(),
        None => opts.task.as_str(),
    };
    let mut results = score_tasks(want, &mut found, &mut ctx, &mut diags, progress);
    let mut report = Report::new("aij2022", run.mode);
    let mut deviations = run.opts.deviations_among(
        &OPTIONS
            .iter()
            .map(|o| o.name)
            .filter(|n| *n != AijOptions::details && *n != AijOptions::explain)
            .collect::<Vec<_>>(),
    );
    notes(&explain, &mut ctx, &results, &mut diags, &mut deviations);
    let any_official_fail = results.iter().any(|r| r.official_fails);
    render::fill(&mut report, &mut results, hidden);
    for r in &mut results {
        diags.append(&mut r.diags);
    }
    if results.is_empty() && !run.diags.has_errors() && !diags.iter().any(|d| d.is_error()) {
        diags.push(Diagnostic::error("aij.input.nothing", "no task could be scored: no GT/prediction pair was recognised")
            .hint("Drop <task>_gt.json + <task>_pred.json, or predictions.json + the GT JSON + ids.json, or FID .npy/.npz files."));
    }
    run.diags.extend(diags);
    report.official_fails = any_official_fail;
    report.items.sort_by(|a, b| natural_cmp(&a.id, &b.id));
    if run.wants_units() {
        report.units = units::slot(&report);
    }
    run.set_deviations(deviations);
    Ok(report)
}

/// The run's shared state from its options (`explain`: the one id to score).
fn new_ctx(run: &Run, opts: &AijOptions, explain: &Option<(Task, String)>) -> Ctx {
    Ctx {
        mode: run.mode,
        readme: opts.extraction == Extraction::Readme,
        extraction_changed: Default::default(),
        lemmas: lemmas::Lemmas {
            lemmatizer: run.lemmatizer.clone(),
            ..Default::default()
        },
        synonyms: None,
        ru_stemmer: rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::Russian),
        numeric_used: 0,
        numeric_first_float: opts.numeric_path == NumericPath::FirstFloat,
        full_details: match opts.details {
            Details::Full => Some(true),
            Details::Light => Some(false),
            Details::Auto => None,
        },
        explain: explain.as_ref().map(|(_, id)| id.clone()),
        stems: Default::default(),
        stems_en: Default::default(),
    }
}

/// Scores each task of `found` that `want` names (`auto`: every task found), in [`Task::ALL`]'s order.
fn score_tasks(
    want: &str,
    found: &mut detect::Found,
    ctx: &mut Ctx,
    diags: &mut Vec<Diagnostic>,
    progress: &mut dyn Progress,
) -> Vec<TaskResult> {
    let mut results: Vec<TaskResult> = Vec::new();
    for task in Task::ALL {
        if want != "auto" && want != task.id() {
            continue;
        }
        let mut out = TaskResult::new(task);
        let gt = found.gt.remove(&task);
        let pred = found.pred.remove(&task);
        if task == Task::Generation {
            score_generation(found, gt.as_ref(), pred.as_ref(), ctx, &mut out, progress);
            if out.parts.is_empty() && out.items.is_empty() && out.diags.is_empty() {
                continue;
            }
            results.push(out);
            continue;
        }
        let (Some(mut gt), Some(pred)) = (gt, pred) else {
            if want == task.id() {
                diags.push(Diagnostic::error("aij.input.missing", format!("task {}: no GT and prediction files found", task.name()))
                    .hint("Drop <task>_gt.json and <task>_pred.json (or predictions.json, the GT JSON and ids.json)."));
            }
            continue;
        };
        progress.update(0.05, &format!("scoring {}", task.name()));
        ids::wrap_bare(&mut gt, task, &mut out.diags, &mut out.official_fails);
        if ids::check_ids(task, &gt, &pred, ctx.mode, &mut out) {
            match task {
                Task::TextQa | Task::MathQa | Task::Titw => {
                    text::score(task, &gt, &pred, ctx, &mut out)
                }
                Task::Vqa => {
                    meteor_tasks::score(task, &gt, &pred, ctx, &mut out);
                }
                Task::Captioning => score_captioning(
                    &gt,
                    &pred,
                    found.input.get(&task),
                    &found.clip,
                    ctx,
                    &mut out,
                ),
                Task::Generation => {}
            }
        }
        results.push(out);
    }
    results
}

/// The run's notes after scoring: `explain`'s warning, the lemmatiser's, the METEOR synonym stage's and the
/// VQA numeric path's diagnostics, and the deviations that follow (one only when it changed a number).
fn notes(
    explain: &Option<(Task, String)>,
    ctx: &mut Ctx,
    results: &[TaskResult],
    diags: &mut Vec<Diagnostic>,
    deviations: &mut Vec<String>,
) {
    if let Some((task, id)) = explain {
        diags.push(
            Diagnostic::warning(
                "aij.explain",
                format!(
                    "option explain: only {} id {id} was scored; the task score is that id's",
                    task.name()
                ),
            )
            .hint("Leave explain unset to score every id."),
        );
    }
    // A deviation is listed only when it changed a number: `extraction = readme` when no id's element differs
    // from the code's fixed index is no deviation.
    if ctx.extraction_changed.get() == 0 {
        deviations.retain(|d| !d.starts_with("extraction "));
    }
    ctx.lemmas.finish(diags, deviations);
    let uses_meteor = results
        .iter()
        .any(|r| matches!(r.task, Task::Vqa | Task::Captioning) && !r.items.is_empty());
    if uses_meteor && ctx.synonyms.is_none() {
        diags.push(Diagnostic::warning("aij.meteor.no_synonyms", "no ruwordnet_table: the METEOR synonym stage is skipped (scores may differ from official)")
            .hint("Give ruwordnet_table (TSV lemma<TAB>candidate|candidate…) exported from ruwordnet 0.0.6 to include the synonym stage.")
            .official("matches RuWordNet hypernym titles and derivations as a third stage"));
        deviations.push(
            "METEOR synonym stage skipped (no ruwordnet_table): may differ from official".into(),
        );
    }
    if ctx.numeric_used > 0 {
        let stand_in = if ctx.numeric_first_float {
            "the first token Python's float() reads (numeric_path = first_float)"
        } else {
            "the first token that starts with a digit and reads as a number (it decided as a perceptron tagger does on 24,000 of 24,000 test answers, README)"
        };
        diags.push(Diagnostic::warning("aij.vqa.numeric_approx", format!("{} VQA answer(s) took the numeric path: {stand_in} stands in for NLTK's CD tag (approximate)", ctx.numeric_used))
            .official("compares the first token NLTK's perceptron tagger tags CD"));
        if !ctx.numeric_first_float {
            deviations.push(
                "numeric_path = tagger approximated by the first token that starts with a digit (no tagger model ships)".into(),
            );
        }
    }
}

fn score_captioning(
    gt: &Doc,
    pred: &Doc,
    input: Option<&Doc>,
    clip: &Option<HashMap<String, f64>>,
    ctx: &mut Ctx,
    out: &mut TaskResult,
) {
    meteor_tasks::score(Task::Captioning, gt, pred, ctx, out);
    let meteor = out.part("meteor");
    let clip_per = clip
        .as_ref()
        .and_then(|c| generation::captioning_clip(input, pred, c, ctx, out));
    let clip_mean = clip_per.as_ref().and_then(|m| {
        let vals: Vec<f64> = pred
            .entries
            .iter()
            .filter_map(|(k, _)| m.get(k).copied())
            .collect();
        numpy_mean(&vals)
    });
    if let Some(m) = &clip_per {
        for it in &mut out.items {
            let id = it.id.trim_start_matches("captioning/");
            if let Some(c) = m.get(id) {
                let me = it.scores.get("meteor");
                it.scores.set("clip", Some(*c));
                it.scores.set("score", me.map(|x| captioning_score(x, *c)));
            }
        }
    }
    for it in &mut out.items {
        if !it.scores.contains("score") {
            it.scores.set("score", None);
        }
    }
    out.parts.push(("clip", clip_mean));
    out.score = match (meteor, clip_mean) {
        (Some(m), Some(c)) => Some(captioning_score(m, c)),
        _ => None,
    };
}

fn score_generation(
    found: &mut detect::Found,
    _gt: Option<&Doc>,
    pred: Option<&Doc>,
    ctx: &Ctx,
    out: &mut TaskResult,
    progress: &mut dyn Progress,
) {
    let (r, g) = (found.fid_ref.take(), found.fid_gen.take());
    let n_ref = found.ref_images.len();
    let n_gen = found.gen_images.len();
    if (n_ref > 0 || n_gen > 0) && n_ref != n_gen {
        let d = Diagnostic::new(
            if ctx.mode == Mode::Official { crate::diag::Severity::Error } else { crate::diag::Severity::Warning },
            "aij.gen.count_mismatch",
            format!("the image folders hold {n_ref} (output_images) and {n_gen} (output_pr_images) entries"),
        )
        .official("crashes (AssertionError: Not all captions have predicted images!)");
        out.diags.push(d);
        if ctx.mode == Mode::Official {
            out.official_fails = true;
        }
    }
    let fid = match (&r, &g) {
        (Some(a), Some(b)) => {
            let mut p = |f: f64, phase: &str| progress.update(f, phase);
            generation::fid_part(a, b, out, &mut p)
        }
        (None, None) if n_ref + n_gen > 0 => {
            out.diags.push(Diagnostic::error("aij.gen.needs_features", format!("{n_ref} reference and {n_gen} generated images were dropped, but no activations: FID needs Inception features"))
                .hint("Export pool3 activations with pytorch-fid (python -m pytorch_fid --save-stats DIR stats.npz) or numpy.save of the N×2048 activations, and drop the .npz/.npy files instead."));
            None
        }
        (None, None) => None,
        _ => {
            out.diags.push(Diagnostic::error("aij.gen.fid_side_missing", "FID needs two inputs: the reference side (GT) and the generated side (prediction)")
                .hint("Drop one .npy/.npz as GT and one as prediction, or set fid_inputs=ref,gen."));
            None
        }
    };
    let input = found.input.remove(&Task::Generation);
    let clip = match (&found.clip, input.as_ref().or(_gt), pred) {
        (Some(c), Some(i), Some(p)) => generation::generation_clip(i, p, c, ctx, out),
        _ => None,
    };
    if r.is_none()
        && g.is_none()
        && clip.is_none()
        && out.diags.is_empty()
        && input.is_none()
        && pred.is_none()
    {
        return;
    }
    out.parts.push(("fid", fid));
    out.parts.push(("clip", clip));
    out.score = match (fid, clip) {
        (Some(f), Some(c)) => Some(generation_score(f, c)),
        _ => None,
    };
}

/// The integral S (only when all six open tasks are scored and the hidden values are given).
pub fn integral_of(results: &[TaskResult], hidden: Option<[f64; 6]>) -> Option<f64> {
    let h = hidden?;
    let mut open = [0.0; 6];
    for (i, t) in Task::ALL.iter().enumerate() {
        open[i] = results.iter().find(|r| r.task == *t)?.score?;
    }
    Some(integral(&open, &h))
}

/// Groups of a report, one per task (used by the renderer).
pub fn group(r: &TaskResult) -> Group {
    let mut s = Scores::new().with("score", r.score);
    for (k, v) in &r.parts {
        s.set(k, *v);
    }
    Group {
        id: r.task.id().to_string(),
        scores: s,
    }
}
