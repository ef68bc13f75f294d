//! The AI Journey 2022 contest JSON (docs/specs/aij2022.md 2.1): `{ "<id>": [ {"type": …, "content": …}, … ], … }`.
//! Parsed with serde_json (syntax errors with line and column); object key order is kept; a duplicate key in
//! any object is an error (`aij.json.duplicate_key`), located where the repeated key ends. Each top-level
//! key's line and column are recorded so later diagnostics can point at the id.

use super::python_json::{self as py, char_column, top_level_key_positions};
use crate::diag::Diagnostic;
use rustc_hash::FxHashMap;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// One parsed file: ids in file order with their values; each id's key position is found when a diagnostic
/// first asks for one (scanning a 100,000-id file for them on every run cost more than the diagnostics need).
#[derive(Clone, Debug, Default)]
pub struct Doc {
    pub file: String,
    pub entries: Vec<(String, Val)>,
    /// Where (line, column) the file uses what Python's json reads beyond JSON ([`py`]), in file order.
    pub extensions: Vec<((u64, u64), py::Use)>,
    keys: KeyPos,
    /// id → first index, built on the first look-up and rebuilt when `entries` grew (a linear search per id
    /// made 100,000-id files quadratic: minutes).
    pub lookup: std::cell::RefCell<(usize, FxHashMap<String, usize>)>,
}

/// Where the keys of a document's entries are: the file's text and, for entries picked from another document
/// (the combined layout split by task), each entry's index there.
#[derive(Clone, Debug, Default)]
struct KeyPos {
    /// The file's bytes (shared, not copied: a large file is read once) and where its body starts (after a BOM).
    body: std::rc::Rc<Vec<u8>>,
    start: usize,
    /// The number of entries of the file (the key scan must find as many, else every position is 1:1).
    count: usize,
    picks: Option<Vec<usize>>,
    found: std::cell::OnceCell<Vec<(u64, u64)>>,
}

impl Doc {
    /// An empty document of `file`.
    pub fn empty(file: &str) -> Doc {
        Doc {
            file: file.to_string(),
            ..Doc::default()
        }
    }
    pub fn get(&self, id: &str) -> Option<&Val> {
        self.index(id)
            .and_then(|i| self.entries.get(i))
            .map(|(_, v)| v)
    }
    /// [`Doc::get`], trying position `at` first: files of one task usually list their ids in the same order,
    /// and a look-up in a 100,000-id table is a cache miss.
    pub fn get_near(&self, id: &str, at: usize) -> Option<&Val> {
        match self.entries.get(at) {
            Some((k, v)) if k == id => Some(v),
            _ => self.get(id),
        }
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
    /// Line and column (1-based, code points) of entry `i`'s key; `None` when it is not known.
    pub fn pos(&self, i: usize) -> Option<(u64, u64)> {
        let k = &self.keys;
        let j = match &k.picks {
            Some(p) => *p.get(i)?,
            None => i,
        };
        let found = k
            .found
            .get_or_init(|| top_level_key_positions(k.body.get(k.start..).unwrap_or(&[])));
        if found.len() != k.count {
            return (j < k.count).then_some((1, 1));
        }
        found.get(j).copied()
    }
    /// Appends entry `i` of `src` (same file), keeping its key position.
    pub fn push_from(&mut self, src: &Doc, i: usize) {
        let Some(e) = src.entries.get(i) else { return };
        if self.entries.is_empty() {
            self.keys = KeyPos {
                body: src.keys.body.clone(),
                start: src.keys.start,
                count: src.keys.count,
                picks: Some(Vec::new()),
                found: std::cell::OnceCell::new(),
            };
        }
        let j = match &src.keys.picks {
            Some(p) => p.get(i).copied().unwrap_or(usize::MAX),
            None => i,
        };
        if let Some(p) = &mut self.keys.picks {
            p.push(j);
        }
        self.entries.push(e.clone());
    }
    /// A diagnostic located at id `id`'s key.
    pub fn at(&self, id: &str, d: Diagnostic) -> Diagnostic {
        let d = d.file(&self.file);
        match self.index(id).and_then(|i| self.pos(i)) {
            Some((l, c)) => d.at(l, c),
            None => d,
        }
    }
}

/// A JSON value as Python's `json.load` hands it to the contest scripts. Objects keep their key order (Python
/// dicts) in a plain list, as they are small; strings that are common keys or types (`type`, `content`, `text`,
/// `image`) are shared, not allocated. A 100,000-id file made of `serde_json::Value`s cost more in allocating,
/// hashing and freeing than the scoring itself.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Val {
    #[default]
    Null,
    Bool(bool),
    Num(serde_json::Number),
    Str(Text),
    List(Vec<Val>),
    Dict(Vec<(Text, Val)>),
    /// A Python float that JSON cannot hold: `NaN`, `Infinity`, `-Infinity`, `1e999` ([`py`]).
    Float(f64),
    /// A Python int beyond the float range, as its digits ([`py`]).
    BigInt(String),
}

