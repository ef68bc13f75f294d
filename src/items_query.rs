//! The page's per-item table, every rule of it: its columns ([`columns`]), the texts of its cells, and a page of
//! rows as the table asks for it: the rows whose cells contain a filter text, sorted by a column, from an offset.
//! The table (www/items-table.js) only draws what this module answers: a case-insensitive substring of any cell
//! as the table shows it (scores with the column's decimals, `—` for a missing value), numbers compared as
//! numbers and text in natural order, missing values last in both directions, ties in report order.
//!
//! Column-wise rows ([`ItemTable`]) are read in place: millions of rows are filtered and sorted through a vector
//! of row positions, and only the rows of the page are built.

use crate::items::{DetailValues, ItemTable};
use crate::report::{natural_cmp, Item, Report};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::cmp::Ordering;
use std::fmt::Write;

/// What the table asks for (JSON: `{ "filter", "sort", "dir", "offset", "count" }`, all optional).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Query {
    #[serde(default)]
    pub filter: String,
    /// A column: `__id`, `__group`, or a score or detail key of the table's columns.
    #[serde(default)]
    pub sort: Option<String>,
    /// 1 ascending, -1 descending.
    #[serde(default = "ascending")]
    pub dir: i32,
    #[serde(default)]
    pub offset: usize,
    #[serde(default = "page_size")]
    pub count: usize,
}

fn ascending() -> i32 {
    1
}
fn page_size() -> usize {
    1000
}

/// The answer: every row's count, how many match the filter, the rows of the page, and their cells' texts as
/// the table shows them (one per [`columns`] column).
#[derive(Debug, Serialize)]
pub struct Page {
    pub total: usize,
    pub matched: usize,
    pub rows: Vec<Item>,
    pub cells: Vec<Vec<String>>,
}

/// The positions of the last filter and the last sort (per report: drop it when the report changes), so that
/// paging through the same view costs only the rows it returns. `None` positions: every row, in order.
#[derive(Default)]
pub struct Cache {
    filtered: Option<(String, Positions)>,
    sorted: Option<(String, Option<String>, i32, Positions)>,
}

/// Row positions in the order shown; `None`: every row, in report order.
type Positions = Option<Vec<u32>>;

/// What a column shows: the row's id, its group, a score or a detail value.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Id,
    Group,
    #[serde(rename = "scores")]
    Score,
    Detail,
}

/// A column of the page's per-item table: `id` (`__id`, `__group`, or a score or detail key), its header, and the
/// decimals of its numbers (`None`: as [`number_text`] writes a number without them).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Col {
    pub id: String,
    pub label: String,
    pub kind: Kind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decimals: Option<u32>,
}

/// The per-item table's columns as the page shows them: the id (headed by `display.item_label`), the group
/// when rows have one, then `display.columns` (or every score key, with the headline's decimals).
pub fn columns(report: &Report) -> Vec<Col> {
    let item_label = match report.display.item_label.as_str() {
        "" => "item",
        l => l,
    };
    let mut cols = vec![Col {
        id: "__id".into(),
        label: item_label.into(),
        kind: Kind::Id,
        decimals: None,
    }];
    if report.item_table.is_none() && report.items.iter().any(|it| it.group.is_some()) {
        cols.push(Col {
            id: "__group".into(),
            label: "group".into(),
            kind: Kind::Group,
            decimals: None,
        });
    }
    let declared = !report.display.columns.is_empty();
    for c in report.item_columns() {
        let decimals = if declared {
            c.decimals
        } else {
            report
                .display
                .headline
                .iter()
                .find(|l| l.id == c.id)
                .map(|l| l.decimals)
        };
        let kind = if c.from == "detail" {
            Kind::Detail
        } else {
            Kind::Score
        };
        cols.push(Col {
            id: c.id,
            label: c.label,
            kind,
            decimals,
        });
    }
    cols
}

/// Answers `query` (its JSON text) over `report`'s rows, as JSON text.
pub fn page_json(report: &Report, query: &str, cache: &mut Cache) -> Result<String, String> {
    let q: Query = serde_json::from_str(query).map_err(|e| format!("bad items query: {e}"))?;
    serde_json::to_string(&page(report, &q, cache)).map_err(|e| e.to_string())
}

