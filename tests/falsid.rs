//! falsid: the worked examples of docs/specs/falsid.md section 7 (tests/data/falsid, copies of the shared
//! fixtures) and the edge cases of section 6.

mod common;

use common::{bytes_input, cli, codes, has, input, score_inputs};
use dropscore::input::Role;
use dropscore::{Mode, Report};

fn run(gt: &[&str], pred: &[&str], mode: Mode, set: &[(&str, &str)]) -> Report {
    let mut inputs: Vec<_> = gt.iter().map(|g| input(g, Some(Role::Gt))).collect();
    inputs.extend(pred.iter().map(|p| input(p, Some(Role::Pred))));
    score_inputs("falsid", inputs, mode, set)
}

fn mem(gt: &[(&str, &str)], pred: &[(&str, &str)], set: &[(&str, &str)]) -> Report {
    let mut inputs: Vec<_> = gt
        .iter()
        .map(|(p, t)| bytes_input(p, Some(Role::Gt), t.as_bytes().to_vec()))
        .collect();
    inputs.extend(
        pred.iter()
            .map(|(p, t)| bytes_input(p, Some(Role::Pred), t.as_bytes().to_vec())),
    );
    score_inputs("falsid", inputs, Mode::Official, set)
}

fn group(r: &Report, id: &str, k: &str) -> Option<f64> {
    r.groups
        .iter()
        .find(|g| g.id == id)
        .and_then(|g| g.scores.get(k))
}

const GT: &str = "falsid/worked/gt_merged.csv";
const PER: [&str; 3] = [
    "falsid/worked/pred_per_subset/pizan.csv",
    "falsid/worked/pred_per_subset/tasso.csv",
    "falsid/worked/pred_per_subset/yaqut.csv",
];

fn check_worked(r: &Report) {
    assert!(!r.has_errors(), "{:?}", codes(r));
    assert_eq!(r.scores.get("accuracy"), Some((0.8 + 0.75 + 0.5) / 3.0));
    assert_eq!(
        format!("{:.6}", r.scores.get("accuracy").unwrap()),
        "0.683333"
    );
    assert_eq!(r.scores.get("uar"), Some((0.5 + 0.75 + 0.5) / 3.0));
    assert_eq!(format!("{:.6}", r.scores.get("uar").unwrap()), "0.583333");
    assert_eq!(
        r.scores.get("pooled_macro_recall"),
        Some((10.0 / 13.0 + 4.0 / 7.0) / 2.0)
    );
    assert_eq!(
        format!("{:.6}", r.scores.get("pooled_macro_recall").unwrap()),
        "0.670330"
    );
    assert_eq!(r.scores.get("pooled_accuracy"), Some(0.7));
    for (s, a, b) in [
        ("Pizan", 0.8, 0.5),
        ("Tasso", 0.75, 0.75),
        ("Yaqut", 0.5, 0.5),
    ] {
        assert_eq!(group(r, s, "accuracy"), Some(a), "{s}");
        assert_eq!(group(r, s, "uar"), Some(b), "{s}");
    }
    assert_eq!(r.items.len(), 20);
    assert_eq!(
        r.items
            .iter()
            .filter(|i| i.scores.get("correct") == Some(1.0))
            .count(),
        14
    );
}

#[test]
fn worked_merged_and_per_subset() {
    let a = run(
        &[GT],
        &["falsid/worked/pred_merged.csv"],
        Mode::Official,
        &[],
    );
    check_worked(&a);
    let b = run(&[GT], &PER, Mode::Official, &[]);
    check_worked(&b);
    assert_eq!(a.scores, b.scores);
    assert_eq!(a.display.headline[0].id, "accuracy");
    let c = run(&[GT], &PER, Mode::Corrected, &[]);
    check_worked(&c);
    assert_eq!(c.display.headline[0].id, "uar");
    // confusion, positive = imitation
    assert_eq!(group(&a, "Tasso", "tp"), Some(1.0));
    assert_eq!(group(&a, "Tasso", "fn"), Some(1.0));
    assert_eq!(group(&a, "Yaqut", "fp"), Some(3.0));
    let p = run(
        &[GT],
        &PER,
        Mode::Official,
        &[("confusion_convention", "page")],
    );
    assert_eq!(group(&p, "Yaqut", "fn"), Some(3.0));
    assert_eq!(p.scores, a.scores);
}

