//! The options of docs/specs/falsid.md section 5.

use crate::protocols::options::{List, OptionSet, OptionSpec};

crate::choice! {
    /// Option `headline`: the headline metric.
    pub enum Headline {
        SubsetAccuracy = "subset_accuracy",
        SubsetBalancedAccuracy = "subset_balanced_accuracy",
        PooledMacroRecall = "pooled_macro_recall",
        PooledAccuracy = "pooled_accuracy",
    }
}

crate::choice! {
    /// Option `id_match`.
    pub enum IdMatch { Exact = "exact", Stem = "stem" }
}

crate::choice! {
    /// Option `duplicate_ids`.
    pub enum DuplicateIds { Error = "error", LastWins = "last_wins" }
}

crate::choice! {
    /// Option `missing_prediction`.
    pub enum MissingPrediction { Wrong = "wrong", Exclude = "exclude" }
}

crate::choice! {
    /// Option `confusion_convention`.
    pub enum ConfusionConvention { Standard = "standard", Page = "page" }
}

crate::choice! {
    /// Option `topk_ties`.
    pub enum TopkTies { Stable = "stable", Pessimistic = "pessimistic" }
}

crate::choice! {
    /// Option `topk_no_match`.
    pub enum TopkNoMatch { Miss = "miss", Exclude = "exclude" }
}

crate::choice! {
    /// Option `topk_class`.
    pub enum TopkClass { Label = "label", Writer = "writer" }
}

crate::choice! {
    /// Option `nonfinite`.
    pub enum Nonfinite { AsInf = "as_inf", Error = "error" }
}

crate::options! {
    /// The options of `falsid`.
    pub struct FalsidOptions {
        headline: Headline = ("subset_accuracy", "subset_balanced_accuracy"),
            "headline metric: the page formula (mean per-subset accuracy), mean per-subset balanced accuracy \
             (UAR), pooled macro recall or pooled accuracy";
        subsets: List = ("Pizan,Tasso,Yaqut", "Pizan,Tasso,Yaqut"), "expected subsets and their order";
        label_case_insensitive: bool = ("false", "false"), "match pizan / NOT-PIZAN too";
        id_match: IdMatch = ("exact", "exact"),
            "compare ids with (exact) or without (stem) a final extension";
        duplicate_ids: DuplicateIds = ("error", "error"),
            "a repeated id in one file is an error, or the last line wins";
        missing_prediction: MissingPrediction = ("wrong", "wrong"),
            "a GT item without predicted label counts as wrong, or is left out";
        confusion_convention: ConfusionConvention = ("standard", "standard"),
            "FP/FN naming in displays: standard (positive = imitation) or the evaluation page's swapped legend";
        topk: List = ("1,3,5", "1,3,5"), "k values of the Top-k retrieval diagnostic";
        topk_ties: TopkTies = ("stable", "stable"),
            "equal distances: column order (stable) or other-class items first (pessimistic)";
        topk_no_match: TopkNoMatch = ("miss", "miss"),
            "a query with no other item of its class counts as a miss, or is left out";
        topk_class: TopkClass = ("label", "label"),
            "same class = same authentic/imitation label, or same writer (a writer column in the GT)";
        nonfinite: Nonfinite = ("as_inf", "as_inf"),
            "NaN/inf distances sort as +inf (warning), or are refused";
    }
}

/// The option table (`dropscore list`, the page, the config validator).
pub static OPTIONS: &[OptionSpec] = FalsidOptions::SPECS;
