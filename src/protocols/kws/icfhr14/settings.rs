//! The options of preset `icfhr14` resolved into its [`Settings`].

use super::{EmptyGt, Settings};
use crate::diag::{Diagnostic, Diags};
use crate::protocols::Options;
use crate::report::Mode;

/// Settings of one run; a bad `k` is an error diagnostic, and no valid `k` means `5,10`.
pub(super) fn settings(opts: &Options, mode: Mode, diags: &mut Diags) -> Settings {
    let mut ks: Vec<usize> = Vec::new();
    for k in opts.list("k") {
        match k.parse::<usize>() {
            Ok(v) if v > 0 => {
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
