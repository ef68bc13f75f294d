//! The leaderboard columns of a Codabench `competition.yaml` (`leaderboards: [{columns: [{key, title, index,
//! sorting, precision}]}]`) or a Codalab one (`leaderboard: {columns: {KEY: {label, rank, sort,
//! numeric_format}}}`), read with `yaml-rust2`'s event parser so every column keeps its line and column.

use super::sections::columns;
use super::{Check, Column, ConfigError, Node, Pos, Val};
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Deepest nesting accepted (a competition.yaml nests about 5 levels; 100,000 would overflow the stack when
/// the tree is dropped or walked).
pub const MAX_DEPTH: usize = 128;
/// Most nodes the tree may hold once aliases are expanded (each alias is a copy of its anchor's tree, so
/// nine nested aliases of ten make a billion: "billion laughs"). A million nodes is about 100 MB.
pub const MAX_NODES: u64 = 1_000_000;

/// An open container, its anchor id, and the node count when it opened (its size once closed).
type Open = (Node, usize, u64);

/// Builds a [`Node`] tree from parser events (anchors are resolved; the first document only), within
/// [`MAX_DEPTH`] and [`MAX_NODES`]: past either it stops building and records the first refusal.
#[derive(Default)]
struct Builder {
    stack: Vec<Open>,
    pending_key: Vec<Option<(String, Pos)>>,
    /// Anchor id, its tree, and the tree's node count.
    anchors: Vec<(usize, Node, u64)>,
    root: Option<Node>,
    nodes: u64,
    refused: Option<(Pos, String)>,
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
    /// An alias at `p`: a copy of its anchor's tree (null for an unknown anchor), unless the copies would
    /// make more than [`MAX_NODES`] nodes (then the refusal).
    fn alias(&mut self, id: usize, p: Pos) {
        let size = self
            .anchors
            .iter()
            .rev()
            .find(|(a, _, _)| *a == id)
            .map_or(1, |(_, _, size)| *size);
        if self.nodes.saturating_add(size) > MAX_NODES {
            self.refused = Some((
                p,
                format!(
                    "aliases expand to more than {MAX_NODES} nodes: refused (a YAML alias bomb?); write the values out or use fewer aliases"
                ),
            ));
            return;
        }
        self.nodes += size;
        let n = self
            .anchors
            .iter()
            .rev()
            .find(|(a, _, _)| *a == id)
            .map(|(_, n, _)| n.clone())
            .unwrap_or(Node {
                val: Val::Null,
                pos: p,
            });
        self.add(n, 0, size);
    }

    /// Opens a list or mapping (`val`, empty) at `p`, with its anchor id.
    fn open(&mut self, val: Val, anchor: usize, p: Pos) {
        self.stack.push((Node { val, pos: p }, anchor, self.nodes));
        self.nodes += 1;
        self.pending_key.push(None);
    }

    /// Adds a finished value to the open container (or makes it the root).
    fn add(&mut self, node: Node, anchor: usize, size: u64) {
        if anchor > 0 {
            self.anchors.push((anchor, node.clone(), size));
        }
        let Some((top, _, _)) = self.stack.last_mut() else {
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
        if self.refused.is_some() {
            return;
        }
        let p = pos(&mark);
        match ev {
            Event::Scalar(s, style, anchor, _) => {
                self.nodes += 1;
                self.add(
                    Node {
                        val: scalar(s, style),
                        pos: p,
                    },
                    anchor,
                    1,
                )
            }
            Event::Alias(id) => self.alias(id, p),
            Event::SequenceStart(..) | Event::MappingStart(..) if self.stack.len() >= MAX_DEPTH => {
                self.refused = Some((
                    p,
                    format!("nested more than {MAX_DEPTH} levels deep: refused"),
                ));
            }
            Event::SequenceStart(anchor, _) => self.open(Val::Arr(Vec::new()), anchor, p),
            Event::MappingStart(anchor, _) => self.open(Val::Table(Vec::new()), anchor, p),
            Event::SequenceEnd | Event::MappingEnd => {
                self.pending_key.pop();
                if let Some((node, anchor, start)) = self.stack.pop() {
                    let size = self.nodes - start;
                    self.add(node, anchor, size);
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
    let root = tree(text)?;
    let mut c = Check { errors: Vec::new() };
    let mut ranked: Vec<(i64, i64, Node)> = Vec::new();
    if let Some(lbs) = get(&root, "leaderboards") {
        let Val::Arr(list) = &lbs.val else {
            c.err(lbs.pos, "leaderboards", "expected a list of leaderboards");
            return Err(c.errors);
        };
        codabench_columns(&mut c, list, &mut ranked);
    } else if let Some(lb) = get(&root, "leaderboard") {
        codalab_columns(&mut c, lb, &mut ranked);
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

/// The YAML document as a tree (an empty document: null), or the error that stops it.
fn tree(text: &str) -> Result<Node, Vec<ConfigError>> {
    let mut b = Builder::default();
    let mut parser = Parser::new_from_str(text);
    let error = |p: Pos, message: String| {
        vec![ConfigError {
            line: p.line,
            column: p.column,
            path: String::new(),
            message,
        }]
    };
    // The events are pulled here rather than by `Parser::load`, which recurses once per nesting level (100,000
    // levels overflow the stack) and would go on after a refusal.
    loop {
        match parser.next_token() {
            Ok((Event::StreamEnd | Event::DocumentEnd, _)) => break,
            Ok((ev, mark)) => {
                b.on_event(ev, mark);
                if b.refused.is_some() {
                    break;
                }
            }
            Err(e) => return Err(error(pos(e.marker()), e.info().to_string())),
        }
    }
    if let Some((p, message)) = b.refused.take() {
        return Err(error(p, message));
    }
    Ok(b.root.unwrap_or(Node {
        val: Val::Null,
        pos: Pos { line: 1, column: 1 },
    }))
}

/// Codabench's `leaderboards:` list: each leaderboard's `columns` list, ranked by the leaderboard's `index`
/// (else its position), then each column's `index` (else its position).
fn codabench_columns(c: &mut Check, list: &[Node], ranked: &mut Vec<(i64, i64, Node)>) {
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
}

/// Codalab's `leaderboard:` block: its `columns` mapping from key to column, ranked by each column's `rank`.
fn codalab_columns(c: &mut Check, lb: &Node, ranked: &mut Vec<(i64, i64, Node)>) {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alias_bombs_and_deep_nesting_are_refused_at_their_place() {
        // Billion laughs: each level lists the previous one nine times (9⁹ ≈ 387 million strings).
        let mut y = String::from("a0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n");
        for i in 1..10 {
            let p = format!("*a{}", i - 1);
            y.push_str(&format!("a{i}: &a{i} [{}]\n", vec![p; 9].join(", ")));
        }
        let e = leaderboard_from_yaml(&y).unwrap_err();
        assert!(e[0].message.contains("aliases expand"), "{}", e[0].message);
        assert_eq!(e[0].line, 7, "{e:?}");
        // 100,000 nested block sequences.
        let block = "- ".repeat(100_000) + "x\n";
        let e = leaderboard_from_yaml(&block).unwrap_err();
        assert!(
            e[0].message.contains("nested more than 128"),
            "{}",
            e[0].message
        );
        let deep: String = (0..100_000).map(|_| "[").collect::<String>() + &"]".repeat(100_000);
        // Flow nesting: yaml-rust2's scanner stops it first, with its own located error.
        let e = leaderboard_from_yaml(&deep).unwrap_err();
        assert_eq!(e[0].line, 1, "{e:?}");
        // Within both bounds: aliases still resolve.
        let ok = "base: &c {key: map, title: mAP}\nleaderboards:\n  - columns:\n    - *c\n";
        assert!(leaderboard_from_yaml(ok).is_ok());
    }
}
