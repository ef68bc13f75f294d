//! sacreBLEU 2.6.0 (Post 2018, "A Call for Clarity in Reporting BLEU Scores"; PyPI `sacrebleu==2.6.0`) corpus
//! scores with its default arguments and its signature strings: [`corpus_bleu`] (`BLEU`), [`corpus_chrf`]
//! (`CHRF`, chrF and chrF++) and [`corpus_ter`] (`TER`).
//!
//! References are given per segment (one list per hypothesis, at least one reference each); sacreBLEU takes
//! them as streams, a shorter list being `None` in the other streams, which makes the signature's `nrefs`
//! `var`. Numbers are computed in sacreBLEU's floating-point order (tests/reference/textgen_diff.py checks them
//! to 1e-12 against the pinned package on random corpora).

mod bleu;
mod chrf;
mod intl_tables;
mod ter;
mod tokenize;

pub use bleu::{bleu_signature, compute_bleu, corpus_bleu, BleuOptions, BleuScore, Smooth};
pub use chrf::{
    chrf_of_stats, chrf_signature, corpus_chrf, corpus_chrf_all, segment_chrf_stats, ChrfOptions,
    ChrfScore,
};
pub use ter::{corpus_ter, ter_signature, translation_edit_rate, TerOptions, TerScore};
pub use tokenize::{join_split, regexp_rules, tokenize_13a, tokenize_intl, tokenize_zh, Tokenizer};

/// The sacreBLEU version these functions reproduce, as the signatures give it (`version:2.6.0`).
pub const SACREBLEU_VERSION: &str = "2.6.0";

/// Why a corpus cannot be scored (sacreBLEU raises on each).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SacreError {
    /// No segment at all (sacreBLEU: `IndexError` on `hyps[0]`).
    Empty,
    /// Not one reference list per hypothesis (sacreBLEU would silently truncate to the shorter).
    Lengths { hyps: usize, refs: usize },
    /// A segment without any reference (sacreBLEU fails on it).
    NoReference { segment: usize },
    /// An option out of range.
    Options(String),
}

impl std::fmt::Display for SacreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SacreError::Empty => write!(f, "sacreBLEU needs at least one segment"),
            SacreError::Lengths { hyps, refs } => {
                write!(f, "{hyps} hypotheses but {refs} reference lists")
            }
            SacreError::NoReference { segment } => {
                write!(f, "segment {segment} has no reference")
            }
            SacreError::Options(m) => f.write_str(m),
        }
    }
}

/// The checks every corpus score shares.
fn prepare<R: AsRef<[T]>, T>(hyps: usize, refs: &[R]) -> Result<(), SacreError> {
    if hyps == 0 {
        return Err(SacreError::Empty);
    }
    if hyps != refs.len() {
        return Err(SacreError::Lengths {
            hyps,
            refs: refs.len(),
        });
    }
    if let Some(i) = refs.iter().position(|r| r.as_ref().is_empty()) {
        return Err(SacreError::NoReference { segment: i });
    }
    Ok(())
}

/// The signature's `nrefs`: the number of references when every segment has the same, else `var`
/// (`Metric._cache_references`).
fn nrefs_label<R: AsRef<[T]>, T>(refs: &[R]) -> String {
    let first = refs.first().map_or(0, |r| r.as_ref().len());
    if refs.iter().all(|r| r.as_ref().len() == first) {
        first.to_string()
    } else {
        "var".into()
    }
}