/// A string of a [`Val`].
pub type Text = std::borrow::Cow<'static, str>;

impl Val {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Val::Num(n) => n.as_f64(),
            Val::Float(v) => Some(*v),
            Val::BigInt(d) => d.parse().ok(),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&Vec<Val>> {
        match self {
            Val::List(v) => Some(v),
            _ => None,
        }
    }
    pub fn is_object(&self) -> bool {
        matches!(self, Val::Dict(_))
    }
    /// `self[k]` of a dict (the only entry: keys are unique).
    pub fn get(&self, k: &str) -> Option<&Val> {
        match self {
            Val::Dict(m) => m.iter().find(|(x, _)| x == k).map(|(_, v)| v),
            _ => None,
        }
    }
}

impl serde::Serialize for Val {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Val::Null => s.serialize_unit(),
            Val::Bool(b) => s.serialize_bool(*b),
            Val::Num(n) => n.serialize(s),
            Val::Float(v) => s.serialize_f64(*v),
            Val::BigInt(d) => s.serialize_str(d),
            Val::Str(t) => s.serialize_str(t),
            Val::List(v) => {
                let mut q = s.serialize_seq(Some(v.len()))?;
                for x in v {
                    q.serialize_element(x)?;
                }
                q.end()
            }
            Val::Dict(m) => {
                let mut q = s.serialize_map(Some(m.len()))?;
                for (k, v) in m {
                    q.serialize_entry(k.as_ref(), v)?;
                }
                q.end()
            }
        }
    }
}

impl fmt::Display for Val {
    /// The value as compact JSON.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| fmt::Error)?)
    }
}

/// A string, shared when it is one of the common keys and types.
fn text(v: &str) -> Text {
    match v {
        "type" => Text::Borrowed("type"),
        "content" => Text::Borrowed("content"),
        "text" => Text::Borrowed("text"),
        "image" => Text::Borrowed("image"),
        _ => Text::Owned(v.to_string()),
    }
}

/// A value; with `Some(marker)`, strings that start with the marker are the numbers of [`py::rewrite`].
#[derive(Clone, Copy)]
struct Strict(Option<char>);

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Val;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Val, D::Error> {
        d.deserialize_any(StrictVisitor(self.0))
    }
}

