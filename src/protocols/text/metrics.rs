//! The metric table: one entry per metric id, in the report's order. An entry says whether the metric takes
//! several references per item and computes its corpus value (and per-item values) from a [`Corpus`]. A new
//! metric (sacreBLEU's, rouge-score's) is one more entry.

use super::inputs::Pairs;
use crate::metrics::edit::{self, Counts, Op};
use crate::metrics::rouge::{self, RougeScorer, RougeType};
use crate::metrics::sacrebleu::{self, BleuOptions, ChrfOptions, TerOptions};
use crate::metrics::text::{jiwer, py_mean, similarity, squad};
use crate::protocols::options::List;
use crate::pycompat::strip;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// The paired texts and what several metrics share, computed once.
pub struct Corpus<'a> {
    pub refs: &'a [Vec<String>],
    pub hyps: &'a [String],
    /// Character and word alignment counts of each item (empty when some item has several references).
    pub chars: Vec<Counts>,
    pub words: Vec<Counts>,
    pub anls_threshold: f64,
    /// The `squad` layout's script and each question's `has answer`.
    pub squad: Option<(squad::Version, &'a [bool])>,
    /// What several metrics read, computed by the first of them that runs.
    pub shared: Shared,
}

/// Results several metrics share (chrF and chrF++ the character n-gram counts, the four ROUGE types the
/// tokenization, exact match and F1 the normalised answers), each computed once.
#[derive(Default)]
pub struct Shared {
    chrf: OnceLock<Vec<Option<f64>>>,
    rouge: OnceLock<Option<rouge::RougeCorpus>>,
    squad: OnceLock<Vec<(f64, f64)>>,
}

/// A metric's result: its value (`None`: undefined) and its per-item values (`None`: it has none).
pub struct Computed {
    pub value: Option<f64>,
    pub per_item: Option<Vec<f64>>,
}

/// Which inputs a metric applies to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Applies {
    /// One reference per item, any layout but `squad`.
    OneRef,
    /// Any layout but `squad`, any number of references (ANLS; SQuAD's scripts scored per question).
    NotSquad,
    /// The `squad` layout only (its scripts' totals).
    Squad,
    /// The `squad` layout with v2.0's script.
    SquadV2,
}

pub struct Metric {
    pub id: &'static str,
    pub applies: Applies,
    /// The per-item column's key, when the metric has per-item values.
    pub item_key: Option<&'static str>,
    pub compute: fn(&Corpus) -> Computed,
    /// Reads what an earlier metric of the table computes for both ([`Shared`]): computed after the others.
    pub reads_shared: bool,
    /// A line the report carries with the value (sacreBLEU's signature string).
    pub note: Option<fn(&Corpus) -> String>,
}

