//! `fest`: every row of the edge-case table (docs/specs/fest.md section 6), in both modes, with what
//! the headline and the official text output do. Inputs are built in memory from the spec's synthetic page
//! (fixtures/fest/synthetic, spec 7.1).

mod common;

use common::{bytes_input, cli, data, score_inputs};
use dropscore::diag::Severity::{self, Error, Info, Warning};
use dropscore::formats::png_mask::decode_gray;
use dropscore::input::Role;
use dropscore::{Mode, Report};

fn syn(rel: &str) -> Vec<u8> {
    std::fs::read(data(&format!("fest/synthetic/{rel}"))).unwrap()
}

fn png(w: u32, h: u32, colour: png::ColorType, depth: png::BitDepth, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut e = png::Encoder::new(&mut out, w, h);
        e.set_color(colour);
        e.set_depth(depth);
        let mut wr = e.write_header().unwrap();
        wr.write_image_data(data).unwrap();
    }
    out
}

fn rgb(px: &[[u8; 3]]) -> Vec<u8> {
    png(
        40,
        20,
        png::ColorType::Rgb,
        png::BitDepth::Eight,
        &px.concat(),
    )
}

/// The GT mask of the synthetic page, one byte per pixel (0 or 255).
fn gt_mask() -> Vec<u8> {
    decode_gray("g", &syn("gt/001.png"), 1 << 30)
        .unwrap()
        .pixels
}

