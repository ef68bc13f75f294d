//! The protocol shell: what every protocol shares, written once. A protocol only composes formats and metrics
//! into a [`Report`]; the shell resolves its options, settles which file is the ground truth
//! ([`super::roles`]), collects the diagnostics under one per-code cap, applies the one `official_fails` rule,
//! lists the deviations and orders the diagnostics.

use super::options::OptionSet;
use super::preflight::Found;
use super::{roles, Options, Progress, ProtocolInfo, Request, Throttle, UsageError};
use crate::diag::{Diagnostic, Diags};
use crate::input::kind::Kind;
use crate::input::{FileSet, Role};
use crate::lemma::Lemmatizer;
use crate::report::{Mode, Report};
use std::sync::Arc;

/// One competition's rules, as a protocol implements them: a unit struct in the protocol's folder, listed once
/// in [`super::registry::PROTOCOLS`]; nothing else names a protocol. The registry holds it as a
/// [`AnyProtocol`] (the object-safe face the shell, the CLI and the page call), implemented for every
/// `Protocol` below.
pub trait Protocol: Sync + 'static {
    // ---- The descriptor -------------------------------------------------------------------------------------

    /// Id, name, summary, file descriptions, official noun, head length, option table and built-in examples.
    /// Its `options` is [`OptionSet::SPECS`] of [`Protocol::Options`].
    const INFO: &'static ProtocolInfo;

    /// The typed options, declared with [`options!`](crate::options); the shell resolves and validates them
    /// once and hands them to [`Protocol::score`], [`Protocol::manifest`] and [`Protocol::check`].
    type Options: OptionSet;

    // ---- Reading the input ----------------------------------------------------------------------------------

    /// What one entry looks like, from its path and its first [`ProtocolInfo::head_len`] (decompressed)
    /// bytes: ground truth, predictions, either, or unrelated, with the evidence in plain words.
    fn classify(&self, path: &str, head: &[u8]) -> Class {
        let _ = (path, head);
        Class::either()
    }

    /// Whether the protocol reads files of `kind` in `role` (`None`: no role yet). Others are refused
    /// before scoring with `input.wrong_kind` (or `input.empty`), named in plain words. Default: text.
    fn accepts(&self, kind: Kind, role: Option<Role>) -> bool {
        let _ = role;
        kind.is_text()
    }

    // ---- Scoring --------------------------------------------------------------------------------------------

    /// Scores `run.files`. Diagnostics go to `run.diags` (capped per code), the one sink; the shell fills
    /// `options`, `deviations` and `diagnostics`, sets `official_fails` when official mode has an error, and
    /// sorts. Bad option values are usage errors.
    fn score(
        &self,
        run: &mut Run,
        opts: &Self::Options,
        progress: &mut dyn Progress,
    ) -> Result<Report, UsageError>;

    /// One plain line per difference between an official and a corrected report of the same input, after the
    /// shell's line on an official failure ([`explain`]).
    fn explain(&self, official: &Report, corrected: &Report) -> Vec<String> {
        let _ = (official, corrected);
        Vec::new()
    }

    /// Scores a small built-in input and returns its headline (a JIT warm-up); `None` when there is none.
    fn exercise(&self) -> Option<f64> {
        None
    }

    // ---- Pre-flight ([`super::preflight`]) ------------------------------------------------------------------

    /// The organizer's side: the manifest's `expects`, from the ground-truth entries of `run.files` only: what
    /// a submission needs to be complete and well formed, never a label. Problems of the ground truth go to
    /// `run.diags`.
    fn manifest(&self, run: &mut Run, opts: &Self::Options) -> serde_json::Value;

    /// The participant's side: reads the submission in `run.files` against `expects` with the readers and
    /// completeness checks scoring uses, pushing the same diagnostics (codes, locations) into `run.diags`, and
    /// returns what was found: one phrase ("100 categories, 30,000 ids each") and one item per category,
    /// query, subset… with its counts.
    fn check(&self, run: &mut Run, opts: &Self::Options, expects: &serde_json::Value) -> Found;

    // ---- Text output ----------------------------------------------------------------------------------------

    /// The protocol's own text output (the official scorer's layout); `None`: the generic layout
    /// (`render::text` chooses).
    fn render_text(&self, report: &Report) -> Option<String> {
        let _ = report;
        None
    }

    // ---- Views and assets ([`super::views`]) ----------------------------------------------------------------

    /// What the protocol adds beyond its report: its page view (`www/views/<id>.js`) and that view's requests
    /// on a session's files, the data files scoring loads when they are there, a warm-up. Default: none.
    fn extras(&self) -> &'static super::views::Extras {
        &super::views::Extras::NONE
    }

    // ---- What the report can hold (the config validator reads it) ------------------------------------------

    /// Every score id a report of this protocol can hold under `opts` (ids that only some inputs give
    /// included): what a leaderboard column and the `metric` option may name. `None`: not declared (the
    /// config validator then leaves columns to the scoring program).
    fn score_ids(&self, opts: &Self::Options) -> Option<Vec<String>> {
        let _ = opts;
        None
    }

    // ---- Display hints (`render::page` reads them) -------------------------------------------------------------

    /// How the page shows `report`: its headline metric, what stands beside it, binary32 scores. Default: the
    /// first of `display.headline`, alone, binary64.
    fn hints(&self, report: &Report) -> crate::report::Hints {
        let _ = report;
        crate::report::Hints::default()
    }
}

