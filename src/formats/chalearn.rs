//! ChaLearn LAP 2015 cultural-event files (docs/specs/chalearn-ce.md 2.1, 2.2): `<image_id> <value>` lines, one
//! file per category. Submission values are confidences (Python `float()`), GT values are labels (Python
//! `int()`: `1` positive, anything else negative, `0` optionally "ignore"). Fields are split on runs of spaces
//! or tabs; blank lines are skipped; CRLF / CR / LF line ends and a UTF-8 BOM are accepted. Every problem is a
//! located diagnostic; reading goes on after it.

use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::lines::{column_of, strip_bom, Lines, SliceLines};
use crate::formats::text_file::{Body, TextFile};
use crate::pycompat::{parse_float, parse_int};

/// A GT label as read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    Positive,
    /// Any integer other than 1 and 0.
    Negative,
    Zero,
    /// Not an integer (warned once per file, read as negative).
    NotInteger,
}

/// What a reader saw in one file.
#[derive(Clone, Debug, Default)]
pub struct FileStats {
    /// Non-blank lines.
    pub lines: u64,
    /// Lines refused with an error.
    pub bad: u64,
    /// The file could not be read to its end (a corrupt archive member, an I/O error).
    pub unreadable: bool,
}

/// Splits a line into fields at runs of spaces and tabs: `(byte offset, field)`.
fn fields(line: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < line.len() && (line[i] == b' ' || line[i] == b'\t') {
            i += 1;
        }
        if i >= line.len() {
            return None;
        }
        let start = i;
        while i < line.len() && line[i] != b' ' && line[i] != b'\t' {
            i += 1;
        }
        Some((start, &line[start..i]))
    })
}

/// Which file is read: its path and the code prefix (`chalearn.res` or `chalearn.gt`).
struct Ctx<'a> {
    path: &'a str,
    prefix: &'static str,
}

impl Ctx<'_> {
    fn code(&self, what: &str) -> String {
        format!("{}.{what}", self.prefix)
    }
}

/// Where the lines come from.
enum Source<'a> {
    Slice(SliceLines<'a>),
    Stream(Lines<Box<dyn std::io::BufRead + 'a>>),
}

impl Source<'_> {
    fn next_line(&mut self) -> std::io::Result<Option<&[u8]>> {
        match self {
            Source::Slice(s) => Ok(s.next_line()),
            Source::Stream(s) => s.next_line(),
        }
    }
}

/// Reads lines, checks UTF-8, splits the first two fields, and hands `(id, value, line number, value column)`
/// to `each`; a line with one field is an error here. Returns the stats and how many lines had extra fields.
fn read_pairs(
    file: TextFile<'_>,
    ctx: &Ctx,
    diags: &mut Diags,
    mut each: impl FnMut(&[u8], &[u8], u64, &[u8], usize, &mut Diags) -> bool,
) -> (FileStats, u64, u64) {
    let mut stats = FileStats::default();
    let (mut extra, mut first_extra) = (0u64, 0u64);
    // In-memory content is split in place; anything else (inflated on the fly) is streamed.
    let mut lines = match file.body {
        Body::InMemory(b) => Source::Slice(SliceLines::new(b)),
        Body::Stream(r) => Source::Stream(Lines::new(r).max_line(file.max_line)),
        Body::Unreadable(e) => {
            diags.push(Diagnostic::read_error(file.path, e));
            stats.bad += 1;
            stats.unreadable = true;
            return (stats, 0, 0);
        }
    };
    let mut no = 0u64;
    loop {
        let line = match lines.next_line() {
            Ok(Some(l)) => l,
            Ok(None) => break,
            Err(e) => {
                diags.push(Diagnostic::read_error(file.path, e).line(no + 1));
                stats.bad += 1;
                stats.unreadable = true;
                break;
            }
        };
        no += 1;
        let line = if no == 1 { strip_bom(line) } else { line };
        if line.iter().all(|b| *b == b' ' || *b == b'\t') {
            continue;
        }
        stats.lines += 1;
        if !line.is_ascii() {
            if let Err(col) = crate::formats::lines::utf8(line) {
                diags.push(
                    Diagnostic::error(&ctx.code("encoding"), "invalid UTF-8")
                        .file(ctx.path)
                        .at(no, col)
                        .expected("UTF-8 text")
                        .hint("Save the file as UTF-8.")
                        .official("crashes (UnicodeDecodeError)"),
                );
                stats.bad += 1;
                continue;
            }
        }
        let mut f = fields(line);
        let Some((_, id)) = f.next() else { continue };
        let Some((vcol, value)) = f.next() else {
            diags.push(one_field(ctx, line, id, no));
            stats.bad += 1;
            continue;
        };
        if f.next().is_some() {
            extra += 1;
            if first_extra == 0 {
                first_extra = no;
            }
        }
        if !each(id, value, no, line, vcol, diags) {
            stats.bad += 1;
        }
    }
    (stats, extra, first_extra)
}

fn one_field(ctx: &Ctx, line: &[u8], id: &[u8], no: u64) -> Diagnostic {
    let text = String::from_utf8_lossy(line);
    let sep = [',', ';', '|', ':']
        .into_iter()
        .find(|c| String::from_utf8_lossy(id).contains(*c));
    let what = if ctx.prefix == "chalearn.res" {
        "confidence"
    } else {
        "label"
    };
    let hint = match sep {
        Some(c) => format!(
            "Separate the image id and the {what} with a space, not `{c}`: `image.jpg 0.5`."
        ),
        None => format!("Write `<image_id> <{what}>` on every line."),
    };
    Diagnostic::error(
        &ctx.code("bad_line"),
        format!("the line has one field; expected an image id and a {what}"),
    )
    .file(ctx.path)
    .at(no, column_of(line, line.len()))
    .expected(format!("<image_id> <{what}>"))
    .found(excerpt(&text))
    .hint(hint)
    .official("crashes (IndexError)")
}

