//! The memory budget of one run (README, "Limits and the memory budget"). One number, `max_memory`
//! (default 2 GiB natively, 1 GiB in the page; `--set max_memory=4GiB` raises it), from which every size
//! rule derives: the input layer's per-entry and total decompressed caps, the longest line, attribute or
//! field a reader holds, and the size rules of the algorithms that allocate in proportion to their input
//! (FID's covariance matrices, fest's component tables, whole-entry reads). Each rule is checked before
//! allocating, and a refusal names the limit and how to raise it.

use std::io;

/// The default budget: 2 GiB natively, 1 GiB in the page (a browser tab's heap is smaller and shared).
pub const DEFAULT_MAX_MEMORY: u64 = if cfg!(target_arch = "wasm32") {
    1 << 30
} else {
    2 << 30
};

/// The default as the option table shows it.
pub const DEFAULT_TEXT: &str = if cfg!(target_arch = "wasm32") {
    "1GiB"
} else {
    "2GiB"
};

/// What a refusal tells the user to do.
pub const RAISE: &str =
    "raise the budget with --set max_memory=… (e.g. 4GiB) if the machine has the memory";

/// The budget and the limits derived from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub max_memory: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_memory: DEFAULT_MAX_MEMORY,
        }
    }
}

impl Budget {
    pub fn new(max_memory: u64) -> Budget {
        Budget {
            max_memory: max_memory.max(16 << 20),
        }
    }
    /// The budget named by `max_memory` in `--set` pairs, or the default.
    pub fn from_set(set: &[(String, String)]) -> Budget {
        set.iter()
            .rev()
            .find(|(k, _)| k.trim() == "max_memory")
            .and_then(|(_, v)| parse_size(v).ok())
            .map(Budget::new)
            .unwrap_or_default()
    }
    /// Longest line, XML event or field a streaming reader holds: 1/32 of the budget (64 MiB by default).
    pub fn field_limit(&self) -> u64 {
        self.max_memory / 32
    }
    /// Largest decompressed size of one entry (and of a whole-entry read): half the budget.
    pub fn entry_limit(&self) -> u64 {
        self.max_memory / 2
    }
    /// Decompressed bytes across all the entries of a run: twice the budget (they are streamed, not held).
    pub fn total_limit(&self) -> u64 {
        self.max_memory.saturating_mul(2)
    }
    /// `Ok` when an allocation of `need` bytes for `what` fits the budget; otherwise the refusal's text.
    pub fn check(&self, what: &str, need: u64) -> Result<(), String> {
        if need <= self.max_memory {
            Ok(())
        } else {
            Err(format!(
                "{what} needs about {} of memory, over the memory budget max_memory = {}: refused before allocating; {RAISE}",
                human(need),
                human(self.max_memory)
            ))
        }
    }
}

/// Bytes the metric families (classification, regression) hold for one GT row besides its id: the value and
/// line, the id table's entry (at most half full), the submission's value and line, the per-item table's
/// order and columns (README, "Limits and the memory budget").
pub const FAMILY_ROW_BYTES: u64 = 96;

/// The located refusal of a size rule: `input.limit` naming the limit and how to raise it.
pub fn refusal(
    file: &str,
    line: Option<u64>,
    what: &str,
    need: u64,
    budget: Budget,
) -> crate::diag::Diagnostic {
    let text = budget.check(what, need).err().unwrap_or_default();
    let d = crate::diag::Diagnostic::error("input.limit", text)
        .file(file)
        .hint("The input is larger than the memory budget allows; see README, \"Limits and the memory budget\".");
    match line {
        Some(l) => d.line(l),
        None => d,
    }
}

/// Parses `2GiB`, `512MiB`, `4G`, `1.5GB`, `800M`, `65536` (bytes). Units are binary (KiB, MiB, GiB, TiB;
/// `K`, `M`, `G`, `T` and the `…B` forms read the same).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let x: f64 = num
        .parse()
        .map_err(|_| format!("expected a size such as 2GiB or 512MiB, found `{s}`"))?;
    let mult: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return Err(format!("unknown size unit in `{s}` (use KiB, MiB, GiB)")),
    };
    let v = x * mult as f64;
    if !v.is_finite() || v < (16u64 << 20) as f64 || v > (1u64 << 50) as f64 {
        return Err(format!(
            "max_memory must be between 16MiB and 1PiB, found `{s}`"
        ));
    }
    Ok(v as u64)
}

