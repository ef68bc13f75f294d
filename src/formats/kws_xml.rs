//! ICFHR'14 H-KWS XML, read as XML (`corrected` mode, docs/specs/kws.md 2.5), streaming with quick-xml: attributes
//! by name, any quoting and layout, entities decoded. The types here are shared with the `official` line
//! reader in [`super::kws_xml_lines`].

use crate::diag::{excerpt, Diagnostic, Diags};
use quick_xml::events::{BytesStart, Event};
use std::collections::HashMap;
use std::io::{self, BufRead, Read};
use std::rc::Rc;

/// Interns page ids: a results file names a few pages thousands of times, so each word shares one copy
/// instead of allocating its own. At most 4096 distinct ids are kept (then the table starts afresh), so an
/// input with a new id on every line still runs in bounded memory.
#[derive(Default)]
pub struct Docs {
    map: HashMap<Box<[u8]>, Rc<str>, rustc_hash::FxBuildHasher>,
}

impl Docs {
    /// The shared id for these bytes; `None` if they are not UTF-8.
    pub fn get(&mut self, b: &[u8]) -> Option<Rc<str>> {
        if let Some(r) = self.map.get(b) {
            return Some(r.clone());
        }
        let s: Rc<str> = Rc::from(std::str::from_utf8(b).ok()?);
        if self.map.len() >= 4096 {
            self.map.clear();
        }
        self.map.insert(b.into(), s.clone());
        Some(s)
    }
}

/// Which of the two files: GT (`<GTRel>` blocks) or results (`<Rel>` blocks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Gt,
    Results,
}

impl Kind {
    pub fn tag(self) -> &'static str {
        match self {
            Kind::Gt => "GTRel",
            Kind::Results => "Rel",
        }
    }
}

/// One `<word>`: a page id and a bounding box, with the optional relevance and transcription.
#[derive(Clone, Debug, PartialEq)]
pub struct Word {
    /// Shared between the words of a file that name the same page (see [`Docs`]).
    pub document: Rc<str>,
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
    /// `Relevance` as read (binary32 widened in official mode); `None` when absent (default 1).
    pub relevance: Option<f64>,
    /// `Relevance` exactly as written (for the `float` TREC conversion).
    pub relevance_text: Option<String>,
    pub line: u64,
}

impl Word {
    pub fn bbox(&self) -> (u32, u32, u32, u32) {
        (self.x, self.y, self.width, self.height)
    }
}

/// One query block, in file order of its words.
#[derive(Clone, Debug, Default)]
pub struct Block {
    pub query: String,
    /// Line of the opening tag.
    pub line: u64,
    pub words: Vec<Word>,
    /// A word in it could not be read (in official mode: rusteval panics on it).
    pub broken: bool,
}

/// Block handler: called once per closed block, in file order.
pub type OnBlock<'a> = dyn FnMut(Block, &mut Diags) + 'a;

/// A `BufRead` that counts lines (LF, CRLF and lone CR) and the character column of what has been consumed.
struct Tracked<R> {
    inner: R,
    line: u64,
    col: u64,
    consumed: u64,
    last_cr: bool,
    /// Bytes consumed since the current event began: quick-xml buffers an event whole (a tag with its
    /// attributes, a text run, a comment), so past the field limit the reader refuses to go on.
    in_event: u64,
    field_limit: u64,
}

impl<R: BufRead> Read for Tracked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let avail = self.fill_buf()?;
            let n = avail.len().min(buf.len());
            buf[..n].copy_from_slice(&avail[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Tracked<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.in_event > self.field_limit {
            return Err(crate::budget::limit_error(format!(
                "an XML element, attribute or text run longer than the field limit of {} (1/32 of max_memory): \
                 refused before buffering it; {}",
                crate::budget::human(self.field_limit),
                crate::budget::RAISE
            )));
        }
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.in_event += amt as u64;
        if let Ok(buf) = self.inner.fill_buf() {
            let chunk = &buf[..amt.min(buf.len())];
            let mut tail_start = 0;
            for i in memchr::memchr2_iter(b'\n', b'\r', chunk) {
                let crlf = chunk[i] == b'\n'
                    && (if i == 0 {
                        self.last_cr
                    } else {
                        chunk[i - 1] == b'\r'
                    });
                if !crlf {
                    self.line += 1;
                }
                self.col = 0;
                tail_start = i + 1;
            }
            if !chunk.is_empty() {
                self.last_cr = chunk[chunk.len() - 1] == b'\r';
            }
            self.col += chunk[tail_start..]
                .iter()
                .filter(|b| (**b as i8) >= -0x40)
                .count() as u64;
            self.consumed += chunk.len() as u64;
        }
        self.inner.consume(amt);
    }
}

