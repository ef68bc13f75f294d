//! The image viewers' Rust side: the detection viewer's TP / FP / FN at IoU 0.5 against
//! pycocotools 2.0.8 (`tests/reference/detection_viewer.py`), images dropped with the detection inputs, and the
//! fest page image found for an image of each layout.

mod common;
use common::*;
use dropscore::input::{FileSet, Limits, Role};
use dropscore::protocols::{detection, fest, Request};
use dropscore::Mode;

fn www(rel: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("www/examples")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn detection_files(images: bool) -> Vec<dropscore::input::Input> {
    let mut v = vec![
        bytes_input(
            "gt/instances.json",
            Some(Role::Gt),
            www("detection/gt/instances.json"),
        ),
        bytes_input(
            "res/results.json",
            Some(Role::Pred),
            www("detection/pred/results.json"),
        ),
    ];
    if images {
        for i in 1..=12 {
            let name = format!("shapes_{i:02}.jpg");
            v.push(bytes_input(
                &format!("gt/images/{name}"),
                Some(Role::Gt),
                www(&format!("detection/images/{name}")),
            ));
        }
    }
    v
}

/// pycocotools 2.0.8 on the example, from `python3 tests/reference/detection_viewer.py`: each detection in
/// results-file order (TP / FP / I = ignored, with the matched GT annotation id), and the FN GT ids.
#[rustfmt::skip]
const DETS: [(&str, i64); 49] = [
    ("TP", 1), ("TP", 2), ("FP", 0), ("TP", 4), ("TP", 6), ("FP", 0), ("FP", 0), ("TP", 9), ("TP", 10), ("TP", 11), ("TP", 13), ("FP", 0), ("TP", 15), ("FP", 0), ("TP", 17), ("TP", 18), ("TP", 19), ("FP", 0), ("TP", 21), ("TP", 22), ("FP", 0), ("TP", 24), ("TP", 25), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("TP", 32), ("TP", 33), ("TP", 34), ("TP", 35), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("FP", 0), ("I", 36),
];
const FN: [i64; 15] = [3, 5, 7, 8, 12, 14, 16, 20, 23, 26, 27, 28, 29, 30, 31];

#[test]
fn detection_viewer_matches_pycocotools() {
    let files = FileSet::build(detection_files(true), &Limits::default());
    let v = detection::viewer::prepare(&files, &Request::new(Mode::Official)).expect("prepared");
    let images = v.images();
    let ids: Vec<i64> = images
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["image_id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, (1..=12).collect::<Vec<_>>());
    let mut got: Vec<Option<(String, i64)>> = vec![None; DETS.len()];
    let mut fns = Vec::new();
    let report = score_inputs("detection", detection_files(false), Mode::Official, &[]);
    for id in ids {
        let im = v.image(id).expect("image");
        let gts = im["gt"].as_array().unwrap();
        for d in im["dets"].as_array().unwrap() {
            let status = d["status"].as_str().unwrap();
            let gt_id = d["gt"]
                .as_u64()
                .map_or(0, |g| gts[g as usize]["id"].as_i64().unwrap());
            let s = match status {
                "ignored" => "I",
                s => s,
            };
            got[d["index"].as_u64().unwrap() as usize] =
                Some((s.to_string(), if s == "FP" { 0 } else { gt_id }));
            if status == "TP" {
                assert!(d["iou"].as_f64().unwrap() >= 0.5);
                let g = &gts[d["gt"].as_u64().unwrap() as usize];
                assert_eq!(g["status"], "TP");
            }
        }
        for g in gts {
            if g["status"] == "FN" {
                fns.push(g["id"].as_i64().unwrap());
            }
        }
        // The per-image counts are the report's (the same evaluation).
        let item = report
            .items
            .iter()
            .find(|i| i.detail.get("image_id").and_then(|x| x.as_i64()) == Some(id))
            .unwrap();
        for (k, c) in [("tp50", "tp"), ("fp50", "fp"), ("fn50", "fn")] {
            assert_eq!(item.detail[k], im["counts"][c], "image {id} {k}");
        }
    }
    let want: Vec<Option<(String, i64)>> = DETS
        .iter()
        .map(|(s, g)| Some((s.to_string(), *g)))
        .collect();
    assert_eq!(got, want);
    fns.sort_unstable();
    assert_eq!(fns, FN);
    assert!(v.image(99).is_err());
}

#[test]
fn images_dropped_with_detection_inputs_are_not_scored() {
    let with = score_inputs("detection", detection_files(true), Mode::Official, &[]);
    let without = score_inputs("detection", detection_files(false), Mode::Official, &[]);
    assert_eq!(with.scores, without.scores);
    assert!(!with.official_fails);
    assert_eq!(codes(&with), vec!["detection.images".to_string()]);
    assert!(with.diagnostics[0]
        .message
        .starts_with("12 image(s) dropped: not scored"));
}

fn fest_set(extra: &[(&str, Role)]) -> FileSet {
    let gt = www("fest/gt/001.png");
    let pred = www("fest/pred/001.png");
    let page = www("fest/img-default/001.jpg");
    let mut v = Vec::new();
    for (path, role) in extra {
        let bytes = if path.ends_with(".jpg") {
            page.clone()
        } else if *role == Role::Gt {
            gt.clone()
        } else {
            pred.clone()
        };
        v.push(bytes_input(path, Some(*role), bytes));
    }
    FileSet::build(v, &Limits::default())
}

#[test]
fn fest_page_image_of_each_layout() {
    let req = Request::new(Mode::Official);
    // Two files (manuscript `default`), with and without the page image.
    let two = fest_set(&[
        ("gt.png", Role::Gt),
        ("pred.png", Role::Pred),
        ("img-default/gt.jpg", Role::Gt),
    ]);
    let id = &score_inputs_set(&two).items[0].id;
    assert_eq!(
        fest::page_image::find(&two, &req, id).map(|e| e.path.as_str()),
        Some("img-default/gt.jpg")
    );
    let none = fest_set(&[("gt.png", Role::Gt), ("pred.png", Role::Pred)]);
    assert!(fest::page_image::find(&none, &req, id).is_none());
    // The data set layout: the page image of the image's manuscript and split.
    let ds = fest_set(&[
        (
            "gt/Latin14396/text-line-gt-Latin14396/test/001.png",
            Role::Gt,
        ),
        (
            "gt/Latin14396/text-line-gt-Latin14396/test/002.png",
            Role::Gt,
        ),
        ("gt/Latin14396/img-Latin14396/train/002.jpg", Role::Gt),
        ("gt/Latin14396/img-Latin14396/test/002.jpg", Role::Gt),
        ("gt/Latin2/img-Latin2/test/002.jpg", Role::Gt),
        ("res/Latin14396/001.png", Role::Pred),
        ("res/Latin14396/002.png", Role::Pred),
    ]);
    let r = score_inputs_set(&ds);
    let ids: Vec<&str> = r.items.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["Latin14396/001", "Latin14396/002"]);
    assert!(fest::page_image::find(&ds, &req, "Latin14396/001").is_none());
    assert_eq!(
        fest::page_image::find(&ds, &req, "Latin14396/002").map(|e| e.path.as_str()),
        Some("gt/Latin14396/img-Latin14396/test/002.jpg")
    );
}

fn score_inputs_set(files: &FileSet) -> dropscore::Report {
    dropscore::protocols::score(
        "fest",
        files,
        &Request::new(Mode::Official),
        &mut dropscore::protocols::Quiet,
    )
    .expect("usage error")
}
