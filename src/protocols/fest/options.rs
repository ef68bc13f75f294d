//! The options of docs/specs/fest.md section 5 (plus the decoder's memory cap).

use crate::protocols::options::{OptionSet, OptionSpec};

crate::choice! {
    /// Option `connectivity` of GT lines.
    pub enum Connectivity { Eight = "8", Four = "4" }
}

crate::choice! {
    /// Option `matching`: the pairing of GT and predicted lines.
    pub enum Matching { BestPerGt = "best_per_gt", Greedy = "greedy", Hungarian = "hungarian" }
}

crate::choice! {
    /// Option `both_fail`: how a pair failing both thresholds is counted.
    pub enum BothFail { Ml = "ml", MlEl = "ml+el" }
}

crate::choice! {
    /// Option `pixel_iu`.
    pub enum PixelIu { MatchedPairs = "matched_pairs", Page = "page" }
}

crate::choice! {
    /// Option `ra_guard`: which count guards RA = M/N2.
    pub enum RaGuard { N1 = "n1", N2 = "n2" }
}

crate::choice! {
    /// Option `pred_encoding`.
    pub enum PredEncoding { Colours = "colours", Components = "components" }
}

crate::choice! {
    /// Option `empty_metric`: the value of a 0/0 metric.
    pub enum EmptyMetric { Zero = "zero", Undefined = "undefined" }
}

crate::choice! {
    /// Option `aggregation`.
    pub enum Aggregation { PerImage = "per_image", Pooled = "pooled" }
}

crate::options! {
    /// The options of `fest`.
    pub struct FestOptions {
        connectivity: Connectivity = ("8", "8"), "GT line connectivity: 8 (edges and corners) or 4 (edges only)";
        iou_threshold: Option<f64> = ("0.75", "0.75"),
            "T_a: a pair with IoU >= T_a counts in MatchScore (DR, RA)";
        pr_threshold: Option<f64> = ("0.75", "0.75"), "precision/recall threshold of the CL / ML / EL classes";
        strict_threshold: bool = ("false", "false"), "use > instead of >= for the precision and recall tests";
        matching: Matching = ("best_per_gt", "greedy"), "pairing of GT and predicted lines";
        count_unmatched: bool = ("false", "true"),
            "unmatched GT lines count as ML, unmatched predictions as EL";
        both_fail: BothFail = ("ml", "ml+el"), "how a pair failing both thresholds is counted";
        pixel_iu: PixelIu = ("matched_pairs", "page"),
            "Pixel IU over matched pairs (official) or page-level foreground IoU";
        ra_guard: RaGuard = ("n1", "n2"),
            "which count guards RA = M/N2 (official n1: an all-black prediction divides by zero)";
        label_wrap: bool = ("true", "false"),
            "prediction labels wrap modulo 256 (uint8) as in the official code";
        background_colour: String = ("lowest", "#000000"),
            "prediction background: lowest (the smallest colour) or an RGB hex colour";
        pred_encoding: PredEncoding = ("colours", "colours"),
            "colours: one line per colour; components (corrected only): 8-connected components of the \
             non-background pixels";
        empty_metric: EmptyMetric = ("zero", "undefined"),
            "value of a 0/0 metric; undefined ones are left out of the means";
        aggregation: Aggregation = ("per_image", "per_image"),
            "per_image: mean of per-image metrics; pooled: sums over a manuscript, then one division";
        split: String = ("test", "test"), "dataset layout: which split folder of text-line-gt-<MS> to score";
        manuscript_map: String = ("", ""),
            "explicit manuscript pairing GT=prediction folder, comma-separated (e.g. \
             Latin2=latin1,Syriaque341=syr)";
        max_megapixels: i64 = ("64", "64"),
            "size cap: larger images are refused before decoding. Measured peak (one image pair): about 15 \
             bytes per pixel for line masks, up to 101 when every GT pixel is its own line (a checkerboard at \
             connectivity 4); max_memory refuses such images before labelling";
    }
}

/// The option table (`dropscore list`, the page, the config validator).
pub static OPTIONS: &[OptionSpec] = FestOptions::SPECS;