#[test]
fn worked_topk() {
    let gt = "falsid/topk/gt_tasso.csv";
    let m = "falsid/topk/dist_tasso.csv";
    let r = run(&[gt], &[m], Mode::Official, &[]);
    assert_eq!(r.scores.get("top1"), Some(0.5));
    assert_eq!(r.scores.get("top3"), Some(1.0));
    assert_eq!(r.scores.get("top5"), Some(1.0));
    assert!(has(&r, "falsid.input.no_labels"));
    assert!(has(&r, "falsid.topk.capped"));
    let p = run(&[gt], &[m], Mode::Official, &[("topk_ties", "pessimistic")]);
    assert_eq!(p.scores.get("top1"), Some(0.25));
}

const D: &str = "0,1,2,3\n1,0,1,2\n2,1,0,5\n3,2,5,0\n";
const G4: &str = "id,label\nq0,0\nq1,0\nq2,1\nq3,1\n";

#[test]
fn matrix_layouts_agree() {
    let layouts = [
        ("dist_tasso.csv", D.to_string()),
        ("dist_tasso.tsv", D.replace(',', "\t")),
        ("dist_tasso.txt", D.replace(',', "   ")),
        (
            "dist_tasso.csv",
            format!(
                ",q0,q1,q2,q3\n{}",
                D.lines()
                    .enumerate()
                    .map(|(i, l)| format!("q{i},{l}\n"))
                    .collect::<String>()
            ),
        ),
        (
            "dist_tasso.csv",
            D.lines()
                .enumerate()
                .map(|(i, l)| format!("q{i},{l}\n"))
                .collect::<String>(),
        ),
        (
            "dist_tasso.csv",
            D.lines()
                .enumerate()
                .map(|(i, l)| format!("q{i};7;{}\n", l.replace(',', ";")))
                .collect::<String>(),
        ),
        // D1 with rows in another order
        (
            "dist_tasso.csv",
            ",q0,q1,q2,q3\nq2,2,1,0,5\nq0,0,1,2,3\nq3,3,2,5,0\nq1,1,0,1,2\n".to_string(),
        ),
        ("dist_tasso.csv", D.replace('\n', "\r\n")),
    ];
    for (name, text) in layouts {
        let r = mem(&[("gt_tasso.csv", G4)], &[(name, &text)], &[]);
        assert_eq!(r.scores.get("top1"), Some(0.5), "{text}: {:?}", codes(&r));
        assert!(
            !codes(&r)
                .iter()
                .any(|c| c.starts_with("falsid.matrix") && c != "falsid.matrix.row_order"),
            "{text}: {:?}",
            codes(&r)
        );
    }
}

fn npy(shape: usize, descr: &str, vals: &[f64], fortran: bool) -> Vec<u8> {
    let mut h = format!(
        "{{'descr': '{descr}', 'fortran_order': {}, 'shape': ({shape}, {shape}), }}",
        if fortran { "True" } else { "False" }
    );
    while (10 + h.len() + 1) % 64 != 0 {
        h.push(' ');
    }
    h.push('\n');
    let mut b = b"\x93NUMPY\x01\x00".to_vec();
    b.extend((h.len() as u16).to_le_bytes());
    b.extend(h.as_bytes());
    for v in vals {
        match descr {
            "<f8" => b.extend(v.to_le_bytes()),
            ">f8" => b.extend(v.to_be_bytes()),
            "<f4" => b.extend((*v as f32).to_le_bytes()),
            _ => b.extend((*v as f32).to_be_bytes()),
        }
    }
    b
}

#[test]
fn npy_layouts() {
    let vals: Vec<f64> = D
        .split([',', '\n'])
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    let mut t = vals.clone();
    for i in 0..4 {
        for j in 0..4 {
            t[j * 4 + i] = vals[i * 4 + j];
        }
    }
    for (descr, v, f) in [
        ("<f8", &vals, false),
        (">f8", &vals, false),
        ("<f4", &vals, false),
        (">f4", &vals, false),
        ("<f8", &t, true),
    ] {
        let bytes = npy(4, descr, v, f);
        let files = vec![
            bytes_input("gt_tasso.csv", Some(Role::Gt), G4.as_bytes().to_vec()),
            bytes_input("tasso.npy", Some(Role::Pred), bytes),
        ];
        let r = score_inputs("falsid", files, Mode::Official, &[]);
        assert_eq!(
            r.scores.get("top1"),
            Some(0.5),
            "{descr} {f}: {:?}",
            codes(&r)
        );
    }
}

