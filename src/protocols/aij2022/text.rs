//! TextQA (token F1), MathQA (exact match) and TRitW (1 − NED): the loops of `calculate_f1.py`,
//! `calculate_exact_score.py` and `calculate_NED.py` (docs/specs/aij2022.md 3.1–3.3, 4, 6).

use super::pyjson::{as_str, first_text_official, gt_options, PyErr};
use super::{Ctx, Task, TaskResult};
use crate::diag::Diagnostic;
use crate::formats::aij_json::{Doc, Text, Val};
use crate::metrics::aij::text as t;
use crate::report::{Item, Mode, Scores};
use serde_json::{json, Value};

/// Normalised form of `s` for TextQA/MathQA in the given mode.
fn norm(task: Task, mode: Mode, s: &str, ctx: &mut Ctx) -> String {
    let minus = task == Task::MathQa;
    let lem = &mut ctx.lemmas;
    t::normalize(
        s,
        |x| match mode {
            Mode::Official => t::remove_ascii_punct(x, minus),
            Mode::Corrected => t::remove_unicode_punct(x, minus),
        },
        &mut |w, out| lem.push_normal_form(w, out),
    )
}

/// The prediction's side of [`one`], the same for every option of an id: normalised (and, for TextQA, its
/// tokens counted) once, not once per option.
struct PredSide<'p> {
    text: &'p str,
    norm: String,
}

impl<'p> PredSide<'p> {
    fn new(task: Task, mode: Mode, pred: &'p str, ctx: &mut Ctx) -> Self {
        let norm = match task {
            Task::Titw => String::new(),
            // get_tokens: [] for "" (before normalisation), else normalize_answer(s).split()
            Task::TextQa if pred.is_empty() => String::new(),
            _ => norm(task, mode, pred, ctx),
        };
        PredSide { text: pred, norm }
    }
}

/// Score of one answer against one option, with the option's normalised form.
fn one(
    task: Task,
    mode: Mode,
    opt: &str,
    pred: &PredSide,
    counts: &t::Counts,
    ctx: &mut Ctx,
) -> (f64, String) {
    match task {
        Task::Titw => (
            t::ned(opt, pred.text, mode == Mode::Corrected),
            opt.to_string(),
        ),
        Task::MathQa => {
            let a = norm(task, mode, opt, ctx);
            ((a == pred.norm) as u8 as f64, a)
        }
        _ => {
            let a = if opt.is_empty() {
                String::new()
            } else {
                norm(task, mode, opt, ctx)
            };
            (t::f1_counted(&t::tokens(&a), counts), a)
        }
    }
}

/// [`one`] for every option: the scores and the options' normalised forms, and the prediction's.
fn all_options(
    task: Task,
    mode: Mode,
    opts: &[String],
    pred: &str,
    ctx: &mut Ctx,
) -> (Vec<f64>, Vec<String>, String) {
    let side = PredSide::new(task, mode, pred, ctx);
    let counts = t::Counts::of(match task {
        Task::TextQa => t::tokens(&side.norm),
        _ => Vec::new(),
    });
    let (per, norms) = opts
        .iter()
        .map(|o| one(task, mode, o, &side, &counts, ctx))
        .unzip();
    let pn = match task {
        Task::Titw => pred.to_string(),
        _ => side.norm,
    };
    (per, norms, pn)
}

struct Scored {
    score: f64,
    answer: String,
    detail: serde_json::Map<String, Value>,
}

/// max over options, then (TextQA/MathQA) the letter fallback. Errors are Python exceptions.
fn score_id(
    task: Task,
    mode: Mode,
    opts: &[Val],
    pred: &str,
    ctx: &mut Ctx,
) -> Result<Scored, PyErr> {
    let mut strs = Vec::new();
    for o in opts {
        strs.push(as_str(o)?.to_string());
    }
    if strs.is_empty() {
        return Err("ValueError: max() arg is an empty sequence".into());
    }
    let (per, onorms, pnorm) = all_options(task, mode, &strs, pred, ctx);
    let (mut best, mut best_i) = (f64::NEG_INFINITY, 0);
    for (i, &s) in per.iter().enumerate() {
        if s > best {
            best = s;
            best_i = i;
        }
    }
    let mut detail = serde_json::Map::new();
    let mut answer = pred.to_string();
    let mut fallback = Value::Null;
    if task != Task::Titw && best <= 0.5 {
        let letter = match mode {
            Mode::Official => t::fallback_letter_official(pred),
            Mode::Corrected => t::fallback_letter_corrected(pred),
        };
        if let Some(c) = letter {
            answer = c.to_string();
            let fb = all_options(task, mode, &strs, &answer, ctx).0;
            best = f64::NEG_INFINITY;
            for (i, &s) in fb.iter().enumerate() {
                if s > best {
                    best = s;
                    best_i = i;
                }
            }
            fallback = json!({ "letter": answer, "option_scores": fb, "score": best });
        }
    }
    detail.insert("options".into(), json!(strs));
    detail.insert("normalised_options".into(), json!(onorms));
    detail.insert("normalised_prediction".into(), json!(pnorm));
    detail.insert("option_scores".into(), json!(per));
    detail.insert("best_option".into(), json!(best_i));
    detail.insert("fallback".into(), fallback);
    Ok(Scored {
        score: best,
        answer,
        detail,
    })
}