/// Answers `q` over `report`'s rows.
pub fn page(report: &Report, q: &Query, cache: &mut Cache) -> Page {
    let total = report.item_count();
    let needle = q.filter.trim().to_lowercase();
    let cols = columns(report);
    let sort = q.sort.as_ref().filter(|s| cols.iter().any(|c| &c.id == *s));
    let dir = if q.dir < 0 { -1 } else { 1 };
    let sorted_hit = matches!(&cache.sorted, Some((f, s, d, _)) if *f == needle && s.as_ref() == sort && *d == dir);
    if !sorted_hit {
        let filtered_hit = matches!(&cache.filtered, Some((f, _)) if *f == needle);
        if !filtered_hit {
            let p = (!needle.is_empty()).then(|| filter(report, &cols, &needle));
            cache.filtered = Some((needle.clone(), p));
        }
        let base = cache.filtered.as_ref().and_then(|(_, p)| p.as_deref());
        let p = sort
            .and_then(|s| cols.iter().find(|c| &c.id == s))
            .map(|c| sorted(report, c, dir, base, total));
        let p = p.or_else(|| base.map(<[u32]>::to_vec));
        cache.sorted = Some((needle, sort.cloned(), dir, p));
    }
    let positions = cache.sorted.as_ref().and_then(|s| s.3.as_deref());
    let matched = positions.map_or(total, <[u32]>::len);
    let end = q.offset.saturating_add(q.count).min(matched);
    let start = q.offset.min(end);
    let rows: Vec<Item> = (start..end)
        .map(|i| {
            let k = positions.map_or(i, |p| p[i] as usize);
            report.item(k).into_owned()
        })
        .collect();
    let cells = rows
        .iter()
        .map(|it| cols.iter().map(|c| item_cell(it, c)).collect())
        .collect();
    Page {
        total,
        matched,
        rows,
        cells,
    }
}

/// The cells of the first `count` rows, in report order, as the table shows them.
pub fn first_cells(report: &Report, count: usize) -> Vec<Vec<String>> {
    let cols = columns(report);
    let mut out = Vec::with_capacity(count.min(report.item_count()));
    report.each_item(|it| {
        out.push(cols.iter().map(|c| item_cell(it, c)).collect());
        out.len() < count
    });
    out
}

// ---------------------------------------------------------------- cell texts, as the page shows them

/// `formatValue(v, decimals)` of www/util.js: fixed decimals (ties to even) when the column declares them, else
/// integers as they are and other numbers to 6 decimals at most (4 significant digits when very small or large).
pub fn number_text(v: f64, decimals: Option<u32>, out: &mut String) {
    out.clear();
    if !v.is_finite() {
        out.push('—');
        return;
    }
    let a = v.abs();
    match decimals {
        Some(d) if a < 1e21 => {
            if v < 0.0 {
                out.push('-');
            }
            if !fixed_fast(a, d, out) {
                let _ = write!(out, "{:.*}", d.min(20) as usize, a);
            }
        }
        Some(_) => js_string(v, out),
        None if v.fract() == 0.0 => js_string(v, out),
        None if !(1e-4..1e9).contains(&a) => {
            // toPrecision(4): exponential when the exponent is below -6 or at least 4.
            let e = format!("{v:.3e}");
            let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
            let exp: i32 = exp.parse().unwrap_or(0);
            if !(-6..4).contains(&exp) {
                let _ = write!(
                    out,
                    "{mant}e{}{}",
                    if exp < 0 { '-' } else { '+' },
                    exp.abs()
                );
            } else {
                let _ = write!(out, "{:.*}", (3 - exp) as usize, v);
            }
        }
        None => {
            // toFixed(6) read back as a number: the fixed text without its trailing zeros.
            if v < 0.0 {
                out.push('-');
            }
            if !fixed_fast(a, 6, out) {
                let _ = write!(out, "{a:.6}");
            }
            let keep = out.trim_end_matches('0').trim_end_matches('.').len();
            out.truncate(keep);
            if out == "-0" {
                out.truncate(0);
                out.push('0');
            }
        }
    }
}

