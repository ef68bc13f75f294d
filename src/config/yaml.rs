//! The leaderboard columns of a Codabench `competition.yaml` (`leaderboards: [{columns: [{key, title, index,
//! sorting, precision}]}]`) or a Codalab one (`leaderboard: {columns: {KEY: {label, rank, sort,
//! numeric_format}}}`), read with `yaml-rust2`'s event parser so every column keeps its line and column.

use super::sections::columns;
use super::{Check, Column, ConfigError, Node, Pos, Val};
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Builds a [`Node`] tree from parser events (anchors are resolved; the first document only).
/// An open container and its anchor id.
type Open = (Node, usize);

#[derive(Default)]
struct Builder {
    stack: Vec<Open>,
    pending_key: Vec<Option<(String, Pos)>>,
    anchors: Vec<(usize, Node)>,
    root: Option<Node>,
}

fn pos(m: &Marker) -> Pos {
    Pos {
        line: u32::try_from(m.line()).unwrap_or(u32::MAX).max(1),
        column: u32::try_from(m.col()).unwrap_or(u32::MAX).saturating_add(1),
    }
}

fn scalar(s: String, style: TScalarStyle) -> Val {
    if style != TScalarStyle::Plain {
        return Val::Str(s);
    }
    match s.as_str() {
        "" | "~" | "null" | "Null" | "NULL" => Val::Null,
        "true" | "True" | "TRUE" => Val::Bool(true),
        "false" | "False" | "FALSE" => Val::Bool(false),
        _ => {
            if let Ok(i) = s.parse::<i64>() {
                Val::Int(i)
            } else if let Ok(x) = s.parse::<f64>() {
                Val::Float(x)
            } else {
                Val::Str(s)
            }
        }
    }
}

impl Builder {
    /// Adds a finished value to the open container (or makes it the root).
    fn add(&mut self, node: Node, anchor: usize) {
        if anchor > 0 {
            self.anchors.push((anchor, node.clone()));
        }
        let Some((top, _)) = self.stack.last_mut() else {
            if self.root.is_none() {
                self.root = Some(node);
            }
            return;
        };
        match &mut top.val {
            Val::Arr(a) => a.push(node),
            Val::Table(t) => {
                if let Some(slot) = self.pending_key.last_mut() {
                    match slot.take() {
                        None => {
                            let key = match &node.val {
                                Val::Str(s) => s.clone(),
                                Val::Int(i) => i.to_string(),
                                Val::Bool(b) => b.to_string(),
                                _ => String::new(),
                            };
                            *slot = Some((key, node.pos));
                        }
                        Some((k, kpos)) => t.push((k, kpos, node)),
                    }
                }
            }
            _ => {}
        }
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        let p = pos(&mark);
        match ev {
            Event::Scalar(s, style, anchor, _) => self.add(
                Node {
                    val: scalar(s, style),
                    pos: p,
                },
                anchor,
            ),
            Event::Alias(id) => {
                let n = self
                    .anchors
                    .iter()
                    .rev()
                    .find(|(a, _)| *a == id)
                    .map(|(_, n)| n.clone())
                    .unwrap_or(Node {
                        val: Val::Null,
                        pos: p,
                    });
                self.add(n, 0);
            }
            Event::SequenceStart(anchor, _) => {
                self.stack.push((
                    Node {
                        val: Val::Arr(Vec::new()),
                        pos: p,
                    },
                    anchor,
                ));
                self.pending_key.push(None);
            }
            Event::MappingStart(anchor, _) => {
                self.stack.push((
                    Node {
                        val: Val::Table(Vec::new()),
                        pos: p,
                    },
                    anchor,
                ));
                self.pending_key.push(None);
            }
            Event::SequenceEnd | Event::MappingEnd => {
                self.pending_key.pop();
                if let Some((node, anchor)) = self.stack.pop() {
                    self.add(node, anchor);
                }
            }
            _ => {}
        }
    }
}

fn get<'a>(n: &'a Node, key: &str) -> Option<&'a Node> {
    match &n.val {
        Val::Table(t) => t.iter().find(|(k, _, _)| k == key).map(|(_, _, v)| v),
        _ => None,
    }
}