#[test]
fn matrix_errors_are_located() {
    let r = mem(
        &[("gt_tasso.csv", G4)],
        &[("dist_tasso.csv", "0,1,2,3\n1,0,x,2\n2,1,0\n3,2,5,0\n")],
        &[],
    );
    let num = r
        .diagnostics
        .iter()
        .find(|d| d.code == "falsid.matrix.number")
        .expect("number");
    assert_eq!((num.line, num.column), (Some(2), Some(5)));
    let shape = r
        .diagnostics
        .iter()
        .find(|d| d.code == "falsid.matrix.shape")
        .expect("shape");
    assert_eq!(shape.line, Some(3));
    let r = mem(
        &[("gt_tasso.csv", G4)],
        &[("dist_tasso.csv", "0,1,2\n1,0,1\n2,1,0\n")],
        &[],
    );
    assert!(has(&r, "falsid.matrix.size"));
    let r = mem(
        &[("gt_tasso.csv", G4)],
        &[(
            "dist_tasso.csv",
            ",q0,q1,q9,q3\nq0,0,1,2,3\nq1,1,0,1,2\nq9,2,1,0,5\nq3,3,2,5,0\n",
        )],
        &[],
    );
    assert!(has(&r, "falsid.matrix.ids"));
    let r = mem(
        &[("gt_tasso.csv", G4)],
        &[(
            "dist_tasso.csv",
            "0,1,nan,3\n1,0,1,2\n-2,1,0,5\n3,2,INF,0\n",
        )],
        &[],
    );
    assert!(
        has(&r, "falsid.matrix.nonfinite")
            && has(&r, "falsid.matrix.negative")
            && has(&r, "falsid.matrix.asymmetric")
    );
    assert!(!r.has_errors() || codes(&r).contains(&"falsid.input.no_labels".to_string()));
    let r = mem(
        &[("gt_tasso.csv", G4)],
        &[("dist_tasso.csv", "0,1,nan,3\n1,0,1,2\n2,1,0,5\n3,2,5,0\n")],
        &[("nonfinite", "error")],
    );
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.code == "falsid.matrix.nonfinite" && d.is_error()));
    let r = mem(&[("gt_tasso.csv", G4)], &[("dist.csv", D)], &[]);
    assert!(has(&r, "falsid.input.subset_unknown"));
}

