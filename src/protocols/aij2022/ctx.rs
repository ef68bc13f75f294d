//! The shared state of one `aij2022` run: the options' settings, the lemmatiser, the stemmers' memos.

use super::lemmas;
use crate::metrics::aij::meteor::Synonyms;
use crate::metrics::aij::tokens as metrics_tokens;
use crate::report::Mode;
use std::rc::Rc;

/// Shared state of one run.
pub struct Ctx {
    pub mode: Mode,
    pub readme: bool,
    /// Ids where `extraction = readme` took another element than the code's fixed index would.
    pub extraction_changed: std::cell::Cell<usize>,
    pub lemmas: lemmas::Lemmas,
    pub synonyms: Option<Synonyms>,
    pub ru_stemmer: rust_stemmers::Stemmer,
    pub numeric_used: usize,
    /// Option `numeric_path = first_float`: any token Python's `float()` reads. Otherwise (`tagger`, the stand-in for
    /// NLTK's CD tag) only tokens that start with a digit: the tagger tags `nan`, `inf`, `infinity` NN or RB, never
    /// CD (tests/reference/aij_numeric_diff.py).
    pub numeric_first_float: bool,
    /// Option `details`: `Some(true)` full, `Some(false)` light, `None` auto (full up to [`DETAIL_LIMIT`] ids and
    /// [`DETAIL_BYTES`] of answers).
    pub full_details: Option<bool>,
    /// Option `explain`: the one id (within its task) to score, with full detail.
    pub explain: Option<String>,
    /// Snowball stems by (lower-cased) token: the captioning METEOR stems each token once per option.
    pub stems: std::cell::RefCell<rustc_hash::FxHashMap<String, Rc<str>>>,
    /// Porter stems by (lower-cased) token, for VisualQA, and the stemmer's buffers.
    pub stems_en: std::cell::RefCell<(StemMemo, Vec<char>, String)>,
}

/// Stems by token.
pub type StemMemo = rustc_hash::FxHashMap<String, Rc<str>>;

/// Entries a stem memo keeps before it starts over: an answer of millions of distinct tokens keeps the memo's
/// memory bounded (about 100 bytes an entry) instead of growing with the text.
const STEM_MEMO: usize = 1 << 18;

/// Option `details = auto`: METEOR tasks with more ids than this carry the light per-id detail (100,000 captioning
/// ids with alignments make a report of ~130 MB, too much to hand to a page).
pub const DETAIL_LIMIT: usize = 2000;

/// Option `details = auto`: nor with more answer text than this (bytes of the predictions' strings). One
/// 110 MB VisualQA answer of 20 million tokens made a full detail of 2.7 GB (a JSON string per token).
pub const DETAIL_BYTES: usize = 8 << 20;

/// The bytes of the strings in `v` (up to `cap`; it stops counting there).
pub fn text_bytes(v: &crate::formats::aij_json::Val, cap: usize) -> usize {
    use crate::formats::aij_json::Val;
    match v {
        Val::Str(s) => s.len(),
        Val::List(l) => l
            .iter()
            .try_fold(0, |n, x| {
                let n = n + text_bytes(x, cap);
                if n > cap {
                    Err(n)
                } else {
                    Ok(n)
                }
            })
            .unwrap_or_else(|n| n),
        Val::Dict(m) => m
            .iter()
            .try_fold(0, |n, (_, x)| {
                let n = n + text_bytes(x, cap);
                if n > cap {
                    Err(n)
                } else {
                    Ok(n)
                }
            })
            .unwrap_or_else(|n| n),
        _ => 0,
    }
}

impl Ctx {
    /// NLTK's Snowball Russian stem of a token, memoised.
    pub fn stem_ru(&self, w: &str) -> Rc<str> {
        if let Some(s) = self.stems.borrow().get(w) {
            return s.clone();
        }
        let s: Rc<str> = metrics_tokens::stem_ru(&self.ru_stemmer, w).into();
        let mut m = self.stems.borrow_mut();
        if m.len() >= STEM_MEMO {
            m.clear();
        }
        m.insert(w.to_string(), s.clone());
        s
    }
    /// NLTK's Porter stem of a token, memoised.
    pub fn stem_en(&self, w: &str) -> Rc<str> {
        let mut b = self.stems_en.borrow_mut();
        let (m, buf, out) = &mut *b;
        if let Some(s) = m.get(w) {
            return s.clone();
        }
        crate::metrics::aij::porter::stem_into(w, buf, out);
        let s: Rc<str> = out.as_str().into();
        if m.len() >= STEM_MEMO {
            m.clear();
        }
        m.insert(w.to_string(), s.clone());
        s
    }
}
