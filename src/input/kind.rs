//! What a file is, from its first bytes (magic numbers first, then structure) and, where the bytes are shared
//! by several kinds (zip-based Office documents, OLE files), its name. The shell names a file of the wrong
//! kind in plain words ("`report.docx` is a Word document") instead of letting a parser fail on it.

/// A file's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Empty,
    Png,
    Jpeg,
    Gif,
    Tiff,
    Webp,
    Pdf,
    Word,
    Excel,
    PowerPoint,
    OpenDocument,
    /// A zip archive the input layer did not open (an Office document is one), or a `.npz`.
    Zip,
    Npz,
    Gzip,
    Npy,
    Xml,
    Json,
    /// UTF-8 text (CSV, TSV, TREC lines, plain lines).
    Text,
    /// UTF-16 text (a byte-order mark `FF FE` or `FE FF`, or ASCII with a NUL byte beside each character): a
    /// spreadsheet's "Unicode text" export, which the readers (UTF-8) cannot read.
    Utf16,
    /// Anything else: not UTF-8 text and no known format.
    Binary,
}

impl Kind {
    /// The kind in plain words, with its article: "a Word document", "empty (0 bytes)".
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Empty => "empty (0 bytes)",
            Kind::Png => "a PNG image",
            Kind::Jpeg => "a JPEG image",
            Kind::Gif => "a GIF image",
            Kind::Tiff => "a TIFF image",
            Kind::Webp => "a WebP image",
            Kind::Pdf => "a PDF document",
            Kind::Word => "a Word document",
            Kind::Excel => "an Excel workbook",
            Kind::PowerPoint => "a PowerPoint presentation",
            Kind::OpenDocument => "an OpenDocument file",
            Kind::Zip => "a zip archive",
            Kind::Npz => "a NumPy .npz archive",
            Kind::Gzip => "a gzip file",
            Kind::Npy => "a NumPy .npy array",
            Kind::Xml => "an XML file",
            Kind::Json => "a JSON file",
            Kind::Text => "a text file",
            Kind::Utf16 => "UTF-16 text",
            Kind::Binary => "binary data, not text",
        }
    }
    /// Text-based kinds (what a line or document parser reads).
    pub fn is_text(self) -> bool {
        matches!(self, Kind::Xml | Kind::Json | Kind::Text)
    }
    /// Images.
    pub fn is_image(self) -> bool {
        matches!(
            self,
            Kind::Png | Kind::Jpeg | Kind::Gif | Kind::Tiff | Kind::Webp
        )
    }
}

/// The kind of the file named `name` whose content starts with `head` (`total` = its whole size; 0 with an
/// empty head is an empty file).
pub fn sniff(name: &str, head: &[u8], total: u64) -> Kind {
    if total == 0 && head.is_empty() {
        return Kind::Empty;
    }
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    if let Some(kind) = by_magic(head) {
        return kind;
    }
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return zip_kind(head, &ext);
    }
    if head.starts_with(&[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) {
        // An OLE compound file: the Office formats before 2007.
        return match ext.as_str() {
            "xls" => Kind::Excel,
            "ppt" => Kind::PowerPoint,
            _ => Kind::Word,
        };
    }
    text_kind(head)
}

/// The kinds that one magic number names alone (images, PDF, `.npy`, gzip).
fn by_magic(head: &[u8]) -> Option<Kind> {
    let starts = |m: &[u8]| head.starts_with(m);
    Some(if starts(b"\x89PNG\r\n\x1a\n") {
        Kind::Png
    } else if starts(&[0xff, 0xd8, 0xff]) {
        Kind::Jpeg
    } else if starts(b"GIF87a") || starts(b"GIF89a") {
        Kind::Gif
    } else if starts(b"II*\0") || starts(b"MM\0*") {
        Kind::Tiff
    } else if starts(b"RIFF") && head.get(8..12) == Some(b"WEBP") {
        Kind::Webp
    } else if starts(b"%PDF-") {
        Kind::Pdf
    } else if starts(b"\x93NUMPY") {
        Kind::Npy
    } else if starts(&[0x1f, 0x8b]) {
        Kind::Gzip
    } else {
        return None;
    })
}

