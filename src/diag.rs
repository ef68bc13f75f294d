//! Diagnostics: every problem found in the input, located and explained.
//!
//! The nine schema-1 fields of the specs README ("Diagnostics") are always serialised, `null` when absent,
//! in the documented order; `message` (a one-line human text) and the image/binary locators are extensions.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Blocks the affected score.
    Error,
    /// Score computed; may differ from what the user intended.
    Warning,
    Info,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: String,
    pub file: Option<String>,
    pub line: Option<u64>,
    pub column: Option<u64>,
    pub expected: Option<String>,
    pub found: Option<String>,
    pub hint: Option<String>,
    pub official_behaviour: Option<String>,
    pub message: String,
    /// Pixel `(x, y)` for images.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pixel: Option<[u64; 2]>,
    /// Byte offset for binary arrays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
}

impl Diagnostic {
    pub fn new(severity: Severity, code: &str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code: code.to_string(),
            file: None,
            line: None,
            column: None,
            expected: None,
            found: None,
            hint: None,
            official_behaviour: None,
            message: message.into(),
            pixel: None,
            offset: None,
        }
    }
    pub fn error(code: &str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }
    pub fn warning(code: &str, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }
    pub fn info(code: &str, message: impl Into<String>) -> Self {
        Self::new(Severity::Info, code, message)
    }
    /// A file that could not be read. A refusal by the memory budget ([`crate::budget::limit_error`]) becomes
    /// `input.limit`; Rust's own wording ("(os error N)", "failed to fill whole buffer") is not shown.
    pub fn read_error(file: &str, e: impl std::borrow::Borrow<std::io::Error>) -> Self {
        let e = e.borrow();
        let text = e.to_string();
        if crate::budget::is_limit(e) {
            return Self::error("input.limit", text)
                .file(file)
                .hint("The input is larger than the memory budget allows; see README, \"Limits and the memory budget\".");
        }
        Self::error(
            "input.read_error",
            format!("cannot read the file: {}", plain_io(&text)),
        )
        .file(file)
        .hint("Check that the file is complete; re-create the archive if it is compressed.")
    }
    pub fn file(mut self, file: &str) -> Self {
        self.file = Some(file.to_string());
        self
    }
    /// 1-based line and column (column in Unicode scalar values).
    pub fn at(mut self, line: u64, column: u64) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }
    pub fn line(mut self, line: u64) -> Self {
        self.line = Some(line);
        self
    }
    pub fn expected(mut self, s: impl Into<String>) -> Self {
        self.expected = Some(s.into());
        self
    }
    pub fn found(mut self, s: impl Into<String>) -> Self {
        self.found = Some(s.into());
        self
    }
    pub fn hint(mut self, s: impl Into<String>) -> Self {
        self.hint = Some(s.into());
        self
    }
    pub fn official(mut self, s: impl Into<String>) -> Self {
        self.official_behaviour = Some(s.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// An I/O error's text in plain words: without the OS's "(os error N)" suffix, and with the standard
/// library's phrasing of a short read replaced.
pub fn plain_io(text: &str) -> String {
    let t = match text.find(" (os error ") {
        Some(i) => &text[..i],
        None => text,
    };
    match t {
        "failed to fill whole buffer" | "unexpected end of file" => {
            "the file ends early (it looks truncated)".to_string()
        }
        "Is a directory" => "it is a folder, not a file".to_string(),
        "No such file or directory" => "no such file".to_string(),
        "Permission denied" => "permission denied".to_string(),
        _ => t.to_string(),
    }
}

/// An I/O error in plain words: the system's message without Rust's ` (os error N)` suffix, in lower case
/// ("no such file or directory", "permission denied").
pub fn io_words(e: &std::io::Error) -> String {
    let s = e.to_string();
    let s = match s.rfind(" (os error ") {
        Some(i) if s.ends_with(')') => &s[..i],
        _ => s.as_str(),
    };
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_lowercase().chain(c).collect(),
        None => "input/output error".into(),
    }
}

/// Shortens a found text for display: at most 60 characters, on one line.
pub fn excerpt(s: &str) -> String {
    let one_line: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let t = one_line.trim();
    if t.chars().count() > 60 {
        let cut: String = t.chars().take(57).collect();
        format!("{cut}...")
    } else {
        t.to_string()
    }
}

/// Collects diagnostics, keeping at most `cap` of each code (a 100 MB file with one mistake per line must not
/// produce a million rows); [`Diags::finish`] adds one summary line per code that overflowed.
pub struct Diags {
    pub list: Vec<Diagnostic>,
    counts: std::collections::HashMap<String, (usize, Severity)>,
    cap: usize,
}

impl Default for Diags {
    fn default() -> Self {
        Diags {
            list: Vec::new(),
            counts: Default::default(),
            cap: 50,
        }
    }
}

impl Diags {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn push(&mut self, d: Diagnostic) {
        let e = self.counts.entry(d.code.clone()).or_insert((0, d.severity));
        e.0 += 1;
        e.1 = e.1.min(d.severity);
        if e.0 <= self.cap {
            self.list.push(d);
        }
    }
    pub fn has_errors(&self) -> bool {
        self.counts.values().any(|(_, s)| *s == Severity::Error)
    }
    pub fn count(&self, code: &str) -> usize {
        self.counts.get(code).map_or(0, |c| c.0)
    }
    pub fn extend(&mut self, it: impl IntoIterator<Item = Diagnostic>) {
        for d in it {
            self.push(d);
        }
    }
    /// Takes over another collector's diagnostics as if each had been pushed here in its order: the listed
    /// ones go through [`Diags::push`], the ones `other` left out for its cap only count (had they been pushed
    /// here, this collector would be at its cap for that code too). Lets parts of the work collect apart.
    pub fn absorb(&mut self, other: Diags) {
        let mut listed: std::collections::HashMap<&str, usize> = Default::default();
        for d in &other.list {
            *listed.entry(d.code.as_str()).or_insert(0) += 1;
        }
        let unlisted: Vec<(String, usize, Severity)> = other
            .counts
            .iter()
            .filter_map(|(code, (n, sev))| {
                let shown = listed.get(code.as_str()).copied().unwrap_or(0);
                (*n > shown).then(|| (code.clone(), n - shown, *sev))
            })
            .collect();
        for d in other.list {
            self.push(d);
        }
        for (code, extra, sev) in unlisted {
            let e = self.counts.entry(code).or_insert((0, sev));
            e.0 += extra;
            e.1 = e.1.min(sev);
        }
    }
    pub fn finish(mut self) -> Vec<Diagnostic> {
        let mut over: Vec<_> = self
            .counts
            .iter()
            .filter(|(_, c)| c.0 > self.cap)
            .map(|(k, c)| (k.clone(), *c))
            .collect();
        over.sort();
        for (code, (n, sev)) in over {
            self.list.push(Diagnostic::new(
                sev,
                &code,
                format!(
                    "{} more `{code}` problems not listed ({n} in all)",
                    n - self.cap
                ),
            ));
        }
        self.list
    }
}

#[cfg(test)]
mod absorb_tests {
    use super::*;

    /// Pushing into parts and absorbing them in order gives what pushing everything into one collector gives,
    /// with and without the cap overflowing inside a part.
    #[test]
    fn absorbing_parts_equals_one_pass() {
        let mk =
            |code: &str, i: usize, sev: Severity| Diagnostic::new(sev, code, format!("{code} {i}"));
        let parts: Vec<Vec<Diagnostic>> = vec![
            (0..30).map(|i| mk("a.x", i, Severity::Warning)).collect(),
            (0..70)
                .map(|i| mk(if i % 2 == 0 { "a.x" } else { "b.y" }, i, Severity::Warning))
                .collect(),
            vec![
                mk("a.x", 999, Severity::Error),
                mk("c.z", 1, Severity::Info),
            ],
            (0..120).map(|i| mk("b.y", i, Severity::Info)).collect(),
        ];
        let mut one = Diags::new();
        let mut merged = Diags::new();
        for p in &parts {
            let mut part = Diags::new();
            for d in p {
                one.push(d.clone());
                part.push(d.clone());
            }
            merged.absorb(part);
        }
        assert_eq!(one.has_errors(), merged.has_errors());
        let key = |v: Vec<Diagnostic>| {
            v.into_iter()
                .map(|d| (d.code, d.message, d.severity))
                .collect::<Vec<_>>()
        };
        assert_eq!(key(one.finish()), key(merged.finish()));
    }
}