/// Every metric, in the report's order.
pub static METRICS: &[Metric] = &[
    Metric {
        id: "cer",
        applies: Applies::OneRef,
        item_key: Some("cer"),
        compute: |c| rate(&c.chars, true),
        note: None,
        reads_shared: false,
    },
    Metric {
        id: "wer",
        applies: Applies::OneRef,
        item_key: Some("wer"),
        compute: |c| rate(&c.words, true),
        note: None,
        reads_shared: false,
    },
    Metric {
        id: "mer",
        applies: Applies::OneRef,
        item_key: None,
        compute: |c| words(c, |m| m.mer),
        note: None,
        reads_shared: false,
    },
    Metric {
        id: "wil",
        applies: Applies::OneRef,
        item_key: None,
        compute: |c| words(c, |m| m.wil),
        note: None,
        reads_shared: false,
    },
    Metric {
        id: "wip",
        applies: Applies::OneRef,
        item_key: None,
        compute: |c| words(c, |m| m.wip),
        note: None,
        reads_shared: false,
    },
    Metric {
        id: "cer_mean",
        applies: Applies::OneRef,
        item_key: None,
        compute: |c| rate(&c.chars, false),
        note: None,
        reads_shared: false,
    },
    Metric {
        id: "wer_mean",
        applies: Applies::OneRef,
        item_key: None,
        compute: |c| rate(&c.words, false),
        note: None,
        reads_shared: false,
    },
    Metric {
        id: "ned",
        applies: Applies::OneRef,
        item_key: Some("ned"),
        compute: ned,
        note: None,
        reads_shared: false,
    },
    Metric {
        id: "anls",
        applies: Applies::NotSquad,
        item_key: Some("anls"),
        compute: anls,
        note: None,
        reads_shared: false,
    },
    Metric {
        id: "exact_match",
        applies: Applies::NotSquad,
        item_key: Some("exact_match"),
        compute: |c| squad_pairs(c, false),
        note: None,
        reads_shared: false,
    },
    Metric {
        id: "f1",
        applies: Applies::NotSquad,
        item_key: Some("f1"),
        compute: |c| squad_pairs(c, true),
        note: None,
        reads_shared: true,
    },
    Metric {
        id: "exact_match",
        applies: Applies::Squad,
        item_key: Some("exact_match"),
        compute: |c| squad_total(c, false, None),
        note: None,
        reads_shared: false,
    },
    Metric {
        id: "f1",
        applies: Applies::Squad,
        item_key: Some("f1"),
        compute: |c| squad_total(c, true, None),
        note: None,
        reads_shared: true,
    },
    Metric {
        id: "HasAns_exact",
        applies: Applies::SquadV2,
        item_key: None,
        compute: |c| squad_total(c, false, Some(true)),
        note: None,
        reads_shared: true,
    },
    Metric {
        id: "HasAns_f1",
        applies: Applies::SquadV2,
        item_key: None,
        compute: |c| squad_total(c, true, Some(true)),
        note: None,
        reads_shared: true,
    },
    Metric {
        id: "NoAns_exact",
        applies: Applies::SquadV2,
        item_key: None,
        compute: |c| squad_total(c, false, Some(false)),
        note: None,
        reads_shared: true,
    },
    Metric {
        id: "NoAns_f1",
        applies: Applies::SquadV2,
        item_key: None,
        compute: |c| squad_total(c, true, Some(false)),
        note: None,
        reads_shared: true,
    },
    Metric {
        id: "jaccard",
        applies: Applies::OneRef,
        item_key: Some("jaccard"),
        compute: jaccard,
        note: None,
        reads_shared: false,
    },
    Metric {
        id: "bleu",
        applies: Applies::NotSquad,
        item_key: None,
        compute: |c| {
            generation(
                sacrebleu::corpus_bleu(c.hyps, c.refs, &BleuOptions::default()).map(|s| s.score),
            )
        },
        note: Some(|c| sacrebleu::bleu_signature(&BleuOptions::default(), &nrefs(c))),
        reads_shared: false,
    },
    Metric {
        id: "chrf",
        applies: Applies::NotSquad,
        item_key: None,
        compute: |c| chrf(c, 0),
        note: Some(|c| sacrebleu::chrf_signature(&ChrfOptions::chrf(), &nrefs(c))),
        reads_shared: false,
    },
    Metric {
        id: "chrf++",
        applies: Applies::NotSquad,
        item_key: None,
        compute: |c| chrf(c, 1),
        note: Some(|c| sacrebleu::chrf_signature(&ChrfOptions::chrf_plus_plus(), &nrefs(c))),
        reads_shared: true,
    },
    Metric {
        id: "ter",
        applies: Applies::NotSquad,
        item_key: None,
        compute: |c| {
            generation(
                sacrebleu::corpus_ter(c.hyps, c.refs, &TerOptions::default()).map(|s| s.score),
            )
        },
        note: Some(|c| sacrebleu::ter_signature(&TerOptions::default(), &nrefs(c))),
        reads_shared: false,
    },
    Metric {
        id: "rouge1",
        applies: Applies::NotSquad,
        item_key: Some("rouge1"),
        compute: |c| rouge_f(c, 0),
        note: None,
        reads_shared: false,
    },
    Metric {
        id: "rouge2",
        applies: Applies::NotSquad,
        item_key: Some("rouge2"),
        compute: |c| rouge_f(c, 1),
        note: None,
        reads_shared: true,
    },
    Metric {
        id: "rougeL",
        applies: Applies::NotSquad,
        item_key: Some("rougeL"),
        compute: |c| rouge_f(c, 2),
        note: None,
        reads_shared: true,
    },
    Metric {
        id: "rougeLsum",
        applies: Applies::NotSquad,
        item_key: Some("rougeLsum"),
        compute: |c| rouge_f(c, 3),
        note: None,
        reads_shared: true,
    },
];

