//! Aij2022 JSON with `NaN`, `Infinity`, `-Infinity`, `1e999` and a lone
//! surrogate `"\ud800"`. Python's `json` reads them all, so official mode must not claim a JSONDecodeError: it
//! scores with the value, as the contest's loop does (here checked against python3's own `json` and the
//! exception its `.lower()` raises). Corrected mode refuses `NaN`/`Infinity` (not JSON, docs/specs/aij2022.md 2.1) at
//! their line and column, and reads `1e999` and lone surrogates with a warning.

mod common;

use common::{bytes_input, has, score_inputs};
use dropscore::input::Role;
use dropscore::{Mode, Report};
use std::process::Command;

fn pair(task: &str, gt: &str, pred: &str, mode: Mode) -> Report {
    score_inputs(
        "aij2022",
        vec![
            bytes_input(
                &format!("{task}_gt.json"),
                Some(Role::Gt),
                gt.as_bytes().to_vec(),
            ),
            bytes_input(
                &format!("{task}_pred.json"),
                Some(Role::Pred),
                pred.as_bytes().to_vec(),
            ),
        ],
        mode,
        &[],
    )
}

/// python3's `json.loads(doc)["0"][0]["content"]`, then `prediction.lower()` as the contest's normalisation does:
/// the exception line, or `ok <repr>`. `None` without python3.
fn python_lower(doc: &str) -> Option<String> {
    let code = "import json,sys\nv=json.loads(sys.argv[1])['0'][0]['content']\ntry:\n v.lower(); print('ok', repr(v))\nexcept Exception as e:\n print(type(e).__name__ + ': ' + str(e))";
    let out = Command::new("python3")
        .args(["-c", code, doc])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn no_decode_error_claim(r: &Report) {
    for d in &r.diagnostics {
        let s = format!("{} {:?}", d.message, d.official_behaviour);
        assert!(!s.contains("JSONDecodeError"), "{s}");
    }
}

const TEXTQA_GT: &str =
    r#"{"0": [{"type": "text", "content": ["a"]}], "1": [{"type": "text", "content": ["b"]}]}"#;

#[test]
fn nan_infinity_and_huge_numbers_score_as_python_reads_them() {
    for lit in ["NaN", "Infinity", "-Infinity", "1e999", "-1e999"] {
        let pred = format!(
            "{{\"0\": [{{\"type\": \"text\",\n  \"content\": {lit}}}], \"1\": [{{\"type\": \"text\", \"content\": \"b\"}}]}}"
        );
        // Python: json reads a float; `.lower()` raises AttributeError, the TextQA loop prints "Unsupported data
        // format" and the task scores 0.
        let py = python_lower(&pred);
        if let Some(py) = &py {
            assert_eq!(
                py, "AttributeError: 'float' object has no attribute 'lower'",
                "{lit}"
            );
        }
        let o = pair("textqa", TEXTQA_GT, &pred, Mode::Official);
        no_decode_error_claim(&o);
        assert!(!has(&o, "aij.json.syntax"), "{lit}: {:?}", o.diagnostics);
        assert_eq!(o.scores.get("textqa"), Some(0.0), "{lit}");
        let crash = o
            .diagnostics
            .iter()
            .find(|d| d.code == "aij.textqa.unsupported_format")
            .unwrap();
        assert!(crash
            .message
            .contains("AttributeError: 'float' object has no attribute 'lower'"));
        let note = if lit.contains("Infinity") || lit == "NaN" {
            "aij.json.python_literal"
        } else {
            "aij.json.huge_number"
        };
        let w = o
            .diagnostics
            .iter()
            .find(|d| d.code == note)
            .unwrap_or_else(|| panic!("{lit}: {:?}", o.diagnostics));
        assert_eq!((w.line, w.column), (Some(2), Some(14)), "{lit}");
        let c = pair("textqa", TEXTQA_GT, &pred, Mode::Corrected);
        no_decode_error_claim(&c);
        if note == "aij.json.python_literal" {
            // Not JSON: the file is refused where the literal stands.
            let e = c
                .diagnostics
                .iter()
                .find(|d| d.code == "aij.json.syntax")
                .unwrap();
            assert_eq!(
                (e.file.as_deref(), e.line, e.column),
                (Some("textqa_pred.json"), Some(2), Some(14))
            );
            assert_eq!(c.scores.get("textqa"), None);
        } else {
            // JSON with a number beyond the float range: read as ±∞, the item scores 0 (non-string content).
            assert!(has(&c, "aij.json.huge_number") && has(&c, "aij.item.exception"));
            assert_eq!(c.scores.get("textqa"), Some(0.5));
        }
    }
}

#[test]
fn a_number_as_a_key_and_later_syntax_errors_stay_errors_at_their_place() {
    // `{NaN: …}`: Python's json raises JSONDecodeError too (property names are strings).
    let r = pair(
        "textqa",
        TEXTQA_GT,
        r#"{NaN: [{"type": "text", "content": "a"}]}"#,
        Mode::Official,
    );
    assert!(has(&r, "aij.json.syntax"));
    // A syntax error after a NaN on the same line is located in the original text.
    let bad =
        r#"{"0": [{"type": "text", "content": NaN}], "1": [{"type": "text", "content": "b"}],}"#;
    let r = pair("textqa", TEXTQA_GT, bad, Mode::Official);
    let e = r
        .diagnostics
        .iter()
        .find(|d| d.code == "aij.json.syntax")
        .unwrap();
    let strict = pair(
        "textqa",
        TEXTQA_GT,
        &bad.replace("NaN", "1.0"),
        Mode::Official,
    );
    let s = strict
        .diagnostics
        .iter()
        .find(|d| d.code == "aij.json.syntax")
        .unwrap();
    assert_eq!((e.line, e.column), (s.line, s.column));
}

/// 1 − NED (calculate_NED.py) of python3's reading of both documents' first strings, on code points.
fn python_ned(gt: &str, pred: &str) -> Option<f64> {
    let code = r#"import json,sys
g=json.loads(sys.argv[1])['0'][0]['content'][0]; p=json.loads(sys.argv[2])['0'][0]['content']
def lev(a,b):
    d=list(range(len(b)+1))
    for i,x in enumerate(a,1):
        prev,d[0]=d[0],i
        for j,y in enumerate(b,1):
            prev,d[j]=d[j],min(d[j]+1,d[j-1]+1,prev+(x!=y))
    return d[-1]
print(repr(0.0 if not g or not p else 1-lev(p,g)/max(len(g),len(p))))"#;
    let out = Command::new("python3")
        .args(["-c", code, gt, pred])
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

#[test]
fn lone_surrogates_are_one_code_point_each_as_in_python() {
    for (g, p, lone) in [
        (r"\ud800x", r"\ud800y", true),
        (r"\ud800", r"\udc00", true),
        (r"ab\udfff", r"ab\udfff", true),
        (r"\ud83d\ude00a", r"\ud83d\ude00", false), // a valid pair: one character, no warning
        (r"\udc00\ud800", r"\ud800\udc00", true),   // reversed: two lone surrogates vs one pair
    ] {
        let gt = format!("{{\"0\": [{{\"type\": \"text\", \"content\": [\"{g}\"]}}]}}");
        let pred = format!("{{\"0\": [{{\"type\": \"text\", \"content\": \"{p}\"}}]}}");
        for mode in [Mode::Official, Mode::Corrected] {
            let r = pair("text_recognition", &gt, &pred, mode);
            no_decode_error_claim(&r);
            assert!(
                !r.diagnostics.iter().any(|d| d.is_error()),
                "{g} {p}: {:?}",
                r.diagnostics
            );
            assert_eq!(has(&r, "aij.json.lone_surrogate"), lone, "{g} {p}");
            let got = r.scores.get("titw").unwrap();
            if let Some(want) = python_ned(&gt, &pred) {
                assert_eq!(got, want, "{g} {p} {mode:?}");
            }
        }
    }
}
