//! `detection` on the example (www/examples/detection/, written by examples/detection/generate.py) against
//! values computed once with pycocotools 2.0.8 (`COCO(gt)`, `loadRes(results)`, `COCOeval(…, 'bbox')`,
//! `evaluate()`, `accumulate()`, `summarize()`; per-category AP = `np.mean(p[p > -1])` of
//! `precision[:, :, k, 0, 2]`), and the located diagnostics of docs/specs/families.md sections 3 and 5.

mod common;
use common::*;
use dropscore::input::Role;
use dropscore::protocols;
use dropscore::{Mode, Report, Severity};

fn example(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("www/examples/detection")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn score(gt: &[u8], res: &[u8], mode: Mode, set: &[(&str, &str)]) -> Report {
    score_inputs(
        "detection",
        vec![
            bytes_input("gt/instances.json", Some(Role::Gt), gt.to_vec()),
            bytes_input("res/results.json", Some(Role::Pred), res.to_vec()),
        ],
        mode,
        set,
    )
}

/// pycocotools 2.0.8 `E.stats` on the example, as `repr(float(x))`.
const STATS: [(&str, f64); 12] = [
    ("AP", 0.3432482863670982),
    ("AP50", 0.4358819215254859),
    ("AP75", 0.39627090914219626),
    ("APs", 0.37538896746817535),
    ("APm", 0.39801980198019804),
    ("APl", 0.29999999999999993),
    ("AR1", 0.3809523809523809),
    ("AR10", 0.4928571428571428),
    ("AR100", 0.4928571428571428),
    ("ARs", 0.557142857142857),
    ("ARm", 0.5125),
    ("ARl", 0.3),
];

/// pycocotools' `summarize()` print on the example.
const SUMMARY: &str =
    " Average Precision  (AP) @[ IoU=0.50:0.95 | area=   all | maxDets=100 ] = 0.343
 Average Precision  (AP) @[ IoU=0.50      | area=   all | maxDets=100 ] = 0.436
 Average Precision  (AP) @[ IoU=0.75      | area=   all | maxDets=100 ] = 0.396
 Average Precision  (AP) @[ IoU=0.50:0.95 | area= small | maxDets=100 ] = 0.375
 Average Precision  (AP) @[ IoU=0.50:0.95 | area=medium | maxDets=100 ] = 0.398
 Average Precision  (AP) @[ IoU=0.50:0.95 | area= large | maxDets=100 ] = 0.300
 Average Recall     (AR) @[ IoU=0.50:0.95 | area=   all | maxDets=  1 ] = 0.381
 Average Recall     (AR) @[ IoU=0.50:0.95 | area=   all | maxDets= 10 ] = 0.493
 Average Recall     (AR) @[ IoU=0.50:0.95 | area=   all | maxDets=100 ] = 0.493
 Average Recall     (AR) @[ IoU=0.50:0.95 | area= small | maxDets=100 ] = 0.557
 Average Recall     (AR) @[ IoU=0.50:0.95 | area=medium | maxDets=100 ] = 0.512
 Average Recall     (AR) @[ IoU=0.50:0.95 | area= large | maxDets=100 ] = 0.300
";

#[test]
fn example_matches_pycocotools() {
    let r = score(
        &example("gt/instances.json"),
        &example("pred/results.json"),
        Mode::Official,
        &[],
    );
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    for (id, v) in STATS {
        assert_eq!(r.scores.get(id), Some(v), "{id}");
    }
    assert_eq!(protocols::render_text(&r).as_deref(), Some(SUMMARY));
    let item = |id: &str| r.items.iter().find(|i| i.id == id).unwrap();
    assert_eq!(item("circle").scores.get("AP"), Some(0.25901878649403404));
    assert_eq!(item("square").scores.get("AP"), Some(0.45074257425742575));
    assert_eq!(item("triangle").scores.get("AP"), Some(0.3199834983498349));
    // A category without GT: precision −1 everywhere, so AP is null; its detections are counted.
    assert_eq!(item("star").scores.get("AP"), None);
    assert!(item("star").scores.get("detections").unwrap() > 0.0);
    assert_eq!(item("star").scores.get("gt_boxes"), Some(0.0));
    // The crowd box is not a GT box in the count.
    let gt_boxes: f64 = ["circle", "square", "triangle"]
        .iter()
        .map(|c| item(c).scores.get("gt_boxes").unwrap())
        .sum();
    assert_eq!(gt_boxes, 35.0);
    assert_eq!(r.display.headline[0].id, "AP");
    let ids: Vec<&str> = r.plots.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["pr50", "pr75"]);
    // Corrected mode: the same numbers, and the report says so.
    let c = score(
        &example("gt/instances.json"),
        &example("pred/results.json"),
        Mode::Corrected,
        &[],
    );
    assert_eq!(c.scores, r.scores);
    assert!(c.display.footer.contains("no corrected behaviour"));
    // The leaderboard metric is shown first.
    let m = score(
        &example("gt/instances.json"),
        &example("pred/results.json"),
        Mode::Official,
        &[("metric", "AP50")],
    );
    assert_eq!(m.display.headline[0].id, "AP50");
}