#[test]
fn label_edge_cases() {
    let gt = "id,label\np1,Pizan\np2,not-Pizan\nt1,Tasso\n";
    // missing prediction, unknown id
    let r = mem(
        &[("gt.csv", gt)],
        &[("pred.csv", "id,label\np1,Pizan\nt1,Tasso\nzz,Tasso\n")],
        &[],
    );
    assert!(
        has(&r, "falsid.labels.missing")
            && has(&r, "falsid.labels.unknown_id")
            && has(&r, "falsid.subset.empty")
    );
    assert_eq!(group(&r, "Pizan", "accuracy"), Some(0.5));
    let e = mem(
        &[("gt.csv", gt)],
        &[("pred.csv", "id,label\np1,Pizan\nt1,Tasso\n")],
        &[("missing_prediction", "exclude")],
    );
    assert_eq!(group(&e, "Pizan", "accuracy"), Some(1.0));
    // bad label with a hint, duplicate id, conflict
    let r = mem(
        &[("gt.csv", gt)],
        &[(
            "pred.csv",
            "id,label\np1,Pizzan\np2,Pizan\np2,Pizan\nt1,2\n",
        )],
        &[],
    );
    let bad = r
        .diagnostics
        .iter()
        .find(|d| d.code == "falsid.labels.bad_label")
        .expect("bad label");
    assert_eq!((bad.line, bad.column), (Some(2), Some(4)));
    assert!(bad.hint.as_deref().unwrap().contains("`Pizan`"));
    assert!(has(&r, "falsid.labels.duplicate_id"));
    let r = mem(
        &[("gt.csv", gt)],
        &[("pizan.csv", "p1,0\np2,not-Tasso\n")],
        &[],
    );
    assert!(has(&r, "falsid.labels.subset_conflict"));
    let r = mem(
        &[("gt.csv", gt)],
        &[
            ("pred.csv", "p1,Pizan\np2,not-Pizan\nt1,Tasso\n"),
            ("pizan.csv", "p1,0\n"),
        ],
        &[],
    );
    assert!(has(&r, "falsid.labels.conflicting_sources"));
    // L3, header in another order, case-insensitive labels, stems
    let r = mem(
        &[("gt.csv", gt)],
        &[(
            "pred.csv",
            "label;subset;id\n0;pizan;p1\n1;PIZAN;p2\n0;tasso;t1\n",
        )],
        &[],
    );
    assert_eq!(r.scores.get("accuracy"), Some(1.0), "{:?}", codes(&r));
    let r = mem(
        &[("gt.csv", gt)],
        &[(
            "pred.csv",
            "p1.jpg\tpizan\np2.jpg\tNOT-PIZAN\nt1.png\ttasso\n",
        )],
        &[("label_case_insensitive", "true"), ("id_match", "stem")],
    );
    assert_eq!(r.scores.get("accuracy"), Some(1.0), "{:?}", codes(&r));
    // unknown header names
    let r = mem(
        &[("gt.csv", gt)],
        &[("pred.csv", "a,b\np1,Pizan\np2,not-Pizan\nt1,Tasso\n")],
        &[],
    );
    assert!(has(&r, "falsid.csv.unknown_header"));
    assert_eq!(r.scores.get("accuracy"), Some(1.0));
    // invalid UTF-8 located
    let files = vec![
        bytes_input("gt.csv", Some(Role::Gt), gt.as_bytes().to_vec()),
        bytes_input(
            "pred.csv",
            Some(Role::Pred),
            b"id,label\np1,Piz\xffan\n".to_vec(),
        ),
    ];
    let r = score_inputs("falsid", files, Mode::Official, &[]);
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "falsid.labels.encoding")
        .expect("encoding");
    assert_eq!((d.line, d.column), (Some(2), Some(7)));
    // single-class subset
    let r = mem(
        &[("gt.csv", "t1,Tasso\nt2,Tasso\n")],
        &[("pred.csv", "t1,Tasso\nt2,not-Tasso\n")],
        &[],
    );
    assert!(has(&r, "falsid.subset.single_class"));
    assert_eq!(r.scores.get("uar"), Some(0.5));
}

#[test]
fn garbage_never_panics() {
    for bytes in [
        &b""[..],
        b"\x93NUMPY\x01\x00\xff\xff{",
        b",,,\n;;;\n",
        b"\"a,b\n",
        b"1\n",
        b"a b c d e f\n1 2\n",
    ] {
        for name in ["dist_pizan.csv", "pred.csv", "pizan.npy"] {
            let files = vec![
                bytes_input("gt.csv", Some(Role::Gt), bytes.to_vec()),
                bytes_input(name, Some(Role::Pred), bytes.to_vec()),
            ];
            let _ = score_inputs("falsid", files, Mode::Official, &[]);
        }
    }
}

#[test]
fn topk_by_writer_and_no_match() {
    // Writers: q0,q1 = A; q2 = B; q3 = C (no other item of its writer).
    let gt = "id,label,writer\nq0,0,A\nq1,0,A\nq2,1,B\nq3,1,C\n";
    let r = mem(
        &[("gt_tasso.csv", gt)],
        &[("dist_tasso.csv", D)],
        &[("topk_class", "writer")],
    );
    // q0 -> q1 (A) hit; q1 -> q0 hit; q2, q3: no same-writer item -> misses.
    assert_eq!(r.scores.get("top1"), Some(0.5), "{:?}", codes(&r));
    assert!(has(&r, "falsid.topk.no_match"));
    let r = mem(
        &[("gt_tasso.csv", gt)],
        &[("dist_tasso.csv", D)],
        &[("topk_class", "writer"), ("topk_no_match", "exclude")],
    );
    assert_eq!(r.scores.get("top1"), Some(1.0));
    let r = mem(
        &[("gt_tasso.csv", G4)],
        &[("dist_tasso.csv", D)],
        &[("topk_class", "writer")],
    );
    assert!(has(&r, "falsid.labels.no_writer"));
    assert_eq!(r.scores.get("top1"), None);
}

#[test]
fn text_output_has_four_decimals_and_percentages() {
    let r = run(&[GT], &PER, Mode::Official, &[]);
    let t = dropscore::render::text(&r);
    assert!(t.contains("0.6833  (68.33 %)  <- headline"), "{t}");
    assert!(t.contains("mean per-subset balanced accuracy (UAR)"), "{t}");
    assert!(
        t.lines().any(|l| l.starts_with("Pizan\t0.8000\t0.5000")),
        "{t}"
    );
}

