//! The report of docs/specs/aij2022.md 8–9: headline ids, per-task groups, items, official print lines, the
//! integral bar chart and eligibility; the CLI's text output; official-vs-corrected explanations.

use super::{group, integral_of, Task, TaskResult};
use crate::pycompat::float_repr as py_float;
use crate::report::{Column, Display, Label, Plot, Reading, Report, Scores};

fn opt(v: Option<f64>) -> String {
    v.map_or("n/a".into(), py_float)
}

/// The lines the official scripts print for one task.
fn print_lines(r: &TaskResult) -> Vec<String> {
    let crashed_zero =
        r.official_fails && r.score == Some(0.0) && matches!(r.task, Task::TextQa | Task::MathQa);
    let main = if crashed_zero {
        "0".to_string()
    } else {
        opt(r.score)
    };
    match r.task {
        Task::TextQa => vec![format!("f1 score: {main}")],
        Task::MathQa => vec![format!("Exact Match {main}")],
        Task::Titw => vec![format!("Exact NED {main}")],
        Task::Vqa => vec![format!("meteor: {}", opt(r.part("meteor")))],
        Task::Captioning => vec![
            format!("meteor: {}", opt(r.part("meteor"))),
            format!("ruCLIP score:  {}", opt(r.part("clip"))),
            format!("caption metric:  {main}"),
        ],
        Task::Generation => vec![
            format!("FID:  {}", opt(r.part("fid"))),
            format!("ruCLIP score:  {}", opt(r.part("clip"))),
            format!("generation metric:  {main}"),
        ],
    }
}

pub fn fill(report: &mut Report, results: &mut [TaskResult], hidden: Option<[f64; 6]>) {
    let get = |t: Task| results.iter().find(|r| r.task == t);
    let score = |t: Task| get(t).and_then(|r| r.score);
    let part = |t: Task, p: &str| get(t).and_then(|r| r.part(p));
    let integral = integral_of(results, hidden);
    report.scores = Scores::new();
    for t in Task::ALL {
        report.scores.set(t.id(), score(t));
    }
    report.scores.set(INTEGRAL, integral);
    for (t, p) in PARTS {
        report.scores.set(&part_id(t, p), part(t, p));
    }
    report.groups = results.iter().map(group).collect();
    report.display = display(results, integral);
    let mut elig = Scores::new();
    for t in Task::ALL {
        if let Some(s) = score(t) {
            elig.set(t.id(), Some(if s >= t.threshold() { 1.0 } else { 0.0 }));
        }
    }
    report.readings.push(Reading {
        id: "eligibility".into(),
        label: "Prize eligibility: 1 = at or above the task's threshold (TextQA 0.2, MathQA 0.25, ImageGeneration 0.21, ImageCaptioning 0.15, VisualQA 0.24, TRitW 0.13)".into(),
        scores: elig,
    });
    if let Some(fid) = get(Task::Generation).and_then(|r| r.extra.get("fid")) {
        report.readings.push(fid_terms(fid));
    }
    let mut labels = Vec::new();
    let mut values = Vec::new();
    for t in Task::ALL {
        labels.push(format!("{} (weight 1/15)", t.name()));
        values.push(score(t));
    }
    if let Some(h) = hidden {
        for (i, v) in h.iter().enumerate() {
            labels.push(format!("Hidden{} (weight 1/10)", i + 1));
            values.push(Some(*v));
        }
    }
    report.plots.push(Plot {
        id: "tasks".into(),
        kind: "bars".into(),
        title: "Task scores in the integral S = Σ open/15 + Σ hidden/10".into(),
        x_label: "task".into(),
        y_label: "score".into(),
        labels,
        values,
        series: Vec::new(),
    });
    for r in results.iter_mut() {
        report.items.append(&mut r.items);
    }
}

/// The headline (each given task, the integral, the parts of the given tasks), the columns, and the official
/// scorer's print lines as the footer.
fn display(results: &[TaskResult], integral: Option<f64>) -> Display {
    let given = |t: Task| results.iter().any(|r| r.task == t);
    let mut lines = Vec::new();
    for r in results.iter() {
        lines.extend(print_lines(r));
    }
    if let Some(s) = integral {
        lines.push(format!("integral S: {}", py_float(s)));
    }
    let mut headline = Vec::new();
    for t in Task::ALL {
        if given(t) {
            headline.push(Label {
                id: t.id().into(),
                label: t.name().into(),
                decimals: 4,
            });
        }
    }
    headline.push(Label {
        id: "integral".into(),
        label: "Integral S".into(),
        decimals: 4,
    });
    for (id, label, t) in [
        ("generation_fid", "FID", Task::Generation),
        ("generation_clip", "Generation CLIP", Task::Generation),
        ("captioning_meteor", "Captioning METEOR", Task::Captioning),
        ("captioning_clip", "Captioning CLIP", Task::Captioning),
    ] {
        if given(t) {
            headline.push(Label {
                id: id.into(),
                label: label.into(),
                decimals: 4,
            });
        }
    }
    Display {
        title: "AI Journey 2022 FusionBrain: open tasks".into(),
        headline,
        item_label: "task/id".into(),
        columns: vec![
            Column::score("score", "score", 4),
            Column::score("meteor", "METEOR", 4),
            Column::score("clip", "CLIP", 4),
            Column::detail("answer", "answer"),
            Column::detail("normalised_prediction", "normalised"),
        ],
        footer: format!("Official scorer output:\n{}", lines.join("\n")),
    }
}

/// The FID computation's terms (ImageGeneration), as a reading.
fn fid_terms(fid: &serde_json::Value) -> Reading {
    let mut s = Scores::new();
    for k in ["fid", "mean_term", "trace_ref", "trace_gen", "tr_covmean"] {
        s.set(k, fid.get(k).and_then(|v| v.as_f64()));
    }
    for k in ["d", "n_ref", "n_gen"] {
        s.set(k, fid.get(k).and_then(|v| v.as_f64()));
    }
    Reading {
        id: "fid_terms".into(),
        label: format!(
            "FID terms ({} route)",
            fid.get("route").and_then(|v| v.as_str()).unwrap_or("")
        ),
        scores: s,
    }
}

/// The official print lines (the footer), then the diagnostics are printed by the CLI.
pub fn render_text(report: &Report) -> String {
    let body = report
        .display
        .footer
        .strip_prefix("Official scorer output:\n")
        .unwrap_or(&report.display.footer);
    let mut s = String::new();
    for line in body.lines() {
        s.push_str(line);
        s.push('\n');
    }
    if s.is_empty() {
        s.push_str("no task scored\n");
    }
    s
}

/// The report's top-level score of the competition: the integral (sum of the tasks' scores).
pub(super) const INTEGRAL: &str = "integral";

/// The task parts reported at the top level (after the tasks and the integral), each as `<task>_<part>`.
pub(super) const PARTS: [(Task, &str); 4] = [
    (Task::Generation, "fid"),
    (Task::Generation, "clip"),
    (Task::Captioning, "meteor"),
    (Task::Captioning, "clip"),
];

/// The top-level id of part `p` of task `t`.
pub(super) fn part_id(t: Task, p: &str) -> String {
    format!("{}_{p}", t.id())
}

/// Every top-level score id, in report order: the tasks, the integral, the parts.
pub(super) fn score_ids() -> Vec<String> {
    let tasks = Task::ALL.iter().map(|t| t.id().to_string());
    let parts = PARTS.iter().map(|&(t, p)| part_id(t, p));
    tasks
        .chain(std::iter::once(INTEGRAL.to_string()))
        .chain(parts)
        .collect()
}
