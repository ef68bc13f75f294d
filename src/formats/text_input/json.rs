//! The `json` layout: an object `{"id": "text"}` or `{"id": ["ref1", "ref2", …]}` (several references), or
//! JSON Lines (or a JSON array) of objects `{"id": …, "text": …}` / `{"id": …, "answers": [...]}`. Keys keep
//! their file order and repeats (a repeated id is the protocol's `duplicate_id`); each record is located (the
//! key's line and column, or the JSON Lines line).

use super::{error, Record};
use crate::diag::{excerpt, Diags};
use crate::formats::python_json::top_level_key_positions;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::Value;

/// The records of a JSON or JSON Lines file; `None` after a located error (`text.json`).
pub fn read(file: &str, body: &str, diags: &mut Diags) -> Option<Vec<Record>> {
    let first = body.trim_start().as_bytes().first().copied();
    if first == Some(b'{') {
        return if is_json_lines(body) {
            read_lines(file, body, diags)
        } else {
            read_map(file, body, diags)
        };
    }
    let v: Value = match serde_json::from_str(body) {
        Ok(v) => v,
        Err(e) => {
            diags.push(syntax(file, &e));
            return None;
        }
    };
    let Value::Array(rows) = v else {
        diags.push(error(
            "text.json",
            file,
            1,
            1,
            "expected a JSON object or array".into(),
        ));
        return None;
    };
    let mut out = Vec::new();
    for (k, row) in rows.iter().enumerate() {
        out.push(record(file, row, 0, diags, &format!("element {}", k + 1))?);
    }
    Some(out)
}

/// JSON Lines: the first non-blank line is a whole JSON object, and either more lines follow or it is a record
/// (`"id"` with `"text"` or `"answers"`). Otherwise the file is one object, whose syntax errors are located in it.
fn is_json_lines(body: &str) -> bool {
    let mut lines = body.lines().filter(|l| !l.trim().is_empty());
    let Some(first) = lines.next() else {
        return false;
    };
    let Ok(Value::Object(o)) = serde_json::from_str::<Value>(first) else {
        return false;
    };
    lines.next().is_some()
        || (o.contains_key("id") && (o.contains_key("text") || o.contains_key("answers")))
}

fn syntax(file: &str, e: &serde_json::Error) -> crate::diag::Diagnostic {
    error(
        "text.json",
        file,
        e.line() as u64,
        e.column() as u64,
        format!("invalid JSON: {e}"),
    )
}

/// Entries of the top-level object, in file order, repeats kept.
struct Entries(Vec<(String, Value)>);

impl<'de> serde::Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entries;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Entries, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, Value>()? {
                    out.push((k, v));
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// `{"id": "text"}` / `{"id": ["ref", …]}`.
fn read_map(file: &str, body: &str, diags: &mut Diags) -> Option<Vec<Record>> {
    let entries: Entries = match serde_json::from_str(body) {
        Ok(e) => e,
        Err(e) => {
            diags.push(syntax(file, &e));
            return None;
        }
    };
    let pos = top_level_key_positions(body.as_bytes());
    let mut out = Vec::with_capacity(entries.0.len());
    let mut bad = false;
    for (k, (id, v)) in entries.0.into_iter().enumerate() {
        let (line, column) = pos.get(k).copied().unwrap_or((0, 0));
        match texts(&v) {
            Some(texts) => out.push(Record {
                id: id.trim_matches(' ').to_string(),
                texts,
                line,
                column,
            }),
            None => {
                diags.push(
                    error(
                        "text.not_text",
                        file,
                        line,
                        column,
                        format!(
                            "the value of `{}` is not a string or a list of strings",
                            excerpt(&id)
                        ),
                    )
                    .found(excerpt(&v.to_string()))
                    .hint("Give each id a string (or, for several references, a list of strings)."),
                );
                bad = true;
            }
        }
    }
    (!bad).then_some(out)
}

/// JSON Lines: one object per non-blank line.
fn read_lines(file: &str, body: &str, diags: &mut Diags) -> Option<Vec<Record>> {
    let mut out = Vec::new();
    for (n, l) in body.lines().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        let line = n as u64 + 1;
        let v: Value = match serde_json::from_str(l) {
            Ok(v) => v,
            Err(e) => {
                diags.push(error(
                    "text.json",
                    file,
                    line,
                    e.column() as u64,
                    format!("invalid JSON line: {e}"),
                ));
                return None;
            }
        };
        out.push(record(file, &v, line, diags, &format!("line {line}"))?);
    }
    Some(out)
}

/// One object `{"id": …, "text" | "answers": …}`.
fn record(file: &str, v: &Value, line: u64, diags: &mut Diags, what: &str) -> Option<Record> {
    let id = match v.get("id") {
        Some(Value::String(s)) => Some(s.trim_matches(' ').to_string()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let Some(id) = id else {
        diags.push(
            error(
                "text.no_id",
                file,
                line,
                0,
                format!("{what} has no string `id`"),
            )
            .found(excerpt(&v.to_string()))
            .hint("Give every object an `id` and a `text` (or `answers`)."),
        );
        return None;
    };
    let t = v.get("text").or_else(|| v.get("answers")).and_then(texts);
    let Some(texts) = t else {
        diags.push(
            error(
                "text.not_text",
                file,
                line,
                0,
                format!(
                    "{what} (id `{}`) has no string `text` or list `answers`",
                    excerpt(&id)
                ),
            )
            .found(excerpt(&v.to_string())),
        );
        return None;
    };
    Some(Record {
        id,
        texts,
        line,
        column: 0,
    })
}

/// A string, a list of strings, or a list of `{"text": …}` objects.
pub fn texts(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::String(s) => Some(vec![s.clone()]),
        Value::Array(a) => a
            .iter()
            .map(|x| match x {
                Value::String(s) => Some(s.clone()),
                Value::Object(o) => o.get("text").and_then(Value::as_str).map(str::to_string),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}
