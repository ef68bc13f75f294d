//! Where lemmas come from (docs/specs/aij2022.md 3.0, 5): the `lemma_table` option's entry, else the built-in
//! lemmatiser (`Request.lemmatizer`, loaded from the asset of extras.rs), else the word itself, recorded as
//! unknown (scores approximate).

use crate::diag::Diagnostic;
use crate::lemma::Lemmatizer;
use crate::metrics::aij::text::needs_lemmatiser;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

#[derive(Default)]
pub struct Lemmas {
    pub table: HashMap<String, String>,
    pub lemmatizer: Option<Arc<Lemmatizer>>,
    pub unknown: BTreeSet<String>,
    pub table_name: Option<String>,
    /// Normal forms already found, by form: an answer repeats its words, and the lemmatiser's look-up costs more
    /// than a hash. Starts over at [`MEMO`] entries, so its memory stays bounded.
    pub memo: rustc_hash::FxHashMap<String, String>,
}

/// Entries the memo of normal forms keeps before it starts over.
const MEMO: usize = 1 << 18;

impl Lemmas {
    /// Reads a `form<TAB>normal_form` table; malformed lines are diagnostics.
    pub fn load_table(&mut self, file: &str, bytes: &[u8], diags: &mut Vec<Diagnostic>) {
        self.table_name = Some(file.to_string());
        let text = String::from_utf8_lossy(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes));
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match line.split_once('\t') {
                Some((f, l)) if !l.contains('\t') => {
                    self.table.insert(f.to_string(), l.to_string());
                }
                _ => diags.push(
                    Diagnostic::error("aij.lemma_table.format", "expected form<TAB>normal_form")
                        .file(file)
                        .at(n as u64 + 1, 1)
                        .expected("form<TAB>normal_form")
                        .found(crate::diag::excerpt(line))
                        .hint("One tab-separated pair per line, as tests/reference/aij2022_lemmas.py writes it."),
                ),
            }
        }
    }

    /// [`Lemmas::normal_form`] appended to `out`, memoised.
    pub fn push_normal_form(&mut self, w: &str, out: &mut String) {
        if let Some(l) = self.table.get(w).or_else(|| self.memo.get(w)) {
            return out.push_str(l);
        }
        if !needs_lemmatiser(w) {
            return out.push_str(w);
        }
        let l = self.normal_form(w);
        out.push_str(&l);
        if self.memo.len() >= MEMO {
            self.memo.clear();
        }
        self.memo.insert(w.to_string(), l);
    }

    /// pymorphy2's `parse(w)[0].normal_form` for a lower-cased form (a word, or VQA's whole string).
    pub fn normal_form(&mut self, w: &str) -> String {
        if let Some(l) = self.table.get(w) {
            return l.clone();
        }
        if !needs_lemmatiser(w) {
            return w.to_string();
        }
        if let Some(m) = &self.lemmatizer {
            return m.normal_form(w).into_owned();
        }
        self.unknown.insert(w.to_string());
        w.to_string()
    }

    /// One warning naming the forms no source could place.
    pub fn finish(&self, diags: &mut Vec<Diagnostic>, deviations: &mut Vec<String>) {
        if self.unknown.is_empty() {
            return;
        }
        let shown: Vec<&str> = self.unknown.iter().take(12).map(String::as_str).collect();
        diags.push(
            Diagnostic::warning(
                "aij.lemma.unknown",
                format!(
                    "{} word form(s) have no lemma (kept lower-cased; scores are not bit-exact): {}{}",
                    self.unknown.len(),
                    shown.join(", "),
                    if self.unknown.len() > shown.len() { ", …" } else { "" }
                ),
            )
            .hint("Give a lemma_table (TSV form<TAB>normal_form from pymorphy2) or load the built-in lemmatiser.")
            .official("pymorphy2 lemmatises every word"),
        );
        deviations.push(format!(
            "lemmas: {} word form(s) without a lemma, scores not bit-exact",
            self.unknown.len()
        ));
    }
}
