//! `dropscore score INPUT_DIR OUTPUT_DIR` (the Codabench / Codalab scoring program) and `dropscore config FILE`.
//!
//! `score` reads `INPUT_DIR/ref` (ground truth) and `INPUT_DIR/res` (predictions), takes the protocol, mode and
//! options from `--protocol`/`--mode`/`--set` or from `ref/dropscore.toml` (or `--config FILE`), and writes
//! `OUTPUT_DIR/scores.json`, `OUTPUT_DIR/scores.txt` and `OUTPUT_DIR/detailed_results.html`. It never writes
//! `OUTPUT_DIR/metadata`. Errors go to standard error with exit status 1 (input) or 2 (usage).

use super::inputs::list_dir;
use dropscore::config::{self, Config};
use dropscore::diag::Diagnostic;
use dropscore::input::disk::{self, io_words, Kind};
use dropscore::input::{organizer_file, FileSet, Limits, Role};
use dropscore::protocols::{self, preflight, Quiet, Request};
use dropscore::report::Report;
use dropscore::{html, render, Mode};
use std::path::{Path, PathBuf};

/// Config file names looked for in `ref/` (and skipped as ground truth).
const CONFIG_NAMES: &[&str] = &["dropscore.toml", "dropscore.json"];

/// Reads and validates a config (TOML, or JSON when the name ends in `.json`), resolving
/// `leaderboard.competition_yaml` relative to the config's folder. Errors: one located line each.
pub fn read_config(path: &Path) -> Result<Config, String> {
    let shown = path.display().to_string();
    let text = organizer_file::read_text(path, organizer_file::CONFIG_MAX)?;
    let parsed = if path.extension().is_some_and(|e| e == "json") {
        config::from_json(&text)
    } else {
        config::from_toml(&text)
    };
    let located = |file: &str, errs: Vec<config::ConfigError>| {
        errs.iter()
            .map(|e| format!("{file}:{e}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let cfg = parsed.map_err(|e| located(&shown, e))?;
    match cfg.leaderboard.competition_yaml.clone() {
        None => Ok(cfg),
        Some(y) => {
            let ypath = organizer_file::inside(folder_of(path), &y, "leaderboard.competition_yaml")
                .map_err(|e| format!("{shown}: {e}"))?;
            let yshown = ypath.display().to_string();
            let ytext = organizer_file::read_text(&ypath, organizer_file::CONFIG_MAX)
                .map_err(|e| format!("{shown}: leaderboard.competition_yaml: {e}"))?;
            let cols = config::leaderboard_from_yaml(&ytext).map_err(|e| located(&yshown, e))?;
            let cfg = config::with_columns(cfg, cols);
            match config::column_errors(&cfg) {
                e if e.is_empty() => Ok(cfg),
                e => Err(located(&yshown, e)),
            }
        }
    }
}

/// The folder of a config file (`.` for a bare name).
pub(super) fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// `dropscore config FILE [--manifest M]`: validates the config, and the manifest it names (`manifest`, or
/// `--manifest`) against its protocol and options; prints the JSON form the page reads (exit 1 on errors).
pub fn config_cmd(args: &[String]) -> i32 {
    let (file, manifest) = match args {
        [file] => (file, None),
        [file, flag, m] if flag == "--manifest" => (file, Some(PathBuf::from(m))),
        _ => {
            eprintln!("usage: dropscore config FILE [--manifest M]   (checks dropscore.toml and prints its JSON form for the page)");
            return 2;
        }
    };
    let path = Path::new(file);
    let checked = read_config(path).and_then(|c| {
        let named = match manifest {
            Some(m) => Some(m),
            None => c
                .manifest
                .as_ref()
                .map(|m| {
                    organizer_file::inside(folder_of(path), m.trim_start_matches('/'), "manifest")
                })
                .transpose()
                .map_err(|e| format!("{file}: {e}"))?,
        };
        match named {
            // The config comes first and names the manifest it will have: not made yet is not an error.
            Some(m) if args.len() == 1 && std::fs::symlink_metadata(&m).is_err() => {
                eprintln!(
                    "dropscore config: note: {} is not there yet; make it with `dropscore manifest --config {file} --gt …`",
                    render::terminal_lines(&m.display().to_string())
                );
                Ok(c)
            }
            Some(m) => agrees_with_manifest(&c, &m).map(|()| c),
            None => Ok(c),
        }
    });
    match checked {
        Ok(c) => {
            print!("{}", c.to_json());
            0
        }
        Err(e) => {
            eprintln!("{}", render::terminal_lines(&e));
            1
        }
    }
}

/// Whether the manifest at `m` was made for the config's protocol and options: the conflicts a participant's
/// page would meet, found at config time instead.
fn agrees_with_manifest(c: &Config, m: &Path) -> Result<(), String> {
    let cap = dropscore::budget::Budget::from_set(&c.options).entry_limit();
    let text = organizer_file::read_text(m, cap)?;
    let none = FileSet::build(Vec::new(), &Limits::from_set(&c.options));
    match preflight::check(&c.protocol, &text, &none, &c.options) {
        Err(e) if !preflight::is_no_check(&e) => Err(format!(
            "{}: {} (make it with `dropscore manifest --config` so that it takes the config's options)",
            m.display(),
            e.0.replacen("--set ", "the config's ", 1)
        )),
        _ => Ok(()),
    }
}

struct ScoreArgs {
    input: PathBuf,
    output: PathBuf,
    protocol: Option<String>,
    mode: Option<String>,
    set: Vec<(String, String)>,
    config: Option<PathBuf>,
    manifest: Option<PathBuf>,
}

fn parse(args: &[String]) -> Result<ScoreArgs, String> {
    let mut pos = Vec::new();
    let mut a = ScoreArgs {
        input: PathBuf::new(),
        output: PathBuf::new(),
        protocol: None,
        mode: None,
        set: Vec::new(),
        config: None,
        manifest: None,
    };
    let mut it = args.iter();
    while let Some(x) = it.next() {
        let (flag, inline) = match x.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (x.as_str(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag {
            "--protocol" => a.protocol = Some(value("--protocol")?),
            "--mode" => a.mode = Some(value("--mode")?),
            "--config" => a.config = Some(PathBuf::from(value("--config")?)),
            "--manifest" => a.manifest = Some(PathBuf::from(value("--manifest")?)),
            "--set" => {
                let v = value("--set")?;
                match v.split_once('=') {
                    Some((k, v)) => a.set.push((k.trim().to_string(), v.to_string())),
                    None => return Err(format!("--set expects NAME=VALUE, found `{v}`")),
                }
            }
            "-h" | "--help" => return Err(String::new()),
            f if f.starts_with('-') => return Err(format!("unknown flag `{f}`")),
            _ => pos.push(x.clone()),
        }
    }
    match pos.as_slice() {
        [i, o] => {
            a.input = PathBuf::from(i);
            a.output = PathBuf::from(o);
            Ok(a)
        }
        _ => Err("expected INPUT_DIR OUTPUT_DIR".into()),
    }
}

const USAGE: &str = "usage: dropscore score INPUT_DIR OUTPUT_DIR [--protocol ID] [--mode official|corrected] [--set NAME=VALUE]... [--config FILE] [--manifest FILE]\n  reads INPUT_DIR/ref (ground truth, and dropscore.toml) and INPUT_DIR/res (predictions);\n  with a manifest (--manifest, or `manifest` in the config) checks the submission first (dropscore check);\n  writes OUTPUT_DIR/detailed_results.html always, scores.json and scores.txt when the submission scores";

pub fn score_cmd(args: &[String]) -> i32 {
    let a = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("dropscore score: {}", render::terminal_lines(&e));
            }
            eprintln!("{USAGE}");
            return 2;
        }
    };
    match run_score(&a) {
        Ok(code) => code,
        Err(Failed { code, message }) => {
            // Every failure still writes detailed_results.html (the platform shows it to the participant).
            eprintln!("{}", render::terminal_lines(&message));
            let page = failure_page(a.protocol.as_deref().unwrap_or(""), &message);
            let _ = std::fs::create_dir_all(&a.output);
            let _ =
                super::out_file::write(&a.output.join("detailed_results.html"), page.as_bytes());
            code
        }
    }
}

/// A run that stops before a report: its exit status and message.
struct Failed {
    code: i32,
    message: String,
}

fn failed(code: i32, message: impl Into<String>) -> Failed {
    Failed {
        code,
        message: message.into(),
    }
}

/// detailed_results.html for a run that stopped before a report: the message as an error.
fn failure_page(protocol: &str, message: &str) -> String {
    let mut report = Report::new(protocol, Mode::Official);
    report
        .diagnostics
        .push(Diagnostic::error("score.failed", message.to_string()));
    html::detailed(&report, None)
}

/// The manifest given with --manifest, else the config's `manifest`: relative to the config's folder (a
/// leading `/` is that folder, as on the page's site), and inside it.
fn manifest_path(
    a: &ScoreArgs,
    cfg: Option<&Config>,
    config_path: Option<&Path>,
) -> Result<Option<PathBuf>, String> {
    if let Some(m) = &a.manifest {
        return Ok(Some(m.clone()));
    }
    let (Some(m), Some(p)) = (cfg.and_then(|c| c.manifest.as_ref()), config_path) else {
        return Ok(None);
    };
    organizer_file::inside(folder_of(p), m.trim_start_matches('/'), "manifest")
        .map(Some)
        .map_err(|e| format!("{}: {e}", p.display()))
}

/// The pre-flight check of `res/` against the manifest (docs/specs/preflight.md): `Ok(None)` when the submission is
/// ready (or the protocol has no check yet: said on stderr), `Ok(Some(page))` with detailed_results.html when
/// it is not (its problems, located, are printed).
fn preflight_first(
    protocol: &str,
    manifest: &Path,
    res: Vec<dropscore::input::Input>,
    walked: &[Diagnostic],
    set: &[(String, String)],
    cfg: Option<&Config>,
) -> Result<Option<String>, Failed> {
    let cap = dropscore::budget::Budget::from_set(set).entry_limit();
    let text = organizer_file::read_text(manifest, cap).map_err(|e| failed(2, e))?;
    let mut files = FileSet::build(res, &Limits::from_set(set));
    files.diagnostics.splice(0..0, walked.iter().cloned());
    let checked = match preflight::check(protocol, &text, &files, set) {
        Ok(c) => c,
        Err(e) if preflight::is_no_check(&e) => {
            eprintln!("dropscore score: {}; scoring without it", e.0);
            return Ok(None);
        }
        Err(e) => return Err(failed(2, format!("{}: {}", manifest.display(), e.0))),
    };
    eprintln!(
        "dropscore score: pre-flight check: {}",
        render::terminal_lines(&checked.summary)
    );
    if checked.ready {
        return Ok(None);
    }
    for d in &checked.report.diagnostics {
        eprint!("{}", render::diagnostic(d));
    }
    let page = html::detailed(&checked.report, cfg);
    let verdict = format!(
        "<p class=\"fails\"><strong>{}</strong> (pre-flight check against the manifest; nothing was scored)</p>\n",
        html::escape(&checked.summary)
    );
    Ok(Some(after_title(page, &verdict)))
}

fn run_score(a: &ScoreArgs) -> Result<i32, Failed> {
    let s = setup(a)?;
    let Some(files) = read_files(a, &s)? else {
        return Ok(1);
    };
    let in_words = |e: String| failed(2, format!("dropscore score: {e}"));
    // The protocol's assets (a dictionary): next to the executable (the packaged scoring program), in the
    // environment variable each names, or in the repository's www/assets/.
    let mut req = Request {
        set: s.set.clone(),
        ..Request::new(s.mode)
    };
    super::assets::load(&s.protocol, &[], &mut req).map_err(in_words)?;
    let report = protocols::score(&s.protocol, &files, &req, &mut Quiet)
        .map_err(|e| in_words(e.to_string()))?;
    for d in &report.diagnostics {
        eprint!("{}", render::diagnostic(d));
    }
    let cfg = s.cfg.clone().unwrap_or_else(|| bare_config(&s));
    // A leaderboard value is a number or a failure: never a null score with exit status 0.
    // (Columns that name no score of the report are a config error first: write_scores says so, exit 2.)
    let null = match report.has_errors() || cfg.leaderboard_scores(&report).is_err() {
        true => None,
        false => cfg.null_leaderboard(&report),
    };
    let mut page = html::detailed(&report, s.cfg.as_ref());
    if let Some(why) = &null {
        let notice = format!(
            "<p class=\"fails\"><strong>{}</strong> (no scores written)</p>\n",
            html::escape(&upper_first(why))
        );
        page = after_title(page, &notice);
    }
    write_out(&a.output, "detailed_results.html", &page)?;
    if report.has_errors() {
        eprintln!("dropscore score: the submission has errors (above); no scores written");
        return Ok(1);
    }
    if let Some(why) = null {
        eprintln!(
            "dropscore score: {} No scores written.",
            render::terminal_lines(&why)
        );
        return Ok(1);
    }
    let intervals = s
        .set
        .iter()
        .rev()
        .find(|(k, _)| k == "intervals_in_scores")
        .is_some_and(|(_, v)| matches!(v.trim(), "true" | "1" | "yes" | "on"));
    write_scores(a, s.config_path.as_deref(), &cfg, &report, intervals)?;
    Ok(0)
}

/// `text` with its first letter in upper case (a sentence of the page).
fn upper_first(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// `page` (detailed_results.html) with `notice` right after its title.
fn after_title(page: String, notice: &str) -> String {
    match page.find("</h1>\n") {
        Some(at) => format!("{}{notice}{}", &page[..at + 6], &page[at + 6..]),
        None => page,
    }
}

/// The config of a run without one: the protocol and mode, every score on the leaderboard.
fn bare_config(s: &Setup) -> Config {
    Config {
        title: String::new(),
        protocol: s.protocol.clone(),
        mode: s.mode,
        options: Vec::new(),
        leaderboard: Default::default(),
        ground_truth: Vec::new(),
        hide_ground_truth_zone: false,
        manifest: None,
    }
}

/// What `score` runs with: the config, the protocol, mode and options, the manifest, and the files of
/// `ref/` that are not ground truth.
struct Setup {
    config_path: Option<PathBuf>,
    cfg: Option<Config>,
    protocol: String,
    mode: Mode,
    set: Vec<(String, String)>,
    manifest: Option<PathBuf>,
    skip: Vec<PathBuf>,
}

fn setup(a: &ScoreArgs) -> Result<Setup, Failed> {
    // The config: --config, else ref/dropscore.toml (or .json) when present (a file, not a link).
    let ref_dir = a.input.join("ref");
    let config_path = a.config.clone().or_else(|| {
        CONFIG_NAMES
            .iter()
            .map(|n| ref_dir.join(n))
            .find(|p| matches!(disk::kind(p), Ok(Kind::File)))
    });
    let mut cfg = match &config_path {
        Some(p) => Some(read_config(p).map_err(|e| failed(2, e))?),
        None => None,
    };
    let Some(protocol) = a
        .protocol
        .clone()
        .or_else(|| cfg.as_ref().map(|c| c.protocol.clone()))
    else {
        return Err(failed(
            2,
            format!(
                "dropscore score: no protocol: give --protocol ID or put a dropscore.toml in {}",
                ref_dir.display()
            ),
        ));
    };
    if let Some(c) = &mut cfg {
        if c.protocol != protocol {
            // --protocol overrides the config: its options and columns belong to another protocol.
            c.options.clear();
            c.protocol = protocol.clone();
        }
    }
    let mode = match a.mode.as_deref() {
        Some(m) => Mode::parse(m).ok_or_else(|| {
            failed(
                2,
                format!("dropscore score: --mode must be official or corrected, not `{m}`"),
            )
        })?,
        None => cfg.as_ref().map_or(Mode::Official, |c| c.mode),
    };
    let mut set: Vec<(String, String)> =
        cfg.as_ref().map(|c| c.options.clone()).unwrap_or_default();
    set.extend(a.set.iter().cloned());

    let manifest =
        manifest_path(a, cfg.as_ref(), config_path.as_deref()).map_err(|e| failed(2, e))?;
    let mut skip: Vec<PathBuf> = CONFIG_NAMES.iter().map(|n| ref_dir.join(n)).collect();
    if let (Some(p), Some(c)) = (&config_path, &cfg) {
        skip.push(p.clone());
        if let Some(y) = &c.leaderboard.competition_yaml {
            skip.push(folder_of(p).join(y));
        }
    }
    skip.extend(manifest.clone());
    Ok(Setup {
        config_path,
        cfg,
        protocol,
        mode,
        set,
        manifest,
        skip,
    })
}

/// The submission (`res/`), checked against the manifest first when there is one, then with the ground truth
/// (`ref/`) as one file set. `None` when the submission is not ready (detailed_results.html says why).
fn read_files(a: &ScoreArgs, s: &Setup) -> Result<Option<FileSet>, Failed> {
    let in_words = |e: String| failed(2, format!("dropscore score: {e}"));
    // The submission first, alone: the pre-flight check reads it without the ground truth.
    let mut res = Vec::new();
    let mut res_walked = Vec::new();
    list_dir(
        &a.input,
        "res",
        Role::Pred,
        &s.skip,
        &mut res,
        &mut res_walked,
    )
    .map_err(in_words)?;
    if let Some(m) = &s.manifest {
        let copies = res
            .iter()
            .map(|i| dropscore::input::Input {
                path: i.path.clone(),
                role: i.role,
                blob: i.blob.clone(),
            })
            .collect();
        if let Some(page) =
            preflight_first(&s.protocol, m, copies, &res_walked, &s.set, s.cfg.as_ref())?
        {
            write_out(&a.output, "detailed_results.html", &page)?;
            eprintln!("dropscore score: the submission is not ready (above); no scores written");
            return Ok(None);
        }
    }
    let mut inputs = Vec::new();
    let mut walked = Vec::new();
    list_dir(&a.input, "ref", Role::Gt, &s.skip, &mut inputs, &mut walked).map_err(in_words)?;
    inputs.extend(res);
    walked.extend(res_walked);
    let mut files = FileSet::build(inputs, &Limits::from_set(&s.set));
    files.diagnostics.splice(0..0, walked);
    Ok(Some(files))
}

/// scores.json and scores.txt: the leaderboard's columns of `report` (the config's, else every score).
fn write_scores(
    a: &ScoreArgs,
    config_path: Option<&Path>,
    cfg: &Config,
    report: &Report,
    intervals: bool,
) -> Result<(), Failed> {
    let mut scores = cfg.leaderboard_scores(report).map_err(|errs| {
        let shown = config_path
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let lines: Vec<String> = errs.iter().map(|e| format!("{shown}:{e}")).collect();
        failed(2, lines.join("\n"))
    })?;
    if intervals {
        scores = with_intervals(scores, cfg, report);
    }
    let mut txt = String::new();
    for (k, v) in &scores {
        txt.push_str(&format!("{k}: {v}\n"));
    }
    let json = format!("{}\n", serde_json::Value::Object(scores));
    write_out(&a.output, "scores.json", &json)?;
    write_out(&a.output, "scores.txt", &txt)
}

/// `scores` with `<key>_ci_low` and `<key>_ci_high` after each value whose metric has an interval (option
/// `intervals_in_scores`, docs/specs/statistics.md section 5): Codabench shows them as columns.
fn with_intervals(
    scores: serde_json::Map<String, serde_json::Value>,
    cfg: &Config,
    report: &Report,
) -> serde_json::Map<String, serde_json::Value> {
    let headline = report.display.headline.first().map(|l| l.id.as_str());
    let metric_of = |key: &str| -> Option<String> {
        if let Some(c) = cfg.leaderboard.columns.iter().find(|c| c.key == key) {
            return Some(c.metric.clone());
        }
        match report.scores.contains(key) {
            true => Some(key.to_string()),
            // A headline renamed by `scores_key`.
            false => headline.map(str::to_string),
        }
    };
    let num = |v: Option<f64>| {
        v.and_then(serde_json::Number::from_f64)
            .map_or(serde_json::Value::Null, serde_json::Value::Number)
    };
    let mut out = serde_json::Map::new();
    for (k, v) in scores {
        let interval = metric_of(&k).and_then(|m| report.intervals.get(&m).cloned());
        out.insert(k.clone(), v);
        if let Some(iv) = interval {
            out.insert(format!("{k}_ci_low"), num(iv.low));
            out.insert(format!("{k}_ci_high"), num(iv.high));
        }
    }
    out
}

/// Writes `OUTPUT_DIR/name` (creating the folder).
fn write_out(dir: &Path, name: &str, text: &str) -> Result<(), Failed> {
    std::fs::create_dir_all(dir).map_err(|e| {
        failed(
            2,
            format!("dropscore score: {}: {}", dir.display(), io_words(&e)),
        )
    })?;
    let p = dir.join(name);
    super::out_file::write(&p, text.as_bytes()).map_err(|e| {
        failed(
            1,
            format!("dropscore score: {}: {}", p.display(), io_words(&e)),
        )
    })
}
