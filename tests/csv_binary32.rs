//! The CLI's `--format csv` / `tsv` write binary32 metrics (kws `icfhr14`, official mode: rusteval computes in
//! f32) in their shortest binary32 form, as the page's CSV does; the JSON report keeps the widened
//! binary64 value (schema 1). Checked on the built-in ICFHR'14 example against the JSON report of the same run.

mod common;
use common::cli::run_in;
use serde_json::Value;

/// The folder the sample's paths are relative to.
const WWW: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/www");

const SAMPLE: [&str; 6] = [
    "kws",
    "--gt",
    "examples/kws/GroundTruthRelevanceJudgementsSample.xml",
    "--pred",
    "examples/kws/WordSpottingResultsSample.xml",
    "-q",
];

/// Number of significant digits of a decimal string (no exponent handling needed for scores in [0, 1]).
fn significant(s: &str) -> usize {
    let mantissa = s.split(['e', 'E']).next().unwrap_or(s);
    mantissa
        .chars()
        .filter(char::is_ascii_digit)
        .collect::<String>()
        .trim_start_matches('0')
        .len()
        .max(1)
}

fn check(format: &str, sep: char, mode: &str, expect_f32: bool) {
    let args = |format| [&SAMPLE[..], &["--mode", mode, "--format", format]].concat();
    let json: Value = serde_json::from_str(&run_in(WWW, &args("json")).1).expect("json report");
    let text = run_in(WWW, &args(format)).1;
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("header").split(sep).collect();
    let items = json["items"].as_array().expect("items");
    let mut cells = 0;
    let mut widened = 0;
    for (line, item) in lines.zip(items) {
        let row: Vec<&str> = line.split(sep).collect();
        assert_eq!(row[0], item["id"].as_str().unwrap(), "{format}: row order");
        for (col, cell) in head.iter().zip(&row) {
            let Some(v) = item["scores"].get(*col).and_then(Value::as_f64) else {
                continue;
            };
            cells += 1;
            let f = v as f32;
            if f64::from(f) != v {
                // not a binary32 value: the JSON form
                assert_eq!(
                    *cell,
                    serde_json::Number::from_f64(v).unwrap().to_string(),
                    "{format} {col}"
                );
                continue;
            }
            if serde_json::Number::from_f64(v).unwrap().to_string().len() > 12 {
                widened += 1;
            }
            if !expect_f32 {
                assert_eq!(
                    *cell,
                    serde_json::Number::from_f64(v).unwrap().to_string(),
                    "{format} {col}"
                );
                continue;
            }
            assert_eq!(
                cell.parse::<f32>().unwrap(),
                f,
                "{format} {col}: {cell} reads back as the binary32 value"
            );
            let n = significant(cell);
            for p in 1..n {
                let shorter = format!("{:.*e}", p - 1, v);
                assert_ne!(
                    shorter.parse::<f32>().unwrap(),
                    f,
                    "{format} {col}: {shorter} is shorter than {cell}"
                );
            }
        }
    }
    assert!(cells >= 6, "{format}: {cells} score cells");
    assert!(
        !expect_f32 || widened > 0,
        "{format}: the example has binary32 values that print differently widened"
    );
}

#[test]
fn official_icfhr14_csv_and_tsv_write_shortest_binary32() {
    check("csv", ',', "official", true);
    check("tsv", '\t', "official", true);
}

#[test]
fn corrected_mode_keeps_binary64_form() {
    check("csv", ',', "corrected", false);
}

#[test]
fn widened_in_json_shortest_in_csv() {
    // 0.5555556 in the CSV (as the page's table and CSV show it), 0.5555555820465088 in the JSON (schema 1).
    let csv = run_in(WWW, &[&SAMPLE[..], &["--format", "csv"]].concat()).1;
    assert!(
        csv.contains(",0.5555556,") && !csv.contains("0.5555555820465088"),
        "{csv}"
    );
    let json = run_in(WWW, &[&SAMPLE[..], &["--format", "json"]].concat()).1;
    assert!(
        json.contains("0.5555555820465088"),
        "the JSON keeps the schema-1 value"
    );
}
