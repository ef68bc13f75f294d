//! chalearn-ce readers and metric: arbitrary bytes as a category's submission file (with the fixture GT) and as
//! its GT file (with the fixture submission), in both modes and under several option sets, then every renderer.
//! Asserts only that nothing panics.
#![no_main]
use dropscore::input::{Entry, FileSet, Role};
use dropscore::protocols::{self, Quiet, Request};
use dropscore::{render, Mode};
use libfuzzer_sys::fuzz_target;

const GT: &[u8] =
    include_bytes!("../../tests/data/chalearn-ce/ap_example/input/ref/La_Tomatina_test.txt");
const RES: &[u8] =
    include_bytes!("../../tests/data/chalearn-ce/ap_example/input/res/La_Tomatina.txt");

const SETS: &[&[(&str, &str)]] = &[
    &[],
    &[("integration", "step"), ("sentinels", "false")],
    &[
        ("tie_order", "positives_first"),
        ("missing_images", "append"),
        ("gt_zero", "ignore"),
    ],
    &[
        ("tie_order", "negatives_first"),
        ("id_match", "stem"),
        ("duplicates", "error"),
    ],
];

fn score(files: FileSet, mode: Mode, salt: usize) {
    let mut req = Request::new(mode);
    for (k, v) in SETS[salt % SETS.len()] {
        req.set.push((k.to_string(), v.to_string()));
    }
    if let Ok(report) = protocols::score("chalearn-ce", &files, &req, &mut Quiet) {
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
    for mode in [Mode::Official, Mode::Corrected] {
        let sub = FileSet::of(
            vec![
                Entry::from_bytes("ref/La_Tomatina_test.txt", Some(Role::Gt), GT.to_vec()),
                Entry::from_bytes("res/La_Tomatina.txt", Some(Role::Pred), data.to_vec()),
            ],
            Vec::new(),
        );
        score(sub, mode, data.len());
        let gt = FileSet::of(
            vec![
                Entry::from_bytes("ref/La_Tomatina_test.txt", Some(Role::Gt), data.to_vec()),
                Entry::from_bytes("res/La_Tomatina.txt", Some(Role::Pred), RES.to_vec()),
            ],
            Vec::new(),
        );
        score(gt, mode, data.len() / 2);
    }
});