type Files = Vec<(&'static str, Vec<u8>)>;

fn run(gt: &Files, pred: &Files, mode: Mode, set: &[(&str, &str)]) -> Report {
    let mut inputs: Vec<_> = gt
        .iter()
        .map(|(p, b)| bytes_input(p, Some(Role::Gt), b.clone()))
        .collect();
    inputs.extend(
        pred.iter()
            .map(|(p, b)| bytes_input(p, Some(Role::Pred), b.clone())),
    );
    score_inputs("fest", inputs, mode, set)
}

fn both(gt: &Files, pred: &Files) -> (Report, Report) {
    (
        run(gt, pred, Mode::Official, &[]),
        run(gt, pred, Mode::Corrected, &[]),
    )
}

fn sev(r: &Report, code: &str) -> Option<Severity> {
    r.diagnostics
        .iter()
        .find(|d| d.code == code)
        .map(|d| d.severity)
}

fn text(r: &Report) -> String {
    dropscore::protocols::require("fest")
        .unwrap()
        .render_text(r)
        .unwrap_or_default()
}

fn gt1() -> Files {
    vec![("gt/001.png", syn("gt/001.png"))]
}

fn pred1() -> Files {
    vec![("pred/001.png", syn("pred/001.png"))]
}

const LINE_IU: f64 = 1.0 / 3.0;

#[test]
fn missing_prediction() {
    let gt = vec![
        ("gt/001.png", syn("gt/001.png")),
        ("gt/002.png", syn("gt/001.png")),
    ];
    let (o, c) = both(&gt, &pred1());
    assert_eq!(sev(&o, "fest.official.missing_prediction"), Some(Error));
    assert_eq!(o.scores.get("line_iu"), None, "no headline");
    assert_eq!(
        o.items[0].scores.get("line_iu"),
        Some(LINE_IU),
        "the others still shown"
    );
    assert_eq!(sev(&c, "fest.official.missing_prediction"), Some(Warning));
    assert_eq!(c.items[1].detail["missing_prediction"], true);
    assert!(c.scores.get("line_iu").is_some());
}

#[test]
fn size_mismatch() {
    let small = png(10, 5, png::ColorType::Rgb, png::BitDepth::Eight, &[0; 150]);
    let (o, c) = both(&gt1(), &vec![("pred/001.png", small)]);
    for r in [&o, &c] {
        let d = r
            .diagnostics
            .iter()
            .find(|d| d.code == "fest.input.size_mismatch")
            .unwrap();
        assert_eq!(d.severity, Error);
        assert!(d.expected.as_deref().unwrap().contains("40×20"), "{d:?}");
        assert_eq!(d.found.as_deref(), Some("10×5"));
        assert_eq!(r.scores.get("line_iu"), None);
    }
}

#[test]
fn all_black_prediction() {
    let (o, c) = both(&gt1(), &vec![("pred/001.png", rgb(&[[0; 3]; 800]))]);
    assert_eq!(sev(&o, "fest.official.ra_division_by_zero"), Some(Error));
    assert_eq!(o.scores.get("line_iu"), None);
    let i = &c.items[0].scores;
    assert_eq!(
        (i.get("ra"), i.get("dr"), i.get("fm")),
        (None, Some(0.0), Some(0.0))
    );
}

#[test]
fn gt_without_foreground() {
    let (o, c) = both(&vec![("gt/001.png", rgb(&[[0; 3]; 800]))], &pred1());
    assert_eq!(sev(&o, "fest.gt.empty"), Some(Warning));
    for id in ["pixel_iu", "line_iu", "dr", "ra", "fm"] {
        assert_eq!(o.items[0].scores.get(id), Some(0.0), "{id}");
    }
    // Corrected: DR = 0/0 and Line IU = 0/0 (no GT line, no match counted as CL) are undefined.
    assert_eq!(c.items[0].scores.get("dr"), None);
    assert_eq!(sev(&c, "fest.metric.undefined"), Some(Warning));
}

#[test]
fn prediction_without_black() {
    let px: Vec<[u8; 3]> = gt_mask()
        .iter()
        .map(|v| if *v == 0 { [10, 10, 10] } else { [255, 0, 0] })
        .collect();
    let (o, c) = both(&gt1(), &vec![("pred/001.png", rgb(&px))]);
    assert_eq!(sev(&o, "fest.pred.no_black"), Some(Warning));
    assert_eq!(sev(&c, "fest.pred.no_black"), Some(Warning));
    assert_eq!(
        o.items[0].detail["n2"], 1,
        "the lowest colour (10,10,10) is background"
    );
    assert_eq!(
        c.items[0].detail["n2"], 2,
        "corrected: black is background, both colours are lines"
    );
}

/// A binary 0/255 prediction, in every PNG colour type a participant may save it as: one predicted line
/// against N1 = 3 GT lines, warning `fest.pred.binary_mask` in both modes.
#[test]
fn binary_prediction() {
    let m = gt_mask();
    let bits: Vec<u8> = m
        .chunks(40)
        .flat_map(|row| {
            row.chunks(8).map(|c| {
                c.iter()
                    .enumerate()
                    .fold(0u8, |a, (i, v)| a | ((*v != 0) as u8) << (7 - i))
            })
        })
        .collect();
    let rgb_px: Vec<[u8; 3]> = m.iter().map(|v| [*v; 3]).collect();
    let wide: Vec<u8> = m.iter().flat_map(|v| [*v, *v]).collect();
    let forms = [
        (
            "gray 8-bit",
            png(40, 20, png::ColorType::Grayscale, png::BitDepth::Eight, &m),
        ),
        (
            "gray 1-bit",
            png(40, 20, png::ColorType::Grayscale, png::BitDepth::One, &bits),
        ),
        (
            "gray 16-bit",
            png(
                40,
                20,
                png::ColorType::Grayscale,
                png::BitDepth::Sixteen,
                &wide,
            ),
        ),
        ("RGB", rgb(&rgb_px)),
    ];
    for (what, bytes) in forms {
        let (o, c) = both(&gt1(), &vec![("pred/001.png", bytes.clone())]);
        assert_eq!(sev(&o, "fest.pred.binary_mask"), Some(Warning), "{what}");
        assert_eq!(sev(&c, "fest.pred.binary_mask"), Some(Warning), "{what}");
        // Spec 7.1's binary variant: N2 = 1, Pixel IU 1/3, Line IU 0, FM the integer 0.
        assert_eq!(o.items[0].detail["n2"], 1, "{what}");
        assert_eq!(o.items[0].scores.get("pixel_iu"), Some(1.0 / 3.0), "{what}");
        assert!(text(&o).contains("F-measure:  0\n"), "{what}");
        let k = run(
            &gt1(),
            &vec![("pred/001.png", bytes)],
            Mode::Corrected,
            &[("pred_encoding", "components")],
        );
        assert_eq!(sev(&k, "fest.pred.binary_mask"), None, "{what}");
        assert_eq!(k.items[0].detail["n2"], 3, "{what}");
    }
    // One GT line: a binary prediction is what the GT asks for, no warning.
    let one: Vec<u8> = m
        .iter()
        .enumerate()
        .map(|(i, v)| if i / 40 < 6 { *v } else { 0 })
        .collect();
    let gt = vec![(
        "gt/001.png",
        png(
            40,
            20,
            png::ColorType::Grayscale,
            png::BitDepth::Eight,
            &one,
        ),
    )];
    let o = run(
        &gt,
        &vec![("pred/001.png", rgb(&rgb_px))],
        Mode::Official,
        &[],
    );
    assert_eq!(sev(&o, "fest.pred.binary_mask"), None);
}

#[test]
fn large_region_and_label_wrap() {
    let px: Vec<[u8; 3]> = (0..800)
        .map(|i| if i < 10 { [0; 3] } else { [255; 3] })
        .collect();
    let (o, c) = both(&gt1(), &vec![("pred/001.png", rgb(&px))]);
    assert_eq!(
        (
            sev(&o, "fest.pred.large_region"),
            sev(&c, "fest.pred.large_region")
        ),
        (Some(Warning), Some(Warning))
    );
    let px: Vec<[u8; 3]> = (0..800u32)
        .map(|i| [0, ((i % 300) >> 8) as u8, (i % 300) as u8])
        .collect();
    let (o, c) = both(&gt1(), &vec![("pred/001.png", rgb(&px))]);
    assert_eq!(sev(&o, "fest.pred.label_wrap"), Some(Warning));
    // 300 colours: official wraps to 256 labels (N2 = 255), corrected keeps 299 lines.
    assert_eq!(o.items[0].detail["n2"], 255);
    assert_eq!(c.items[0].detail["n2"], 299);
}

#[test]
fn sixteen_bit_and_dark_gt() {
    let v16: Vec<u8> = gt_mask()
        .iter()
        .flat_map(|v| if *v != 0 { [0, 200] } else { [0, 0] })
        .collect();
    let gt = vec![(
        "gt/001.png",
        png(
            40,
            20,
            png::ColorType::Grayscale,
            png::BitDepth::Sixteen,
            &v16,
        ),
    )];
    let (o, c) = both(&gt, &pred1());
    assert_eq!(
        (
            sev(&o, "fest.gt.sixteen_bit_low"),
            sev(&c, "fest.gt.sixteen_bit_low")
        ),
        (Some(Warning), Some(Warning))
    );
    assert_eq!(o.items[0].detail["n1"], 0);
    let dark: Vec<[u8; 3]> = gt_mask()
        .iter()
        .map(|v| if *v != 0 { [0, 0, 4] } else { [0; 3] })
        .collect();
    let (o, _) = both(&vec![("gt/001.png", rgb(&dark))], &pred1());
    let d = o
        .diagnostics
        .iter()
        .find(|d| d.code == "fest.gt.dark_foreground")
        .unwrap();
    assert_eq!(d.pixel, Some([2, 2]), "first dark pixel (x, y)");
}

/// A GT entry that is not a PNG: the official script reads `readme.png` and crashes, so official mode gives
/// the error, no headline and no manuscript means, and its text stops there; the images before it in the
/// folder's sorted order are still shown. Corrected skips the entry with a warning.
#[test]
fn gt_entry_not_png() {
    let gt = vec![
        ("gt/001.png", syn("gt/001.png")),
        ("gt/readme.txt", b"hi".to_vec()),
        ("gt/zz.png", syn("gt/001.png")),
    ];
    let pred = vec![
        ("pred/001.png", syn("pred/001.png")),
        ("pred/zz.png", syn("pred/001.png")),
    ];
    let (o, c) = both(&gt, &pred);
    assert_eq!(sev(&o, "fest.official.gt_unreadable"), Some(Error));
    assert_eq!(o.scores.get("line_iu"), None, "no headline");
    assert_eq!(o.groups[0].scores.get("line_iu"), None);
    assert_eq!(
        o.items[0].scores.get("line_iu"),
        Some(LINE_IU),
        "001 is scored before the crash"
    );
    let t = text(&o);
    assert!(
        t.starts_with("Calculating metrics...\nPixel IU:  0.6845425867507886\n"),
        "{t}"
    );
    assert!(
        t.contains("# the official script stops here (readme"),
        "{t}"
    );
    assert!(!t.contains("Leaderboard"), "{t}");
    assert_eq!(sev(&c, "fest.official.gt_unreadable"), Some(Warning));
    assert_eq!(c.items.len(), 2);
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    assert!(c.scores.get("line_iu").is_some());
    // The case: one PNG and a readme; official scored it with headline 0.25 before.
    let (o, _) = both(
        &vec![
            ("gt/001.png", syn("gt/001.png")),
            ("gt/readme.txt", b"hi".to_vec()),
        ],
        &pred1(),
    );
    assert_eq!(o.scores.get("line_iu"), None);
}

/// `001.png` and `001.jpg`: official scores image 001 twice (both entries read `001.png`), warning
/// `fest.input.duplicate_stem`; corrected scores it once.
#[test]
fn png_and_jpg_of_one_stem() {
    let jpeg = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00".to_vec();
    let gt = vec![("gt/001.png", syn("gt/001.png")), ("gt/001.jpg", jpeg)];
    let (o, c) = both(&gt, &pred1());
    assert_eq!(sev(&o, "fest.input.duplicate_stem"), Some(Warning));
    assert_eq!(sev(&c, "fest.input.duplicate_stem"), Some(Warning));
    let ids: Vec<&str> = o.items.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["001", "001#2"]);
    assert_eq!(text(&o).matches("Calculating metrics...").count(), 2);
    assert_eq!(o.scores.get("line_iu"), Some(LINE_IU));
    assert_eq!(c.items.len(), 1);
    assert!(!o.has_errors() && !c.has_errors());
}

