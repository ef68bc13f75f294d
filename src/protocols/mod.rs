//! Protocols: one folder per competition, each a [`Protocol`] listed once in [`PROTOCOLS`]. The shell
//! ([`shell`], [`roles`]) owns what they share; a protocol turns a file set plus options into one [`Report`].
//! No protocol knows about the browser or the terminal.

pub mod aij2022;
pub mod chalearn_ce;
pub mod classification;
pub mod detection;
pub mod falsid;
pub mod fest;
pub mod kinds;
pub mod kws;
pub mod options;
pub mod preflight;
pub mod regression;
pub mod roles;
pub mod segmentation;
pub mod shell;
#[cfg(feature = "toy")]
pub mod toy;
pub mod views;

pub use shell::{name_says, Class, Looks, Protocol, Run};

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
}

impl Request {
    pub fn new(mode: Mode) -> Self {
        Request {
            mode,
            set: Vec::new(),
            lemmatizer: None,
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
}

/// Every protocol, in the specs' order: the one table of protocol ids. The CLI, the wasm binding, the config
/// validator, the scoring program and `dropscore list` all iterate it.
pub static PROTOCOLS: &[&dyn Protocol] = &[
    &kws::Kws,
    &fest::Fest,
    &falsid::Falsid,
    &chalearn_ce::ChalearnCe,
    &aij2022::Aij2022,
    &classification::Classification,
    &regression::Regression,
    &detection::Detection,
    &segmentation::Segmentation,
    #[cfg(feature = "toy")]
    &toy::Toy,
];

/// The protocol with id `id`.
pub fn get(id: &str) -> Option<&'static dyn Protocol> {
    PROTOCOLS.iter().copied().find(|p| p.info().id == id)
}

/// The protocol with id `id`, or the usage error that lists the known ones.
pub fn require(id: &str) -> Result<&'static dyn Protocol, UsageError> {
    get(id).ok_or_else(|| {
        UsageError(format!(
            "unknown protocol `{id}`; known: {}",
            PROTOCOLS
                .iter()
                .map(|p| p.info().id)
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })
}

/// Every protocol's description, in the table's order.
pub fn list() -> Vec<ProtocolInfo> {
    PROTOCOLS.iter().map(|p| p.info().clone()).collect()
}

pub fn info(id: &str) -> Option<ProtocolInfo> {
    get(id).map(|p| p.info().clone())
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

/// The protocol's own text output (e.g. rusteval's layout, trec_eval's `-q` lines).
pub fn render_text(report: &Report) -> String {
    match get(&report.protocol) {
        Some(p) => p.render_text(report),
        None => crate::render::generic_text(report),
    }
}
