//! Pre-flight check of `kws` (docs/specs/preflight.md), both families: the manifest reveals no relevant item,
//! box or grade, and `check` agrees with official scoring on generated submissions, valid and broken.

mod preflight_common;
use preflight_common::{agreement, manifest, Case, File, Rng};

fn qids(rng: &mut Rng) -> Vec<String> {
    let n = 1 + rng.below(5);
    (0..n).map(|i| format!("q{}{}", i, rng.below(3))).collect()
}

// ---- TREC ----

/// Qrels: every query with 1–5 judged documents of random grade (the order of first appearance is the qids'),
/// each judged once (a repeated judgement stops trec_eval: the manifest refuses such a ground truth).
fn qrels(q: &[String], rng: &mut Rng) -> File {
    let mut s = String::new();
    for qid in q {
        let mut judged = Vec::new();
        for _ in 0..1 + rng.below(5) {
            let d = rng.below(12);
            if !judged.contains(&d) {
                judged.push(d);
                s.push_str(&format!("{qid} 0 d{d} {}\n", rng.below(3)));
            }
        }
    }
    ("ref/test.qrels".into(), s.into_bytes())
}

fn run_lines(q: &[String], rng: &mut Rng) -> Vec<String> {
    let mut lines = Vec::new();
    for qid in q {
        let n = 3 + rng.below(6);
        for (rank, d) in (0..12).filter(|_| rng.chance(60)).take(n).enumerate() {
            lines.push(format!(
                "{qid} Q0 d{d} {} {:.4} sys",
                rank + 1,
                10.0 - rank as f64
            ));
        }
    }
    lines
}

fn corrupt_trec(lines: &mut Vec<String>, kind: usize, rng: &mut Rng) -> &'static str {
    let n = lines.len();
    let l = rng.below(n.max(1));
    match kind {
        1 => {
            let q = lines
                .get(l)
                .map(|x| x.split(' ').next().unwrap_or("").to_string())
                .unwrap_or_default();
            lines.retain(|x| !x.starts_with(&format!("{q} ")));
            "missing query"
        }
        2 => {
            lines.push("zz9 Q0 d1 1 1.0 sys".into());
            "unknown query"
        }
        3 => {
            if n > 0 {
                let d = lines[l].clone();
                lines.push(d);
            }
            "duplicate docno"
        }
        4 => {
            if n > 0 {
                lines[l] = lines[l].split(' ').take(4).collect::<Vec<_>>().join(" ");
            }
            "broken line (4 fields)"
        }
        5 => {
            if n > 0 {
                let f: Vec<&str> = lines[l].split(' ').collect();
                lines[l] = format!("{} {} {} {} abc {}", f[0], f[1], f[2], f[3], f[5]);
            }
            "sim not a number"
        }
        6 => {
            lines.clear();
            "empty file"
        }
        7 => {
            for x in lines.iter_mut() {
                *x = format!("other{}", &x[1..]);
            }
            "no common query"
        }
        8 => {
            if n > 0 {
                lines[l].push_str(" extra");
            }
            "extra field"
        }
        9 => {
            if n > 0 {
                let f: Vec<&str> = lines[l].split(' ').collect();
                lines[l] = format!("{} {} {} {} nan {}", f[0], f[1], f[2], f[3], f[5]);
            }
            "nan sim"
        }
        10 => {
            lines.insert(l.min(n), String::new());
            "blank line"
        }
        _ => "valid",
    }
}

// ---- ICFHR'14 XML ----

fn word(rng: &mut Rng, doc: usize) -> String {
    format!(
        "<word document=\"p{doc}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
        10 * rng.below(30),
        10 * rng.below(30),
        20 + rng.below(40),
        20 + rng.below(20)
    )
}

fn xml_gt(q: &[String], rng: &mut Rng) -> File {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<GroundTruthRelevanceJudgements>\n",
    );
    for qid in q {
        s.push_str(&format!("  <GTRel queryid=\"{qid}\">\n"));
        for _ in 0..1 + rng.below(4) {
            let doc = rng.below(3);
            let w = word(rng, doc);
            s.push_str(&format!("    {w} Relevance=\"1\" />\n"));
        }
        s.push_str("  </GTRel>\n");
    }
    s.push_str("</GroundTruthRelevanceJudgements>\n");
    ("ref/gt.xml".into(), s.into_bytes())
}

/// Results: one block per query (list of lines, first and last the block's tags).
fn xml_blocks(q: &[String], rng: &mut Rng) -> Vec<Vec<String>> {
    q.iter()
        .map(|qid| {
            let mut b = vec![format!("  <Rel queryid=\"{qid}\">")];
            for _ in 0..10 + rng.below(4) {
                let doc = rng.below(3);
                let w = word(rng, doc);
                b.push(format!("    {w} />"));
            }
            b.push("  </Rel>".into());
            b
        })
        .collect()
}