/// Whether metric `m` applies to `pairs` (`many`: some item has several references).
pub fn applies(m: &Metric, squad: Option<squad::Version>, many: bool) -> bool {
    match m.applies {
        Applies::OneRef => squad.is_none() && !many,
        Applies::NotSquad => squad.is_none(),
        Applies::Squad => squad.is_some(),
        Applies::SquadV2 => squad == Some(squad::Version::V2),
    }
}

/// Every metric id, once each, in order.
pub fn ids() -> Vec<&'static str> {
    let mut out: Vec<&str> = Vec::new();
    for m in METRICS {
        if !out.contains(&m.id) {
            out.push(m.id);
        }
    }
    out
}

/// The metric ids option `metrics` asks for, the leaderboard `metric` among them (`None`: `all`, every metric
/// that applies); an id that is no metric's is the error.
pub fn requested(list: &List, metric: &str) -> Result<Option<Vec<String>>, String> {
    let items = list.items();
    if items.iter().any(|i| i == "all") {
        return Ok(None);
    }
    if items.is_empty() {
        return Err("option `metrics`: expected `all` or metric ids, comma-separated".into());
    }
    let known = ids();
    if let Some(bad) = items.iter().find(|i| !known.contains(&i.as_str())) {
        return Err(format!(
            "option `metrics`: `{bad}` is not a text metric; known: all, {}",
            known.join(", ")
        ));
    }
    let mut out = items;
    if !out.iter().any(|i| i == metric) {
        out.insert(0, metric.to_string());
    }
    Ok(Some(out))
}

/// Reference → hypothesis character substitutions, counted.
pub type Confusions = FxHashMap<(char, char), u64>;

/// The alignment counts and the character confusions (reference → hypothesis substitutions, counted) of every
/// single-reference item, the items shared among the cores in chunks of [`CHUNK`] ([`crate::par::map`]).
pub fn align_all(p: &Pairs) -> (Vec<Counts>, Vec<Counts>, Confusions) {
    let n = p.ids.len().min(p.refs.len()).min(p.hyps.len());
    let parts = crate::par::map(
        n.div_ceil(CHUNK),
        || (),
        |_, k| align_range(p, k * CHUNK..((k + 1) * CHUNK).min(n)),
    );
    let mut confusions = FxHashMap::default();
    let mut chars = Vec::with_capacity(n);
    let mut words = Vec::with_capacity(n);
    for (c, w, f) in parts {
        chars.extend(c);
        words.extend(w);
        for (k, v) in f {
            *confusions.entry(k).or_insert(0) += v;
        }
    }
    (chars, words, confusions)
}

/// Items aligned by one job of [`align_all`].
const CHUNK: usize = 4096;

fn align_range(p: &Pairs, range: std::ops::Range<usize>) -> (Vec<Counts>, Vec<Counts>, Confusions) {
    let mut confusions = FxHashMap::default();
    let mut chars = Vec::with_capacity(range.len());
    let mut words = Vec::with_capacity(range.len());
    let (mut rc, mut hc) = (Vec::new(), Vec::new());
    for (r, h) in p.refs[range.clone()].iter().zip(&p.hyps[range]) {
        let r = &r[0];
        jiwer::chars_into(r, &mut rc);
        jiwer::chars_into(h, &mut hc);
        let mut c = Counts::default();
        edit::align(&rc, &hc, &mut |op, i, j| match op {
            Op::Replace => {
                c.substitutions += 1;
                *confusions.entry((rc[i], hc[j])).or_insert(0) += 1;
            }
            Op::Delete => c.deletions += 1,
            Op::Insert => c.insertions += 1,
            Op::Equal => {}
        });
        c.hits = rc.len() as u64 - c.substitutions - c.deletions;
        chars.push(c);
        words.push(jiwer::word_counts(r, h));
    }
    (chars, words, confusions)
}

