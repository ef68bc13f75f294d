//! The page's view of a large report (www/API.md, "Cut reports"): the report handed over with its first rows
//! only ([`Report::preview`]), the per-item table asked for page by page, and the downloads streamed out of
//! wasm in chunks, byte-identical to the CLI's `--format json` / `--format csv`.

use super::{mode_slot, Session};
use crate::report::{Mode, Report};
use js_sys::{Function, Uint8Array};
use std::io::{self, Write};
use wasm_bindgen::prelude::*;

/// The largest chunk handed to JS by [`Session::export`].
const EXPORT_CHUNK: usize = 16 << 20;

#[wasm_bindgen]
impl Session {
    /// Scores as [`Session::score`], but returns [`Report::preview`]'s JSON: at most `limit` rows, and
    /// `items_total` when there are more. With `keep`, the whole report is kept, for [`Session::explain`],
    /// [`Session::items_page`] and [`Session::export`].
    pub fn score_view(
        &mut self,
        options: JsValue,
        on_progress: &Function,
        keep: Option<bool>,
        limit: u32,
    ) -> Result<String, JsValue> {
        self.score_with(options, on_progress, keep, |r| {
            r.preview(limit as usize).to_json()
        })
    }

    /// One page of the kept `mode` report's per-item rows: `query` is `{ filter, sort, dir, offset, count }`
    /// (src/items_query.rs), the answer `{ total, matched, rows }`, both JSON text.
    pub fn items_page(&mut self, mode: &str, query: &str) -> Result<String, JsValue> {
        let slot = self.slot_of(mode)?;
        let report = self.kept[slot].as_ref().ok_or_else(|| not_kept(mode))?;
        crate::items_query::page_json(report, query, &mut self.pages[slot])
            .map_err(|e| JsValue::from_str(&e))
    }

    /// The kept `mode` report as the CLI writes it with `--format json` or `--format csv` (`format`), handed to
    /// `on_chunk(Uint8Array)` in chunks of at most 16 MiB; returns the byte count. A report scored with its
    /// intervals left for later gets them first (src/wasm/stats.rs).
    pub fn export(
        &mut self,
        mode: &str,
        format: &str,
        on_chunk: &Function,
    ) -> Result<f64, JsValue> {
        let slot = self.slot_of(mode)?;
        self.complete(slot);
        let report: &Report = self.kept[slot].as_ref().ok_or_else(|| not_kept(mode))?;
        let mut out = Chunks {
            buf: Vec::new(),
            to: on_chunk,
            total: 0,
        };
        let written = match format {
            "json" => report.write_json(&mut out),
            "csv" => crate::render::write_csv(report, &mut out),
            f => return Err(JsValue::from_str(&format!("no export format `{f}`"))),
        };
        written
            .and_then(|_| out.flush())
            .map_err(|e| JsValue::from_str(&e.to_string()))?;
        Ok(out.total as f64)
    }

    // ---- what the page draws beside a kept report (src/render/page.rs) ----
    /// The kept `mode` report's display hints, per-item table columns and plot specs, as JSON text.
    pub fn page_view(&self, mode: &str) -> Result<String, JsValue> {
        let report = self.kept[self.slot_of(mode)?].as_ref();
        Ok(crate::render::page::view_json(
            report.ok_or_else(|| not_kept(mode))?,
        ))
    }

    /// The plot specs of the kept `mode` report's row `id` (its detail curves), as JSON `[[key, spec], …]`.
    pub fn item_plots(&self, mode: &str, id: &str) -> Result<String, JsValue> {
        let report = self.kept[self.slot_of(mode)?].as_ref();
        Ok(crate::render::page::item_plots_json(
            report.ok_or_else(|| not_kept(mode))?,
            id,
        ))
    }

    fn slot_of(&self, mode: &str) -> Result<usize, JsValue> {
        Mode::parse(mode).map(mode_slot).ok_or_else(|| {
            JsValue::from_str(&format!("mode must be official or corrected, not `{mode}`"))
        })
    }
}

fn not_kept(mode: &str) -> JsValue {
    JsValue::from_str(&format!("no {mode} report is kept: score it first"))
}

/// A writer that hands what it is given to a JS function, in chunks of at most [`EXPORT_CHUNK`] bytes.
struct Chunks<'a> {
    buf: Vec<u8>,
    to: &'a Function,
    total: u64,
}

impl Write for Chunks<'_> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let n = data.len().min(EXPORT_CHUNK - self.buf.len());
        self.buf.extend_from_slice(&data[..n]);
        if self.buf.len() >= EXPORT_CHUNK {
            self.flush()?;
        }
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = Uint8Array::from(&self.buf[..]);
        self.to
            .call1(&JsValue::NULL, &chunk)
            .map_err(|e| io::Error::other(format!("{e:?}")))?;
        self.total += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }
}
