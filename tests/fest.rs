//! `fest`: the worked examples of docs/specs/fest.md section 7 and the edge cases of section 6, on copies of the
//! shared fixtures (tests/data/fest) and on PNGs written in memory.

mod common;

use common::{bytes_input, data, has, input, score_inputs};
use dropscore::formats::png_mask::{decode_gray, decode_rgb};
use dropscore::input::Role;
use dropscore::protocols::fest::py_float;
use dropscore::{render, Mode, Report};
use serde_json::Value;

const SYN_GT: &str = "fest/synthetic/gt/001.png";
const SYN_PRED: &str = "fest/synthetic/pred/001.png";

/// A PNG of any colour type and bit depth (`png` crate), `data` already packed as PNG rows expect.
fn png(
    w: u32,
    h: u32,
    color: png::ColorType,
    depth: png::BitDepth,
    data: &[u8],
    palette: Option<&[u8]>,
) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut e = png::Encoder::new(&mut out, w, h);
        e.set_color(color);
        e.set_depth(depth);
        if let Some(p) = palette {
            e.set_palette(p.to_vec());
        }
        let mut wr = e.write_header().unwrap();
        wr.write_image_data(data).unwrap();
    }
    out
}

fn rgb8(w: u32, h: u32, px: &[[u8; 3]]) -> Vec<u8> {
    png(
        w,
        h,
        png::ColorType::Rgb,
        png::BitDepth::Eight,
        &px.concat(),
        None,
    )
}

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

fn fest(
    gt: Vec<(&str, Vec<u8>)>,
    pred: Vec<(&str, Vec<u8>)>,
    mode: Mode,
    set: &[(&str, &str)],
) -> Report {
    let mut inputs: Vec<_> = gt
        .into_iter()
        .map(|(p, b)| bytes_input(p, Some(Role::Gt), b))
        .collect();
    inputs.extend(
        pred.into_iter()
            .map(|(p, b)| bytes_input(p, Some(Role::Pred), b)),
    );
    score_inputs("fest", inputs, mode, set)
}

fn synthetic(mode: Mode, set: &[(&str, &str)]) -> Report {
    score_inputs(
        "fest",
        vec![
            input(SYN_GT, Some(Role::Gt)),
            input(SYN_PRED, Some(Role::Pred)),
        ],
        mode,
        set,
    )
}

fn det(r: &Report, k: &str) -> u64 {
    r.items[0].detail[k]
        .as_u64()
        .unwrap_or_else(|| panic!("detail {k}"))
}

fn five(r: &Report) -> Vec<Option<f64>> {
    ["pixel_iu", "line_iu", "dr", "ra", "fm"]
        .iter()
        .map(|k| r.items[0].scores.get(k))
        .collect()
}

