//! Pre-flight check of `regression` (docs/specs/preflight.md): the manifest reveals no label, and `check` agrees
//! with official scoring on generated submissions, valid and broken.

mod preflight_common;
use preflight_common::{agreement, manifest, manifest_hides_labels, Case, File, Rng};

/// A ground truth: ids (GT order, maybe with blank lines and quoted ids).
struct Gt {
    ids: Vec<String>,
    blank_after: Vec<bool>,
}

fn gen_gt(rng: &mut Rng) -> Gt {
    let n = 1 + rng.below(15);
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
    Gt { ids, blank_after }
}

/// The GT file with targets from `rng`.
fn gt_files(gt: &Gt, rng: &mut Rng) -> Vec<File> {
    let mut s = String::from("id,target\n");
    for (i, id) in gt.ids.iter().enumerate() {
        s.push_str(&format!("{id},{:.3}\n", rng.unit() * 100.0));
        if gt.blank_after[i] {
            s.push('\n');
        }
    }
    vec![("gt.csv".into(), s.into_bytes())]
}

/// A valid submission, rows maybe shuffled.
fn submission(gt: &Gt, rng: &mut Rng) -> Vec<String> {
    let mut rows: Vec<String> = gt
        .ids
        .iter()
        .map(|id| format!("{id},{:.3}", rng.unit() * 100.0))
        .collect();
    if rng.chance(50) {
        rows.reverse();
    }
    rows.insert(0, "id,prediction".into());
    rows
}

fn corrupt(rows: &mut Vec<String>, kind: usize, rng: &mut Rng) -> &'static str {
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
            rows.push("nobody,0.5".into());
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
            rows[l] = format!("{},abc", id(&rows[l]));
            "not a number"
        }
        6 => {
            rows[l] = format!("{},inf", id(&rows[l]));
            "infinite prediction"
        }
        7 => {
            rows[l] = format!("{},", id(&rows[l]));
            "empty cell"
        }
        8 => {
            rows[0] = "ident,prediction,extra".into();
            "three header columns"
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

const SETTINGS: &[&[(&str, &str)]] = &[&[], &[("metric", "r2")], &[("delimiter", ",")]];

#[test]
fn check_agrees_with_official_scoring() {
    agreement("regression", 22, 300, (60, 60), |case, rng| {
        let gt = gen_gt(rng);
        let gt_files = gt_files(&gt, rng);
        let mut rows = submission(&gt, rng);
        let kind = if case % 3 == 0 { 0 } else { rng.below(12) };
        let what = corrupt(&mut rows, kind, rng);
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
    manifest_hides_labels("regression", 7, SETTINGS, |rng| {
        let gt = gen_gt(rng);
        (gt_files(&gt, rng), gt_files(&gt, rng))
    });
}

#[test]
fn manifest_content() {
    let gt: Vec<File> = vec![("gt.csv".into(), b"target,id\n1.5,b\n2,a\n".to_vec())];
    let m: serde_json::Value = serde_json::from_str(&manifest("regression", &gt, &[])).unwrap();
    assert_eq!(m["protocol"], "regression");
    assert_eq!(
        m["expects"],
        serde_json::json!({"gt_file": "gt.csv", "header": ["target", "id"], "id_index": 1,
            "ids": ["b", "a"]})
    );
}
