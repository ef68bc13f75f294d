//! Tests of [`super`]: the records and positions are the `csv` crate's, whatever the text and the reads.

use super::*;

/// Each record's fields, byte, line and record number, then how the reading ended.
type Trace = (Vec<(Vec<Vec<u8>>, u64, u64, u64)>, String);

fn of(rec: &csv::ByteRecord) -> (Vec<Vec<u8>>, u64, u64, u64) {
    let p = rec.position().cloned().unwrap_or_else(csv::Position::new);
    (
        rec.iter().map(<[u8]>::to_vec).collect(),
        p.byte(),
        p.line(),
        p.record(),
    )
}

/// What the `csv` crate reads, with [`LineCount::fix`]'s lines.
fn by_crate(input: impl Read, delimiter: u8) -> Trace {
    let mut rdr = reader(input, delimiter);
    let mut rec = csv::ByteRecord::new();
    let mut out = Vec::new();
    loop {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {
                rdr.get_ref().fix(&mut rec);
                out.push(of(&rec));
            }
            Ok(false) => return (out, "end".into()),
            Err(e) => return (out, e.to_string()),
        }
    }
}

fn by_tokens(input: impl Read, delimiter: u8, chunk: usize) -> Trace {
    let mut t = Tokens::with_chunk(input, delimiter, chunk);
    let mut rec = csv::ByteRecord::new();
    let mut out = Vec::new();
    loop {
        match t.read(&mut rec) {
            Ok(true) => out.push(of(&rec)),
            Ok(false) => return (out, "end".into()),
            Err(e) => return (out, e.to_string()),
        }
    }
}

/// Each record's fields and line, then how the reading ended.
type Lines = (Vec<(Vec<Vec<u8>>, u64)>, String);

/// The fields and lines [`Tokens::read_into`] gives, then how the reading ended.
fn by_records(input: impl Read, delimiter: u8, chunk: usize) -> Lines {
    let mut t = Tokens::with_chunk(input, delimiter, chunk);
    let mut recs = Records::default();
    let end = loop {
        match t.read_into(&mut recs) {
            Ok(true) => {}
            Ok(false) => break "end".to_string(),
            Err(e) => break e.to_string(),
        }
    };
    let out = recs
        .iter()
        .map(|r| (r.iter().map(<[u8]>::to_vec).collect(), r.line()));
    (out.collect(), end)
}

/// Fields and lines of a [`Trace`].
fn fields_and_lines(t: &Trace) -> Lines {
    let recs = t.0.iter().map(|(f, _, line, _)| (f.clone(), *line));
    (recs.collect(), t.1.clone())
}

/// A reader that hands out at most `step` bytes a read and fails after `fail` bytes.
struct Drip<'a> {
    data: &'a [u8],
    step: usize,
    fail: usize,
}
impl Read for Drip<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.fail == 0 {
            return Err(std::io::Error::other("disk gone"));
        }
        let n = buf.len().min(self.step).min(self.fail).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        self.fail -= n;
        Ok(n)
    }
}

/// Random texts of plain and awkward pieces (quotes, `\r`, blank lines, empty fields, no last line end), read
/// with several delimiters, chunk sizes and read sizes: the same records, positions and end as the crate's.
#[test]
fn tokens_are_the_crates() {
    let pieces: &[&[u8]] = &[
        b"a",
        b"bb",
        b",",
        b",",
        b"\n",
        b"\n",
        b"\r\n",
        b"\r",
        b"\"",
        b" ",
        b";",
        b"\t",
        b"\xc3\xa9",
        b"\xff",
        b"x,y\n",
        b"\n\n",
        b"\r\n\r\n",
        b"1.5",
        b"\"q\nq\"",
    ];
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for case in 0..20_000 {
        let n = crate::xorshift64(&mut x) % 40;
        let mut text = Vec::new();
        // Most texts plain up to a point, so that the switch to the crate comes after plain records.
        let plain_part = crate::xorshift64(&mut x).is_multiple_of(3);
        for k in 0..n {
            let p = pieces[(crate::xorshift64(&mut x) % pieces.len() as u64) as usize];
            if plain_part && k < n / 2 && (p.contains(&b'"') || p.contains(&b'\r')) {
                continue;
            }
            text.extend_from_slice(p);
        }
        let delimiter = [b',', b';', b'\t', b'"', b'\n'][case % 5];
        let step = 1 + (crate::xorshift64(&mut x) % 9) as usize;
        let fail = if case % 7 == 0 {
            text.len() / 2
        } else {
            usize::MAX
        };
        let want = by_crate(
            Drip {
                data: &text,
                step,
                fail,
            },
            delimiter,
        );
        for chunk in [1, 3, 64] {
            let got = by_tokens(
                Drip {
                    data: &text,
                    step,
                    fail,
                },
                delimiter,
                chunk,
            );
            assert_eq!(
                got,
                want,
                "{:?} delimiter {delimiter} chunk {chunk}",
                String::from_utf8_lossy(&text)
            );
            let data = Drip {
                data: &text,
                step,
                fail,
            };
            assert_eq!(
                by_records(data, delimiter, chunk),
                fields_and_lines(&want),
                "{:?} delimiter {delimiter} chunk {chunk}",
                String::from_utf8_lossy(&text)
            );
        }
    }
}

/// A long plain file read in the default chunks: every record plain, the same as the crate's.
#[test]
fn long_plain_file() {
    let mut text = b"id,v\n".to_vec();
    for i in 0..100_000 {
        text.extend_from_slice(format!("id{i},{i}.5\n").as_bytes());
        if i % 1000 == 0 {
            text.extend_from_slice(b"\n");
        }
    }
    text.extend_from_slice(b"last,\"quoted\"\r\nx,y");
    let b: &[u8] = &text;
    let want = by_crate(b, b',');
    assert_eq!(by_tokens(b, b',', CHUNK), want);
    assert_eq!(by_records(b, b',', CHUNK), fields_and_lines(&want));
}
