//! The wasm binding: a thin shell that turns dropped files (browser `Blob`s, read with `FileReaderSync`, or
//! `Uint8Array`s) and options into the same JSON report the CLI prints. The page's worker opens one [`Session`]
//! per Score click, which reads each file once; the free [`score`] reads lazily (tests, benchmarks). See
//! www/API.md.

use crate::budget::Budget;
use crate::input::{FileSet, Input, Limits};
use crate::protocols::{self, Progress, Request};
use crate::report::{Mode, Report};
use js_sys::{Array, Function, Reflect, Uint8Array};
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

mod assets;
mod page;
mod read;
mod stats;
mod views;

use read::{inputs, Reading};

/// The wasm heap: Talc instead of Rust's default dlmalloc. Scoring allocates many small strings (100,000
/// captions are ~10 million tokens and keys) and dlmalloc's malloc took a fifth of the captioning time in V8.
#[cfg(not(target_feature = "atomics"))]
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    crate::input::on_reading(note_reading);
}

/// Every protocol with its options and examples, as JSON. Each protocol's options end with the shell's own
/// (`max_memory`, as `dropscore list` shows them), so the page's options form can raise the memory budget; each
/// also says whether the page has a view of its reports (`view`, the module `www/views/<id>.js`) and which
/// assets it loads (`assets`, src/protocols/views.rs).
#[wasm_bindgen]
pub fn protocols() -> String {
    let mut list = serde_json::to_value(protocols::list()).unwrap_or_default();
    let shell = serde_json::to_value(protocols::options::SHELL_OPTIONS).unwrap_or_default();
    if let (Some(list), Some(shell)) = (list.as_array_mut(), shell.as_array()) {
        for (p, protocol) in list.iter_mut().zip(protocols::PROTOCOLS) {
            if let Some(opts) = p.get_mut("options").and_then(|o| o.as_array_mut()) {
                opts.extend(shell.iter().cloned());
            }
            if let (Some(p), Ok(serde_json::Value::Object(extras))) =
                (p.as_object_mut(), serde_json::to_value(protocol.extras()))
            {
                p.extend(extras);
            }
        }
    }
    serde_json::to_string(&list).unwrap_or_else(|_| "[]".into())
}

#[derive(serde::Deserialize, Default)]
struct JsOptions {
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    set: BTreeMap<String, String>,
}

struct JsProgress<'a>(&'a Function);
impl Progress for JsProgress<'_> {
    fn update(&mut self, fraction: f64, phase: &str) {
        let _ = self.0.call2(
            &JsValue::NULL,
            &JsValue::from_f64(fraction),
            &JsValue::from_str(phase),
        );
    }
}

/// The `{ mode, set }` options object as a [`Request`].
fn request(options: JsValue) -> Result<Request, JsValue> {
    let opts: JsOptions = if options.is_undefined() || options.is_null() {
        JsOptions::default()
    } else {
        serde_wasm_bindgen::from_value(options)
            .map_err(|e| JsValue::from_str(&format!("bad options: {e}")))?
    };
    let mode = match opts.mode.as_deref() {
        None => Mode::Official,
        Some(m) => Mode::parse(m).ok_or_else(|| {
            JsValue::from_str(&format!("mode must be official or corrected, not `{m}`"))
        })?,
    };
    Ok(assets::request_with(mode, opts.set.into_iter().collect()))
}

/// Scores `files` with `protocol`; returns the report as JSON text (byte-identical to the CLI's
/// `--format json`). Throws a string only for usage errors; input problems are diagnostics in the report.
/// Blobs are read lazily, as the readers ask: a one-shot score (tests, benchmarks); the page uses a [`Session`].
#[wasm_bindgen]
pub fn score(
    protocol: &str,
    files: JsValue,
    options: JsValue,
    on_progress: &Function,
) -> Result<String, JsValue> {
    let req = request(options)?;
    let mut progress = JsProgress(on_progress);
    let (inputs, _) = inputs(&files, Reading::Lazy, &mut protocols::Quiet)?;
    reserve_heap(inputs.iter().map(|i| i.blob.len()).sum());
    let files = FileSet::build(inputs, &Limits::from_set(&req.set));
    protocols::score(protocol, &files, &req, &mut progress)
        .map(|r| r.to_json())
        .map_err(|e| JsValue::from_str(&e.0))
}