#[test]
fn synthetic_official_8conn() {
    let r = synthetic(Mode::Official, &[]);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let counts: Vec<u64> = ["n1", "n2", "m", "tp", "fp", "fn", "cl", "ml", "el"]
        .iter()
        .map(|k| det(&r, k))
        .collect();
    assert_eq!(counts, vec![3, 5, 1, 217, 45, 55, 1, 1, 1]);
    assert_eq!(
        five(&r),
        vec![
            Some(0.6845425867507886),
            Some(0.3333333333333333),
            Some(0.3333333333333333),
            Some(0.2),
            Some(0.25)
        ]
    );
    let best: Vec<(u64, u64)> = r.items[0].detail["gt_lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["label"].as_u64().unwrap(), l["pred"].as_u64().unwrap()))
        .collect();
    assert_eq!(best, vec![(1, 3), (2, 1), (3, 5)]);
    let sizes: Vec<u64> = r.items[0].detail["gt_lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["pixels"].as_u64().unwrap())
        .collect();
    assert_eq!(sizes, vec![108, 108, 56]);
    assert_eq!(r.scores.get("line_iu"), Some(0.3333333333333333));
    assert_eq!(r.groups[0].scores.get("pixel_iu"), Some(0.6845425867507886));
    assert!(!r.official_fails);
}

#[test]
fn synthetic_4conn() {
    let r = synthetic(Mode::Official, &[("connectivity", "4")]);
    let counts: Vec<u64> = ["n1", "n2", "m", "tp", "fp", "fn", "cl", "ml", "el"]
        .iter()
        .map(|k| det(&r, k))
        .collect();
    assert_eq!(counts, vec![5, 5, 1, 217, 145, 54, 1, 1, 2]);
    let f = five(&r);
    assert_eq!(
        &f[..4],
        &[Some(0.5216346153846154), Some(0.25), Some(0.2), Some(0.2)]
    );
    // expected.json lists 0.2; 2·(DR·RA)/(DR+RA) in binary64 gives 0.20000000000000004 (spec 7.1).
    assert!((f[4].unwrap() - 0.2).abs() <= 1e-15);
    assert_eq!(f[4], Some(0.20000000000000004));
    let best: Vec<(u64, Option<u64>)> = r.items[0].detail["gt_lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["label"].as_u64().unwrap(), l["pred"].as_u64()))
        .collect();
    assert_eq!(
        best,
        vec![
            (1, Some(3)),
            (2, Some(1)),
            (3, Some(5)),
            (4, Some(5)),
            (5, None)
        ]
    );
}

#[test]
fn synthetic_corrected_page_iou() {
    let r = synthetic(Mode::Corrected, &[]);
    assert_eq!(r.items[0].scores.get("pixel_iu"), Some(0.799410029498525));
    assert_eq!((det(&r, "fg_inter"), det(&r, "fg_union")), (271, 339));
}

#[test]
fn synthetic_text_output() {
    let r = synthetic(Mode::Official, &[]);
    let t = render::text(&r);
    assert!(t.starts_with(
        "Calculating metrics...\nPixel IU:  0.6845425867507886\nLine IU:  0.3333333333333333\nDetection Rate:  0.3333333333333333\nRecognition Accuracy:  0.2\nF-measure:  0.25\n"
    ), "{t}");
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

fn histogram(px: &[u32]) -> std::collections::BTreeMap<u32, u64> {
    let mut h = std::collections::BTreeMap::new();
    for p in px {
        *h.entry(*p).or_insert(0) += 1;
    }
    h
}

#[test]
fn diva_real_decoding() {
    let exp: Value = serde_json::from_str(
        &std::fs::read_to_string(data("fest/diva/real/expected.json")).unwrap(),
    )
    .unwrap();
    for (file, fg_colours) in [
        (
            "e-codices_csg-0863_004_max_gt.png",
            vec![
                "128,0,2", "128,0,4", "128,0,6", "128,0,8", "128,0,10", "128,0,12", "128,0,14",
                "0,0,10", "0,0,12", "0,0,14",
            ],
        ),
        ("testfile_image004533645_00059_gt.png", vec!["128,0,4"]),
    ] {
        let bytes = std::fs::read(data(&format!("fest/diva/real/{file}"))).unwrap();
        let m = decode_rgb(file, &bytes, 1 << 30).unwrap();
        let want = &exp[file]["rgb_histogram"];
        let size = &exp[file]["size"];
        assert_eq!(
            (m.width as u64, m.height as u64),
            (size[0].as_u64().unwrap(), size[1].as_u64().unwrap())
        );
        let h = histogram(&m.pixels);
        assert_eq!(
            h.len(),
            want.as_object().unwrap().len(),
            "{file}: distinct colours"
        );
        for (k, v) in want.as_object().unwrap() {
            let c: Vec<u32> = k.split(',').map(|x| x.parse().unwrap()).collect();
            assert_eq!(
                h.get(&(c[0] << 16 | c[1] << 8 | c[2])).copied(),
                v.as_u64(),
                "{file} {k}"
            );
        }
        assert_eq!(*h.keys().next().unwrap(), 1, "label 0 is (0,0,1)");
        // GT reading: foreground = colours with truncated luma > 0.
        let g = decode_gray(file, &bytes, 1 << 30).unwrap();
        let fg = g.pixels.iter().filter(|v| **v != 0).count() as u64;
        let want_fg: u64 = fg_colours.iter().map(|k| want[*k].as_u64().unwrap()).sum();
        assert_eq!(fg, want_fg, "{file}: GT foreground");
    }
    // N2 = 14 for the first file read as a prediction (itself as GT).
    let f = "fest/diva/real/e-codices_csg-0863_004_max_gt.png";
    let r = score_inputs(
        "fest",
        vec![input(f, Some(Role::Gt)), input(f, Some(Role::Pred))],
        Mode::Official,
        &[],
    );
    assert_eq!(det(&r, "n2"), 14);
}

#[test]
fn diva_toy_odd_size() {
    for f in ["gt.png", "pred.png"] {
        let b = std::fs::read(data(&format!("fest/diva/toy/{f}"))).unwrap();
        let m = decode_rgb(f, &b, 1 << 30).unwrap();
        assert_eq!((m.width, m.height, m.pixels.len()), (1, 10, 10));
    }
    let r = score_inputs(
        "fest",
        vec![
            input("fest/diva/toy/gt.png", Some(Role::Gt)),
            input("fest/diva/toy/pred.png", Some(Role::Pred)),
        ],
        Mode::Official,
        &[],
    );
    assert!(!r.items.is_empty());
}

#[test]
fn gray_conversion_rules() {
    // 8-bit RGB: truncated luma.
    let b = rgb8(
        6,
        1,
        &[
            [127, 46, 9],
            [0, 255, 0],
            [0, 1, 0],
            [2, 0, 0],
            [0, 0, 5],
            [200, 200, 200],
        ],
    );
    assert_eq!(
        decode_gray("x", &b, 100).unwrap().pixels,
        vec![65, 149, 0, 0, 0, 200]
    );
    // 16-bit RGB: rounded luma, then the high byte.
    let px16: Vec<u8> = [[0u16, 0, 2241], [0, 0, 2240], [300, 300, 300]]
        .iter()
        .flatten()
        .flat_map(|v| v.to_be_bytes())
        .collect();
    let b = png(
        3,
        1,
        png::ColorType::Rgb,
        png::BitDepth::Sixteen,
        &px16,
        None,
    );
    assert_eq!(decode_gray("x", &b, 100).unwrap().pixels, vec![1, 0, 1]);
    assert_eq!(
        decode_rgb("x", &b, 100).unwrap().pixels,
        vec![8, 8, 0x010101]
    );
    // 1-bit gray: 0 → 0, 1 → 255.
    let b = png(
        8,
        1,
        png::ColorType::Grayscale,
        png::BitDepth::One,
        &[0b1010_0000],
        None,
    );
    assert_eq!(
        decode_gray("x", &b, 100).unwrap().pixels,
        vec![255, 0, 255, 0, 0, 0, 0, 0]
    );
    // palette: expanded, then as RGB.
    let b = png(
        2,
        1,
        png::ColorType::Indexed,
        png::BitDepth::Eight,
        &[0, 1],
        Some(&[0, 0, 0, 127, 46, 9]),
    );
    assert_eq!(decode_gray("x", &b, 100).unwrap().pixels, vec![0, 65]);
    assert_eq!(decode_rgb("x", &b, 100).unwrap().pixels, vec![0, 0x7F2E09]);
}

#[test]
fn sixteen_bit_low_and_dark_foreground() {
    let mut gt = [0u16; 20];
    gt[3] = 200;
    gt[7] = 65535;
    let b = png(
        5,
        4,
        png::ColorType::Grayscale,
        png::BitDepth::Sixteen,
        &gt.iter().flat_map(|v| v.to_be_bytes()).collect::<Vec<u8>>(),
        None,
    );
    let pred = rgb8(5, 4, &[[0, 0, 0], [255, 0, 0]].repeat(10));
    let r = fest(
        vec![("gt/a.png", b)],
        vec![("pred/a.png", pred.clone())],
        Mode::Official,
        &[],
    );
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "fest.gt.sixteen_bit_low")
        .expect("warning");
    assert_eq!(d.pixel, Some([3, 0]));
    assert_eq!(det(&r, "n1"), 1);
    let mut px = vec![[0u8; 3]; 20];
    px[6] = [0, 0, 4];
    px[9] = [255, 255, 255];
    let r = fest(
        vec![("gt/a.png", rgb8(5, 4, &px))],
        vec![("pred/a.png", pred)],
        Mode::Official,
        &[],
    );
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "fest.gt.dark_foreground")
        .expect("warning");
    assert_eq!(d.pixel, Some([1, 1]));
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