/// A [`Protocol`] behind the registry: the same contract, object-safe (no associated items), so that one table
/// lists every protocol. Implemented for every `Protocol`; callers never implement it.
pub trait AnyProtocol: Sync {
    /// The descriptor ([`Protocol::INFO`]).
    fn info(&self) -> &'static ProtocolInfo;
    /// The option table of [`Protocol::Options`] (the descriptor's `options` is the same table).
    fn option_table(&self) -> &'static [super::OptionSpec];
    /// [`Protocol::classify`].
    fn classify(&self, path: &str, head: &[u8]) -> Class;
    /// [`Protocol::accepts`].
    fn accepts(&self, kind: Kind, role: Option<Role>) -> bool;
    /// [`Protocol::score`], with the typed options read from `run.opts` (resolved by the shell).
    fn score(&self, run: &mut Run, progress: &mut dyn Progress) -> Result<Report, UsageError>;
    /// [`Protocol::explain`].
    fn explain(&self, official: &Report, corrected: &Report) -> Vec<String>;
    /// [`Protocol::exercise`].
    fn exercise(&self) -> Option<f64>;
    /// [`Protocol::manifest`].
    fn manifest(&self, run: &mut Run) -> serde_json::Value;
    /// [`Protocol::check`].
    fn check(&self, run: &mut Run, expects: &serde_json::Value) -> Found;
    /// [`Protocol::render_text`].
    fn render_text(&self, report: &Report) -> Option<String>;
    /// [`Protocol::extras`].
    fn extras(&self) -> &'static super::views::Extras;
    /// [`Protocol::hints`].
    fn hints(&self, report: &Report) -> crate::report::Hints;
    /// [`Protocol::score_ids`], with the typed options read from `opts` (resolved).
    fn score_ids(&self, opts: &Options) -> Option<Vec<String>>;
}

impl<P: Protocol> AnyProtocol for P {
    fn info(&self) -> &'static ProtocolInfo {
        P::INFO
    }
    fn option_table(&self) -> &'static [super::OptionSpec] {
        P::Options::SPECS
    }
    fn classify(&self, path: &str, head: &[u8]) -> Class {
        Protocol::classify(self, path, head)
    }
    fn accepts(&self, kind: Kind, role: Option<Role>) -> bool {
        Protocol::accepts(self, kind, role)
    }
    fn score(&self, run: &mut Run, progress: &mut dyn Progress) -> Result<Report, UsageError> {
        let opts = P::Options::read(&run.opts);
        Protocol::score(self, run, &opts, progress)
    }
    fn explain(&self, official: &Report, corrected: &Report) -> Vec<String> {
        Protocol::explain(self, official, corrected)
    }
    fn exercise(&self) -> Option<f64> {
        Protocol::exercise(self)
    }
    fn manifest(&self, run: &mut Run) -> serde_json::Value {
        let opts = P::Options::read(&run.opts);
        Protocol::manifest(self, run, &opts)
    }
    fn check(&self, run: &mut Run, expects: &serde_json::Value) -> Found {
        let opts = P::Options::read(&run.opts);
        Protocol::check(self, run, &opts, expects)
    }
    fn render_text(&self, report: &Report) -> Option<String> {
        Protocol::render_text(self, report)
    }
    fn extras(&self) -> &'static super::views::Extras {
        Protocol::extras(self)
    }
    fn hints(&self, report: &Report) -> crate::report::Hints {
        Protocol::hints(self, report)
    }
    fn score_ids(&self, opts: &Options) -> Option<Vec<String>> {
        Protocol::score_ids(self, &P::Options::read(opts))
    }
}

/// What an entry's name and content say about its role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Looks {
    Gt,
    Pred,
    /// Could be either (the formats are alike, or nothing tells).
    Either,
    /// Not an input of this protocol.
    Unrelated,
}

/// A classification with its evidence ("has <GTRel> judgement blocks").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    pub looks: Looks,
    pub evidence: String,
}

