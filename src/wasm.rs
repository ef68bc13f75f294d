//! The wasm binding: a thin shell that turns dropped files (browser `Blob`s, read with `FileReaderSync`, or
//! `Uint8Array`s) and options into the same JSON report the CLI prints. The page's worker opens one [`Session`]
//! per Score click, which reads each file once; the free [`score`] reads lazily (tests, benchmarks). See
//! www/API.md.

use crate::budget::Budget;
use crate::input::{Blob, FileSet, Input, Limits, Role};
use crate::protocols::{self, Progress, Request};
use crate::report::{Mode, Report};
use js_sys::{Array, Function, Reflect, Uint8Array};
use std::collections::BTreeMap;
use std::io;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Every protocol with its options and examples, as JSON. Each protocol's options end with the shell's own
/// (`max_memory`, as `dropscore list` shows them), so the page's options form can raise the memory budget.
#[wasm_bindgen]
pub fn protocols() -> String {
    let mut list = serde_json::to_value(protocols::list()).unwrap_or_default();
    let shell = serde_json::to_value(protocols::options::SHELL_OPTIONS).unwrap_or_default();
    if let (Some(list), Some(shell)) = (list.as_array_mut(), shell.as_array()) {
        for p in list {
            if let Some(opts) = p.get_mut("options").and_then(|o| o.as_array_mut()) {
                opts.extend(shell.iter().cloned());
            }
        }
    }
    serde_json::to_string(&list).unwrap_or_else(|_| "[]".into())
}

/// A browser Blob read in slices (only inside a worker, where `FileReaderSync` exists). Each trip into JS
/// fetches a 4 MiB chunk; the readers' smaller reads are served from it.
struct WebBlob {
    blob: web_sys::Blob,
    reader: web_sys::FileReaderSync,
    len: u64,
    /// (offset, bytes) of the last chunk read.
    chunk: std::cell::RefCell<(u64, Vec<u8>)>,
}

const CHUNK: u64 = 4 << 20;

impl WebBlob {
    fn fetch_array(&self, offset: u64, n: u64) -> io::Result<Uint8Array> {
        let part = self
            .blob
            .slice_with_f64_and_f64(offset as f64, (offset + n) as f64)
            .map_err(|e| io::Error::other(format!("{e:?}")))?;
        let ab = self
            .reader
            .read_as_array_buffer(&part)
            .map_err(|e| io::Error::other(format!("{e:?}")))?;
        Ok(Uint8Array::new(&ab))
    }
    fn fetch(&self, offset: u64, n: u64) -> io::Result<Vec<u8>> {
        Ok(self.fetch_array(offset, n)?.to_vec())
    }
    /// The whole content, read front to back once in [`WHOLE_SLICE`] slices (`read(bytes so far)` after each);
    /// `None` when wasm memory cannot hold it or a read fails (the caller then reads lazily, and a failing read
    /// becomes a diagnostic there).
    fn read_whole(&self, read: &mut dyn FnMut(u64)) -> Option<Vec<u8>> {
        let len = usize::try_from(self.len).ok()?;
        let mut out = Vec::new();
        out.try_reserve_exact(len).ok()?;
        out.resize(len, 0);
        let mut at = 0u64;
        while at < self.len {
            let arr = self.fetch_array(at, WHOLE_SLICE.min(self.len - at)).ok()?;
            let n = arr.length() as u64;
            if n == 0 || at + n > self.len {
                return None;
            }
            arr.copy_to(&mut out[at as usize..(at + n) as usize]);
            at += n;
            read(at);
        }
        Some(out)
    }
}

