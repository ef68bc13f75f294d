//! "Why they differ" for aij2022: per task whose score differs, the step of docs/specs/aij2022.md 4 that
//! changed it, in plain words, how many answers it changed, and one example item (answer, then what each mode
//! made of it). Found by comparing each item's detail in the two reports.

use super::Task;
use crate::report::{Item, Report};
use serde_json::Value;

/// The steps, in the order they are named.
const STEPS: [&str; 8] = [
    "a missing prediction counts 0",
    "an answer the official loop cannot read scores 0 instead of stopping the task",
    "answer extraction (the first text element, as the README says)",
    "the letter fallback (only a lone a–e token counts as a letter)",
    "punctuation removal (all Unicode punctuation goes; 0,3 stays a number)",
    "lemmatisation (each word, not the whole answer as one word)",
    "two empty strings score 1",
    "the corrected rules",
];

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// Shortened text for one line: at most 40 characters.
fn short(t: &str) -> String {
    let mut out: String = t.chars().take(40).collect();
    if t.chars().nth(40).is_some() {
        out.push('…');
    }
    out
}

/// The step that changed one item, and the example text for it.
fn step(task: &str, o: &Item, c: &Item) -> (usize, String) {
    let (od, cd) = (&o.detail, &c.detail);
    let id = o.id.split_once('/').map_or(o.id.as_str(), |x| x.1);
    let g = |d: &serde_json::Map<String, Value>, k: &str| d.get(k).cloned().unwrap_or(Value::Null);
    let answer = short(s(&g(cd, "answer")));
    if g(cd, "missing") == Value::Bool(true) {
        return (0, format!("id {id}"));
    }
    if od.contains_key("error") || cd.contains_key("error") {
        let e = g(od, "error");
        return (1, format!("id {id}: {}", short(s(&e))));
    }
    if g(od, "element") != g(cd, "element") {
        return (2, format!("`{answer}`"));
    }
    if g(od, "fallback") != g(cd, "fallback") {
        let letter = |d| match g(d, "fallback").get("letter") {
            Some(l) => format!("`{}`", s(l)),
            None => "none".into(),
        };
        return (
            3,
            format!(
                "`{answer}`: official letter {}, corrected {}",
                letter(od),
                letter(cd)
            ),
        );
    }
    let (on, cn) = (
        g(od, "normalised_prediction"),
        g(cd, "normalised_prediction"),
    );
    if on != cn && task != Task::Titw.id() {
        return (
            4,
            format!(
                "`{answer}` → official `{}`, corrected `{}`",
                short(s(&on)),
                short(s(&cn))
            ),
        );
    }
    if g(od, "normalised_options") != g(cd, "normalised_options") {
        let first = |d| short(s(&g(d, "normalised_options")[0]));
        let opt = short(s(&g(cd, "options")[0]));
        return (
            4,
            format!(
                "option `{opt}` → official `{}`, corrected `{}`",
                first(od),
                first(cd)
            ),
        );
    }
    if task == Task::Vqa.id() {
        let hyp = |d| short(s(&g(d, "best")["hyp"]));
        return match hyp(od) != hyp(cd) && !hyp(cd).is_empty() {
            true => (
                5,
                format!(
                    "`{answer}` → official `{}`, corrected `{}`",
                    hyp(od),
                    hyp(cd)
                ),
            ),
            false => (5, format!("`{answer}`")),
        };
    }
    if task == Task::Titw.id() && s(&g(cd, "answer")).is_empty() {
        return (6, format!("id {id}"));
    }
    (7, format!("id {id}"))
}

/// One line per task whose score differs.
pub fn explain(official: &Report, corrected: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    for task in Task::ALL {
        let k = task.id();
        let (a, b) = (official.scores.get(k), corrected.scores.get(k));
        if a == b || !official.scores.iter().any(|(x, _)| x == k) {
            continue;
        }
        let four = |v: Option<f64>| v.map_or("no score".into(), |x| format!("{x:.4}"));
        let why = task_steps(task, official, corrected);
        lines.push(format!(
            "{}: {} official, {} corrected. {why}.",
            task.name(),
            four(a),
            four(b)
        ));
    }
    for (code, what) in [
        (
            "aij.pred.carry_over",
            "an empty element list reuses the previous id's answer in official mode",
        ),
        (
            "aij.gt.bare_object",
            "a GT id given as a bare object is wrapped",
        ),
        (
            "aij.ids.mismatch",
            "the GT and prediction ids differ: official mode stops, corrected counts missing ids 0",
        ),
    ] {
        let n = official
            .diagnostics
            .iter()
            .filter(|d| d.code == code)
            .count();
        if n > 0 {
            lines.push(format!("{what} ({n}×, {code})."));
        }
    }
    if lines.is_empty() && !official.official_fails {
        lines.push("Both modes agree on this input.".into());
    }
    lines
}

/// Why a task's score differs: each step that changed per-id scores (with a count and an example), ids only
/// corrected mode scored, or the aggregation; one sentence, capitalised.
fn task_steps(task: Task, official: &Report, corrected: &Report) -> String {
    let k = task.id();
    let mut counts = [0usize; STEPS.len()];
    let mut examples: [Option<String>; STEPS.len()] = Default::default();
    let prefix = format!("{k}/");
    let official_items = official.items.iter().filter(|i| i.id.starts_with(&prefix));
    for o in official_items {
        let Some(c) = corrected.items.iter().find(|c| c.id == o.id) else {
            continue;
        };
        let key = if task == Task::Captioning {
            "meteor"
        } else {
            "score"
        };
        if o.scores.get(key) == c.scores.get(key) {
            continue;
        }
        let (i, ex) = step(k, o, c);
        counts[i] += 1;
        examples[i].get_or_insert(ex);
    }
    // Ids corrected mode scores that official mode never reached (it stopped, or they are missing).
    let only_corrected = corrected
        .items
        .iter()
        .filter(|c| c.id.starts_with(&prefix) && !official.items.iter().any(|o| o.id == c.id))
        .count();
    let mut why: Vec<String> = (0..STEPS.len())
        .filter(|&i| counts[i] > 0)
        .map(|i| {
            let n = counts[i];
            let answers = if n == 1 { "answer" } else { "answers" };
            let ex = examples[i].as_deref().unwrap_or("");
            format!("{} changed {n} {answers}, e.g. {ex}", STEPS[i])
        })
        .collect();
    if only_corrected > 0 {
        why.push(format!("{only_corrected} ids are scored only in corrected mode (the official loop stopped before them)"));
    }
    if why.is_empty() {
        why.push(
            "the per-id scores agree; the task's aggregation differs (see the diagnostics)".into(),
        );
    }
    let why = why.join("; ");
    let mut cs = why.chars();
    cs.next()
        .map(|c| c.to_uppercase().chain(cs).collect())
        .unwrap_or_default()
}
