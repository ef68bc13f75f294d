//! `dropscore kws convert`: ICFHR'14 XML ground truth and results as TREC qrels and run (docs/specs/kws.md 2.8).

use super::usage;
use clap::Parser;
use dropscore::input::disk::io_words;
use dropscore::input::{DiskFile, FileSet, Input, Limits};
use dropscore::render;
use std::io::Write;
use std::path::Path;
use std::rc::Rc;

#[derive(Parser, Debug)]
#[command(
    name = "dropscore kws convert",
    about = "Convert ICFHR'14 XML GT and results to TREC qrels and run (docs/specs/kws.md 2.8)."
)]
pub struct ConvertArgs {
    #[arg(long)]
    gt: Option<String>,
    #[arg(long)]
    pred: Option<String>,
    /// bin (rel 1), graded10 (round(Relevance×10)) or float (Relevance as written).
    #[arg(long, default_value = "bin")]
    flavour: String,
    #[arg(long)]
    out_qrels: Option<String>,
    #[arg(long)]
    out_run: Option<String>,
    /// Run tag (6th field).
    #[arg(long, default_value = "run")]
    tag: String,
}

pub fn convert(c: ConvertArgs) -> i32 {
    use dropscore::protocols::kws::convert::{qrels, run, Flavour};
    let flavour = match Flavour::parse(&c.flavour) {
        Some(f) => f,
        None => return usage("--flavour must be bin, graded10 or float"),
    };
    let mut status = 0;
    let mut jobs: Vec<(&Option<String>, &Option<String>, bool)> =
        vec![(&c.gt, &c.out_qrels, true), (&c.pred, &c.out_run, false)];
    if c.gt.is_none() && c.pred.is_none() {
        return usage("give --gt (with --out-qrels) and/or --pred (with --out-run)");
    }
    for (input, output, is_gt) in jobs.drain(..) {
        let Some(input) = input else { continue };
        let blob = match DiskFile::open(Path::new(input)) {
            Ok(b) => b,
            Err(e) => return usage(&format!("{input}: {}", io_words(&e))),
        };
        let files = FileSet::build(
            vec![Input {
                path: input.clone(),
                role: None,
                blob: Rc::new(blob),
            }],
            &Limits::default(),
        );
        let Some(entry) = files.entries.first() else {
            return usage(&format!("{input}: nothing to read"));
        };
        let mut sink: Box<dyn Write> = match output {
            Some(f) => match std::fs::File::create(f) {
                Ok(f) => Box::new(std::io::BufWriter::new(f)),
                Err(e) => return usage(&format!("{f}: {}", io_words(&e))),
            },
            None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
        };
        let diags = if is_gt {
            qrels(entry, flavour, &mut sink)
        } else {
            run(entry, &c.tag, &mut sink)
        };
        let _ = sink.flush();
        for d in &diags {
            eprint!("{}", render::diagnostic(d));
            if d.is_error() {
                status = 1;
            }
        }
    }
    status
}
