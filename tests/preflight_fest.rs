//! Pre-flight check of `fest` (docs/specs/preflight.md): the manifest reveals no mask pixel, and `check` agrees with
//! official scoring on generated submissions, valid and broken, in the three GT layouts (one folder, several
//! manuscript folders, the data set layout).

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

/// A ground truth's shape: layout (0 one folder, 1 manuscript folders, 2 data set), manuscripts and their
/// images (stem, width, height).
struct Gt {
    layout: usize,
    mss: Vec<(String, Vec<Image>)>,
}

/// An image: stem, width, height.
type Image = (String, u32, u32);

const MSS: &[&str] = &["Latin2", "Latin14396", "Syriaque341"];

fn gen_gt(rng: &mut Rng) -> Gt {
    let layout = rng.below(3);
    let n_ms = if layout == 0 { 1 } else { 1 + rng.below(3) };
    let mss = MSS[..n_ms]
        .iter()
        .map(|m| {
            let imgs = (0..1 + rng.below(3))
                .map(|i| {
                    (
                        format!("{:03}", i + 1),
                        6 + rng.below(10) as u32,
                        4 + rng.below(8) as u32,
                    )
                })
                .collect();
            (m.to_string(), imgs)
        })
        .collect();
    Gt { layout, mss }
}

fn gt_path(gt: &Gt, ms: &str, stem: &str) -> String {
    match gt.layout {
        0 => format!("ref/{stem}.png"),
        1 => format!("ref/{ms}/{stem}.png"),
        _ => format!("ref/{ms}/text-line-gt-{ms}/test/{stem}.png"),
    }
}

fn pred_path(gt: &Gt, ms: &str, stem: &str) -> String {
    match gt.layout {
        0 => format!("res/{stem}.png"),
        _ => format!("res/{ms}/{stem}.png"),
    }
}

/// The GT masks with random lines (rows of 255; pixels from `rng`).
fn gt_files(gt: &Gt, rng: &mut Rng) -> Vec<File> {
    let mut out = Vec::new();
    for (ms, imgs) in &gt.mss {
        for (stem, w, h) in imgs {
            let px: Vec<u8> = (0..w * h)
                .map(|i| {
                    if (i / w) % 3 == 1 && rng.chance(80) {
                        255
                    } else {
                        0
                    }
                })
                .collect();
            out.push((
                gt_path(gt, ms, stem),
                png(*w, *h, png::ColorType::Grayscale, png::BitDepth::Eight, &px),
            ));
        }
    }
    out
}

/// A prediction of `w` × `h`: black background and 1–4 coloured rectangles (never all background: an
/// all-black prediction of a GT with lines is a label-dependent error, which `check` cannot see).
fn pred_png(w: u32, h: u32, rng: &mut Rng, background: [u8; 3]) -> Vec<u8> {
    let mut px = vec![background; (w * h) as usize];
    for k in 0..1 + rng.below(4) {
        let (x0, y0) = (rng.below(w as usize), rng.below(h as usize));
        let (x1, y1) = (
            x0 + 1 + rng.below(w as usize - x0),
            y0 + 1 + rng.below(h as usize - y0),
        );
        let c = [40 + 50 * k as u8, rng.below(256) as u8, 200];
        for y in y0..y1 {
            for x in x0..x1 {
                px[y * w as usize + x] = c;
            }
        }
    }
    png(
        w,
        h,
        png::ColorType::Rgb,
        png::BitDepth::Eight,
        &px.concat(),
    )
}

fn submission(gt: &Gt, rng: &mut Rng) -> Vec<File> {
    let mut out = Vec::new();
    for (ms, imgs) in &gt.mss {
        for (stem, w, h) in imgs {
            out.push((pred_path(gt, ms, stem), pred_png(*w, *h, rng, [0; 3])));
        }
    }
    out
}

