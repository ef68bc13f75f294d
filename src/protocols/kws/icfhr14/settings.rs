//! The options of preset `icfhr14` resolved into its [`Settings`].

use super::{EmptyGt, Settings};
use crate::diag::Diags;
use crate::protocols::kws::options::{cutoffs, EmptyGtQuery, KwsOptions};
use crate::report::Mode;

/// Settings of one run; a bad `k` is an error diagnostic, and no valid `k` means `5,10`.
pub(super) fn settings(opts: &KwsOptions, mode: Mode, diags: &mut Diags) -> Settings {
    let mut ks: Vec<usize> = cutoffs(opts, diags);
    if ks.is_empty() {
        ks = vec![5, 10];
    }
    Settings {
        mode,
        ks,
        match_document: opts.match_document,
        dedupe: opts.dedupe,
        complete: opts.complete,
        empty: match opts.empty_gt_query {
            EmptyGtQuery::Exclude => EmptyGt::Exclude,
            EmptyGtQuery::Zero => EmptyGt::Zero,
            EmptyGtQuery::Nan => EmptyGt::Nan,
        },
        threshold: opts.relevance_threshold.unwrap_or(0.0),
    }
}
