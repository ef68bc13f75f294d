//! Protocols: one module per competition. Each turns a [`FileSet`] plus a [`Request`] into one [`Report`].
//! No protocol knows about the browser or the terminal.

pub mod aij2022;
pub mod chalearn_ce;
pub mod classification;
pub mod falsid;
pub mod fest;
pub mod kws;
pub mod options;
pub mod regression;

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

#[allow(dead_code)] // every protocol of the specs is built; kept for the next one
const fn planned(id: &'static str, name: &'static str, summary: &'static str) -> ProtocolInfo {
    ProtocolInfo {
        id,
        name,
        built: false,
        summary,
        gt_files: "",
        pred_files: "",
        options: &[],
        examples: &[],
    }
}

/// Every protocol, in the specs' order.
pub fn list() -> Vec<ProtocolInfo> {
    vec![
        kws::INFO,
        fest::INFO,
        falsid::INFO,
        chalearn_ce::INFO,
        aij2022::INFO,
        classification::INFO,
        regression::INFO,
    ]
}

pub fn info(id: &str) -> Option<ProtocolInfo> {
    list().into_iter().find(|p| p.id == id)
}

/// Scores `files` with protocol `id`. Input problems are diagnostics inside the report; only usage errors
/// (unknown protocol, protocol not built, bad option) are `Err`.
pub fn score(
    id: &str,
    files: &FileSet,
    req: &Request,
    progress: &mut dyn Progress,
) -> Result<Report, UsageError> {
    let mut throttled = Throttle::new(progress);
    let mut report = match id {
        "kws" => kws::score(files, req, &mut throttled)?,
        "falsid" => falsid::score(files, req, &mut throttled)?,
        chalearn_ce::ID => chalearn_ce::score(files, req, &mut throttled)?,
        "fest" => fest::score(files, req, &mut throttled)?,
        "aij2022" => aij2022::score(files, req, &mut throttled)?,
        classification::ID => classification::score(files, req, &mut throttled)?,
        regression::ID => regression::score(files, req, &mut throttled)?,
        _ => {
            return Err(UsageError(match info(id) {
                Some(_) => format!("protocol `{id}` is specified but not built yet"),
                None => format!(
                    "unknown protocol `{id}`; known: {}",
                    list().iter().map(|p| p.id).collect::<Vec<_>>().join(", ")
                ),
            }))
        }
    };
    report.sort_diagnostics();
    throttled.update(1.0, "done");
    Ok(report)
}

/// Scores a small built-in input of protocol `id` and returns its headline value, keeping nothing: callers
/// run it while idle so that a JIT compiler (V8's, for the wasm build) has compiled the scoring code before a
/// large input arrives. `None` for a protocol without one (its inputs are small, or its long-running code has
/// its own warm-up, as FID has).
pub fn exercise(id: &str) -> Option<f64> {
    match id {
        "aij2022" => aij2022::exercise::exercise(1000),
        _ => None,
    }
}

/// One line per difference between an `official` and a `corrected` report of the same input.
pub fn explain(official: &Report, corrected: &Report) -> Vec<String> {
    match official.protocol.as_str() {
        "kws" => kws::explain(official, corrected),
        "falsid" => falsid::explain(official, corrected),
        chalearn_ce::ID => chalearn_ce::explain(official, corrected),
        "fest" => fest::explain(official, corrected),
        "aij2022" => aij2022::explain(official, corrected),
        _ => Vec::new(),
    }
}

/// The protocol's own text output (e.g. rusteval's layout, trec_eval's `-q` lines).
pub fn render_text(report: &Report) -> String {
    match report.protocol.as_str() {
        "kws" => kws::render_text(report),
        "falsid" => falsid::render_text(report),
        chalearn_ce::ID => chalearn_ce::render_text(report),
        "fest" => fest::render_text(report),
        "aij2022" => aij2022::render_text(report),
        _ => crate::render::generic_text(report),
    }
}
