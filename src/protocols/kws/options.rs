//! The options of specs/kws.md section 5.

use crate::diag::{Diagnostic, Diags};
use crate::protocols::{OptionSpec, Options};
use std::str::FromStr;

pub static OPTIONS: &[OptionSpec] = &[
    OptionSpec { name: "preset", kind: "auto|icfhr14|trec", default_official: "auto", default_corrected: "auto", help: "icfhr14 = rusteval v0.5 (XML), trec = trec_eval; auto picks from the files" },
    OptionSpec { name: "match_document", kind: "bool", default_official: "false", default_corrected: "true", help: "XML: a hit must also be on the same document (page)" },
    OptionSpec { name: "dedupe", kind: "bool", default_official: "false", default_corrected: "true", help: "XML: a repeated item counts once; later repeats are non-relevant" },
    OptionSpec { name: "complete", kind: "bool", default_official: "false", default_corrected: "true", help: "average over all GT queries; a query without results counts 0 (trec_eval -c)" },
    OptionSpec { name: "empty_gt_query", kind: "nan|exclude|zero", default_official: "nan", default_corrected: "exclude", help: "XML: how a GT block without words is scored" },
    OptionSpec { name: "relevance_threshold", kind: "number", default_official: "n/a", default_corrected: "0", help: "XML, corrected: a GT item is relevant iff Relevance > threshold" },
    OptionSpec { name: "k", kind: "list", default_official: "5,10", default_corrected: "5,10", help: "XML: cutoffs for P@k (each adds a precAtK column)" },
    OptionSpec { name: "relevance_level", kind: "int", default_official: "1", default_corrected: "1", help: "trec -l: relevant iff rel >= level" },
    OptionSpec { name: "depth", kind: "int?", default_official: "none", default_corrected: "none", help: "trec -M: truncate each ranking at this depth" },
    OptionSpec { name: "trec_version", kind: "9.0.8|10.0", default_official: "9.0.8", default_corrected: "9.0.8", help: "trec_eval version reproduced. 10.0: a qrels query missing from the run stops trec_eval (exit 4) unless complete=true; iprec_at_recall cut-offs are rounded instead of truncated; `#` comment lines in qrels and runs are skipped (in qrels one per parsed line, as its reader does). 9.0.8: missing queries are left out of the mean, cut-offs truncated, comment lines read as data" },
    OptionSpec { name: "tie_break", kind: "docno_desc|file_order", default_official: "docno_desc", default_corrected: "docno_desc", help: "trec: order of equal sim values (file_order deviates from trec_eval)" },
    OptionSpec { name: "float_rel", kind: "truncate|error", default_official: "truncate", default_corrected: "error", help: "trec: a non-integer rel is truncated (atol) or refused" },
    OptionSpec { name: "measures", kind: "list", default_official: "official", default_corrected: "official", help: "trec measures, comma-separated trec_eval names (P, ndcg_cut_10, ...); official = trec_eval's official set" },
];

/// Option `k` of both presets: the positive integers it lists, each once, in order (`T` is the preset's
/// cutoff type); every other entry is a `kws.option.bad_k` error.
pub(super) fn cutoffs<T: FromStr + PartialOrd + Default>(
    opts: &Options,
    diags: &mut Diags,
) -> Vec<T> {
    let mut ks: Vec<T> = Vec::new();
    for k in opts.list("k") {
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
