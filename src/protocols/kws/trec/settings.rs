//! The options of preset `trec` resolved into its [`Settings`]: the measure list (with option `k`'s extra
//! cutoffs), relevance level, depth, trec_eval version and tie order.

use super::Settings;
use crate::diag::{Diagnostic, Diags};
use crate::metrics::trec::{self as m, parse_measures, Family, Measure, Version};
use crate::protocols::kws::options::cutoffs;
use crate::protocols::Options;
use crate::report::Mode;

pub(super) fn settings(opts: &Options, mode: Mode, diags: &mut Diags) -> Settings {
    let measures = match parse_measures(&opts.list("measures")) {
        Ok(v) => v,
        Err(e) => {
            diags.push(
                Diagnostic::error("kws.option.bad_measures", e)
                    .expected("trec_eval measure names, e.g. map,P_5,ndcg_cut_10")
                    .found(opts.get("measures").to_string())
                    .hint("Fix the `measures` option; `official` gives trec_eval's default set."),
            );
            m::measures::official()
        }
    };
    let measures = with_k(measures, opts, diags);
    Settings {
        mode,
        complete: opts.flag("complete"),
        level: opts.int("relevance_level").unwrap_or(1),
        depth: opts.get("depth").parse::<usize>().ok(),
        version: if opts.get("trec_version") == "10.0" {
            Version::V10
        } else {
            Version::V9
        },
        file_order: opts.get("tie_break") == "file_order",
        measures,
    }
}

/// Option `k` (specs/kws.md 5): cutoffs added to every selected cutoff family (P, recall, ndcg_cut,
/// map_cut, relative_P, success). Its default (`5,10`) is in every default cutoff list, so only a changed
/// value adds anything.
fn with_k(mut measures: Vec<Measure>, opts: &Options, diags: &mut Diags) -> Vec<Measure> {
    if opts.get("k").replace(' ', "") == "5,10" {
        return measures;
    }
    let ks: Vec<u32> = cutoffs(opts, diags);
    let families: Vec<Family> = measures
        .iter()
        .map(|x| x.family)
        .filter(|f| f.has_cutoffs() && *f != Family::IprecAtRecall)
        .collect();
    for f in families {
        for k in &ks {
            measures.push(Measure::cut(f, *k));
        }
    }
    measures.sort();
    measures.dedup();
    measures
}
