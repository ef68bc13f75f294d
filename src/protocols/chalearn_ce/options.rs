//! The options of docs/specs/chalearn-ce.md section 5.

use super::TieOrder;
use crate::metrics::voc_ap::Integration;
use crate::protocols::options::{OptionSet, OptionSpec, OptionValue};

/// Option `integration`: the area rule.
impl OptionValue for Integration {
    const KIND: &'static str = "trapezoid|step";
    fn read(value: &str) -> Self {
        if value == "step" {
            Integration::Step
        } else {
            Integration::Trapezoid
        }
    }
}

/// Option `tie_order`: the order among equal confidences.
impl OptionValue for TieOrder {
    const KIND: &'static str = "file|grouped|positives_first|negatives_first";
    fn read(value: &str) -> Self {
        TieOrder::parse(value)
    }
}

crate::choice! {
    /// Option `missing_images`.
    pub enum MissingImages { Unranked = "unranked", Append = "append" }
}

crate::choice! {
    /// Option `duplicates`.
    pub enum Duplicates { First = "first", Error = "error" }
}

crate::choice! {
    /// Option `gt_zero`.
    pub enum GtZero { Negative = "negative", Ignore = "ignore" }
}

crate::choice! {
    /// Option `id_match`.
    pub enum IdMatch { Exact = "exact", Stem = "stem" }
}

crate::options! {
    /// The options of `chalearn-ce`.
    pub struct ChalearnOptions {
        integration: Integration = ("trapezoid", "trapezoid"),
            "area rule: trapezoid (the metric page) or the VOC step sum";
        sentinels: bool = ("true", "true"), "pad the curve with (0, ·) and (1, 0) before integrating";
        tie_order: TieOrder = ("file", "grouped"),
            "order among equal confidences: file order, one threshold per distinct confidence, or the two bounds";
        missing_images: MissingImages = ("unranked", "append"),
            "GT images absent from a category file: not ranked, or appended as one last tie group";
        duplicates: Duplicates = ("first", "error"),
            "a repeated image id in one category file: keep the first, or refuse the file";
        gt_zero: GtZero = ("negative", "negative"),
            "GT label 0: a negative, or ignored (removed from the ranking, not counted in npos)";
        id_match: IdMatch = ("exact", "exact"),
            "image ids compared exactly, or without a final extension (.jpg)";
        gt_suffix: String = ("auto", "auto"),
            "the _<imgset> suffix of GT file names (auto: train, val, valid, validation or test)";
        expected_categories: i64 = ("100", "100"),
            "warn when the GT has a different number of categories";
        scores_key: String = ("mAP", "mAP"), "the key written to scores.txt and the text output";
    }
}

/// The option table (`dropscore list`, the page, the config validator).
pub static OPTIONS: &[OptionSpec] = ChalearnOptions::SPECS;
