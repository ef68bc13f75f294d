//! The one result type the outside sees: the CLI prints it, the wasm layer hands it to the page, the scoring
//! program writes it. It serialises to the JSON report, schema 1, of the specs README; the fields after
//! `diagnostics` are schema-1 extensions (readers of schema 1 ignore them).

use crate::diag::{Diagnostic, Severity};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};
use std::borrow::Cow;

mod stats;
pub use stats::{IntervalValues, Intervals, Parts, Statistics};

pub use crate::items::ItemTable;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Official,
    Corrected,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Official => "official",
            Mode::Corrected => "corrected",
        }
    }
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "official" => Some(Mode::Official),
            "corrected" => Some(Mode::Corrected),
            _ => None,
        }
    }
}

/// Metric id → value, in insertion order. `None` (JSON `null`) means "not computable"; NaN and infinities
/// are stored as `None`, never serialised as numbers.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(from = "Map<String, Value>")]
pub struct Scores(pub Vec<(String, Option<f64>)>);

impl Scores {
    pub fn new() -> Self {
        Scores(Vec::new())
    }
    /// Appends (or replaces) a value; a non-finite value becomes `None`.
    pub fn set(&mut self, id: &str, v: Option<f64>) {
        let v = v.filter(|x| x.is_finite());
        if let Some(slot) = self.0.iter_mut().find(|(k, _)| k == id) {
            slot.1 = v;
        } else {
            self.0.push((id.to_string(), v));
        }
    }
    pub fn with(mut self, id: &str, v: Option<f64>) -> Self {
        self.set(id, v);
        self
    }
    pub fn get(&self, id: &str) -> Option<f64> {
        self.0.iter().find(|(k, _)| k == id).and_then(|(_, v)| *v)
    }
    pub fn contains(&self, id: &str) -> bool {
        self.0.iter().any(|(k, _)| k == id)
    }
    pub fn iter(&self) -> impl Iterator<Item = (&str, Option<f64>)> {
        self.0.iter().map(|(k, v)| (k.as_str(), *v))
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Scores {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl From<Map<String, Value>> for Scores {
    fn from(m: Map<String, Value>) -> Self {
        Scores(m.into_iter().map(|(k, v)| (k, v.as_f64())).collect())
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub id: String,
    pub scores: Scores,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub id: String,
    pub group: Option<String>,
    pub scores: Scores,
    pub detail: Map<String, Value>,
}

/// How the page and the text output label the numbers (extension).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Display {
    pub title: String,
    pub headline: Vec<Label>,
    pub item_label: String,
    pub columns: Vec<Column>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub footer: String,
}

/// How the page shows a report, beside the report (never inside its JSON): which headline metric is large, which
/// stand beside it, and whether the scores are binary32 values. A protocol declares them
/// (`Protocol::hints`); the default is the first metric of `display.headline`, alone, in binary64.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Hints {
    /// The headline metric (an id of `display.headline`); `None`: the first of them.
    pub primary: Option<String>,
    /// The metrics shown beside the headline, in order.
    pub beside: Vec<String>,
    /// The scores are binary32 values widened to binary64 (the CSV writes their shortest binary32 form).
    pub binary32: bool,
    /// Official and corrected modes are the same by definition (a family scored by its reference library):
    /// the page shows one column and no "why they differ". Default: two modes that may differ.
    pub one_mode: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Label {
    pub id: String,
    pub label: String,
    pub decimals: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Column {
    pub id: String,
    pub label: String,
    /// `"scores"` or `"detail"`.
    pub from: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decimals: Option<u32>,
}

impl Column {
    pub fn score(id: &str, label: &str, decimals: u32) -> Self {
        Column {
            id: id.into(),
            label: label.into(),
            from: "scores".into(),
            decimals: Some(decimals),
        }
    }
    pub fn detail(id: &str, label: &str) -> Self {
        Column {
            id: id.into(),
            label: label.into(),
            from: "detail".into(),
            decimals: None,
        }
    }
}

/// A secondary, labelled set of scores computed on the same input (extension), e.g. kws's
/// "trec_eval-equivalent" values or "official (results queries only)".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    pub id: String,
    pub label: String,
    pub scores: Scores,
}

/// A plot the page draws generically (extension).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plot {
    pub id: String,
    /// `bars`, `lines`, `histogram` or `heatmap` (n `labels`, n×n `values` row-major).
    pub kind: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Option<f64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<Series>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    pub label: String,
    pub x: Vec<f64>,
    pub y: Vec<Option<f64>>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Report {
    pub schema: u32,
    pub protocol: String,
    pub mode: Mode,
    pub options: Map<String, Value>,
    pub scores: Scores,
    pub groups: Vec<Group>,
    /// The per-item rows, unless [`Report::item_table`] holds them (then this is empty). Read them through
    /// [`Report::item_count`], [`Report::item`] and [`Report::each_item`], which see both.
    pub items: Vec<Item>,
    pub diagnostics: Vec<Diagnostic>,
    // ---- schema-1 extensions ----
    #[serde(default)]
    pub display: Display,
    /// True when the official scorer itself would fail (crash or refuse) on this input.
    #[serde(default)]
    pub official_fails: bool,
    /// One line per option whose value differs from the official default.
    #[serde(default)]
    pub deviations: Vec<String>,
    #[serde(default)]
    pub readings: Vec<Reading>,
    #[serde(default)]
    pub plots: Vec<Plot>,
    /// Set only in a page's preview of a report whose rows were cut ([`Report::preview`]): how many rows the
    /// whole report has (`items` holds the first ones). Never set in the CLI's or the scoring program's output.
    #[serde(default)]
    pub items_total: Option<u64>,
    /// The per-item rows held column-wise (the families' millions of rows), serialised as `items`.
    #[serde(skip)]
    pub item_table: Option<std::sync::Arc<ItemTable>>,
    /// The bootstrap's settings and unit (docs/specs/statistics.md section 2); `None` when the protocol has no
    /// units or `bootstrap = 0` (then neither it nor `intervals` is written).
    #[serde(default)]
    pub statistics: Option<Statistics>,
    /// The percentile interval of each metric of `scores` that has one, in the order of `scores`.
    #[serde(default)]
    pub intervals: Intervals,
    /// The protocol's units, kept for the bootstrap, `compare` and `rank` (never serialised).
    #[serde(skip)]
    pub units: crate::stats::units::Slot,
    /// The scores of each part of a public/private split (docs/specs/statistics.md section 4); `None` (and not
    /// written) without a split.
    #[serde(default)]
    pub parts: Option<Parts>,
}

/// Field by field as the schema orders them; `items` from the table when there is one.
impl Serialize for Report {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Report", 16)?;
        st.serialize_field("schema", &self.schema)?;
        st.serialize_field("protocol", &self.protocol)?;
        st.serialize_field("mode", &self.mode)?;
        st.serialize_field("options", &self.options)?;
        st.serialize_field("scores", &self.scores)?;
        st.serialize_field("groups", &self.groups)?;
        match &self.item_table {
            Some(t) => st.serialize_field("items", &**t)?,
            None => st.serialize_field("items", &self.items)?,
        }
        st.serialize_field("diagnostics", &self.diagnostics)?;
        st.serialize_field("display", &self.display)?;
        st.serialize_field("official_fails", &self.official_fails)?;
        st.serialize_field("deviations", &self.deviations)?;
        st.serialize_field("readings", &self.readings)?;
        st.serialize_field("plots", &self.plots)?;
        match self.items_total {
            Some(n) => st.serialize_field("items_total", &n)?,
            None => st.skip_field("items_total")?,
        }
        match &self.statistics {
            Some(stats) => {
                st.serialize_field("statistics", stats)?;
                st.serialize_field("intervals", &self.intervals)?;
            }
            None => {
                st.skip_field("statistics")?;
                st.skip_field("intervals")?;
            }
        }
        match &self.parts {
            Some(parts) => st.serialize_field("parts", parts)?,
            None => st.skip_field("parts")?,
        }
        st.end()
    }
}

impl Report {
    /// The per-item table's columns: `display.columns`, or every score key of the items (first seen first,
    /// no decimals) when the protocol declares none. The CLI's TSV and the HTML results page share it.
    pub fn item_columns(&self) -> Vec<Column> {
        if !self.display.columns.is_empty() {
            return self.display.columns.clone();
        }
        let mut keys: Vec<&str> = match &self.item_table {
            Some(t) => t.scores.iter().map(|c| c.key.as_str()).collect(),
            None => Vec::new(),
        };
        for it in &self.items {
            for (k, _) in it.scores.iter() {
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        keys.into_iter()
            .map(|k| Column {
                id: k.into(),
                label: k.into(),
                from: "scores".into(),
                decimals: None,
            })
            .collect()
    }

    pub fn new(protocol: &str, mode: Mode) -> Self {
        Report {
            schema: 1,
            protocol: protocol.to_string(),
            mode,
            options: Map::new(),
            scores: Scores::new(),
            groups: Vec::new(),
            items: Vec::new(),
            diagnostics: Vec::new(),
            display: Display::default(),
            official_fails: false,
            deviations: Vec::new(),
            readings: Vec::new(),
            plots: Vec::new(),
            item_table: None,
            items_total: None,
            statistics: None,
            intervals: Intervals::default(),
            units: Default::default(),
            parts: None,
        }
    }

    /// A copy for a page: every row when there are at most `limit`, else the first `limit` rows and
    /// `items_total` (the page then asks for rows page by page).
    pub fn preview(&self, limit: usize) -> Report {
        let n = self.item_count();
        // Field by field: `..self.clone()` would copy every row first.
        let mut r = Report {
            schema: self.schema,
            protocol: self.protocol.clone(),
            mode: self.mode,
            options: self.options.clone(),
            scores: self.scores.clone(),
            groups: self.groups.clone(),
            items: Vec::new(),
            diagnostics: self.diagnostics.clone(),
            display: self.display.clone(),
            official_fails: self.official_fails,
            deviations: self.deviations.clone(),
            readings: self.readings.clone(),
            plots: self.plots.clone(),
            items_total: None,
            item_table: None,
            statistics: self.statistics.clone(),
            intervals: self.intervals.clone(),
            units: self.units.clone(),
            parts: self.parts.clone(),
        };
        if n <= limit {
            r.items = (0..n).map(|k| self.item(k).into_owned()).collect();
        } else {
            r.items = (0..limit).map(|k| self.item(k).into_owned()).collect();
            r.items_total = Some(n as u64);
        }
        r
    }

    /// How many per-item rows the report has.
    pub fn item_count(&self) -> usize {
        self.item_table
            .as_ref()
            .map_or(self.items.len(), |t| t.len())
    }

    /// The per-item row at position `k` (`k < item_count()`), borrowed or built from the table.
    pub fn item(&self, k: usize) -> Cow<'_, Item> {
        match &self.item_table {
            Some(t) => Cow::Owned(t.item(k)),
            None => Cow::Borrowed(&self.items[k]),
        }
    }

    /// Calls `f` with each per-item row in order, until it returns false.
    pub fn each_item(&self, mut f: impl FnMut(&Item) -> bool) {
        for k in 0..self.item_count() {
            if !f(&self.item(k)) {
                break;
            }
        }
    }

    /// The rows of `items` turned into a table's (a copy whose rows can be edited in place).
    pub fn with_rows(&self) -> Report {
        let mut r = self.clone();
        if let Some(t) = r.item_table.take() {
            r.items = (0..t.len()).map(|k| t.item(k)).collect();
        }
        r
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// Sorts diagnostics for display: errors first, then by file, line, column (stable otherwise).
    /// Within a severity, the shell's diagnostics about the input as a whole (swapped inputs, files of the
    /// wrong kind, empty files) come first: they are the cause of what follows.
    pub fn sort_diagnostics(&mut self) {
        // 0: the input's kind or roles; 1: damage where it is (a located line); 2: what follows from damage
        // elsewhere (an id the damaged line would have given, a block whose closing line was damaged), so the
        // first diagnostic names the damaged file and line.
        let cause = |d: &Diagnostic| match d.code.as_str() {
            "input.swapped" | "input.wrong_kind" | "input.empty" => 0u8,
            c if c.ends_with(".missing_id")
                || c == "kws.xml.unclosed_block"
                || c == "falsid.matrix.ids"
                || c == "aij.gen.fid_side_missing" =>
            {
                2
            }
            _ => 1,
        };
        self.diagnostics.sort_by(|a, b| {
            (a.severity, cause(a), &a.file, a.line, a.column).cmp(&(
                b.severity,
                cause(b),
                &b.file,
                b.line,
                b.column,
            ))
        });
    }

    /// Writes [`Report::to_json`]'s text to `w` without holding it whole.
    pub fn write_json(&self, w: impl std::io::Write) -> std::io::Result<()> {
        use std::io::Write;
        let mut w = std::io::BufWriter::with_capacity(1 << 16, w);
        serde_json::to_writer(&mut w, self).map_err(std::io::Error::other)?;
        w.write_all(b"\n")?;
        w.flush()
    }

    /// The canonical JSON text (compact, one line, trailing newline): identical natively and in wasm.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string(self)
            .unwrap_or_else(|e| format!("{{\"schema\":1,\"error\":\"{e}\"}}"));
        s.push('\n');
        s
    }
}

/// Natural order for ids: digit runs compare by value ("q2" < "q10"), everything else by code point.
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let p = common_prefix(x, y);
    // Where the first differing bytes are both outside digits, or both start digit runs of one length, they
    // decide: the digit runs before them are the same, and runs of equal length compare by value as by bytes
    // (`id00000041` vs `id00000042`: no run parsed).
    if let (Some(&c), Some(&d)) = (x.get(p), y.get(p)) {
        match (c.is_ascii_digit(), d.is_ascii_digit()) {
            (false, false) => return c.cmp(&d),
            (true, true) if digit_run(&x[p..]) == digit_run(&y[p..]) => return c.cmp(&d),
            _ => {}
        }
    }
    // Else skip the common prefix, back to the start of a digit run it ends in ("captioning/1234|5" vs
    // "…/1234|56" resumes at "12345"): an identical prefix compares equal either way.
    let s = x[..p]
        .iter()
        .rposition(|c| !c.is_ascii_digit())
        .map_or(0, |k| k + 1);
    natural_cmp_from(a, b, s)
}

/// How many ASCII digits `z` starts with.
fn digit_run(z: &[u8]) -> usize {
    z.iter().take_while(|c| c.is_ascii_digit()).count()
}

/// The length of the common prefix of `x` and `y`, eight bytes at a time.
fn common_prefix(x: &[u8], y: &[u8]) -> usize {
    let n = x.len().min(y.len());
    let mut p = 0;
    while p + 8 <= n {
        let w = |z: &[u8]| u64::from_le_bytes(z[p..p + 8].try_into().unwrap_or([0; 8]));
        let diff = w(x) ^ w(y);
        if diff != 0 {
            return p + (diff.trailing_zeros() / 8) as usize;
        }
        p += 8;
    }
    p + x[p..n]
        .iter()
        .zip(&y[p..n])
        .take_while(|(c, d)| c == d)
        .count()
}

/// [`natural_cmp`] of `a` and `b` compared from byte `s` on (both share the bytes before it, which end outside a
/// digit run); ties fall back to the whole strings.
fn natural_cmp_from(a: &str, b: &str, s: usize) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (mut x, mut y) = (&a.as_bytes()[s..], &b.as_bytes()[s..]);
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let (nx, ny) = (digit_run(x), digit_run(y));
                let (dx, dy) = (&x[..nx], &y[..ny]);
                let tx = trim_zeros(dx);
                let ty = trim_zeros(dy);
                let o = tx.len().cmp(&ty.len()).then_with(|| tx.cmp(ty));
                if o != Ordering::Equal {
                    return o;
                }
                x = &x[nx..];
                y = &y[ny..];
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(d);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

fn trim_zeros(d: &[u8]) -> &[u8] {
    let n = d.iter().take_while(|c| **c == b'0').count();
    &d[n..]
}

#[cfg(test)]
mod tests;