const GT: &str = r#"{"images": [{"id": 1}, {"id": 2}],
 "categories": [{"id": 1, "name": "a"}],
 "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "area": 100, "iscrowd": 0}]}"#;

fn codes(r: &Report) -> Vec<(&str, Severity, Option<u64>, Option<u64>)> {
    r.diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.severity, d.line, d.column))
        .collect()
}

#[test]
fn located_result_errors() {
    let res =
        "[\n{\"image_id\": 1, \"category_id\": 1, \"bbox\": [0, 0, 10, 10], \"score\": 0.9},\n\
               {\"image_id\": 7, \"category_id\": 1, \"bbox\": [0, 0, 10, 10], \"score\": 0.9},\n\
               {\"image_id\": 2, \"category_id\": 1, \"bbox\": [0, 0, -1, 10], \"score\": 0.9},\n\
               {\"image_id\": 2, \"category_id\": 1, \"bbox\": [0, 0, 1, 10]},\n\
               {\"image_id\": 2, \"category_id\": \"a\", \"bbox\": [0, 0, 1, 10], \"score\": 1}\n]";
    let r = score(GT.as_bytes(), res.as_bytes(), Mode::Official, &[]);
    assert!(r.scores.is_empty());
    assert!(r.official_fails);
    let c = codes(&r);
    assert!(
        c.contains(&("detection.unknown_image", Severity::Error, Some(3), Some(1))),
        "{c:?}"
    );
    assert!(
        c.contains(&("detection.negative_size", Severity::Error, Some(4), Some(1))),
        "{c:?}"
    );
    assert!(
        c.iter()
            .any(|d| d.0 == "detection.json.field" && d.2 == Some(5)),
        "{c:?}"
    );
    assert!(
        c.iter()
            .any(|d| d.0 == "detection.json.field" && d.2 == Some(6)),
        "{c:?}"
    );
    let missing = r.diagnostics.iter().find(|d| d.line == Some(5)).unwrap();
    assert!(
        missing.message.contains("missing field `score`"),
        "{}",
        missing.message
    );
}

#[test]
fn empty_results_and_syntax() {
    let r = score(GT.as_bytes(), b"[]", Mode::Official, &[]);
    assert!(r.scores.is_empty());
    assert_eq!(codes(&r)[0].0, "detection.empty_results");
    let r = score(GT.as_bytes(), b"[{\"image_id\": 1,]", Mode::Official, &[]);
    let c = codes(&r);
    assert_eq!((c[0].0, c[0].2), ("detection.json.syntax", Some(1)));
    let r = score(
        b"{\"images\": []}",
        b"[{\"image_id\": 1}]",
        Mode::Official,
        &[],
    );
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("`categories`")));
}

#[test]
fn unknown_category_is_dropped_with_an_info() {
    let res = r#"[{"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 0.9},
                 {"image_id": 2, "category_id": 9, "bbox": [0, 0, 10, 10], "score": 0.8}]"#;
    let r = score(GT.as_bytes(), res.as_bytes(), Mode::Official, &[]);
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    assert_eq!(codes(&r)[0].0, "detection.unknown_category");
    assert_eq!(codes(&r)[0].1, Severity::Info);
    // One small GT, one perfect detection: precision 1 / (1 + spacing(1)), as pycocotools 2.0.8 gives it.
    assert_eq!(r.scores.get("AP"), Some(0.9999999999999998));
    assert_eq!(r.scores.get("APs"), Some(0.9999999999999998));
    assert_eq!(r.scores.get("APm"), None); // no medium GT: −1
}

#[test]
fn bad_options_are_usage_errors() {
    let files = dropscore::input::FileSet::build(
        vec![bytes_input(
            "gt.json",
            Some(Role::Gt),
            GT.as_bytes().to_vec(),
        )],
        &Default::default(),
    );
    for (k, v) in [
        ("max_dets", "1,10"),
        ("iou_thresholds", "0.5:0:1"),
        ("area_ranges", "all"),
    ] {
        let req = protocols::Request {
            set: vec![(k.into(), v.into())],
            ..protocols::Request::new(Mode::Official)
        };
        assert!(
            protocols::score("detection", &files, &req, &mut protocols::Quiet).is_err(),
            "{k}"
        );
    }
}

