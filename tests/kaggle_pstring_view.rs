//! The page's view of PredictionString boxes (src/protocols/kaggle/pstring_view.rs): every image's boxes
//! classified TP / FP / FN at IoU 0.5 add up to the report's per-image `tp50`, `fp50` and `fn50` (COCOeval's own
//! counts), the images are listed most errors first, and the boxes keep the files' coordinates.

mod common;
use common::*;
use dropscore::input::{FileSet, Limits, Role};
use dropscore::protocols::views::{self, Cache, ViewCall};
use dropscore::protocols::Request;
use dropscore::Mode;
use serde_json::{json, Value};

fn example(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/kaggle/prediction-string")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn files(solution: Vec<u8>, submission: Vec<u8>) -> FileSet {
    FileSet::build(
        vec![
            bytes_input("solution.csv", Some(Role::Gt), solution),
            bytes_input("submission.csv", Some(Role::Pred), submission),
        ],
        &Limits::default(),
    )
}

fn view(files: &FileSet, req: &Request, cache: &mut Cache, name: &str, args: Value) -> Value {
    let mut call = ViewCall {
        files,
        req,
        args: &args,
        cache,
    };
    views::run("kaggle", name, &mut call)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .json
}

fn box_request() -> Request {
    let mut req = Request::new(Mode::Official);
    req.set = vec![("metric".into(), "box_ap".into())];
    req
}

#[test]
fn every_image_counts_as_the_report() {
    let fs = files(example("solution.csv"), example("submission.csv"));
    let req = box_request();
    let report = dropscore::protocols::score("kaggle", &fs, &req, &mut dropscore::protocols::Quiet)
        .expect("scored")
        .to_json();
    let report: Value = serde_json::from_str(&report).unwrap();
    let items = report["items"].as_array().unwrap();
    assert_eq!(items.len(), 12);
    let mut cache = Cache::default();
    let list = view(&fs, &req, &mut cache, "box_images", json!({}));
    assert_eq!(list["boxes"], true);
    let images = list["images"].as_array().unwrap();
    assert_eq!(images.len(), items.len());
    assert_eq!(list["of"], items.len());
    let errors = |r: &Value| r[4].as_u64().unwrap() + r[5].as_u64().unwrap();
    assert!(
        images.windows(2).all(|w| errors(&w[0]) >= errors(&w[1])),
        "most errors first"
    );
    for item in items {
        let id = item["id"].as_str().unwrap();
        let v = view(&fs, &req, &mut cache, "boxes", json!({ "id": id }));
        let want = |k: &str| item["scores"][k].as_f64().unwrap_or_else(|| panic!("{k}")) as u64;
        assert_eq!(v["counts"]["tp"], want("tp50"), "{id}");
        assert_eq!(v["counts"]["fp"], want("fp50"), "{id}");
        assert_eq!(v["counts"]["fn"], want("fn50"), "{id}");
        assert_eq!(v["gt"].as_array().unwrap().len() as u64, want("gt_boxes"));
        assert_eq!(
            v["dets"].as_array().unwrap().len() as u64,
            want("detections")
        );
        let row = images.iter().find(|r| r[0] == id).unwrap();
        assert_eq!(row[3], v["counts"]["tp"]);
    }
}

#[test]
fn boxes_keep_their_coordinates_and_other_classes_are_listed() {
    // xyxy boxes; the submission's class 9 is not in the solution (COCO does not evaluate it).
    let solution = b"image_id,PredictionString\na,0 10 20 50 60\nb,\n".to_vec();
    let submission =
        b"image_id,PredictionString\na,0 0.9 10 20 50 60 9 0.5 1 1 5 5\nb,0 0.3 0 0 4 4\n".to_vec();
    let fs = files(solution, submission);
    let mut req = box_request();
    req.set.push(("box_format".into(), "xyxy".into()));
    let mut cache = Cache::default();
    let a = view(&fs, &req, &mut cache, "boxes", json!({ "id": "a" }));
    assert_eq!(a["gt"][0]["bbox"], json!([10.0, 20.0, 40.0, 40.0]));
    assert_eq!(a["gt"][0]["status"], "TP");
    assert_eq!(a["dets"][0]["status"], "TP");
    assert_eq!(a["dets"][1]["status"], "class not in the solution");
    assert_eq!(a["categories"], json!(["0", "(class not in the solution)"]));
    let b = view(&fs, &req, &mut cache, "boxes", json!({ "id": "b" }));
    assert_eq!(
        b["counts"],
        json!({"tp": 0, "fp": 1, "fn": 0, "ignored": 0})
    );
    let list = view(&fs, &req, &mut cache, "box_images", json!({}));
    assert_eq!(list["images"][0][0], "b", "the image with an error first");
    let mut call = ViewCall {
        files: &fs,
        req: &req,
        args: &json!({ "id": "c" }),
        cache: &mut cache,
    };
    let missing = views::run("kaggle", "boxes", &mut call).err().unwrap();
    assert!(missing.contains("no image `c`"), "{missing}");
}

#[test]
fn other_metrics_have_no_box_view() {
    let fs = files(b"id,y\n1,a b\n".to_vec(), b"id,y\n1,a\n".to_vec());
    let mut req = Request::new(Mode::Official);
    req.set = vec![("metric".into(), "map".into())];
    let list = view(&fs, &req, &mut Cache::default(), "box_images", json!({}));
    assert_eq!(list, json!({ "boxes": false }));
}
