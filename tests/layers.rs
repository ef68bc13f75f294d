//! The layers of the crate hold: no module of `src/` names a module of a layer above its own, by a
//! `crate::…` path or by `super::…` paths that climb to the crate root. Comments, strings and characters are
//! not code and are not read. Set `LAYERS_SRC` to check another tree than this crate's `src/`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom up (docs/architecture.md). A module may name its own layer and those below; the
/// crate root's own items (`crate::xorshift64`, the re-exported `crate::Report`) sit with the core. `cli` and
/// `huge_pages` are the binary's (its command line and its heap), which reaches the library as `dropscore::`.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "core",
        &[
            "diag", "report", "budget", "pycompat", "par", "items", "stats",
        ],
    ),
    ("metrics", &["metrics"]),
    // The lemmatiser: its dictionary asset in, a `Lemmatizer` out, as a reader's.
    ("formats", &["formats", "lemma"]),
    ("input", &["input"]),
    ("protocols", &["protocols"]),
    ("output", &["render", "config", "html", "items_query"]),
    (
        "shells",
        &["cli", "wasm", "python", "fuzzing", "huge_pages"],
    ),
];

/// The layer of a top-level module (`None`: not in the table).
fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, mods)| mods.contains(&module))
}

/// One path that names another module from a file: where, what it says, and the top-level module it names.
#[derive(Debug, PartialEq)]
struct Import {
    line: usize,
    text: String,
    target: String,
}