#[test]
fn bad_png() {
    let (o, c) = both(
        &gt1(),
        &vec![("pred/001.png", b"\x89PNG\r\n\x1a\x0bxxxx".to_vec())],
    );
    for r in [&o, &c] {
        let d = r
            .diagnostics
            .iter()
            .find(|d| d.code == "fest.input.bad_png")
            .unwrap();
        assert_eq!(d.severity, Error);
        assert!(d.offset.is_some());
    }
}

/// An empty GT folder: official NaN means (`null`) and a warning; corrected an error. An empty manuscript next
/// to a scored one: the same, and no headline (official's leaderboard mean is NaN).
#[test]
fn empty_gt_folder_and_manuscript() {
    let (o, c) = both(&vec![], &pred1());
    assert_eq!(sev(&o, "fest.input.no_images"), Some(Warning));
    assert!(!o.has_errors());
    assert_eq!(o.scores.get("line_iu"), None);
    assert!(text(&o).contains("Leaderboard Line IU:  nan"));
    assert_eq!(sev(&c, "fest.input.no_images"), Some(Error));
    // Manuscript B holds only a non-PNG entry: corrected skips it and B is empty.
    let gt = vec![
        ("gt/A/001.png", syn("gt/001.png")),
        ("gt/B/notes.txt", b"x".to_vec()),
    ];
    let pred = vec![
        ("pred/A/001.png", syn("pred/001.png")),
        ("pred/B/001.png", syn("pred/001.png")),
    ];
    let c = run(&gt, &pred, Mode::Corrected, &[]);
    assert_eq!(sev(&c, "fest.input.no_images"), Some(Error));
    assert_eq!(
        c.scores.get("line_iu"),
        None,
        "not the mean of the other manuscripts"
    );
    let b = c.groups.iter().find(|g| g.id == "B").unwrap();
    assert_eq!(b.scores.get("line_iu"), None);
}

