//! The command line's commands: `dropscore <protocol> --gt … --pred …` (here), `list`, `score` and `config`
//! ([`program`]), a protocol's own commands such as `kws convert` ([`command`]) and the lemmatiser's developer commands ([`lemma`]).

mod assets;
mod command;
mod compare;
mod inputs;
mod lemma;
mod out_file;
mod preflight;
mod program;
mod pycompat;
mod rank;

use clap::{Parser, ValueEnum};
use dropscore::input::disk::io_words;
use dropscore::input::{FileSet, Limits, Role};
use dropscore::protocols::{self, Progress, Request};
use dropscore::{render, Mode, Report};
use std::io::{IsTerminal, Write};
use std::path::Path;

#[derive(Parser, Debug)]
#[command(
    name = "dropscore",
    about = "Official competition scores, computed locally."
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
    /// The competition config (dropscore.toml or its JSON form): its options, as the page and the scoring
    /// program use them (a --set adds to them); its protocol must be the one named.
    #[arg(long, value_name = "FILE")]
    config: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the output here instead of standard output.
    #[arg(long)]
    out: Option<String>,
    /// Do not print diagnostics on standard error.
    #[arg(long, short)]
    quiet: bool,
    /// The Russian lemmatiser's dictionary, for protocols that load it (default: $DROPSCORE_LEMMAS,
    /// ru-lemmas.bin next to the executable, then the repository's www/assets/ru-lemmas.bin).
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

pub fn run(args: Vec<String>) -> i32 {
    match args.get(1).map(String::as_str) {
        Some("list") => list(&args[2..]),
        // Hidden developer commands: the lemmatiser's set-up and its parity tests.
        Some("lemma-build") => lemma::lemma_build(&args[2..]),
        Some("lemma") => lemma::lemma(&args[2..]),
        // Hidden: the entry of tests/reference/pycompat_diff.py.
        Some("pycompat") => pycompat::pycompat(&args[2..]),
        // Hidden: the entry of tests/reference/aij_tokenize_diff.py.
        Some("tokenize") => pycompat::tokenize(&args[2..]),
        Some("score") => program::score_cmd(&args[2..]),
        Some("compare") => compare::compare_cmd(&args[2..]),
        Some("rank") => rank::rank_cmd(&args[2..]),
        Some("config") => program::config_cmd(&args[2..]),
        Some("manifest") => preflight::manifest_cmd(&args[2..]),
        Some("check") => preflight::check_cmd(&args[2..]),
        Some(id) if command::find(id, args.get(2)).is_some() => {
            let found = command::find(id, args.get(2));
            found.map_or(2, |c| command::run(id, c, &args[3..]))
        }
        _ => match parse_score_args(&args) {
            Ok(a) => score(a),
            Err(e) => exit_clap(e),
        },
    }
}

/// The scoring command's arguments; its `--help` ends with the other commands, the protocols' own included.
fn parse_score_args(args: &[String]) -> Result<ScoreArgs, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let mut other = String::from(
        "Other commands:\n  dropscore list                      protocols, options, defaults\n",
    );
    for p in protocols::PROTOCOLS {
        for c in p.extras().commands {
            let call = format!("dropscore {} {} --help", p.info().id, c.name);
            other.push_str(&format!("  {call:<36}{}\n", c.summary));
        }
    }
    other.push_str(
        "  dropscore score INPUT_DIR OUTPUT_DIR Codabench/Codalab scoring program (dropscore score --help)\n  \
         dropscore config dropscore.toml      check a competition config, print its JSON form (for the page)\n  \
         dropscore compare PROTOCOL --gt … --pred A… --vs B…   is A really better than B? (paired bootstrap)\n  \
         dropscore rank PROTOCOL --gt … --pred P1 P2 …   a leaderboard with intervals, rank intervals, groups\n  \
         dropscore manifest PROTOCOL --gt …   what a submission needs, without a label (organizers)\n  \
         dropscore check PROTOCOL --manifest M --pred …   is a submission ready? (participants)\n  \
         dropscore check --config dropscore.toml --pred …   the same, with the config's protocol, options, manifest",
    );
    let matches = ScoreArgs::command()
        .after_help(other)
        .try_get_matches_from(args)?;
    ScoreArgs::from_arg_matches(&matches)
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

