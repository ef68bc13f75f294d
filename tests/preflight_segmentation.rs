//! Pre-flight check of `segmentation` (docs/specs/preflight.md): the manifest reveals no pixel, and `check` agrees
//! with official scoring on generated label-map submissions, valid and broken.

mod preflight_common;
use preflight_common::{agreement, manifest, Case, File, Rng};

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

fn gray(w: u32, h: u32, v: &[u8]) -> Vec<u8> {
    png(w, h, png::ColorType::Grayscale, png::BitDepth::Eight, v)
}

/// A ground truth's shape: class count and images (stem, width, height).
struct Gt {
    classes: u8,
    images: Vec<(String, u32, u32)>,
}

fn gen_gt(rng: &mut Rng) -> Gt {
    Gt {
        classes: 2 + rng.below(5) as u8,
        images: (0..1 + rng.below(4))
            .map(|i| {
                (
                    format!("img_{i}"),
                    3 + rng.below(9) as u32,
                    2 + rng.below(7) as u32,
                )
            })
            .collect(),
    }
}

/// Label maps of random classes (and some 255 = ignore).
fn maps(gt: &Gt, rng: &mut Rng, folder: &str, ignore: bool) -> Vec<File> {
    gt.images
        .iter()
        .map(|(s, w, h)| {
            let v: Vec<u8> = (0..w * h)
                .map(|_| {
                    if ignore && rng.chance(10) {
                        255
                    } else {
                        rng.below(gt.classes as usize) as u8
                    }
                })
                .collect();
            (format!("{folder}/{s}.png"), gray(*w, *h, &v))
        })
        .collect()
}

fn corrupt(gt: &Gt, sub: &mut Vec<File>, kind: usize, rng: &mut Rng) -> &'static str {
    let f = rng.below(sub.len());
    let (_, w, h) = gt.images[f].clone();
    match kind {
        0 => "valid",
        1 => {
            sub.remove(f);
            "missing label map"
        }
        2 => {
            sub.push((
                "res/other.png".into(),
                gray(w, h, &vec![0; (w * h) as usize]),
            ));
            "unknown stem"
        }
        3 => {
            sub[f].1 = gray(w + 1, h, &vec![0; ((w + 1) * h) as usize]);
            "wrong size"
        }
        4 => {
            let mut v = vec![0u8; (w * h) as usize];
            let at = rng.below(v.len());
            v[at] = gt.classes + rng.below(10) as u8;
            sub[f].1 = gray(w, h, &v);
            "class value out of range"
        }
        5 => {
            sub[f].1 = b"not a png".to_vec();
            "not a PNG"
        }
        6 => {
            let n = sub[f].1.len();
            let cut = 8 + rng.below(n - 8);
            sub[f].1.truncate(cut);
            "truncated PNG"
        }
        7 => {
            let dup = sub[f].clone();
            sub.push((dup.0.replace("res/", "res/again/"), dup.1));
            "a stem twice"
        }
        8 => {
            let v = vec![0u8; (w * h * 3) as usize];
            sub[f].1 = png(w, h, png::ColorType::Rgb, png::BitDepth::Eight, &v);
            "RGB label map without palette"
        }
        9 => {
            let v: Vec<u8> = (0..w * h).flat_map(|_| [0u8, 1]).collect();
            sub[f].1 = png(w, h, png::ColorType::Grayscale, png::BitDepth::Sixteen, &v);
            "16-bit label map"
        }
        10 => {
            sub[f].0 = "res/renamed.png".into();
            "renamed file (pairs when it is the only one)"
        }
        11 => {
            sub[f].1 = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01".to_vec();
            "a JPEG named .png"
        }
        12 => {
            sub.push(("res/readme.txt".into(), b"hello\n".to_vec()));
            "a readme (info)"
        }
        _ => {
            sub.clear();
            "empty submission"
        }
    }
}

#[test]
fn check_agrees_with_official_scoring() {
    agreement("segmentation", 23, 240, (60, 60), |case, rng| {
        let gt = gen_gt(rng);
        let gt_files = maps(&gt, rng, "ref", true);
        let mut sub = maps(&gt, rng, "res", false);
        let kind = if case % 4 == 0 { 0 } else { rng.below(14) };
        let what = corrupt(&gt, &mut sub, kind, rng);
        let c = gt.classes.to_string();
        let names: Vec<String> = (0..gt.classes).map(|k| format!("class{k}")).collect();
        let names = names.join(",");
        let set: Vec<(&str, &str)> = match rng.below(4) {
            0 => vec![("num_classes", &c)],
            1 => vec![("class_names", &names)],
            2 => vec![("num_classes", &c), ("reduce_zero_label", "true")],
            _ => vec![("num_classes", &c), ("missing", "worst")],
        };
        Case::new(gt_files, sub, &set, what)
    });
}

#[test]
fn manifest_reveals_no_pixel() {
    let mut rng = Rng::new(11);
    for _ in 0..50 {
        let gt = gen_gt(&mut rng);
        let a = maps(&gt, &mut rng, "ref", true);
        let b = maps(&gt, &mut rng, "ref", true);
        let c = gt.classes.to_string();
        for set in [
            vec![("num_classes", c.as_str())],
            vec![("num_classes", c.as_str()), ("reduce_zero_label", "true")],
        ] {
            assert_eq!(
                manifest("segmentation", &a, &set),
                manifest("segmentation", &b, &set)
            );
        }
    }
}

#[test]
fn manifest_content() {
    let gt: Vec<File> = vec![("ref/b.png".into(), gray(3, 2, &[0, 1, 255, 1, 1, 0]))];
    let m: serde_json::Value = serde_json::from_str(&manifest(
        "segmentation",
        &gt,
        &[("class_names", "sky,road")],
    ))
    .unwrap();
    assert_eq!(
        m["expects"],
        serde_json::json!({"images": [{"stem": "b", "path": "ref/b.png", "width": 3, "height": 2}],
            "num_classes": 2, "class_names": ["sky", "road"], "ignore_index": 255})
    );
}
