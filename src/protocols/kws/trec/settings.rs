//! The options of preset `trec` resolved into its [`Settings`]: the measure list (with option `k`'s extra
//! cutoffs), relevance level, depth, trec_eval version and tie order.

use super::Settings;
use crate::diag::{Diagnostic, Diags};
use crate::metrics::trec::{self as m, parse_measures, Family, Measure, Version};
use crate::protocols::kws::options::{cutoffs, KwsOptions, TieBreak, TrecVersion};
use crate::report::Mode;

pub(super) fn settings(opts: &KwsOptions, mode: Mode, diags: &mut Diags) -> Settings {
    let measures = match parse_measures(&opts.measures.items()) {
        Ok(v) => v,
        Err(e) => {
            diags.push(
                Diagnostic::error("kws.option.bad_measures", e)
                    .expected("trec_eval measure names, e.g. map,P_5,ndcg_cut_10")
                    .found(opts.measures.text().to_string())
                    .hint("Fix the `measures` option; `official` gives trec_eval's default set."),
            );
            m::measures::official()
        }
    };
    let measures = with_k(measures, opts, diags);
    Settings {
        mode,
        complete: opts.complete,
        level: opts.relevance_level,
        depth: opts.depth.and_then(|d| usize::try_from(d).ok()),
        version: match opts.trec_version {
            TrecVersion::V10 => Version::V10,
            TrecVersion::V9 => Version::V9,
        },
        file_order: opts.tie_break == TieBreak::FileOrder,
        measures,
    }
}

/// Option `k` (docs/specs/kws.md 5): cutoffs added to every selected cutoff family (P, recall, ndcg_cut,
/// map_cut, relative_P, success). Its default (`5,10`) is in every default cutoff list, so only a changed
/// value adds anything.
fn with_k(mut measures: Vec<Measure>, opts: &KwsOptions, diags: &mut Diags) -> Vec<Measure> {
    if opts.k.text().replace(' ', "") == "5,10" {
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