/// What a zip is: an Office or OpenDocument file (by extension, or by the names of its first members), a
/// `.npz`, or a plain archive.
fn zip_kind(head: &[u8], ext: &str) -> Kind {
    let has = |s: &[u8]| memchr::memmem::find(head, s).is_some();
    match ext {
        "docx" | "docm" | "dotx" => Kind::Word,
        "xlsx" | "xlsm" | "xltx" => Kind::Excel,
        "pptx" | "pptm" => Kind::PowerPoint,
        "odt" | "ods" | "odp" => Kind::OpenDocument,
        "npz" => Kind::Npz,
        _ if has(b"[Content_Types].xml") => {
            if has(b"word/") {
                Kind::Word
            } else if has(b"xl/") {
                Kind::Excel
            } else if has(b"ppt/") {
                Kind::PowerPoint
            } else {
                Kind::Zip
            }
        }
        _ if has(b"application/vnd.oasis.opendocument") => Kind::OpenDocument,
        _ => Kind::Zip,
    }
}

/// Text (XML, JSON or other) or binary data. Text with a stray byte or in another encoding is still text (its
/// reader locates the bad byte and asks for UTF-8); binary data has NUL bytes or many control characters.
fn text_kind(head: &[u8]) -> Kind {
    if is_utf16(head) {
        return Kind::Utf16;
    }
    let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let controls = text
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1b))
        .count();
    if text.contains(&0) || controls * 10 > text.len() {
        return Kind::Binary;
    }
    match text.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'<') => Kind::Xml,
        Some(b'{') | Some(b'[') => Kind::Json,
        Some(_) => Kind::Text,
        None => Kind::Text,
    }
}

/// UTF-16: a byte-order mark, or (without one) text whose every other byte is NUL, on the same side, beside
/// a non-NUL byte (ASCII written as UTF-16LE or UTF-16BE), over at least two characters.
fn is_utf16(head: &[u8]) -> bool {
    if head.starts_with(&[0xff, 0xfe]) || head.starts_with(&[0xfe, 0xff]) {
        return true;
    }
    let pairs = &head[..head.len() & !1];
    if pairs.len() < 4 {
        return false;
    }
    let side = |nul: usize| {
        pairs
            .chunks_exact(2)
            .all(|p| p[nul] == 0 && p[1 - nul] != 0)
    };
    side(1) || side(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert_eq!(sniff("a.txt", b"", 0), Kind::Empty);
        assert_eq!(sniff("a.png", b"\x89PNG\r\n\x1a\n\0\0", 10), Kind::Png);
        assert_eq!(sniff("a.jpg", &[0xff, 0xd8, 0xff, 0xe0], 4), Kind::Jpeg);
        assert_eq!(sniff("r.docx", b"PK\x03\x04....", 9), Kind::Word);
        assert_eq!(
            sniff("r.zip", b"PK\x03\x04..[Content_Types].xml..xl/", 40),
            Kind::Excel
        );
        assert_eq!(sniff("a.pdf", b"%PDF-1.7", 8), Kind::Pdf);
        assert_eq!(sniff("a.xml", b"\xef\xbb\xbf  <?xml", 9), Kind::Xml);
        assert_eq!(sniff("a.json", b"\n[{\"a\":1}]", 10), Kind::Json);
        assert_eq!(sniff("a.csv", b"id,label\n1,0\n", 13), Kind::Text);
        assert_eq!(sniff("a.bin", b"\x00\x00\x00a", 4), Kind::Binary);
        assert_eq!(sniff("a.csv", b"\xff\xfei\x00d\x00", 6), Kind::Utf16);
        assert_eq!(sniff("a.csv", b"\xfe\xff\x00i\x00d", 6), Kind::Utf16);
        assert_eq!(sniff("a.csv", b"i\x00d\x00,\x00", 6), Kind::Utf16);
        assert_eq!(sniff("a.csv", b"\x00i\x00d\x00,", 6), Kind::Utf16);
        assert_eq!(sniff("a.bin", b"\x01\x02\x03", 3), Kind::Binary);
        // A stray byte or another encoding is text: its reader locates the byte.
        assert_eq!(sniff("a.csv", b"id,label\np1,Piz\xffan\n", 20), Kind::Text);
    }
}
