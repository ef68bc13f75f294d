//! The options of specs/chalearn-ce.md section 5.

use crate::protocols::OptionSpec;

pub static OPTIONS: &[OptionSpec] = &[
    OptionSpec { name: "integration", kind: "trapezoid|step", default_official: "trapezoid", default_corrected: "trapezoid", help: "area rule: trapezoid (the metric page) or the VOC step sum" },
    OptionSpec { name: "sentinels", kind: "bool", default_official: "true", default_corrected: "true", help: "pad the curve with (0, ·) and (1, 0) before integrating" },
    OptionSpec { name: "tie_order", kind: "file|grouped|positives_first|negatives_first", default_official: "file", default_corrected: "grouped", help: "order among equal confidences: file order, one threshold per distinct confidence, or the two bounds" },
    OptionSpec { name: "missing_images", kind: "unranked|append", default_official: "unranked", default_corrected: "append", help: "GT images absent from a category file: not ranked, or appended as one last tie group" },
    OptionSpec { name: "duplicates", kind: "first|error", default_official: "first", default_corrected: "error", help: "a repeated image id in one category file: keep the first, or refuse the file" },
    OptionSpec { name: "gt_zero", kind: "negative|ignore", default_official: "negative", default_corrected: "negative", help: "GT label 0: a negative, or ignored (removed from the ranking, not counted in npos)" },
    OptionSpec { name: "id_match", kind: "exact|stem", default_official: "exact", default_corrected: "exact", help: "image ids compared exactly, or without a final extension (.jpg)" },
    OptionSpec { name: "gt_suffix", kind: "text", default_official: "auto", default_corrected: "auto", help: "the _<imgset> suffix of GT file names (auto: train, val, valid, validation or test)" },
    OptionSpec { name: "expected_categories", kind: "int", default_official: "100", default_corrected: "100", help: "warn when the GT has a different number of categories" },
    OptionSpec { name: "scores_key", kind: "text", default_official: "mAP", default_corrected: "mAP", help: "the key written to scores.txt and the text output" },
];