#[test]
fn no_module_imports_from_a_layer_above_its_own() {
    let src = std::env::var_os("LAYERS_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let files = rust_files(&src);
    assert!(!files.is_empty(), "no .rs file under {}", src.display());
    let modules = module_paths(&src, &files);
    let tops: BTreeSet<&str> = modules
        .values()
        .filter_map(|m| m.first().map(String::as_str))
        .collect();
    let mut problems = Vec::new();
    for top in &tops {
        if layer(top).is_none() {
            problems.push(format!(
                "module `{top}` is in no layer: add it to LAYERS in tests/layers.rs"
            ));
        }
    }
    for (file, module) in &modules {
        let Some(top) = module.first() else {
            continue; // the crate roots (lib.rs, main.rs) sit below every module
        };
        let Some(own) = layer(top) else { continue };
        let text = std::fs::read_to_string(file).expect("readable source");
        for import in imports(&text, module.len()) {
            let Some(theirs) = layer(&import.target).filter(|_| tops.contains(&*import.target))
            else {
                continue; // a root item, or a module already reported
            };
            let shown = file
                .strip_prefix(&src)
                .unwrap_or(file)
                .display()
                .to_string();
            if theirs > own {
                problems.push(format!(
                    "{shown}:{}: `{}`: `{top}` (layer {}) imports `{}` (layer {})",
                    import.line, import.text, LAYERS[own].0, import.target, LAYERS[theirs].0,
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} upward import(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("readable folder").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Each file's module path (`src/formats/trec/mod.rs` → `formats::trec`), from its place under `src`, or
/// from the `#[path = "…"] mod name;` that includes it.
fn module_paths(src: &Path, files: &[PathBuf]) -> BTreeMap<PathBuf, Vec<String>> {
    let mut out: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(src).unwrap_or(f);
        let mut parts: Vec<String> = rel
            .iter()
            .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if matches!(
            parts.last().map(String::as_str),
            Some("mod" | "lib" | "main")
        ) {
            parts.pop();
        }
        out.insert(f.clone(), parts);
    }
    for f in files {
        let original = std::fs::read_to_string(f).expect("readable source");
        let code = code_only(&original);
        let mut rest = code.as_str();
        while let Some(i) = rest.find("#[path") {
            rest = &rest[i + 6..];
            // The attribute's string was blanked: read it from the original text at the same offset.
            let at = original.len() - rest.len();
            let Some(name) = original[at..].split('"').nth(1) else {
                continue;
            };
            let after = rest.find(']').map_or("", |j| &rest[j + 1..]);
            let Some(m) = after.trim_start().strip_prefix("mod ") else {
                continue;
            };
            let module: String = m
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let target = f.parent().unwrap_or(src).join(name);
            if let Some(parent) = out.get(f).cloned() {
                let mut path = parent;
                path.push(module);
                out.insert(target, path);
            }
        }
    }
    out
}

/// The paths of `code` that name a top-level module: `crate::x…` (x, or each first name in
/// `crate::{x, y}`) and `super::…` chains that climb to the crate root from a file `depth` modules deep
/// (inline `mod name { … }` blocks count).
fn imports(text: &str, depth: usize) -> Vec<Import> {
    let code = code_only(text);
    let b = code.as_bytes();
    let mut out = Vec::new();
    // The depth of the inline modules open at each brace level.
    let mut braces: Vec<bool> = Vec::new();
    let mut inline = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => {
                let opens_mod = last_words(&code[..i]).is_some_and(|w| w.0 == "mod");
                braces.push(opens_mod);
                inline += opens_mod as usize;
                i += 1;
                continue;
            }
            b'}' => {
                if braces.pop() == Some(true) {
                    inline -= 1;
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        let word_start = i == 0 || !is_ident(b[i - 1]);
        let head = ["crate", "super"].into_iter().find(|w| {
            word_start
                && code[i..].starts_with(w)
                && !b.get(i + w.len()).is_some_and(|c| is_ident(*c))
        });
        let Some(_) = head else {
            i += 1;
            continue;
        };
        let (segments, group, end) = parse_path(&code, i);
        let line = code[..i].matches('\n').count() + 1;
        let said = code[i..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let supers = segments.iter().take_while(|s| *s == "super").count();
        let names: Vec<String> = if segments.first().is_some_and(|s| s == "crate") {
            first_names(&segments[1..], &group)
        } else if supers > 0 && supers == depth + inline {
            first_names(&segments[supers..], &group)
        } else {
            Vec::new()
        };
        for target in names {
            out.push(Import {
                line,
                text: said.clone(),
                target,
            });
        }
        i = end.max(i + 1);
    }
    out
}

/// The top-level names a path's remainder (after `crate` or the climbing `super`s) starts with.
fn first_names(rest: &[String], group: &[String]) -> Vec<String> {
    match rest.first() {
        Some(s) => vec![s.clone()],
        None => group.to_vec(),
    }
}

/// The path starting at `at`: its `::`-separated names, the first names of a `{…}` group ending it, and the
/// offset after it.
fn parse_path(code: &str, at: usize) -> (Vec<String>, Vec<String>, usize) {
    let b = code.as_bytes();
    let mut segments = Vec::new();
    let mut i = at;
    loop {
        let s = i;
        while i < b.len() && is_ident(b[i]) {
            i += 1;
        }
        if i == s {
            break;
        }
        segments.push(code[s..i].to_string());
        let j = skip_ws(b, i);
        if !code[j..].starts_with("::") {
            break;
        }
        i = skip_ws(b, j + 2);
        if b.get(i) == Some(&b'{') {
            let (group, end) = parse_group(code, i);
            return (segments, group, end);
        }
    }
    (segments, Vec::new(), i)
}

/// The first name of each item of the group `{a::b, c, self}` at `at`, and the offset after it.
fn parse_group(code: &str, at: usize) -> (Vec<String>, usize) {
    let b = code.as_bytes();
    let mut depth = 0;
    let mut end = at;
    for (k, c) in b.iter().enumerate().skip(at) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    end = k + 1;
                    break;
                }
            }
            _ => {}
        }
    }
    let inner = &code[at + 1..end.saturating_sub(1).max(at + 1)];
    let mut names = Vec::new();
    let mut depth = 0;
    let mut item_start = true;
    let ib = inner.as_bytes();
    for (k, c) in ib.iter().enumerate() {
        match c {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b',' if depth == 0 => item_start = true,
            c if item_start && is_ident(*c) => {
                let name: String = inner[k..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if name != "self" {
                    names.push(name);
                }
                item_start = false;
            }
            _ => {}
        }
    }
    (names, end)
}

/// The last two words before the end of `code` (to tell `mod name {` from other blocks).
fn last_words(code: &str) -> Option<(&str, &str)> {
    let mut words = code
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty());
    let tail = code.trim_end();
    let name = words.next()?;
    if !tail.ends_with(name) {
        return None;
    }
    Some((words.next()?, name))
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// `text` with its comments and string, byte-string and character literals replaced by spaces (line ends
/// kept, so lines and offsets stay where they were).
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, s: &[char]| {
        for ch in s {
            if *ch == '\n' {
                out.push('\n');
            } else {
                out.extend(std::iter::repeat_n(' ', ch.len_utf8()));
            }
        }
    };
    let mut i = 0;
    while i < c.len() {
        let prev_ident = i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
        let end = if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            (i..c.len()).find(|&k| c[k] == '\n').unwrap_or(c.len())
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            block_comment_end(&c, i)
        } else if c[i] == '"' {
            string_end(&c, i + 1)
        } else if (c[i] == 'r' || (c[i] == 'b' && c.get(i + 1) == Some(&'r'))) && !prev_ident {
            let s = if c[i] == 'b' { i + 2 } else { i + 1 };
            let hashes = c[s..].iter().take_while(|&&h| h == '#').count();
            if c.get(s + hashes) == Some(&'"') {
                raw_string_end(&c, s + hashes + 1, hashes)
            } else {
                i
            }
        } else if c[i] == '\'' {
            char_end(&c, i)
        } else {
            i
        };
        if end > i {
            blank(&mut out, &c[i..end]);
            i = end;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn block_comment_end(c: &[char], start: usize) -> usize {
    let mut depth = 0;
    let mut k = start;
    while k + 1 < c.len() {
        if c[k] == '/' && c[k + 1] == '*' {
            depth += 1;
            k += 2;
        } else if c[k] == '*' && c[k + 1] == '/' {
            depth -= 1;
            k += 2;
            if depth == 0 {
                return k;
            }
        } else {
            k += 1;
        }
    }
    c.len()
}

/// The end of a `"…"` literal whose content starts at `k`.
fn string_end(c: &[char], mut k: usize) -> usize {
    while k < c.len() {
        match c[k] {
            '\\' => k += 2,
            '"' => return k + 1,
            _ => k += 1,
        }
    }
    c.len()
}

fn raw_string_end(c: &[char], mut k: usize, hashes: usize) -> usize {
    while k < c.len() {
        if c[k] == '"'
            && c[k + 1..]
                .iter()
                .take(hashes)
                .filter(|&&h| h == '#')
                .count()
                == hashes
        {
            return k + 1 + hashes;
        }
        k += 1;
    }
    c.len()
}

/// The end of a character literal at `start` (`'a'`, `'\n'`, `'\''`, `'\u{1F600}'`); `start` itself for a
/// lifetime or label (`'a`, `'outer:`).
fn char_end(c: &[char], start: usize) -> usize {
    match c.get(start + 1) {
        Some('\\') => (start + 3..c.len())
            .find(|&k| c[k] == '\'')
            .map_or(c.len(), |k| k + 1),
        Some(_) if c.get(start + 2) == Some(&'\'') => start + 3,
        _ => start,
    }
}

/// The scan finds what it must, and nothing in comments or strings.
#[test]
fn the_scan_reads_paths_not_prose() {
    let text = r#"
use crate::input::Entry; // crate::protocols in a comment
use crate::{diag::Diagnostic, render};
/* crate::wasm */ const S: &str = "crate::cli";
const C: char = '"'; fn f<'a>(x: &'a str) {}
mod tests {
    use super::*;
    use super::super::html;
}
fn g() { let _ = super::wasm::note(); }
"#;
    let found: Vec<(usize, String)> = imports(text, 1)
        .into_iter()
        .map(|i| (i.line, i.target))
        .collect();
    assert_eq!(
        found,
        [
            (2, "input".to_string()),
            (3, "diag".to_string()),
            (3, "render".to_string()),
            (8, "html".to_string()),
            (10, "wasm".to_string()),
        ]
    );
    // From a file two modules deep, two `super`s reach the root.
    let found: Vec<String> = imports("use super::super::input::Entry;", 2)
        .into_iter()
        .map(|i| i.target)
        .collect();
    assert_eq!(found, ["input"]);
    assert!(imports("use super::super::lines;", 3).is_empty());
}