/// A column entry renamed to the config's keys (key, title, decimals, sort), with its rank for ordering.
fn normalized(
    key: Option<Node>,
    title: Option<&Node>,
    decimals: Option<&Node>,
    sort: Option<&Node>,
    at: Pos,
) -> Node {
    let mut t = Vec::new();
    for (name, v) in [
        ("key", key.as_ref()),
        ("title", title),
        ("decimals", decimals),
        ("sort", sort),
    ] {
        if let Some(v) = v {
            if !matches!(v.val, Val::Null) {
                t.push((name.to_string(), v.pos, v.clone()));
            }
        }
    }
    Node {
        val: Val::Table(t),
        pos: at,
    }
}

fn rank(n: Option<&Node>) -> i64 {
    match n.map(|n| &n.val) {
        Some(Val::Int(i)) => *i,
        _ => i64::MAX,
    }
}

/// The leaderboard columns of a competition.yaml, in display order (Codabench `index`, Codalab `rank`).
pub fn leaderboard_from_yaml(text: &str) -> Result<Vec<Column>, Vec<ConfigError>> {
    let mut b = Builder::default();
    let mut parser = Parser::new_from_str(text);
    if let Err(e) = parser.load(&mut b, false) {
        let p = pos(e.marker());
        return Err(vec![ConfigError {
            line: p.line,
            column: p.column,
            path: String::new(),
            message: e.info().to_string(),
        }]);
    }
    let root = b.root.unwrap_or(Node {
        val: Val::Null,
        pos: Pos { line: 1, column: 1 },
    });
    let mut c = Check { errors: Vec::new() };
    let mut ranked: Vec<(i64, i64, Node)> = Vec::new();
    if let Some(lbs) = get(&root, "leaderboards") {
        let Val::Arr(list) = &lbs.val else {
            c.err(lbs.pos, "leaderboards", "expected a list of leaderboards");
            return Err(c.errors);
        };
        for (li, lb) in list.iter().enumerate() {
            match get(lb, "columns").map(|n| (&n.val, n.pos)) {
                Some((Val::Arr(cols), _)) => {
                    for (ci, col) in cols.iter().enumerate() {
                        let key = get(col, "key").cloned();
                        let n = normalized(
                            key,
                            get(col, "title"),
                            get(col, "precision"),
                            get(col, "sorting"),
                            col.pos,
                        );
                        let r = match get(col, "index").map(|x| &x.val) {
                            Some(Val::Int(i)) => *i,
                            _ => ci as i64,
                        };
                        ranked.push((rank(get(lb, "index")).min(li as i64), r, n));
                    }
                }
                Some((_, p)) => c.err(
                    p,
                    &format!("leaderboards[{li}].columns"),
                    "expected a list of columns",
                ),
                None => c.err(lb.pos, &format!("leaderboards[{li}]"), "no columns"),
            }
        }
    } else if let Some(lb) = get(&root, "leaderboard") {
        match get(lb, "columns") {
            Some(Node {
                val: Val::Table(cols),
                ..
            }) => {
                for (k, kpos, col) in cols {
                    let key = Some(Node {
                        val: Val::Str(k.clone()),
                        pos: *kpos,
                    });
                    let n = normalized(
                        key,
                        get(col, "label"),
                        get(col, "numeric_format"),
                        get(col, "sort"),
                        *kpos,
                    );
                    ranked.push((0, rank(get(col, "rank")), n));
                }
            }
            Some(n) => c.err(
                n.pos,
                "leaderboard.columns",
                "expected a mapping of column keys",
            ),
            None => c.err(lb.pos, "leaderboard", "no columns"),
        }
    } else {
        c.err(
            root.pos,
            "",
            "no `leaderboards:` (Codabench) or `leaderboard:` (Codalab) block",
        );
    }
    ranked.sort_by_key(|(l, r, _)| (*l, *r));
    let nodes: Vec<Node> = ranked.into_iter().map(|(_, _, n)| n).collect();
    let cols = columns(&mut c, &nodes, "leaderboard.columns");
    if c.errors.is_empty() {
        Ok(cols)
    } else {
        Err(c.errors)
    }
}
