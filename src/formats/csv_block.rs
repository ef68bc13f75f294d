//! A block of CSV records stored one after another ([`Records`]): their bytes in one buffer, each field's end
//! in another, each record's line. [`super::csv_fast::Tokens::read_into`] appends a plain line with one copy
//! of its text and one end per field, where a `csv::ByteRecord` per record took a copy per field into records
//! scattered over the heap (1M x 7 fields: the tokenising thread's loads of 4,096 records' headers per block
//! were a third of its time).

/// Records one after another: `text` holds their bytes (fields without delimiters, as `csv::ByteRecord`
/// holds them), `ends` each field's end in `text`, `recs` each record's first end and line.
#[derive(Default)]
pub struct Records {
    text: Vec<u8>,
    /// `text` once [`Records::seal`] found it UTF-8 (then `text` is empty until [`Records::clear`]).
    checked: Option<String>,
    ends: Vec<usize>,
    recs: Vec<Meta>,
}

/// Where a record is in [`Records`]: its text starts at `start`, its field ends at `ends[first..]` (up to the
/// next record's `first`), and it starts on 1-based line `line`.
#[derive(Clone, Copy)]
struct Meta {
    start: usize,
    first: usize,
    line: u64,
}

/// One record of [`Records`], read in place.
#[derive(Clone, Copy)]
pub struct Record<'a> {
    text: &'a [u8],
    /// The block's text when it is all UTF-8 ([`Records::seal`]).
    checked: Option<&'a str>,
    ends: &'a [usize],
    start: usize,
    line: u64,
}

impl Records {
    pub fn len(&self) -> usize {
        self.recs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }

    /// The bytes the records hold (their fields and the bytes between them).
    pub fn bytes(&self) -> usize {
        self.all().len()
    }

    /// The bytes the buffers have room for (a block that grew past what blocks need is not kept).
    pub fn capacity(&self) -> usize {
        let text = self
            .checked
            .as_ref()
            .map_or(self.text.capacity(), String::capacity);
        text + self.ends.capacity() * std::mem::size_of::<usize>()
    }

    /// The records' text.
    #[inline]
    fn all(&self) -> &[u8] {
        self.checked.as_ref().map_or(&self.text, |s| s.as_bytes())
    }

    /// Checks once whether the whole text is UTF-8 (on the tokenising thread, in one pass over the block), so
    /// that each record's fields are cut from it without checking them ([`Record::checked_field`]); no record can
    /// be pushed until [`Records::clear`].
    pub fn seal(&mut self) {
        if self.checked.is_none() {
            match String::from_utf8(std::mem::take(&mut self.text)) {
                Ok(s) => self.checked = Some(s),
                Err(e) => self.text = e.into_bytes(),
            }
        }
    }

    pub fn clear(&mut self) {
        if let Some(s) = self.checked.take() {
            self.text = s.into_bytes();
        }
        self.text.clear();
        self.ends.clear();
        self.recs.clear();
    }

    /// Record `k` (a valid index).
    #[inline]
    pub fn get(&self, k: usize) -> Record<'_> {
        let m = self.recs[k];
        let last = self.recs.get(k + 1).map_or(self.ends.len(), |n| n.first);
        Record {
            text: self.all(),
            checked: self.checked.as_deref(),
            ends: &self.ends[m.first..last],
            start: m.start,
            line: m.line,
        }
    }

    /// The records in order.
    pub fn iter(&self) -> impl Iterator<Item = Record<'_>> + '_ {
        (0..self.len()).map(move |k| self.get(k))
    }

    /// Appends a record on line `line` whose bytes are `text`, its fields separated by the one byte at each
    /// offset `ends` gives (ascending, within `text`: a field ends there; the last field ends at `text.len()`).
    #[inline]
    pub fn push(&mut self, text: &[u8], ends: impl Iterator<Item = usize>, line: u64) {
        self.unseal();
        let start = self.text.len();
        self.recs.push(Meta {
            start,
            first: self.ends.len(),
            line,
        });
        self.text.extend_from_slice(text);
        self.ends.extend(ends.map(|e| start + e));
        self.ends.push(start + text.len());
    }

    /// Appends a record the `csv` crate read (its line from its position, 0 without one).
    pub fn push_record(&mut self, rec: &csv::ByteRecord) {
        self.unseal();
        let line = rec.position().map_or(0, |p| p.line());
        let start = self.text.len();
        self.recs.push(Meta {
            start,
            first: self.ends.len(),
            line,
        });
        for (i, f) in rec.iter().enumerate() {
            if i > 0 {
                self.text.push(b',');
            }
            self.text.extend_from_slice(f);
            self.ends.push(self.text.len());
        }
    }
}

