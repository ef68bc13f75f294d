//! VisualQA and the ImageCaptioning METEOR part: the loops of `vqa/metric/calc_meteor.py` and
//! `captioning/metrics/calc_meteor.py` (docs/specs/aij2022.md 3.4, 3.5).

use super::pyjson::{as_str, index, iterate, key, PyErr};
use super::{text_bytes, Ctx, Task, TaskResult, DETAIL_BYTES, DETAIL_LIMIT};
use crate::diag::Diagnostic;
use crate::formats::aij_json::{Doc, Val};
use crate::metrics::aij::meteor::{meteor_in, Alignment, Params, Scratch};
use crate::metrics::aij::text::{remove_ascii_punct, remove_unicode_punct, words};
use crate::metrics::aij::{recycle, tokens as tk};
use crate::metrics::mean::numpy_mean;
use crate::pycompat::lower as py_lower;
use crate::report::{Item, Mode, Scores};
use serde_json::{json, Value};
use std::borrow::Cow;

const VQA: Params = Params {
    alpha: 0.9,
    beta: 3.0,
    gamma: 0.0,
};
const CAP: Params = Params {
    alpha: 0.9,
    beta: 3.0,
    gamma: 0.5,
};

/// `distance(x, y)`: 1.0 if both are 0, else min/max (Python comparisons, so NaN stays NaN).
fn distance(x: f64, y: f64) -> f64 {
    if x == 0.0 && y == 0.0 {
        return 1.0;
    }
    let (a, b) = if x > y { (y, x) } else { (x, y) };
    a / b
}

struct One<'a> {
    score: f64,
    reference: Vec<&'a str>,
    alignment: Option<Alignment>,
    numeric: bool,
}

/// The hypothesis side of `get_meteor`, the same for every option of an id: `word_tokenize(w2d(h))`.
struct Hyp {
    text: String,
    /// `w2d(text)` when it differs from the text's words rejoined with single spaces.
    w2d: Option<String>,
    /// NLTK's tokens of `w2d(text)` joined with single spaces, when they are not its whitespace split.
    nltk: Option<String>,
    /// The text's words are joined by single spaces ([`crate::metrics::aij::text::words`]).
    spaced: bool,
}

impl Hyp {
    /// `split`: [`tk::word_tokenize_is_split`] of `h`, when already known; `spaced`: as for
    /// [`crate::metrics::aij::text::words`].
    fn new(h: String, split: Option<bool>, spaced: bool) -> Hyp {
        let w2d = (!tk::w2d_is_rejoin(&h, spaced)).then(|| tk::w2d(&h));
        let nltk = match &w2d {
            Some(w) => tk::word_tokenize_joined(w),
            None if split == Some(true) => None,
            // w2d rejoins the words with single spaces, and NLTK tokenises that text.
            None => (!tk::word_tokenize_is_split(&h)).then(|| {
                let joined = words(&h, spaced).collect::<Vec<_>>().join(" ");
                crate::metrics::aij::nltk_tokenize::word_tokenize_joined(&joined)
            }),
        };
        Hyp {
            w2d,
            nltk,
            text: h,
            spaced,
        }
    }
    /// `word_tokenize(w2d(text))`, into `out`.
    fn tokens<'a>(&'a self, out: &mut Vec<&'a str>) {
        out.extend(match (&self.nltk, &self.w2d) {
            (Some(t), _) => words(t, true),
            (None, Some(w)) => words(w, false),
            (None, None) => words(&self.text, self.spaced),
        });
    }
}

/// Buffers the loop over the ids reuses (a 100,000-id captioning run called the allocator about twenty times per
/// id for them).
#[derive(Default)]
struct Bufs {
    meteor: Scratch,
    hyp: String,
    reference: String,
    hyp_tokens: Vec<&'static str>,
    ref_tokens: Vec<&'static str>,
}