/// One corruption of kind `kind` (0 = none); returns its name.
fn corrupt(gt: &Gt, sub: &mut Vec<File>, kind: usize, rng: &mut Rng) -> &'static str {
    let f = rng.below(sub.len());
    match kind {
        0 => "valid",
        1 => {
            sub.remove(f);
            "missing prediction"
        }
        2 => {
            let (ms, _) = &gt.mss[0];
            sub.push((pred_path(gt, ms, "999"), pred_png(8, 8, rng, [0; 3])));
            "extra prediction"
        }
        3 => {
            sub[f].1 = pred_png(5, 3, rng, [0; 3]);
            "wrong size"
        }
        4 => {
            sub[f].1 = b"0 0 255 0\n".to_vec();
            "not a PNG"
        }
        5 => {
            let n = sub[f].1.len();
            let cut = 8 + rng.below(n - 8);
            sub[f].1.truncate(cut);
            "truncated PNG"
        }
        6 => {
            let n = sub[f].1.len();
            let at = 33 + rng.below(n - 45);
            sub[f].1[at] ^= 0x55;
            "corrupted byte (CRC)"
        }
        7 => {
            sub[f].1 = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00".to_vec();
            "a JPEG named .png"
        }
        8 => {
            for p in sub.iter_mut() {
                p.0 = p.0.replacen("res/Latin2/", "res/Latin_2/", 1);
            }
            "manuscript folder misnamed"
        }
        9 => {
            for p in sub.iter_mut() {
                p.0 = p.0.replacen("res/Latin2/", "res/LATIN2/", 1);
            }
            "manuscript folder in other case"
        }
        10 => {
            sub[f].0 = sub[f].0.replace(".png", ".PNG");
            "upper-case extension"
        }
        11 => {
            sub.clear();
            "empty submission"
        }
        12 => {
            let (w, h) = size_of(gt, f);
            sub[f].1 = pred_png(w, h, rng, [10, 10, 10]);
            "no black background (warning)"
        }
        13 => {
            let (w, h) = size_of(gt, f);
            let px: Vec<u8> = (0..w * h)
                .map(|i| if i % 3 == 0 { 255 } else { 0 })
                .collect();
            sub[f].1 = png(w, h, png::ColorType::Grayscale, png::BitDepth::Eight, &px);
            "binary gray mask"
        }
        _ => {
            sub.push(("res/readme.txt".into(), b"my submission\n".to_vec()));
            "a readme next to the masks"
        }
    }
}

/// The size of the `f`-th image in submission order.
fn size_of(gt: &Gt, f: usize) -> (u32, u32) {
    let all: Vec<(u32, u32)> = gt
        .mss
        .iter()
        .flat_map(|(_, imgs)| imgs.iter().map(|(_, w, h)| (*w, *h)))
        .collect();
    all[f]
}

const SETTINGS: &[&[(&str, &str)]] = &[
    &[],
    &[("connectivity", "4")],
    &[("label_wrap", "false"), ("matching", "greedy")],
];

#[test]
fn check_agrees_with_official_scoring() {
    agreement("fest", 18, 240, (60, 60), |case, rng| {
        let gt = gen_gt(rng);
        let gt_files = gt_files(&gt, rng);
        let mut sub = submission(&gt, rng);
        let kind = if case % 4 == 0 { 0 } else { rng.below(15) };
        let what = corrupt(&gt, &mut sub, kind, rng);
        let what = format!("layout {}, {what}", gt.layout);
        Case::new(gt_files, sub, SETTINGS[rng.below(SETTINGS.len())], what)
    });
}

#[test]
fn manifest_reveals_no_pixel() {
    let mut rng = Rng::new(5);
    for _ in 0..50 {
        let gt = gen_gt(&mut rng);
        let a = gt_files(&gt, &mut rng);
        let b = gt_files(&gt, &mut rng);
        assert_ne!(a, b);
        for set in SETTINGS {
            assert_eq!(manifest("fest", &a, set), manifest("fest", &b, set));
        }
    }
}

#[test]
fn manifest_content() {
    let mask = png(
        3,
        2,
        png::ColorType::Grayscale,
        png::BitDepth::Eight,
        &[0, 255, 0, 0, 0, 0],
    );
    let gt: Vec<File> = vec![
        (
            "ref/Syr341/text-line-gt-Syr341/test/002.png".into(),
            mask.clone(),
        ),
        ("ref/Syr341/text-line-gt-Syr341/test/001.png".into(), mask),
    ];
    let m: serde_json::Value = serde_json::from_str(&manifest("fest", &gt, &[])).unwrap();
    assert_eq!(m["protocol"], "fest");
    assert_eq!(
        m["expects"],
        serde_json::json!({"layout": "dataset", "manuscripts": [{"name": "Syr341", "entries": [
            {"path": "ref/Syr341/text-line-gt-Syr341/test/001.png", "width": 3, "height": 2},
            {"path": "ref/Syr341/text-line-gt-Syr341/test/002.png", "width": 3, "height": 2}]}]})
    );
}
