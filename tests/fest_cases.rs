//! `fest`: the edge cases of docs/specs/fest.md section 6 on whole inputs — an all-black or binary prediction,
//! missing and extra predictions, size mismatches and broken PNGs, prediction colours, an empty GT, GT folder
//! oddities, the two-manuscript dataset layout, the memory cap — and the corrected mode's options, on the spec's
//! synthetic page (tests/data/fest/synthetic) and on PNGs written in memory.

mod common;

use common::fest::*;
use common::{data, has};
use dropscore::formats::png_mask::decode_gray;
use dropscore::protocols::fest::py_float;
use dropscore::{render, Mode};

fn gray8(w: u32, h: u32, px: &[u8]) -> Vec<u8> {
    png(
        w,
        h,
        png::ColorType::Grayscale,
        png::BitDepth::Eight,
        px,
        None,
    )
}

fn syn_gt_bytes() -> Vec<u8> {
    std::fs::read(data(SYN_GT)).unwrap()
}

#[test]
fn all_black_prediction() {
    let black = rgb8(40, 20, &vec![[0, 0, 0]; 800]);
    let r = fest(
        vec![("gt/001.png", syn_gt_bytes())],
        vec![("pred/001.png", black.clone())],
        Mode::Official,
        &[],
    );
    assert!(has(&r, "fest.official.ra_division_by_zero"));
    assert!(r.official_fails);
    assert_eq!(r.scores.get("line_iu"), None);
    let c = fest(
        vec![("gt/001.png", syn_gt_bytes())],
        vec![("pred/001.png", black)],
        Mode::Corrected,
        &[],
    );
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    assert_eq!(c.items[0].scores.get("ra"), None);
    assert_eq!(c.items[0].scores.get("dr"), Some(0.0));
    assert_eq!(c.items[0].scores.get("fm"), Some(0.0));
}

#[test]
fn binary_prediction_equal_to_gt() {
    let g = decode_gray("g", &syn_gt_bytes(), 1 << 30).unwrap();
    let px: Vec<[u8; 3]> = g
        .pixels
        .iter()
        .map(|v| if *v != 0 { [255; 3] } else { [0; 3] })
        .collect();
    let r = fest(
        vec![("gt/001.png", syn_gt_bytes())],
        vec![("pred/001.png", rgb8(40, 20, &px))],
        Mode::Official,
        &[],
    );
    assert_eq!((det(&r, "n2"), det(&r, "m")), (1, 0));
    assert_eq!(
        five(&r),
        vec![
            Some(0.3333333333333333),
            Some(0.0),
            Some(0.0),
            Some(0.0),
            Some(0.0)
        ]
    );
    assert!(has(&r, "fest.pred.binary_mask"));
    let t = render::text(&r);
    assert!(
        t.contains(
            "Line IU:  0.0\nDetection Rate:  0.0\nRecognition Accuracy:  0.0\nF-measure:  0\n"
        ),
        "{t}"
    );
}

#[test]
fn missing_prediction_and_extra() {
    let gt = vec![
        ("gt/001.png", syn_gt_bytes()),
        ("gt/002.png", syn_gt_bytes()),
    ];
    let pred = vec![
        ("pred/001.png", std::fs::read(data(SYN_PRED)).unwrap()),
        ("pred/009.png", std::fs::read(data(SYN_PRED)).unwrap()),
    ];
    let r = fest(gt.clone(), pred.clone(), Mode::Official, &[]);
    assert!(has(&r, "fest.official.missing_prediction"));
    assert!(has(&r, "fest.input.extra_prediction"));
    assert!(r.official_fails);
    assert_eq!(r.scores.get("line_iu"), None);
    assert_eq!(r.items[0].scores.get("pixel_iu"), Some(0.6845425867507886));
    let c = fest(gt, pred, Mode::Corrected, &[]);
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    assert_eq!(c.items[1].scores.get("line_iu"), Some(0.0));
    assert_eq!(c.items[1].scores.get("pixel_iu"), Some(0.0));
}

