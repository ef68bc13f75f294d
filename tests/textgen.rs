//! sacreBLEU 2.6.0 and rouge-score 0.1.2 as pure functions (src/metrics/sacrebleu, src/metrics/rouge):
//! values computed with the pinned Python packages, and the entry point of tests/reference/textgen_diff.py,
//! which writes random cases to the JSON file named by `TEXTGEN_CASES` and reads the results from
//! `TEXTGEN_OUT` (`TEXTGEN_CASES=… TEXTGEN_OUT=… cargo test --release --test textgen -- diff_cases`).

use dropscore::metrics::rouge::{corpus_rouge, RougeScorer, RougeType};
use dropscore::metrics::sacrebleu::{
    corpus_bleu, corpus_chrf, corpus_ter, BleuOptions, ChrfOptions, Smooth, TerOptions, Tokenizer,
};
use serde_json::{json, Value};

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|s| s.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn lists(v: &Value) -> Vec<Vec<String>> {
    v.as_array()
        .map(|a| a.iter().map(strs).collect())
        .unwrap_or_default()
}

fn flag(o: &Value, k: &str) -> bool {
    o.get(k).and_then(Value::as_bool).unwrap_or(false)
}

/// One case of textgen_diff.py: the metric's numbers and signature, or its error.
fn run_case(c: &Value) -> Value {
    let o = &c["opts"];
    let hyps = strs(&c["hyps"]);
    let refs = lists(&c["refs"]);
    match c["kind"].as_str().unwrap_or_default() {
        "bleu" => {
            let tokenizer = match Tokenizer::from_name(o["tokenize"].as_str().unwrap_or("13a")) {
                Ok(t) => t,
                Err(e) => return json!({ "error": e }),
            };
            let smooth = Smooth::from_name(
                o["smooth"].as_str().unwrap_or("exp"),
                o["smooth_value"].as_f64(),
            );
            let opts = BleuOptions {
                lowercase: flag(o, "lowercase"),
                tokenizer,
                smooth: smooth.unwrap_or(Smooth::Exp),
                max_ngram_order: 4,
                effective_order: flag(o, "effective_order"),
            };
            match corpus_bleu(&hyps, &refs, &opts) {
                Ok(s) => {
                    json!({"score": s.score, "bp": s.bp, "precisions": s.precisions, "counts": s.counts,
                    "totals": s.totals, "sys_len": s.sys_len, "ref_len": s.ref_len, "signature": s.signature})
                }
                Err(e) => json!({ "error": e.to_string() }),
            }
        }
        "chrf" => {
            let opts = ChrfOptions {
                word_order: o["word_order"].as_u64().unwrap_or(0) as usize,
                lowercase: flag(o, "lowercase"),
                whitespace: flag(o, "whitespace"),
                eps_smoothing: flag(o, "eps_smoothing"),
                ..ChrfOptions::chrf()
            };
            match corpus_chrf(&hyps, &refs, &opts) {
                Ok(s) => json!({"score": s.score, "name": s.name, "signature": s.signature}),
                Err(e) => json!({ "error": e.to_string() }),
            }
        }
        "ter" => {
            let opts = TerOptions {
                case_sensitive: flag(o, "case_sensitive"),
            };
            match corpus_ter(&hyps, &refs, &opts) {
                Ok(s) => {
                    json!({"score": s.score, "num_edits": s.num_edits, "ref_length": s.ref_length,
                    "signature": s.signature})
                }
                Err(e) => json!({ "error": e.to_string() }),
            }
        }
        "rouge" => {
            let types: Vec<RougeType> = strs(&o["types"])
                .iter()
                .filter_map(|t| RougeType::from_name(t).ok())
                .collect();
            let scorer = RougeScorer::new(types, flag(o, "stem"));
            match corpus_rouge(&scorer, &refs, &hyps) {
                Some(r) => {
                    let triple = |v: &[dropscore::metrics::rouge::RougeValue]| -> Vec<[f64; 3]> {
                        v.iter()
                            .map(|x| [x.precision, x.recall, x.fmeasure])
                            .collect()
                    };
                    json!({"means": triple(&r.means), "items": r.items.iter().map(|i| triple(i)).collect::<Vec<_>>(),
                        "dropped": r.items_with_dropped_letters})
                }
                None => json!({ "error": "no rouge" }),
            }
        }
        "tok" => {
            let t = Tokenizer::from_name(o["tokenize"].as_str().unwrap_or("13a"));
            match t {
                Ok(t) => json!({"tokens": hyps.iter().map(|h| t.tokenize(h)).collect::<Vec<_>>()}),
                Err(e) => json!({ "error": e }),
            }
        }
        k => json!({ "error": format!("unknown kind {k}") }),
    }
}

