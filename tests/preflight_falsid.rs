//! Pre-flight check of `falsid` (docs/specs/preflight.md): the manifest reveals no label, and `check` agrees with
//! official scoring on generated submissions (label files and distance matrices), valid and broken.

mod preflight_common;
use preflight_common::{agreement, manifest, manifest_hides_labels, Case, File, Rng};

const SUBSETS: &[&str] = &["Pizan", "Tasso", "Yaqut"];

/// Sample ids per subset (Yaqut sometimes empty).
fn gen_ids(rng: &mut Rng) -> Vec<Vec<String>> {
    SUBSETS
        .iter()
        .map(|s| {
            let n = if *s == "Yaqut" && rng.chance(15) {
                0
            } else {
                2 + rng.below(6)
            };
            (0..n)
                .map(|i| format!("{}{i:02}", &s[..1].to_lowercase()))
                .collect()
        })
        .collect()
}

/// GT label files: one merged L3 file, or one L2 file per subset; labels (and writers) random.
fn gt_files(ids: &[Vec<String>], writer: bool, merged: bool, rng: &mut Rng) -> Vec<File> {
    let head = if writer { ",writer" } else { "" };
    let row = |rng: &mut Rng| {
        let w = if writer {
            format!(",w{}", rng.below(3))
        } else {
            String::new()
        };
        (rng.below(2), w)
    };
    if merged {
        let mut s = format!("id,subset,label{head}\n");
        for (k, list) in ids.iter().enumerate() {
            for id in list {
                let (l, w) = row(rng);
                s.push_str(&format!("{id},{},{l}{w}\n", SUBSETS[k]));
            }
        }
        return vec![("ref/gt.csv".into(), s.into_bytes())];
    }
    ids.iter()
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .map(|(k, list)| {
            let mut s = format!("id,label{head}\n");
            for id in list {
                let (l, w) = row(rng);
                s.push_str(&format!("{id},{l}{w}\n"));
            }
            (
                format!("ref/gt_{}.csv", SUBSETS[k].to_lowercase()),
                s.into_bytes(),
            )
        })
        .collect()
}

/// A submission: merged predicted labels (lines) and one distance matrix per subset (rows of cells).
struct Sub {
    labels: Vec<String>,
    matrices: Vec<(String, Vec<Vec<String>>)>,
}

fn submission(ids: &[Vec<String>], rng: &mut Rng) -> Sub {
    let mut labels = vec!["id,subset,label".to_string()];
    let mut matrices = Vec::new();
    for (k, list) in ids.iter().enumerate() {
        for id in list {
            labels.push(format!("{id},{},{}", SUBSETS[k], rng.below(2)));
        }
        if list.is_empty() || rng.chance(20) {
            continue;
        }
        let with_ids = rng.chance(50);
        let mut rows = Vec::new();
        if with_ids {
            rows.push(
                std::iter::once(String::new())
                    .chain(list.iter().cloned())
                    .collect(),
            );
        }
        for (i, id) in list.iter().enumerate() {
            let mut r: Vec<String> = if with_ids { vec![id.clone()] } else { vec![] };
            for j in 0..list.len() {
                r.push(if i == j {
                    "0".into()
                } else {
                    format!("{:.3}", rng.unit())
                });
            }
            rows.push(r);
        }
        matrices.push((format!("res/dist_{}.csv", SUBSETS[k].to_lowercase()), rows));
    }
    Sub { labels, matrices }
}