/// `get_meteor(pred, [true])` of the VQA or captioning script. `o`: the reference's tokens (`word_tokenize(o)`)
/// as [`words`] with `o_spaced` gives them. `reference`: an empty buffer for the reference tokens. The alignment's
/// links are left in `m.links`.
#[allow(clippy::too_many_arguments)]
fn get_meteor<'a>(
    task: Task,
    hyp_tokens: &[&str],
    o: &'a str,
    o_spaced: bool,
    mut reference: Vec<&'a str>,
    m: &mut Scratch,
    ctx: &mut Ctx,
) -> One<'a> {
    reference.extend(words(o, o_spaced));
    if task == Task::Vqa
        && reference.len() == 1
        && reference[0].chars().all(char::is_numeric)
        && !reference[0].is_empty()
    {
        ctx.numeric_used += 1;
        let y = crate::pycompat::parse_float(reference[0].as_bytes());
        // NLTK's tagger normalises a token that starts with a digit to !DIGITS or !YEAR and tags it CD; `nan`,
        // `inf` and `infinity`, which float() also reads, it tags NN or RB (tests/reference/aij_numeric_diff.py).
        let any = ctx.numeric_first_float;
        let score = hyp_tokens
            .iter()
            .filter(|tok| any || tok.chars().next().is_some_and(char::is_numeric))
            .find_map(|tok| Some(distance(crate::pycompat::parse_float(tok.as_bytes())?, y?)))
            .unwrap_or(0.0);
        return One {
            score,
            reference,
            alignment: None,
            numeric: true,
        };
    }
    let a = match task {
        Task::Vqa => meteor_in(
            m,
            hyp_tokens,
            &reference,
            &|w| ctx.stem_en(w),
            ctx.synonyms.as_ref(),
            VQA,
        ),
        _ => meteor_in(
            m,
            hyp_tokens,
            &reference,
            &|w| ctx.stem_ru(w),
            ctx.synonyms.as_ref(),
            CAP,
        ),
    };
    One {
        score: a.score,
        reference,
        alignment: Some(a),
        numeric: false,
    }
}

fn prep_vqa(s: &str, mode: Mode, ctx: &mut Ctx) -> String {
    match mode {
        // get_lemma(remove_punc(x)): the whole string is one pymorphy "word".
        Mode::Official => {
            let x = py_lower(&remove_ascii_punct(s, false));
            let l = ctx.lemmas.normal_form(&x);
            crate::metrics::aij::text::number_word(&l).map_or(l, str::to_string)
        }
        Mode::Corrected => {
            let x = py_lower(&remove_unicode_punct(s, false));
            let lem = &mut ctx.lemmas;
            crate::metrics::aij::text::normalize(&x, |y| y.to_string(), &mut |w, out| {
                lem.push_normal_form(w, out)
            })
        }
    }
}

/// The hypothesis element's content: officially the first element of type text of the loop `for element in
/// preds[key]` (raising where Python raises), corrected the first text element found.
fn hypothesis_value(pv: &Val, mode: Mode) -> Result<Option<Cow<'_, Val>>, PyErr> {
    if mode == Mode::Corrected {
        return Ok(super::pyjson::first_of_type(pv, "text").map(|(v, _)| Cow::Owned(v)));
    }
    let first_text = |els: &[Val]| -> Result<Option<usize>, PyErr> {
        for (i, el) in els.iter().enumerate() {
            if key(el, "type")?.as_str() == Some("text") {
                return Ok(Some(i));
            }
        }
        Ok(None)
    };
    Ok(match iterate(pv)? {
        Cow::Borrowed(els) => match first_text(els)? {
            Some(i) => Some(Cow::Borrowed(key(&els[i], "content")?)),
            None => None,
        },
        Cow::Owned(els) => match first_text(&els)? {
            Some(i) => Some(Cow::Owned(key(&els[i], "content")?.clone())),
            None => None,
        },
    })
}

/// The hypothesis `h` normalised as the script does (captioning: into the buffer `buf`).
fn hypothesis(task: Task, h: &str, mode: Mode, ctx: &mut Ctx, mut buf: String) -> Hyp {
    match task {
        Task::Vqa => Hyp::new(prep_vqa(h, mode, ctx), None, false),
        _ => {
            let f = tk::caption_side_into(h, true, &mut buf);
            Hyp::new(buf, Some(f.split), f.spaced)
        }
    }
}