/// The dropped files of one Score click, read once (www/API.md, "Session"): both modes, the explanation of their
/// differences, the views' requests, single-id details and the retry with a loaded asset all use this one
/// [`FileSet`], built from the bytes in wasm memory, and the explanation compares the reports kept here.
#[wasm_bindgen]
pub struct Session {
    protocol: String,
    /// The dropped files, kept to rebuild `files` when a request names another memory budget (`max_memory`).
    inputs: Vec<Input>,
    /// `inputs` indexed under the limits of `budget` (the page's default until a request sets `max_memory`).
    files: FileSet,
    budget: Budget,
    /// The last kept report of each mode (official, corrected).
    kept: [Option<Report>; 2],
    /// Whether each kept report's intervals are still to be computed (it was scored with them left for later:
    /// src/wasm/stats.rs fills them, for the page's headline or for an export).
    pending: [bool; 2],
    /// The per-item table's last filter and sort over each kept report (src/items_query.rs).
    pages: [crate::items_query::Cache; 2],
    bytes_in_memory: u64,
    /// What the protocol's views keep between requests ([`Session::view`]).
    views: protocols::views::Cache,
}

fn mode_slot(mode: Mode) -> usize {
    match mode {
        Mode::Official => 0,
        Mode::Corrected => 1,
    }
}

#[wasm_bindgen]
impl Session {
    /// Reads every Blob of `files` once, front to back, into wasm memory (a `Uint8Array` is copied), and builds the
    /// file set (zips and `.gz` are indexed here, inflated when read). `on_progress(fraction, "reading <path>")`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        protocol: &str,
        files: JsValue,
        on_progress: Option<Function>,
    ) -> Result<Session, JsValue> {
        let total = match files.dyn_ref::<Array>() {
            Some(a) => a
                .iter()
                .filter_map(|f| Reflect::get(&f, &"data".into()).ok())
                .map(|d| {
                    d.dyn_ref::<web_sys::Blob>()
                        .map(|b| b.size() as u64)
                        .or_else(|| d.dyn_ref::<Uint8Array>().map(|u| u.length() as u64))
                        .unwrap_or(0)
                })
                .sum(),
            None => 0,
        };
        reserve_heap(total);
        let (inputs, bytes_in_memory) = match &on_progress {
            Some(f) => inputs(&files, Reading::Whole, &mut JsProgress(f))?,
            None => inputs(&files, Reading::Whole, &mut protocols::Quiet)?,
        };
        let budget = Budget::default();
        let files = FileSet::build(copies(&inputs), &Limits::from_budget(budget));
        assets::warm_up_once(protocol, &files);
        Ok(Session {
            protocol: protocol.to_string(),
            files,
            inputs,
            budget,
            kept: [None, None],
            pending: [false, false],
            pages: Default::default(),
            bytes_in_memory,
            views: Default::default(),
        })
    }

    /// Bytes of the dropped files held in wasm memory (Blobs beyond 1 GiB in all are read lazily instead).
    #[wasm_bindgen(getter)]
    pub fn bytes_in_memory(&self) -> f64 {
        self.bytes_in_memory as f64
    }

    /// Scores the session's files with `options` (`{ mode, set }`); returns the report as JSON text, as
    /// [`score`]. With `keep`, the report is kept as its mode's report for [`Session::explain`] (the page keeps the
    /// two reports of a Score click; a single-id detail is not kept).
    pub fn score(
        &mut self,
        options: JsValue,
        on_progress: &Function,
        keep: Option<bool>,
    ) -> Result<String, JsValue> {
        self.score_with(options, on_progress, keep, |r| r.to_json())
    }

    /// The pre-flight check (docs/specs/preflight.md) of the session's files, every one a prediction, against the
    /// manifest `manifest` (its JSON text): the report's JSON with `ready` and `summary`, as `dropscore check
    /// --format json`. Throws a string for usage errors: a manifest that is not one, of another protocol, an
    /// option that conflicts with it, or a protocol without a pre-flight check yet.
    pub fn check(&mut self, manifest: &str, options: JsValue) -> Result<String, JsValue> {
        let req = request(options)?;
        self.budget_of(&req.set);
        protocols::preflight::check(&self.protocol, manifest, &self.files, &req.set)
            .map(|c| c.to_json())
            .map_err(|e| JsValue::from_str(&e.0))
    }

    /// Keeps `report` as its mode's report.
    /// Scores the session's files with `options`, turns the report into text with `text`, and keeps it as its
    /// mode's report when `keep` is true (for [`Session::explain`] and the page's per-item requests).
    pub(crate) fn score_with(
        &mut self,
        options: JsValue,
        on_progress: &Function,
        keep: Option<bool>,
        text: impl FnOnce(&Report) -> String,
    ) -> Result<String, JsValue> {
        let req = request(options)?;
        let mut progress = JsProgress(on_progress);
        self.budget_of(&req.set);
        // A kept report's intervals come after its headline, in steps the page can cancel (src/wasm/stats.rs).
        let defer = keep.unwrap_or(false);
        let report = crate::protocols::contract_stats::deferring(defer, || {
            protocols::score(&self.protocol, &self.files, &req, &mut progress)
        })
        .map_err(|e| JsValue::from_str(&e.0))?;
        let out = text(&report);
        if keep.unwrap_or(false) {
            self.keep(report);
        }
        Ok(out)
    }

    fn keep(&mut self, report: Report) {
        let slot = mode_slot(report.mode);
        self.pending[slot] = report.statistics.is_some() && report.intervals.0.is_empty();
        self.kept[slot] = Some(report);
        self.pages[slot] = Default::default();
    }

    /// Rebuilds the file set when `set` names another memory budget than the one it was built under.
    fn budget_of(&mut self, set: &[(String, String)]) {
        let budget = Budget::from_set(set);
        if budget != self.budget {
            self.files = FileSet::build(copies(&self.inputs), &Limits::from_budget(budget));
            self.budget = budget;
            self.kept = [None, None];
            self.pending = [false, false];
            self.pages = Default::default();
        }
    }

    /// One line per difference between the kept official and corrected reports, as a JSON array of strings.
    /// Throws unless both modes were scored with `keep`.
    pub fn explain(&self) -> Result<String, JsValue> {
        match &self.kept {
            [Some(o), Some(c)] => Ok(
                serde_json::to_string(&protocols::explain(o, c)).unwrap_or_else(|_| "[]".into())
            ),
            _ => Err(JsValue::from_str(
                "both modes must be scored (and kept) before they can be compared",
            )),
        }
    }
}

