//! ICFHR'14 XML read the way rusteval v0.5 reads it (`official` mode, docs/specs/kws.md 2.4): not as XML, but
//! line by line (`BufRead::lines`), with a two-state machine and a positional word-line reader
//! (`parse_tokenstring_fast` in rusteval's `src/main.rs`). Wherever rusteval gives a number, this gives the
//! same number; wherever rusteval panics, this gives a located `kws.official.reader_panic` error and goes on,
//! so that every problem of the file is reported at once.

use super::kws_xml::{Block, Docs, Kind, OnBlock, Word};
use super::lines::Lines;
use crate::diag::{excerpt, Diagnostic, Diags};
use std::io::BufRead;

mod word_line;
use word_line::{attribute_order_ok, word_line_ascii};
pub use word_line::{word_line, Panic};

/// Reads every block; `on_block` is called when a block closes (results are scored there).
pub fn read(
    input: impl BufRead,
    file: &str,
    kind: Kind,
    diags: &mut Diags,
    progress: &mut dyn FnMut(u64),
    on_block: &mut OnBlock,
) {
    let (open_pat, close_pat): (&[u8], &[u8]) = match kind {
        Kind::Gt => (b"<GTRel queryid=\"", b"</GTRel>"),
        Kind::Results => (b"<Rel queryid=\"", b"</Rel>"),
    };
    let open_finder = memchr::memmem::Finder::new(open_pat);
    let close_finder = memchr::memmem::Finder::new(close_pat);
    let mut lines = Lines::lf_only(input);
    let mut current: Option<Block> = None;
    let mut order_warned = false;
    let mut no = 0u64;
    let mut docs = Docs::default();
    let mut last_len = 0usize;
    loop {
        if no.is_multiple_of(8192) {
            progress(lines.consumed());
        }
        no += 1;
        let line = match lines.next_line() {
            Ok(Some(l)) => l,
            Ok(None) => break,
            Err(e) => {
                diags.push(Diagnostic::read_error(file, e).line(no));
                break;
            }
        };
        if let Some(block) = current.as_mut() {
            // The first word of each block goes the slow way: it is checked for attribute order.
            if (order_warned || !block.words.is_empty()) && close_finder.find(line).is_none() {
                if let Some(w) = word_line_ascii(line, &mut docs) {
                    block.words.push(Word { line: no, ..w });
                    continue;
                }
            }
        }
        let text: std::borrow::Cow<str> = match std::str::from_utf8(line) {
            Ok(s) => s.into(),
            Err(e) => invalid_utf8(file, no, line, e, current.as_mut(), diags).into(),
        };
        let bytes = text.as_bytes();
        match current.as_mut() {
            None => {
                current = block_start(&text, open_pat, &open_finder, kind, no, file, diags);
                if let Some(b) = current.as_mut() {
                    // Lists tend to have one length: no regrowth after the first block.
                    b.words.reserve(last_len.min(1 << 16));
                }
            }
            Some(block) => {
                if close_finder.find(bytes).is_some() {
                    if let Some(b) = current.take() {
                        last_len = b.words.len();
                        on_block(b, diags);
                    }
                    continue;
                }
                word_of_line(block, &text, no, &mut order_warned, file, diags);
            }
        }
    }
    if let Some(b) = current.take() {
        diags.push(super::kws_xml::unclosed(file, kind, &b, true));
    }
    progress(lines.consumed());
}

/// The block a line opens (`open_pat`, found by `open`, then the query id up to `">`); a line that looks like
/// an opening tag but is not one is reported.
fn block_start(
    text: &str,
    open_pat: &[u8],
    open: &memchr::memmem::Finder,
    kind: Kind,
    no: u64,
    file: &str,
    diags: &mut Diags,
) -> Option<Block> {
    let bytes = text.as_bytes();
    if let Some(i) = open.find(bytes) {
        let start = i + open_pat.len();
        match memchr::memmem::find(&bytes[start..], b"\">") {
            Some(j) => {
                return Some(Block {
                    query: text[start..start + j].to_string(),
                    line: no,
                    ..Block::default()
                })
            }
            None => not_recognised(diags, file, no, text, i, kind),
        }
    } else if let Some(i) = looks_like_open(bytes, kind) {
        not_recognised(diags, file, no, text, i, kind);
    }
    None
}

