//! The options of preset `icfhr14` resolved into its [`Settings`].

use super::{EmptyGt, Settings};
use crate::diag::Diags;
use crate::protocols::kws::options::cutoffs;
use crate::protocols::Options;
use crate::report::Mode;

/// Settings of one run; a bad `k` is an error diagnostic, and no valid `k` means `5,10`.
pub(super) fn settings(opts: &Options, mode: Mode, diags: &mut Diags) -> Settings {
    let mut ks: Vec<usize> = cutoffs(opts, diags);
    if ks.is_empty() {
        ks = vec![5, 10];
    }
    Settings {
        mode,
        ks,
        match_document: opts.flag("match_document"),
        dedupe: opts.flag("dedupe"),
        complete: opts.flag("complete"),
        empty: match opts.get("empty_gt_query") {
            "exclude" => EmptyGt::Exclude,
            "zero" => EmptyGt::Zero,
            _ => EmptyGt::Nan,
        },
        threshold: opts.number("relevance_threshold").unwrap_or(0.0),
    }
}
