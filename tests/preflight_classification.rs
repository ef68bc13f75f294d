//! Pre-flight check of `classification` (docs/specs/preflight.md): the manifest reveals no label, and `check` agrees
//! with official scoring on generated submissions, valid and broken.

mod preflight_common;
use preflight_common::{agreement, manifest, manifest_hides_labels, Case, File, Rng};

/// A ground truth: ids (GT order, maybe with blank lines and quoted ids) and the class labels.
struct Gt {
    ids: Vec<String>,
    classes: Vec<String>,
    blank_after: Vec<bool>,
}

fn gen_gt(rng: &mut Rng) -> Gt {
    let k = 2 + rng.below(4);
    let classes: Vec<String> = if rng.chance(50) {
        (0..k).map(|c| c.to_string()).collect()
    } else {
        ["cat", "dog", "owl", "yak", "emu"][..k]
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    let n = k + rng.below(12);
    let ids = (0..n)
        .map(|i| {
            if rng.chance(10) {
                format!("\"id,{i}\"")
            } else {
                format!("id{i}")
            }
        })
        .collect();
    let blank_after = (0..n).map(|_| rng.chance(5)).collect();
    Gt {
        ids,
        classes,
        blank_after,
    }
}

/// The GT file with labels from `rng` (every class used once at least).
fn gt_files(gt: &Gt, rng: &mut Rng) -> Vec<File> {
    let k = gt.classes.len();
    let mut s = String::from("id,label\n");
    for (i, id) in gt.ids.iter().enumerate() {
        let c = if i < k { i } else { rng.below(k) };
        s.push_str(&format!("{id},{}\n", gt.classes[c]));
        if gt.blank_after[i] {
            s.push('\n');
        }
    }
    vec![("gt.csv".into(), s.into_bytes())]
}

/// A valid submission: labels or one score column per class, rows maybe shuffled.
fn submission(gt: &Gt, rng: &mut Rng, scores: bool) -> Vec<String> {
    let k = gt.classes.len();
    let mut rows: Vec<String> = gt
        .ids
        .iter()
        .map(|id| {
            if scores {
                let v: Vec<String> = (0..k).map(|_| format!("{:.4}", rng.unit())).collect();
                format!("{id},{}", v.join(","))
            } else {
                format!("{id},{}", gt.classes[rng.below(k)])
            }
        })
        .collect();
    if rng.chance(50) {
        rows.reverse();
    }
    let head = if scores {
        format!("id,{}", gt.classes.join(","))
    } else {
        "id,label".into()
    };
    rows.insert(0, head);
    rows
}

fn corrupt(rows: &mut Vec<String>, gt: &Gt, kind: usize, rng: &mut Rng) -> &'static str {
    let n = rows.len();
    let l = 1 + rng.below(n - 1);
    let id = |r: &str| {
        r.rsplit_once(',')
            .map_or(r.to_string(), |x| x.0.to_string())
    };
    match kind {
        0 => "valid",
        1 => {
            rows.remove(l);
            "missing id"
        }
        2 => {
            let w = rows[l].split(',').count();
            rows.push(format!("nobody{}", ",0.5".repeat(w - 1)));
            "unknown id"
        }
        3 => {
            let dup = rows[l].clone();
            rows.push(dup);
            "duplicate id"
        }
        4 => {
            rows[l] = id(&rows[l]);
            "broken line (a field short)"
        }
        5 => {
            let w = rows[0].split(',').count();
            if w > 2 {
                let i = id(&rows[l]);
                rows[l] = format!("{i},abc");
                "not a number"
            } else {
                rows[l] = format!("{},", id(&rows[l]));
                "empty label"
            }
        }
        6 => {
            if rows[0].split(',').count() > 2 {
                let i = id(&rows[l]);
                rows[l] = format!("{i},nan");
                "nan score"
            } else {
                let i = id(&rows[l]);
                rows[l] = format!("{i},zebra");
                "label not a class (counted as wrong)"
            }
        }
        7 => {
            if rows[0].split(',').count() > 2 {
                let mut h: Vec<&str> = rows[0].split(',').collect();
                h.pop();
                let h = h.join(",");
                rows[0] = h;
                for r in rows.iter_mut().skip(1) {
                    *r = id(r);
                }
                "a class column missing"
            } else {
                rows[0] = format!("id,{}", gt.classes[0]);
                "header names a class"
            }
        }
        8 => {
            rows[0] = rows[0].replacen("id", "ident", 1);
            "renamed id column"
        }
        9 => {
            rows.clear();
            "empty file"
        }
        10 => {
            rows[l].push_str(",\"unclosed");
            "CSV syntax"
        }
        _ => {
            let cut = rng.below(rows.len());
            rows.truncate(cut.max(1));
            "truncated"
        }
    }
}

const SETTINGS: &[&[(&str, &str)]] = &[&[], &[("metric", "f1_macro")], &[("missing", "worst")]];

#[test]
fn check_agrees_with_official_scoring() {
    agreement("classification", 21, 300, (60, 60), |case, rng| {
        let gt = gen_gt(rng);
        let gt_files = gt_files(&gt, rng);
        let scores = rng.chance(50);
        let mut rows = submission(&gt, rng, scores);
        let kind = if case % 3 == 0 { 0 } else { rng.below(12) };
        let what = corrupt(&mut rows, &gt, kind, rng);
        let mut text = rows.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        let pred: Vec<File> = vec![("pred.csv".into(), text.into_bytes())];
        Case::new(gt_files, pred, SETTINGS[rng.below(SETTINGS.len())], what)
    });
}

#[test]
fn manifest_reveals_no_label() {
    manifest_hides_labels("classification", 7, SETTINGS, |rng| {
        let gt = gen_gt(rng);
        (gt_files(&gt, rng), gt_files(&gt, rng))
    });
}

#[test]
fn manifest_content() {
    let gt: Vec<File> = vec![("gt.csv".into(), b"id,label\nb,1\na,01\nc,0\n".to_vec())];
    let m: serde_json::Value = serde_json::from_str(&manifest("classification", &gt, &[])).unwrap();
    assert_eq!(m["protocol"], "classification");
    assert_eq!(
        m["expects"],
        serde_json::json!({"gt_file": "gt.csv", "header": ["id", "label"], "id_index": 0,
            "ids": ["b", "a", "c"], "classes": ["0", "1"]})
    );
}
