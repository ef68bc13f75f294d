//! Pre-flight check of `detection` (docs/specs/preflight.md): the manifest reveals no box, and `check` agrees with
//! official scoring on generated COCO results files, valid and broken.

mod preflight_common;
use preflight_common::{agreement, manifest, Case, File, Rng};
use serde_json::{json, Value};

/// A ground truth's shape: image ids and category ids (names `c<id>`).
struct Gt {
    images: Vec<i64>,
    cats: Vec<i64>,
}

fn gen_gt(rng: &mut Rng) -> Gt {
    let mut images: Vec<i64> = (0..1 + rng.below(8))
        .map(|_| rng.below(500) as i64)
        .collect();
    images.sort_unstable();
    images.dedup();
    let mut cats: Vec<i64> = (0..1 + rng.below(4))
        .map(|_| 1 + rng.below(90) as i64)
        .collect();
    cats.sort_unstable();
    cats.dedup();
    Gt { images, cats }
}

fn rand_box(rng: &mut Rng) -> Value {
    json!([
        rng.below(300),
        rng.below(200),
        1 + rng.below(120),
        1 + rng.below(120)
    ])
}

/// The annotation file, its boxes (how many, where, crowd or not) from `rng`.
fn gt_file(gt: &Gt, rng: &mut Rng) -> Vec<File> {
    let images: Vec<Value> = gt
        .images
        .iter()
        .map(|i| json!({"id": i, "file_name": format!("{i:06}.jpg"), "width": 640, "height": 480}))
        .collect();
    let cats: Vec<Value> = gt
        .cats
        .iter()
        .map(|c| json!({"id": c, "name": format!("c{c}")}))
        .collect();
    let mut anns = Vec::new();
    for _ in 0..rng.below(12) {
        let b = rand_box(rng);
        let area = b[2].as_f64().unwrap() * b[3].as_f64().unwrap();
        anns.push(
            json!({"id": anns.len() + 1, "image_id": gt.images[rng.below(gt.images.len())],
            "category_id": gt.cats[rng.below(gt.cats.len())], "bbox": b, "area": area,
            "iscrowd": u8::from(rng.chance(10))}),
        );
    }
    let doc = json!({"images": images, "annotations": anns, "categories": cats});
    vec![("ref/instances.json".into(), doc.to_string().into_bytes())]
}

fn results(gt: &Gt, rng: &mut Rng) -> Vec<Value> {
    (0..1 + rng.below(15))
        .map(|_| {
            json!({"image_id": gt.images[rng.below(gt.images.len())],
                "category_id": gt.cats[rng.below(gt.cats.len())], "bbox": rand_box(rng),
                "score": (rng.below(1000) as f64) / 1000.0})
        })
        .collect()
}

/// The submission after one corruption of kind `kind` (0 = none), and its name.
fn corrupt(gt: &Gt, mut res: Vec<Value>, kind: usize, rng: &mut Rng) -> (Vec<File>, &'static str) {
    let r = rng.below(res.len());
    let mut text: Option<Vec<u8>> = None;
    let what = match kind {
        0 => "valid",
        1 => {
            res[r]["image_id"] = json!(10_000 + rng.below(100));
            "unknown image id"
        }
        2 => {
            res[r]["bbox"][2] = json!(-3.5);
            "negative width"
        }
        3 => {
            res[r]["bbox"] = json!([1, 2, 3]);
            "bbox of 3 numbers"
        }
        4 => {
            res[r].as_object_mut().unwrap().remove("score");
            "missing score"
        }
        5 => {
            res[r]["image_id"] = json!(format!("{}", gt.images[0]));
            "image id as a string"
        }
        6 => {
            res.clear();
            "empty list"
        }
        7 => {
            let t = serde_json::to_vec(&res).unwrap();
            let cut = 1 + rng.below(t.len() - 1);
            text = Some(t[..cut].to_vec());
            "truncated file"
        }
        8 => {
            text = Some(json!({"annotations": res}).to_string().into_bytes());
            "an object, not a list"
        }
        9 => {
            res[r]["category_id"] = json!(999);
            "unknown category (info)"
        }
        10 => {
            let mut t = serde_json::to_vec(&res).unwrap();
            t.splice(1..1, b"\xff\xfe".iter().copied());
            text = Some(t);
            "not UTF-8"
        }
        11 => {
            let t = serde_json::to_vec(&res).unwrap();
            return (
                vec![("res/a.json".into(), t.clone()), ("res/b.json".into(), t)],
                "two results files",
            );
        }
        12 => return (Vec::new(), "no results file"),
        13 => {
            let t = serde_json::to_string(&res).unwrap();
            let t = t.replacen("\"score\":", "\"score\":NaN,\"s\":", 1);
            text = Some(t.into_bytes());
            "a NaN score literal"
        }
        _ => {
            let t = serde_json::to_string(&res).unwrap();
            let t = t.replacen("\"bbox\":", "\"score\":0.25,\"bbox\":", 1);
            text = Some(t.into_bytes());
            "a repeated key"
        }
    };
    let bytes = text.unwrap_or_else(|| serde_json::to_vec_pretty(&res).unwrap());
    (vec![("res/results.json".into(), bytes)], what)
}

const SETTINGS: &[&[(&str, &str)]] = &[&[], &[("use_cats", "false")], &[("max_dets", "1,5,20")]];

#[test]
fn check_agrees_with_official_scoring() {
    agreement("detection", 22, 240, (60, 60), |case, rng| {
        let gt = gen_gt(rng);
        let gt_files = gt_file(&gt, rng);
        let res = results(&gt, rng);
        let kind = if case % 4 == 0 { 0 } else { rng.below(15) };
        let (sub, what) = corrupt(&gt, res, kind, rng);
        Case::new(gt_files, sub, SETTINGS[rng.below(SETTINGS.len())], what)
    });
}

#[test]
fn manifest_reveals_no_box() {
    let mut rng = Rng::new(9);
    for _ in 0..50 {
        let gt = gen_gt(&mut rng);
        let a = gt_file(&gt, &mut rng);
        let b = gt_file(&gt, &mut rng);
        for set in SETTINGS {
            assert_eq!(
                manifest("detection", &a, set),
                manifest("detection", &b, set)
            );
        }
    }
}

#[test]
fn manifest_content() {
    let doc = r#"{"images": [{"id": 7, "file_name": "b.jpg", "width": 4, "height": 3}, {"id": 2}],
        "categories": [{"id": 5, "name": "dog"}, {"id": 1, "name": "cat"}],
        "annotations": [{"id": 1, "image_id": 7, "category_id": 5, "bbox": [0, 0, 2, 2], "area": 4, "iscrowd": 0}]}"#;
    let gt: Vec<File> = vec![("ref/gt.json".into(), doc.as_bytes().to_vec())];
    let m: Value = serde_json::from_str(&manifest("detection", &gt, &[])).unwrap();
    assert_eq!(
        m["expects"],
        json!({"images": [{"id": 2}, {"id": 7, "file_name": "b.jpg", "width": 4.0, "height": 3.0}],
            "categories": [{"id": 1, "name": "cat"}, {"id": 5, "name": "dog"}]})
    );
}
