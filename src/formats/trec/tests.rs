//! Unit tests of the TREC readers and of the C number parsing.

use super::*;

fn entry(text: &str) -> TextFile<'_> {
    TextFile::in_memory("t.txt", text.as_bytes())
}

#[test]
fn c_atol() {
    assert_eq!(atol(b"0.7"), 0);
    assert_eq!(atol(b"1.0"), 1);
    assert_eq!(atol(b"-1"), -1);
    assert_eq!(atol(b"+12x"), 12);
    assert_eq!(atol(b"x"), 0);
    assert_eq!(atol(b"99999999999999999999"), i64::MAX);
    assert_eq!(atol(b"-99999999999999999999"), i64::MIN);
}

#[test]
fn c_atof() {
    assert_eq!(atof(b"2.5"), 2.5);
    assert_eq!(atof(b"1e"), 1.0);
    assert_eq!(atof(b"1e+"), 1.0);
    assert_eq!(atof(b"-.5x"), -0.5);
    assert_eq!(atof(b"5."), 5.0);
    assert_eq!(atof(b"abc"), 0.0);
    assert_eq!(atof(b"-"), 0.0);
    assert_eq!(atof(b"INF"), f64::INFINITY);
    assert_eq!(atof(b"-Infinity"), f64::NEG_INFINITY);
    assert!(atof(b"nan(1)").is_nan());
    assert_eq!(atof(b"0x1p3"), 8.0);
    assert_eq!(atof(b"0x.8"), 0.5);
    assert_eq!(atof(b"0x"), 0.0);
    assert_eq!(atof(b"0.1"), 0.1);
    assert_eq!(atof(b"1e400"), f64::INFINITY);
}

#[test]
fn qrels_reading() {
    let e = entry("q1 0 d1 1\nq1 0 d2 0.7\n\nq2\t0  d3 2\r\nq1 0 d1 0\nq1 0 d4\n");
    let mut d = Diags::new();
    let q = read_qrels(e, &ReadSettings::default(), &mut d);
    let codes: Vec<&str> = d.list.iter().map(|x| x.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "kws.trec.rel_truncated",
            "kws.trec.blank_line",
            "kws.trec.malformed_line",
            "kws.trec.duplicate_judgement"
        ]
    );
    assert_eq!(d.list[0].line, Some(2));
    assert_eq!(d.list[0].column, Some(9));
    assert_eq!(d.list[2].line, Some(6));
    assert_eq!(d.list[2].column, Some(8));
    let q1 = q.get("q1").unwrap();
    assert_eq!(q1.rel_of(b"d1"), Some(0), "last line wins");
    assert_eq!(q1.rel_of(b"d2"), Some(0));
    assert_eq!(q1.rel_of(b"d9"), None);
    assert_eq!(q1.len(), 2);
    assert_eq!(q1.positive_lines, 1);
    assert_eq!(q.get("q2").unwrap().judged_rels(), vec![2]);
    assert_eq!((q.blank_lines, q.bad_lines), (1, 1));
}

#[test]
fn float_rel_error() {
    let e = entry("q1 0 d1 0.5\n");
    let mut d = Diags::new();
    let s = ReadSettings {
        float_rel_error: true,
        ..Default::default()
    };
    let q = read_qrels(e, &s, &mut d);
    assert_eq!(d.list[0].code, "kws.trec.non_integer_rel");
    assert!(q.get("q1").is_none());
}

#[test]
fn run_reading() {
    let e = entry("q1 Q0 d1 1 2.5 a\nq1 Q0 d2 2 x a\nq2 Q0 d3 1 1 b\nq1 Q0 d4 3 1 a extra\n# c\n");
    let mut d = Diags::new();
    let r = read_run(e, &ReadSettings::default(), &mut d, &mut |_| {});
    let codes: Vec<&str> = d.list.iter().map(|x| x.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "kws.trec.bad_sim",
            "kws.trec.malformed_line",
            "kws.trec.malformed_line",
            "kws.trec.tag_differs"
        ]
    );
    assert_eq!(d.list[1].column, Some(16));
    assert_eq!(r.tag.as_deref(), Some("a"));
    let q1 = r.get("q1").unwrap();
    assert_eq!(q1.sims, vec![2.5, 0.0]);
    assert_eq!(q1.docnos.get(1), b"d2");
    assert_eq!(r.queries.len(), 2);
    // trec_eval 10.0 skips comment lines.
    let mut d = Diags::new();
    let s = ReadSettings {
        comments: true,
        ..Default::default()
    };
    read_run(entry("# c\nq1 Q0 d1 1 1 a\n"), &s, &mut d, &mut |_| {});
    assert!(d.list.is_empty());
}

#[test]
fn bom_and_utf8() {
    let mut bytes = b"\xEF\xBB\xBFq1 0 d1 1\nq1 0 d\xFF 1\n".to_vec();
    bytes.extend_from_slice("q1 0 é 1\n".as_bytes());
    let e = TextFile::in_memory("t", &bytes);
    let mut d = Diags::new();
    let q = read_qrels(e, &ReadSettings::default(), &mut d);
    assert_eq!(d.list.len(), 1);
    assert_eq!(d.list[0].code, "kws.trec.invalid_utf8");
    assert_eq!((d.list[0].line, d.list[0].column), (Some(2), Some(7)));
    assert_eq!(q.get("q1").unwrap().len(), 2);
}
