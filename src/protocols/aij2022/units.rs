//! The bootstrap's units of `aij2022` (docs/specs/statistics.md section 1): one unit per id, stratified by
//! task (each task's ids resampled apart, their number kept), the strata and the ids in the order of the
//! report's items. A task scored as the mean of its ids' scores (TextQA's F1, MathQA's exact match, TRitW's
//! 1 − NED, VisualQA's METEOR, ImageCaptioning's METEOR part) is the weighted mean of the drawn ids' scores.
//! FID, ruCLIP and what is computed from them (the ImageGeneration and ImageCaptioning scores, the integral)
//! have no interval: they are not means over ids. A task whose ids reuse the previous id's answer (the
//! official loop's carry-over) has none either: its score depends on the order of the ids.

use crate::report::Report;
use crate::stats::sums::SumsBuilder;
use crate::stats::units::{Replicate, Slot, Units};

/// The reason of FID, CLIP and the scores computed from them.
const NOT_A_MEAN: &str = "not a mean over ids";

/// The means over a task's ids: (report metric, task, item score key).
const MEANS: [(&str, &str, &str); 5] = [
    ("textqa", "textqa", "score"),
    ("mathqa", "mathqa", "score"),
    ("titw", "titw", "score"),
    ("vqa", "vqa", "score"),
    ("captioning_meteor", "captioning", "meteor"),
];

/// The report's units (built after its items are in their final order).
pub fn slot(report: &Report) -> Slot {
    let mut strata: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, it) in report.items.iter().enumerate() {
        let task = it.group.clone().unwrap_or_default();
        match strata.iter_mut().find(|(t, _)| *t == task) {
            Some((_, v)) => v.push(i),
            None => strata.push((task, vec![i])),
        }
    }
    let order: Vec<usize> = strata.iter().flat_map(|(_, v)| v.iter().copied()).collect();
    let n = order.len();
    if n == 0 {
        return Slot::default();
    }
    let mut b = SumsBuilder::new(n);
    let mut no_interval = Vec::new();
    for (metric, task, key) in MEANS {
        if report.scores.get(metric).is_none() {
            continue;
        }
        let items = order.iter().map(|&i| &report.items[i]);
        let carried = items.clone().any(|it| {
            it.group.as_deref() == Some(task) && it.detail.contains_key("carry_over_from")
        });
        if carried {
            no_interval.push((
                metric.to_string(),
                "an id reuses the previous id's answer: the score depends on the order of the ids"
                    .to_string(),
            ));
            continue;
        }
        let values: Vec<Option<f64>> = items
            .map(|it| {
                (it.group.as_deref() == Some(task)).then(|| it.scores.get(key).unwrap_or(f64::NAN))
            })
            .collect();
        b.mean_of_defined(metric, &values);
    }
    for (id, value) in report.scores.iter() {
        let mean = MEANS.iter().any(|(m, _, _)| *m == id);
        if value.is_some() && !mean {
            no_interval.push((id.to_string(), NOT_A_MEAN.to_string()));
        }
    }
    let replicate = b.build(None, &[]);
    // A task whose score is not the mean of its ids' (the official crash's 0) has no interval.
    let ones = replicate.values(&vec![1; n]);
    for (m, v) in replicate.metrics().iter().zip(ones) {
        let score = report.scores.get(m);
        let same = match (v, score) {
            (Some(x), Some(y)) => x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs()),
            _ => false,
        };
        if !same {
            no_interval.push((
                m.clone(),
                "the task's score is not the mean of its ids' scores on this input".to_string(),
            ));
        }
    }
    let ids = order.iter().map(|&i| report.items[i].id.clone()).collect();
    let units = Units {
        unit: "id",
        strata: Some("task"),
        sizes: strata.iter().map(|(_, v)| v.len()).collect(),
        replicate: Box::new(replicate),
        no_interval,
        ids,
    };
    Slot::new(units)
}
