//! ICFHR'14 H-KWS XML, read as XML (`corrected` mode, specs/kws.md 2.5), streaming with quick-xml: attributes
//! by name, any quoting and layout, entities decoded. The types here are shared with the `official` line
//! reader in [`super::kws_xml_lines`].

use super::fxhash::FxBuild;
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
    map: HashMap<Box<[u8]>, Rc<str>, FxBuild>,
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
    let mut current: Option<Block> = None;
    let mut seen: HashMap<String, u64> = HashMap::new();
    let mut events = 0u64;
    let mut stray: Option<(u64, u64, String)> = None;
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
                let t = reader.get_ref();
                if t.in_event > t.field_limit {
                    let text = e.to_string();
                    let text = text.strip_prefix("I/O error: ").unwrap_or(&text);
                    diags.push(
                        Diagnostic::error("input.limit", text.to_string())
                            .file(file)
                            .at(line, col)
                            .hint("The input is larger than the memory budget allows; see README, \"Limits and the memory budget\"."),
                    );
                    break;
                }
                if let Some((sl, sc, text)) = stray.take() {
                    // The parser notices the damage later than it is: name the line where it starts.
                    diags.push(
                        Diagnostic::error("kws.xml.syntax", "not well-formed XML from this line on: text outside any tag")
                            .file(file)
                            .at(sl, sc)
                            .expected("<word …/> lines and block tags only")
                            .found(excerpt(&text))
                            .hint("This line looks damaged: restore it (a <word …/> element or a block's tag)."),
                    );
                }
                diags.push(
                    Diagnostic::error("kws.xml.syntax", format!("not well-formed XML: {e}"))
                        .file(file)
                        .at(t.line, t.col + 1)
                        .hint("Fix the XML syntax at this place (every element closed, attribute values quoted)."),
                );
                break;
            }
        };
        events += 1;
        if events % 4096 == 0 {
            progress(reader.get_ref().consumed);
        }
        match ev {
            ev @ (Event::Start(_) | Event::Empty(_)) => {
                let (e, empty) = match ev {
                    Event::Start(e) => (e, false),
                    Event::Empty(e) => (e, true),
                    _ => continue,
                };
                let name = e.local_name();
                let name = name.as_ref();
                if name == kind.tag() {
                    if let Some(open) = current.take() {
                        diags.push(unclosed(file, kind, &open, false));
                    }
                    let q = attr(&e, "queryid");
                    match q {
                        None => diags.push(
                            Diagnostic::error(
                                "kws.xml.missing_attribute",
                                format!("<{}> without queryid", kind.tag()),
                            )
                            .file(file)
                            .at(line, col)
                            .expected("queryid=\"...\"")
                            .hint("Give every block a queryid attribute."),
                        ),
                        Some(q) => {
                            if let Some(first) = seen.get(&q) {
                                diags.push(
                                    Diagnostic::error("kws.xml.duplicate_query", format!("query `{q}` appears twice in this file (lines {first} and {line})"))
                                        .file(file)
                                        .at(line, col)
                                        .found(format!("second <{} queryid=\"{q}\">", kind.tag()))
                                        .hint("Keep one block per query.")
                                        .official("rusteval keeps the last block"),
                                );
                            } else {
                                seen.insert(q.clone(), line);
                            }
                            let block = Block {
                                query: q,
                                line,
                                ..Block::default()
                            };
                            if empty {
                                on_block(block, diags);
                            } else {
                                current = Some(block);
                            }
                        }
                    }
                } else if name == "word" {
                    match current.as_mut() {
                        None => diags.push(
                            Diagnostic::warning(
                                "kws.xml.word_outside_block",
                                "<word> outside a query block: ignored",
                            )
                            .file(file)
                            .at(line, col)
                            .hint(format!("Put every <word> inside a <{}> block.", kind.tag())),
                        ),
                        Some(block) => match word(&e, file, line, col, diags) {
                            Some(w) => block.words.push(w),
                            None => block.broken = true,
                        },
                    }
                }
            }
            Event::End(e) if e.local_name().as_ref() == kind.tag() => {
                if let Some(block) = current.take() {
                    on_block(block, diags);
                }
            }
            Event::Eof => break,
            Event::Text(t) if stray.is_none() => {
                // Non-blank text between tags: remembered, and named if the XML breaks later.
                let raw: &[u8] = t.as_bytes();
                if let Some(k) = raw.iter().position(|b| !b.is_ascii_whitespace()) {
                    let before = &raw[..k];
                    let nl = before.iter().filter(|b| **b == b'\n').count() as u64;
                    let c = if nl == 0 {
                        col + k as u64
                    } else {
                        (k - before.iter().rposition(|b| *b == b'\n').unwrap_or(0)) as u64
                    };
                    let rest = String::from_utf8_lossy(&raw[k..]);
                    let first = rest.lines().next().unwrap_or("").to_string();
                    stray = Some((line + nl, c, first));
                }
            }
            _ => {}
        }
    }
    if let Some(open) = current.take() {
        diags.push(unclosed(file, kind, &open, false));
    }
    progress(reader.get_ref().consumed);
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

fn word(e: &BytesStart, file: &str, line: u64, col: u64, diags: &mut Diags) -> Option<Word> {
    let mut vals: [Option<std::borrow::Cow<str>>; 7] = Default::default();
    const NAMES: [&str; 7] = ["document", "x", "y", "width", "height", "Relevance", "Text"];
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
        Some(t) => match t.trim().parse::<f64>() {
            Ok(r) if (0.0..=1.0).contains(&r) => Some(r),
            _ => {
                ok = false;
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
        },
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
