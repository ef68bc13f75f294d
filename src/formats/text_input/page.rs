//! The `page` layout: PAGE XML (PRImA's 2013 and 2019 schemas, `PcGts`), one file per page. Each `TextLine`
//! is an item keyed `<page stem>/<line id>`; its text is the `Unicode` of its own `TextEquiv` with the lowest
//! `@index` (else the first one), not its words' or glyphs'. A line without `TextEquiv` has the empty text.
//! The lines come in the page's `ReadingOrder` when it has one (by region, see [`Order`]), else in file order.
//! Malformed XML is located: an element never closed at the line and column where it opens, a mismatched end
//! tag where it stands.

use super::{error, line_col, Record};
use crate::diag::{excerpt, Diags};
use quick_xml::events::{BytesStart, Event};

/// One `TextEquiv` of the current line: its `@index` and its text.
struct Equiv {
    index: Option<i64>,
    text: String,
}

/// What the reader holds while inside a `TextLine`.
struct Line {
    id: String,
    at: (u64, u64),
    depth: usize,
    equivs: Vec<Equiv>,
}

fn attr(e: &BytesStart, name: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name)
        .and_then(|a| {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .ok()
                .map(|v| v.into_owned())
        })
}

/// The lines of one PAGE XML file named `stem`; `None` after a located error (`text.page`).
pub fn read(file: &str, stem: &str, body: &str, diags: &mut Diags) -> Option<Vec<Record>> {
    let mut reader = quick_xml::Reader::from_str(body);
    reader.config_mut().check_end_names = true;
    let bytes = body.as_bytes();
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut line: Option<Line> = None;
    let mut out = Vec::new();
    let mut order = Order::default();
    let mut seen_root = false;
    loop {
        let pos = reader.buffer_position() as usize;
        let ev = match reader.read_event() {
            Ok(ev) => ev,
            Err(e) => {
                let (at, message) = failure(&e, &stack, reader.error_position() as usize);
                let (l, c) = line_col(bytes, at);
                diags.push(
                    error("text.page", file, l, c, message)
                        .hint("Fix the XML (every element closed, end tags matching)."),
                );
                return None;
            }
        };
        match ev {
            Event::Start(e) => {
                let name = e.local_name().as_ref().to_string();
                seen_root |= name == "PcGts";
                order.start(&e, &name, stack.len(), false);
                open(
                    &e,
                    &name,
                    stack.len(),
                    &mut line,
                    line_col(bytes, pos),
                    stem,
                );
                if name == "TextLine" && line.is_none() {
                    let (l, c) = line_col(bytes, pos);
                    let message = "a TextLine has no `id` attribute".to_string();
                    diags.push(error("text.page", file, l, c, message));
                    return None;
                }
                stack.push((name, pos));
            }
            Event::Empty(e) => {
                let name = e.local_name().as_ref().to_string();
                order.start(&e, &name, stack.len(), true);
                open(
                    &e,
                    &name,
                    stack.len(),
                    &mut line,
                    line_col(bytes, pos),
                    stem,
                );
                if name == "TextLine" {
                    if let Some(l) = line.take() {
                        out.push((finish(l), order.region()));
                    }
                }
            }
            Event::End(_) => {
                stack.pop();
                if line.as_ref().is_some_and(|l| l.depth == stack.len()) {
                    if let Some(l) = line.take() {
                        out.push((finish(l), order.region()));
                    }
                }
                order.end(stack.len());
            }
            Event::Text(t) => push_text(&mut line, stack.len(), &stack, &t.xml10_content()),
            Event::CData(t) => push_text(&mut line, stack.len(), &stack, &t.xml10_content()),
            Event::GeneralRef(r) => push_text(&mut line, stack.len(), &stack, &reference(&r)),
            Event::Eof => break,
            _ => {}
        }
    }
    ended(file, body, &stack, seen_root, diags).then(|| order.sorted(out))
}

/// A page's reading order (PAGE's `ReadingOrder`: `OrderedGroup`s of `RegionRefIndexed` sorted by `@index`,
/// `UnorderedGroup`s of `RegionRef` in file order, groups nested in groups) and the region of each line.
/// Each reference to a region gets a key: the keys of the groups around it, then its own `@index`, or, without
/// one, its place among its siblings; regions are ordered by their keys (the first reference of a region
/// counts), their lines in file order within a region, and lines of regions the order does not name come last,
/// in file order.
#[derive(Default)]
struct Order {
    /// Inside `ReadingOrder`: the depth of its element.
    depth: Option<usize>,
    /// The keys of the groups open inside it.
    path: Vec<i64>,
    /// Per level inside it, the elements seen so far (the key of one without `@index`).
    seen: Vec<i64>,
    /// Every region reference: its key and the region's id.
    refs: Vec<(Vec<i64>, String)>,
    /// The `TextRegion`s open: id and depth.
    regions: Vec<(String, usize)>,
}

impl Order {
    /// An element at `depth` starts (`empty`: and ends).
    fn start(&mut self, e: &BytesStart, name: &str, depth: usize, empty: bool) {
        if name == "TextRegion" && !empty {
            self.regions
                .push((attr(e, "id").unwrap_or_default(), depth));
        }
        let Some(top) = self.depth else {
            if name == "ReadingOrder" && !empty {
                (self.depth, self.seen) = (Some(depth), vec![0]);
            }
            return;
        };
        let level = depth - top - 1;
        if level >= self.seen.len() {
            return;
        }
        let key = attr(e, "index")
            .and_then(|i| i.trim().parse().ok())
            .unwrap_or(self.seen[level]);
        self.seen[level] += 1;
        self.path.truncate(level);
        if name.starts_with("RegionRef") {
            if let Some(r) = attr(e, "regionRef") {
                let mut k = self.path.clone();
                k.push(key);
                self.refs.push((k, r));
            }
        } else if !empty {
            self.path.push(key);
            self.seen.truncate(level + 1);
            self.seen.push(0);
        }
    }

