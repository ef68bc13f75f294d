//! The page's statistics requests on a [`Session`] (docs/specs/statistics.md sections 2 and 3): the replicate
//! histogram of a kept report's metric, and the comparison of the session's submission with a second one on
//! the same ground truth (the command line's `dropscore compare` path, src/protocols/compare_run.rs).

use super::read::{inputs, Reading};
use super::{copies, mode_slot, request, JsProgress, Session};
use crate::input::{FileSet, Input, Limits, Role};
use crate::protocols::compare_run::{json_text, own_options, run};
use crate::protocols::{self, Quiet};
use crate::report::Mode;
use crate::stats::histogram::histogram;
use crate::stats::units::{replicate_values, Settings};
use js_sys::Function;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Session {
    /// The kept `mode` report's bootstrap replicates of `metric` (its settings from the report's `statistics`):
    /// `{ metric, text, heading, value, low, high, confidence, bootstrap, left_out, histogram: { lo, hi, counts } }` as JSON
    /// text. Throws a string when the report is not kept or has no interval for `metric`.
    pub fn replicates(&self, mode: &str, metric: &str, bins: u32) -> Result<String, JsValue> {
        let slot = Mode::parse(mode).map(mode_slot).ok_or_else(|| {
            JsValue::from_str(&format!("mode must be official or corrected, not `{mode}`"))
        })?;
        let report = self.kept[slot].as_ref().ok_or_else(|| {
            JsValue::from_str(&format!("no {mode} report is kept: score it first"))
        })?;
        let (Some(st), Some(units), Some(iv)) = (
            report.statistics.as_ref(),
            report.units.0.as_deref(),
            report.intervals.get(metric),
        ) else {
            return Err(JsValue::from_str(&format!("no interval for {metric}")));
        };
        let settings = Settings {
            replicates: st.bootstrap as usize,
            seed: st.seed,
            confidence: st.confidence,
        };
        let column = units.replicate.metrics().iter().position(|m| m == metric);
        let values: Vec<f64> = match column {
            Some(m) => replicate_values(units, &settings)
                .iter()
                .filter_map(|r| r.get(m).copied().flatten())
                .collect(),
            None => Vec::new(),
        };
        let out = serde_json::json!({
            "metric": metric,
            "text": crate::render::value_with_interval(report, metric),
            "heading": crate::render::intervals_heading(report).trim_end().trim_end_matches(':'),
            "value": report.scores.get(metric),
            "low": iv.low,
            "high": iv.high,
            "confidence": st.confidence,
            "bootstrap": st.bootstrap,
            "left_out": iv.left_out,
            "histogram": histogram(&values, bins as usize),
        });
        Ok(out.to_string())
    }

    /// Scores the session's submission (A) and `files_b` (B's predictions, on the session's ground truth) with
    /// `options` (`{ mode, set }`, with the compare options `permutations` and `compare_all`), and compares them:
    /// `{ json, deltas }`: A's report with its `compare` object, as `dropscore compare --format json`, and the
    /// histogram of the compared metric's paired replicate Δ as JSON text (`null` without replicates). Throws the
    /// refusal as a string (a protocol without units, an option error).
    pub fn compare(
        &mut self,
        files_b: JsValue,
        options: JsValue,
        on_progress: &Function,
    ) -> Result<JsValue, JsValue> {
        let mut req = request(options)?;
        req.keep_units = true;
        let own = own_options(&mut req.set).map_err(|e| JsValue::from_str(&e))?;
        self.budget_of(&req.set);
        let mut progress = JsProgress(on_progress);
        let a = protocols::score(&self.protocol, &self.files, &req, &mut progress)
            .map_err(|e| JsValue::from_str(&e.0))?;
        let (b_inputs, _) = inputs(&files_b, Reading::Whole, &mut Quiet)?;
        let mut both: Vec<Input> = copies(&self.inputs)
            .into_iter()
            .filter(|i| i.role == Some(Role::Gt))
            .collect();
        both.extend(b_inputs.into_iter().map(|mut i| {
            i.role = Some(Role::Pred);
            i
        }));
        let files_b = FileSet::build(both, &Limits::from_budget(self.budget));
        let b = protocols::score(&self.protocol, &files_b, &req, &mut progress)
            .map_err(|e| JsValue::from_str(&e.0))?;
        match run(&self.protocol, req.mode, &a, &b, &req.set, &own) {
            Ok(Ok(done)) => {
                let deltas = done
                    .first()
                    .and_then(|c| histogram(&c.replicate_deltas, 30));
                let obj = js_sys::Object::new();
                js_sys::Reflect::set(&obj, &"json".into(), &json_text(&a, &done, own.all).into())?;
                js_sys::Reflect::set(
                    &obj,
                    &"deltas".into(),
                    &serde_json::to_string(&deltas).unwrap_or_default().into(),
                )?;
                Ok(obj.into())
            }
            Ok(Err(e)) | Err(e) => Err(JsValue::from_str(&e)),
        }
    }
}
