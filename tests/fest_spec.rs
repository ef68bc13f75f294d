//! `fest`: what tests/fest.rs leaves implicit — the prediction label table of spec 7.1, the GT lines' classes,
//! the severity of every row of the edge-case table (spec 6) in both modes, and the decoded toy
//! PNGs pixel by pixel, and a real DIVA page scored against itself.

mod common;

use common::fest::{fest, rgb8, SYN_GT, SYN_PRED};
use common::{data, input, score_inputs};
use dropscore::diag::{Diagnostic, Severity};
use dropscore::formats::png_mask::{decode_gray, decode_rgb};
use dropscore::input::Role;
use dropscore::{Mode, Report};
use serde_json::Value;

fn syn(rel: &str) -> Vec<u8> {
    std::fs::read(data(rel)).unwrap()
}

fn diag<'a>(r: &'a Report, code: &str) -> &'a Diagnostic {
    r.diagnostics
        .iter()
        .find(|d| d.code == code)
        .unwrap_or_else(|| panic!("no {code} in {:?}", r.diagnostics))
}

fn sev(r: &Report, code: &str) -> Severity {
    diag(r, code).severity
}

fn lines(r: &Report, key: &str, fields: &[&str]) -> Vec<Vec<Value>> {
    r.items[0].detail[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| fields.iter().map(|f| l[*f].clone()).collect())
        .collect()
}

/// Spec 7.1, prediction table: labels in lexicographic colour order with their pixel counts (462 background px).
#[test]
fn synthetic_prediction_labels_and_classes() {
    for mode in [Mode::Official, Mode::Corrected] {
        let r = fest(
            vec![("gt/001.png", syn(SYN_GT))],
            vec![("pred/001.png", syn(SYN_PRED))],
            mode,
            &[],
        );
        let got = lines(&r, "pred_lines", &["label", "colour", "pixels"]);
        let want: Vec<Vec<Value>> = [
            (1, "#0000ff", 54),
            (2, "#00ff00", 54),
            (3, "#ff0000", 108),
            (4, "#ff00ff", 22),
            (5, "#ffff00", 100),
        ]
        .iter()
        .map(|(l, c, n)| vec![(*l).into(), (*c).into(), (*n).into()])
        .collect();
        assert_eq!(got, want, "{mode:?}");
        let fg: u64 = got.iter().map(|l| l[2].as_u64().unwrap()).sum();
        assert_eq!(40 * 20 - fg, 462, "background pixels");
    }
    // Official 8-connected: L1 → red is CL, L2 → blue (0.5/0.5 tie with green, lower label) is ML, L3 → yellow EL.
    let r = fest(
        vec![("gt/001.png", syn(SYN_GT))],
        vec![("pred/001.png", syn(SYN_PRED))],
        Mode::Official,
        &[],
    );
    let got = lines(&r, "gt_lines", &["pred", "colour", "class"]);
    assert_eq!(
        got,
        vec![
            vec![Value::from(3), "#ff0000".into(), "CL".into()],
            vec![Value::from(1), "#0000ff".into(), "ML".into()],
            vec![Value::from(5), "#ffff00".into(), "EL".into()],
        ]
    );
    // IoU / P / R of the three best pairs: L1 = red exactly; L2 half of blue... (54/108, 54/54, 54/108);
    // L3 in the yellow box: 55 of its 56 px ((18,21) is outside), box 100 px.
    let ipr = lines(&r, "gt_lines", &["iou", "precision", "recall"]);
    let f = |v: &Value| v.as_f64().unwrap();
    let ipr: Vec<[f64; 3]> = ipr.iter().map(|l| [f(&l[0]), f(&l[1]), f(&l[2])]).collect();
    assert_eq!(ipr[0], [1.0, 1.0, 1.0]);
    assert_eq!(ipr[1], [0.5, 1.0, 0.5]);
    assert_eq!(ipr[2], [55.0 / 101.0, 55.0 / 100.0, 55.0 / 56.0]);
    // 4-connected variant: L3 splits into the 54-px run and the diagonal pixels (17,20) and (18,21).
    let r = fest(
        vec![("gt/001.png", syn(SYN_GT))],
        vec![("pred/001.png", syn(SYN_PRED))],
        Mode::Official,
        &[("connectivity", "4")],
    );
    let got: Vec<u64> = lines(&r, "gt_lines", &["pixels"])
        .iter()
        .map(|l| l[0].as_u64().unwrap())
        .collect();
    assert_eq!(got, vec![108, 108, 54, 1, 1]);
}