/// `2 GiB`, `64 MiB`, `1.5 GiB`, `900 bytes`.
pub fn human(b: u64) -> String {
    const UNITS: [(&str, u64); 4] = [
        ("TiB", 1 << 40),
        ("GiB", 1 << 30),
        ("MiB", 1 << 20),
        ("KiB", 1 << 10),
    ];
    for (name, size) in UNITS {
        if b >= size {
            let x = b as f64 / size as f64;
            return if (x - x.round()).abs() < 0.05 {
                format!("{} {name}", x.round())
            } else {
                format!("{x:.1} {name}")
            };
        }
    }
    format!("{b} bytes")
}

/// A refusal raised inside a reader: an `io::Error` whose text names the limit and how to raise it.
/// [`crate::Diagnostic::read_error`] turns it into an `input.limit` diagnostic.
pub fn limit_error(msg: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::OutOfMemory, LimitError(msg.into()))
}

/// Whether an error is a refusal by budget: one made by [`limit_error`] (and passed on as it is).
pub fn is_limit(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<LimitError>())
}

#[derive(Debug)]
struct LimitError(String);

impl std::fmt::Display for LimitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LimitError {}

/// A `BufRead` that refuses to hand out more than `limit` bytes without a line end (`\n` or `\r`): wrapped
/// around a reader that buffers whole lines (`read_until`, `lines`), it bounds the line it can buffer.
pub struct LineGuard<R> {
    inner: R,
    limit: u64,
    run: u64,
    line: u64,
}

impl<R: io::BufRead> LineGuard<R> {
    pub fn new(inner: R, limit: u64) -> Self {
        LineGuard {
            inner,
            limit,
            run: 0,
            line: 1,
        }
    }
}

impl<R: io::BufRead> io::Read for LineGuard<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let avail = io::BufRead::fill_buf(self)?;
            let n = avail.len().min(buf.len());
            buf[..n].copy_from_slice(&avail[..n]);
            n
        };
        io::BufRead::consume(self, n);
        Ok(n)
    }
}

impl<R: io::BufRead> io::BufRead for LineGuard<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.run > self.limit {
            return Err(line_too_long(self.line, self.limit));
        }
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        if let Ok(buf) = self.inner.fill_buf() {
            let chunk = &buf[..amt.min(buf.len())];
            match memchr::memrchr2(b'\n', b'\r', chunk) {
                Some(i) => {
                    self.line += memchr::memchr_iter(b'\n', chunk).count() as u64;
                    self.run = (chunk.len() - i - 1) as u64;
                }
                None => self.run += chunk.len() as u64,
            }
        }
        self.inner.consume(amt);
    }
}

/// The refusal of a line longer than the field limit.
pub fn line_too_long(line: u64, limit: u64) -> io::Error {
    limit_error(format!(
        "line {line} is longer than the field limit of {} (1/32 of max_memory): refused before buffering it; {RAISE}",
        human(limit)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, Read};

    #[test]
    fn sizes() {
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("512 MiB"), Ok(512 << 20));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert!(parse_size("1KiB").is_err());
        assert!(parse_size("lots").is_err());
        assert_eq!(human(2 << 30), "2 GiB");
        assert_eq!(human(64 << 20), "64 MiB");
        let b = Budget::default();
        assert_eq!(b.field_limit(), 64 << 20);
        let set = vec![("max_memory".to_string(), "4GiB".to_string())];
        assert_eq!(Budget::from_set(&set).max_memory, 4 << 30);
        assert!(b
            .check("x", 3 << 30)
            .unwrap_err()
            .contains("--set max_memory="));
    }

    #[test]
    fn line_guard_bounds_lines() {
        let data = b"short\nline two\r\n0123456789abcdef\nz";
        let mut ok = String::new();
        LineGuard::new(io::BufReader::with_capacity(4, &data[..]), 64)
            .read_to_string(&mut ok)
            .unwrap();
        assert_eq!(ok.as_bytes(), data);
        let mut g = LineGuard::new(io::BufReader::with_capacity(4, &data[..]), 10);
        let mut v = Vec::new();
        let mut lines = 0;
        let err = loop {
            v.clear();
            match g.read_until(b'\n', &mut v) {
                Ok(0) => panic!("no refusal"),
                Ok(_) => lines += 1,
                Err(e) => break e,
            }
        };
        assert_eq!(lines, 2);
        assert!(v.len() <= 10 + 4, "{}", v.len());
        assert!(err.to_string().starts_with("line 3 is longer"), "{err}");
    }
}
