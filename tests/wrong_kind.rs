//! Files of the wrong kind are named for what they are, before any parser sees them (issue: a participant's
//! mistakes): a Word document, a JPEG, a PDF, binary data, an empty file. The first diagnostic names the file
//! and its kind in plain words; no internal text (Rust or OS messages) reaches the user; the explanation of
//! official vs corrected says that corrected mode fails too.

mod common;
use common::{bytes_input, input, score_inputs};
use dropscore::input::Role;
use dropscore::protocols::explain;
use dropscore::{Mode, Report};
use std::io::Write;

/// A minimal .docx: a zip with `[Content_Types].xml` and `word/document.xml`.
fn docx() -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, body) in [
        ("[Content_Types].xml", "<Types/>"),
        ("word/document.xml", "<w:document/>"),
    ] {
        w.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(body.as_bytes()).unwrap();
    }
    w.finish().unwrap().into_inner()
}

const JPEG: &[u8] = &[
    0xff, 0xd8, 0xff, 0xe0, 0, 16, b'J', b'F', b'I', b'F', 0, 1, 1, 0,
];

/// Texts that must never reach a user (Rust and OS internals).
const INTERNAL: &[&str] = &[
    "out of bounds",
    "os error",
    "failed to fill",
    "unwrap",
    "panicked",
    "byte index",
];

fn no_internal_text(r: &Report) {
    for d in &r.diagnostics {
        let all = format!("{} {:?} {:?}", d.message, d.hint, d.found);
        for bad in INTERNAL {
            assert!(!all.contains(bad), "internal text `{bad}` in {d:?}");
        }
    }
}

/// Scores `pred` (path, bytes) against the fixture GT `gt` in both modes; returns (official, corrected).
fn both(protocol: &str, gt: &str, pred: (&str, Vec<u8>)) -> (Report, Report) {
    let run = |mode| {
        score_inputs(
            protocol,
            vec![
                input(gt, Some(Role::Gt)),
                bytes_input(pred.0, Some(Role::Pred), pred.1.clone()),
            ],
            mode,
            &[],
        )
    };
    let (o, c) = (run(Mode::Official), run(Mode::Corrected));
    no_internal_text(&o);
    no_internal_text(&c);
    (o, c)
}

fn first(r: &Report) -> &dropscore::Diagnostic {
    r.diagnostics.first().expect("a diagnostic")
}

#[test]
fn kws_word_jpeg_empty() {
    let gt = "kws/rusteval/GroundTruthRelevanceJudgementsSample.xml";
    for (name, bytes, code, words) in [
        (
            "report.docx",
            docx(),
            "input.wrong_kind",
            "is a Word document",
        ),
        (
            "photo.jpg",
            JPEG.to_vec(),
            "input.wrong_kind",
            "is a JPEG image",
        ),
        (
            "results.xml",
            Vec::new(),
            "input.empty",
            "is empty (0 bytes)",
        ),
    ] {
        let (o, c) = both("kws", gt, (name, bytes));
        let d = first(&o);
        assert_eq!(d.code, code, "{name}: {:?}", o.diagnostics);
        assert_eq!(
            d.file.as_deref(),
            Some(name),
            "the whole file, not a zip member"
        );
        assert!(d.message.contains(words), "{}", d.message);
        assert!(d.message.contains("prediction side"), "{}", d.message);
        assert!(o.official_fails && c.has_errors());
        let why = explain(&o, &c);
        assert!(
            why[0].contains("corrected mode fails too"),
            "a true statement: {why:?}"
        );
    }
}

#[test]
fn fest_jpeg_prediction_and_empty_png() {
    let (o, _) = both(
        "fest",
        "fest/synthetic/gt/001.png",
        ("001.jpg", JPEG.to_vec()),
    );
    let d = first(&o);
    assert_eq!(d.code, "input.wrong_kind");
    assert!(d.message.contains("is a JPEG image"), "{}", d.message);
    assert_eq!(
        d.hint.as_deref(),
        Some("JPEG is lossy and changes colours: save predictions as PNG.")
    );
    let (o, c) = both("fest", "fest/synthetic/gt/001.png", ("001.png", Vec::new()));
    assert_eq!(first(&o).code, "input.empty");
    assert_eq!(first(&c).code, "input.empty");
}

#[test]
fn falsid_jpeg_and_pdf() {
    for (name, bytes, words) in [
        ("pred.jpg", JPEG.to_vec(), "is a JPEG image"),
        ("pred.pdf", b"%PDF-1.7\n".to_vec(), "is a PDF document"),
    ] {
        let (o, _) = both("falsid", "falsid/worked/gt_merged.csv", (name, bytes));
        let d = first(&o);
        assert_eq!(d.code, "input.wrong_kind", "{:?}", o.diagnostics);
        assert!(d.message.contains(words), "{}", d.message);
        assert!(
            !o.diagnostics.iter().any(|d| d.message.contains("UTF-8")),
            "no advice to save a JPEG as UTF-8"
        );
    }
}

#[test]
fn chalearn_empty_prediction_is_a_category_without_lines() {
    let (o, _) = both(
        "chalearn-ce",
        "chalearn-ce/ap_example/input/ref/La_Tomatina_test.txt",
        ("La_Tomatina.txt", Vec::new()),
    );
    assert!(
        !o.diagnostics.iter().any(|d| d.code.starts_with("input.")),
        "an empty category file is read: {:?}",
        o.diagnostics
    );
}

#[test]
fn aij2022_binary_prediction() {
    let (o, _) = both(
        "aij2022",
        "aij2022/textqa_gt.json",
        (
            "textqa_pred.json",
            vec![0x00, 0x9c, 0x13, 0x00, 0xfe, 0x41, 0x42],
        ),
    );
    let d = first(&o);
    assert_eq!(d.code, "input.wrong_kind");
    assert!(d.message.contains("binary data"), "{}", d.message);
    // Bytes after a UTF-16 byte-order mark are named for what they most likely are.
    let (o, _) = both(
        "aij2022",
        "aij2022/textqa_gt.json",
        ("textqa_pred.json", vec![0xff, 0xfe, 0, 0x41, 0x42]),
    );
    let d = first(&o);
    assert_eq!(d.code, "input.wrong_kind");
    assert!(d.message.contains("UTF-16"), "{}", d.message);
}