/// Corpus-level jiwer rate (`corpus`) or the mean of the items' rates; per item, each item's rate.
fn rate(counts: &[Counts], corpus: bool) -> Computed {
    let per: Vec<f64> = counts.iter().map(jiwer::rate).collect();
    let value = if corpus {
        let (mut total, mut hyp) = (Counts::default(), 0);
        for c in counts {
            total.add(c);
            hyp += jiwer::hyp_tokens(c);
        }
        Some(jiwer::measures(&total, hyp).wer)
    } else {
        py_mean(per.iter().copied())
    };
    Computed {
        value: value.filter(|_| !counts.is_empty()),
        per_item: Some(per),
    }
}

fn words(c: &Corpus, f: fn(&jiwer::Measures) -> f64) -> Computed {
    let (mut total, mut hyp) = (Counts::default(), 0);
    for w in &c.words {
        total.add(w);
        hyp += jiwer::hyp_tokens(w);
    }
    let value = (!c.words.is_empty()).then(|| f(&jiwer::measures(&total, hyp)));
    Computed {
        value,
        per_item: None,
    }
}

/// 1 − NED; an item whose texts `str.strip()` leaves as they are reuses its character alignment's distance
/// and lengths (jiwer's characters are the stripped ones).
fn ned(c: &Corpus) -> Computed {
    let unstripped = |s: &str| strip(s).len() == s.len();
    let nl: Vec<f64> = c
        .refs
        .iter()
        .zip(c.hyps)
        .enumerate()
        .map(|(k, (r, h))| match c.chars.get(k) {
            Some(n) if unstripped(&r[0]) && unstripped(h) => similarity::normalized_of(
                n.errors(),
                n.hits + n.substitutions + n.deletions,
                jiwer::hyp_tokens(n),
            ),
            _ => similarity::normalized_distance(&r[0], h),
        })
        .collect();
    let value = py_mean(nl.iter().copied()).map(|m| 1.0 - m);
    Computed {
        value,
        per_item: Some(nl.iter().map(|d| 1.0 - d).collect()),
    }
}

fn anls(c: &Corpus) -> Computed {
    let per: Vec<f64> = c
        .refs
        .iter()
        .zip(c.hyps)
        .map(|(r, h)| similarity::anls(h, r, c.anls_threshold).unwrap_or(f64::NAN))
        .collect();
    let value = if per.iter().any(|v| v.is_nan()) {
        None
    } else {
        py_mean(per.iter().copied())
    };
    Computed {
        value,
        per_item: Some(per),
    }
}

fn jaccard(c: &Corpus) -> Computed {
    let per: Vec<f64> = c
        .refs
        .iter()
        .zip(c.hyps)
        .map(|(r, h)| similarity::jaccard(&r[0], h).unwrap_or(f64::NAN))
        .collect();
    let value = if per.iter().any(|v| v.is_nan()) {
        None
    } else {
        py_mean(per.iter().copied())
    };
    Computed {
        value,
        per_item: Some(per),
    }
}

/// SQuAD v2.0's per-question (exact, f1), for every item.
fn squad_scores<'c>(c: &'c Corpus) -> &'c [(f64, f64)] {
    c.shared.squad.get_or_init(|| {
        let v = c.squad.map_or(squad::Version::V2, |s| s.0);
        c.refs
            .iter()
            .zip(c.hyps)
            .map(|(r, h)| squad::score(h, r, v).unwrap_or((f64::NAN, f64::NAN)))
            .collect()
    })
}

