//! Pre-flight check of aij2022 (docs/specs/preflight.md): the manifest reveals no answer, and `check` agrees
//! with official scoring against the real ground truth on generated submissions (valid ones and ones broken by
//! format or completeness problems), with the same located errors.

mod preflight_common;
use preflight_common::{agree, manifest, File, Rng};

const TASKS: [&str; 5] = ["textqa", "mathqa", "vqa", "captioning", "text_recognition"];
const WORDS: [&str; 8] = [
    "кошка",
    "на",
    "велосипеде",
    "красный",
    "dog",
    "улица",
    "две",
    "птицы",
];

/// Per task: its name and ids with their answer kind (0 text, 1 number, 2 choice).
type Gt = Vec<(&'static str, Vec<(String, u8)>)>;

fn gen_gt(rng: &mut Rng) -> Gt {
    let mut tasks: Vec<&str> = TASKS.iter().copied().filter(|_| rng.chance(50)).collect();
    if tasks.is_empty() {
        tasks.push(TASKS[rng.below(TASKS.len())]);
    }
    tasks
        .into_iter()
        .map(|t| {
            let n = 1 + rng.below(6);
            let ids = (0..n)
                .map(|i| {
                    (
                        if rng.chance(50) {
                            format!("{i}")
                        } else {
                            format!("q{}", rng.below(1000) * 10 + i)
                        },
                        rng.below(3) as u8,
                    )
                })
                .collect();
            (t, ids)
        })
        .collect()
}

/// Options of `kind`, from a fresh draw (two calls give different answers of the same kind).
fn answers(kind: u8, rng: &mut Rng) -> Vec<String> {
    let n = 1 + rng.below(3);
    (0..n)
        .map(|_| match kind {
            1 => format!(
                "{}{}",
                if rng.chance(30) { "-" } else { "" },
                rng.below(100)
            ),
            2 => ["a", "B)", "c.", "d", "e"][rng.below(5)].to_string(),
            _ => format!("{} {}", WORDS[rng.below(WORDS.len())], rng.below(1_000_000)),
        })
        .collect()
}

fn gt_files(gt: &Gt, rng: &mut Rng) -> Vec<File> {
    gt.iter()
        .map(|(t, ids)| {
            let mut doc = serde_json::Map::new();
            for (id, k) in ids {
                doc.insert(
                    id.clone(),
                    serde_json::json!([{"type": "text", "content": answers(*k, rng)}]),
                );
            }
            (
                format!("gt/{t}_gt.json"),
                serde_json::to_vec_pretty(&doc).unwrap(),
            )
        })
        .collect()
}

/// A submission of `gt`, broken in way `kind` (0: valid); returns its files and the name of the break.
fn submission(gt: &Gt, kind: usize, rng: &mut Rng) -> (Vec<File>, &'static str) {
    let which = rng.below(gt.len());
    let mut files = Vec::new();
    let mut what = "valid";
    for (ti, (t, ids)) in gt.iter().enumerate() {
        let mut entries: Vec<String> = ids
            .iter()
            .map(|(id, _)| {
                format!(
                    "{:?}: [{{\"type\": \"text\", \"content\": \"{} {}\"}}]",
                    id,
                    WORDS[rng.below(8)],
                    rng.below(9)
                )
            })
            .collect();
        let broken = ti == which;
        let at = rng.below(entries.len());
        if broken {
            what = match kind {
                1 => {
                    entries.remove(at);
                    "missing id"
                }
                2 => {
                    entries.push("\"extra\": [{\"type\": \"text\", \"content\": \"x\"}]".into());
                    "extra id"
                }
                3 => {
                    entries[at] =
                        format!("{:?}: [{{\"type\": \"text\", \"content\": 5}}]", ids[at].0);
                    "non-string content"
                }
                4 => {
                    entries[0] = format!("{:?}: []", ids[0].0);
                    "empty element list first"
                }
                5 => {
                    entries[at] = format!(
                        "{:?}: [{{\"type\": \"text\", \"content\": NaN}}]",
                        ids[at].0
                    );
                    "NaN content"
                }
                6 => {
                    entries[at] = format!("{:?}: [{{\"content\": \"x\"}}]", ids[at].0);
                    "element without type"
                }
                7 => {
                    entries.push(entries[at].clone());
                    "duplicate key"
                }
                8 => {
                    entries[at] = format!(
                        "{:?}: [{{\"type\": \"text\", \"content\": \"\\ud800 x\"}}]",
                        ids[at].0
                    );
                    "lone surrogate"
                }
                9 => {
                    entries[at] = format!(
                        "{:?}: [{{\"type\": \"image\", \"content\": \"x.jpg\"}}]",
                        ids[at].0
                    );
                    "image only"
                }
                _ => "valid",
            };
        }
        let mut text = format!("{{\n{}\n}}", entries.join(",\n")).into_bytes();
        if broken && kind == 10 {
            text.truncate(text.len() / 2);
            what = "truncated file";
        }
        if broken && kind == 11 {
            what = "task file missing";
            continue;
        }
        if broken && kind == 12 {
            text = b"[1, 2]".to_vec();
            what = "not an object";
        }
        files.push((format!("res/{t}_pred.json"), text));
    }
    (files, what)
}

#[test]
fn check_agrees_with_official_scoring() {
    let mut rng = Rng::new(2022);
    let (mut ready, mut not_ready) = (0, 0);
    let mut kinds = std::collections::BTreeMap::new();
    for case in 0..390 {
        let gt = gen_gt(&mut rng);
        let gt_f = gt_files(&gt, &mut rng);
        let kind = case % 13;
        let (pred, what) = submission(&gt, kind, &mut rng);
        let ok = agree(
            "aij2022",
            &gt_f,
            &pred,
            &[],
            &format!("case {case} ({what})"),
        );
        let e = kinds.entry(what).or_insert((0, 0));
        if ok {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
        if ok {
            ready += 1;
        } else {
            not_ready += 1;
        }
    }
    eprintln!("aij2022 agreement: 390 cases, {ready} ready, {not_ready} not ready; by kind (ready, not): {kinds:?}");
    assert!(ready > 50 && not_ready > 50);
}

#[test]
fn manifest_reveals_no_answer() {
    let mut rng = Rng::new(7);
    let mut differing = 0;
    for _ in 0..50 {
        let gt = gen_gt(&mut rng);
        let (a, b) = (gt_files(&gt, &mut rng), gt_files(&gt, &mut rng));
        differing += usize::from(a != b);
        let (ma, mb) = (manifest("aij2022", &a, &[]), manifest("aij2022", &b, &[]));
        assert_eq!(ma, mb, "two GTs differing only in answers");
        for w in WORDS {
            assert!(!ma.contains(w), "answer word {w} in {ma}");
        }
    }
    assert!(
        differing >= 45,
        "{differing} of 50 pairs differ in their answers"
    );
}

#[test]
fn manifest_content() {
    let gt = vec![(
        "gt/mathqa_gt.json".to_string(),
        r#"{"b": [{"type": "text", "content": ["5", "-0,5"]}], "a": [{"type": "text", "content": ["B)", "c"]}], "c": [{"type": "text", "content": ["пять"]}]}"#.as_bytes().to_vec(),
    )];
    let m: serde_json::Value = serde_json::from_str(&manifest("aij2022", &gt, &[])).unwrap();
    assert_eq!(
        m["expects"],
        serde_json::json!({"tasks": [{"task": "mathqa", "ids": ["b", "a", "c"], "kinds": ["number", "choice", "text"]}]})
    );
}
