//! `dropscore kws convert` (native only): ICFHR'14 XML ground truth and results written as TREC qrels and run
//! ([`super::convert`], docs/specs/kws.md 2.8), to files or to standard output.

use super::convert::{qrels, run, Flavour};
use crate::diag::{io_words, Diagnostic};
use crate::input::{DiskFile, FileSet, Input, Limits};
use crate::protocols::commands::{Args, Command, Flag};
use std::io::Write;
use std::path::Path;
use std::rc::Rc;

pub const CONVERT: Command = Command {
    name: "convert",
    about: "Convert ICFHR'14 XML GT and results to TREC qrels and run (docs/specs/kws.md 2.8).",
    summary: "ICFHR'14 XML -> TREC qrels/run",
    flags: &[
        Flag {
            name: "gt",
            help: "",
            default: None,
        },
        Flag {
            name: "pred",
            help: "",
            default: None,
        },
        Flag {
            name: "flavour",
            help: "bin (rel 1), graded10 (round(Relevance×10)) or float (Relevance as written).",
            default: Some("bin"),
        },
        Flag {
            name: "out_qrels",
            help: "",
            default: None,
        },
        Flag {
            name: "out_run",
            help: "",
            default: None,
        },
        Flag {
            name: "tag",
            help: "Run tag (6th field).",
            default: Some("run"),
        },
    ],
    run: convert,
};

/// The GT to qrels (`--gt`, `--out-qrels`) and/or the results to a run (`--pred`, `--out-run`).
fn convert(a: &Args) -> Result<Vec<Diagnostic>, String> {
    let flavour = Flavour::parse(a.get("flavour").unwrap_or("bin"))
        .ok_or("--flavour must be bin, graded10 or float")?;
    let tag = a.get("tag").unwrap_or("run");
    if a.get("gt").is_none() && a.get("pred").is_none() {
        return Err("give --gt (with --out-qrels) and/or --pred (with --out-run)".into());
    }
    let mut diags = Vec::new();
    for (input, output, is_gt) in [
        (a.get("gt"), a.get("out_qrels"), true),
        (a.get("pred"), a.get("out_run"), false),
    ] {
        let Some(input) = input else { continue };
        let blob =
            DiskFile::open(Path::new(input)).map_err(|e| format!("{input}: {}", io_words(&e)))?;
        let files = FileSet::build(
            vec![Input {
                path: input.to_string(),
                role: None,
                blob: Rc::new(blob),
            }],
            &Limits::default(),
        );
        let entry = files
            .entries
            .first()
            .ok_or_else(|| format!("{input}: nothing to read"))?;
        let mut sink: Box<dyn Write> = match output {
            Some(f) => Box::new(std::io::BufWriter::new(
                std::fs::File::create(f).map_err(|e| format!("{f}: {}", io_words(&e)))?,
            )),
            None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
        };
        diags.extend(if is_gt {
            qrels(entry, flavour, &mut sink)
        } else {
            run(entry, tag, &mut sink)
        });
        let _ = sink.flush();
    }
    Ok(diags)
}
