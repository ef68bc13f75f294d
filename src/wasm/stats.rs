//! The page's statistics requests on a [`Session`] (docs/specs/statistics.md sections 2 and 3): the replicate
//! histogram of a kept report's metric, and the comparison of the session's submission with a second one on
//! the same ground truth (the command line's `dropscore compare` path, src/protocols/compare_run.rs).

use super::read::{inputs, Reading};
use super::{copies, mode_slot, request, JsProgress, Session};
use crate::input::{FileSet, Input, Limits, Role};
use crate::protocols::compare_run::{json_text, own_options, run};
use crate::protocols::{self, Quiet};
use crate::report::{Mode, Report};
use crate::stats::histogram::histogram;
use crate::stats::interval::Interval;
use crate::stats::resample::Resampler;
use crate::stats::units::{replicate_values, summarise, Block, Settings, Units};
use js_sys::Function;
use std::cell::RefCell;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// The page's bootstrap under way (one at a time): the kept report's units, the draws so far and each
/// replicate's values. The worker runs it in steps and yields between them, so that a cancel arrives
/// (www/worker.js).
struct Job {
    slot: usize,
    units: Arc<Units>,
    settings: Settings,
    resampler: Resampler,
    /// The weights of the block being computed (the protocol's `Replicate::block` replicates, as natively).
    block: Block,
    values: Vec<Vec<Option<f64>>>,
}

thread_local! {
    static JOB: RefCell<Option<Job>> = const { RefCell::new(None) };
}

/// The kept report of `mode`, or the sentence why there is none.
fn kept_slot(mode: &str) -> Result<usize, JsValue> {
    Mode::parse(mode).map(mode_slot).ok_or_else(|| {
        JsValue::from_str(&format!("mode must be official or corrected, not `{mode}`"))
    })
}

#[wasm_bindgen]
impl Session {
    /// Starts the bootstrap of the kept `mode` report, scored with its intervals left for later (the page's
    /// score: src/protocols/contract_stats.rs `deferring`): the number of replicates to compute, 0 when the
    /// report has its intervals already or has no statistics.
    pub fn intervals_start(&self, mode: &str) -> Result<u32, JsValue> {
        let slot = kept_slot(mode)?;
        let report = self.kept[slot].as_ref().ok_or_else(|| {
            JsValue::from_str(&format!("no {mode} report is kept: score it first"))
        })?;
        let (Some(st), Some(units)) = (report.statistics.as_ref(), report.units.0.clone()) else {
            return Ok(0);
        };
        if !self.pending[slot] {
            return Ok(0);
        }
        let settings = Settings {
            replicates: st.bootstrap as usize,
            seed: st.seed,
            confidence: st.confidence,
        };
        let job = Job {
            slot,
            resampler: Resampler::new(settings.seed as u128, &units.sizes, settings.replicates),
            block: Block::default(),
            values: Vec::with_capacity(settings.replicates),
            units,
            settings,
        };
        JOB.with(|j| *j.borrow_mut() = Some(job));
        Ok(st.bootstrap as u32)
    }

    /// Computes `count` more replicates of the bootstrap under way, rounded up to whole blocks (the protocol's
    /// `Replicate::block`; each block's per-unit columns read once, as natively): the fraction done (1 when all are).
    pub fn intervals_step(&self, count: u32) -> f64 {
        JOB.with(|j| {
            let mut j = j.borrow_mut();
            let Some(job) = j.as_mut() else {
                return 1.0;
            };
            let (mut done, size) = (0, job.units.replicate.block().max(1));
            while done < count as usize && job.block.fill(&mut job.resampler, size) {
                let values = job.block.values(&*job.units.replicate);
                done += values.len();
                job.values.extend(values);
            }
            job.values.len() as f64 / job.settings.replicates.max(1) as f64
        })
    }

    /// Drops the bootstrap under way (the page's Cancel): the report stays as it was, without intervals.
    pub fn intervals_cancel(&self) {
        JOB.with(|j| *j.borrow_mut() = None);
    }