#[test]
fn size_mismatch_and_bad_png() {
    let small = rgb8(4, 4, &[[0, 0, 0]; 16]);
    let r = fest(
        vec![("gt/001.png", syn_gt_bytes())],
        vec![("pred/001.png", small)],
        Mode::Corrected,
        &[],
    );
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "fest.input.size_mismatch")
        .expect("error");
    assert_eq!(d.found.as_deref(), Some("4×4"));
    let mut bad = std::fs::read(data(SYN_PRED)).unwrap();
    let n = bad.len();
    bad[n - 20] ^= 0xFF; // inside the IDAT data: CRC mismatch
    let r = fest(
        vec![("gt/001.png", syn_gt_bytes())],
        vec![("pred/001.png", bad)],
        Mode::Official,
        &[],
    );
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "fest.input.bad_png")
        .expect("error");
    assert!(d.offset.is_some() && d.offset.unwrap() > 8, "{d:?}");
    let r = fest(
        vec![("gt/001.png", b"GIF89a".to_vec())],
        vec![],
        Mode::Official,
        &[],
    );
    assert_eq!(
        r.diagnostics
            .iter()
            .find(|d| d.code == "fest.input.bad_png")
            .unwrap()
            .offset,
        Some(0)
    );
}

#[test]
fn prediction_colour_warnings() {
    // No black: the lowest colour is background (official), black is (corrected).
    let px: Vec<[u8; 3]> = (0..800)
        .map(|i| {
            if i % 40 < 20 {
                [10, 10, 10]
            } else {
                [255, 0, 0]
            }
        })
        .collect();
    let r = fest(
        vec![("gt/001.png", syn_gt_bytes())],
        vec![("pred/001.png", rgb8(40, 20, &px))],
        Mode::Official,
        &[],
    );
    assert!(has(&r, "fest.pred.no_black"));
    assert_eq!(det(&r, "n2"), 1);
    let c = fest(
        vec![("gt/001.png", syn_gt_bytes())],
        vec![("pred/001.png", rgb8(40, 20, &px))],
        Mode::Corrected,
        &[],
    );
    assert_eq!(det(&c, "n2"), 2);
    // White background: one giant line.
    let px: Vec<[u8; 3]> = (0..800)
        .map(|i| if i < 10 { [0, 0, 0] } else { [255, 255, 255] })
        .collect();
    let r = fest(
        vec![("gt/001.png", syn_gt_bytes())],
        vec![("pred/001.png", rgb8(40, 20, &px))],
        Mode::Official,
        &[],
    );
    assert!(has(&r, "fest.pred.large_region"));
    // 300 colours: wrap.
    let px: Vec<[u8; 3]> = (0..800u32)
        .map(|i| {
            let c = i % 300;
            [0, (c >> 8) as u8, c as u8]
        })
        .collect();
    let r = fest(
        vec![("gt/001.png", syn_gt_bytes())],
        vec![("pred/001.png", rgb8(40, 20, &px))],
        Mode::Official,
        &[],
    );
    assert!(has(&r, "fest.pred.label_wrap"));
    assert_eq!(det(&r, "n2"), 255);
    let c = fest(
        vec![("gt/001.png", syn_gt_bytes())],
        vec![("pred/001.png", rgb8(40, 20, &px))],
        Mode::Corrected,
        &[],
    );
    assert_eq!(det(&c, "n2"), 299);
}

#[test]
fn empty_gt() {
    let gt = gray8(40, 20, &[0; 800]);
    let pred = std::fs::read(data(SYN_PRED)).unwrap();
    let r = fest(
        vec![("gt/001.png", gt.clone())],
        vec![("pred/001.png", pred.clone())],
        Mode::Official,
        &[],
    );
    assert!(has(&r, "fest.gt.empty"));
    assert_eq!(five(&r), vec![Some(0.0); 5]);
    let t = render::text(&r);
    assert!(t.starts_with("Calculating metrics...\nPixel IU:  0\nLine IU:  0\nDetection Rate:  0\nRecognition Accuracy:  0\nF-measure:  0\n"), "{t}");
    let c = fest(
        vec![("gt/001.png", gt)],
        vec![("pred/001.png", pred)],
        Mode::Corrected,
        &[],
    );
    assert_eq!(c.items[0].scores.get("dr"), None);
    assert_eq!(c.items[0].scores.get("ra"), Some(0.0));
    assert!(has(&c, "fest.metric.undefined"));
}

