//! The organizers' competition config: one small file (`dropscore.toml`, or its JSON form for the page) that
//! names the competition, the protocol, the mode, the options, the leaderboard columns and where the ground
//! truth is. Pure: text in, a validated [`Config`] or every problem located by line and column out.
//!
//! ```toml
//! title = "ICFHR 2014 H-KWS, Track I"
//! protocol = "kws"
//! mode = "official"                      # official (default) | corrected
//! ground_truth = ["gt/GroundTruth.xml"]  # same-origin URLs (page) / files in ref/ (scoring program)
//! # manifest = "manifest.json"            # instead of the ground truth: the page checks submissions (pre-flight)
//! [options]
//! preset = "icfhr14"
//! [[leaderboard.columns]]
//! key = "map"          # the Codabench column key (scores.json); `metric` defaults to it
//! title = "MAP"
//! decimals = 4
//! sort = "desc"
//! ```
//! Instead of `columns`, `leaderboard.competition_yaml = "competition.yaml"` takes the columns from the
//! `leaderboards:` (Codabench) or `leaderboard:` (Codalab) block of that file; the CLI reads it
//! ([`leaderboard_from_yaml`]) and `dropscore config --json` writes the page's form with the columns inlined.
//!
//! TOML and YAML are parsed natively only (the `toml` and `yaml-rust2` crates); the page reads the JSON form,
//! parsed here by a small position-keeping reader, so the wasm carries neither crate.

mod json;
mod metrics;
mod scores;
mod sections;
#[cfg(not(target_arch = "wasm32"))]
mod toml_in;
#[cfg(not(target_arch = "wasm32"))]
mod yaml;

use crate::protocols::{self, Options};
use crate::report::Mode;
use sections::{ground_truth, leaderboard};
use serde::Serialize;
use serde_json::{Map, Value};

pub use metrics::{column_errors, did_you_mean};
pub use scores::{headline_id, null_reason};
#[cfg(not(target_arch = "wasm32"))]
pub use yaml::leaderboard_from_yaml;

/// A 1-based line and column (Unicode scalar values).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

impl Pos {
    /// The position of byte `offset` in `text`.
    pub fn of(text: &str, offset: usize) -> Pos {
        let mut line = 1u32;
        let mut column = 1u32;
        for (i, c) in text.char_indices() {
            if i >= offset {
                break;
            }
            if c == '\n' {
                line = line.saturating_add(1);
                column = 1;
            } else {
                column = column.saturating_add(1);
            }
        }
        Pos { line, column }
    }
}

/// One problem in a config file, at `line:column`, about the value at `path` (e.g. `leaderboard.columns[1].sort`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConfigError {
    pub line: u32,
    pub column: u32,
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}:{}: {}", self.line, self.column, self.message)
        } else {
            write!(
                f,
                "{}:{}: {}: {}",
                self.line, self.column, self.path, self.message
            )
        }
    }
}