/// Reads every block of `input`, calling `on_block` as each closes. `progress` gets the bytes consumed.
pub fn read(
    input: impl BufRead,
    file: &str,
    kind: Kind,
    diags: &mut Diags,
    progress: &mut dyn FnMut(u64),
    on_block: &mut OnBlock,
) {
    let tracked = Tracked {
        inner: input,
        line: 1,
        col: 0,
        consumed: 0,
        last_cr: false,
        in_event: 0,
        field_limit: crate::budget::Budget::default().field_limit(),
    };
    let mut reader = quick_xml::Reader::from_reader(tracked);
    reader.config_mut().check_end_names = true;
    let mut buf = Vec::new();
    let mut s = XmlState {
        file,
        kind,
        current: None,
        seen: HashMap::new(),
        stray: None,
    };
    let mut events = 0u64;
    loop {
        let (line, col) = {
            let t = reader.get_ref();
            (t.line, t.col + 1)
        };
        buf.clear();
        reader.get_mut().in_event = 0;
        let ev = match reader.read_event_into(&mut buf) {
            Ok(ev) => ev,
            Err(e) => {
                s.failed(reader.get_ref(), &e, (line, col), diags);
                break;
            }
        };
        events += 1;
        if events.is_multiple_of(4096) {
            progress(reader.get_ref().consumed);
        }
        match ev {
            Event::Start(e) => s.tag(&e, false, (line, col), diags, on_block),
            Event::Empty(e) => s.tag(&e, true, (line, col), diags, on_block),
            Event::End(e) if e.local_name().as_ref() == kind.tag() => {
                if let Some(block) = s.current.take() {
                    on_block(block, diags);
                }
            }
            Event::Eof => break,
            Event::Text(t) if s.stray.is_none() => s.text(t.as_bytes(), (line, col)),
            _ => {}
        }
    }
    if let Some(open) = s.current.take() {
        diags.push(unclosed(file, kind, &open, false));
    }
    progress(reader.get_ref().consumed);
}

/// What [`read`] knows between events: the open block, the queries seen (with their lines), and the first
/// non-blank text outside tags (line, column, text).
struct XmlState<'f> {
    file: &'f str,
    kind: Kind,
    current: Option<Block>,
    seen: HashMap<String, u64>,
    stray: Option<(u64, u64, String)>,
}