/// The data set layout with a manuscript whose split folder holds only a system file (ignored by the input
/// layer): that manuscript has no image, so official gives NaN means (`null`, no leaderboard) and a warning,
/// corrected an error (was: the manuscript vanished and the headline was the other manuscript's Line IU).
#[test]
fn empty_manuscript_of_the_data_set() {
    let gt = vec![
        (
            "ref/Latin2/text-line-gt-Latin2/test/.DS_Store",
            b"\0\0\0\x01Bud1".to_vec(),
        ),
        (
            "ref/Syr341/text-line-gt-Syr341/test/001.png",
            syn("gt/001.png"),
        ),
    ];
    let pred = vec![
        ("res/Latin2/001.png", syn("pred/001.png")),
        ("res/Syr341/001.png", syn("pred/001.png")),
    ];
    let (o, c) = both(&gt, &pred);
    let d = o
        .diagnostics
        .iter()
        .find(|d| d.code == "fest.input.no_images")
        .unwrap();
    assert_eq!(d.severity, Warning);
    assert!(d.message.contains("Latin2"), "{}", d.message);
    assert_eq!(o.scores.get("line_iu"), None);
    let g: Vec<(&str, Option<f64>)> = o
        .groups
        .iter()
        .map(|g| (g.id.as_str(), g.scores.get("line_iu")))
        .collect();
    assert_eq!(g, [("Latin2", None), ("Syr341", Some(LINE_IU))]);
    assert!(text(&o).contains("Manuscript Latin2:\nPixel IU:  nan\n"));
    assert_eq!(
        sev(&o, "fest.input.extra_prediction"),
        Some(Info),
        "res/Latin2/001.png has no GT image"
    );
    assert_eq!(sev(&c, "fest.input.no_images"), Some(Error));
}