/// The inputs again, sharing their bytes.
fn copies(inputs: &[Input]) -> Vec<Input> {
    inputs
        .iter()
        .map(|i| Input {
            path: i.path.clone(),
            role: i.role,
            blob: i.blob.clone(),
        })
        .collect()
}

/// Tells the worker which file is being read (`globalThis.dropscoreReading`), so that a trap (an allocation
/// that failed, which Rust cannot catch in wasm) is reported on that file. Called by the input layer each
/// time an entry is opened; cheap (a property set when the path changes).
pub(crate) fn note_reading(path: &str) {
    thread_local! {
        static LAST: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    LAST.with(|l| {
        if let Ok(mut last) = l.try_borrow_mut() {
            if *last != path {
                last.clear();
                last.push_str(path);
                let _ = Reflect::set(
                    &js_sys::global(),
                    &"dropscoreReading".into(),
                    &JsValue::from_str(path),
                );
            }
        }
    });
}

/// The wasm memory's size in bytes (it only grows): the worker reports it with each result.
#[wasm_bindgen]
pub fn memory_bytes() -> f64 {
    (core::arch::wasm32::memory_size(0) * 65536) as f64
}

/// Grows the wasm memory in one step, before scoring, to about 16× the input size (at most 1.5 GiB) when it is
/// smaller: grown a little at a time, as the allocator asks, V8 spent more time growing the memory than scoring
/// (100,000 captioning pairs: 6.4 s on a fresh worker, 2.2 s once the memory had grown). Pages that are never
/// written cost no RAM.
fn reserve_heap(input_bytes: u64) {
    let want = input_bytes.saturating_mul(16).min(3 << 29) as usize;
    let have = core::arch::wasm32::memory_size(0) * 65536;
    if have < want {
        drop(Vec::<u8>::with_capacity(want - have));
    }
}

/// Scores protocol `protocol`'s small built-in input (`protocols::exercise`) so that V8 compiles its scoring
/// code before a large input arrives; returns the headline value, or `undefined` for a protocol without one.
/// The worker runs it once per protocol when the page selects one (www/API.md, message `warm`).
#[wasm_bindgen]
pub fn exercise(protocol: &str) -> Option<f64> {
    protocols::exercise(protocol)
}

/// Validates a competition config in its JSON form (src/config.rs): `{"config": {...}}` or
/// `{"errors": [{line, column, path, message}, ...]}`, as JSON text. The page's `<dropscore-evaluator>` asks
/// for it through the worker (`{type: 'config', text}`).
#[wasm_bindgen]
pub fn check_config(text: &str) -> String {
    // Written with to_string (already linked for reports) rather than json!/to_value, to keep the wasm small.
    match crate::config::from_json(text) {
        Ok(c) => format!(
            "{{\"config\":{}}}",
            serde_json::to_string(&c).unwrap_or_default()
        ),
        Err(e) => format!(
            "{{\"errors\":{}}}",
            serde_json::to_string(&e).unwrap_or_default()
        ),
    }
}
