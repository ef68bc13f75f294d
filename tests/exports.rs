//! The command line's `--format csv` and `--format tsv` are safe to open: controls escaped as in the text
//! output, cells a spreadsheet would run as a formula prefixed with `'` (OWASP's CSV-injection guidance), plain
//! numbers (negative ones included) left as numbers; the JSON unchanged.

mod common;
use common::cli;

/// Regression ids that attack a terminal (ESC[2J, an OSC title, a tab that would split a TSV row) and a
/// spreadsheet (=, +, -, @; a leading tab or CR is escaped first: `export_cell_rule`).
const IDS: [&str; 8] = [
    "=cmd|' /C calc'!A0",
    "+SUM(1+1)",
    "@cmd",
    "-1+2",
    "x\ty",
    "a\u{1b}[2Jb",
    "\u{1b}]0;title\u{7}",
    "plain",
];

fn run(format: &str) -> String {
    let dir =
        std::env::temp_dir().join(format!("dropscore-exports-{}-{format}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut gt = String::from("id,target\n");
    let mut pred = String::from("id,prediction\n");
    for (i, id) in IDS.iter().enumerate() {
        gt.push_str(&format!("{},{}\n", quote(id), i));
        // Predictions below and above the targets: the per-item errors include negative numbers.
        pred.push_str(&format!(
            "{},{}\n",
            quote(id),
            i as f64 - 0.5 * (i % 2) as f64 + 0.25
        ));
    }
    std::fs::write(dir.join("gt.csv"), gt).unwrap();
    std::fs::write(dir.join("pred.csv"), pred).unwrap();
    let args = [
        "regression",
        "--gt",
        "gt.csv",
        "--pred",
        "pred.csv",
        "--format",
        format,
    ];
    let (code, out, err) = cli::run_in(&dir, &args);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{err}");
    out
}

fn first_cells(out: &str, sep: char) -> Vec<String> {
    out.lines()
        .skip(1)
        .map(|l| {
            let c = l.split(sep).next().unwrap();
            c.strip_prefix('"')
                .and_then(|c| c.strip_suffix('"'))
                .map_or(c.to_string(), |c| c.replace("\"\"", "\""))
        })
        .collect()
}

fn check(out: &str, sep: char) {
    assert!(
        !out.contains('\u{1b}') && !out.contains('\u{7}'),
        "a raw control: {out:?}"
    );
    assert_eq!(
        out.lines().count(),
        IDS.len() + 1,
        "one line per row: {out:?}"
    );
    let mut ids = first_cells(out, sep);
    ids.sort();
    let mut want = vec![
        "'=cmd|' /C calc'!A0",
        "'+SUM(1+1)",
        "'@cmd",
        "'-1+2",
        "x\\x09y",
        "a\\x1b[2Jb",
        "\\x1b]0;title\\x07",
        "plain",
    ];
    want.sort();
    assert_eq!(ids, want, "{out}");
    // Every other cell is a number or empty, and negative numbers stay numbers (no `'`).
    let cells: Vec<&str> = out
        .lines()
        .skip(1)
        .flat_map(|l| l.split(sep).skip(1))
        .collect();
    assert!(
        cells.iter().any(|c| c.starts_with('-')),
        "some negative error: {out}"
    );
    for c in cells {
        assert!(
            c.is_empty() || c.parse::<f64>().is_ok(),
            "cell {c:?} in {out}"
        );
    }
}

#[test]
fn csv_cells_are_escaped_and_neutralised() {
    check(&run("csv"), ',');
}

#[test]
fn tsv_cells_are_escaped_and_neutralised() {
    check(&run("tsv"), '\t');
}

#[test]
fn json_keeps_the_ids_as_they_are() {
    let out = run("json");
    assert!(out.contains("\"=cmd|' /C calc'!A0\""), "{out}");
    assert!(out.contains("\"a\\u001b[2Jb\""), "{out}");
}

#[test]
fn export_cell_rule() {
    use dropscore::render::export_cell;
    for (cell, want) in [
        ("-0.5", "-0.5"),
        ("-3", "-3"),
        ("1e-05", "1e-05"),
        ("-1.5E+3", "-1.5E+3"),
        ("-.5", "-.5"),
        ("-", "'-"),
        ("-1e", "'-1e"),
        ("+1", "'+1"),
        ("-inf", "'-inf"),
        ("=1", "'=1"),
        ("\r=1", "\\x0d=1"),
        ("\t=1", "\\x09=1"),
        ("a-b", "a-b"),
    ] {
        assert_eq!(export_cell(cell), want, "{cell:?}");
    }
}
