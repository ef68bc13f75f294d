//! The contest scripts' element access, with the exception Python would raise (docs/specs/aij2022.md 3.0).

use crate::formats::aij_json::{Text, Val as Value};
use std::borrow::Cow;

/// A Python exception the official loop would raise, as text (`TypeError: …`).
pub type PyErr = String;

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Num(n) if n.is_f64() => "float",
        Value::Num(_) | Value::BigInt(_) => "int",
        Value::Float(_) => "float",
        Value::Str(_) => "str",
        Value::List(_) => "list",
        Value::Dict(_) => "dict",
    }
}

/// `x[key]` for a string key.
pub fn key<'a>(x: &'a Value, k: &str) -> Result<&'a Value, PyErr> {
    match x {
        Value::Dict(_) => x.get(k).ok_or_else(|| format!("KeyError: '{k}'")),
        Value::List(_) => Err("TypeError: list indices must be integers or slices, not str".into()),
        Value::Str(_) => Err("TypeError: string indices must be integers, not 'str'".into()),
        v => Err(format!(
            "TypeError: '{}' object is not subscriptable",
            kind(v)
        )),
    }
}

/// `x[i]` for an integer index.
pub fn index(x: &Value, i: usize) -> Result<&Value, PyErr> {
    match x {
        Value::List(a) => a
            .get(i)
            .ok_or_else(|| "IndexError: list index out of range".into()),
        Value::Dict(_) => Err(format!("KeyError: {i}")),
        Value::Str(_) => Err("TypeError: the element is a string".into()),
        v => Err(format!(
            "TypeError: '{}' object is not subscriptable",
            kind(v)
        )),
    }
}

/// `for el in x`: the elements Python would iterate (a dict iterates its keys, a string its characters); a list is
/// borrowed, not copied.
pub fn iterate(x: &Value) -> Result<Cow<'_, [Value]>, PyErr> {
    match x {
        Value::List(a) => Ok(Cow::Borrowed(a)),
        Value::Dict(m) => Ok(Cow::Owned(
            m.iter().map(|(k, _)| Value::Str(k.clone())).collect(),
        )),
        Value::Str(s) => Ok(Cow::Owned(
            s.chars()
                .map(|c| Value::Str(Text::Owned(c.to_string())))
                .collect(),
        )),
        v => Err(format!("TypeError: '{}' object is not iterable", kind(v))),
    }
}

/// The text loops of TextQA / MathQA / TRitW:
/// `for element in preds[key]: prediction = ""; if element['type'] == 'text': prediction = element['content']; break`.
/// `Ok(None)`: the list is empty (the variable keeps its previous value). `Ok(Some((value, index)))`: the
/// prediction (`""` when no text element) and the index of the element it came from.
pub fn first_text_official(pred: &Value) -> Result<Option<(Value, Option<usize>)>, PyErr> {
    let els = iterate(pred)?;
    if els.is_empty() {
        return Ok(None);
    }
    for (i, el) in els.iter().enumerate() {
        if key(el, "type")?.as_str() == Some("text") {
            return Ok(Some((key(el, "content")?.clone(), Some(i))));
        }
    }
    Ok(Some((Value::Str(Text::Borrowed("")), None)))
}

/// `gt[key][0]['content']`, iterated as options (strings). A non-string option raises later in the scorer.
pub fn gt_options(gt: &Value) -> Result<Cow<'_, [Value]>, PyErr> {
    iterate(key(index(gt, 0)?, "content")?)
}

/// The string in `v`, or the exception `.lower()` / `len()` raises on it.
pub fn as_str(v: &Value) -> Result<&str, PyErr> {
    v.as_str().ok_or_else(|| {
        format!(
            "AttributeError: '{}' object has no attribute 'lower'",
            kind(v)
        )
    })
}

/// Corrected extraction (README rule): the first element whose type is `text` (`want = "text"`) or `image`.
pub fn first_of_type(pred: &Value, want: &str) -> Option<(Value, usize)> {
    pred.as_array()?.iter().enumerate().find_map(|(i, el)| {
        (el.get("type").and_then(Value::as_str) == Some(want))
            .then(|| el.get("content").cloned().map(|c| (c, i)))
            .flatten()
    })
}
