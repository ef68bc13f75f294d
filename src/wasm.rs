//! The wasm binding: a thin shell that turns dropped files (browser `Blob`s, read lazily in chunks with
//! `FileReaderSync`, or `Uint8Array`s) and options into the same JSON report the CLI prints. See www/API.md.

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

/// Every protocol with its options and examples, as JSON.
#[wasm_bindgen]
pub fn protocols() -> String {
    serde_json::to_string(&protocols::list()).unwrap_or_else(|_| "[]".into())
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

fn inputs(files: &JsValue) -> Result<Vec<Input>, JsValue> {
    let arr: &Array = files
        .dyn_ref()
        .ok_or_else(|| JsValue::from_str("files must be an array"))?;
    let mut out = Vec::new();
    let mut reader: Option<web_sys::FileReaderSync> = None;
    for f in arr.iter() {
        let path = Reflect::get(&f, &"path".into())?
            .as_string()
            .ok_or_else(|| JsValue::from_str("file.path must be a string"))?;
        let role = Reflect::get(&f, &"role".into())?
            .as_string()
            .and_then(|r| Role::parse(&r));
        let data = Reflect::get(&f, &"data".into())?;
        let blob: Rc<dyn Blob> = if let Some(u8s) = data.dyn_ref::<Uint8Array>() {
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
            Rc::new(WebBlob {
                blob: b.clone(),
                reader: r,
                len: b.size() as u64,
                chunk: Default::default(),
            })
        } else {
            return Err(JsValue::from_str(&format!(
                "{path}: data must be a Blob, File or Uint8Array"
            )));
        };
        out.push(Input { path, role, blob });
    }
    Ok(out)
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
#[wasm_bindgen]
pub fn score(
    protocol: &str,
    files: JsValue,
    options: JsValue,
    on_progress: &Function,
) -> Result<String, JsValue> {
    let req = request(options)?;
    let inputs = inputs(&files)?;
    reserve_heap(inputs.iter().map(|i| i.blob.len()).sum());
    let files = FileSet::build(inputs, &Limits::default());
    let mut progress = JsProgress(on_progress);
    protocols::score(protocol, &files, &req, &mut progress)
        .map(|r| r.to_json())
        .map_err(|e| JsValue::from_str(&e.0))
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

/// One line per difference between an official and a corrected report (both JSON texts).
#[wasm_bindgen]
pub fn explain(official: &str, corrected: &str) -> Result<String, JsValue> {
    let o: Report =
        serde_json::from_str(official).map_err(|e| JsValue::from_str(&e.to_string()))?;
    let c: Report =
        serde_json::from_str(corrected).map_err(|e| JsValue::from_str(&e.to_string()))?;
    Ok(serde_json::to_string(&protocols::explain(&o, &c)).unwrap_or_else(|_| "[]".into()))
}

/// `fest`: the mask overlay of one image (an item id of the report) as
/// `{ width, height, rgba: Uint8Array, gt_labels: Uint32Array, pred_labels: Uint32Array, meta: JSON string }`
/// (www/API.md). Throws a string when the image cannot be scored.
#[wasm_bindgen]
pub fn fest_overlay(files: JsValue, options: JsValue, image_id: &str) -> Result<JsValue, JsValue> {
    let req = request(options)?;
    let files = FileSet::build(inputs(&files)?, &Limits::default());
    let o = protocols::fest::overlay::overlay(&files, &req, image_id)
        .map_err(|e| JsValue::from_str(&e))?;
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