fn corrupt_xml(blocks: &mut Vec<Vec<String>>, kind: usize, rng: &mut Rng) -> &'static str {
    let b = rng.below(blocks.len());
    match kind {
        1 => {
            blocks.remove(b);
            "missing query"
        }
        2 => {
            let mut extra = blocks[b].clone();
            extra[0] = "  <Rel queryid=\"zz9\">".into();
            blocks.push(extra);
            "unknown query"
        }
        3 => {
            blocks[b].truncate(6);
            blocks[b].push("  </Rel>".into());
            "short list"
        }
        4 => {
            let dup = blocks[b].clone();
            blocks.push(dup);
            "duplicate query block"
        }
        5 => {
            blocks[b][2] = "    <word document=\"p1\" x=\"1\" y=\"2\" />".into();
            "missing attributes"
        }
        6 => {
            blocks[b].pop();
            "unclosed block"
        }
        7 => {
            blocks[b][3] = blocks[b][3].replace("x=\"", "x=\"-abc");
            "bad coordinate"
        }
        8 => {
            let w = blocks[b][1].clone();
            blocks[b][1] = blocks[b][2].clone();
            blocks[b][2] = w;
            blocks[b].insert(1, String::new());
            "blank line inside a block"
        }
        9 => {
            for bl in blocks.iter_mut() {
                bl[0] = bl[0].replace('"', "'");
            }
            "single quotes"
        }
        _ => "valid",
    }
}

fn xml_results(blocks: &[Vec<String>], one_line: bool) -> Vec<u8> {
    let mut lines = vec![
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>".to_string(),
        "<RelevanceListings>".to_string(),
    ];
    for b in blocks {
        lines.extend(b.iter().cloned());
    }
    lines.push("</RelevanceListings>".into());
    let mut s = lines.join(if one_line { "" } else { "\n" });
    s.push('\n');
    s.into_bytes()
}

/// Byte-level corruptions shared by both families: a truncated file, invalid UTF-8, the other family's file.
fn corrupt_bytes(bytes: &mut Vec<u8>, kind: usize, rng: &mut Rng) -> Option<&'static str> {
    match kind {
        20 => {
            let cut = rng.below(bytes.len().max(1));
            bytes.truncate(cut);
            Some("truncated file")
        }
        21 => {
            let at = bytes.iter().position(|b| *b == b'\n').unwrap_or(0);
            bytes.splice(at..at, b" \xff\xfe".iter().copied());
            Some("invalid UTF-8")
        }
        22 => {
            *bytes = b"hello, this is not a result file\n".to_vec();
            Some("not a results file")
        }
        _ => None,
    }
}

const TREC_SETTINGS: &[&[(&str, &str)]] = &[
    &[],
    &[("complete", "true")],
    &[("trec_version", "10.0")],
    &[("depth", "3")],
];
const XML_SETTINGS: &[&[(&str, &str)]] = &[
    &[],
    &[("k", "5")],
    &[("complete", "true")],
    &[("dedupe", "true")],
];

#[test]
fn check_agrees_with_official_scoring() {
    agreement("kws", 14, 400, (80, 80), |case, rng| {
        let q = qids(rng);
        let kind = if case % 4 == 0 { 0 } else { rng.below(24) };
        let trec = case % 2 == 0;
        let (gt, mut bytes, what, set) = if trec {
            let gt = qrels(&q, rng);
            let mut lines = run_lines(&q, rng);
            let what = corrupt_trec(&mut lines, kind, rng);
            let mut s = lines.join("\n");
            s.push('\n');
            (gt, s.into_bytes(), what, TREC_SETTINGS[rng.below(4)])
        } else {
            let gt = xml_gt(&q, rng);
            let mut blocks = xml_blocks(&q, rng);
            let what = corrupt_xml(&mut blocks, kind, rng);
            (
                gt,
                xml_results(&blocks, kind == 11),
                what,
                XML_SETTINGS[rng.below(4)],
            )
        };
        let what = corrupt_bytes(&mut bytes, kind, rng).unwrap_or(if kind == 11 && !trec {
            "one-line XML"
        } else {
            what
        });
        let mut pred: Vec<File> = vec![(
            if trec { "res/sys.run" } else { "res/sys.xml" }.into(),
            bytes,
        )];
        if kind == 23 {
            // The other family's results next to this one's.
            pred.push(if trec {
                (
                    "res/other.xml".into(),
                    xml_results(&xml_blocks(&q, rng), false),
                )
            } else {
                ("res/other.run".into(), b"q0 Q0 d1 1 1.0 sys\n".to_vec())
            });
        }
        let what = format!("{}, {what}", if trec { "trec" } else { "xml" });
        Case::new(vec![gt], pred, set, what)
    });
}

#[test]
fn manifest_reveals_no_judgement() {
    let mut rng = Rng::new(3);
    for _ in 0..50 {
        let q = qids(&mut rng);
        let (a, b) = (qrels(&q, &mut rng), qrels(&q, &mut rng));
        for set in TREC_SETTINGS {
            assert_eq!(
                manifest("kws", std::slice::from_ref(&a), set),
                manifest("kws", std::slice::from_ref(&b), set)
            );
        }
        let (a, b) = (xml_gt(&q, &mut rng), xml_gt(&q, &mut rng));
        for set in XML_SETTINGS {
            assert_eq!(
                manifest("kws", std::slice::from_ref(&a), set),
                manifest("kws", std::slice::from_ref(&b), set)
            );
        }
    }
}

#[test]
fn manifest_content() {
    let gt: File = (
        "q.qrels".into(),
        b"b7 0 d1 0\na2 0 d2 1\nb7 0 d3 2\n".to_vec(),
    );
    let m: serde_json::Value = serde_json::from_str(&manifest("kws", &[gt], &[])).unwrap();
    assert_eq!(
        m["expects"],
        serde_json::json!({"format": "trec", "queries": ["b7", "a2"]})
    );
    assert_eq!(m["options"]["trec_version"], "9.0.8");
}