/// Option `o` normalised as the script does, into `oo`; then `word_tokenize(o)`: its whitespace split (`None`)
/// or NLTK's tokens joined with single spaces (`Some`), and whether the split text is spaced.
fn reference_of(
    task: Task,
    o: &str,
    mode: Mode,
    ctx: &mut Ctx,
    oo: &mut String,
) -> (Option<String>, bool) {
    let (split, spaced) = match task {
        Task::Vqa => {
            *oo = prep_vqa(o, mode, ctx);
            (tk::word_tokenize_is_split(oo), false)
        }
        _ => {
            let f = tk::caption_side_into(o, false, oo);
            (f.split, f.spaced)
        }
    };
    let nltk = (!split).then(|| crate::metrics::aij::nltk_tokenize::word_tokenize_joined(oo));
    (nltk, spaced)
}

/// The error of an id that cannot be read: the official scorer crashes; corrected mode scores it 0.
fn crash(task: Task, mode: Mode, e: &PyErr) -> Diagnostic {
    let official = mode == Mode::Official;
    Diagnostic::error(
        if official {
            if task == Task::Vqa {
                "aij.vqa.crash"
            } else {
                "aij.cap.crash"
            }
        } else {
            "aij.item.exception"
        },
        if official {
            format!("the official scorer crashes here ({e})")
        } else {
            format!("{e}: this item scores 0")
        },
    )
    .hint("Each id needs a list of {\"type\", \"content\"} elements; text content is a string.")
    .official("crashes (uncaught exception)")
}

/// Whether every id gets its full detail (every option with its alignment): asked for, or the predictions are
/// small enough; otherwise the page asks for one id's full detail on demand.
fn full_details(pred: &Doc, ctx: &Ctx) -> bool {
    ctx.full_details.unwrap_or_else(|| {
        pred.entries.len() <= DETAIL_LIMIT && {
            let mut n = 0;
            pred.entries.iter().all(|(_, v)| {
                n += text_bytes(v, DETAIL_BYTES);
                n <= DETAIL_BYTES
            })
        }
    }) || ctx.explain.is_some()
}

/// One id's score and detail. Not inlined: it runs in the loop over the ids, which V8 runs in its baseline
/// compiler (a function entered once is not re-optimised), while a function called per id is.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn id_score(
    task: Task,
    gv: &Val,
    pv: &Val,
    mode: Mode,
    ctx: &mut Ctx,
    full: bool,
    bufs: &mut Bufs,
    detail: &mut serde_json::Map<String, Value>,
) -> Result<f64, PyErr> {
    let mut best = 0.0;
    let Some(hv) = hypothesis_value(pv, mode)? else {
        detail.insert("answer".into(), Value::Null);
        return Ok(0.0);
    };
    let h = as_str(&hv)?;
    detail.insert("answer".into(), json!(h));
    let opts = iterate(key(index(gv, 0)?, "content")?)?;
    // The hypothesis is processed once per id (the scripts redo it per option, with the same result).
    let hyp = hypothesis(task, h, mode, ctx, std::mem::take(&mut bufs.hyp));
    let mut hyp_tokens = recycle(std::mem::take(&mut bufs.hyp_tokens));
    hyp.tokens(&mut hyp_tokens);
    let mut ref_tokens: Vec<&str> = recycle(std::mem::take(&mut bufs.ref_tokens));
    let mut oo = std::mem::take(&mut bufs.reference);
    let mut rows = Vec::new();
    let mut scores = Vec::with_capacity(if full { 0 } else { opts.len() });
    let mut best_row = Value::Null;
    for o in opts.iter() {
        let o = as_str(o)?;
        let (nltk, spaced) = reference_of(task, o, mode, ctx, &mut oo);
        let (src, spaced) = nltk.as_deref().map_or((oo.as_str(), spaced), |t| (t, true));
        let one = get_meteor(
            task,
            &hyp_tokens,
            src,
            spaced,
            recycle(ref_tokens),
            &mut bufs.meteor,
            ctx,
        );
        if !full {
            // Light detail: the option scores (the page asks for one id's full detail on demand).
            scores.push(one.score);
            best = if one.score > best { one.score } else { best };
            ref_tokens = recycle(one.reference);
            continue;
        }
        // Every option: its text, normalised form and score; the best one also carries the hypothesis and the
        // alignment the page draws.
        let rt = json!(one.reference);
        if one.score > best {
            best = one.score;
            let alignment = one.alignment.map(|a| Alignment {
                links: bufs.meteor.links.clone(),
                ..a
            });
            best_row = json!({
                "option": o, "hyp": hyp.text, "ref": oo, "hyp_tokens": hyp_tokens, "ref_tokens": rt.clone(),
                "score": one.score, "numeric": one.numeric, "alignment": alignment,
            });
        }
        rows.push(json!({
            "option": o, "ref": oo, "ref_tokens": rt, "score": one.score, "numeric": one.numeric,
        }));
        ref_tokens = recycle(one.reference);
    }
    if full {
        detail.insert("options".into(), json!(rows));
        detail.insert("best".into(), best_row);
    } else {
        let scores = scores.into_iter().map(Value::from).collect();
        detail.insert("option_scores".into(), Value::Array(scores));
    }
    bufs.hyp_tokens = recycle(hyp_tokens);
    bufs.ref_tokens = recycle(ref_tokens);
    bufs.reference = oo;
    bufs.hyp = hyp.text;
    Ok(best)
}

