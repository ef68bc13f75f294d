//! trec_eval 9.0.8 vs 10.0 on what their readers disagree on, and repeated judgements. The comment layouts
//! follow trec_eval 10.0's own test/qrels.test.with-comments (a comment on line 1 and one between judgements),
//! on this repository's sample qrels; the expectations are trec_eval's code (get_qrels.c, get_trec_results.c,
//! form_res_rels.c of 10.0 and 9.0.8), as the comments say.

mod common;
use common::kws_trec::text_pair;
use common::*;
use dropscore::input::Role;
use dropscore::Mode::{Corrected, Official};
use dropscore::Report;

fn sample(name: &str) -> String {
    std::fs::read_to_string(data(&format!("kws/trec/{name}"))).unwrap()
}

fn codes(r: &Report) -> Vec<&str> {
    r.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

/// The sample qrels with `# comment here` on line 1 and `# and comment here` after line 3.
fn with_comments() -> String {
    let q = sample("sample.qrels.bin");
    let mut lines: Vec<&str> = q.lines().collect();
    lines.insert(3, "# and comment here");
    lines.insert(0, "# comment here");
    lines.join("\n") + "\n"
}

const V10: &[(&str, &str)] = &[("trec_version", "10.0")];

#[test]
fn comment_on_line_1_scores_as_trec_eval_10() {
    let run = sample("sample.run");
    let plain = text_pair(&sample("sample.qrels.bin"), &run, Official, V10);
    let commented = text_pair(&with_comments(), &run, Official, V10);
    assert!(!commented.has_errors(), "{:?}", commented.diagnostics);
    assert!(plain.scores.get("map").is_some());
    assert_eq!(commented.scores, plain.scores, "10.0 skips both comments");
    assert_eq!(commented.items.len(), plain.items.len());
    // A comment-first run file too (get_trec_results.c skips every `#` line).
    let run_c = format!("# a run\n# with two comment lines\n{run}");
    let r = text_pair(&sample("sample.qrels.bin"), &run_c, Official, V10);
    assert_eq!(r.scores, plain.scores);
}

#[test]
fn comment_on_line_1_is_a_located_error_for_9_0_8() {
    let run = sample("sample.run");
    let r = text_pair(&with_comments(), &run, Official, &[]);
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "kws.trec.malformed_line")
        .unwrap_or_else(|| panic!("recognised as TREC, then refused: {:?}", codes(&r)));
    assert_eq!((d.file.as_deref(), d.line), (Some("q.qrels"), Some(1)));
    assert!(d
        .hint
        .as_deref()
        .unwrap_or("")
        .contains("trec_version=10.0"));
    assert!(r.official_fails);
    assert!(!codes(&r).contains(&"kws.input.unrecognised"));
}

#[test]
fn two_comments_in_a_row_follow_trec_eval_10s_reader() {
    let run = sample("sample.run");
    let q = format!("# one\n# two x y\n{}", sample("sample.qrels.bin"));
    // Official: the second comment is parsed as a judgement of query `#`, which the run lacks: trec_eval 10.0
    // stops on a qrels query without results (no complete).
    let r = text_pair(&q, &run, Official, V10);
    assert!(r.official_fails, "{:?}", codes(&r));
    // Corrected skips every comment line.
    let plain = text_pair(&sample("sample.qrels.bin"), &run, Corrected, V10);
    let c = text_pair(&q, &run, Corrected, V10);
    assert_eq!(c.scores, plain.scores);
    // A comment on the last line: trec_eval 10.0 reads past its buffer; official refuses, located.
    let q = format!("{}# last\n", sample("sample.qrels.bin"));
    let r = text_pair(&q, &run, Official, V10);
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "kws.official.final_comment")
        .expect("final comment");
    assert_eq!(d.line, Some(19));
    assert!(r.official_fails);
}

#[test]
fn repeated_judgements_stop_official_and_last_wins_corrected() {
    let run = sample("sample.run");
    let q = sample("sample.qrels.bin");
    let first = q.lines().next().unwrap();
    let mut parts: Vec<&str> = first.split(' ').collect();
    parts[3] = "0";
    let again = parts.join(" ");
    let dup = format!("{q}{again}\n");
    for version in [&[][..], V10] {
        let o = text_pair(&dup, &run, Official, version);
        let d = o
            .diagnostics
            .iter()
            .find(|d| d.code == "kws.official.duplicate_judgement")
            .unwrap_or_else(|| panic!("{:?}", codes(&o)));
        assert!(d.is_error());
        assert_eq!(d.line, Some(19));
        assert!(o.official_fails);
        assert_eq!(o.scores.get("map"), None, "no headline");
    }
    let c = text_pair(&dup, &run, Corrected, &[]);
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    assert!(codes(&c).contains(&"kws.trec.duplicate_judgement"));
    // The last line wins: the first document is now judged non-relevant.
    let without = q.lines().skip(1).collect::<Vec<_>>().join("\n") + "\n" + &again + "\n";
    let reference = text_pair(&without, &run, Corrected, &[]);
    assert_eq!(c.scores.get("map"), reference.scores.get("map"));
    // A repeated judgement of a query the run does not have is not evaluated: trec_eval does not stop.
    let other = format!("{q}zz 0 d1 1\nzz 0 d1 0\n");
    let o = text_pair(&other, &run, Official, &[]);
    assert!(!codes(&o).contains(&"kws.official.duplicate_judgement"));
}

#[test]
fn no_icfhr14_table_after_an_input_error() {
    let run = sample("sample.run");
    // Two qrels files: kws refuses (one ground truth only) before it knows the family.
    let r = score_inputs(
        "kws",
        vec![
            bytes_input(
                "a.qrels",
                Some(Role::Gt),
                sample("sample.qrels.bin").into_bytes(),
            ),
            bytes_input(
                "b.qrels",
                Some(Role::Gt),
                sample("sample.qrels.bin").into_bytes(),
            ),
            bytes_input("r.run", Some(Role::Pred), run.into_bytes()),
        ],
        Official,
        &[],
    );
    assert!(r.has_errors());
    let text = dropscore::render::text(&r);
    assert!(!text.contains("precAt5"), "{text}");
}