    /// Ends the bootstrap under way: fills the kept report's intervals (and their diagnostics) from the
    /// replicates, as the command line computes them, and answers as [`Session::replicates`] does for `metric`.
    pub fn intervals_finish(
        &mut self,
        mode: &str,
        metric: &str,
        bins: u32,
    ) -> Result<String, JsValue> {
        let job = JOB.with(|j| j.borrow_mut().take());
        if let Some(job) = job {
            let pending = &mut self.pending[job.slot];
            let report = self.kept[job.slot].as_mut();
            let same = report
                .as_ref()
                .and_then(|r| r.units.0.as_ref())
                .is_some_and(|u| Arc::ptr_eq(u, &job.units));
            if let (Some(report), true) = (report, same) {
                // An export may have filled them meanwhile (see `complete`).
                if std::mem::take(pending) {
                    let computed = summarise(&job.units, &job.values, job.settings.confidence);
                    fill(report, &job.units, &job.settings, &computed);
                }
                let column = job
                    .units
                    .replicate
                    .metrics()
                    .iter()
                    .position(|m| m == metric);
                let values: Vec<f64> = column.map_or_else(Vec::new, |m| {
                    job.values
                        .iter()
                        .filter_map(|r| r.get(m).copied().flatten())
                        .collect()
                });
                return answer(report, metric, &values, bins);
            }
        }
        self.replicates(mode, metric, bins)
    }

    /// The kept `mode` report's bootstrap replicates of `metric` (its settings from the report's `statistics`):
    /// `{ metric, text, heading, value, low, high, confidence, bootstrap, left_out, histogram: { lo, hi, counts } }` as JSON
    /// text. Throws a string when the report is not kept or has no interval for `metric`.
    pub fn replicates(&self, mode: &str, metric: &str, bins: u32) -> Result<String, JsValue> {
        let slot = kept_slot(mode)?;
        let report = self.kept[slot].as_ref().ok_or_else(|| {
            JsValue::from_str(&format!("no {mode} report is kept: score it first"))
        })?;
        let (Some(st), Some(units), Some(_)) = (
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
        answer(report, metric, &values, bins)
    }

    /// Scores the session's submission (A) and `files_b` (B's predictions, on the session's ground truth) with
    /// `options` (`{ mode, set }`, with the compare options `permutations` and `compare_all`), and compares them:
    /// `{ json, deltas, scatter }`: A's report with its `compare` object, as `dropscore compare --format json`, the
    /// histogram of the compared metric's paired replicate Δ as JSON text (`null` without replicates), and the
    /// scatter of per-unit scores (src/render/compare_plot.rs) as JSON text (`null` without unit scores). Throws the
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
                let scatter = crate::render::compare_plot::unit_scatter(&a, &b);
                js_sys::Reflect::set(
                    &obj,
                    &"scatter".into(),
                    &serde_json::to_string(&scatter).unwrap_or_default().into(),
                )?;
                Ok(obj.into())
            }
            Ok(Err(e)) | Err(e) => Err(JsValue::from_str(&e)),
        }
    }
}

/// Fills `report`'s intervals from the replicates `computed` as the command line does, with their diagnostics.
fn fill(report: &mut Report, units: &Units, settings: &Settings, computed: &[(String, Interval)]) {
    let mut diags = crate::diag::Diags::new();
    crate::protocols::contract_stats::fill(report, units, settings, computed, &mut diags);
    report.diagnostics.extend(diags.finish());
    report.sort_diagnostics();
}

impl Session {
    /// Computes the intervals of the kept report in `slot` when they were left for later and are still missing
    /// (the mode the page does not show, or an export before the page's bootstrap ended), so that its export
    /// carries them as the command line's report does. The same draws as the page's own bootstrap: the page
    /// then shows equal intervals.
    pub(super) fn complete(&mut self, slot: usize) {
        let Some(report) = self.kept[slot].as_mut() else {
            return;
        };
        if !std::mem::take(&mut self.pending[slot]) {
            return;
        }
        let (Some(st), Some(units)) = (report.statistics.as_ref(), report.units.0.clone()) else {
            return;
        };
        let settings = Settings {
            replicates: st.bootstrap as usize,
            seed: st.seed,
            confidence: st.confidence,
        };
        let values = replicate_values(&units, &settings);
        let computed = summarise(&units, &values, settings.confidence);
        fill(report, &units, &settings, &computed);
    }
}

/// The page's answer for `metric` of `report` given its replicate values: `{ metric, text, heading, value, low,
/// high, confidence, bootstrap, left_out, histogram: { lo, hi, counts } }` as JSON text.
fn answer(report: &Report, metric: &str, values: &[f64], bins: u32) -> Result<String, JsValue> {
    let (Some(st), Some(iv)) = (report.statistics.as_ref(), report.intervals.get(metric)) else {
        return Err(JsValue::from_str(&format!("no interval for {metric}")));
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
        "histogram": histogram(values, bins as usize),
    });
    Ok(out.to_string())
}
