//! Tests of [`super`]: tokenising ahead hands on what tokenising in turn does.

use super::*;

/// Everything a read hands on: the header, each row (line and fields), where each batch ends, and the
/// diagnostics, as text.
fn trace(input: CsvIn, batch: usize, stop_after: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut d = Diags::new();
    let mut rows = 0;
    let h = read_batched("t", "f.csv", input, b',', batch, &mut d, |b, d| {
        match b {
            Batch::Header(h) => out.push(format!("header {h:?}")),
            Batch::Rows(rs) => {
                for r in rs {
                    out.push(format!("{} {:?}", r.line, r.fields));
                }
                out.push(format!("batch ({} diagnostics)", d.list.len()));
                rows += rs.len();
            }
        }
        rows < stop_after
    });
    out.push(format!("returned {h:?}"));
    out.extend(d.finish().iter().map(|x| format!("{x:?}")));
    out
}

/// A reader that fails after `n` bytes.
struct Failing<'a>(&'a [u8], usize);
impl Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.1 == 0 {
            return Err(std::io::Error::other("disk gone"));
        }
        let n = buf.len().min(self.1).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        self.1 -= n;
        Ok(n)
    }
}

/// Tokenising ahead hands on the same records, batches and diagnostics as tokenising in turn: over several
/// blocks, with invalid UTF-8, short rows, blank lines, quoted newlines, a BOM, a stop and a failing read.
#[test]
fn ahead_is_in_turn() {
    let mut text = b"\xEF\xBB\xBF\n id ,v\n".to_vec();
    // Enough blocks to fill the channel while the checker stops early.
    for i in 0..(4 * BLOCKS * BLOCK_RECORDS + 77) {
        match i % 997 {
            5 => text.extend_from_slice(b"bad\xff,1\n"),
            9 => text.extend_from_slice(b"short\n"),
            11 => text.extend_from_slice(b"\n"),
            13 => text.extend_from_slice(b"\"q\nq\",2\n"),
            _ => text.extend_from_slice(format!("id{i},{i}.5\n").as_bytes()),
        }
    }
    let b: &[u8] = &text;
    for batch in [1, 32, 5000] {
        for stop in [usize::MAX, 0, 10, 9000] {
            let want = trace(CsvIn::Stream(Box::new(b)), batch, stop);
            let got = trace(CsvIn::Ahead(Box::new(b)), batch, stop);
            let k = got.iter().zip(&want).position(|(a, b)| a != b);
            assert_eq!(
                got.len(),
                want.len(),
                "{batch} {stop} {k:?} {:?}",
                k.map(|k| (&got[k], &want[k]))
            );
            assert_eq!(got, want);
        }
        let fails = |n| Box::new(Failing(b, n));
        let want = trace(CsvIn::Stream(fails(100_000)), batch, usize::MAX);
        assert!(want.iter().any(|l| l.contains("disk gone")));
        assert_eq!(trace(CsvIn::Ahead(fails(100_000)), batch, usize::MAX), want);
    }
}

/// What an `early` function works out reaches the row of its record, in every block; rows read in turn get
/// nothing early, and the rows are otherwise the same.
#[test]
fn early_reaches_its_row() {
    let mut text = b"id,v\n".to_vec();
    for i in 0..(3 * BLOCK_RECORDS + 5) {
        match i % 101 {
            7 => text.extend_from_slice(b"short\n\n"),
            _ => text.extend_from_slice(format!("id{i},{i}\n").as_bytes()),
        }
    }
    let b: &[u8] = &text;
    let read = |input: CsvIn| {
        let mut rows = Vec::new();
        let early = |recs: &Records, out: &mut Worked| {
            out.early.extend(recs.iter().map(|r| {
                Early {
                    key: Some(r.line()),
                    number: std::str::from_utf8(raw_field(&r, 1))
                        .ok()
                        .and_then(|s| s.parse().ok()),
                    row: Some(Some(r.line() as u32)),
                }
            }));
            out.per_record = 2;
            for r in recs.iter() {
                let line = r.line() as f64;
                out.numbers.extend([line, f64::NAN]);
            }
        };
        let mut d = Diags::new();
        read_batched_with("t", "f.csv", input, b',', 32, early, &mut d, |ev, _| {
            if let Batch::Rows(rs) = ev {
                let numbers = |r: &Row| r.numbers.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                rows.extend(
                    rs.iter()
                        .map(|r| (r.line, r.get(1).to_string(), r.early, numbers(r))),
                );
            }
            true
        });
        rows
    };
    let ahead = read(CsvIn::Ahead(Box::new(b)));
    let in_turn = read(CsvIn::Stream(Box::new(b)));
    assert_eq!(ahead.len(), in_turn.len());
    assert!(ahead.len() > 3 * BLOCK_RECORDS - 200);
    for ((line, v, early, numbers), (line2, v2, none, no_numbers)) in ahead.iter().zip(&in_turn) {
        assert_eq!((line, v), (line2, v2));
        assert_eq!(*none, Early::default());
        assert!(no_numbers.is_empty());
        assert_eq!(*numbers, [(*line as f64).to_bits(), f64::NAN.to_bits()]);
        assert_eq!(early.key, Some(*line));
        assert_eq!(early.number, v.parse().ok());
        assert!(early.row.is_some_and(|r| r.is_some()));
    }
}