fn extra_fields_warning(ctx: &Ctx, count: u64, first: u64) -> Diagnostic {
    Diagnostic::warning(
        &ctx.code("extra_fields"),
        format!("{count} line(s) have more than two fields; the extra fields are ignored"),
    )
    .file(ctx.path)
    .line(first)
    .expected("two fields per line")
    .hint("Write only `<image_id> <value>` on each line.")
    .official("not published; dropscore ignores the extra fields")
}

/// Reads one submission file: `each(id, confidence, line)` for every valid line.
pub fn read_submission(
    file: TextFile<'_>,
    diags: &mut Diags,
    mut each: impl FnMut(&[u8], f64, u64),
) -> FileStats {
    let ctx = Ctx {
        path: file.path,
        prefix: "chalearn.res",
    };
    let (stats, extra, first) = read_pairs(file, &ctx, diags, |id, v, no, line, vcol, diags| {
        match parse_float(v) {
            Some(x) if x.is_finite() => {
                each(id, x, no);
                true
            }
            Some(_) => {
                diags.push(
                    Diagnostic::error(
                        "chalearn.res.nonfinite",
                        "the confidence is not a finite number",
                    )
                    .file(ctx.path)
                    .at(no, column_of(line, vcol))
                    .expected("a finite decimal number")
                    .found(excerpt(&String::from_utf8_lossy(v)))
                    .hint("Write a finite confidence; rank unsure images with a very low value instead of nan or -inf.")
                    .official("not published (NaN makes the sort order undefined)"),
                );
                false
            }
            None => {
                let text = String::from_utf8_lossy(v);
                let hint = if text.contains(',')
                    && parse_float(text.replace(',', ".").as_bytes()).is_some()
                {
                    "Use a decimal point, not a comma: `0.5`.".to_string()
                } else {
                    "Write the confidence as a decimal number, e.g. `0.056313`.".to_string()
                };
                diags.push(
                    Diagnostic::error("chalearn.res.bad_line", "the confidence is not a number")
                        .file(ctx.path)
                        .at(no, column_of(line, vcol))
                        .expected("a decimal number (optional sign and exponent)")
                        .found(excerpt(&text))
                        .hint(hint)
                        .official("crashes (ValueError: could not convert string to float)"),
                );
                false
            }
        }
    });
    if extra > 0 {
        diags.push(extra_fields_warning(&ctx, extra, first));
    }
    stats
}

/// Reads one GT file: `each(id, label, line)` for every line with two fields. A label that is not an integer
/// is read as negative, with one warning per file.
pub fn read_gt(
    file: TextFile<'_>,
    diags: &mut Diags,
    mut each: impl FnMut(&[u8], Label, u64),
) -> FileStats {
    let ctx = Ctx {
        path: file.path,
        prefix: "chalearn.gt",
    };
    let mut odd: Option<(u64, u64, String)> = None;
    let mut odd_count = 0u64;
    let (stats, extra, first) = read_pairs(file, &ctx, diags, |id, v, no, line, vcol, _| {
        let label = match parse_int(v) {
            Some(1) => Label::Positive,
            Some(0) => Label::Zero,
            Some(_) => Label::Negative,
            None => {
                odd_count += 1;
                if odd.is_none() {
                    odd = Some((
                        no,
                        column_of(line, vcol),
                        String::from_utf8_lossy(v).into_owned(),
                    ));
                }
                Label::NotInteger
            }
        };
        each(id, label, no);
        true
    });
    if let Some((no, col, found)) = odd {
        diags.push(
            Diagnostic::warning(
                "chalearn.gt.label",
                format!("{odd_count} label(s) are not integers; read as negative"),
            )
            .file(ctx.path)
            .at(no, col)
            .expected("1 (positive) or another integer (negative)")
            .found(excerpt(&found))
            .hint("Write 1 for images of the category and -1 (or 0) for the others.")
            .official("not published; dropscore reads them as negative"),
        );
    }
    if extra > 0 {
        diags.push(extra_fields_warning(&ctx, extra, first));
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_fields() {
        let v: Vec<_> = fields(b"  a\t\tb  c ").collect();
        assert_eq!(v, vec![(2, &b"a"[..]), (5, &b"b"[..]), (8, &b"c"[..])]);
    }

    #[test]
    fn submission_lines() {
        let bytes = b"\xEF\xBB\xBFa.jpg 0.5\r\n\r\nb.jpg\nc.jpg abc\nd.jpg nan\ne.jpg 1 extra\n";
        let e = TextFile::in_memory("res/X.txt", bytes);
        let mut d = Diags::new();
        let mut got = Vec::new();
        let st = read_submission(e, &mut d, |id, x, no| got.push((id.to_vec(), x, no)));
        assert_eq!(
            got,
            vec![(b"a.jpg".to_vec(), 0.5, 1), (b"e.jpg".to_vec(), 1.0, 6)]
        );
        assert_eq!(st.lines, 5);
        let d = d.finish();
        let codes: Vec<_> = d
            .iter()
            .map(|x| (x.code.as_str(), x.line, x.column))
            .collect();
        assert_eq!(
            codes,
            vec![
                ("chalearn.res.bad_line", Some(3), Some(6)),
                ("chalearn.res.bad_line", Some(4), Some(7)),
                ("chalearn.res.nonfinite", Some(5), Some(7)),
                ("chalearn.res.extra_fields", Some(6), None),
            ]
        );
    }
}