/// `a` (finite, not negative) with `d` decimals, rounded as `format!("{a:.d$}")` rounds the exact binary value,
/// appended to `out` through integer arithmetic; false (nothing written) when `a·10^d` is too large.
fn fixed_fast(a: f64, d: u32, out: &mut String) -> bool {
    const POW: [u64; 16] = {
        let mut p = [1u64; 16];
        let mut i = 1;
        while i < 16 {
            p[i] = p[i - 1] * 10;
            i += 1;
        }
        p
    };
    let Some(&p) = POW.get(d as usize) else {
        return false;
    };
    let m = a * p as f64; // within half an ulp of the exact product
    if m >= 4.0e15 {
        return false;
    }
    let fl = m.floor();
    let f = m - fl;
    let n = fl as u64;
    let n = if (f - 0.5).abs() > m * f64::EPSILON + f64::MIN_POSITIVE {
        n + u64::from(f > 0.5)
    } else {
        // Near a tie: the product's rounding error, exactly (a fused multiply-add), decides; a tie goes to even.
        let t = (f - 0.5) + a.mul_add(p as f64, -m);
        n + u64::from(t > 0.0 || (t == 0.0 && n % 2 == 1))
    };
    let _ = write!(out, "{}", n / p);
    if d > 0 {
        let _ = write!(out, ".{:0w$}", n % p, w = d as usize);
    }
    true
}

/// JavaScript's `String(v)` of a finite number.
fn js_string(v: f64, out: &mut String) {
    let a = v.abs();
    if v == 0.0 {
        out.push('0');
    } else if (1e-6..1e21).contains(&a) {
        let _ = write!(out, "{v}");
    } else {
        let s = serde_json::Number::from_f64(v).map_or(String::new(), |n| n.to_string());
        match s.split_once('e') {
            Some((m, e)) if !e.starts_with(['-', '+']) => {
                let _ = write!(out, "{m}e+{e}");
            }
            _ => out.push_str(&s),
        }
    }
}

/// The text of a JSON value in a cell (`cellText`): `—` for null, JSON for objects and arrays.
fn value_text(v: Option<&Value>, decimals: Option<u32>) -> String {
    let mut s = String::new();
    match v {
        None | Some(Value::Null) => s.push('—'),
        Some(Value::Bool(b)) => s.push_str(if *b { "true" } else { "false" }),
        Some(Value::Number(n)) => number_text(n.as_f64().unwrap_or(f64::NAN), decimals, &mut s),
        Some(Value::String(t)) => s.push_str(t),
        Some(v) => s = v.to_string(),
    }
    s
}

/// Case-insensitive substring search for a lower-cased needle, without allocating for ASCII text.
struct Finder {
    needle: String,
    ascii: bool,
    buf: Vec<u8>,
}

impl Finder {
    fn new(needle: &str) -> Self {
        Finder {
            needle: needle.to_string(),
            ascii: needle.is_ascii(),
            buf: Vec::new(),
        }
    }
    fn finds(&mut self, hay: &str) -> bool {
        if hay.is_ascii() {
            if !self.ascii || hay.len() < self.needle.len() {
                return false; // an ASCII text lower-cases to ASCII
            }
            self.buf.clear();
            self.buf.extend(hay.bytes().map(|b| b.to_ascii_lowercase()));
            memchr::memmem::find(&self.buf, self.needle.as_bytes()).is_some()
        } else {
            hay.to_lowercase().contains(&self.needle)
        }
    }
}

/// The positions whose row has a cell containing `needle` (lower case, not empty).
fn filter(report: &Report, cols: &[Col], needle: &str) -> Vec<u32> {
    let mut f = Finder::new(needle);
    match &report.item_table {
        Some(t) => filter_table(t, cols, &mut f),
        None => {
            let mut out = Vec::new();
            for (k, it) in report.items.iter().enumerate() {
                if cols.iter().any(|c| f.finds(&item_cell(it, c))) {
                    out.push(k as u32);
                }
            }
            out
        }
    }
}