impl Blob for WebBlob {
    fn len(&self) -> u64 {
        self.len
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        if offset >= self.len || buf.is_empty() {
            return Ok(0);
        }
        let mut chunk = self.chunk.borrow_mut();
        let inside = offset >= chunk.0 && offset < chunk.0 + chunk.1.len() as u64;
        if !inside && buf.len() as u64 >= CHUNK {
            // A large read (a whole file read at once): straight into the caller's buffer, in one trip.
            let n = (buf.len() as u64).min(self.len - offset);
            let arr = self.fetch_array(offset, n)?;
            let got = (arr.length() as usize).min(buf.len());
            arr.subarray(0, got as u32).copy_to(&mut buf[..got]);
            return Ok(got);
        }
        if !inside {
            let n = CHUNK.max(buf.len() as u64).min(self.len - offset);
            *chunk = (offset, self.fetch(offset, n)?);
        }
        let start = (offset - chunk.0) as usize;
        let got = buf.len().min(chunk.1.len() - start);
        buf[..got].copy_from_slice(&chunk.1[start..start + got]);
        Ok(got)
    }
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

/// How `inputs` hands browser Blobs to the readers.
#[derive(Clone, Copy, PartialEq)]
enum Reading {
    /// In 4 MiB slices, as the readers ask (a second pass reads the file again).
    Lazy,
    /// Each Blob read through once, into wasm memory, up to [`IN_MEMORY_LIMIT`] bytes in all; larger inputs
    /// stay lazy.
    Whole,
}

/// The most bytes a [`Session`] copies into wasm memory (the rest is read lazily, so a multi-GiB drop still scores).
const IN_MEMORY_LIMIT: u64 = 1 << 30;

/// Read in slices of this size when a Blob is read whole: the Blob is never held twice (in JS and in wasm).
const WHOLE_SLICE: u64 = 8 << 20;

/// The dropped files (`[{ path, role, data }]`) as inputs, and how many of their bytes were copied into wasm memory
/// (every `Uint8Array`; with [`Reading::Whole`], the Blobs read whole).
fn inputs(
    files: &JsValue,
    reading: Reading,
    progress: &mut dyn Progress,
) -> Result<(Vec<Input>, u64), JsValue> {
    let arr: &Array = files
        .dyn_ref()
        .ok_or_else(|| JsValue::from_str("files must be an array"))?;
    let mut out = Vec::new();
    let mut reader: Option<web_sys::FileReaderSync> = None;
    let mut in_memory = 0u64;
    let total: f64 = arr
        .iter()
        .map(|f| {
            Reflect::get(&f, &"data".into())
                .ok()
                .and_then(|d| d.dyn_into::<web_sys::Blob>().ok())
                .map_or(0.0, |b| b.size())
        })
        .sum::<f64>()
        .max(1.0);
    let mut done = 0.0;
    for f in arr.iter() {
        let path = Reflect::get(&f, &"path".into())?
            .as_string()
            .ok_or_else(|| JsValue::from_str("file.path must be a string"))?;
        let role = Reflect::get(&f, &"role".into())?
            .as_string()
            .and_then(|r| Role::parse(&r));
        let data = Reflect::get(&f, &"data".into())?;
        let blob: Rc<dyn Blob> = if let Some(u8s) = data.dyn_ref::<Uint8Array>() {
            in_memory += u8s.length() as u64;
            Rc::new(u8s.to_vec())
        } else if let Some(b) = data.dyn_ref::<web_sys::Blob>() {
            let r = match &reader {
                Some(r) => r.clone(),
                None => {
                    let r = web_sys::FileReaderSync::new()?;
                    reader = Some(r.clone());
                    r
                }
            };
            let web = WebBlob {
                blob: b.clone(),
                reader: r,
                len: b.size() as u64,
                chunk: Default::default(),
            };
            let whole = (reading == Reading::Whole && in_memory + web.len <= IN_MEMORY_LIMIT)
                .then(|| {
                    web.read_whole(&mut |n| {
                        progress.update((done + n as f64) / total, &format!("reading {path}"))
                    })
                })
                .flatten();
            done += web.len as f64;
            match whole {
                Some(bytes) => {
                    in_memory += bytes.len() as u64;
                    Rc::new(bytes)
                }
                None => Rc::new(web),
            }
        } else {
            return Err(JsValue::from_str(&format!(
                "{path}: data must be a Blob, File or Uint8Array"
            )));
        };
        out.push(Input { path, role, blob });
    }
    Ok((out, in_memory))
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
    Ok(Request {
        set: opts.set.into_iter().collect(),
        lemmatizer: LEMMATIZER.with(|l| l.borrow().clone()),
        ..Request::new(mode)
    })
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
/// differences, fest overlays, aij2022's single-id detail and the lemma retry all score this one [`FileSet`],
/// built from the bytes in wasm memory, and the explanation compares the reports kept here.
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
    bytes_in_memory: u64,
    /// `detection`'s image viewer: the files indexed for the options (as JSON text) it was asked with.
    detection: Option<(String, protocols::detection::viewer::Prepared)>,
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
        Ok(Session {
            protocol: protocol.to_string(),
            files: FileSet::build(copies(&inputs), &Limits::from_budget(budget)),
            inputs,
            budget,
            kept: [None, None],
            bytes_in_memory,
            detection: None,
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
        let req = request(options)?;
        let mut progress = JsProgress(on_progress);
        self.budget_of(&req.set);
        let report = protocols::score(&self.protocol, &self.files, &req, &mut progress)
            .map_err(|e| JsValue::from_str(&e.0))?;
        let json = report.to_json();
        if keep.unwrap_or(false) {
            let slot = mode_slot(report.mode);
            self.kept[slot] = Some(report);
        }
        Ok(json)
    }

    /// The pre-flight check (specs/preflight.md) of the session's files, every one a prediction, against the
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

    /// Rebuilds the file set when `set` names another memory budget than the one it was built under.
    fn budget_of(&mut self, set: &[(String, String)]) {
        let budget = Budget::from_set(set);
        if budget != self.budget {
            self.files = FileSet::build(copies(&self.inputs), &Limits::from_budget(budget));
            self.budget = budget;
            self.kept = [None, None];
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

    /// `fest`: the mask overlay of one image (an item id of the report) as
    /// `{ width, height, rgba: Uint8Array, gt_labels: Uint32Array, pred_labels: Uint32Array, meta: JSON string }`
    /// (www/API.md). Throws a string when the image cannot be scored.
    pub fn fest_overlay(&self, options: JsValue, image_id: &str) -> Result<JsValue, JsValue> {
        let req = request(options)?;
        let o = protocols::fest::overlay::overlay(&self.files, &req, image_id)
            .map_err(|e| JsValue::from_str(&e))?;
        overlay_object(o)
    }

    /// `fest`: the page image dropped for one image (`img-<MS>/…/<stem>.jpg`, specs/fest.md 2.1) as
    /// `{ path, bytes: Uint8Array }`, or `null` when none was dropped. The page decodes it and draws the overlay on it.
    pub fn fest_page_image(&self, options: JsValue, image_id: &str) -> Result<JsValue, JsValue> {
        let req = request(options)?;
        let Some(e) = protocols::fest::page_image::find(&self.files, &req, image_id) else {
            return Ok(JsValue::NULL);
        };
        let bytes = e
            .read_all()
            .map_err(|err| JsValue::from_str(&format!("{}: {err}", e.path)))?;
        let obj = js_sys::Object::new();
        Reflect::set(&obj, &"path".into(), &JsValue::from_str(&e.path))?;
        Reflect::set(&obj, &"bytes".into(), &Uint8Array::from(&bytes[..]))?;
        Ok(obj.into())
    }

    /// `segmentation`: the overlay of one image (an item id of the report): correct green, wrong class magenta,
    /// not predicted blue, ignored hatched; the same object as [`Session::fest_overlay`], with the GT and
    /// predicted class of every pixel in `gt_labels` / `pred_labels`.
    pub fn segmentation_overlay(
        &self,
        options: JsValue,
        image_id: &str,
    ) -> Result<JsValue, JsValue> {
        let req = request(options)?;
        let o = protocols::segmentation::overlay(&self.files, &req, image_id)
            .map_err(|e| JsValue::from_str(&e))?;
        overlay_object(o)
    }

    /// `detection`: the images of the ground truth, `[{image_id, name}]` as JSON (src/protocols/detection/viewer.rs).
    pub fn detection_images(&mut self, options: JsValue) -> Result<String, JsValue> {
        Ok(self.detection_view(options)?.images().to_string())
    }

    /// `detection`: one image's GT boxes and detections, classified TP / FP / FN at IoU 0.5 (area all, the
    /// largest maxDets) by the evaluation's own matching, as JSON (src/protocols/detection/viewer.rs). The files
    /// are indexed once per session and options.
    pub fn detection_image(&mut self, options: JsValue, image_id: f64) -> Result<String, JsValue> {
        if image_id.fract() != 0.0 || !image_id.is_finite() {
            return Err(JsValue::from_str("image_id must be an integer"));
        }
        let v = self.detection_view(options)?.image(image_id as i64);
        v.map(|v| v.to_string()).map_err(|e| JsValue::from_str(&e))
    }

    fn detection_view(
        &mut self,
        options: JsValue,
    ) -> Result<&protocols::detection::viewer::Prepared, JsValue> {
        let key = js_sys::JSON::stringify(&options)
            .ok()
            .and_then(|k| k.as_string())
            .unwrap_or_default();
        if self.detection.as_ref().map(|d| &d.0) != Some(&key) {
            let req = request(options)?;
            let prepared = protocols::detection::viewer::prepare(&self.files, &req)
                .map_err(|e| JsValue::from_str(&e))?;
            self.detection = Some((key, prepared));
        }
        match &self.detection {
            Some((_, p)) => Ok(p),
            None => Err(JsValue::from_str("the detections cannot be evaluated")),
        }
    }
}

/// An overlay as the object of www/API.md: `{ width, height, rgba, gt_labels, pred_labels, meta: JSON string }`.
fn overlay_object(o: protocols::fest::overlay::Overlay) -> Result<JsValue, JsValue> {
    let obj = js_sys::Object::new();
    Reflect::set(&obj, &"width".into(), &JsValue::from(o.width))?;
    Reflect::set(&obj, &"height".into(), &JsValue::from(o.height))?;
    Reflect::set(&obj, &"rgba".into(), &Uint8Array::from(&o.rgba[..]))?;
    Reflect::set(
        &obj,
        &"gt_labels".into(),
        &js_sys::Uint32Array::from(&o.gt_labels[..]),
    )?;
    Reflect::set(
        &obj,
        &"pred_labels".into(),
        &js_sys::Uint32Array::from(&o.pred_labels[..]),
    )?;
    Reflect::set(
        &obj,
        &"meta".into(),
        &JsValue::from_str(&o.meta.to_string()),
    )?;
    Ok(obj.into())
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

/// Runs the FID linear algebra once on small matrices (d = 300, ~0.2 s) so that V8 has compiled it with its
/// optimising tier before a 2048-d input arrives (see `metrics::aij::fid::exercise`). The worker calls it once,
/// before its first aij2022 score with `.npy`/`.npz` inputs.
#[wasm_bindgen]
pub fn warm_up() -> f64 {
    crate::metrics::aij::fid::exercise(300)
}

/// Scores protocol `protocol`'s small built-in input (`protocols::exercise`) so that V8 compiles its scoring
/// code before a large input arrives; returns the headline value, or `undefined` for a protocol without one.
/// The worker runs it once per protocol when the page selects one (www/API.md, message `warm`).
#[wasm_bindgen]
pub fn exercise(protocol: &str) -> Option<f64> {
    protocols::exercise(protocol)
}

thread_local! {
    /// The Russian lemmatiser, once the worker has handed its asset over (`lemma_load`).
    static LEMMATIZER: std::cell::RefCell<Option<std::sync::Arc<crate::lemma::Lemmatizer>>> =
        const { std::cell::RefCell::new(None) };
}

/// Loads the Russian lemmatiser asset (`www/assets/ru-lemmas.bin`, fetched by the worker when an `aij2022`
/// text task needs it); every later `score` uses it. Returns the asset's source description.
#[wasm_bindgen]
pub fn lemma_load(bytes: &[u8]) -> Result<String, JsValue> {
    let lem = crate::lemma::Lemmatizer::from_bytes(bytes).map_err(|e| JsValue::from_str(&e))?;
    let meta = lem.meta().to_string();
    LEMMATIZER.with(|l| *l.borrow_mut() = Some(std::sync::Arc::new(lem)));
    Ok(meta)
}

/// Whether `lemma_load` has succeeded.
#[wasm_bindgen]
pub fn lemma_loaded() -> bool {
    LEMMATIZER.with(|l| l.borrow().is_some())
}

/// Normal forms of newline-separated lower-cased words, newline-separated (as `dropscore lemma`).
#[wasm_bindgen]
pub fn lemma_normal_forms(words: &str) -> Result<String, JsValue> {
    let lem = LEMMATIZER
        .with(|l| l.borrow().clone())
        .ok_or_else(|| JsValue::from_str("the Russian lemmatiser is not loaded"))?;
    let mut out = String::with_capacity(words.len());
    for w in words.lines() {
        out.push_str(&lem.normal_form(w));
        out.push('\n');
    }
    Ok(out)
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