pub(crate) fn parse_set(set: &[String]) -> Result<Vec<(String, String)>, String> {
    set.iter()
        .map(|s| match s.split_once('=') {
            Some((k, v)) => Ok((k.trim().to_string(), v.to_string())),
            None => Err(format!("--set expects NAME=VALUE, found `{s}`")),
        })
        .collect()
}

fn score(a: ScoreArgs) -> i32 {
    let mut set = match parse_set(&a.set) {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    if let Some(path) = &a.config {
        if let Err(e) = preflight::with_config(Some(a.protocol.clone()), Some(path), &mut set) {
            return usage(&e);
        }
    }
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
    let mut walked = Vec::new();
    if let Err(e) = inputs::load(&a.gt, Role::Gt, &mut inputs, &mut walked)
        .and_then(|_| inputs::load(&a.pred, Role::Pred, &mut inputs, &mut walked))
    {
        return usage(&e);
    }
    protocols::option_files::add(&a.protocol, &set, &mut inputs);
    let mut files = FileSet::build(inputs, &Limits::from_set(&set));
    files.diagnostics.splice(0..0, walked);
    // The protocol's assets (a dictionary), loaded once for both modes.
    let mut with_assets = Request::new(modes[0]);
    if let Err(e) = assets::load(
        &a.protocol,
        &[("lemmas", a.lemmas.as_deref())],
        &mut with_assets,
    ) {
        return usage(&e);
    }
    let mut reports = Vec::new();
    for mode in &modes {
        let req = Request {
            mode: *mode,
            set: set.clone(),
            ..with_assets.clone()
        };
        let mut progress = StderrProgress {
            on: std::io::stderr().is_terminal() && !a.quiet,
        };
        match protocols::score(&a.protocol, &files, &req, &mut progress) {
            Ok(r) => reports.push(r),
            Err(e) => return usage(&e.0),
        }
    }
    if !a.quiet {
        let mut err = std::io::stderr().lock();
        for d in &reports[0].diagnostics {
            let _ = err.write_all(render::diagnostic(d).as_bytes());
        }
    }
    let written = match &a.out {
        Some(f) => out_file::write_with(Path::new(f), |file| {
            render_all(&reports, a.format, &mut *file)
        })
        .map_err(|e| format!("{f}: {}", io_words(&e))),
        None => render_all(&reports, a.format, std::io::stdout().lock()).map_err(|e| io_words(&e)),
    };
    if let Err(e) = written {
        eprintln!("dropscore: {}", render::terminal_lines(&e));
        return 1;
    }
    if reports[0].has_errors() {
        1
    } else {
        0
    }
}

/// Writes the report(s) in `format` to `w`; JSON is written as it is serialised (a report of millions of
/// per-item rows is never held as one string).
fn render_all(reports: &[Report], format: Format, w: impl Write) -> std::io::Result<()> {
    let mut w = std::io::BufWriter::with_capacity(1 << 16, w);
    let one = |r: &Report| match format {
        Format::Text => render::text(r),
        Format::Json => r.to_json(),
        Format::Tsv => render::tsv(r),
        Format::Csv => render::csv(r),
    };
    if reports.len() == 1 {
        if format == Format::Json {
            return reports[0].write_json(w);
        }
        w.write_all(one(&reports[0]).as_bytes())?;
        return w.flush();
    }
    let diffs = protocols::explain(&reports[0], &reports[1]);
    if format == Format::Json {
        #[derive(serde::Serialize)]
        struct Both<'a> {
            official: &'a Report,
            corrected: &'a Report,
            differences: Vec<String>,
        }
        let both = Both {
            official: &reports[0],
            corrected: &reports[1],
            differences: diffs,
        };
        serde_json::to_writer(&mut w, &both).map_err(std::io::Error::other)?;
        w.write_all(b"\n")?;
        return w.flush();
    }
    let mut s = format!(
        "# official\n{}\n# corrected\n{}\n# differences\n",
        one(&reports[0]),
        one(&reports[1])
    );
    for d in diffs {
        s.push_str(&format!("- {}\n", render::terminal(&d)));
    }
    w.write_all(s.as_bytes())?;
    w.flush()
}

/// A usage error (exit status 2), its message escaped for the terminal.
pub(crate) fn usage(msg: &str) -> i32 {
    eprintln!("dropscore: {}", render::terminal_lines(msg));
    2
}