#[test]
fn gt_folder_oddities() {
    let pred = std::fs::read(data(SYN_PRED)).unwrap();
    let gt = vec![
        ("gt/001.png", syn_gt_bytes()),
        ("gt/001.jpg", vec![1, 2, 3]),
        ("gt/readme.txt", b"hi".to_vec()),
    ];
    let r = fest(
        gt.clone(),
        vec![("pred/001.png", pred.clone())],
        Mode::Official,
        &[],
    );
    assert!(has(&r, "fest.input.duplicate_stem"));
    assert!(has(&r, "fest.official.gt_unreadable"));
    // 001 scored twice; the official script then stops at readme.txt (its item has no scores, no headline).
    let ids: Vec<&str> = r.items.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["001", "001#2", "readme"]);
    assert_eq!(r.items[2].scores.get("line_iu"), None);
    assert_eq!(r.scores.get("line_iu"), None);
    let c = fest(gt, vec![("pred/001.png", pred)], Mode::Corrected, &[]);
    assert_eq!(c.items.len(), 1);
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    let e = fest(vec![], vec![], Mode::Official, &[]);
    assert!(has(&e, "fest.input.no_images") && !e.has_errors());
    let e = fest(vec![], vec![], Mode::Corrected, &[]);
    assert!(e.has_errors());
}

#[test]
fn dataset_layout_two_manuscripts() {
    let pred = std::fs::read(data(SYN_PRED)).unwrap();
    let gt = vec![
        (
            "ref/Latin2/text-line-gt-Latin2/test/001.png",
            syn_gt_bytes(),
        ),
        (
            "ref/Latin2/text-line-gt-Latin2/training/001.png",
            syn_gt_bytes(),
        ),
        (
            "ref/Syr341/text-line-gt-Syr341/test/001.png",
            syn_gt_bytes(),
        ),
    ];
    let r = fest(
        gt.clone(),
        vec![
            ("res/latin2/001.png", pred.clone()),
            ("res/Syr341/001.png", pred.clone()),
        ],
        Mode::Official,
        &[],
    );
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    assert_eq!(
        r.groups.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(),
        vec!["Latin2", "Syr341"]
    );
    assert_eq!(r.items.len(), 2);
    assert_eq!(r.scores.get("line_iu"), Some(0.3333333333333333));
    let r = fest(
        gt.clone(),
        vec![
            ("res/latin1/001.png", pred.clone()),
            ("res/syr/001.png", pred.clone()),
        ],
        Mode::Official,
        &[],
    );
    assert!(has(&r, "fest.input.unmatched_manuscript"));
    let r = fest(
        gt,
        vec![
            ("res/latin1/001.png", pred.clone()),
            ("res/syr/001.png", pred),
        ],
        Mode::Official,
        &[("manuscript_map", "Latin2=latin1,Syr341=syr")],
    );
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let amb = vec![
        ("g/A/text-line-gt-A/x/001.png", syn_gt_bytes()),
        ("g/A/text-line-gt-A/y/001.png", syn_gt_bytes()),
    ];
    let r = fest(amb, vec![], Mode::Official, &[]);
    assert!(has(&r, "fest.input.ambiguous_split"));
}

#[test]
fn memory_cap() {
    let r = fest(
        vec![("gt/001.png", syn_gt_bytes())],
        vec![("pred/001.png", std::fs::read(data(SYN_PRED)).unwrap())],
        Mode::Official,
        &[],
    );
    assert!(!r.has_errors());
    // A header claiming 100000×100000 is refused before decoding.
    let mut b = syn_gt_bytes();
    b[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    b[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    let r = fest(vec![("gt/001.png", b)], vec![], Mode::Official, &[]);
    assert!(has(&r, "fest.input.too_large"), "{:?}", r.diagnostics);
}

#[test]
fn corrected_options() {
    for set in [
        vec![("matching", "hungarian")],
        vec![("aggregation", "pooled")],
        vec![("pred_encoding", "components")],
        vec![
            ("strict_threshold", "true"),
            ("background_colour", "#ff0000"),
        ],
    ] {
        let r = synthetic(Mode::Corrected, &set);
        assert!(!r.has_errors(), "{set:?}: {:?}", r.diagnostics);
        assert!(r.scores.get("line_iu").is_some());
    }
    // components on the synthetic prediction: blue and green touch, so L2 is one predicted line.
    let r = synthetic(Mode::Corrected, &[("pred_encoding", "components")]);
    assert_eq!(det(&r, "n2"), 4);
    assert_eq!(
        py_float(r.items[0].scores.get("pixel_iu").unwrap()),
        "0.799410029498525"
    );
}