/// Results wrapped in an object (`{"annotations": […]}`, as some exporters write them) are named as such, not
/// "check with a JSON validator".
#[test]
fn wrapped_results_are_named() {
    let r = score(
        GT.as_bytes(),
        b"{\"annotations\": [{\"image_id\": 1, \"category_id\": 1, \"bbox\": [0, 0, 1, 1], \"score\": 0.5}]}",
        Mode::Official,
        &[],
    );
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "detection.json.not_a_list")
        .unwrap_or_else(|| panic!("{:#?}", r.diagnostics));
    assert!(d.message.contains("\"annotations\""), "{}", d.message);
    assert!(d
        .hint
        .as_deref()
        .unwrap()
        .contains("json.dump(data[\"annotations\"]"));
}

/// Runs `dropscore detection --gt G --pred R --format json` on two files in a fresh folder; (exit, report).
fn cli(gt: &str, res: &str) -> (i32, serde_json::Value) {
    let dir = std::env::temp_dir().join(format!(
        "dropscore-detection-{}-{}",
        std::process::id(),
        gt.len() * 31 + res.len()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let (g, r) = (dir.join("gt.json"), dir.join("res.json"));
    std::fs::write(&g, gt).unwrap();
    std::fs::write(&r, res).unwrap();
    let (g, r) = (g.to_str().unwrap(), r.to_str().unwrap());
    let (code, out, _) = cli::run(&["detection", "--gt", g, "--pred", r, "--format", "json"]);
    std::fs::remove_dir_all(&dir).ok();
    (code, serde_json::from_str(&out).unwrap_or_default())
}

/// Two images, one perfect detection on the first and a miss on the second, both scored 0.5: the tie is
/// broken by the images' order, `sorted(cocoGt.getImgIds())`.
fn two_images(a: &str, b: &str, res_a: &str, res_b: &str) -> (String, String) {
    let gt = format!(
        r#"{{"images": [{{"id": {a}, "file_name": "a.jpg"}}, {{"id": {b}, "file_name": "b.jpg"}}], "categories": [{{"id": 1, "name": "x"}}],
        "annotations": [{{"id": 1, "image_id": {a}, "category_id": 1, "bbox": [0, 0, 40, 40], "area": 1600, "iscrowd": 0}},
                        {{"id": 2, "image_id": {b}, "category_id": 1, "bbox": [0, 0, 40, 40], "area": 1600, "iscrowd": 0}}]}}"#
    );
    let res = format!(
        r#"[{{"image_id": {res_a}, "category_id": 1, "bbox": [0, 0, 40, 40], "score": 0.5}},
           {{"image_id": {res_b}, "category_id": 1, "bbox": [100, 100, 40, 40], "score": 0.5}}]"#
    );
    (gt, res)
}

/// String image ids are dict keys to pycocotools: scored, in `sorted()`'s string order ("10" before "9"), so
/// the tie goes the other way than with the integers 9 and 10. pycocotools 2.0.8 `E.stats[0]`:
/// 0.2524752475247525 with "9"/"10", 0.5049504950495048 with 9/10. A result id "1" for a GT id 1 is refused
/// as loadRes refuses it, and a GT mixing int and str ids fails as COCOeval's `sorted()` does (TypeError).
#[test]
fn string_image_ids_as_pycocotools() {
    let (gt, res) = two_images("\"9\"", "\"10\"", "\"9\"", "\"10\"");
    let (code, r) = cli(&gt, &res);
    assert_eq!(code, 0, "{r}");
    assert_eq!(r["scores"]["AP"], 0.2524752475247525, "{r}");
    assert_eq!(r["scores"]["AR100"], 0.5);
    let ids: Vec<&serde_json::Value> = r["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["group"] == "image")
        .map(|i| &i["detail"]["image_id"])
        .collect();
    assert!(ids.contains(&&serde_json::json!("10")), "{ids:?}");
    let (gt, res) = two_images("9", "10", "9", "10");
    assert_eq!(cli(&gt, &res).1["scores"]["AP"], 0.5049504950495048);

    let (gt, res) = two_images("\"9\"", "\"10\"", "9", "\"10\"");
    let (code, r) = cli(&gt, &res);
    assert_eq!(code, 1, "{r}");
    let d = &r["diagnostics"][0];
    assert_eq!(d["code"], "detection.unknown_image", "{r}");
    assert_eq!(
        d["file"].as_str().map(|f| f.ends_with("res.json")),
        Some(true)
    );

    let (gt, res) = two_images("\"9\"", "10", "\"9\"", "10");
    let (code, r) = cli(&gt, &res);
    assert_eq!(code, 1, "{r}");
    let d = &r["diagnostics"][0];
    assert_eq!(d["code"], "detection.mixed_image_ids", "{r}");
    assert_eq!(d["line"], 1);
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("\"9\" (str) and 10 (int)"),
        "{d}"
    );
}