fn item_cell(it: &Item, c: &Col) -> String {
    match c.kind {
        Kind::Id => it.id.clone(),
        Kind::Group => it.group.clone().unwrap_or_else(|| "—".into()),
        Kind::Detail => value_text(it.detail.get(&c.id), c.decimals),
        Kind::Score => {
            let mut s = String::new();
            number_text(it.scores.get(&c.id).unwrap_or(f64::NAN), c.decimals, &mut s);
            s
        }
    }
}

fn filter_table(t: &ItemTable, cols: &[Col], f: &mut Finder) -> Vec<u32> {
    // Number texts hold only these characters: a needle with another one cannot be in a score cell.
    let numeric = f
        .needle
        .chars()
        .all(|c| c.is_ascii_digit() || ".-+e—".contains(c));
    let dash = f.finds("—");
    let scores: Vec<(&[f64], Option<u32>)> = if numeric {
        cols.iter()
            .filter(|c| c.kind == Kind::Score)
            .filter_map(|c| {
                let s = t.scores.iter().find(|s| s.key == c.id)?;
                Some((&s.values[..], c.decimals))
            })
            .collect()
    } else {
        Vec::new()
    };
    // Detail columns: whether each name (and a missing value) matches, decided once.
    enum Det<'a> {
        Codes(&'a [u32], Vec<bool>, bool),
        Set(&'a [bool], bool, bool),
    }
    let details: Vec<Det> = cols
        .iter()
        .filter(|c| c.kind == Kind::Detail)
        .filter_map(|c| t.detail.iter().find(|d| d.key == c.id))
        .map(|d| match &d.values {
            DetailValues::Names { names, codes } => {
                Det::Codes(codes, names.iter().map(|n| f.finds(n)).collect(), dash)
            }
            DetailValues::TrueOrAbsent(set) => Det::Set(set, f.finds("true"), dash),
        })
        .collect();
    // A declared column the table does not hold is missing on every row.
    let absent = cols
        .iter()
        .filter(|c| matches!(c.kind, Kind::Score | Kind::Detail))
        .any(|c| {
            !t.scores.iter().any(|s| s.key == c.id) && !t.detail.iter().any(|d| d.key == c.id)
        });
    if absent && dash {
        return (0..t.len() as u32).collect();
    }
    let mut text = String::new();
    let mut out = Vec::new();
    for (k, &r) in t.order.iter().enumerate() {
        let r = r as usize;
        let hit = f.finds(t.ids.get(r))
            || details.iter().any(|d| match d {
                Det::Codes(codes, hits, null) => {
                    hits.get(codes[r] as usize).copied().unwrap_or(*null)
                }
                Det::Set(set, yes, null) => {
                    if set[r] {
                        *yes
                    } else {
                        *null
                    }
                }
            })
            || scores.iter().any(|(values, d)| {
                number_text(values[r], *d, &mut text);
                f.finds(&text)
            });
        if hit {
            out.push(k as u32);
        }
    }
    out
}

// ---------------------------------------------------------------- sorting

/// A sort key: missing values last in both directions; numbers before text (the page's table compares a number
/// with a text by their texts, which is no order; a column holds one or the other).
#[derive(PartialEq)]
enum Key {
    Num(f64),
    Text(String),
}

fn cmp_keys(a: &Key, b: &Key) -> Ordering {
    match (a, b) {
        (Key::Num(x), Key::Num(y)) => x.total_cmp(y),
        (Key::Num(_), Key::Text(_)) => Ordering::Less,
        (Key::Text(_), Key::Num(_)) => Ordering::Greater,
        (Key::Text(x), Key::Text(y)) => natural_cmp(x, y),
    }
}

fn value_key(v: Option<&Value>) -> Option<Key> {
    match v? {
        Value::Null => None,
        Value::Number(n) => n
            .as_f64()
            .filter(|x| x.is_finite())
            .map(|x| Key::Num(x + 0.0)),
        Value::String(s) => Some(Key::Text(s.clone())),
        Value::Bool(b) => Some(Key::Text(b.to_string())),
        v => Some(Key::Text(v.to_string())),
    }
}

/// `base` (or every position) sorted by column `c` in direction `dir`.
fn sorted(report: &Report, c: &Col, dir: i32, base: Option<&[u32]>, total: usize) -> Vec<u32> {
    let positions: Vec<u32> = base.map_or_else(|| (0..total as u32).collect(), <[u32]>::to_vec);
    match &report.item_table {
        Some(t) => sort_table(t, c, dir, positions),
        None => {
            let mut keyed: Vec<(Option<Key>, u32)> = positions
                .into_iter()
                .map(|k| {
                    let it = &report.items[k as usize];
                    let key = match c.kind {
                        Kind::Id => Some(Key::Text(it.id.clone())),
                        Kind::Group => it.group.clone().map(Key::Text),
                        Kind::Detail => value_key(it.detail.get(&c.id)),
                        Kind::Score => it.scores.get(&c.id).map(|x| Key::Num(x + 0.0)),
                    };
                    (key, k)
                })
                .collect();
            keyed.sort_by(|(a, i), (b, j)| {
                match (a, b) {
                    (None, None) => Ordering::Equal,
                    (None, Some(_)) => Ordering::Greater,
                    (Some(_), None) => Ordering::Less,
                    (Some(a), Some(b)) => {
                        let o = cmp_keys(a, b);
                        if dir < 0 {
                            o.reverse()
                        } else {
                            o
                        }
                    }
                }
                .then(i.cmp(j))
            });
            keyed.into_iter().map(|(_, k)| k).collect()
        }
    }
}

/// An order-preserving integer for a finite number (-0 as 0), reversed for a descending sort.
fn float_key(x: f64, dir: i32) -> u64 {
    let b = (x + 0.0).to_bits();
    let k = if b >> 63 == 1 { !b } else { b | 1 << 63 };
    if dir < 0 {
        !k
    } else {
        k
    }
}

fn sort_table(t: &ItemTable, c: &Col, dir: i32, positions: Vec<u32>) -> Vec<u32> {
    let row = |k: u32| t.order[k as usize] as usize;
    // Integer keys (None: missing), sorted with the position as tie-break; the missing keep their order, last.
    let by_keys = |key: &dyn Fn(usize) -> Option<u64>| {
        let mut keyed = Vec::with_capacity(positions.len());
        let mut missing = Vec::new();
        for &k in &positions {
            match key(row(k)) {
                Some(v) => keyed.push((v, k)),
                None => missing.push(k),
            }
        }
        keyed.sort_unstable();
        keyed.into_iter().map(|(_, k)| k).chain(missing).collect()
    };
    if c.kind == Kind::Id {
        // The families' rows are in natural id order already: then the order is the positions, or reversed.
        let in_order = (1..t.len())
            .all(|k| natural_cmp(t.ids.get(row(k as u32 - 1)), t.ids.get(row(k as u32))).is_le());
        let mut p = positions;
        if in_order {
            if dir < 0 {
                p.reverse();
            }
        } else {
            p.sort_by(|&a, &b| {
                let o = natural_cmp(t.ids.get(row(a)), t.ids.get(row(b)));
                if dir < 0 { o.reverse() } else { o }.then(a.cmp(&b))
            });
        }
        return p;
    }
    if let Some(s) = t.scores.iter().find(|s| s.key == c.id) {
        return by_keys(&|r| {
            Some(s.values[r])
                .filter(|x| x.is_finite())
                .map(|x| float_key(x, dir))
        });
    }
    match t.detail.iter().find(|d| d.key == c.id).map(|d| &d.values) {
        Some(DetailValues::Names { names, codes }) => {
            let mut by_name: Vec<usize> = (0..names.len()).collect();
            by_name.sort_by(|&a, &b| natural_cmp(&names[a], &names[b]));
            let mut rank = vec![0u64; names.len()];
            for (i, &n) in by_name.iter().enumerate() {
                // Equal names share a rank (their ties go by position).
                let same = i > 0 && names[by_name[i - 1]] == names[n];
                rank[n] = if same { rank[by_name[i - 1]] } else { i as u64 };
            }
            by_keys(&|r| {
                let v = *rank.get(codes[r] as usize)?;
                Some(if dir < 0 { !v } else { v })
            })
        }
        Some(DetailValues::TrueOrAbsent(set)) => by_keys(&|r| set[r].then_some(0)),
        None => positions,
    }
}

#[cfg(test)]
#[path = "items_query_tests.rs"]
mod tests;
