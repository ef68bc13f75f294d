//! The options of specs/falsid.md section 5.

use crate::protocols::OptionSpec;

pub static OPTIONS: &[OptionSpec] = &[
    OptionSpec { name: "headline", kind: "subset_accuracy|subset_balanced_accuracy|pooled_macro_recall|pooled_accuracy", default_official: "subset_accuracy", default_corrected: "subset_balanced_accuracy", help: "headline metric: the page formula (mean per-subset accuracy), mean per-subset balanced accuracy (UAR), pooled macro recall or pooled accuracy" },
    OptionSpec { name: "subsets", kind: "list", default_official: "Pizan,Tasso,Yaqut", default_corrected: "Pizan,Tasso,Yaqut", help: "expected subsets and their order" },
    OptionSpec { name: "label_case_insensitive", kind: "bool", default_official: "false", default_corrected: "false", help: "match pizan / NOT-PIZAN too" },
    OptionSpec { name: "id_match", kind: "exact|stem", default_official: "exact", default_corrected: "exact", help: "compare ids with (exact) or without (stem) a final extension" },
    OptionSpec { name: "duplicate_ids", kind: "error|last_wins", default_official: "error", default_corrected: "error", help: "a repeated id in one file is an error, or the last line wins" },
    OptionSpec { name: "missing_prediction", kind: "wrong|exclude", default_official: "wrong", default_corrected: "wrong", help: "a GT item without predicted label counts as wrong, or is left out" },
    OptionSpec { name: "confusion_convention", kind: "standard|page", default_official: "standard", default_corrected: "standard", help: "FP/FN naming in displays: standard (positive = imitation) or the evaluation page's swapped legend" },
    OptionSpec { name: "topk", kind: "list", default_official: "1,3,5", default_corrected: "1,3,5", help: "k values of the Top-k retrieval diagnostic" },
    OptionSpec { name: "topk_ties", kind: "stable|pessimistic", default_official: "stable", default_corrected: "stable", help: "equal distances: column order (stable) or other-class items first (pessimistic)" },
    OptionSpec { name: "topk_no_match", kind: "miss|exclude", default_official: "miss", default_corrected: "miss", help: "a query with no other item of its class counts as a miss, or is left out" },
    OptionSpec { name: "topk_class", kind: "label|writer", default_official: "label", default_corrected: "label", help: "same class = same authentic/imitation label, or same writer (a writer column in the GT)" },
    OptionSpec { name: "nonfinite", kind: "as_inf|error", default_official: "as_inf", default_corrected: "as_inf", help: "NaN/inf distances sort as +inf (warning), or are refused" },
];