impl Records {
    /// Makes the text pushable again after [`Records::seal`] (pushing normally follows a clear).
    #[inline]
    fn unseal(&mut self) {
        if let Some(s) = self.checked.take() {
            self.text = s.into_bytes();
        }
    }
}

impl<'a> Record<'a> {
    /// Field `i` as text when the block was found UTF-8 by [`Records::seal`] and the field is cut at character
    /// boundaries (`None`: not checked so; the caller checks the bytes).
    #[inline]
    pub fn checked_field(&self, i: usize) -> Option<&'a str> {
        self.checked?.get(self.range(i)?)
    }

    /// The number of fields.
    #[inline]
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The 1-based line the record starts on.
    #[inline]
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Field `i`, if there is one.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        self.text.get(self.range(i)?)
    }

    /// Where field `i` is in [`Record::as_slice`], if there is one.
    #[inline]
    pub fn range_in(&self, i: usize) -> Option<std::ops::Range<usize>> {
        let r = self.range(i)?;
        Some(r.start - self.start..r.end - self.start)
    }

    /// Where field `i` is in the block's text.
    #[inline]
    fn range(&self, i: usize) -> Option<std::ops::Range<usize>> {
        let e = *self.ends.get(i)?;
        let s = match i {
            0 => self.start,
            _ => self.ends[i - 1] + 1,
        };
        Some(s..e)
    }

    /// The record's bytes: its fields, one byte between two.
    #[inline]
    pub fn as_slice(&self) -> &'a [u8] {
        let end = self.ends.last().copied().unwrap_or(self.start);
        self.text.get(self.start..end).unwrap_or(b"")
    }

    /// The fields in order.
    pub fn iter(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        (0..self.len()).map(move |i| self.get(i).unwrap_or(b""))
    }
}

#[cfg(test)]
mod tests {
    use super::Records;

    /// Records pushed either way read back their fields, bytes and lines.
    #[test]
    fn records_read_back() {
        let mut r = Records::default();
        r.push(b"a,bc,d", [1, 4].into_iter(), 7);
        let mut rec = csv::ByteRecord::from(vec!["", "xy", ""]);
        let mut pos = csv::Position::new();
        pos.set_line(9);
        rec.set_position(Some(pos));
        r.push_record(&rec);
        r.push(b"", std::iter::empty(), 10);
        assert_eq!(r.len(), 3);
        let a = r.get(0);
        assert_eq!(a.iter().collect::<Vec<_>>(), [&b"a"[..], b"bc", b"d"]);
        assert_eq!(
            (a.as_slice(), a.line(), a.get(3)),
            (&b"a,bc,d"[..], 7, None)
        );
        assert_eq!(a.range_in(2), Some(5..6));
        let b = r.get(1);
        assert_eq!(b.iter().collect::<Vec<_>>(), [&b""[..], b"xy", b""]);
        assert_eq!((b.as_slice(), b.line(), b.len()), (&b",xy,"[..], 9, 3));
        assert_eq!(b.range_in(1), Some(1..3));
        let c = r.get(2);
        assert_eq!((c.len(), c.get(0), c.line()), (1, Some(&b""[..]), 10));
        assert_eq!(r.bytes(), 10);
        assert_eq!(r.get(1).checked_field(1), None);
        r.seal();
        assert_eq!(r.get(1).checked_field(1), Some("xy"));
        assert_eq!(
            r.get(0).iter().collect::<Vec<_>>(),
            [&b"a"[..], b"bc", b"d"]
        );
        r.push(b"\xff", std::iter::empty(), 11);
        assert_eq!((r.len(), r.bytes()), (4, 11));
        r.seal();
        assert_eq!(r.get(0).checked_field(0), None);
        r.clear();
        assert!(r.is_empty());
    }
}
