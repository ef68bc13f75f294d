//! The protocols' assets in wasm (src/protocols/views.rs [`Asset`]): the worker fetches an asset's file when a
//! report says it was needed, hands its bytes to [`asset_load`], and every later request carries it.

use crate::protocols::views::{self, Asset};
use crate::protocols::Request;
use crate::report::Mode;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The loaded assets, held as a request that every request starts from.
    static LOADED: RefCell<Request> = RefCell::new(Request::new(Mode::Official));
}

/// A request with `mode`, `set` and the loaded assets.
pub(crate) fn request_with(mode: Mode, set: Vec<(String, String)>) -> Request {
    LOADED.with(|l| Request {
        mode,
        set,
        ..l.borrow().clone()
    })
}

fn named(name: &str) -> Result<&'static Asset, JsValue> {
    views::asset(name).ok_or_else(|| JsValue::from_str(&format!("no asset `{name}`")))
}

/// Loads asset `name` (as `protocols()` lists it under a protocol's `assets`) from its file's bytes; every
/// later request uses it. Returns what the file says about itself (its sources); throws a string when it
/// cannot be read.
#[wasm_bindgen]
pub fn asset_load(name: &str, bytes: &[u8]) -> Result<String, JsValue> {
    let asset = named(name)?;
    LOADED
        .with(|l| (asset.load)(bytes, &mut l.borrow_mut()))
        .map_err(|e| JsValue::from_str(&e))
}

/// Whether asset `name` is loaded.
#[wasm_bindgen]
pub fn asset_loaded(name: &str) -> Result<bool, JsValue> {
    let asset = named(name)?;
    Ok(LOADED.with(|l| (asset.loaded)(&l.borrow())))
}

/// Loads the Russian lemmatiser from its dictionary's bytes, as that asset does (the parity tests and the
/// benchmarks load it directly). Returns the dictionary's source description.
#[wasm_bindgen]
pub fn lemma_load(bytes: &[u8]) -> Result<String, JsValue> {
    let lem = crate::lemma::Lemmatizer::from_bytes(bytes).map_err(|e| JsValue::from_str(&e))?;
    let meta = lem.meta().to_string();
    LOADED.with(|l| l.borrow_mut().lemmatizer = Some(std::sync::Arc::new(lem)));
    Ok(meta)
}

/// Whether the Russian lemmatiser is loaded.
#[wasm_bindgen]
pub fn lemma_loaded() -> bool {
    LOADED.with(|l| l.borrow().lemmatizer.is_some())
}

/// Normal forms of newline-separated lower-cased words, newline-separated (as `dropscore lemma`).
#[wasm_bindgen]
pub fn lemma_normal_forms(words: &str) -> Result<String, JsValue> {
    let lem = LOADED
        .with(|l| l.borrow().lemmatizer.clone())
        .ok_or_else(|| JsValue::from_str("the Russian lemmatiser is not loaded"))?;
    let mut out = String::with_capacity(words.len());
    for w in words.lines() {
        out.push_str(&lem.normal_form(w));
        out.push('\n');
    }
    Ok(out)
}

thread_local! {
    /// The protocols whose warm-up has run in this instance.
    static WARMED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Runs `protocol`'s warm-up for `files` unless it ran in this instance (src/protocols/views.rs
/// `Extras::warm_up`: e.g. FID's linear algebra before the first FID input).
pub(crate) fn warm_up_once(protocol: &str, files: &crate::input::FileSet) {
    if WARMED.with(|w| w.borrow().iter().any(|p| p == protocol)) {
        return;
    }
    if views::warm_up(protocol, files) {
        WARMED.with(|w| w.borrow_mut().push(protocol.to_string()));
    }
}
