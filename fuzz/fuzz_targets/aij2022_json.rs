//! aij2022 contest JSON reader and the task loops: arbitrary bytes as the prediction file of each text task (with
//! the fixture GT and lemma table) and as the GT file (with the fixture predictions), in both modes, then every
//! renderer. Asserts only that nothing panics.
#![no_main]
use dropscore::input::{Entry, FileSet, Role};
use dropscore::protocols::{self, Quiet, Request};
use dropscore::{render, Mode};
use libfuzzer_sys::fuzz_target;

const TASKS: &[(&str, &[u8], &[u8])] = &[
    (
        "textqa",
        include_bytes!("../../tests/data/aij2022/textqa_gt.json"),
        include_bytes!("../../tests/data/aij2022/textqa_pred.json"),
    ),
    (
        "mathqa",
        include_bytes!("../../tests/data/aij2022/mathqa_gt.json"),
        include_bytes!("../../tests/data/aij2022/mathqa_pred.json"),
    ),
    (
        "vqa",
        include_bytes!("../../tests/data/aij2022/vqa_gt.json"),
        include_bytes!("../../tests/data/aij2022/vqa_pred.json"),
    ),
    (
        "captioning",
        include_bytes!("../../tests/data/aij2022/captioning_gt.json"),
        include_bytes!("../../tests/data/aij2022/captioning_pred.json"),
    ),
    (
        "titw",
        include_bytes!("../../tests/data/aij2022/text_recognition_gt.json"),
        include_bytes!("../../tests/data/aij2022/text_recognition_pred.json"),
    ),
];
const LEMMAS: &[u8] = include_bytes!("../../tests/data/aij2022/lemmas.tsv");

fn score(files: FileSet, mode: Mode) {
    let req = Request::new(mode);
    if let Ok(report) = protocols::score("aij2022", &files, &req, &mut Quiet) {
        let _ = report.to_json();
        let _ = render::text(&report);
        let _ = render::csv(&report);
        for d in &report.diagnostics {
            let _ = render::diagnostic(d);
        }
        let _ = protocols::explain(&report, &report);
    }
}

fuzz_target!(|data: &[u8]| {
    let (task, gt, pred) = TASKS[data.len() % TASKS.len()];
    for mode in [Mode::Official, Mode::Corrected] {
        for (g, p) in [(gt, data), (data, pred)] {
            let files = FileSet::of(
                vec![
                    Entry::from_bytes(&format!("{task}_gt.json"), Some(Role::Gt), g.to_vec()),
                    Entry::from_bytes(&format!("{task}_pred.json"), Some(Role::Pred), p.to_vec()),
                    Entry::from_bytes("lemmas.tsv", Some(Role::Gt), LEMMAS.to_vec()),
                ],
                Vec::new(),
            );
            score(files, mode);
        }
    }
    // the combined layout: the bytes as ids.json
    let files = FileSet::of(
        vec![
            Entry::from_bytes("output.json", Some(Role::Gt), TASKS[0].1.to_vec()),
            Entry::from_bytes("ids.json", Some(Role::Gt), data.to_vec()),
            Entry::from_bytes("predictions.json", Some(Role::Pred), TASKS[0].2.to_vec()),
        ],
        Vec::new(),
    );
    score(files, Mode::Official);
});
