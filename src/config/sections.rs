//! The config's `[leaderboard]` section, its columns, and `ground_truth`: checked node by node into the
//! typed [`Config`](super::Config) parts, every problem located.

use super::*;

pub(super) fn leaderboard(c: &mut Check, n: &Node) -> Leaderboard {
    let mut lb = Leaderboard::default();
    let Some(t) = c.table(n, "leaderboard") else {
        return lb;
    };
    c.known_keys(t, "leaderboard", &["columns", "competition_yaml"]);
    if let Some(y) = get(t, "competition_yaml") {
        lb.competition_yaml = c.string(y, "leaderboard.competition_yaml");
    }
    if let Some(cols) = get(t, "columns") {
        match &cols.val {
            Val::Arr(items) => {
                lb.columns = columns(c, items, "leaderboard.columns");
                if lb.competition_yaml.is_some() {
                    c.err(
                        cols.pos,
                        "leaderboard.columns",
                        "give either columns or competition_yaml, not both",
                    );
                }
            }
            v => c.err(
                cols.pos,
                "leaderboard.columns",
                format!(
                    "expected an array of tables ([[leaderboard.columns]]), found {}",
                    v.kind()
                ),
            ),
        }
    }
    lb
}

/// Validates leaderboard columns (shared with the competition.yaml reader).
pub(super) fn columns(c: &mut Check, items: &[Node], prefix: &str) -> Vec<Column> {
    let mut out: Vec<Column> = Vec::new();
    // The keys so far, for the duplicate check (a set: 100,000 columns are checked in linear time).
    let mut seen = std::collections::HashSet::new();
    for (i, it) in items.iter().enumerate() {
        let path = format!("{prefix}[{i}]");
        let Some(t) = c.table(it, &path) else {
            continue;
        };
        c.known_keys(t, &path, &["key", "title", "metric", "decimals", "sort"]);
        let key = column_key(c, t, it.pos, &path, &seen);
        seen.insert(key.clone());
        let text =
            |c: &mut Check, name: &str| get(t, name).and_then(|n| c.string(n, &join(&path, name)));
        let title = text(c, "title").unwrap_or_else(|| key.clone());
        let metric = text(c, "metric").unwrap_or_else(|| key.clone());
        let decimals = decimals(c, t, &path);
        let sort = sort(c, t, &path);
        out.push(Column {
            key,
            title,
            metric,
            decimals,
            sort,
            pos: it.pos,
        });
    }
    out
}

/// The `key` of column table `t` (at `at`): required, of letters, digits and `_ - . /`, and not one of the
/// keys of the columns before (`seen`); an error for each of these it breaks.
fn column_key(
    c: &mut Check,
    t: &[(String, Pos, Node)],
    at: Pos,
    path: &str,
    seen: &std::collections::HashSet<String>,
) -> String {
    let key = match get(t, "key") {
        Some(n) => c.string(n, &join(path, "key")).unwrap_or_default(),
        None => {
            c.err(at, &join(path, "key"), "missing: every column needs a key");
            String::new()
        }
    };
    let key_pos = get(t, "key").map_or(at, |n| n.pos);
    if !key.is_empty()
        && !key
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || "_-./".contains(ch))
    {
        c.err(
            key_pos,
            &join(path, "key"),
            format!("`{key}`: use letters, digits, _ - . / only"),
        );
    } else if key.is_empty() && get(t, "key").is_some_and(|n| matches!(n.val, Val::Str(_))) {
        c.err(key_pos, &join(path, "key"), "empty key");
    }
    if seen.contains(&key) {
        c.err(
            key_pos,
            &join(path, "key"),
            format!("duplicate column key `{key}`"),
        );
    }
    key
}

/// The `decimals` of column table `t`: an integer from 0 to 15, 4 when absent (or wrong: an error).
fn decimals(c: &mut Check, t: &[(String, Pos, Node)], path: &str) -> u32 {
    match get(t, "decimals") {
        None => 4,
        Some(n) => match n.val {
            Val::Int(d) if (0..=15).contains(&d) => d as u32,
            ref v => {
                c.err(
                    n.pos,
                    &join(path, "decimals"),
                    format!("expected an integer from 0 to 15, found {}", show(v)),
                );
                4
            }
        },
    }
}

/// The `sort` of column table `t`: `desc`/`descending` (also when absent or wrong: an error) or
/// `asc`/`ascending`.
fn sort(c: &mut Check, t: &[(String, Pos, Node)], path: &str) -> Sort {
    match get(t, "sort") {
        None => Sort::Desc,
        Some(n) => match c.string(n, &join(path, "sort")).as_deref() {
            Some("desc") | Some("descending") => Sort::Desc,
            Some("asc") | Some("ascending") => Sort::Asc,
            Some(s) => {
                c.err(
                    n.pos,
                    &join(path, "sort"),
                    format!("expected desc or asc, found `{s}`"),
                );
                Sort::Desc
            }
            None => Sort::Desc,
        },
    }
}

fn show(v: &Val) -> String {
    match v {
        Val::Int(i) => i.to_string(),
        Val::Float(x) => x.to_string(),
        Val::Str(s) => format!("\"{s}\""),
        other => other.kind().to_string(),
    }
}

pub(super) fn ground_truth(c: &mut Check, n: &Node) -> Vec<String> {
    let items: Vec<&Node> = match &n.val {
        Val::Arr(a) => a.iter().collect(),
        _ => vec![n],
    };
    let mut out = Vec::new();
    for (i, it) in items.iter().enumerate() {
        let path = if matches!(n.val, Val::Arr(_)) {
            format!("ground_truth[{i}]")
        } else {
            "ground_truth".into()
        };
        out.extend(same_site(c, it, &path));
    }
    if matches!(&n.val, Val::Arr(a) if a.is_empty()) {
        c.err(
            n.pos,
            "ground_truth",
            "empty list: remove the key or name at least one file",
        );
    }
    out
}

/// A path on the same site (relative to the config, or starting with `/`): `ground_truth`'s items, `manifest`.
pub(super) fn same_site(c: &mut Check, it: &Node, path: &str) -> Option<String> {
    let s = c.string(it, path)?;
    let lower = s.to_ascii_lowercase();
    let has_scheme = lower.split_once(':').is_some_and(|(a, _)| {
        !a.is_empty()
            && a.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "+-.".contains(ch))
    });
    if s.trim().is_empty() {
        c.err(it.pos, path, "empty path");
        None
    } else if has_scheme || s.starts_with("//") || s.contains('\\') {
        c.err(it.pos, path, format!("`{s}`: give a path on the same site (relative to the config, or starting with /), not a URL with a scheme or host"));
        None
    } else {
        Some(s)
    }
}
