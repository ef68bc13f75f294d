//! aij2022 CLIP from embedding matrices (docs/specs/aij2022.md 2.3 b): the captioning fixture with image/text
//! matrices and ids (tests/data/aij2022/clip, written by its make.py with NumPy), exact per-id values, the same
//! matrices inside a `.npz`, and the located errors for shape and id mismatches.

mod common;

use common::{bytes_input, data, has, input, score_inputs};
use dropscore::input::{Input, Role};
use dropscore::{Mode, Report};
use serde_json::Value;

const D: &str = "aij2022";

fn expected() -> Value {
    serde_json::from_slice(&std::fs::read(data(&format!("{D}/clip/clip_expected.json"))).unwrap())
        .unwrap()
}

fn captioning(extra: Vec<Input>) -> Report {
    let mut v = vec![
        input(&format!("{D}/captioning_gt.json"), Some(Role::Gt)),
        input(&format!("{D}/captioning_pred.json"), Some(Role::Pred)),
    ];
    v.extend(extra);
    score_inputs("aij2022", v, Mode::Official, &[])
}

fn clip_files() -> Vec<Input> {
    vec![
        input(&format!("{D}/clip/clip_image.npy"), Some(Role::Pred)),
        input(&format!("{D}/clip/clip_text.npy"), Some(Role::Pred)),
        input(&format!("{D}/clip/clip_ids.json"), Some(Role::Pred)),
    ]
}

fn clip_of(r: &Report, id: &str) -> Option<f64> {
    r.items
        .iter()
        .find(|i| i.id == format!("captioning/{id}"))
        .and_then(|i| i.scores.get("clip"))
}

#[test]
fn embeddings_give_exact_per_id_scores() {
    let e = expected();
    let r = captioning(clip_files());
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let bits = |v: &Value| v.as_u64().map(f64::from_bits);
    for (id, v) in e["per_id_bits"].as_object().unwrap() {
        assert_eq!(clip_of(&r, id), bits(v), "id {id}");
        // NumPy's own formula agrees to the last bit on these rows (d = 6 < 8: no pairwise blocks)
        assert_eq!(clip_of(&r, id), bits(&e["numpy_bits"][id]), "numpy id {id}");
        // the float32 (torch-style) value to float32 precision
        let f32v = e["float32"][id].as_f64().unwrap();
        assert!(
            (clip_of(&r, id).unwrap() - f32v).abs() <= 1e-6,
            "f32 id {id}"
        );
    }
    let cap = bits(&e["clip_cap_bits"]).unwrap();
    assert_eq!(r.scores.get("captioning_clip"), Some(cap));
    assert_eq!(r.scores.get("captioning"), Some((cap + 0.666359375) / 2.0));
}

fn npz(members: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut buf = std::io::Cursor::new(Vec::new());
    let mut z = zip::ZipWriter::new(&mut buf);
    for (name, b) in members {
        z.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut z, b).unwrap();
    }
    z.finish().unwrap();
    buf.into_inner()
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(data(&format!("{D}/clip/{rel}"))).unwrap()
}

#[test]
fn embeddings_inside_npz() {
    let e = expected();
    let z = npz(&[
        ("image.npy", read("clip_image.npy")),
        ("text.npy", read("clip_text.npy")),
    ]);
    let r = captioning(vec![
        bytes_input("clip_embeddings.npz", Some(Role::Pred), z),
        input(&format!("{D}/clip/clip_ids.json"), Some(Role::Pred)),
    ]);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let cap = e["clip_cap_bits"].as_u64().map(f64::from_bits);
    assert_eq!(r.scores.get("captioning_clip"), cap);
}

#[test]
fn mismatches_are_located_errors() {
    // 3 ids for 4 rows
    let r = captioning(vec![
        input(&format!("{D}/clip/clip_image.npy"), Some(Role::Pred)),
        input(&format!("{D}/clip/clip_text.npy"), Some(Role::Pred)),
        bytes_input(
            "clip_ids.json",
            Some(Role::Pred),
            br#"["0","1","2"]"#.to_vec(),
        ),
    ]);
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "aij.clip.shape")
        .expect("aij.clip.shape");
    assert!(d.file.as_deref().unwrap().ends_with("clip_image.npy"));
    assert!(d.message.contains("4 rows but 3 ids"), "{}", d.message);
    assert_eq!(r.scores.get("captioning"), None);
    assert_eq!(r.scores.get("captioning_meteor"), Some(0.666359375));
    // d mismatch: text matrix 4×3
    let mut h = "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 3), }".to_string();
    while !(10 + h.len() + 1).is_multiple_of(64) {
        h.push(' ');
    }
    h.push('\n');
    let mut t = b"\x93NUMPY\x01\x00".to_vec();
    t.extend((h.len() as u16).to_le_bytes());
    t.extend(h.as_bytes());
    t.extend((0..12).flat_map(|i| (i as f64 + 1.0).to_le_bytes()));
    let r = captioning(vec![
        input(&format!("{D}/clip/clip_image.npy"), Some(Role::Pred)),
        bytes_input("clip_text.npy", Some(Role::Pred), t),
        input(&format!("{D}/clip/clip_ids.json"), Some(Role::Pred)),
    ]);
    assert!(has(&r, "aij.clip.shape"), "{:?}", r.diagnostics);
    // duplicate and non-id elements, bad JSON with line/column, missing part
    let r = captioning(vec![
        input(&format!("{D}/clip/clip_image.npy"), Some(Role::Pred)),
        input(&format!("{D}/clip/clip_text.npy"), Some(Role::Pred)),
        bytes_input(
            "clip_ids.json",
            Some(Role::Pred),
            br#"["0","0",null,"3"]"#.to_vec(),
        ),
    ]);
    assert!(has(&r, "aij.clip.duplicate_id") && has(&r, "aij.clip.ids"));
    let r = captioning(vec![
        input(&format!("{D}/clip/clip_image.npy"), Some(Role::Pred)),
        input(&format!("{D}/clip/clip_text.npy"), Some(Role::Pred)),
        bytes_input("clip_ids.json", Some(Role::Pred), b"[\"0\",\n 1,".to_vec()),
    ]);
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "aij.clip.ids")
        .unwrap();
    assert_eq!(d.line, Some(2));
    let r = captioning(vec![input(
        &format!("{D}/clip/clip_image.npy"),
        Some(Role::Pred),
    )]);
    assert!(
        has(&r, "aij.clip.embeddings_incomplete"),
        "{:?}",
        r.diagnostics
    );
}

#[test]
fn zero_row_is_an_error_for_that_id() {
    let mut h = "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 6), }".to_string();
    while !(10 + h.len() + 1).is_multiple_of(64) {
        h.push(' ');
    }
    h.push('\n');
    let mut t = b"\x93NUMPY\x01\x00".to_vec();
    t.extend((h.len() as u16).to_le_bytes());
    t.extend(h.as_bytes());
    t.extend((0..24).flat_map(|i| (if i < 6 { 0.0 } else { i as f64 }).to_le_bytes()));
    let r = captioning(vec![
        input(&format!("{D}/clip/clip_image.npy"), Some(Role::Pred)),
        bytes_input("clip_text.npy", Some(Role::Pred), t),
        input(&format!("{D}/clip/clip_ids.json"), Some(Role::Pred)),
    ]);
    assert!(has(&r, "aij.clip.zero_norm"), "{:?}", r.diagnostics);
    // the id without a score makes the CLIP part incomplete, as for a scores file missing an id
    assert!(has(&r, "aij.clip.missing_id"), "{:?}", r.diagnostics);
    assert_eq!(r.scores.get("captioning_clip"), None);
}
