//! Targets of the five competitions' own readers (falsid, chalearn-ce, fest, aij2022), the lemmatiser asset
//! and the organizers' config.

use super::{both_modes, pair, render_all, request, score, set_of};
use crate::input::{Entry, FileSet, Input, Limits, Role};
use crate::protocols::{self, Quiet};
use crate::Mode;
use std::rc::Rc;

const FALSID_GT: &[u8] = include_bytes!("../../tests/data/falsid/worked/gt_merged.csv");
const FALSID_PRED: &[u8] = include_bytes!("../../tests/data/falsid/worked/pred_merged.csv");
const FALSID_SETS: &[&[(&str, &str)]] = &[
    &[],
    &[("label_case_insensitive", "true"), ("id_match", "stem")],
    &[
        ("duplicate_ids", "last_wins"),
        ("missing_prediction", "exclude"),
    ],
    &[("topk_class", "writer"), ("confusion_convention", "page")],
    &[("max_memory", super::SMALL_BUDGET)],
];

/// falsid label reader: the bytes as a GT label file (fixed predictions), then as a predicted label file
/// under several names (merged, per subset), both modes, option sets chosen by length.
pub fn falsid_labels(data: &[u8]) {
    let set = FALSID_SETS[data.len() % FALSID_SETS.len()];
    both_modes(
        "falsid",
        &pair("gt.csv", Role::Gt, data, "pred.csv", FALSID_PRED),
        set,
    );
    let name = ["pred.csv", "pizan.csv", "tasso_yaqut.txt"][data.len() % 3];
    let set = FALSID_SETS[(data.len() / 3) % FALSID_SETS.len()];
    both_modes(
        "falsid",
        &pair(name, Role::Pred, data, "gt.csv", FALSID_GT),
        set,
    );
}

const TASSO_GT: &[u8] = include_bytes!("../../tests/data/falsid/topk/gt_tasso.csv");
const MATRIX_SETS: &[&[(&str, &str)]] = &[
    &[],
    &[("topk_ties", "pessimistic"), ("topk", "1,2,9")],
    &[("nonfinite", "error"), ("topk_no_match", "exclude")],
    &[("id_match", "stem")],
    &[("max_memory", super::SMALL_BUDGET)],
];

/// falsid distance-matrix reader: the bytes as a matrix (text layouts D1–D3, and `.npy`) next to a fixed GT
/// and predictions.
pub fn falsid_matrix(data: &[u8]) {
    let name = [
        "dist_tasso.csv",
        "dist_tasso.npy",
        "tasso.txt",
        "tasso_matrix.tsv",
    ][data.len() % 4];
    let files = set_of(vec![
        Entry::from_bytes("gt_tasso.csv", Some(Role::Gt), TASSO_GT.to_vec()),
        Entry::from_bytes(
            "pred_tasso.csv",
            Some(Role::Pred),
            b"q0,0\nq1,1\nq2,1\nq3,0\n".to_vec(),
        ),
        Entry::from_bytes(name, Some(Role::Pred), data.to_vec()),
    ]);
    let mode = if data.len().is_multiple_of(2) {
        Mode::Official
    } else {
        Mode::Corrected
    };
    let set = MATRIX_SETS[(data.len() / 4) % MATRIX_SETS.len()];
    score("falsid", &files, &request(mode, set));
}

const CE_GT: &[u8] =
    include_bytes!("../../tests/data/chalearn-ce/ap_example/input/ref/La_Tomatina_test.txt");
const CE_RES: &[u8] =
    include_bytes!("../../tests/data/chalearn-ce/ap_example/input/res/La_Tomatina.txt");
const CE_SETS: &[&[(&str, &str)]] = &[
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
    &[("max_memory", super::SMALL_BUDGET)],
];

/// chalearn-ce readers and metric: the bytes as a category's submission (fixture GT), then as its GT
/// (fixture submission), both modes, several option sets.
pub fn chalearn_ce(data: &[u8]) {
    let sub = set_of(vec![
        Entry::from_bytes("ref/La_Tomatina_test.txt", Some(Role::Gt), CE_GT.to_vec()),
        Entry::from_bytes("res/La_Tomatina.txt", Some(Role::Pred), data.to_vec()),
    ]);
    both_modes("chalearn-ce", &sub, CE_SETS[data.len() % CE_SETS.len()]);
    let gt = set_of(vec![
        Entry::from_bytes("ref/La_Tomatina_test.txt", Some(Role::Gt), data.to_vec()),
        Entry::from_bytes("res/La_Tomatina.txt", Some(Role::Pred), CE_RES.to_vec()),
    ]);
    both_modes(
        "chalearn-ce",
        &gt,
        CE_SETS[(data.len() / 2) % CE_SETS.len()],
    );
}