    /// The element at `depth` ends.
    fn end(&mut self, depth: usize) {
        if self.depth == Some(depth) {
            self.depth = None;
        }
        if self.regions.last().is_some_and(|r| r.1 == depth) {
            self.regions.pop();
        }
    }

    /// The id of the innermost region open.
    fn region(&self) -> Option<String> {
        self.regions.last().map(|r| r.0.clone())
    }

    /// The records in reading order.
    fn sorted(mut self, mut lines: Vec<(Record, Option<String>)>) -> Vec<Record> {
        if !self.refs.is_empty() {
            self.refs.sort_by(|a, b| a.0.cmp(&b.0));
            let mut rank: rustc_hash::FxHashMap<&str, usize> = Default::default();
            for (k, (_, r)) in self.refs.iter().enumerate() {
                rank.entry(r.as_str()).or_insert(k);
            }
            lines.sort_by_key(|(_, r)| {
                r.as_deref()
                    .and_then(|r| rank.get(r).copied())
                    .unwrap_or(usize::MAX)
            });
        }
        lines.into_iter().map(|(l, _)| l).collect()
    }
}

/// Whether the document ended well: every element closed, a `PcGts` root seen (else a located error).
fn ended(
    file: &str,
    body: &str,
    stack: &[(String, usize)],
    seen_root: bool,
    diags: &mut Diags,
) -> bool {
    let bytes = body.as_bytes();
    if let Some((name, p)) = stack.last() {
        let (l, c) = line_col(bytes, *p);
        diags.push(error(
            "text.page",
            file,
            l,
            c,
            format!("element <{name}> is never closed"),
        ));
        return false;
    }
    if !seen_root {
        diags.push(
            error(
                "text.page",
                file,
                1,
                1,
                "not a PAGE XML file (no PcGts element)".into(),
            )
            .found(excerpt(body)),
        );
        return false;
    }
    true
}

/// Where and how a reader error is told: an element left open at its start tag, anything else where the
/// reader stopped.
fn failure(e: &quick_xml::Error, stack: &[(String, usize)], at: usize) -> (usize, String) {
    use quick_xml::errors::IllFormedError as Ill;
    match (e, stack.last()) {
        (quick_xml::Error::IllFormed(Ill::MissingEndTag(_)), Some((name, p))) => {
            (*p, format!("element <{name}> is never closed"))
        }
        (
            quick_xml::Error::IllFormed(Ill::MismatchedEndTag { expected, found }),
            Some((name, p)),
        ) if expected == name => (
            *p,
            format!("element <{name}> is never closed (</{found}> comes first)"),
        ),
        _ => (at, format!("malformed XML: {e}")),
    }
}

/// A start (or empty) element at `depth` (the number of open elements around it).
fn open(
    e: &BytesStart,
    name: &str,
    depth: usize,
    line: &mut Option<Line>,
    at: (u64, u64),
    stem: &str,
) {
    match name {
        "TextLine" if line.is_none() => {
            if let Some(id) = attr(e, "id") {
                *line = Some(Line {
                    id: format!("{stem}/{id}"),
                    at,
                    depth,
                    equivs: Vec::new(),
                });
            }
        }
        "TextEquiv" => {
            if let Some(l) = line.as_mut().filter(|l| l.depth + 1 == depth) {
                let index = attr(e, "index").and_then(|s| s.trim().parse().ok());
                l.equivs.push(Equiv {
                    index,
                    text: String::new(),
                });
            }
        }
        _ => {}
    }
}

/// The text an entity or character reference stands for (the five predefined entities, `&#…;`).
fn reference(r: &quick_xml::events::BytesRef) -> String {
    match r.resolve_char_ref() {
        Ok(Some(c)) => c.to_string(),
        _ => quick_xml::escape::resolve_predefined_entity(r)
            .unwrap_or("")
            .to_string(),
    }
}

/// Text inside the line's own `TextEquiv/Unicode`.
fn push_text(line: &mut Option<Line>, depth: usize, stack: &[(String, usize)], s: &str) {
    let Some(l) = line.as_mut() else { return };
    let in_unicode = depth == l.depth + 3
        && stack
            .get(l.depth + 1)
            .is_some_and(|(n, _)| n == "TextEquiv")
        && stack.get(l.depth + 2).is_some_and(|(n, _)| n == "Unicode");
    if in_unicode {
        if let Some(eq) = l.equivs.last_mut() {
            eq.text.push_str(s);
        }
    }
}

/// The line's record: the TextEquiv with the lowest `@index`, else the first.
fn finish(l: Line) -> Record {
    let best = l
        .equivs
        .iter()
        .enumerate()
        .filter_map(|(k, e)| e.index.map(|i| (i, k)))
        .min()
        .map(|(_, k)| k)
        .unwrap_or(0);
    let text = l
        .equivs
        .get(best)
        .map(|e| e.text.clone())
        .unwrap_or_default();
    Record {
        id: l.id,
        texts: vec![text],
        line: l.at.0,
        column: l.at.1,
    }
}
