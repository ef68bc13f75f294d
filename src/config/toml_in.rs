//! TOML → [`Node`] with positions, through the `toml` crate's spanned document tree.

use super::{ConfigError, Node, Pos, Val};
use toml::de::{DeTable, DeValue};
use toml::Spanned;

pub fn parse(text: &str) -> Result<Node, Vec<ConfigError>> {
    let (doc, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        return Err(errors
            .iter()
            .map(|e| {
                let pos = Pos::of(text, e.span().map_or(0, |s| s.start));
                ConfigError {
                    line: pos.line,
                    column: pos.column,
                    path: String::new(),
                    message: e.message().trim().to_string(),
                }
            })
            .collect());
    }
    let span = doc.span();
    Ok(table(text, doc.get_ref(), span.start))
}

fn table(text: &str, t: &DeTable<'_>, start: usize) -> Node {
    let mut entries: Vec<(String, Pos, Node)> = t
        .iter()
        .map(|(k, v)| {
            (
                k.get_ref().to_string(),
                Pos::of(text, k.span().start),
                value(text, v),
            )
        })
        .collect();
    // File order (the parser's map is sorted by key).
    entries.sort_by_key(|(_, p, _)| (p.line, p.column));
    Node {
        val: Val::Table(entries),
        pos: Pos::of(text, start),
    }
}

fn value(text: &str, v: &Spanned<DeValue<'_>>) -> Node {
    let start = v.span().start;
    let val = match v.get_ref() {
        DeValue::String(s) => Val::Str(s.to_string()),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(x) => Val::Int(x),
            Err(_) => Val::Other("an integer out of range"),
        },
        DeValue::Float(f) => match f.as_str().parse::<f64>() {
            Ok(x) => Val::Float(x),
            Err(_) => Val::Other("a float"),
        },
        DeValue::Boolean(b) => Val::Bool(*b),
        DeValue::Datetime(_) => Val::Other("a datetime"),
        DeValue::Array(a) => Val::Arr(a.iter().map(|x| value(text, x)).collect()),
        DeValue::Table(t) => return table(text, t, start),
    };
    Node {
        val,
        pos: Pos::of(text, start),
    }
}