const FEST_GT: &[u8] = include_bytes!("../../tests/data/fest/synthetic/gt/001.png");
const FEST_PRED: &[u8] = include_bytes!("../../tests/data/fest/synthetic/pred/001.png");

fn fest_run(files: Vec<(&str, Role, Vec<u8>)>, set: &[(&str, &str)]) {
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
        let mut req = request(mode, set);
        req.set.push(("max_megapixels".into(), "4".into()));
        if let Ok(r) = protocols::score("fest", &fs, &req, &mut Quiet) {
            render_all(&r);
            if let Some(it) = r.items.first() {
                let _ = protocols::fest::overlay::overlay(&fs, &req, &it.id);
            }
        }
    }
}

/// fest decoding and pairing: the first byte picks options and a shape, the rest is (1) a prediction PNG
/// next to the synthetic GT, (2) a GT PNG next to the synthetic prediction, or (3) a prediction zip
/// (pairing, manuscripts, stems); both modes, with the overlay of the first item.
pub fn fest_masks(data: &[u8]) {
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
        0 => fest_run(
            vec![
                ("gt/001.png", Role::Gt, FEST_GT.to_vec()),
                ("pred/001.png", Role::Pred, rest.to_vec()),
            ],
            set,
        ),
        1 => fest_run(
            vec![
                ("gt/001.png", Role::Gt, rest.to_vec()),
                ("pred/001.png", Role::Pred, FEST_PRED.to_vec()),
            ],
            set,
        ),
        _ => fest_run(
            vec![
                (
                    "ref/A/text-line-gt-A/test/001.png",
                    Role::Gt,
                    FEST_GT.to_vec(),
                ),
                ("ref/B/001.png", Role::Gt, FEST_GT.to_vec()),
                ("res.zip", Role::Pred, rest.to_vec()),
            ],
            set,
        ),
    }
}

/// The organizers' config readers: the text as dropscore.toml, as its JSON form, and as a
/// competition.yaml; a config that loads is also rendered into `detailed_results.html` of a fixed report.
pub fn config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = crate::config::leaderboard_from_yaml(text);
    let _ = crate::config::from_json(text);
    if let Ok(c) = crate::config::from_toml(text) {
        if let Some(r) = super::families::fixed_report() {
            let _ = crate::html::detailed(&r, Some(&c));
        }
    }
}

const LEMMA_FILES: [&str; 16] = [
    "meta.txt",
    "prefixes.txt",
    "suffixes.txt",
    "paradigms.txt",
    "tags.txt",
    "lists.txt",
    "raw_lists.txt",
    "words.txt",
    "plists.txt",
    "pred0.txt",
    "pred1.txt",
    "pred2.txt",
    "known_prefixes.txt",
    "particles.txt",
    "unicode.txt",
    "overrides.txt",
];

const LEMMA_WORDS: [&str; 14] = [
    "кот",
    "котами",
    "ещё",
    "еще",
    "наилучший",
    "по-русски",
    "кое-что",
    "псевдокот",
    "xiv",
    "3,5",
    "-",
    "",
    "не-кот-не",
    "ёжиками",
];

/// The lemmatiser asset reader: first byte even, the rest is an asset (`Lemmatizer::from_bytes`); odd, the
/// converter's 16 tables as text separated by NUL bytes, packed by `lemma::build::build_with` first. A
/// loaded asset lemmatises fixed words and the words of the input's `words.txt` section.
pub fn lemma_asset(data: &[u8]) {
    let Some((&shape, rest)) = data.split_first() else {
        return;
    };
    let mut extra: Vec<String> = Vec::new();
    let asset = if shape % 2 == 0 {
        rest.to_vec()
    } else {
        let parts: Vec<&[u8]> = rest.split(|&b| b == 0).collect();
        let text =
            |i: usize| String::from_utf8_lossy(parts.get(i).copied().unwrap_or(&[])).into_owned();
        for line in text(7).lines().take(64) {
            extra.push(line.split('\t').next().unwrap_or("").to_string());
        }
        let read = |name: &str| -> Result<String, String> {
            let i = LEMMA_FILES
                .iter()
                .position(|f| *f == name)
                .ok_or("unknown table")?;
            Ok(text(i))
        };
        match crate::lemma::build::build_with(&read) {
            Ok(a) => a,
            Err(_) => return,
        }
    };
    if let Ok(lem) = crate::lemma::Lemmatizer::from_bytes(&asset) {
        for w in LEMMA_WORDS
            .iter()
            .copied()
            .chain(extra.iter().map(String::as_str))
        {
            let _ = lem.normal_form(w);
            let _ = lem.is_known(w);
        }
    }
}

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

