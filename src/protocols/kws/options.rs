//! The options of docs/specs/kws.md section 5.

use crate::diag::{Diagnostic, Diags};
use crate::protocols::options::{List, OptionSet, OptionSpec};
use std::str::FromStr;

crate::choice! {
    /// Option `preset`: which family reads the files.
    pub enum Preset { Auto = "auto", Icfhr14 = "icfhr14", Trec = "trec" }
}

crate::choice! {
    /// Option `empty_gt_query`: how a GT block without words is scored.
    pub enum EmptyGtQuery { Nan = "nan", Exclude = "exclude", Zero = "zero" }
}

crate::choice! {
    /// Option `trec_version`: the trec_eval version reproduced.
    pub enum TrecVersion { V9 = "9.0.8", V10 = "10.0" }
}

crate::choice! {
    /// Option `tie_break`: the order of equal `sim` values.
    pub enum TieBreak { DocnoDesc = "docno_desc", FileOrder = "file_order" }
}

crate::choice! {
    /// Option `float_rel`: what a non-integer `rel` does.
    pub enum FloatRel { Truncate = "truncate", Error = "error" }
}

crate::options! {
    /// The options of both presets (docs/specs/kws.md 5).
    pub struct KwsOptions {
        preset: Preset = ("auto", "auto"),
            "icfhr14 = rusteval v0.5 (XML), trec = trec_eval; auto picks from the files";
        match_document: bool = ("false", "true"),
            "XML: a hit must also be on the same document (page)";
        dedupe: bool = ("false", "true"),
            "XML: a repeated item counts once; later repeats are non-relevant";
        complete: bool = ("false", "true"),
            "average over all GT queries; a query without results counts 0 (trec_eval -c)";
        empty_gt_query: EmptyGtQuery = ("nan", "exclude"), "XML: how a GT block without words is scored";
        relevance_threshold: Option<f64> = ("n/a", "0"),
            "XML, corrected: a GT item is relevant iff Relevance > threshold";
        k: List = ("5,10", "5,10"), "XML: cutoffs for P@k (each adds a precAtK column)";
        relevance_level: i64 = ("1", "1"), "trec -l: relevant iff rel >= level";
        depth: Option<u64> = ("none", "none"), "trec -M: truncate each ranking at this depth";
        trec_version: TrecVersion = ("9.0.8", "9.0.8"),
            "trec_eval version reproduced. 10.0: a qrels query missing from the run stops trec_eval (exit 4) \
             unless complete=true; iprec_at_recall cut-offs are rounded instead of truncated; `#` comment lines \
             in qrels and runs are skipped (in qrels one per parsed line, as its reader does). 9.0.8: missing \
             queries are left out of the mean, cut-offs truncated, comment lines read as data";
        tie_break: TieBreak = ("docno_desc", "docno_desc"),
            "trec: order of equal sim values (file_order deviates from trec_eval)";
        float_rel: FloatRel = ("truncate", "error"),
            "trec: a non-integer rel is truncated (atol) or refused";
        measures: List = ("official", "official"),
            "trec measures, comma-separated trec_eval names (P, ndcg_cut_10, ...); official = trec_eval's \
             official set";
    }
}

/// The option table (`dropscore list`, the page, the config validator).
pub static OPTIONS: &[OptionSpec] = KwsOptions::SPECS;

/// Option `k` of both presets: the positive integers it lists, each once, in order (`T` is the preset's
/// cutoff type); every other entry is a `kws.option.bad_k` error.
pub(super) fn cutoffs<T: FromStr + PartialOrd + Default>(
    opts: &KwsOptions,
    diags: &mut Diags,
) -> Vec<T> {
    let mut ks: Vec<T> = Vec::new();
    for k in opts.k.items() {
        match k.parse::<T>() {
            Ok(v) if v > T::default() => {
                if !ks.contains(&v) {
                    ks.push(v)
                }
            }
            _ => diags.push(
                Diagnostic::error(
                    "kws.option.bad_k",
                    format!("k must list positive integers, found `{k}`"),
                )
                .hint("Use e.g. --set k=5,10,20."),
            ),
        }
    }
    ks
}
