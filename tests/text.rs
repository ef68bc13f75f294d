//! The `text` family (docs/specs/text.md): its layouts, metrics on small inputs whose values jiwer 4.0.0, anls
//! 0.0.2 and SQuAD's scripts give (computed once with the pinned references of
//! tests/reference/requirements-text.txt; tests/reference/text_diff.py checks thousands of random cases), its
//! located diagnostics and its pre-flight manifest.

mod common;
mod preflight_common;

use common::{bytes_input, score_inputs};
use dropscore::input::Role;
use dropscore::{Mode, Report};

fn run(files: &[(&str, Role, &str)], set: &[(&str, &str)]) -> Report {
    let inputs = files
        .iter()
        .map(|(p, r, b)| bytes_input(p, Some(*r), b.as_bytes().to_vec()))
        .collect();
    score_inputs("text", inputs, Mode::Official, set)
}

fn pair(gt: (&str, &str), pred: (&str, &str), set: &[(&str, &str)]) -> Report {
    run(&[(gt.0, Role::Gt, gt.1), (pred.0, Role::Pred, pred.1)], set)
}

fn diag<'a>(r: &'a Report, code: &str) -> &'a dropscore::Diagnostic {
    r.diagnostics
        .iter()
        .find(|d| d.code == code)
        .unwrap_or_else(|| panic!("no {code} in {:#?}", r.diagnostics))
}

fn item(r: &Report, k: usize, key: &str) -> Option<f64> {
    r.item(k).scores.get(key)
}

/// `jiwer.cer(r, h)` = 0.2727272727272727, `wer` 0.8, `mer` 0.5714285714285714, `wil` 0.7428571428571429
/// for r = ["hello world", "the cat sat", ""], h = ["helo world", "the bat sat on", "x"].
#[test]
fn table_layout_matches_jiwer() {
    let r = pair(
        ("gt.csv", "id,text\n1,hello world\n2,the cat sat\n3,\n"),
        ("pred.csv", "id,text\n3,x\n1,helo world\n2,the bat sat on\n"),
        &[],
    );
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    assert_eq!(r.scores.0[0].0, "cer");
    assert_eq!(r.scores.get("cer"), Some(0.2727272727272727));
    assert_eq!(r.scores.get("wer"), Some(0.8));
    assert_eq!(r.scores.get("mer"), Some(0.5714285714285714));
    assert_eq!(r.scores.get("wil"), Some(0.7428571428571429));
    // The third reference is empty: its rate is its number of inserted characters (jiwer 4.0).
    assert_eq!(item(&r, 2, "cer"), Some(1.0));
    assert_eq!(item(&r, 0, "char_deletions"), Some(1.0));
    assert_eq!(r.item(0).detail["hypothesis"], "helo world");
}

#[test]
fn several_references_take_anls_and_squad_metrics_only() {
    let gt = r#"{"a": ["The Cat", "a cat"], "b": ["dog"]}"#;
    let r = pair(
        ("gt.json", gt),
        ("pred.json", r#"{"a": "the cat", "b": "dig"}"#),
        &[("metric", "anls")],
    );
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    assert_eq!(r.scores.get("anls"), Some((1.0 + (1.0 - 1.0 / 3.0)) / 2.0));
    assert!(!r.scores.contains("cer"));
    let r = pair(
        ("gt.json", gt),
        ("pred.json", r#"{"a": "the cat", "b": "dig"}"#),
        &[],
    );
    assert!(diag(&r, "text.metric_not_applicable")
        .message
        .contains("`cer`"));
    assert_eq!(r.scores.get("cer"), None);
}

#[test]
fn json_lines_with_answers() {
    let gt =
        "{\"id\": 1, \"answers\": [\"Paris\", \"paris, France\"]}\n{\"id\": 2, \"text\": \"x\"}\n";
    let pred = "{\"id\": 1, \"text\": \"paris\"}\n{\"id\": 2, \"text\": \"y\"}\n";
    let r = pair(
        ("gt.jsonl", gt),
        ("pred.jsonl", pred),
        &[("metric", "exact_match")],
    );
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    assert_eq!(r.scores.get("exact_match"), Some(50.0));
}

const SQUAD: &str = r#"{"version": "v2.0", "data": [{"title": "t", "paragraphs": [{"context": "c", "qas": [
  {"id": "q1", "answers": [{"text": "the Normans"}], "is_impossible": false},
  {"id": "q2", "answers": [], "is_impossible": true}
]}]}]}"#;

