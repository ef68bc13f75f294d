//! The `squad` layout's ground truth: a SQuAD v1.1 or v2.0 dataset file (`data[].paragraphs[].qas[]`, each
//! with `id`, `answers[].text`, v2.0 `is_impossible`). The predictions are the `json` layout's `{"qid":
//! "answer"}`. The version is the file's `version` (`v2.0`, `1.1`…), else v2.0 when a question says
//! `is_impossible`.

use super::{error, Record};
use crate::diag::Diags;
use crate::metrics::text::squad::Version;
use serde_json::Value;

/// A dataset: its questions in file order (the texts are the gold answers), whether each has an answer
/// (`bool(qa['answers'])`, v2.0's `qid_to_has_ans`), and the script version.
pub struct Dataset {
    pub records: Vec<Record>,
    pub has_answer: Vec<bool>,
    pub version: Version,
}

/// Reads a dataset; `None` after a located error (`text.json`, `text.squad`).
pub fn read(file: &str, body: &str, diags: &mut Diags) -> Option<Dataset> {
    let v: Value = match serde_json::from_str(body) {
        Ok(v) => v,
        Err(e) => {
            diags.push(error(
                "text.json",
                file,
                e.line() as u64,
                e.column() as u64,
                format!("invalid JSON: {e}"),
            ));
            return None;
        }
    };
    let bad = |diags: &mut Diags, what: &str| {
        diags.push(
            error("text.squad", file, 0, 0, format!("not a SQuAD dataset: {what}"))
                .hint("A SQuAD file is {\"data\": [{\"paragraphs\": [{\"qas\": [{\"id\": …, \"answers\": [{\"text\": …}]}]}]}]}."),
        );
    };
    let Some(data) = v.get("data").and_then(Value::as_array) else {
        bad(diags, "no `data` list");
        return None;
    };
    let mut out = Dataset {
        records: Vec::new(),
        has_answer: Vec::new(),
        version: Version::V1,
    };
    let mut impossible = false;
    for (a, article) in data.iter().enumerate() {
        let Some(paragraphs) = article.get("paragraphs").and_then(Value::as_array) else {
            bad(
                diags,
                &format!("article {} has no `paragraphs` list", a + 1),
            );
            return None;
        };
        for p in paragraphs {
            let Some(qas) = p.get("qas").and_then(Value::as_array) else {
                bad(
                    diags,
                    &format!("a paragraph of article {} has no `qas` list", a + 1),
                );
                return None;
            };
            for qa in qas {
                question(qa, a, &mut out, &mut impossible, &bad, diags)?;
            }
        }
    }
    let version = v.get("version").and_then(Value::as_str).unwrap_or("");
    let v2 = version.trim_start_matches('v').starts_with('2');
    out.version = if v2 || impossible {
        Version::V2
    } else {
        Version::V1
    };
    Some(out)
}

/// One question of article `a`: its id and gold answers appended to `out`.
fn question(
    qa: &Value,
    a: usize,
    out: &mut Dataset,
    impossible: &mut bool,
    bad: &dyn Fn(&mut Diags, &str),
    diags: &mut Diags,
) -> Option<()> {
    let id = match qa.get("id") {
        Some(Value::String(s)) => s.clone(),
        _ => {
            bad(
                diags,
                &format!("a question of article {} has no string `id`", a + 1),
            );
            return None;
        }
    };
    let answers = qa.get("answers").and_then(Value::as_array);
    let texts: Option<Vec<String>> = answers.map(|xs| {
        xs.iter()
            .filter_map(|x| x.get("text").and_then(Value::as_str).map(str::to_string))
            .collect()
    });
    let Some(texts) = texts else {
        bad(diags, &format!("question `{id}` has no `answers` list"));
        return None;
    };
    *impossible |= qa
        .get("is_impossible")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    out.has_answer.push(answers.is_some_and(|a| !a.is_empty()));
    out.records.push(Record {
        id,
        texts,
        line: 0,
        column: 0,
    });
    Some(())
}
