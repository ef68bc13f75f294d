//! The options of specs/aij2022.md section 5.

use crate::protocols::OptionSpec;

pub static OPTIONS: &[OptionSpec] = &[
    OptionSpec { name: "task", kind: "auto|textqa|mathqa|generation|captioning|vqa|titw", default_official: "auto", default_corrected: "auto", help: "which scorer to run; auto scores every task found in the files" },
    OptionSpec { name: "extraction", kind: "reference_code|readme", default_official: "reference_code", default_corrected: "readme", help: "generation/captioning answer extraction: the code's fixed indices [0]/[1], or the README's first text/image element" },
    OptionSpec { name: "lemma_table", kind: "file", default_official: "none", default_corrected: "none", help: "TSV form<TAB>normal_form (pymorphy2 first parse); entries take precedence over the built-in lemmatiser" },
    OptionSpec { name: "ruwordnet_table", kind: "file", default_official: "none", default_corrected: "none", help: "TSV lemma<TAB>candidate|candidate… for the METEOR synonym stage; absent: the stage is skipped" },
    OptionSpec { name: "numeric_path", kind: "tagger|first_float", default_official: "tagger", default_corrected: "tagger", help: "VQA numeric answers: NLTK's CD tags (approximated by the first token that starts with a digit and reads as a number: no tagger model ships; README) or the first token Python's float() reads (nan and inf included)" },
    OptionSpec { name: "clip_scores", kind: "file", default_official: "none", default_corrected: "none", help: "per-id CLIP scores (JSON {id: score} or CSV id,score); default: clip_scores.json/.csv among the predictions, or the embeddings clip_image.npy + clip_text.npy (or a clip*.npz with image.npy, text.npy) + clip_ids.json" },
    OptionSpec { name: "fid_inputs", kind: "files", default_official: "none", default_corrected: "none", help: "two files, reference first, generated second: .npy activations or .npz statistics" },
    OptionSpec { name: "details", kind: "auto|full|light", default_official: "auto", default_corrected: "auto", help: "per-id detail of the METEOR tasks (VisualQA, captioning) in the report: full (normalised forms, tokens, the alignment of the best option), light (the answer and the per-option scores), auto: full up to 2,000 ids and 8 MiB of answer text per task; scores are the same either way" },
    OptionSpec { name: "explain", kind: "text", default_official: "none", default_corrected: "none", help: "one METEOR-task id (captioning/17, vqa/3): scores only that id and reports its full detail (the page asks for it when you pick an id of a large file)" },
    OptionSpec { name: "hidden_scores", kind: "list", default_official: "none", default_corrected: "none", help: "six numbers, Hidden1..6, for the integral score" },
];
