//! The options of docs/specs/aij2022.md section 5, and what two of them mean (`hidden_scores`, `explain`).

use super::Task;
use crate::protocols::options::{FileName, FileNames, List, OptionSet, OptionSpec};
use crate::protocols::UsageError;

crate::choice! {
    /// Option `task`: which scorer to run.
    pub enum TaskChoice {
        Auto = "auto",
        TextQa = "textqa",
        MathQa = "mathqa",
        Generation = "generation",
        Captioning = "captioning",
        Vqa = "vqa",
        Titw = "titw",
    }
}

crate::choice! {
    /// Option `extraction`: the generation/captioning answer extraction.
    pub enum Extraction { ReferenceCode = "reference_code", Readme = "readme" }
}

crate::choice! {
    /// Option `numeric_path`: how VQA numeric answers are found.
    pub enum NumericPath { Tagger = "tagger", FirstFloat = "first_float" }
}

crate::choice! {
    /// Option `details`: the per-id detail of the METEOR tasks.
    pub enum Details { Auto = "auto", Full = "full", Light = "light" }
}

crate::options! {
    /// The options of `aij2022`.
    pub struct AijOptions {
        task: TaskChoice = ("auto", "auto"), "which scorer to run; auto scores every task found in the files";
        extraction: Extraction = ("reference_code", "readme"),
            "generation/captioning answer extraction: the code's fixed indices [0]/[1], or the README's first \
             text/image element";
        lemma_table: FileName = ("none", "none"),
            "TSV form<TAB>normal_form (pymorphy2 first parse); entries take precedence over the built-in \
             lemmatiser";
        ruwordnet_table: FileName = ("none", "none"),
            "TSV lemma<TAB>candidate|candidate… for the METEOR synonym stage; absent: the stage is skipped";
        numeric_path: NumericPath = ("tagger", "tagger"),
            "VQA numeric answers: NLTK's CD tags (approximated by the first token that starts with a digit and \
             reads as a number: no tagger model ships; README) or the first token Python's float() reads (nan \
             and inf included)";
        clip_scores: FileName = ("none", "none"),
            "per-id CLIP scores (JSON {id: score} or CSV id,score); default: clip_scores.json/.csv among the \
             predictions, or the embeddings clip_image.npy + clip_text.npy (or a clip*.npz with image.npy, \
             text.npy) + clip_ids.json";
        fid_inputs: FileNames = ("none", "none"),
            "two files, reference first, generated second: .npy activations or .npz statistics";
        details: Details = ("auto", "auto"),
            "per-id detail of the METEOR tasks (VisualQA, captioning) in the report: full (normalised forms, \
             tokens, the alignment of the best option), light (the answer and the per-option scores), auto: \
             full up to 2,000 ids and 8 MiB of answer text per task; scores are the same either way";
        explain: String = ("none", "none"),
            "one METEOR-task id (captioning/17, vqa/3): scores only that id and reports its full detail (the \
             page asks for it when you pick an id of a large file)";
        hidden_scores: List = ("none", "none"), "six numbers, Hidden1..6, for the integral score";
    }
}

/// The option table (`dropscore list`, the page, the config validator).
pub static OPTIONS: &[OptionSpec] = AijOptions::SPECS;

/// Option `hidden_scores`: the six numbers Hidden1..6, or `None`; anything else is a usage error.
pub fn hidden(opts: &AijOptions) -> Result<Option<[f64; 6]>, UsageError> {
    let v = opts.hidden_scores.items();
    if v.is_empty() || v == ["none"] {
        return Ok(None);
    }
    let nums: Vec<f64> = v
        .iter()
        .filter_map(|s| s.parse::<f64>().ok().filter(|x| x.is_finite()))
        .collect();
    if nums.len() != 6 || v.len() != 6 {
        return Err(UsageError(format!(
            "option `hidden_scores`: expected six numbers, found `{}`",
            opts.hidden_scores.text()
        )));
    }
    Ok(Some([nums[0], nums[1], nums[2], nums[3], nums[4], nums[5]]))
}

/// Option `explain`: the METEOR task and id to score alone, or `None`; anything else is a usage error.
pub fn explained(opts: &AijOptions) -> Result<Option<(Task, String)>, UsageError> {
    Ok(match opts.explain.as_str() {
        "" | "none" => None,
        x => match x.split_once('/') {
            Some(("captioning", id)) => Some((Task::Captioning, id.to_string())),
            Some(("vqa", id)) => Some((Task::Vqa, id.to_string())),
            _ => {
                return Err(UsageError(format!(
                    "option `explain`: expected a METEOR-task id such as captioning/17 or vqa/3, found `{x}`"
                )))
            }
        },
    })
}
