//! trec_eval measures (usnistgov/trec_eval v9.0.8 / v10.0, `m_*.c`), one file per measure family.
//! Input: one query's ranking after sorting and depth truncation, with the qrels judgements of that query.
//! Specification: specs/kws.md section 3.2.

/// One query, ready to be measured.
#[derive(Clone, Debug, Default)]
pub struct Judged {
    /// For each retrieved document, in rank order (rank 1 first): its qrels `rel` value if the document is
    /// judged for this query, `None` if it is absent from the qrels.
    pub ranked: Vec<Option<i64>>,
    /// Every qrels `rel` value of this query (one per judged document, any order, negatives included).
    pub qrels: Vec<i64>,
    /// trec_eval `-l`: a document is relevant iff rel >= relevance_level.
    pub relevance_level: i64,
}