/// Spec 6, one row at a time: the code and its severity in `official` and `corrected`.
#[test]
fn edge_table_severities() {
    use Severity::*;
    let gt = || vec![("gt/001.png", syn(SYN_GT))];
    let pred = |b: Vec<u8>| vec![("pred/001.png", b)];
    let both = |g: Vec<(&'static str, Vec<u8>)>, p: Vec<(&'static str, Vec<u8>)>| {
        (
            fest(g.clone(), p.clone(), Mode::Official, &[]),
            fest(g, p, Mode::Corrected, &[]),
        )
    };

    // Prediction missing: official error (no headline), corrected warning (scored as all background).
    let (o, c) = both(gt(), vec![]);
    assert_eq!(sev(&o, "fest.official.missing_prediction"), Error);
    assert_eq!(o.scores.get("line_iu"), None);
    assert_eq!(sev(&c, "fest.official.missing_prediction"), Warning);
    assert_eq!(c.items[0].scores.get("pixel_iu"), Some(0.0));

    // Size mismatch: error in both modes, naming both sizes.
    let (o, c) = both(gt(), pred(rgb8(4, 3, &[[0; 3]; 12])));
    for r in [&o, &c] {
        let d = diag(r, "fest.input.size_mismatch");
        assert_eq!(d.severity, Error);
        assert_eq!(d.found.as_deref(), Some("4×3"));
        assert_eq!(d.expected.as_deref(), Some("40×20 (as gt/001.png)"));
    }

    // All-black prediction: official error; corrected RA undefined, DR = FM = 0, no error.
    let (o, c) = both(gt(), pred(rgb8(40, 20, &[[0; 3]; 800])));
    assert_eq!(sev(&o, "fest.official.ra_division_by_zero"), Error);
    assert!(o.official_fails && o.scores.get("line_iu").is_none());
    assert!(!c.has_errors());
    assert_eq!(c.items[0].scores.get("ra"), None);

    // GT without foreground: official warning, five zeros counted in the mean.
    let empty = rgb8(40, 20, &[[0; 3]; 800]);
    let (o, _) = both(vec![("gt/001.png", empty.clone())], pred(syn(SYN_PRED)));
    assert_eq!(sev(&o, "fest.gt.empty"), Warning);
    assert_eq!(o.scores.get("line_iu"), Some(0.0));

    // No black pixel: warning naming the colour taken as background.
    let px: Vec<[u8; 3]> = (0..800)
        .map(|i| {
            if i % 40 < 20 {
                [10, 10, 10]
            } else {
                [255, 0, 0]
            }
        })
        .collect();
    let (o, _) = both(gt(), pred(rgb8(40, 20, &px)));
    let d = diag(&o, "fest.pred.no_black");
    assert_eq!(d.severity, Warning);
    assert!(
        d.message.contains("10,10,10") || d.message.contains("#0a0a0a"),
        "{}",
        d.message
    );

    // Binary prediction with N1 = 3: warning in both modes; `pred_encoding = components` splits it.
    let g = decode_gray("g", &syn(SYN_GT), 1 << 30).unwrap();
    let px: Vec<[u8; 3]> = g
        .pixels
        .iter()
        .map(|v| if *v != 0 { [255; 3] } else { [0; 3] })
        .collect();
    let bin = rgb8(40, 20, &px);
    let (o, c) = both(gt(), pred(bin.clone()));
    assert_eq!(sev(&o, "fest.pred.binary_mask"), Warning);
    assert_eq!(sev(&c, "fest.pred.binary_mask"), Warning);
    let k = fest(
        gt(),
        pred(bin),
        Mode::Corrected,
        &[("pred_encoding", "components")],
    );
    assert!(!k.has_errors());
    assert_eq!(k.items[0].detail["n2"].as_u64(), Some(3));
    assert_eq!(k.items[0].scores.get("line_iu"), Some(1.0));

    // A non-black colour over half the page: warning.
    let px: Vec<[u8; 3]> = (0..800)
        .map(|i| if i < 10 { [0; 3] } else { [255; 3] })
        .collect();
    let (o, c) = both(gt(), pred(rgb8(40, 20, &px)));
    assert_eq!(sev(&o, "fest.pred.large_region"), Warning);
    assert_eq!(sev(&c, "fest.pred.large_region"), Warning);

    // More than 256 colours: warning with the count, official only wraps.
    let px: Vec<[u8; 3]> = (0..800u32)
        .map(|i| [0, ((i % 300) >> 8) as u8, (i % 300) as u8])
        .collect();
    let (o, _) = both(gt(), pred(rgb8(40, 20, &px)));
    let d = diag(&o, "fest.pred.label_wrap");
    assert_eq!(d.severity, Warning);
    assert!(
        format!("{} {:?}", d.message, d.found).contains("300"),
        "{d:?}"
    );

    // A non-PNG GT entry: official error (the script reads readme.png), corrected warning and skipped.
    let (o, c) = both(
        vec![
            ("gt/001.png", syn(SYN_GT)),
            ("gt/readme.txt", b"hi".to_vec()),
        ],
        pred(syn(SYN_PRED)),
    );
    assert_eq!(sev(&o, "fest.official.gt_unreadable"), Error);
    assert_eq!(sev(&c, "fest.official.gt_unreadable"), Warning);
    assert_eq!(c.items.len(), 1);
    let plain = fest(gt(), pred(syn(SYN_PRED)), Mode::Corrected, &[]);
    assert_eq!(c.scores.get("line_iu"), plain.scores.get("line_iu"));

    // 001.png and 001.jpg: official scores image 001 twice with a warning; corrected once.
    let (o, c) = both(
        vec![("gt/001.png", syn(SYN_GT)), ("gt/001.jpg", syn(SYN_GT))],
        pred(syn(SYN_PRED)),
    );
    assert_eq!(sev(&o, "fest.input.duplicate_stem"), Warning);
    assert_eq!((o.items.len(), c.items.len()), (2, 1));

    // Not a PNG: error with a byte offset, both modes.
    let (o, c) = both(gt(), pred(b"\x89PNG\r\n\x1a\x0bxxxx".to_vec()));
    for r in [&o, &c] {
        let d = diag(r, "fest.input.bad_png");
        assert_eq!(d.severity, Error);
        assert!(d.offset.is_some(), "{d:?}");
    }

    // Empty GT folder: official NaN means + warning; corrected error.
    let (o, c) = both(vec![], vec![]);
    assert_eq!(sev(&o, "fest.input.no_images"), Warning);
    assert!(o.scores.get("line_iu").is_none_or(f64::is_nan));
    assert_eq!(sev(&c, "fest.input.no_images"), Error);

    // Extra prediction files: info.
    let (o, c) = both(
        gt(),
        vec![
            ("pred/001.png", syn(SYN_PRED)),
            ("pred/002.png", syn(SYN_PRED)),
        ],
    );
    assert_eq!(sev(&o, "fest.input.extra_prediction"), Info);
    assert_eq!(sev(&c, "fest.input.extra_prediction"), Info);
    assert_eq!(o.scores.get("line_iu"), Some(1.0 / 3.0));
}

