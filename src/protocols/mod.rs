//! Protocols: one folder per competition, each a [`Protocol`] listed once in [`registry::PROTOCOLS`]. The
//! shell ([`shell`], [`roles`]) owns what they share; a protocol turns a file set plus options into one
//! [`Report`]. No protocol knows about the browser or the terminal. This module holds what callers hand in
//! (the [`Request`], a [`Progress`] sink) and the calls they make by protocol id.

pub mod aij2022;
pub mod box_view;
pub mod chalearn_ce;
pub mod classification;
pub mod commands;
pub mod compare_run;
pub mod contract_compare;
pub mod contract_parts;
pub mod contract_parts_csv;
pub mod contract_rank;
pub mod contract_stats;
pub mod detection;
pub mod falsid;
pub mod fest;
pub mod kaggle;
pub mod kinds;
pub mod kws;
#[cfg(not(target_arch = "wasm32"))]
pub mod option_files;
pub mod option_values;
pub mod options;
pub mod preflight;
pub mod registry;
pub mod regression;
pub mod roles;
pub mod segmentation;
pub mod shell;
pub mod text;
#[cfg(feature = "toy")]
pub mod toy;
pub mod views;

pub use registry::{get, info, list, require, PROTOCOLS};
pub use shell::{name_says, AnyProtocol, Class, Looks, Protocol, Run};

use crate::input::FileSet;
use crate::report::{Mode, Report};
pub use options::{OptionSpec, Options};
use serde::Serialize;

/// What the caller asks for: a mode, `--set NAME=VALUE` pairs, and shared resources the caller has loaded.
#[derive(Clone, Debug)]
pub struct Request {
    pub mode: Mode,
    pub set: Vec<(String, String)>,
    /// The built-in Russian lemmatiser (`aij2022` text tasks), when the caller has loaded its dictionary asset.
    pub lemmatizer: Option<std::sync::Arc<crate::lemma::Lemmatizer>>,
    /// Keep the report's units even without `bootstrap` (`compare` and `rank` recompute from them after
    /// scoring; a protocol whose units cost work keeps them only when asked: [`Run::wants_units`]).
    pub keep_units: bool,
}

impl Request {
    pub fn new(mode: Mode) -> Self {
        Request {
            mode,
            set: Vec::new(),
            lemmatizer: None,
            keep_units: false,
        }
    }
}

/// Progress sink: `fraction` in 0..=1 and a short phase text.
pub trait Progress {
    fn update(&mut self, fraction: f64, phase: &str);
}

/// Discards progress.
pub struct Quiet;
impl Progress for Quiet {
    fn update(&mut self, _: f64, _: &str) {}
}

/// Forwards only changes of at least 2 % (or a new phase), so callers are not flooded.
pub struct Throttle<'a> {
    inner: &'a mut dyn Progress,
    last: f64,
    phase: String,
}

impl<'a> Throttle<'a> {
    pub fn new(inner: &'a mut dyn Progress) -> Self {
        Throttle {
            inner,
            last: -1.0,
            phase: String::new(),
        }
    }
}

impl Progress for Throttle<'_> {
    fn update(&mut self, fraction: f64, phase: &str) {
        if phase != self.phase || fraction - self.last >= 0.02 || fraction >= 1.0 && self.last < 1.0
        {
            self.last = fraction;
            self.phase = phase.to_string();
            self.inner.update(fraction.clamp(0.0, 1.0), phase);
        }
    }
}

/// A usage error (unknown protocol, bad option): exit status 2, never a report.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Example {
    pub id: &'static str,
    pub label: &'static str,
    pub gt: &'static [&'static str],
    pub pred: &'static [&'static str],
    /// Options the example needs, as `--set NAME=VALUE` pairs (segmentation's class list); the page applies
    /// them on "Try an example". Empty for most examples, and then left out of the JSON.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub set: &'static [(&'static str, &'static str)],
}

/// A protocol's descriptor ([`Protocol::INFO`]): one static value per protocol. The fields that are not
/// skipped are what `dropscore list --format json` and the page's protocol list give.
#[derive(Clone, Debug, Serialize)]
pub struct ProtocolInfo {
    pub id: &'static str,
    pub name: &'static str,
    pub built: bool,
    pub summary: &'static str,
    pub gt_files: &'static str,
    pub pred_files: &'static str,
    pub options: &'static [OptionSpec],
    pub examples: &'static [Example],
    /// What official mode runs, as "The {official_noun} fails on this input" reads: the official scorer,
    /// script, or reading of a metric page.
    #[serde(skip)]
    pub official_noun: &'static str,
    /// How many leading bytes [`Protocol::classify`] needs (the shell reads each entry's head once).
    #[serde(skip)]
    pub head_len: usize,
}

impl ProtocolInfo {
    /// The defaults a descriptor may take with `..ProtocolInfo::DEFAULTS`: "official scorer", a 4 KiB head;
    /// the texts empty, no options, no examples.
    pub const DEFAULTS: ProtocolInfo = ProtocolInfo {
        id: "",
        name: "",
        built: true,
        summary: "",
        gt_files: "",
        pred_files: "",
        options: &[],
        examples: &[],
        official_noun: "official scorer",
        head_len: 4096,
    };
}

/// Scores `files` with protocol `id` through the shell. Input problems are diagnostics inside the report;
/// only usage errors (unknown protocol, bad option) are `Err`.
pub fn score(
    id: &str,
    files: &FileSet,
    req: &Request,
    progress: &mut dyn Progress,
) -> Result<Report, UsageError> {
    shell::run(require(id)?, files, req, progress)
}

/// Scores a small built-in input of protocol `id` and returns its headline value, keeping nothing: callers
/// run it while idle so that a JIT compiler (V8's, for the wasm build) has compiled the scoring code before a
/// large input arrives. `None` for a protocol without one.
pub fn exercise(id: &str) -> Option<f64> {
    get(id)?.exercise()
}

/// One line per difference between an `official` and a `corrected` report of the same input.
pub fn explain(official: &Report, corrected: &Report) -> Vec<String> {
    get(&official.protocol)
        .map(|p| shell::explain(p, official, corrected))
        .unwrap_or_default()
}

/// The protocol's own text output (e.g. rusteval's layout, trec_eval's `-q` lines); `None` when the report's
/// protocol has none (`render::text` then writes the generic layout).
pub fn render_text(report: &Report) -> Option<String> {
    get(&report.protocol)?.render_text(report)
}