#[test]
fn diff_cases() {
    let (Ok(cases), Ok(out)) = (std::env::var("TEXTGEN_CASES"), std::env::var("TEXTGEN_OUT"))
    else {
        return;
    };
    let text = std::fs::read_to_string(cases).expect("read cases");
    let cases: Vec<Value> = serde_json::from_str(&text).expect("parse cases");
    let results: Vec<Value> = cases.iter().map(run_case).collect();
    std::fs::write(out, serde_json::to_string(&results).expect("json")).expect("write results");
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() <= 1e-12, "{a} vs {b}");
}

/// Values printed by sacrebleu 2.6.0 (`BLEU().corpus_score`, `CHRF()`, `CHRF(word_order=2)`, `TER()`).
#[test]
fn sacrebleu_known_values() {
    let hyps = [
        "The dog bit the man.",
        "It wasn't surprising.",
        "The man had just bitten him.",
    ];
    let refs = [
        vec!["The dog bit the man.", "The dog had bitten the man."],
        vec!["It was not unexpected.", "No one was surprised."],
        vec!["The man bit him first.", "The man had bitten the dog."],
    ];
    let bleu = corpus_bleu(&hyps, &refs, &BleuOptions::default()).unwrap();
    close(bleu.score, 48.530827009929865);
    assert_eq!(
        bleu.signature,
        "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    );
    let chrf = corpus_chrf(&hyps, &refs, &ChrfOptions::chrf()).unwrap();
    close(chrf.score, 59.72751782684763);
    assert_eq!(
        chrf.signature,
        "nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0"
    );
    let chrfpp = corpus_chrf(&hyps, &refs, &ChrfOptions::chrf_plus_plus()).unwrap();
    close(chrfpp.score, 59.15310444399262);
    assert_eq!(chrfpp.name, "chrF2++");
    let ter = corpus_ter(&hyps, &refs, &TerOptions::default()).unwrap();
    close(ter.score, 40.0);
    assert_eq!(
        ter.signature,
        "nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0"
    );
    assert!(Tokenizer::from_name("ja-mecab")
        .unwrap_err()
        .contains("model file"));
}

/// Values printed by rouge-score 0.1.2 (`RougeScorer([...], use_stemmer=True).score(target, prediction)`).
#[test]
fn rouge_known_values() {
    let types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        .iter()
        .map(|t| RougeType::from_name(t).unwrap());
    let scorer = RougeScorer::new(types.collect(), true);
    let s = scorer.score(
        "The quick brown fox jumps over the lazy dog\nIt was sleeping.",
        "The quick brown dog jumps on the log.\nThe fox slept.",
    );
    close(s[0].fmeasure, 0.6086956521739131);
    close(s[1].fmeasure, 0.1904761904761905);
    close(s[2].fmeasure, 0.43478260869565216);
    close(s[3].fmeasure, 0.5217391304347826);
    let r = corpus_rouge(&scorer, &[vec!["Привет мир"]], &["Привет мир"]).unwrap();
    assert_eq!(
        (r.means[0].fmeasure, r.items_with_dropped_letters),
        (0.0, 1)
    );
}

/// The native side of bench/textgen.py: `TEXTGEN_BENCH` names a file of segments, one per line, hypothesis
/// and reference separated by a tab; prints `{"seconds": …, "score": …}` for `corpus_bleu` with the defaults
/// (reading the file excluded).
#[test]
fn bench_bleu() {
    let Ok(path) = std::env::var("TEXTGEN_BENCH") else {
        return;
    };
    let text = std::fs::read_to_string(path).expect("read segments");
    let (mut hyps, mut refs) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let (h, r) = line.split_once('\t').unwrap_or((line, ""));
        hyps.push(h);
        refs.push([r]);
    }
    let t = std::time::Instant::now();
    let s = corpus_bleu(&hyps, &refs, &BleuOptions::default()).expect("bleu");
    let seconds = t.elapsed().as_secs_f64();
    println!(
        "{}",
        json!({"seconds": seconds, "score": s.score, "segments": hyps.len(), "signature": s.signature})
    );
}
