//! `fest`: the worked examples of docs/specs/fest.md section 7 (the synthetic page, the DIVA pages) and how PNGs
//! are decoded (colour types, bit depths, the GT's 16-bit and dark-foreground warnings), on copies of the shared
//! fixtures (tests/data/fest) and on PNGs written in memory. The other edge cases of section 6 are in
//! tests/fest_cases.rs.

mod common;

use common::fest::*;
use common::{data, input, score_inputs};
use dropscore::formats::png_mask::{decode_gray, decode_rgb};
use dropscore::input::Role;
use dropscore::{render, Mode};
use serde_json::Value;

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