struct StrictVisitor(Option<char>);

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Val;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Val, E> {
        Ok(Val::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Val, E> {
        Ok(Val::Num(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Val, E> {
        Ok(Val::Num(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Val, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Val::Null, Val::Num))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Val, E> {
        Ok(match self.0.and_then(|m| py::marked(v, m)) {
            Some("N") => Val::Float(f64::NAN),
            Some("I") => Val::Float(f64::INFINITY),
            Some("J") => Val::Float(f64::NEG_INFINITY),
            Some(d) if d.starts_with(['B', 'b']) => Val::BigInt(d[1..].to_string()),
            _ => Val::Str(text(v)),
        })
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Val, E> {
        match self.0 {
            Some(m) if v.starts_with(m) => self.visit_str(&v),
            _ => Ok(Val::Str(Text::Owned(v))),
        }
    }
    fn visit_unit<E>(self) -> Result<Val, E> {
        Ok(Val::Null)
    }
    fn visit_none<E>(self) -> Result<Val, E> {
        Ok(Val::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Val, A::Error> {
        // The contest's lists and dicts hold one or two items: room for two, not the four a first push reserves.
        let mut v = Vec::with_capacity(2);
        while let Some(x) = seq.next_element_seed(Strict(self.0))? {
            v.push(x);
        }
        Ok(Val::List(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Val, A::Error> {
        let mut m: Vec<(Text, Val)> = Vec::with_capacity(2);
        // Repeated keys: compared directly while the object is small, through a set of its keys above that.
        let mut seen: Option<rustc_hash::FxHashSet<Text>> = None;
        read_entries(map, self.0, |k, v| {
            if m.len() >= 16 {
                let set = seen.get_or_insert_with(|| m.iter().map(|(x, _)| x.clone()).collect());
                if !set.insert(k.clone()) {
                    return Err(k.into_owned());
                }
            } else if m.iter().any(|(x, _)| *x == k) {
                return Err(k.into_owned());
            }
            m.push((k, v));
            Ok(())
        })?;
        Ok(Val::Dict(m))
    }
}

/// A key, read without allocating when it is a common one; a marker string ([`py::rewrite`]) was a number.
struct KeySeed(Option<char>);

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Text;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Text, D::Error> {
        d.deserialize_str(KeyVisitor(self.0))
    }
}

struct KeyVisitor(Option<char>);

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Text;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string key")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Text, E> {
        match self.0 {
            Some(m) if v.starts_with(m) => Err(E::custom(
                "Expecting property name enclosed in double quotes",
            )),
            _ => Ok(text(v)),
        }
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Text, E> {
        match self.0 {
            Some(m) if v.starts_with(m) => self.visit_str(&v),
            _ => Ok(Text::Owned(v)),
        }
    }
}

/// Reads an object's entries in file order into `put`, which refuses a repeated key by handing it back: the parse
/// then fails (Python's json would silently keep the last value).
fn read_entries<'de, A: MapAccess<'de>>(
    mut map: A,
    marker: Option<char>,
    mut put: impl FnMut(Text, Val) -> Result<(), String>,
) -> Result<(), A::Error> {
    while let Some((k, v)) = next_entry(&mut map, marker)? {
        put(k, v).map_err(|k| de::Error::custom(format!("duplicate key `{k}`")))?;
    }
    Ok(())
}

/// One key and its value. Not inlined: the loop over a 100,000-id object runs once, and V8 keeps a function it
/// entered once in its baseline compiler, so the work is kept in a function that is called per entry and
/// optimised.
#[inline(never)]
fn next_entry<'de, A: MapAccess<'de>>(
    map: &mut A,
    marker: Option<char>,
) -> Result<Option<(Text, Val)>, A::Error> {
    let Some(k) = map.next_key_seed(KeySeed(marker))? else {
        return Ok(None);
    };
    Ok(Some((k, map.next_value_seed(Strict(marker))?)))
}

/// The top level: an object read straight into entries and their index (no map of 100,000 ids built and then
/// copied), or any other value (an error later).
enum Top {
    Object(Vec<(String, Val)>, FxHashMap<String, usize>),
    Other,
}

struct TopSeed(Option<char>);

impl<'de> DeserializeSeed<'de> for TopSeed {
    type Value = Top;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Top, D::Error> {
        d.deserialize_any(TopVisitor(self.0))
    }
}

struct TopVisitor(Option<char>);

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Top;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object of ids")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Top, A::Error> {
        let mut entries = Vec::new();
        let mut index = FxHashMap::default();
        read_entries(map, self.0, |k, v| match index.entry(k.into_owned()) {
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
        while seq.next_element_seed(Strict(self.0))?.is_some() {}
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

/// The top-level value, and nothing after it.
fn top<'de, R: serde_json::de::Read<'de>>(
    de: &mut serde_json::Deserializer<R>,
    marker: Option<char>,
) -> Result<Top, serde_json::Error> {
    TopSeed(marker)
        .deserialize(&mut *de)
        .and_then(|v| de.end().map(|_| v))
}

/// Parses `bytes` (UTF-8, BOM accepted). On failure returns the located diagnostic.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Doc, Box<Diagnostic>> {
    parse_owned(file, bytes.to_vec())
}

/// [`parse`], keeping `bytes` for the key positions diagnostics ask for (without a copy).
pub fn parse_owned(file: &str, bytes: Vec<u8>) -> Result<Doc, Box<Diagnostic>> {
    let start = bytes.len() - super::lines::strip_bom(&bytes).len();
    let body = bytes.get(start..).unwrap_or(&[]);
    // One vectorised UTF-8 check of the whole file lets serde_json skip its check of every string (its slice
    // reader runs `str::from_utf8` per string: about 5% of a large captioning run in the browser). Invalid
    // UTF-8 goes to the slice reader, which reports where.
    let text = simdutf8::basic::from_utf8(body).ok();
    let value = match text {
        Some(text) => top(&mut serde_json::Deserializer::from_str(text), None),
        None => top(&mut serde_json::Deserializer::from_slice(body), None),
    };
    // What Python's json reads beyond JSON (NaN, Infinity, 1e999, lone surrogates): read once more, rewritten.
    let mut extensions = Vec::new();
    let value = match value {
        Err(e) => match text.and_then(|t| py::rewrite(t, py::Read::ALL)) {
            Some(rw) => {
                let v = top(
                    &mut serde_json::Deserializer::from_str(&rw.text),
                    Some(rw.marker),
                );
                let at: Vec<usize> = rw.uses.iter().map(|u| u.0).collect();
                let lc = py::line_cols(body, &at);
                extensions = lc.into_iter().zip(rw.uses.iter().map(|u| u.1)).collect();
                v.map_err(|e| (e, Some(rw)))
            }
            None => Err((e, None)),
        },
        Ok(v) => Ok(v),
    };
    let value = match value {
        Ok(v) => v,
        Err((e, rw)) => return Err(Box::new(parse_error(file, body, &e, rw.as_ref()))),
    };
    let Top::Object(entries, index) = value else {
        return Err(Box::new(not_object(file, body)));
    };
    let n = entries.len();
    Ok(Doc {
        file: file.to_string(),
        extensions,
        entries,
        keys: KeyPos {
            body: std::rc::Rc::new(bytes),
            start,
            count: n,
            picks: None,
            found: std::cell::OnceCell::new(),
        },
        lookup: std::cell::RefCell::new((n, index)),
    })
}

/// The error of a file serde_json cannot read (`rw`: the rewrite it read, whose columns are mapped back): a
/// repeated key, or a syntax error (where Python's json raises too).
fn parse_error(
    file: &str,
    body: &[u8],
    e: &serde_json::Error,
    rw: Option<&py::Rewrite>,
) -> Diagnostic {
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
        // serde_json columns count bytes (of the rewritten text: mapped back); code points on that line.
        let col = match rw {
            Some(rw) => {
                let at = py::line_start(rw.text.as_bytes(), e.line()) + e.column();
                rw.original(at)
                    .saturating_sub(py::line_start(body, e.line()))
            }
            None => e.column(),
        };
        d = d.at(e.line() as u64, char_column(body, e.line(), col));
    }
    if !dup {
        d = d.official("crashes (json.decoder.JSONDecodeError)");
    }
    d
}

/// The error of a file whose top level is not an object.
fn not_object(file: &str, body: &[u8]) -> Diagnostic {
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
    .hint("The contest files map each id to a list of {type, content} elements.")
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
        assert_eq!(
            (d.pos(0), d.pos(1), d.pos(2)),
            (Some((1, 2)), Some((2, 2)), None)
        );
        let mut picked = Doc::empty("a.json");
        picked.push_from(&d, 1);
        let mut again = Doc::empty("a.json");
        again.push_from(&picked, 0);
        assert_eq!(
            (again.entries[0].0.as_str(), again.pos(0)),
            ("a", Some((2, 2)))
        );
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

    #[test]
    fn invalid_utf8_is_located() {
        // Valid files take the str reader, invalid ones the slice reader: same values, and the bad byte found.
        let good = "{\"0\": [{\"type\": \"text\", \"content\": \"ёж \\u0436\"}]}";
        let d = parse("a.json", good.as_bytes()).unwrap();
        let el = d.entries[0].1.as_array().and_then(|l| l.first());
        assert_eq!(
            el.and_then(|e| e.get("content")).and_then(Val::as_str),
            Some("ёж ж")
        );
        let mut bad = good.as_bytes().to_vec();
        bad.insert(38, 0xFF); // after the ё; serde_json points at the end of that string
        let e = parse("a.json", &bad).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.line, e.column),
            ("aij.json.syntax", Some(1), Some(41))
        );
    }
}