impl Class {
    pub fn gt(evidence: impl Into<String>) -> Class {
        Class {
            looks: Looks::Gt,
            evidence: evidence.into(),
        }
    }
    pub fn pred(evidence: impl Into<String>) -> Class {
        Class {
            looks: Looks::Pred,
            evidence: evidence.into(),
        }
    }
    pub fn either() -> Class {
        Class {
            looks: Looks::Either,
            evidence: String::new(),
        }
    }
    pub fn unrelated(evidence: impl Into<String>) -> Class {
        Class {
            looks: Looks::Unrelated,
            evidence: evidence.into(),
        }
    }
    /// `self` when it decides, else what the file name says (see [`name_says`]).
    pub fn or_name(self, path: &str) -> Class {
        if self.looks != Looks::Either {
            return self;
        }
        name_says(path).unwrap_or(self)
    }
}

/// What a file name says: a word of its stem such as `gt`, `truth`, `ref`… marks ground truth; `pred`,
/// `predictions`, `res`, `results`, `submission`, `run`… marks predictions. When the stem says neither, the
/// innermost folder (or archive) named exactly so decides (`ref/`, `gt/`, `res/`, `pred/`…). `None` when
/// nothing, or both, is said.
pub fn name_says(path: &str) -> Option<Class> {
    let mut comps = path.rsplit(['/', '\\', '!']).filter(|c| !c.is_empty());
    let name = comps.next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    let words: Vec<&str> = stem
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let gt = words.iter().find(|w| word_role(w) == Some(Looks::Gt));
    let pred = words.iter().find(|w| word_role(w) == Some(Looks::Pred));
    match (gt, pred) {
        (Some(w), None) => return Some(Class::gt(format!("has `{w}` in its name"))),
        (None, Some(w)) => return Some(Class::pred(format!("has `{w}` in its name"))),
        (Some(_), Some(_)) => return None,
        (None, None) => {}
    }
    for c in comps {
        let lower = c.to_ascii_lowercase();
        let folder = lower.strip_suffix(".zip").unwrap_or(&lower);
        match word_role(folder) {
            Some(Looks::Gt) => return Some(Class::gt(format!("lies in a folder named `{c}`"))),
            Some(Looks::Pred) => return Some(Class::pred(format!("lies in a folder named `{c}`"))),
            _ => {}
        }
    }
    None
}

fn word_role(w: &str) -> Option<Looks> {
    match w {
        "gt" | "groundtruth" | "ground_truth" | "ground" | "truth" | "ref" | "reference"
        | "references" => Some(Looks::Gt),
        "pred" | "preds" | "prediction" | "predictions" | "predicted" | "res" | "result"
        | "results" | "submission" | "run" => Some(Looks::Pred),
        _ => None,
    }
}

/// One scoring run as a protocol sees it.
pub struct Run<'a> {
    /// The entries, roles settled (`Some` wherever the role could be decided).
    pub files: &'a FileSet,
    pub mode: Mode,
    /// The effective option values as text: what the report lists, the memory budget, and what the protocol's
    /// typed options were read from. Protocol code reads its typed options, not this.
    pub opts: Options,
    /// Diagnostics so far (the input layer's and the role layer's first), capped per code.
    pub diags: Diags,
    /// The built-in Russian lemmatiser, when the caller loaded its asset.
    pub lemmatizer: Option<Arc<Lemmatizer>>,
    /// The public/private split file (option `split`): its path and bytes, taken out of `files`. A protocol
    /// that applies it itself ([`super::contract_parts_csv`]) takes it; otherwise the shell applies it to the
    /// report's units ([`super::contract_parts::apply`]).
    pub split_file: Option<(String, Vec<u8>)>,
    /// The caller keeps the units ([`super::Request::keep_units`]).
    pub keep_units: bool,
    deviations: Option<Vec<String>>,
}

