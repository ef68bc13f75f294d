//! Pre-flight check of `chalearn-ce` (docs/specs/preflight.md): the manifest reveals no label, and `check` agrees
//! with official scoring on generated submissions, valid and broken.

mod preflight_common;
use preflight_common::{agreement, manifest, manifest_hides_labels, Case, File, Rng};

const NAMES: &[&str] = &[
    "La_Tomatina",
    "Holi",
    "San_Fermin",
    "Carnival_Rio",
    "Diwali",
];

/// A ground truth: categories, each with its ids (one shared list, or its own) and random labels.
struct Gt {
    cats: Vec<(String, Vec<String>)>,
}

fn gen_gt(rng: &mut Rng) -> Gt {
    let k = 1 + rng.below(4);
    let shared: Vec<String> = (0..3 + rng.below(10))
        .map(|i| format!("img_{i:03}.jpg"))
        .collect();
    let cats = NAMES[..k]
        .iter()
        .map(|n| {
            let ids = if rng.chance(70) {
                shared.clone()
            } else {
                (0..2 + rng.below(6))
                    .map(|i| format!("{n}_{i}.jpg"))
                    .collect()
            };
            (n.to_string(), ids)
        })
        .collect();
    Gt { cats }
}

/// The GT files with labels from `rng` (1, 0 or -1).
fn gt_files(gt: &Gt, rng: &mut Rng) -> Vec<File> {
    gt.cats
        .iter()
        .map(|(n, ids)| {
            let mut s = String::new();
            for id in ids {
                let label = ["1", "-1", "0", "-1"][rng.below(4)];
                s.push_str(&format!("{id} {label}\n"));
            }
            (format!("ref/{n}_test.txt"), s.into_bytes())
        })
        .collect()
}

/// A valid submission: every category, every id, a confidence each.
fn submission(gt: &Gt, rng: &mut Rng) -> Vec<(String, Vec<String>)> {
    gt.cats
        .iter()
        .map(|(n, ids)| {
            let mut lines: Vec<String> = ids
                .iter()
                .map(|id| format!("{id} {:.6}", rng.unit()))
                .collect();
            if rng.chance(30) {
                lines.reverse();
            }
            (format!("res/{n}.txt"), lines)
        })
        .collect()
}

/// One corruption of kind `kind` (0 = none); returns its name.
fn corrupt(sub: &mut Vec<(String, Vec<String>)>, kind: usize, rng: &mut Rng) -> &'static str {
    let f = rng.below(sub.len());
    let n = sub[f].1.len();
    let l = rng.below(n.max(1));
    match kind {
        0 => "valid",
        1 => {
            if n > 0 {
                sub[f].1.remove(l);
            }
            "missing id"
        }
        2 => {
            sub[f].1.insert(l.min(n), "nobody.jpg 0.5".into());
            "unknown id"
        }
        3 => {
            if n > 0 {
                let dup = sub[f].1[l].clone();
                sub[f].1.push(dup);
            }
            "duplicate id"
        }
        4 => {
            if n > 0 {
                let id = sub[f].1[l].split(' ').next().unwrap_or("").to_string();
                sub[f].1[l] = id;
            }
            "broken line (one field)"
        }
        5 => {
            if n > 0 {
                let id = sub[f].1[l].split(' ').next().unwrap_or("").to_string();
                sub[f].1[l] = format!("{id} 0,5");
            }
            "confidence not a number"
        }
        6 => {
            if n > 0 {
                let id = sub[f].1[l].split(' ').next().unwrap_or("").to_string();
                sub[f].1[l] = format!("{id} nan");
            }
            "nan confidence"
        }
        7 => {
            sub.remove(f);
            "missing category file"
        }
        8 => {
            sub.push(("res/Oktoberfest.txt".into(), vec!["img_000.jpg 0.5".into()]));
            "unknown category file"
        }
        9 => {
            sub[f].0 = sub[f].0.to_lowercase();
            "file name case"
        }
        10 => {
            sub[f].1.push("x y z".into());
            "extra fields"
        }
        11 => {
            sub.clear();
            "empty submission"
        }
        12 => {
            sub.push(("res/readme.md".into(), vec!["hello".into()]));
            "not a .txt file"
        }
        _ => "truncated file (handled as bytes)",
    }
}

fn to_files(sub: &[(String, Vec<String>)], kind: usize, rng: &mut Rng) -> Vec<File> {
    let mut files: Vec<File> = sub
        .iter()
        .map(|(p, lines)| {
            let mut s = lines.join("\n");
            s.push('\n');
            (p.clone(), s.into_bytes())
        })
        .collect();
    if !files.is_empty() {
        let f = rng.below(files.len());
        let b = &mut files[f].1;
        match kind {
            13 => {
                let cut = rng.below(b.len().max(1));
                b.truncate(cut);
            }
            14 => b.extend_from_slice(b"bad\xff\xfe.jpg 0.5\n"),
            _ => {}
        }
    }
    files
}

const SETTINGS: &[&[(&str, &str)]] = &[
    &[],
    &[("duplicates", "error")],
    &[("id_match", "stem")],
    &[("gt_zero", "ignore"), ("missing_images", "append")],
];

#[test]
fn check_agrees_with_official_scoring() {
    // Both verdicts occur often enough for the agreement to mean something.
    agreement("chalearn-ce", 20, 300, (60, 40), |case, rng| {
        let gt = gen_gt(rng);
        let gt_files = gt_files(&gt, rng);
        let mut sub = submission(&gt, rng);
        let kind = if case % 4 == 0 { 0 } else { rng.below(15) };
        let what = corrupt(&mut sub, kind, rng);
        let pred = to_files(&sub, kind, rng);
        Case::new(gt_files, pred, SETTINGS[rng.below(SETTINGS.len())], what)
    });
}

#[test]
fn manifest_reveals_no_label() {
    manifest_hides_labels("chalearn-ce", 7, SETTINGS, |rng| {
        let gt = gen_gt(rng);
        (gt_files(&gt, rng), gt_files(&gt, rng))
    });
}

#[test]
fn manifest_content() {
    let gt: Vec<File> = vec![
        ("ref/Holi_test.txt".into(), b"b.jpg 1\na.jpg -1\n".to_vec()),
        ("ref/Diwali_test.txt".into(), b"a.jpg 1\nb.jpg 1\n".to_vec()),
    ];
    let m: serde_json::Value = serde_json::from_str(&manifest("chalearn-ce", &gt, &[])).unwrap();
    assert_eq!(m["kind"], "dropscore-manifest");
    assert_eq!(m["protocol"], "chalearn-ce");
    assert_eq!(m["options"]["duplicates"], "first");
    assert_eq!(
        m["expects"],
        serde_json::json!({"image_set": "test",
            "categories": [{"name": "Diwali", "ids": 0}, {"name": "Holi", "ids": 0}],
            "id_lists": [["a.jpg", "b.jpg"]]})
    );
}