#[test]
fn extra_prediction() {
    let pred = vec![
        ("pred/001.png", syn("pred/001.png")),
        ("pred/002.png", syn("pred/001.png")),
    ];
    let (o, c) = both(&gt1(), &pred);
    assert_eq!(
        (
            sev(&o, "fest.input.extra_prediction"),
            sev(&c, "fest.input.extra_prediction")
        ),
        (Some(Info), Some(Info))
    );
    assert_eq!(o.scores.get("line_iu"), Some(LINE_IU));
}

/// The empty folder itself, with nothing in it (spec 6, empty GT folder): as a zip's directory entry and as a
/// folder on disk, the manuscript is still there, with `fest.input.no_images` and NaN means (was: it vanished,
/// its predictions were "extra" and the mean was the other manuscript's).
#[test]
fn empty_test_folder_in_a_zip_and_on_disk() {
    use std::io::Write;
    let opts = zip::write::SimpleFileOptions::default();
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    w.add_directory("ref/Latin2/text-line-gt-Latin2/test/", opts)
        .unwrap();
    w.start_file("ref/Syr341/text-line-gt-Syr341/test/001.png", opts)
        .unwrap();
    w.write_all(&syn("gt/001.png")).unwrap();
    let gt_zip = w.finish().unwrap().into_inner();
    let pred = vec![
        ("res/Latin2/001.png", syn("pred/001.png")),
        ("res/Syr341/001.png", syn("pred/001.png")),
    ];
    let o = run(&vec![("ref.zip", gt_zip)], &pred, Mode::Official, &[]);
    let d = o
        .diagnostics
        .iter()
        .find(|d| d.code == "fest.input.no_images")
        .expect("fest.input.no_images for the zip's empty folder");
    assert_eq!(d.severity, Warning);
    assert!(d.message.contains("Latin2"), "{}", d.message);
    assert_eq!(o.scores.get("line_iu"), None);
    let g: Vec<(&str, Option<f64>)> = o
        .groups
        .iter()
        .map(|g| (g.id.as_str(), g.scores.get("line_iu")))
        .collect();
    assert_eq!(g, [("Latin2", None), ("Syr341", Some(LINE_IU))]);

    let dir = std::env::temp_dir().join(format!("dropscore-fest-empty-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("ref/Latin2/text-line-gt-Latin2/test")).unwrap();
    std::fs::create_dir_all(dir.join("ref/Syr341/text-line-gt-Syr341/test")).unwrap();
    std::fs::write(
        dir.join("ref/Syr341/text-line-gt-Syr341/test/001.png"),
        syn("gt/001.png"),
    )
    .unwrap();
    for ms in ["Latin2", "Syr341"] {
        std::fs::create_dir_all(dir.join("res").join(ms)).unwrap();
        std::fs::write(
            dir.join("res").join(ms).join("001.png"),
            syn("pred/001.png"),
        )
        .unwrap();
    }
    let (gt, pred) = (dir.join("ref"), dir.join("res"));
    let (gt, pred) = (gt.to_str().unwrap(), pred.to_str().unwrap());
    let (_, r) = cli::run_json(&["fest", "--format", "json", "--gt", gt, "--pred", pred]);
    let _ = std::fs::remove_dir_all(&dir);
    let codes: Vec<&str> = r["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(codes.contains(&"fest.input.no_images"), "{codes:?}");
    assert!(r["scores"]["line_iu"].is_null(), "{}", r["scores"]);
    let groups: Vec<&str> = r["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(groups, ["Latin2", "Syr341"]);
}