/// The `file:line` and code of each diagnostic the command line prints for `dist_tasso.*`.
fn matrix_lines(args: &[&str]) -> Vec<String> {
    let (_, out, err) = cli::run(args);
    out.lines()
        .chain(err.lines())
        .filter(|l| l.contains("dist_tasso") && l.contains("error ["))
        .map(|l| {
            let (at, rest) = l.split_once(": error ").unwrap_or((l, ""));
            let at = at.rsplit_once(':').map_or(at, |(a, _)| a); // drop the column
            format!("{at} {}", rest.split(']').next().unwrap_or(""))
        })
        .collect()
}

/// Malformed distance matrices, each written with LF and with CRLF line ends (blank lines, quoted ids,
/// a bad number or a ragged row at a known line): pre-flight (`check`) and scoring name the same line, the
/// one the matrix breaks at.
#[test]
fn matrix_lines_right_with_crlf() {
    let dir = std::env::temp_dir().join(format!("dropscore-falsid-crlf-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("ref")).unwrap();
    let ids = ["q0", "q1", "q2", "q3", "q4"];
    let mut gt = String::from("id,label\n");
    for (k, id) in ids.iter().enumerate() {
        gt.push_str(&format!("{id},{}\n", k % 2));
    }
    std::fs::write(dir.join("ref/gt_tasso.csv"), &gt).unwrap();
    let exe_dir = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let manifest = exe_dir(&dir.join("m.json"));
    let gt_dir = exe_dir(&dir.join("ref"));
    let made = matrix_lines(&["manifest", "falsid", "--gt", &gt_dir, "--out", &manifest]);
    assert!(made.is_empty(), "{made:?}");
    let mut cases = 0;
    for case in 0..20u64 {
        for eol in ["\n", "\r\n"] {
            let res = dir.join(format!("res{case}{}", eol.len()));
            std::fs::create_dir_all(&res).unwrap();
            let labels: String = ids.iter().map(|id| format!("{id},0\n")).collect();
            std::fs::write(res.join("tasso.csv"), format!("id,label\n{labels}")).unwrap();
            let (text, bad_line) = broken_matrix(&ids, case, eol);
            std::fs::write(res.join("dist_tasso.csv"), text).unwrap();
            let res = exe_dir(&res);
            let scored = matrix_lines(&["falsid", "--gt", &gt_dir, "--pred", &res]);
            let checked =
                matrix_lines(&["check", "falsid", "--manifest", &manifest, "--pred", &res]);
            let eol_name = if eol.len() == 2 { "CRLF" } else { "LF" };
            assert_eq!(scored, checked, "case {case} ({eol_name})");
            let want = format!("{res}/dist_tasso.csv:{bad_line} ");
            assert!(
                scored.iter().any(|l| l.starts_with(&want)),
                "case {case} ({eol_name}): line {bad_line} expected in {scored:?}"
            );
            cases += 1;
        }
    }
    assert_eq!(cases, 40);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A D1 matrix of `ids` (header row of ids, an id column) with `eol` line ends, blank lines and one broken
/// row chosen by `case` (a bad number, a ragged row, a quoted id spanning two lines), and the broken row's line.
fn broken_matrix(ids: &[&str], case: u64, eol: &str) -> (String, u64) {
    let mut out = format!(",{}{eol}", ids.join(","));
    let mut line = 1;
    let broken_row = (case % ids.len() as u64) as usize;
    let mut bad_line = 0;
    for (r, id) in ids.iter().enumerate() {
        if (case + r as u64).is_multiple_of(3) {
            out.push_str(eol); // a blank line
            line += 1;
        }
        if case % 4 == 3 && r + 1 == broken_row {
            out.push_str(&format!("\"{id}{eol}\",0,1,2,3,4{eol}")); // an id with a line end in it: two lines
            line += 2;
            continue;
        }
        line += 1;
        let mut cells: Vec<String> = (0..ids.len()).map(|c| (r + c).to_string()).collect();
        if r == broken_row {
            bad_line = line;
            match case % 2 {
                0 => cells[(case as usize / 2) % ids.len()] = "x".into(),
                _ => {
                    cells.pop();
                }
            }
        }
        out.push_str(&format!("{id},{}{eol}", cells.join(",")));
    }
    (out, bad_line)
}
