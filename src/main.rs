//! The `dropscore` command line: a thin shell over the library (specs README, "The command line").
//! Exit status: 0 scored (warnings allowed), 1 input errors (all printed, located), 2 usage errors.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::run(std::env::args().collect()));
}

#[cfg(not(target_arch = "wasm32"))]
#[path = "cli/program.rs"]
mod program;

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use crate::program::{self, load};
    use clap::{Parser, ValueEnum};
    use dropscore::input::{DiskFile, FileSet, Input, Limits, Role};
    use dropscore::protocols::{self, Progress, Request};
    use dropscore::{render, Mode, Report};
    use std::io::{IsTerminal, Write};
    use std::path::Path;
    use std::rc::Rc;

    #[derive(Parser, Debug)]
    #[command(
        name = "dropscore",
        about = "Official competition scores, computed locally.",
        after_help = "Other commands:\n  dropscore list                      protocols, options, defaults\n  dropscore kws convert --help        ICFHR'14 XML -> TREC qrels/run\n  dropscore score INPUT_DIR OUTPUT_DIR Codabench/Codalab scoring program (dropscore score --help)\n  dropscore config dropscore.toml      check a competition config, print its JSON form (for the page)"
    )]
    struct ScoreArgs {
        /// Protocol id (see `dropscore list`).
        protocol: String,
        /// Ground-truth files, folders or zips.
        #[arg(long, num_args = 1.., required = true)]
        gt: Vec<String>,
        /// Prediction files, folders or zips.
        #[arg(long, num_args = 1.., required = true)]
        pred: Vec<String>,
        /// official (default), corrected, or both (prints both and their differences).
        #[arg(long, default_value = "official")]
        mode: String,
        /// Option NAME=VALUE (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Write the output here instead of standard output.
        #[arg(long)]
        out: Option<String>,
        /// Do not print diagnostics on standard error.
        #[arg(long, short)]
        quiet: bool,
        /// Russian lemmatiser asset for aij2022 (default: $DROPSCORE_LEMMAS, ru-lemmas.bin next to the
        /// executable, then the repository's www/assets/ru-lemmas.bin).
        #[arg(long, value_name = "FILE")]
        lemmas: Option<String>,
    }

    #[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
    enum Format {
        Text,
        Json,
        Tsv,
        Csv,
    }

    #[derive(Parser, Debug)]
    #[command(
        name = "dropscore kws convert",
        about = "Convert ICFHR'14 XML GT and results to TREC qrels and run (specs/kws.md 2.8)."
    )]
    struct ConvertArgs {
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

    pub fn run(args: Vec<String>) -> i32 {
        match args.get(1).map(String::as_str) {
            Some("list") => list(&args[2..]),
            // Hidden developer commands: the lemmatiser's set-up and its parity tests.
            Some("lemma-build") => lemma_build(&args[2..]),
            Some("lemma") => lemma(&args[2..]),
            Some("score") => program::score_cmd(&args[2..]),
            Some("config") => program::config_cmd(&args[2..]),
            Some("kws") if args.get(2).map(String::as_str) == Some("convert") => {
                let mut a = vec!["dropscore kws convert".to_string()];
                a.extend(args[3..].iter().cloned());
                match ConvertArgs::try_parse_from(a) {
                    Ok(c) => convert(c),
                    Err(e) => exit_clap(e),
                }
            }
            _ => match ScoreArgs::try_parse_from(&args) {
                Ok(a) => score(a),
                Err(e) => exit_clap(e),
            },
        }
    }

    fn exit_clap(e: clap::Error) -> i32 {
        let _ = e.print();
        if e.use_stderr() {
            2
        } else {
            0
        }
    }

    fn list(rest: &[String]) -> i32 {
        let all = protocols::list();
        if rest.iter().any(|a| a == "--format=json" || a == "json") {
            println!("{}", serde_json::to_string_pretty(&all).unwrap_or_default());
            return 0;
        }
        println!("Every protocol also accepts (never listed in report options):");
        for o in protocols::options::SHELL_OPTIONS {
            println!(
                "    --set {}=<{}>  default {}: {}",
                o.name, o.kind, o.default_official, o.help
            );
        }
        for p in all {
            println!(
                "{}\t{}{}",
                p.id,
                p.name,
                if p.built { "" } else { " (not built yet)" }
            );
            for o in p.options {
                println!(
                    "    --set {}=<{}>  default {} (official) / {} (corrected): {}",
                    o.name, o.kind, o.default_official, o.default_corrected, o.help
                );
            }
        }
        0
    }

    /// Shows progress on a terminal only.
    struct StderrProgress {
        on: bool,
    }
    impl Progress for StderrProgress {
        fn update(&mut self, fraction: f64, phase: &str) {
            if self.on {
                eprint!("\r\x1b[K{:3.0}% {phase}", fraction * 100.0);
                if fraction >= 1.0 {
                    eprint!("\r\x1b[K");
                }
            }
        }
    }

    fn parse_set(set: &[String]) -> Result<Vec<(String, String)>, String> {
        set.iter()
            .map(|s| match s.split_once('=') {
                Some((k, v)) => Ok((k.trim().to_string(), v.to_string())),
                None => Err(format!("--set expects NAME=VALUE, found `{s}`")),
            })
            .collect()
    }

    fn score(a: ScoreArgs) -> i32 {
        let set = match parse_set(&a.set) {
            Ok(s) => s,
            Err(e) => return usage(&e),
        };
        let modes: Vec<Mode> = match a.mode.as_str() {
            "both" => vec![Mode::Official, Mode::Corrected],
            m => match Mode::parse(m) {
                Some(m) => vec![m],
                None => {
                    return usage(&format!(
                        "--mode must be official, corrected or both, not `{m}`"
                    ))
                }
            },
        };
        let mut inputs = Vec::new();
        if let Err(e) =
            load(&a.gt, Role::Gt, &mut inputs).and_then(|_| load(&a.pred, Role::Pred, &mut inputs))
        {
            return usage(&e);
        }
        option_files(&a.protocol, &set, &mut inputs);
        let files = FileSet::build(inputs, &Limits::from_set(&set));
        let lemmatizer = if a.protocol == "aij2022" {
            match load_lemmatizer(a.lemmas.as_deref()) {
                Ok(l) => l,
                Err(e) => return usage(&e),
            }
        } else {
            None
        };
        let mut reports = Vec::new();
        for mode in &modes {
            let req = Request {
                set: set.clone(),
                lemmatizer: lemmatizer.clone(),
                ..Request::new(*mode)
            };
            let mut progress = StderrProgress {
                on: std::io::stderr().is_terminal() && !a.quiet,
            };
            match protocols::score(&a.protocol, &files, &req, &mut progress) {
                Ok(r) => reports.push(r),
                Err(e) => return usage(&e.0),
            }
        }
        let out = render_all(&reports, a.format);
        if !a.quiet {
            let mut err = std::io::stderr().lock();
            for d in &reports[0].diagnostics {
                let _ = err.write_all(render::diagnostic(d).as_bytes());
            }
        }
        let written = match &a.out {
            Some(f) => std::fs::write(f, out).map_err(|e| format!("{f}: {e}")),
            None => std::io::stdout()
                .lock()
                .write_all(out.as_bytes())
                .map_err(|e| e.to_string()),
        };
        if let Err(e) = written {
            eprintln!("dropscore: {e}");
            return 1;
        }
        if reports[0].has_errors() {
            1
        } else {
            0
        }
    }

    /// Options of type `file`/`files` name files; a value that is a path on disk and not already an input is
    /// added as an input without a role (the protocol finds it by name).
    fn option_files(protocol: &str, set: &[(String, String)], inputs: &mut Vec<Input>) {
        let Some(info) = protocols::info(protocol) else {
            return;
        };
        for (k, v) in set {
            let Some(spec) = info.options.iter().find(|o| o.name == k) else {
                continue;
            };
            if spec.kind != "file" && spec.kind != "files" {
                continue;
            }
            for p in v.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                if inputs.iter().any(|i| i.path == p) || !Path::new(p).is_file() {
                    continue;
                }
                if let Ok(blob) = DiskFile::open(Path::new(p)) {
                    inputs.push(Input {
                        path: p.to_string(),
                        role: None,
                        blob: Rc::new(blob),
                    });
                }
            }
        }
    }

    fn render_all(reports: &[Report], format: Format) -> String {
        let one = |r: &Report| match format {
            Format::Text => render::text(r),
            Format::Json => r.to_json(),
            Format::Tsv => render::tsv(r),
            Format::Csv => render::csv(r),
        };
        if reports.len() == 1 {
            return one(&reports[0]);
        }
        let diffs = protocols::explain(&reports[0], &reports[1]);
        if format == Format::Json {
            let v = serde_json::json!({ "official": reports[0], "corrected": reports[1], "differences": diffs });
            return format!("{v}\n");
        }
        let mut s = format!(
            "# official\n{}\n# corrected\n{}\n# differences\n",
            one(&reports[0]),
            one(&reports[1])
        );
        for d in diffs {
            s.push_str(&format!("- {d}\n"));
        }
        s
    }

    /// The first asset found (see `lemma::asset_candidates`); an explicit `--lemmas` must load.
    pub(crate) fn load_lemmatizer(
        explicit: Option<&str>,
    ) -> Result<Option<std::sync::Arc<dropscore::lemma::Lemmatizer>>, String> {
        let Some(path) = dropscore::lemma::asset_candidates(explicit)
            .into_iter()
            .next()
        else {
            return match explicit {
                Some(e) => Err(format!("--lemmas {e}: no such file")),
                None => Ok(None),
            };
        };
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        dropscore::lemma::Lemmatizer::from_bytes(&bytes)
            .map(|l| Some(std::sync::Arc::new(l)))
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// `dropscore lemma-build DIR OUT`: packs tools/lemmas/convert.py's tables into the asset.
    fn lemma_build(rest: &[String]) -> i32 {
        let [dir, out] = rest else {
            return usage("usage: dropscore lemma-build CONVERTED_DIR OUT_FILE");
        };
        match dropscore::lemma::build::build(Path::new(dir)) {
            Ok(bytes) => match std::fs::write(out, &bytes) {
                Ok(()) => {
                    eprintln!("lemma-build: {out}: {} bytes", bytes.len());
                    0
                }
                Err(e) => usage(&format!("{out}: {e}")),
            },
            Err(e) => usage(&e),
        }
    }

    /// `dropscore lemma [--lemmas FILE] [--bench]`: one word a line on standard input, its normal form a
    /// line on standard output (the parity tests' entry); `--bench` prints only the words per second.
    fn lemma(rest: &[String]) -> i32 {
        use std::io::Read;
        let mut explicit = None;
        let mut bench = false;
        let mut it = rest.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--lemmas" => explicit = it.next().map(String::as_str),
                "--bench" => bench = true,
                _ => return usage("usage: dropscore lemma [--lemmas FILE] [--bench] < words"),
            }
        }
        let lem = match load_lemmatizer(explicit) {
            Ok(Some(l)) => l,
            Ok(None) => return usage("no lemmatiser asset found (run scripts/ensure-tools)"),
            Err(e) => return usage(&e),
        };
        let mut input = String::new();
        if std::io::stdin().lock().read_to_string(&mut input).is_err() {
            return usage("standard input is not UTF-8");
        }
        let words: Vec<&str> = input.lines().collect();
        if bench {
            let t = std::time::Instant::now();
            let mut n = 0usize;
            let mut bytes = 0usize;
            while t.elapsed().as_secs_f64() < 1.0 || n == 0 {
                for w in &words {
                    bytes += lem.normal_form(w).len();
                }
                n += words.len();
            }
            let s = t.elapsed().as_secs_f64();
            println!(
                "{:.0} words/s ({n} words, {bytes} bytes of normal forms)",
                n as f64 / s
            );
            return 0;
        }
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        for w in words {
            let _ = writeln!(out, "{}", lem.normal_form(w));
        }
        let _ = out.flush();
        0
    }

    fn usage(msg: &str) -> i32 {
        eprintln!("dropscore: {msg}");
        2
    }

    fn convert(c: ConvertArgs) -> i32 {
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
                Err(e) => return usage(&format!("{input}: {e}")),
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
                    Err(e) => return usage(&format!("{f}: {e}")),
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
}
