//! The ground truth of the XML family, indexed for matching result boxes (docs/specs/kws.md 3.1, 4 #2, #8).

use crate::diag::{Diagnostic, Diags};
use crate::formats::kws_xml::{Block, Word};
use crate::protocols::kws::convert::{rel_field, Flavour};
use crate::report::Mode;
use std::collections::HashMap;

type BBox = (u32, u32, u32, u32);

pub struct GtQuery {
    /// Every GT `<word>`, sorted by (box, document): one binary search per result item answers both the
    /// rusteval match and the TREC qrels lookup (docno = document and box, docs/specs/kws.md 2.8).
    all: Vec<GtEntry>,
    /// R: the number of relevant entries (official: every `<word>`, whatever its Relevance).
    pub relevant: usize,
    pub line: u64,
}

struct GtEntry {
    bbox: BBox,
    document: std::rc::Rc<str>,
    /// graded10 gain: round(Relevance × 10), 10 when absent.
    gain: i64,
    /// Counts in R (corrected mode: Relevance > relevance_threshold).
    relevant: bool,
}

pub struct Match {
    /// rusteval `tokens_match` against a relevant entry: same x, y, width, height (and, with
    /// `match_document`, the same document).
    pub hit: bool,
    /// Some relevant entry with this box is on the same document.
    pub same_document: bool,
    /// The graded10 gain of the entry with this docno, if the TREC qrels would judge it.
    pub gain: Option<i64>,
}

impl GtQuery {
    pub fn find(&self, w: &Word, match_document: bool) -> Match {
        let key = w.bbox();
        let start = self.all.partition_point(|e| e.bbox < key);
        let (mut any, mut same, mut gain) = (false, false, None);
        for e in self.all[start..].iter().take_while(|e| e.bbox == key) {
            let same_doc = e.document == w.document;
            if same_doc && gain.is_none() {
                gain = Some(e.gain);
            }
            if e.relevant {
                any = true;
                same |= same_doc;
            }
        }
        Match {
            hit: if match_document { same } else { any },
            same_document: same,
            gain,
        }
    }

    /// The graded10 gains of every GT entry (the query's qrels).
    pub fn qrels_gains(&self) -> impl Iterator<Item = i64> + '_ {
        self.all.iter().map(|e| e.gain)
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
            let mut all = Vec::with_capacity(b.words.len());
            for w in &b.words {
                let rel = w.relevance.unwrap_or(1.0);
                let relevant = mode == Mode::Official || rel > threshold;
                if !relevant {
                    diags.push(
                        Diagnostic::warning(
                            "kws.gt.non_relevant",
                            format!("GT entry of `{}` has Relevance {rel} ≤ {threshold}: not relevant", b.query),
                        )
                        .file(file)
                        .line(w.line)
                        .hint("Entries with Relevance above relevance_threshold are relevant; this one is not counted.")
                        .official("rusteval crashes on a ground-truth entry with Relevance 0, and otherwise counts every entry as relevant"),
                    );
                }
                let gain = rel_field(w, Flavour::Graded10).parse().unwrap_or(10);
                all.push(GtEntry {
                    bbox: w.bbox(),
                    document: w.document.clone(),
                    gain,
                    relevant,
                });
            }
            all.sort_by(|x, y| (x.bbox, &x.document).cmp(&(y.bbox, &y.document)));
            let relevant = all.iter().filter(|e| e.relevant).count();
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
                    all,
                    relevant,
                    line: b.line,
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
