//! fest decoding and pairing: the input's first byte picks a shape, the rest is used as (1) a prediction PNG
//! next to the synthetic GT, (2) a GT PNG next to the synthetic prediction, (3) a prediction zip (pairing,
//! manuscripts, stems), each scored in both modes and rendered. Asserts only that nothing panics.
#![no_main]
use dropscore::input::{FileSet, Input, Limits, Role};
use dropscore::protocols::{self, Quiet, Request};
use dropscore::{render, Mode};
use libfuzzer_sys::fuzz_target;
use std::rc::Rc;

const GT: &[u8] = include_bytes!("../../tests/data/fest/synthetic/gt/001.png");
const PRED: &[u8] = include_bytes!("../../tests/data/fest/synthetic/pred/001.png");

fn run(files: Vec<(&str, Role, Vec<u8>)>, set: &[(&str, &str)]) {
    let inputs = files
        .into_iter()
        .map(|(p, r, b)| Input {
            path: p.to_string(),
            role: Some(r),
            blob: Rc::new(b),
        })
        .collect();
    let fs = FileSet::build(inputs, &Limits::default());
    for mode in [Mode::Official, Mode::Corrected] {
        let mut req = Request::new(mode);
        req.set = set
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        req.set.push(("max_megapixels".into(), "4".into()));
        if let Ok(r) = protocols::score("fest", &fs, &req, &mut Quiet) {
            let _ = render::text(&r);
            let _ = r.to_json();
            if let Some(it) = r.items.first() {
                let _ = protocols::fest::overlay::overlay(&fs, &req, &it.id);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&k, rest)) = data.split_first() else {
        return;
    };
    let set: &[(&str, &str)] = match k % 4 {
        0 => &[],
        1 => &[("connectivity", "4")],
        2 => &[("matching", "hungarian"), ("aggregation", "pooled")],
        _ => &[("label_wrap", "false"), ("background_colour", "#ffffff")],
    };
    match (k / 4) % 3 {
        0 => run(
            vec![
                ("gt/001.png", Role::Gt, GT.to_vec()),
                ("pred/001.png", Role::Pred, rest.to_vec()),
            ],
            set,
        ),
        1 => run(
            vec![
                ("gt/001.png", Role::Gt, rest.to_vec()),
                ("pred/001.png", Role::Pred, PRED.to_vec()),
            ],
            set,
        ),
        _ => run(
            vec![
                ("ref/A/text-line-gt-A/test/001.png", Role::Gt, GT.to_vec()),
                ("ref/B/001.png", Role::Gt, GT.to_vec()),
                ("res.zip", Role::Pred, rest.to_vec()),
            ],
            set,
        ),
    }
});
