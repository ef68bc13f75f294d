//! Aij2022's "why they differ": per task whose score differs, the step in plain words, how many answers
//! it changed and one example item, with scores to 4 decimals (no raw float dumps); the corrected report lists a
//! deviation only when it changed a number.

mod common;

use common::{bytes_input, input, score_inputs};
use dropscore::input::Role;
use dropscore::{protocols, Mode, Report};

fn text_tasks(mode: Mode) -> Report {
    let mut files = Vec::new();
    for t in ["textqa", "mathqa", "vqa", "text_recognition", "captioning"] {
        files.push(input(&format!("aij2022/{t}_gt.json"), Some(Role::Gt)));
        files.push(input(&format!("aij2022/{t}_pred.json"), Some(Role::Pred)));
    }
    files.push(input("aij2022/lemmas.tsv", Some(Role::Gt)));
    score_inputs("aij2022", files, mode, &[("lemma_table", "lemmas.tsv")])
}

/// True if `line` holds a number with more than 4 decimals.
fn raw_float(line: &str) -> bool {
    line.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .any(|w| w.split_once('.').is_some_and(|(_, f)| f.len() > 4))
}

#[test]
fn differences_name_the_step_with_one_example() {
    let (o, c) = (text_tasks(Mode::Official), text_tasks(Mode::Corrected));
    let lines = protocols::explain(&o, &c);
    for l in &lines {
        assert!(!raw_float(l) && !l.contains(" vs corrected"), "{l}");
    }
    for (task, step) in [
        ("TextQA", "letter fallback"),
        ("MathQA", "letter fallback"),
        ("TRitW", "two empty strings score 1"),
    ] {
        let k = match task {
            "TextQA" => "textqa",
            "MathQA" => "mathqa",
            _ => "titw",
        };
        if o.scores.get(k) == c.scores.get(k) {
            continue;
        }
        let l = lines
            .iter()
            .find(|l| l.starts_with(&format!("{task}: ")))
            .unwrap_or_else(|| panic!("{lines:#?}"));
        assert!(
            l.to_lowercase().contains(step) && l.contains("changed") && l.contains("e.g."),
            "{l}"
        );
        let official = format!("{:.4} official", o.scores.get(k).unwrap());
        assert!(l.contains(&official), "{l}");
    }
    // Tasks with equal scores get no line.
    for (k, name) in [("vqa", "VisualQA"), ("captioning", "ImageCaptioning")] {
        if o.scores.get(k) == c.scores.get(k) {
            assert!(!lines.iter().any(|l| l.starts_with(name)), "{lines:#?}");
        }
    }
    // extraction = readme changed no number here: no deviation listed.
    assert!(
        !c.deviations.iter().any(|d| d.starts_with("extraction")),
        "{:?}",
        c.deviations
    );
}

#[test]
fn extraction_is_a_deviation_when_it_changed_an_element() {
    // Captioning with the caption after an image: the code's pred[id][0] is no text, the README's rule finds it.
    let gt = r#"{"0": [{"type": "text", "content": ["кот на столе"]}]}"#;
    let pred = r#"{"0": [{"type": "image", "content": "x.jpg"}, {"type": "text", "content": "кот на столе"}]}"#;
    let clip = r#"{"0": 0.5}"#;
    let run = |mode| {
        score_inputs(
            "aij2022",
            vec![
                bytes_input("captioning_gt.json", Some(Role::Gt), gt.as_bytes().to_vec()),
                bytes_input(
                    "captioning_pred.json",
                    Some(Role::Pred),
                    pred.as_bytes().to_vec(),
                ),
                bytes_input(
                    "clip_scores.json",
                    Some(Role::Pred),
                    clip.as_bytes().to_vec(),
                ),
            ],
            mode,
            &[],
        )
    };
    let c = run(Mode::Corrected);
    assert!(
        c.deviations.iter().any(|d| d.starts_with("extraction")),
        "{:?}",
        c.deviations
    );
}