impl XmlState<'_> {
    /// Reports the error that ends the read (the event began at `at`): the memory budget's field limit, or
    /// the XML syntax (after the stray text where the damage starts, if any).
    fn failed<R>(
        &mut self,
        t: &Tracked<R>,
        e: &quick_xml::Error,
        at: (u64, u64),
        diags: &mut Diags,
    ) {
        let file = self.file;
        if t.in_event > t.field_limit {
            let text = e.to_string();
            let text = text.strip_prefix("I/O error: ").unwrap_or(&text);
            diags.push(
                Diagnostic::error("input.limit", text.to_string())
                    .file(file)
                    .at(at.0, at.1)
                    .hint("The input is larger than the memory budget allows; see README, \"Limits and the memory budget\"."),
            );
            return;
        }
        if let Some((sl, sc, text)) = self.stray.take() {
            // The parser notices the damage later than it is: name the line where it starts.
            diags.push(
                Diagnostic::error(
                    "kws.xml.syntax",
                    "not well-formed XML from this line on: text outside any tag",
                )
                .file(file)
                .at(sl, sc)
                .expected("<word …/> lines and block tags only")
                .found(excerpt(&text))
                .hint(
                    "This line looks damaged: restore it (a <word …/> element or a block's tag).",
                ),
            );
        }
        diags.push(
            Diagnostic::error("kws.xml.syntax", format!("not well-formed XML: {e}"))
                .file(file)
                .at(t.line, t.col + 1)
                .hint("Fix the XML syntax at this place (every element closed, attribute values quoted)."),
        );
    }

    /// An opening or empty tag at `at`: a block (a block still open is reported unclosed), or a word.
    fn tag(
        &mut self,
        e: &BytesStart,
        empty: bool,
        at: (u64, u64),
        diags: &mut Diags,
        on_block: &mut OnBlock,
    ) {
        let (file, kind, (line, col)) = (self.file, self.kind, at);
        let name = e.local_name();
        let name = name.as_ref();
        if name == kind.tag() {
            if let Some(open) = self.current.take() {
                diags.push(unclosed(file, kind, &open, false));
            }
            self.block(e, empty, at, diags, on_block);
        } else if name == "word" {
            match self.current.as_mut() {
                None => diags.push(
                    Diagnostic::warning(
                        "kws.xml.word_outside_block",
                        "<word> outside a query block: ignored",
                    )
                    .file(file)
                    .at(line, col)
                    .hint(format!("Put every <word> inside a <{}> block.", kind.tag())),
                ),
                Some(block) => match word(e, file, line, col, diags) {
                    Some(w) => block.words.push(w),
                    None => block.broken = true,
                },
            }
        }
    }

    /// A block's tag at `at`: its query (a repeat reported), then the block opened, or handed on when `empty`.
    fn block(
        &mut self,
        e: &BytesStart,
        empty: bool,
        (line, col): (u64, u64),
        diags: &mut Diags,
        on_block: &mut OnBlock,
    ) {
        let (file, tag) = (self.file, self.kind.tag());
        let Some(q) = attr(e, "queryid") else {
            diags.push(
                Diagnostic::error(
                    "kws.xml.missing_attribute",
                    format!("<{tag}> without queryid"),
                )
                .file(file)
                .at(line, col)
                .expected("queryid=\"...\"")
                .hint("Give every block a queryid attribute."),
            );
            return;
        };
        if let Some(first) = self.seen.get(&q) {
            diags.push(
                Diagnostic::error(
                    "kws.xml.duplicate_query",
                    format!("query `{q}` appears twice in this file (lines {first} and {line})"),
                )
                .file(file)
                .at(line, col)
                .found(format!("second <{tag} queryid=\"{q}\">"))
                .hint("Keep one block per query.")
                .official("rusteval keeps the last block"),
            );
        } else {
            self.seen.insert(q.clone(), line);
        }
        let block = Block {
            query: q,
            line,
            ..Block::default()
        };
        if empty {
            on_block(block, diags);
        } else {
            self.current = Some(block);
        }
    }

    /// Text between tags, starting at `at`: non-blank text is remembered, and named if the XML breaks later.
    fn text(&mut self, raw: &[u8], (line, col): (u64, u64)) {
        let Some(k) = raw.iter().position(|b| !b.is_ascii_whitespace()) else {
            return;
        };
        let before = &raw[..k];
        let nl = before.iter().filter(|b| **b == b'\n').count() as u64;
        let c = if nl == 0 {
            col + k as u64
        } else {
            (k - before.iter().rposition(|b| *b == b'\n').unwrap_or(0)) as u64
        };
        let rest = String::from_utf8_lossy(&raw[k..]);
        let first = rest.lines().next().unwrap_or("").to_string();
        self.stray = Some((line + nl, c, first));
    }
}

/// A block still open at end of file (or when the next opens): an error when read as XML; in official
/// mode a warning, since rusteval silently drops the block.
pub(super) fn unclosed(file: &str, kind: Kind, b: &Block, official: bool) -> Diagnostic {
    let d = if official {
        Diagnostic::warning(
            "kws.xml.unclosed_block",
            format!("block `{}` is never closed: dropped", b.query),
        )
        .hint(format!(
            "Close the block with </{}> on its own line.",
            kind.tag()
        ))
    } else {
        Diagnostic::error(
            "kws.xml.unclosed_block",
            format!("block `{}` is never closed", b.query),
        )
        .hint(format!("Close the block with </{}>.", kind.tag()))
    };
    d.file(file)
        .line(b.line)
        .expected(format!("</{}>", kind.tag()))
        .found("end of file or another block")
        .official("rusteval silently drops the block")
}

fn attr(e: &BytesStart, name: &str) -> Option<String> {
    e.attributes()
        .with_checks(false)
        .flatten()
        .find(|a| a.key.as_ref() == name)
        .map(|a| {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map(|v| v.into_owned())
                .unwrap_or_else(|_| a.value.to_string())
        })
}

