//! `dropscore kws convert`: ICFHR'14 XML → TREC qrels and run (docs/specs/kws.md 2.8). The XML is read by name
//! (the corrected reader); results are streamed block by block.

use crate::diag::{Diagnostic, Diags};
use crate::formats::kws_xml::{self, Block, Kind, Word};
use crate::input::Entry;
use std::io::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    /// `1` for every entry.
    Bin,
    /// round(Relevance × 10).
    Graded10,
    /// The Relevance string as written.
    Float,
}

impl Flavour {
    pub fn parse(s: &str) -> Option<Flavour> {
        match s {
            "bin" => Some(Flavour::Bin),
            "graded10" => Some(Flavour::Graded10),
            "float" => Some(Flavour::Float),
            _ => None,
        }
    }
}

/// docno = `<document>_<x>_<y>_<width>_<height>`.
pub fn docno(w: &Word) -> String {
    format!("{}_{}_{}_{}_{}", w.document, w.x, w.y, w.width, w.height)
}

/// The qrels `rel` field of a GT entry in a flavour.
pub fn rel_field(w: &Word, flavour: Flavour) -> String {
    match flavour {
        Flavour::Bin => "1".into(),
        Flavour::Graded10 => format!("{}", (w.relevance.unwrap_or(1.0) * 10.0).round() as i64),
        Flavour::Float => w.relevance_text.clone().unwrap_or_else(|| "1".into()),
    }
}

fn write_err(e: std::io::Error) -> Diagnostic {
    Diagnostic::error("output.write_error", format!("cannot write: {e}"))
}

/// Writes the qrels of a GT file, in GT file order.
pub fn qrels(gt: &Entry, flavour: Flavour, out: &mut dyn Write) -> Vec<Diagnostic> {
    let mut diags = Diags::new();
    let mut failed: Option<Diagnostic> = None;
    convert(gt, Kind::Gt, &mut diags, &mut |b: Block, _d: &mut Diags| {
        for w in &b.words {
            if failed.is_none() {
                if let Err(e) =
                    writeln!(out, "{} 0 {} {}", b.query, docno(w), rel_field(w, flavour))
                {
                    failed = Some(write_err(e));
                }
            }
        }
    });
    diags.extend(failed);
    diags.finish()
}

/// Writes a run: rank = 1-based XML position, sim = N − rank + 1.
pub fn run(res: &Entry, tag: &str, out: &mut dyn Write) -> Vec<Diagnostic> {
    let mut diags = Diags::new();
    let mut failed: Option<Diagnostic> = None;
    convert(
        res,
        Kind::Results,
        &mut diags,
        &mut |b: Block, _d: &mut Diags| {
            let n = b.words.len();
            for (i, w) in b.words.iter().enumerate() {
                if failed.is_none() {
                    if let Err(e) =
                        writeln!(out, "{} Q0 {} {} {} {tag}", b.query, docno(w), i + 1, n - i)
                    {
                        failed = Some(write_err(e));
                    }
                }
            }
        },
    );
    diags.extend(failed);
    diags.finish()
}

fn convert(entry: &Entry, kind: Kind, diags: &mut Diags, on_block: &mut kws_xml::OnBlock) {
    match entry.buffered() {
        Ok(r) => kws_xml::read(r, &entry.path, kind, diags, &mut |_| {}, on_block),
        Err(e) => diags.push(Diagnostic::read_error(&entry.path, e)),
    }
}
