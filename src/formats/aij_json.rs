//! The AI Journey 2022 contest JSON (specs/aij2022.md 2.1): `{ "<id>": [ {"type": …, "content": …}, … ], … }`.
//! Parsed with serde_json (syntax errors with line and column); object key order is kept; a duplicate key in
//! any object is an error (`aij.json.duplicate_key`), located where the repeated key ends. Each top-level
//! key's line and column are recorded so later diagnostics can point at the id.

use crate::diag::Diagnostic;
use rustc_hash::FxHashMap;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// One parsed file: ids in file order with their values and the position of each id's key.
#[derive(Clone, Debug, Default)]
pub struct Doc {
    pub file: String,
    pub entries: Vec<(String, Value)>,
    pub pos: Vec<(u64, u64)>,
    /// id → first index, built on the first look-up and rebuilt when `entries` grew (a linear search per id
    /// made 100,000-id files quadratic: minutes).
    pub lookup: std::cell::RefCell<(usize, FxHashMap<String, usize>)>,
}

impl Doc {
    pub fn get(&self, id: &str) -> Option<&Value> {
        self.index(id)
            .and_then(|i| self.entries.get(i))
            .map(|(_, v)| v)
    }
    pub fn index(&self, id: &str) -> Option<usize> {
        if self.entries.len() < 16 {
            return self.entries.iter().position(|(k, _)| k == id);
        }
        let mut l = self.lookup.borrow_mut();
        if l.0 != self.entries.len() || l.1.is_empty() {
            let mut m = FxHashMap::with_capacity_and_hasher(self.entries.len(), Default::default());
            for (i, (k, _)) in self.entries.iter().enumerate() {
                m.entry(k.clone()).or_insert(i);
            }
            *l = (self.entries.len(), m);
        }
        l.1.get(id).copied()
    }
    /// A diagnostic located at id `id`'s key.
    pub fn at(&self, id: &str, d: Diagnostic) -> Diagnostic {
        let d = d.file(&self.file);
        match self.index(id).and_then(|i| self.pos.get(i)) {
            Some((l, c)) => d.at(*l, *c),
            None => d,
        }
    }
}

struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut v = Vec::new();
        while let Some(x) = seq.next_element_seed(Strict)? {
            v.push(x);
        }
        Ok(Value::Array(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        let mut m = Map::new();
        read_entries(map, |k, v| match m.entry(k) {
            serde_json::map::Entry::Occupied(o) => Err(o.key().clone()),
            serde_json::map::Entry::Vacant(e) => {
                e.insert(v);
                Ok(())
            }
        })?;
        Ok(Value::Object(m))
    }
}

/// Reads an object's entries in file order into `put`, which refuses a repeated key by handing it back: the parse
/// then fails (Python's json would silently keep the last value).
fn read_entries<'de, A: MapAccess<'de>>(
    mut map: A,
    mut put: impl FnMut(String, Value) -> Result<(), String>,
) -> Result<(), A::Error> {
    while let Some(k) = map.next_key::<String>()? {
        let v = map.next_value_seed(Strict)?;
        put(k, v).map_err(|k| de::Error::custom(format!("duplicate key `{k}`")))?;
    }
    Ok(())
}

/// The top level: an object read straight into entries and their index (no map of 100,000 ids built and then
/// copied), or any other value (an error later).
enum Top {
    Object(Vec<(String, Value)>, FxHashMap<String, usize>),
    Other,
}

struct TopSeed;

impl<'de> DeserializeSeed<'de> for TopSeed {
    type Value = Top;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Top, D::Error> {
        d.deserialize_any(TopVisitor)
    }
}

struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Top;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object of ids")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Top, A::Error> {
        let mut entries = Vec::new();
        let mut index = FxHashMap::default();
        read_entries(map, |k, v| match index.entry(k) {
            std::collections::hash_map::Entry::Occupied(o) => Err(o.key().clone()),
            std::collections::hash_map::Entry::Vacant(e) => {
                entries.push((e.key().clone(), v));
                e.insert(entries.len() - 1);
                Ok(())
            }
        })?;
        Ok(Top::Object(entries, index))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Top, A::Error> {
        while seq.next_element_seed(Strict)?.is_some() {}
        Ok(Top::Other)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Top, E> {
        Ok(Top::Other)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Top, E> {
        Ok(Top::Other)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Top, E> {
        Ok(Top::Other)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Top, E> {
        Ok(Top::Other)
    }
    fn visit_str<E>(self, _: &str) -> Result<Top, E> {
        Ok(Top::Other)
    }
    fn visit_unit<E>(self) -> Result<Top, E> {
        Ok(Top::Other)
    }
}

/// Parses `bytes` (UTF-8, BOM accepted). On failure returns the located diagnostic.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Doc, Box<Diagnostic>> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut de = serde_json::Deserializer::from_slice(body);
    let value = TopSeed
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|_| v));
    let value = match value {
        Ok(v) => v,
        Err(e) => {
            let msg = e.to_string();
            let dup = msg.starts_with("duplicate key");
            let code = if dup {
                "aij.json.duplicate_key"
            } else {
                "aij.json.syntax"
            };
            let text = msg.split(" at line ").next().unwrap_or(&msg).to_string();
            let mut d = Diagnostic::error(code, text).file(file).hint(if dup {
                "Remove the repeated key: Python's json keeps only the last value silently."
            } else {
                "Fix the JSON syntax at this position (a UTF-8 JSON object of ids)."
            });
            if e.line() > 0 {
                // serde_json columns count bytes; convert to code points on that line.
                d = d.at(e.line() as u64, char_column(body, e.line(), e.column()));
            }
            if !dup {
                d = d.official("crashes (json.decoder.JSONDecodeError)");
            }
            return Err(Box::new(d));
        }
    };
    let Top::Object(entries, index) = value else {
        return Err(Box::new(
            Diagnostic::error(
                "aij.json.not_object",
                "the file is not a JSON object of ids",
            )
            .file(file)
            .at(1, 1)
            .expected("{\"<id>\": [ {\"type\": …, \"content\": …} ], …}")
            .found(crate::diag::excerpt(&String::from_utf8_lossy(
                &body[..body.len().min(60)],
            )))
            .hint("The contest files map each id to a list of {type, content} elements."),
        ));
    };
    let pos = top_level_key_positions(body);
    let n = entries.len();
    let pos = if pos.len() == entries.len() {
        pos
    } else {
        vec![(1, 1); entries.len()]
    };
    Ok(Doc {
        file: file.to_string(),
        entries,
        pos,
        lookup: std::cell::RefCell::new((n, index)),
    })
}

/// 1-based code-point column from serde_json's 1-based byte column.
fn char_column(body: &[u8], line: usize, col: usize) -> u64 {
    let mut start = 0;
    let mut l = 1;
    for (i, &b) in body.iter().enumerate() {
        if l == line {
            start = i;
            break;
        }
        if b == b'\n' {
            l += 1;
            start = i + 1;
        }
    }
    let end = (start + col).min(body.len());
    let seg = &body[start.min(end)..end];
    String::from_utf8_lossy(seg).chars().count().max(1) as u64
}

/// Line and column (1-based, code points) of each key of the top-level object, in file order.
fn top_level_key_positions(body: &[u8]) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let (mut line, mut col) = (1u64, 0u64);
    let mut depth = 0i64;
    let mut in_str = false;
    let mut esc = false;
    // At depth 1, a string that starts after `{` or `,` is a key.
    let mut expect_key = false;
    for &c in body {
        // Columns count code points: UTF-8 continuation bytes do not start one.
        if c & 0xC0 == 0x80 {
            continue;
        }
        if c == b'\n' {
            line += 1;
            col = 0;
        } else {
            col += 1;
        }
        if in_str {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == b'"' {
                in_str = false;
            }
            continue;
        }
        match c {
            b'"' => {
                if depth == 1 && expect_key {
                    out.push((line, col));
                    expect_key = false;
                }
                in_str = true;
            }
            b'{' | b'[' => {
                depth += 1;
                if depth == 1 && c == b'{' {
                    expect_key = true;
                }
            }
            b'}' | b']' => depth -= 1,
            b',' if depth == 1 => expect_key = true,
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_positions() {
        let d = parse(
            "a.json",
            "\u{feff}{\"b\": [1],\n \"a\": {\"x\": \"}\"}}".as_bytes(),
        )
        .unwrap();
        assert_eq!(d.entries[0].0, "b");
        assert_eq!(d.entries[1].0, "a");
        assert_eq!(d.pos, vec![(1, 2), (2, 2)]);
    }

    #[test]
    fn duplicate_and_syntax() {
        let e = parse("a.json", b"{\"a\": 1,\n \"a\": 2}").unwrap_err();
        assert_eq!(e.code, "aij.json.duplicate_key");
        assert_eq!(e.line, Some(2));
        let e = parse("a.json", b"{\"a\": [1,}").unwrap_err();
        assert_eq!(e.code, "aij.json.syntax");
        assert_eq!(e.line, Some(1));
    }
}
