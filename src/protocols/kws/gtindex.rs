//! The ground truth of the XML family, indexed for matching result boxes (specs/kws.md 3.1, 4 #2, #8).

use crate::diag::{Diagnostic, Diags};
use crate::formats::kws_xml::{Block, Word};
use crate::report::Mode;
use std::collections::HashMap;

type BBox = (u32, u32, u32, u32);

pub struct GtQuery {
    /// Relevant entries sorted by box: (box, document).
    entries: Vec<(BBox, String)>,
    /// R: the number of relevant entries (official: every `<word>`, whatever its Relevance).
    pub relevant: usize,
    pub line: u64,
    /// Every GT `<word>` as a TREC qrels entry would have it (specs/kws.md 2.8): (box, document, graded10
    /// gain), sorted; for the "trec_eval-equivalent" reading of section 3.3.
    all: Vec<(BBox, String, i64)>,
}

pub struct Match {
    pub hit: bool,
    /// Some matching GT entry is on the same document.
    pub same_document: bool,
}

impl GtQuery {
    /// The graded10 gain of the GT entry with this docno (document and box), if any: `bin` qrels give it
    /// rel 1, `graded10` qrels round(Relevance × 10).
    pub fn qrels_gain(&self, w: &Word) -> Option<i64> {
        let key = w.bbox();
        let start = self.all.partition_point(|(b, _, _)| *b < key);
        self.all[start..]
            .iter()
            .take_while(|(b, _, _)| *b == key)
            .find(|(_, d, _)| *d == w.document)
            .map(|(_, _, g)| *g)
    }

    /// The graded10 gains of every GT entry (the query's qrels).
    pub fn qrels_gains(&self) -> impl Iterator<Item = i64> + '_ {
        self.all.iter().map(|(_, _, g)| *g)
    }

    /// rusteval `tokens_match`: same x, y, width, height; with `match_document`, also the same document.
    pub fn find(&self, w: &Word, match_document: bool) -> Match {
        let key = w.bbox();
        let start = self.entries.partition_point(|(b, _)| *b < key);
        let mut any = false;
        let mut same = false;
        for (b, doc) in &self.entries[start..] {
            if *b != key {
                break;
            }
            any = true;
            if *doc == w.document {
                same = true;
                break;
            }
        }
        Match {
            hit: if match_document { same } else { any },
            same_document: same,
        }
    }
}

pub struct GtIndex {
    map: HashMap<String, GtQuery>,
    order: Vec<String>,
}

impl GtIndex {
    pub fn build(
        blocks: Vec<Block>,
        file: &str,
        mode: Mode,
        threshold: f64,
        diags: &mut Diags,
    ) -> GtIndex {
        let mut map: HashMap<String, GtQuery> = HashMap::new();
        let mut order = Vec::new();
        for b in blocks {
            if let Some(old) = map.get(&b.query) {
                if mode == Mode::Official {
                    diags.push(
                        Diagnostic::warning("kws.xml.duplicate_query", format!("GT query `{}` appears twice (lines {} and {}): the last block wins", b.query, old.line, b.line))
                            .file(file)
                            .line(b.line)
                            .hint("Keep one block per query.")
                            .official("rusteval keeps the last block"),
                    );
                }
            } else {
                order.push(b.query.clone());
            }
            let mut entries = Vec::with_capacity(b.words.len());
            let mut all: Vec<(BBox, String, i64)> = b
                .words
                .iter()
                .map(|w| {
                    (
                        w.bbox(),
                        w.document.clone(),
                        crate::protocols::kws::convert::rel_field(
                            w,
                            crate::protocols::kws::convert::Flavour::Graded10,
                        )
                        .parse()
                        .unwrap_or(10),
                    )
                })
                .collect();
            all.sort();
            for w in &b.words {
                let rel = w.relevance.unwrap_or(1.0);
                if mode == Mode::Corrected && rel <= threshold {
                    diags.push(
                        Diagnostic::warning("kws.gt.non_relevant", format!("GT entry of `{}` has Relevance {rel} ≤ {threshold}: not relevant", b.query))
                            .file(file)
                            .line(w.line)
                            .hint("Entries with Relevance above relevance_threshold are relevant; this one is not counted.")
                            .official("rusteval panics on Relevance 0 and otherwise counts every entry"),
                    );
                    continue;
                }
                entries.push((w.bbox(), w.document.clone()));
            }
            entries.sort();
            let relevant = entries.len();
            if relevant == 0 {
                diags.push(
                    Diagnostic::warning(
                        "kws.gt.empty_query",
                        format!("GT query `{}` has no relevant entry", b.query),
                    )
                    .file(file)
                    .line(b.line)
                    .hint("Remove the empty block; see option empty_gt_query (nan, exclude, zero).")
                    .official("0/0 = NaN for this query, and a NaN mean"),
                );
            }
            map.insert(
                b.query.clone(),
                GtQuery {
                    entries,
                    relevant,
                    line: b.line,
                    all,
                },
            );
        }
        GtIndex { map, order }
    }

    pub fn get(&self, q: &str) -> Option<&GtQuery> {
        self.map.get(q)
    }

    /// Query ids in GT file order (of first appearance).
    pub fn queries(&self) -> impl Iterator<Item = &str> {
        self.order.iter().map(String::as_str)
    }
}