fn corrupt(sub: &mut Sub, kind: usize, rng: &mut Rng) -> &'static str {
    let n = sub.labels.len();
    let l = 1 + rng.below((n - 1).max(1));
    let has_m = !sub.matrices.is_empty();
    let m = rng.below(sub.matrices.len().max(1));
    match kind {
        1 if n > 1 => {
            sub.labels.remove(l);
            "missing id"
        }
        2 => {
            sub.labels.push("zz99,Pizan,1".into());
            "unknown id"
        }
        3 if n > 1 => {
            let d = sub.labels[l].clone();
            sub.labels.push(d);
            "duplicate id"
        }
        4 if n > 1 => {
            sub.labels[l] = sub.labels[l].split(',').next().unwrap_or("").to_string();
            "broken line"
        }
        5 if n > 1 => {
            sub.labels[l] = sub.labels[l]
                .replace(",0", ",maybe")
                .replace(",1", ",maybe");
            "bad label"
        }
        6 if has_m => {
            let rows = &mut sub.matrices[m].1;
            rows.pop();
            "matrix missing a row"
        }
        7 if has_m => {
            let rows = &mut sub.matrices[m].1;
            let last = rows.len() - 1;
            rows[last][1] = "nan".into();
            "NaN distance"
        }
        8 if has_m => {
            let rows = &mut sub.matrices[m].1;
            let last = rows.len() - 1;
            rows[last][1] = "far".into();
            "distance not a number"
        }
        9 if has_m => {
            sub.matrices[m].0 = "res/distances.csv".into();
            "matrix name without a subset"
        }
        10 if has_m => {
            let dup = sub.matrices[m].clone();
            sub.matrices
                .push(("res/dist2_".to_string() + &dup.0[9..], dup.1));
            "two matrices for one subset"
        }
        11 => {
            sub.labels.clear();
            "no label file"
        }
        12 if has_m => {
            let rows = &mut sub.matrices[m].1;
            if rows[0][0].is_empty() {
                rows[0][1] = "zz99".into();
            } else {
                for r in rows.iter_mut() {
                    r.pop();
                }
            }
            "matrix ids/size differ"
        }
        _ => "valid",
    }
}

fn to_files(sub: &Sub, kind: usize, rng: &mut Rng) -> Vec<File> {
    let mut files = Vec::new();
    if !sub.labels.is_empty() {
        files.push((
            "res/pred.csv".to_string(),
            (sub.labels.join("\n") + "\n").into_bytes(),
        ));
    }
    for (p, rows) in &sub.matrices {
        let text: Vec<String> = rows.iter().map(|r| r.join(",")).collect();
        files.push((p.clone(), (text.join("\n") + "\n").into_bytes()));
    }
    if !files.is_empty() {
        let f = rng.below(files.len());
        let b = &mut files[f].1;
        match kind {
            13 => {
                let cut = rng.below(b.len());
                b.truncate(cut);
            }
            14 => b.extend_from_slice(b"\xff\xfe\x00junk\n"),
            _ => {}
        }
    }
    files
}

const SETTINGS: &[&[(&str, &str)]] = &[
    &[],
    &[("nonfinite", "error")],
    &[("duplicate_ids", "last_wins")],
    &[("topk_class", "writer")],
    &[("id_match", "stem"), ("missing_prediction", "exclude")],
];

#[test]
fn check_agrees_with_official_scoring() {
    agreement("falsid", 2023, 300, (60, 60), |case, rng| {
        let ids = gen_ids(rng);
        let writer = rng.chance(50);
        let gt = gt_files(&ids, writer, rng.chance(50), rng);
        let mut sub = submission(&ids, rng);
        let kind = if case % 4 == 0 { 0 } else { rng.below(15) };
        let what = corrupt(&mut sub, kind, rng);
        let pred = to_files(&sub, kind, rng);
        let what = format!("{what}, kind {kind}, writer {writer}");
        Case::new(gt, pred, SETTINGS[rng.below(SETTINGS.len())], what)
    });
}

#[test]
fn manifest_reveals_no_label() {
    manifest_hides_labels("falsid", 5, SETTINGS, |rng| {
        let ids = gen_ids(rng);
        let (writer, merged) = (rng.chance(50), rng.chance(50));
        let a = gt_files(&ids, writer, merged, rng);
        (a, gt_files(&ids, writer, merged, rng))
    });
}

#[test]
fn manifest_content() {
    let gt: Vec<File> = vec![("gt_tasso.csv".into(), b"id,label\nt2,1\nt1,0\n".to_vec())];
    let m: serde_json::Value = serde_json::from_str(&manifest("falsid", &gt, &[])).unwrap();
    assert_eq!(
        m["expects"]["subsets"][1],
        serde_json::json!({"name": "Tasso", "ids": ["t2", "t1"], "matrix": "2×2"})
    );
    assert_eq!(m["expects"]["writer"], false);
}
