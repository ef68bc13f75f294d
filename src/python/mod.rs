//! The Python binding (cargo feature `python`, built by maturin into the `dropscore` wheel as
//! `dropscore._native`): a thin shell over the same library calls as the command line, so a report is the CLI's
//! `--format json` byte for byte. The Python package (`python/dropscore/`) turns paths, bytes and DataFrames into
//! the `inputs` taken here and parses the JSON.
//!
//! An input is `(role, path, data)`: `data = None` reads `path` from disk as the command line reads its
//! arguments (a folder is walked, links inside it are skipped); `data = bytes` is a file of that name in memory.

mod compare;
mod inputs;

use crate::input::{FileSet, Limits};
use crate::protocols::{self, preflight, views, Request};
use crate::report::Mode;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use std::sync::Mutex;

/// The loaded assets (a dictionary), as a request every call starts from.
static LOADED: Mutex<Option<Request>> = Mutex::new(None);

type PyInput = (String, String, Option<PyBackedBytes>);

fn usage(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A request with `mode`, `set` and the loaded assets. An asset of `protocol` not loaded yet is loaded from the
/// file its environment variable names (`DROPSCORE_LEMMAS`), as the command line does.
fn request(protocol: &str, mode: Mode, set: Vec<(String, String)>) -> PyResult<Request> {
    if let Some(p) = protocols::get(protocol) {
        for asset in p.extras().assets {
            let mut loaded = LOADED
                .lock()
                .map_err(|_| usage("the asset table is unusable"))?;
            let req = loaded.get_or_insert_with(|| Request::new(Mode::Official));
            if (asset.loaded)(req) {
                continue;
            }
            let Some(path) = std::env::var_os(asset.env).filter(|e| !e.is_empty()) else {
                continue;
            };
            let shown = std::path::Path::new(&path).display().to_string();
            let bytes = std::fs::read(&path).map_err(|e| usage(format!("{shown}: {e}")))?;
            (asset.load)(&bytes, req).map_err(|e| usage(format!("{shown}: {e}")))?;
        }
    }
    let loaded = LOADED.lock().map(|l| l.clone()).unwrap_or(None);
    Ok(Request {
        mode,
        set,
        ..loaded.unwrap_or_else(|| Request::new(mode))
    })
}

/// Every protocol of the registry as JSON text (`dropscore list --format json`).
#[pyfunction]
fn protocols_json() -> String {
    serde_json::to_string_pretty(&protocols::list()).unwrap_or_default()
}

/// Scores `inputs` with `protocol`; the report's JSON text. A usage error raises ValueError.
#[pyfunction]
#[pyo3(signature = (protocol, inputs, set, mode))]
fn score_json(
    protocol: &str,
    inputs: Vec<PyInput>,
    set: Vec<(String, String)>,
    mode: &str,
) -> PyResult<String> {
    let mode = Mode::parse(mode)
        .ok_or_else(|| usage(format!("mode must be official or corrected, not `{mode}`")))?;
    protocols::require(protocol).map_err(|e| usage(e.0))?;
    let (list, walked) = inputs::load(inputs, false).map_err(usage)?;
    let mut list = list;
    protocols::option_files::add(protocol, &set, &mut list);
    let mut files = FileSet::build(list, &Limits::from_set(&set));
    files.diagnostics.splice(0..0, walked);
    let req = request(protocol, mode, set)?;
    protocols::score(protocol, &files, &req, &mut protocols::Quiet)
        .map(|r| r.to_json())
        .map_err(|e| usage(e.0))
}

/// The manifest of the ground truth in `inputs` (paths relative to the given roots, as `dropscore manifest`):
/// `(manifest JSON text or None when the ground truth has errors, diagnostics as JSON text)`.
#[pyfunction]
fn manifest_json(
    protocol: &str,
    inputs: Vec<PyInput>,
    set: Vec<(String, String)>,
) -> PyResult<(Option<String>, String)> {
    let (list, _) = inputs::load(inputs, true).map_err(usage)?;
    let files = FileSet::build(list, &Limits::from_set(&set));
    let made = preflight::manifest(protocol, &files, &set).map_err(|e| usage(e.0))?;
    Ok((
        made.manifest,
        serde_json::to_string(&made.diagnostics).unwrap_or_default(),
    ))
}

/// The pre-flight check of `inputs` (the submission) against `manifest` (its JSON text): the JSON of
/// `dropscore check --format json`.
#[pyfunction]
fn check_json(
    protocol: &str,
    manifest: &str,
    inputs: Vec<PyInput>,
    set: Vec<(String, String)>,
) -> PyResult<String> {
    let (list, walked) = inputs::load(inputs, false).map_err(usage)?;
    let mut files = FileSet::build(list, &Limits::from_set(&set));
    files.diagnostics.splice(0..0, walked);
    preflight::check(protocol, manifest, &files, &set)
        .map(|c| c.to_json())
        .map_err(|e| usage(format!("manifest: {e}")))
}

/// Loads asset `name` (`protocols()` lists each protocol's `assets`) from its bytes; later calls use it.
#[pyfunction]
fn load_asset(name: &str, data: PyBackedBytes) -> PyResult<String> {
    let asset = views::asset(name).ok_or_else(|| usage(format!("no asset `{name}`")))?;
    let mut loaded = LOADED
        .lock()
        .map_err(|_| usage("the asset table is unusable"))?;
    let req = loaded.get_or_insert_with(|| Request::new(Mode::Official));
    (asset.load)(&data, req).map_err(usage)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(protocols_json, m)?)?;
    m.add_function(wrap_pyfunction!(score_json, m)?)?;
    m.add_function(wrap_pyfunction!(manifest_json, m)?)?;
    m.add_function(wrap_pyfunction!(check_json, m)?)?;
    m.add_function(wrap_pyfunction!(load_asset, m)?)?;
    m.add_function(wrap_pyfunction!(compare::compare_json, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