/// A parsed value with its position: the common tree of the TOML, JSON and YAML readers.
#[derive(Clone, Debug)]
pub struct Node {
    pub val: Val,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub enum Val {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Null,
    Arr(Vec<Node>),
    /// Key, key position, value.
    Table(Vec<(String, Pos, Node)>),
    /// A value of a kind the config never uses (a TOML datetime).
    Other(&'static str),
}

impl Val {
    fn kind(&self) -> &'static str {
        match self {
            Val::Str(_) => "a string",
            Val::Int(_) => "an integer",
            Val::Float(_) => "a number",
            Val::Bool(_) => "a boolean",
            Val::Null => "null",
            Val::Arr(_) => "an array",
            Val::Table(_) => "a table",
            Val::Other(k) => k,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Sort {
    Desc,
    Asc,
}

/// One leaderboard column: its Codabench key, title, decimals, sort order, and the report score it shows.
/// Equality ignores `pos` (where the column was written).
#[derive(Clone, Debug, Serialize)]
pub struct Column {
    pub key: String,
    pub title: String,
    pub metric: String,
    pub decimals: u32,
    pub sort: Sort,
    #[serde(skip)]
    pub pos: Pos,
}

impl PartialEq for Column {
    fn eq(&self, o: &Self) -> bool {
        (
            &self.key,
            &self.title,
            &self.metric,
            self.decimals,
            self.sort,
        ) == (&o.key, &o.title, &o.metric, o.decimals, o.sort)
    }
}

/// A validated competition config. Serialises to the JSON form the page reads.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Config {
    pub title: String,
    pub protocol: String,
    pub mode: Mode,
    /// Option values as `--set NAME=VALUE` strings, in file order.
    #[serde(serialize_with = "options_map")]
    pub options: Vec<(String, String)>,
    pub leaderboard: Leaderboard,
    /// Left out of the JSON form when empty (an empty list is refused when read back).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ground_truth: Vec<String>,
    pub hide_ground_truth_zone: bool,
    /// A pre-flight manifest (`dropscore manifest`; same-origin URL in the page, a file in `ref/` for the
    /// scoring program): the page checks submissions against it instead of scoring them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manifest: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Leaderboard {
    pub columns: Vec<Column>,
    /// A competition.yaml to read the columns from (resolved by the CLI; never in the JSON form).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub competition_yaml: Option<String>,
}

fn options_map<S: serde::Serializer>(o: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    let m: Map<String, Value> = o
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    m.serialize(s)
}

/// Parses and validates the TOML form.
#[cfg(not(target_arch = "wasm32"))]
pub fn from_toml(text: &str) -> Result<Config, Vec<ConfigError>> {
    from_node(&toml_in::parse(text)?)
}

/// Parses and validates the JSON form (what the page reads; what `dropscore config --json` writes).
pub fn from_json(text: &str) -> Result<Config, Vec<ConfigError>> {
    from_node(&json::parse(text)?)
}

impl Config {
    /// The JSON form (pretty, with the leaderboard columns inlined).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

struct Check {
    errors: Vec<ConfigError>,
}

impl Check {
    fn err(&mut self, pos: Pos, path: &str, message: impl Into<String>) {
        self.errors.push(ConfigError {
            line: pos.line,
            column: pos.column,
            path: path.to_string(),
            message: message.into(),
        });
    }
    fn string(&mut self, n: &Node, path: &str) -> Option<String> {
        match &n.val {
            Val::Str(s) => Some(s.clone()),
            v => {
                self.err(
                    n.pos,
                    path,
                    format!("expected a string, found {}", v.kind()),
                );
                None
            }
        }
    }
    fn table<'a>(&mut self, n: &'a Node, path: &str) -> Option<&'a [(String, Pos, Node)]> {
        match &n.val {
            Val::Table(t) => Some(t),
            v => {
                self.err(n.pos, path, format!("expected a table, found {}", v.kind()));
                None
            }
        }
    }
    /// Reports keys not in `known` (with the list of valid ones).
    fn known_keys(&mut self, t: &[(String, Pos, Node)], prefix: &str, known: &[&str]) {
        for (k, pos, _) in t {
            if !known.contains(&k.as_str()) {
                self.err(
                    *pos,
                    &join(prefix, k),
                    format!("unknown key; valid keys: {}", known.join(", ")),
                );
            }
        }
    }
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

fn get<'a>(t: &'a [(String, Pos, Node)], key: &str) -> Option<&'a Node> {
    t.iter().find(|(k, _, _)| k == key).map(|(_, _, n)| n)
}

const TOP: &[&str] = &[
    "title",
    "protocol",
    "mode",
    "options",
    "leaderboard",
    "ground_truth",
    "hide_ground_truth_zone",
    "manifest",
];

/// Validates a parsed config tree (any of the three readers).
pub fn from_node(root: &Node) -> Result<Config, Vec<ConfigError>> {
    let mut c = Check { errors: Vec::new() };
    let Some(top) = c.table(root, "") else {
        return Err(c.errors);
    };
    c.known_keys(top, "", TOP);

    let info = protocol(&mut c, root, top);
    let title = match get(top, "title") {
        Some(n) => c.string(n, "title").unwrap_or_default(),
        None => info
            .as_ref()
            .map(|p| p.name.to_string())
            .unwrap_or_default(),
    };
    let mode = mode(&mut c, top);
    let options = match get(top, "options") {
        None => Vec::new(),
        Some(n) => options(&mut c, n, info.as_ref().map(|p| p.options), mode),
    };
    let leaderboard = match get(top, "leaderboard") {
        None => Leaderboard::default(),
        Some(n) => leaderboard(&mut c, n),
    };
    let ground_truth = match get(top, "ground_truth") {
        None => Vec::new(),
        Some(n) => ground_truth(&mut c, n),
    };
    let hide = match get(top, "hide_ground_truth_zone") {
        None => !ground_truth.is_empty(),
        Some(n) => hide_zone(&mut c, n),
    };
    let manifest = get(top, "manifest").and_then(|n| sections::same_site(&mut c, n, "manifest"));
    if let (true, Some(p)) = (c.errors.is_empty(), &info) {
        let metric_pos = get(top, "options")
            .and_then(|n| match &n.val {
                Val::Table(t) => get(t, "metric"),
                _ => None,
            })
            .map(|n| n.pos);
        let columns = &leaderboard.columns;
        c.errors
            .extend(metrics::check(p.id, mode, &options, metric_pos, columns));
    }
    if !c.errors.is_empty() {
        c.errors.sort_by_key(|e| (e.line, e.column));
        return Err(c.errors);
    }
    Ok(Config {
        title,
        protocol: info.map(|p| p.id.to_string()).unwrap_or_default(),
        mode,
        options,
        leaderboard,
        ground_truth,
        hide_ground_truth_zone: hide,
        manifest,
    })
}

/// The protocol the config names (`protocol`, required): a built one, else an error.
fn protocol(
    c: &mut Check,
    root: &Node,
    top: &[(String, Pos, Node)],
) -> Option<protocols::ProtocolInfo> {
    let Some(n) = get(top, "protocol") else {
        c.err(
            root.pos,
            "protocol",
            "missing: name the protocol, e.g. protocol = \"kws\" (see `dropscore list`)",
        );
        return None;
    };
    let id = c.string(n, "protocol")?;
    let all = protocols::list();
    match all.iter().find(|p| p.id == id) {
        Some(p) if p.built => Some(p.clone()),
        Some(_) => {
            c.err(
                n.pos,
                "protocol",
                format!("protocol `{id}` is specified but not built yet"),
            );
            None
        }
        None => {
            let ids: Vec<_> = all.iter().map(|p| p.id).collect();
            c.err(
                n.pos,
                "protocol",
                format!("unknown protocol `{id}`; known: {}", ids.join(", ")),
            );
            None
        }
    }
}

/// The `mode`: official (also when absent, or wrong: an error) or corrected.
fn mode(c: &mut Check, top: &[(String, Pos, Node)]) -> Mode {
    let Some(n) = get(top, "mode") else {
        return Mode::Official;
    };
    match c.string(n, "mode") {
        Some(s) => Mode::parse(&s).unwrap_or_else(|| {
            c.err(
                n.pos,
                "mode",
                format!("expected official or corrected, found `{s}`"),
            );
            Mode::Official
        }),
        None => Mode::Official,
    }
}

/// `hide_ground_truth_zone`: true or false (anything else an error, and false).
fn hide_zone(c: &mut Check, n: &Node) -> bool {
    match n.val {
        Val::Bool(b) => b,
        ref v => {
            c.err(
                n.pos,
                "hide_ground_truth_zone",
                format!("expected true or false, found {}", v.kind()),
            );
            false
        }
    }
}

fn options(
    c: &mut Check,
    n: &Node,
    specs: Option<&'static [protocols::OptionSpec]>,
    mode: Mode,
) -> Vec<(String, String)> {
    let Some(t) = c.table(n, "options") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, kpos, v) in t {
        let path = join("options", k);
        let text = match &v.val {
            Val::Str(s) => s.clone(),
            Val::Int(i) => i.to_string(),
            Val::Float(x) => x.to_string(),
            Val::Bool(b) => b.to_string(),
            Val::Arr(items) => {
                let mut parts = Vec::new();
                for (i, it) in items.iter().enumerate() {
                    match &it.val {
                        Val::Str(s) => parts.push(s.clone()),
                        Val::Int(x) => parts.push(x.to_string()),
                        Val::Float(x) => parts.push(x.to_string()),
                        other => c.err(
                            it.pos,
                            &format!("{path}[{i}]"),
                            format!("expected a string or a number, found {}", other.kind()),
                        ),
                    }
                }
                parts.join(",")
            }
            other => {
                c.err(
                    v.pos,
                    &path,
                    format!(
                        "expected a string, number, boolean or list, found {}",
                        other.kind()
                    ),
                );
                continue;
            }
        };
        if let Some(specs) = specs {
            let shell = protocols::options::SHELL_OPTIONS;
            if !specs.iter().chain(shell).any(|s| s.name == k) {
                let valid: Vec<_> = specs.iter().map(|s| s.name).collect();
                c.err(
                    *kpos,
                    &path,
                    format!("unknown option; valid: {}", valid.join(", ")),
                );
                continue;
            }
            if let Err(e) = Options::resolve(specs, mode, &[(k.clone(), text.clone())]) {
                c.err(v.pos, &path, e);
                continue;
            }
        }
        out.push((k.clone(), text));
    }
    out
}

/// Sets the leaderboard columns read from a competition.yaml (keeps the rest of the config).
pub fn with_columns(mut config: Config, columns: Vec<Column>) -> Config {
    config.leaderboard.columns = columns;
    config.leaderboard.competition_yaml = None;
    config
}