/// A line that is not UTF-8: reported (its block is then broken), and read lossily as the official reader
/// would not.
fn invalid_utf8(
    file: &str,
    no: u64,
    line: &[u8],
    e: std::str::Utf8Error,
    block: Option<&mut Block>,
    diags: &mut Diags,
) -> String {
    diags.push(
        Diagnostic::error("kws.official.invalid_utf8", "invalid UTF-8")
            .file(file)
            .at(no, super::lines::column_of(line, e.valid_up_to()))
            .expected("UTF-8 text")
            .found(format!("byte 0x{:02X}", line[e.valid_up_to()]))
            .hint("Save the file as UTF-8.")
            .official("rusteval panics (stream did not contain valid UTF-8)"),
    );
    if let Some(b) = block {
        b.broken = true;
    }
    String::from_utf8_lossy(line).into_owned()
}

/// A line inside a block, read as rusteval reads a word line: the word, with warnings where rusteval's reading
/// by position goes wrong (attributes out of order, checked on a block's first word until once reported;
/// non-ASCII text before a value), or the panic that stops rusteval (the block is then broken).
fn word_of_line(
    block: &mut Block,
    text: &str,
    no: u64,
    order_warned: &mut bool,
    file: &str,
    diags: &mut Diags,
) {
    match word_line(text) {
        Ok((w, shifted)) => {
            if !*order_warned && block.words.is_empty() && !attribute_order_ok(text) {
                *order_warned = true;
                diags.push(
                    Diagnostic::warning("kws.official.attribute_order", "attributes are not in the order document, x, y, width, height")
                        .file(file)
                        .line(no)
                        .expected("document=\"…\" x=\"…\" y=\"…\" width=\"…\" height=\"…\"")
                        .found(excerpt(text.trim()))
                        .hint("rusteval reads values by position: write the attributes in this order, or use corrected mode.")
                        .official("values are read by position, so every match fails silently"),
                );
            }
            if let Some(col) = shifted {
                diags.push(
                    Diagnostic::warning("kws.official.shifted_value", "non-ASCII text shifts rusteval's value positions")
                        .file(file)
                        .at(no, col)
                        .hint("Avoid non-ASCII characters before the last attribute, or use corrected mode.")
                        .official("reads a value at character positions used as byte offsets"),
                );
            }
            block.words.push(Word { line: no, ..w });
        }
        Err(p) => {
            block.broken = true;
            diags.push(
                Diagnostic::error("kws.official.reader_panic", format!("the official scorer stops on this line: {}", p.plain()))
                    .file(file)
                    .at(no, p.column)
                    .expected("a <word …/> line with 5 to 7 double-quoted values: document, x, y, width, height[, Relevance][, Text]")
                    .found(if text.trim().is_empty() { "blank line".to_string() } else { excerpt(text.trim()) })
                    .hint(p.hint)
                    .official(format!("rusteval crashes on this line ({}) and prints no score", p.plain())),
            );
        }
    }
}

/// A line that opens a block in XML terms but not in rusteval's literal terms.
fn looks_like_open(bytes: &[u8], kind: Kind) -> Option<usize> {
    let tag: &[u8] = match kind {
        Kind::Gt => b"<GTRel",
        Kind::Results => b"<Rel",
    };
    memchr::memmem::find_iter(bytes, tag)
        .find(|&i| matches!(bytes.get(i + tag.len()), Some(b' ' | b'\t' | b'>' | b'/')))
}

fn not_recognised(diags: &mut Diags, file: &str, no: u64, text: &str, at: usize, kind: Kind) {
    let single = text.contains("queryid='");
    diags.push(
        Diagnostic::warning("kws.official.tag_not_recognised", format!("rusteval does not recognise this <{}> opening tag: its block is ignored", kind.tag()))
            .file(file)
            .at(no, super::lines::column_of(text.as_bytes(), at))
            .expected(format!("<{} queryid=\"…\"> written literally", kind.tag()))
            .found(excerpt(text.trim()))
            .hint(if single { "Use double quotes: rusteval only recognises queryid=\"…\"." } else { "Write the tag exactly as <Rel queryid=\"…\"> (no space before >), or use corrected mode." })
            .official("the block is silently ignored"),
    );
}
