//! TOML → [`Node`] with positions, through the `toml` crate's spanned document tree.

use super::{ConfigError, Node, Pos, Val};
use toml::de::{DeTable, DeValue};
use toml::Spanned;

pub fn parse(text: &str) -> Result<Node, Vec<ConfigError>> {
    let (doc, errors) = DeTable::parse_recoverable(text);
    let at = Positions::new(text);
    if !errors.is_empty() {
        return Err(errors
            .iter()
            .map(|e| {
                let pos = at.of(e.span().map_or(0, |s| s.start));
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
    Ok(table(&at, doc.get_ref(), span.start))
}

/// Byte offset → line and column in time independent of the offset (a config of 100,000 columns has
/// 400,000 positions; [`Pos::of`] scans the text from its start each time).
struct Positions<'a> {
    text: &'a str,
    /// The byte offset where each line starts.
    line_starts: Vec<usize>,
}

impl<'a> Positions<'a> {
    fn new(text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Positions { text, line_starts }
    }

    /// The position of byte `offset` (as [`Pos::of`] gives it); the column counts the scalar values from the
    /// line's start, so only a line's own length is scanned.
    fn of(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts[line - 1];
        let column = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        Pos {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX).saturating_add(1),
        }
    }
}

fn table(at: &Positions, t: &DeTable<'_>, start: usize) -> Node {
    let mut entries: Vec<(String, Pos, Node)> = t
        .iter()
        .map(|(k, v)| (k.get_ref().to_string(), at.of(k.span().start), value(at, v)))
        .collect();
    // File order (the parser's map is sorted by key).
    entries.sort_by_key(|(_, p, _)| (p.line, p.column));
    Node {
        val: Val::Table(entries),
        pos: at.of(start),
    }
}

fn value(at: &Positions, v: &Spanned<DeValue<'_>>) -> Node {
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
        DeValue::Array(a) => Val::Arr(a.iter().map(|x| value(at, x)).collect()),
        DeValue::Table(t) => return table(at, t, start),
    };
    Node {
        val,
        pos: at.of(start),
    }
}