fn fail_code(task: Task) -> &'static str {
    match task {
        Task::TextQa => "aij.textqa.unsupported_format",
        Task::MathQa => "aij.mathqa.unsupported_format",
        _ => "aij.titw.crash",
    }
}

pub fn score(task: Task, gt: &Doc, pred: &Doc, ctx: &mut Ctx, out: &mut TaskResult) {
    let mode = ctx.mode;
    let mut prev: Option<(String, String)> = None; // (id, final prediction) — Python's `prediction`
    let mut total = 0.0;
    let mut crashed = false;
    for (i, (id, gv)) in gt.entries.iter().enumerate() {
        let mut detail = serde_json::Map::new();
        let result = score_item(
            task,
            (i, id.as_str(), gv),
            pred,
            &prev,
            &mut detail,
            ctx,
            &mut out.diags,
        );
        let (score, ok) = match result {
            Ok(s) => {
                detail.extend(s.detail);
                prev = Some((id.clone(), s.answer));
                (s.score, true)
            }
            Err(e) => {
                detail.insert("error".into(), json!(e));
                let file_doc = if gt_options(gv).is_err() { gt } else { pred };
                out.diags.push(file_doc.at(id, failure(task, mode, &e)));
                (0.0, false)
            }
        };
        out.items.push(Item {
            id: format!("{}/{id}", task.id()),
            group: Some(task.id().to_string()),
            scores: Scores::new().with("score", Some(score)),
            detail,
        });
        if !ok && mode == Mode::Official {
            crashed = true;
            break;
        }
        total += score;
    }
    out.official_fails |= crashed;
    let n = gt.entries.len();
    out.score = if crashed {
        if task == Task::Titw {
            None
        } else {
            Some(0.0)
        }
    } else if n == 0 {
        out.diags.push(
            Diagnostic::error("aij.gt.empty", "the GT file has no ids")
                .file(&gt.file)
                .official("crashes: the task score divides by the number of GT ids, which is 0"),
        );
        out.official_fails = true;
        None
    } else {
        Some(total / n as f64)
    };
}

/// The `i`-th GT id: its prediction's first text element, scored against the GT options. Officially, an empty
/// element list reuses the previous id's answer (`prev`, a warning), and on the first id it crashes.
#[allow(clippy::too_many_arguments)]
fn score_item(
    task: Task,
    (i, id, gv): (usize, &str, &Val),
    pred: &Doc,
    prev: &Option<(String, String)>,
    detail: &mut serde_json::Map<String, Value>,
    ctx: &mut Ctx,
    diags: &mut Vec<Diagnostic>,
) -> Result<Scored, PyErr> {
    let mode = ctx.mode;
    let opts = gt_options(gv)?;
    let Some(pv) = pred.get_near(id, i) else {
        detail.insert("missing".into(), json!(true));
        return Ok(Scored {
            score: 0.0,
            answer: String::new(),
            detail: serde_json::Map::new(),
        });
    };
    detail.insert("prediction".into(), json!(pv));
    let got = match mode {
        Mode::Official => first_text_official(pv)?,
        Mode::Corrected => Some(
            super::pyjson::first_of_type(pv, "text")
                .map(|(v, i)| (v, Some(i)))
                .unwrap_or((Val::Str(Text::Borrowed("")), None)),
        ),
    };
    let answer = match got {
        Some((v, i)) => {
            detail.insert("element".into(), json!(i));
            as_str(&v)?.to_string()
        }
        None => match prev {
            Some((pid, p)) => {
                diags.push(pred.at(
                    id,
                    Diagnostic::warning(
                        "aij.pred.carry_over",
                        format!("empty element list: the official loop reuses the answer of id {pid} (`{}`)", crate::diag::excerpt(p)),
                    )
                    .hint("Give every id at least one {\"type\": \"text\"} element.")
                    .official("silently scores the previous id's answer"),
                ));
                detail.insert("carry_over_from".into(), json!(pid));
                p.clone()
            }
            None => {
                return Err("UnboundLocalError: prediction referenced before assignment (empty list on the first id)".into())
            }
        },
    };
    detail.insert("answer".into(), json!(answer));
    score_id(task, mode, &opts, &answer, ctx)
}

/// An id whose GT or prediction cannot be read: officially TRitW's scorer crashes and the others score the
/// whole task 0; corrected mode scores the item 0.
fn failure(task: Task, mode: Mode, e: &PyErr) -> Diagnostic {
    let msg = match (mode, task) {
        (Mode::Official, Task::Titw) => format!("the official scorer crashes here ({e})"),
        (Mode::Official, _) => format!(
            "{e}: the official scorer prints `Unsupported data format` and scores the whole task 0"
        ),
        _ => format!("{e}: this item scores 0"),
    };
    let code = if mode == Mode::Official {
        fail_code(task)
    } else {
        "aij.item.exception"
    };
    Diagnostic::error(code, msg)
        .hint("Each id needs a list of {\"type\", \"content\"} elements; GT content is a non-empty list of strings, predicted text content a string.")
        .official(if task == Task::Titw { "crashes (uncaught exception)" } else { "prints `Unsupported data format`, task score 0" })
}