#[test]
fn squad_v2_totals() {
    let r = pair(
        ("gt.json", SQUAD),
        ("pred.json", r#"{"q1": "Normans", "q2": ""}"#),
        &[("metric", "f1")],
    );
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    assert_eq!(r.scores.get("exact_match"), Some(100.0));
    assert_eq!(r.scores.get("HasAns_f1"), Some(100.0));
    assert_eq!(r.scores.get("NoAns_exact"), Some(100.0));
}

#[test]
fn squad_prediction_for_an_unknown_question_is_located() {
    let pred = "{\"q1\": \"Normans\",\n \"q2\": \"\",\n  \"q9\": \"x\"}";
    let r = pair(("gt.json", SQUAD), ("pred.json", pred), &[("metric", "f1")]);
    let d = diag(&r, "text.unknown_id");
    assert!(d.message.contains("q9"), "{}", d.message);
    assert_eq!(
        (d.file.as_deref(), d.line, d.column),
        (Some("pred.json"), Some(3), Some(3))
    );
    assert_eq!(r.scores.get("f1"), None);
}

#[test]
fn csv_row_with_a_missing_text_cell_is_located() {
    let r = pair(
        ("gt.csv", "id,text\n1,a\n2,b\n"),
        ("pred.csv", "id,text\n1,a\n2\n"),
        &[],
    );
    let d = diag(&r, "text.csv");
    assert_eq!((d.file.as_deref(), d.line), (Some("pred.csv"), Some(3)));
    assert_eq!(r.scores.get("cer"), None);
}

#[test]
fn missing_unknown_and_duplicate_ids() {
    let gt = ("gt.csv", "id,text\n1,a\n2,b\n");
    let r = pair(gt, ("pred.csv", "id,text\n1,a\n1,a\n3,c\n"), &[]);
    assert_eq!(diag(&r, "text.duplicate_id").line, Some(3));
    assert_eq!(diag(&r, "text.unknown_id").line, Some(4));
    assert!(diag(&r, "text.missing_id").is_error());
    let r = pair(gt, ("pred.csv", "id,text\n1,a\n"), &[("missing", "worst")]);
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    assert_eq!(r.scores.get("cer"), Some(0.5));
}

#[test]
fn normalize_option() {
    let gt = ("gt.json", "{\"a\": \"e\u{301}t\u{e9}\"}");
    let pred = ("pred.json", "{\"a\": \"\u{e9}te\u{301}\"}");
    assert_eq!(
        pair(gt, pred, &[("normalize", "nfc")]).scores.get("cer"),
        Some(0.0)
    );
    assert!(pair(gt, pred, &[]).scores.get("cer").unwrap() > 0.0);
}

#[test]
fn one_text_file_each_side() {
    let r = pair(("gt.txt", "abcd\n"), ("pred.txt", "abce\n"), &[]);
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    assert_eq!(r.scores.get("cer"), Some(0.25));
}

fn page(lines: &str) -> String {
    format!(
        "<?xml version=\"1.0\"?>\n<PcGts xmlns=\"http://schema.primaresearch.org/PAGE/gts/pagecontent/2013-07-15\">\n\
         <Page imageFilename=\"p.png\"><TextRegion id=\"r\">{lines}</TextRegion></Page></PcGts>\n"
    )
}

#[test]
fn page_xml_lines_lowest_index_and_not_words() {
    let gt = page(
        "<TextLine id=\"l1\"><Word id=\"w\"><TextEquiv><Unicode>no</Unicode></TextEquiv></Word>\
         <TextEquiv index=\"2\"><Unicode>second</Unicode></TextEquiv>\
         <TextEquiv index=\"1\"><Unicode>a &amp; b</Unicode></TextEquiv></TextLine>\
         <TextLine id=\"l2\"><TextEquiv><Unicode>xy</Unicode></TextEquiv></TextLine>",
    );
    let pred = "id,text\np1/l1,a & b\np1/l2,xz\n";
    let r = pair(("p1.xml", &gt), ("pred.csv", pred), &[]);
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    assert_eq!(r.item(0).id, "p1/l1");
    assert_eq!(r.item(0).detail["reference"], "a & b");
    assert_eq!(r.scores.get("cer"), Some(1.0 / 7.0));
}

/// A page whose `ReadingOrder` differs from the file's order: region r2 (index 0) first, then r1 (index 1),
/// then the nested group (index 2) with r4; r3, which the order does not name, last.
const READING_ORDER_PAGE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">
  <Page imageFilename="p.png" imageWidth="100" imageHeight="100">
    <ReadingOrder>
      <OrderedGroup id="g0" caption="Regions reading order">
        <RegionRefIndexed index="1" regionRef="r1"/>
        <OrderedGroupIndexed id="g1" index="2">
          <RegionRefIndexed index="0" regionRef="r4"/>
        </OrderedGroupIndexed>
        <RegionRefIndexed index="0" regionRef="r2"/>
      </OrderedGroup>
    </ReadingOrder>
    <TextRegion id="r4"><TextLine id="d1"><TextEquiv><Unicode>d</Unicode></TextEquiv></TextLine></TextRegion>
    <TextRegion id="r1">
      <TextLine id="a1"><TextEquiv><Unicode>a one</Unicode></TextEquiv></TextLine>
      <TextLine id="a2"><TextEquiv><Unicode>a two</Unicode></TextEquiv></TextLine>
    </TextRegion>
    <TextRegion id="r3"><TextLine id="c1"><TextEquiv><Unicode>c</Unicode></TextEquiv></TextLine></TextRegion>
    <TextRegion id="r2"><TextLine id="b1"><TextEquiv><Unicode>b</Unicode></TextEquiv></TextLine></TextRegion>
  </Page>
</PcGts>
"#;

#[test]
fn page_lines_follow_the_reading_order() {
    let pred = "id,text\np1/a1,a one\np1/a2,a two\np1/b1,b\np1/c1,c\np1/d1,d\n";
    let r = pair(("p1.xml", READING_ORDER_PAGE), ("pred.csv", pred), &[]);
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    let ids: Vec<String> = (0..5).map(|k| r.item(k).id.to_string()).collect();
    assert_eq!(ids, ["p1/b1", "p1/a1", "p1/a2", "p1/d1", "p1/c1"]);
    // Without a ReadingOrder: file order.
    let plain = READING_ORDER_PAGE.replace("ReadingOrder", "Other");
    let r = pair(("p1.xml", &plain), ("pred.csv", pred), &[]);
    let ids: Vec<String> = (0..5).map(|k| r.item(k).id.to_string()).collect();
    assert_eq!(ids, ["p1/d1", "p1/a1", "p1/a2", "p1/c1", "p1/b1"]);
}

#[test]
fn unclosed_page_element_is_located() {
    let gt = page("<TextLine id=\"l1\"><TextEquiv><Unicode>a</Unicode></TextEquiv></TextLine>");
    let bad = gt.replace("</TextRegion>", "");
    let r = pair(("p1.xml", &gt), ("p1.xml", &bad), &[]);
    let d = diag(&r, "text.page");
    assert!(d.message.contains("TextRegion"), "{}", d.message);
    assert_eq!((d.line, d.column), (Some(3), Some(29)));
}

#[test]
fn manifest_holds_ids_never_texts() {
    let gt = page(
        "<TextLine id=\"l1\"><TextEquiv><Unicode>secret words</Unicode></TextEquiv></TextLine>",
    );
    let m = preflight_common::manifest("text", &[("p1.xml".into(), gt.into_bytes())], &[]);
    assert!(m.contains("p1/l1"), "{m}");
    assert!(!m.contains("secret"), "{m}");
    let gt: Vec<preflight_common::File> = vec![("gt.csv".into(), b"id,text\n1,a\n2,b\n".to_vec())];
    for (pred, case) in [
        ("id,text\n1,x\n2,y\n", "valid"),
        ("id,text\n1,x\n", "missing"),
        ("id,text\n1,x\n2,y\n3,z\n", "unknown"),
    ] {
        let pred: Vec<preflight_common::File> = vec![("pred.csv".into(), pred.as_bytes().to_vec())];
        preflight_common::agree("text", &gt, &pred, &[], case);
    }
}

/// rouge-score 0.1.2's tokenizer keeps only a–z and 0–9 (`RougeScorer(["rouge1"]).score("Привет мир",
/// "Привет мир")` is 0.0, Hugging Face evaluate issue 256): dropscore gives the same 0 and says why, naming
/// the items whose references lose letters, how many, and how many lose every word.
#[test]
fn rouge_on_non_latin_references_is_explained() {
    let gt =
        r#"{"ru": "Привет мир", "zh": "你好世界", "mixed": "Café au lait", "en": "plain text"}"#;
    let pred =
        r#"{"ru": "Привет мир", "zh": "你好世界", "mixed": "Café au lait", "en": "plain text"}"#;
    let r = pair(
        ("gt.json", gt),
        ("pred.json", pred),
        &[("metric", "rouge1")],
    );
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    assert_eq!(r.scores.get("rouge1"), Some(0.5));
    let by_id = |id: &str| (0..4).find(|&k| r.item(k).id == id).unwrap();
    assert_eq!(item(&r, by_id("ru"), "rouge1"), Some(0.0));
    assert_eq!(item(&r, by_id("zh"), "rouge1"), Some(0.0));
    assert_eq!(item(&r, by_id("mixed"), "rouge1"), Some(1.0));
    let d = diag(&r, "text.rouge_dropped_letters");
    assert_eq!(d.severity, dropscore::Severity::Warning);
    for part in [
        "3 of 4 items",
        "`ru`",
        "`zh`",
        "`mixed`",
        "2 of them keep no word",
    ] {
        assert!(d.message.contains(part), "{part}: {}", d.message);
    }
    assert!(!d.message.contains("`en`"), "{}", d.message);
    assert!(
        d.hint.as_deref().unwrap_or("").contains("chrf"),
        "{:?}",
        d.hint
    );
    // Ranked by another metric, the same line is information beside the ROUGE values.
    let r = pair(("gt.json", gt), ("pred.json", pred), &[("metric", "chrf")]);
    let d = diag(&r, "text.rouge_dropped_letters");
    assert_eq!(d.severity, dropscore::Severity::Info);
    // Latin text: no such line.
    let r = pair(
        ("gt.json", r#"{"a": "hello"}"#),
        ("pred.json", r#"{"a": "hello"}"#),
        &[],
    );
    assert!(r
        .diagnostics
        .iter()
        .all(|d| d.code != "text.rouge_dropped_letters"));
}

/// Option `metrics`: the report holds (and the run computes) only the listed metrics, the leaderboard `metric`
/// first and always among them, each with the value the whole table gives; the per-item counts and plots stay.
/// Not a deviation; an unknown id is a usage error; a config's leaderboard column outside the list is refused.
#[test]
fn metrics_option_lists_what_the_report_holds() {
    let gt = ("gt.csv", "id,text\n1,hello world\n2,the cat sat\n3,\n");
    let pred = ("pred.csv", "id,text\n3,x\n1,helo world\n2,the bat sat on\n");
    let all = pair(gt, pred, &[]);
    let two = pair(gt, pred, &[("metrics", "cer,wer")]);
    assert!(!two.has_errors(), "{:#?}", two.diagnostics);
    let ids: Vec<&str> = two.scores.iter().map(|(id, _)| id).collect();
    assert_eq!(ids, ["cer", "wer"]);
    for id in ids {
        assert_eq!(two.scores.get(id), all.scores.get(id));
    }
    assert!(two.deviations.is_empty(), "{:?}", two.deviations);
    assert_eq!(item(&two, 0, "char_deletions"), Some(1.0));
    assert_eq!(item(&two, 1, "wer"), item(&all, 1, "wer"));
    assert_eq!(two.item(0).scores.get("bleu"), None);
    assert!(two.plots.iter().any(|p| p.id == "cer_histogram"));
    assert!(!two.diagnostics.iter().any(|d| d.code == "text.signature"));
    // The leaderboard metric is added when the list leaves it out, and comes first.
    let r = pair(gt, pred, &[("metric", "wer"), ("metrics", "bleu")]);
    let ids: Vec<&str> = r.scores.iter().map(|(id, _)| id).collect();
    assert_eq!(ids, ["wer", "bleu"]);
    assert_eq!(r.scores.get("bleu"), all.scores.get("bleu"));
    // `all` is the default.
    let r = pair(gt, pred, &[("metrics", "all")]);
    assert_eq!(r.scores.0, all.scores.0);

    let files = dropscore::input::FileSet::build(
        vec![
            common::bytes_input(gt.0, Some(Role::Gt), gt.1.as_bytes().to_vec()),
            common::bytes_input(pred.0, Some(Role::Pred), pred.1.as_bytes().to_vec()),
        ],
        &dropscore::input::Limits::default(),
    );
    let req = dropscore::protocols::Request {
        set: vec![("metrics".into(), "cer,bogus".into())],
        ..dropscore::protocols::Request::new(Mode::Official)
    };
    let Err(err) =
        dropscore::protocols::score("text", &files, &req, &mut dropscore::protocols::Quiet)
    else {
        panic!("no usage error");
    };
    assert!(err.0.contains("`bogus` is not a text metric"), "{}", err.0);

    let cfg = "protocol = \"text\"\n[options]\nmetric = \"cer\"\nmetrics = \"cer,wer\"\n\
               [[leaderboard.columns]]\nkey = \"cer\"\n[[leaderboard.columns]]\nkey = \"bleu\"\n";
    let Err(errs) = dropscore::config::from_toml(cfg) else {
        panic!("no config error");
    };
    assert!(
        errs.iter().any(|e| e
            .message
            .contains("metric `bleu`: no text report has this score")),
        "{:?}",
        errs.iter().map(|e| &e.message).collect::<Vec<_>>()
    );
}