/// METEOR per prediction id (items in prediction key order) and their mean.
pub fn score(task: Task, gt: &Doc, pred: &Doc, ctx: &mut Ctx, out: &mut TaskResult) {
    let mode = ctx.mode;
    let mut scores = Vec::new();
    let mut crashed = false;
    let full = full_details(pred, ctx);
    out.items.reserve(pred.entries.len());
    let mut bufs = Bufs::default();
    for (i, (id, pv)) in pred.entries.iter().enumerate() {
        if ctx.explain.as_ref().is_some_and(|x| x != id) {
            continue;
        }
        let mut detail = serde_json::Map::new();
        let Some(gv) = gt.get_near(id, i) else {
            continue; // extra id (corrected mode; official stopped before)
        };
        let s = match id_score(task, gv, pv, mode, ctx, full, &mut bufs, &mut detail) {
            Ok(s) => s,
            Err(e) => {
                detail.insert("error".into(), json!(e));
                out.diags.push(pred.at(id, crash(task, mode, &e)));
                crashed |= mode == Mode::Official;
                0.0
            }
        };
        let mut name = String::with_capacity(task.id().len() + 1 + id.len());
        name.extend([task.id(), "/", id]);
        // Room for the captioning "score" the task adds afterwards.
        let mut item_scores = Scores(Vec::with_capacity(2));
        item_scores.set(if task == Task::Vqa { "score" } else { "meteor" }, Some(s));
        out.items.push(Item {
            id: name,
            group: Some(task.id().to_string()),
            scores: item_scores,
            detail,
        });
        if crashed {
            break;
        }
        scores.push(s);
    }
    if let Some(x) = &ctx.explain {
        if pred.get(x).is_none() {
            out.diags.push(
                Diagnostic::error(
                    "aij.explain.unknown_id",
                    format!("option explain: {} has no prediction id {x}", task.name()),
                )
                .file(&pred.file),
            );
        }
    }
    if mode == Mode::Corrected && ctx.explain.is_none() {
        for (i, (id, _)) in gt.entries.iter().enumerate() {
            if pred.get_near(id, i).is_none() {
                scores.push(0.0);
            }
        }
    }
    let m = if crashed { None } else { numpy_mean(&scores) };
    out.official_fails |= crashed;
    out.parts.push(("meteor", m));
    if task == Task::Vqa {
        out.score = m;
    }
}