/// aij2022 contest JSON and the task loops: the bytes as the prediction file of a text task (fixture GT and
/// lemma table), then as its GT file, both modes; then as `ids.json` of the combined layout.
pub fn aij2022_json(data: &[u8]) {
    let (task, gt, pred) = TASKS[data.len() % TASKS.len()];
    for (g, p) in [(gt, data), (data, pred)] {
        let files = set_of(vec![
            Entry::from_bytes(&format!("{task}_gt.json"), Some(Role::Gt), g.to_vec()),
            Entry::from_bytes(&format!("{task}_pred.json"), Some(Role::Pred), p.to_vec()),
            Entry::from_bytes("lemmas.tsv", Some(Role::Gt), LEMMAS.to_vec()),
        ]);
        both_modes("aij2022", &files, &[]);
    }
    let files = set_of(vec![
        Entry::from_bytes("output.json", Some(Role::Gt), TASKS[0].1.to_vec()),
        Entry::from_bytes("ids.json", Some(Role::Gt), data.to_vec()),
        Entry::from_bytes("predictions.json", Some(Role::Pred), TASKS[0].2.to_vec()),
    ]);
    score("aij2022", &files, &request(Mode::Official, &[]));
}

const FID_GT: &[u8] = include_bytes!("../../tests/data/aij2022/fid_A_gt_acts.npy");
const CAP_GT: &[u8] = include_bytes!("../../tests/data/aij2022/captioning_gt.json");
const CAP_PRED: &[u8] = include_bytes!("../../tests/data/aij2022/captioning_pred.json");
const CLIP_IMAGE: &[u8] = include_bytes!("../../tests/data/aij2022/clip/clip_image.npy");
const CLIP_IDS: &[u8] = include_bytes!("../../tests/data/aij2022/clip/clip_ids.json");

/// aij2022 `.npy` reader and FID: the bytes through `formats::npy::parse`, as the generated side's
/// activations (fixture reference), and as a CLIP text-embedding matrix next to the fixture image matrix.
pub fn aij2022_npy(data: &[u8]) {
    let _ = crate::formats::npy::parse("x.npy", data);
    // Keep the FID affordable: a huge declared shape is refused by the reader before any allocation.
    if data.len() > 1 << 16 {
        return;
    }
    let files = set_of(vec![
        Entry::from_bytes("gt.npy", Some(Role::Gt), FID_GT.to_vec()),
        Entry::from_bytes("pred.npy", Some(Role::Pred), data.to_vec()),
    ]);
    score("aij2022", &files, &request(Mode::Official, &[]));
    let files = set_of(vec![
        Entry::from_bytes("captioning_gt.json", Some(Role::Gt), CAP_GT.to_vec()),
        Entry::from_bytes("captioning_pred.json", Some(Role::Pred), CAP_PRED.to_vec()),
        Entry::from_bytes("clip_image.npy", Some(Role::Pred), CLIP_IMAGE.to_vec()),
        Entry::from_bytes("clip_text.npy", Some(Role::Pred), data.to_vec()),
        Entry::from_bytes("clip_ids.json", Some(Role::Pred), CLIP_IDS.to_vec()),
    ]);
    score("aij2022", &files, &request(Mode::Official, &[]));
}

const NPZ_GT: &[u8] = include_bytes!("../../tests/data/aij2022/fid_A_gt_stats.npz");
const NPZ_PRED: &[u8] =
    include_bytes!("../../tests/data/aij2022/fid_A_pred_stats_uncompressed.npz");

/// aij2022 `.npz` statistics: the bytes as the generated side's `.npz` (a zip opened by the input layer,
/// members `mu.npy` / `sigma.npy`), the fixture statistics as the reference. Inputs under 64 bytes flip
/// bytes of the stored fixture instead, so the fuzzer starts from a valid archive.
pub fn aij2022_npz(data: &[u8]) {
    let mut bytes = NPZ_PRED.to_vec();
    if data.len() < 64 {
        for (i, b) in data.iter().enumerate() {
            let at = (*b as usize * 7 + i * 131) % bytes.len();
            bytes[at] ^= data.get(i + 1).copied().unwrap_or(0x5a);
        }
    } else {
        bytes = data.to_vec();
    }
    let files = super::build(
        vec![
            ("gt.npz", Some(Role::Gt), NPZ_GT.to_vec()),
            ("pred.npz", Some(Role::Pred), bytes),
        ],
        &Limits::default(),
    );
    score("aij2022", &files, &request(Mode::Official, &[]));
}