/// The names of a word's attributes, in [`word`]'s order.
const NAMES: [&str; 7] = ["document", "x", "y", "width", "height", "Relevance", "Text"];

fn word(e: &BytesStart, file: &str, line: u64, col: u64, diags: &mut Diags) -> Option<Word> {
    let mut vals = attributes(e, file, line, col, diags)?;
    let mut ok = true;
    for (i, v) in vals.iter().take(5).enumerate() {
        if v.is_none() {
            ok = false;
            diags.push(
                Diagnostic::error(
                    "kws.xml.missing_attribute",
                    format!("<word> without `{}`", NAMES[i]),
                )
                .file(file)
                .at(line, col)
                .expected(format!("{}=\"...\"", NAMES[i]))
                .hint("Every <word> needs document, x, y, width and height."),
            );
        }
    }
    let mut coord = |i: usize| -> u32 {
        let v = vals[i].as_deref().unwrap_or("0");
        match v.parse::<u32>() {
            Ok(n) => n,
            Err(_) => {
                if vals[i].is_some() {
                    ok = false;
                    diags.push(
                        Diagnostic::error(
                            "kws.xml.bad_coordinate",
                            format!("`{}` is not an integer in [0, 4294967295]", NAMES[i]),
                        )
                        .file(file)
                        .at(line, col)
                        .expected("a non-negative integer")
                        .found(excerpt(v))
                        .hint("Write pixel coordinates as whole numbers."),
                    );
                }
                0
            }
        }
    };
    let (x, y, width, height) = (coord(1), coord(2), coord(3), coord(4));
    let relevance_text = vals[5].as_deref().map(str::to_string);
    let relevance = match relevance_text.as_deref() {
        None => None,
        Some(t) => {
            let r = relevance_of(t, file, line, col, diags);
            ok &= r.is_some();
            r
        }
    };
    if !ok {
        return None;
    }
    Some(Word {
        document: Rc::from(vals[0].take().as_deref().unwrap_or("")),
        x,
        y,
        width,
        height,
        relevance,
        relevance_text,
        line,
    })
}

/// A word's attribute values by [`NAMES`] (entities decoded); unknown attributes are reported and ignored.
/// `None` when an attribute cannot be read (reported).
fn attributes<'e>(
    e: &'e BytesStart,
    file: &str,
    line: u64,
    col: u64,
    diags: &mut Diags,
) -> Option<[Option<std::borrow::Cow<'e, str>>; 7]> {
    let mut vals: [Option<std::borrow::Cow<str>>; 7] = Default::default();
    for a in e.attributes().with_checks(false) {
        let a = match a {
            Ok(a) => a,
            Err(err) => {
                diags.push(
                    Diagnostic::error("kws.xml.syntax", format!("bad attribute: {err}"))
                        .file(file)
                        .at(line, col),
                );
                return None;
            }
        };
        let key: &str = a.key.as_ref();
        match NAMES.iter().position(|n| *n == key) {
            Some(i) => {
                let raw = a.value.clone();
                vals[i] = Some(if raw.contains('&') {
                    a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .map(|v| std::borrow::Cow::Owned(v.into_owned()))
                        .unwrap_or(raw)
                } else {
                    raw
                });
            }
            None => diags.push(
                Diagnostic::warning(
                    "kws.xml.unknown_attribute",
                    format!("unknown attribute `{key}` ignored"),
                )
                .file(file)
                .at(line, col)
                .expected("document, x, y, width, height, Relevance, Text")
                .found(key.to_string())
                .hint("Check the spelling: attribute names are case-sensitive."),
            ),
        }
    }
    Some(vals)
}

/// A Relevance value: a number in [0, 1], else `None` (reported).
fn relevance_of(t: &str, file: &str, line: u64, col: u64, diags: &mut Diags) -> Option<f64> {
    match t.trim().parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Some(r),
        _ => {
            diags.push(
                Diagnostic::error(
                    "kws.xml.bad_relevance",
                    "Relevance is not a number in [0, 1]",
                )
                .file(file)
                .at(line, col)
                .expected("a decimal number in [0, 1]")
                .found(excerpt(t))
                .hint("Use 1 for relevant items (any value in [0, 1] is accepted)."),
            );
            None
        }
    }
}
