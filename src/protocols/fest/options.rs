//! The options of specs/fest.md section 5 (plus the decoder's memory cap).

use crate::protocols::OptionSpec;

pub static OPTIONS: &[OptionSpec] = &[
    OptionSpec { name: "connectivity", kind: "8|4", default_official: "8", default_corrected: "8", help: "GT line connectivity: 8 (edges and corners) or 4 (edges only)" },
    OptionSpec { name: "iou_threshold", kind: "number", default_official: "0.75", default_corrected: "0.75", help: "T_a: a pair with IoU >= T_a counts in MatchScore (DR, RA)" },
    OptionSpec { name: "pr_threshold", kind: "number", default_official: "0.75", default_corrected: "0.75", help: "precision/recall threshold of the CL / ML / EL classes" },
    OptionSpec { name: "strict_threshold", kind: "bool", default_official: "false", default_corrected: "false", help: "use > instead of >= for the precision and recall tests" },
    OptionSpec { name: "matching", kind: "best_per_gt|greedy|hungarian", default_official: "best_per_gt", default_corrected: "greedy", help: "pairing of GT and predicted lines" },
    OptionSpec { name: "count_unmatched", kind: "bool", default_official: "false", default_corrected: "true", help: "unmatched GT lines count as ML, unmatched predictions as EL" },
    OptionSpec { name: "both_fail", kind: "ml|ml+el", default_official: "ml", default_corrected: "ml+el", help: "how a pair failing both thresholds is counted" },
    OptionSpec { name: "pixel_iu", kind: "matched_pairs|page", default_official: "matched_pairs", default_corrected: "page", help: "Pixel IU over matched pairs (official) or page-level foreground IoU" },
    OptionSpec { name: "ra_guard", kind: "n1|n2", default_official: "n1", default_corrected: "n2", help: "which count guards RA = M/N2 (official n1: an all-black prediction divides by zero)" },
    OptionSpec { name: "label_wrap", kind: "bool", default_official: "true", default_corrected: "false", help: "prediction labels wrap modulo 256 (uint8) as in the official code" },
    OptionSpec { name: "background_colour", kind: "text", default_official: "lowest", default_corrected: "#000000", help: "prediction background: lowest (the smallest colour) or an RGB hex colour" },
    OptionSpec { name: "pred_encoding", kind: "colours|components", default_official: "colours", default_corrected: "colours", help: "colours: one line per colour; components (corrected only): 8-connected components of the non-background pixels" },
    OptionSpec { name: "empty_metric", kind: "zero|undefined", default_official: "zero", default_corrected: "undefined", help: "value of a 0/0 metric; undefined ones are left out of the means" },
    OptionSpec { name: "aggregation", kind: "per_image|pooled", default_official: "per_image", default_corrected: "per_image", help: "per_image: mean of per-image metrics; pooled: sums over a manuscript, then one division" },
    OptionSpec { name: "split", kind: "text", default_official: "test", default_corrected: "test", help: "dataset layout: which split folder of text-line-gt-<MS> to score" },
    OptionSpec { name: "manuscript_map", kind: "text", default_official: "", default_corrected: "", help: "explicit manuscript pairing GT=prediction folder, comma-separated (e.g. Latin2=latin1,Syriaque341=syr)" },
    OptionSpec { name: "max_megapixels", kind: "int", default_official: "64", default_corrected: "64", help: "size cap: larger images are refused before decoding. Measured peak (one image pair): about 15 bytes per pixel for line masks, up to 101 when every GT pixel is its own line (a checkerboard at connectivity 4); max_memory refuses such images before labelling" },
];