/// Outside the `squad` layout: the mean over items of v2.0's per-question score, ×100 as the script prints.
fn squad_pairs(c: &Corpus, f1: bool) -> Computed {
    let per: Vec<f64> = squad_scores(c)
        .iter()
        .map(|&(e, f)| if f1 { f } else { e })
        .collect();
    let total = per.iter().fold(0.0, |s, v| s + v);
    let value = (!per.is_empty() && total.is_finite()).then(|| 100.0 * total / per.len() as f64);
    Computed {
        value,
        per_item: Some(per),
    }
}

/// The scripts' totals: `100.0 * sum / total` over every question, or over those with (`Some(true)`) or
/// without (`Some(false)`) an answer (v2.0's `HasAns_*` / `NoAns_*`; `None` when there are none).
fn squad_total(c: &Corpus, f1: bool, has: Option<bool>) -> Computed {
    let scores = squad_scores(c);
    let per: Vec<f64> = scores
        .iter()
        .map(|&(e, f)| if f1 { f } else { e })
        .collect();
    let has_answer = c.squad.map_or(&[][..], |s| s.1);
    let (mut sum, mut n) = (0.0, 0usize);
    for (k, v) in per.iter().enumerate() {
        if has.is_none_or(|want| has_answer.get(k) == Some(&want)) {
            sum += v;
            n += 1;
        }
    }
    let value = (n > 0 && sum.is_finite()).then(|| 100.0 * sum / n as f64);
    Computed {
        value,
        per_item: has.is_none().then_some(per),
    }
}

/// A sacreBLEU corpus score (0–100, as `corpus_score(...).score`); `None` where sacreBLEU raises.
fn generation<E>(score: Result<f64, E>) -> Computed {
    Computed {
        value: score.ok(),
        per_item: None,
    }
}

/// sacreBLEU's `nrefs` signature field: the references per item, or `var` when it varies.
fn nrefs(c: &Corpus) -> String {
    let n = c.refs.first().map_or(0, Vec::len);
    if c.refs.iter().all(|r| r.len() == n) {
        n.to_string()
    } else {
        "var".to_string()
    }
}

/// sacreBLEU's chrF (`which` 0) or chrF++ (1), both from one count of each segment's character n-grams.
fn chrf(c: &Corpus, which: usize) -> Computed {
    let both = c.shared.chrf.get_or_init(|| {
        let opts = [ChrfOptions::chrf(), ChrfOptions::chrf_plus_plus()];
        sacrebleu::corpus_chrf_all(c.hyps, c.refs, &opts)
            .into_iter()
            .map(|r| r.ok().map(|s| s.score))
            .collect()
    });
    Computed {
        value: both.get(which).copied().flatten(),
        per_item: None,
    }
}

/// The ROUGE types of the table, in the order [`rouge_f`] indexes them.
const ROUGE_TYPES: [RougeType; 4] = [
    RougeType::N(1),
    RougeType::N(2),
    RougeType::L,
    RougeType::Lsum,
];

/// rouge-score's F-measure of `ROUGE_TYPES[k]` (`RougeScorer([type], use_stemmer=False)`; the four types are
/// scored together, each text tokenized once, each type's best reference its own): the mean over items of each
/// item's score, not the library's random bootstrap aggregate.
fn rouge_f(c: &Corpus, k: usize) -> Computed {
    let all = c.shared.rouge.get_or_init(|| {
        let scorer = RougeScorer::new(ROUGE_TYPES.to_vec(), false);
        rouge::corpus_rouge(&scorer, c.refs, c.hyps)
    });
    match all {
        Some(r) => Computed {
            value: r.means.get(k).map(|v| v.fmeasure),
            per_item: Some(
                r.items
                    .iter()
                    .map(|v| v.get(k).map_or(0.0, |x| x.fmeasure))
                    .collect(),
            ),
        },
        None => Computed {
            value: None,
            per_item: None,
        },
    }
}