impl<'a> Run<'a> {
    /// A run outside [`run`] (the pre-flight commands): roles as given, no diagnostics yet.
    pub fn new(files: &'a FileSet, mode: Mode, opts: Options) -> Run<'a> {
        Run {
            files,
            mode,
            opts,
            diags: Diags::new(),
            lemmatizer: None,
            split_file: None,
            keep_units: false,
            deviations: None,
        }
    }
    /// Whether the report should carry its units: asked by the caller (`compare`, `rank`), by `bootstrap`
    /// (or `intervals_in_scores`), or by a split file that the shell applies to the units.
    pub fn wants_units(&self) -> bool {
        self.keep_units
            || self.split_file.is_some()
            || self.opts.statistics().is_ok_and(|s| s.replicates > 0)
    }
    /// Deviations are listed only for the named options (those that apply to the input at hand).
    pub fn deviations_among(&mut self, names: &[&str]) {
        self.deviations = Some(self.opts.deviations_among(names));
    }
    /// Deviations replaced by the protocol's own list.
    pub fn set_deviations(&mut self, lines: Vec<String>) {
        self.deviations = Some(lines);
    }
}

/// Runs protocol `p` on `files`: options, roles, the protocol's score, then the shared finishing rules.
pub fn run(
    p: &dyn AnyProtocol,
    files: &FileSet,
    req: &Request,
    progress: &mut dyn Progress,
) -> Result<Report, UsageError> {
    let info = p.info();
    let opts = Options::resolve(info.options, req.mode, &req.set).map_err(UsageError)?;
    let settings = opts.statistics().map_err(UsageError)?;
    let part = opts.parts();
    let (split_file, without_split) = super::contract_parts::take_split(files, &part)?;
    let files = without_split.as_ref().unwrap_or(files);
    let mut throttled = Throttle::new(progress);
    let settled = roles::settle(p, files);
    let mut diags = Diags::new();
    diags.extend(settled.diagnostics);
    diags.extend(files.diagnostics.iter().cloned());
    let files = settled.files.as_ref().unwrap_or(files);
    let mut run = Run {
        files,
        mode: req.mode,
        opts,
        diags,
        lemmatizer: req.lemmatizer.clone(),
        split_file,
        keep_units: req.keep_units,
        deviations: None,
    };
    let mut report = if settled.refuse {
        Report::new(info.id, req.mode)
    } else {
        p.score(&mut run, &mut throttled)?
    };
    let split = run.split_file.take();
    super::contract_parts::apply(&mut report, split.as_ref(), part.part, &mut run.diags);
    throttled.update(0.95, "bootstrap intervals");
    super::contract_stats::intervals(&mut report, &settings, &mut run.diags);
    finish(&mut report, run);
    throttled.update(1.0, "done");
    Ok(report)
}

/// The shared finishing rules: options (declared ones first, then the protocol's extra keys), deviations,
/// the diagnostics (the run's one sink, capped per code), `official_fails`, the diagnostic order.
pub(crate) fn finish(report: &mut Report, run: Run) {
    let Run {
        mode,
        opts,
        mut diags,
        deviations,
        ..
    } = run;
    let extra = std::mem::take(&mut report.options);
    report.options = opts.to_json();
    report.options.extend(extra);
    report.deviations = deviations.unwrap_or_else(|| opts.deviations());
    debug_assert!(
        report.diagnostics.is_empty(),
        "a protocol's diagnostics go to run.diags, the one sink"
    );
    diags.extend(unknown_options(&opts));
    report.diagnostics = diags.finish();
    if mode == Mode::Official && report.has_errors() {
        report.official_fails = true;
    }
    report.sort_diagnostics();
}

/// Why an official and a corrected report differ: when the official scorer fails, one line that says so and
/// what corrected mode made of the input (scored it, or failed too), then the protocol's own lines.
pub fn explain(p: &dyn AnyProtocol, official: &Report, corrected: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    if official.official_fails {
        let noun = p.info().official_noun;
        // Where and why, in the report's own words: " at file:line: message".
        let why = |r: &Report| {
            r.diagnostics.iter().find(|d| d.is_error()).map(|d| {
                let at = match (&d.file, d.line) {
                    (Some(f), Some(l)) => format!(" at {f}:{l}"),
                    (Some(f), None) => format!(" at {f}"),
                    _ => String::new(),
                };
                format!("{at}: {}", d.message.trim_end_matches('.'))
            })
        };
        let scored = !corrected.has_errors() && corrected.scores.iter().any(|(_, v)| v.is_some());
        lines.push(match (why(official), scored) {
            (Some(w), true) => format!(
                "The {noun} fails on this input{w}; corrected mode scores it, with the documented fixes \
                 (the diagnostics list what it did)."
            ),
            (Some(w), false) => format!(
                "The {noun} fails on this input{w}; corrected mode fails too{}.",
                why(corrected).unwrap_or_default()
            ),
            (None, _) => format!("The {noun} fails on this input (see the warnings)."),
        });
    }
    lines.extend(p.explain(official, corrected));
    lines
}

/// The error `internal.unknown_option` for each option name protocol code read that its table does not declare.
pub(crate) fn unknown_options(opts: &Options) -> impl Iterator<Item = Diagnostic> {
    opts.unknown_names().into_iter().map(|name| {
        Diagnostic::error(
            "internal.unknown_option",
            format!("protocol code read option `{name}`, which its option table does not declare"),
        )
    })
}