/// fixtures/diva/toy (spec 7.2: "small PNG-reading tests for odd sizes"): the 1×10 pixels our reader returns are
/// exactly those OpenCV 4.10 `cv2.imread(..., IMREAD_UNCHANGED)` returns (listed here as RGB). The fixture's
/// expected.json holds the DIVA *layout* evaluator's toy scores (Java, with its own boundary-pixel rules): not a
/// fest metric, so not recomputed here.
#[test]
fn diva_toy_pixels() {
    let want_gt: [u32; 10] = [
        0x000001, 0x000001, 0x000001, 0x000001, 0x00000c, 0x00000c, 0x00000c, 0x00000c, 0x800002,
        0x80000c,
    ];
    let want_pred: [u32; 10] = [
        0x000001, 0x000008, 0x00000c, 0x000005, 0x000003, 0x00000a, 0x000008, 0x00000c, 0x000001,
        0x00000a,
    ];
    let gt = decode_rgb("gt.png", &syn("fest/diva/toy/gt.png"), 1 << 30).unwrap();
    let pr = decode_rgb("pred.png", &syn("fest/diva/toy/pred.png"), 1 << 30).unwrap();
    assert_eq!((gt.width, gt.height), (1, 10));
    assert_eq!(gt.pixels, want_gt);
    assert_eq!(pr.pixels, want_pred);
    // As GT: foreground = truncated luma > 0: (0,0,12) -> 1, (128,0,2) and (128,0,12) -> 38 and 39.
    let g = decode_gray("gt.png", &syn("fest/diva/toy/gt.png"), 1 << 30).unwrap();
    let fg: Vec<bool> = g.pixels.iter().map(|v| *v != 0).collect();
    assert_eq!(
        fg,
        [false, false, false, false, true, true, true, true, true, true]
    );
}

/// Spec 7.2: the first real file scored against itself — every one of its 14 colour lines is matched to itself,
/// the decoder agreeing on both sides (GT lines are its 8-connected components of foreground).
#[test]
fn diva_real_against_itself_has_no_errors() {
    let f = "fest/diva/real/testfile_image004533645_00059_gt.png";
    let r = score_inputs(
        "fest",
        vec![input(f, Some(Role::Gt)), input(f, Some(Role::Pred))],
        Mode::Official,
        &[],
    );
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    assert_eq!(r.items[0].detail["n2"].as_u64(), Some(2));
    assert_eq!(r.items[0].detail["tp"].as_u64(), Some(1_418_006));
}
