//! `dropscore score INPUT_DIR OUTPUT_DIR` (the Codabench / Codalab scoring program) and `dropscore config FILE`.
//!
//! `score` reads `INPUT_DIR/ref` (ground truth) and `INPUT_DIR/res` (predictions), takes the protocol, mode and
//! options from `--protocol`/`--mode`/`--set` or from `ref/dropscore.toml` (or `--config FILE`), and writes
//! `OUTPUT_DIR/scores.json`, `OUTPUT_DIR/scores.txt` and `OUTPUT_DIR/detailed_results.html`. It never writes
//! `OUTPUT_DIR/metadata`. Errors go to standard error with exit status 1 (input) or 2 (usage).

use dropscore::config::{self, Config};
use dropscore::input::{DiskFile, FileSet, Input, Limits, Role};
use dropscore::protocols::{self, Quiet, Request};
use dropscore::{html, render, Mode};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Config file names looked for in `ref/` (and skipped as ground truth).
const CONFIG_NAMES: &[&str] = &["dropscore.toml", "dropscore.json"];

/// Files and folders (recursively, sorted) as inputs; paths are shown as given, minus `strip` when set.
pub fn load(paths: &[String], role: Role, inputs: &mut Vec<Input>) -> Result<(), String> {
    for p in paths {
        let path = Path::new(p);
        if path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found).map_err(|e| format!("{p}: {e}"))?;
            found.sort();
            for f in found {
                let blob = DiskFile::open(&f).map_err(|e| format!("{}: {e}", f.display()))?;
                inputs.push(Input {
                    path: f.to_string_lossy().replace('\\', "/"),
                    role: Some(role),
                    blob: Rc::new(blob),
                });
            }
        } else {
            let blob = DiskFile::open(path).map_err(|e| format!("{p}: {e}"))?;
            inputs.push(Input {
                path: p.clone(),
                role: Some(role),
                blob: Rc::new(blob),
            });
        }
    }
    Ok(())
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            walk(&p, out)?;
        } else {
            out.push(p);
        }
    }
    Ok(())
}

/// Reads and validates a config (TOML, or JSON when the name ends in `.json`), resolving
/// `leaderboard.competition_yaml` relative to the config's folder. Errors: one located line each.
pub fn read_config(path: &Path) -> Result<Config, String> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
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
            let ypath = path.parent().unwrap_or(Path::new(".")).join(&y);
            let yshown = ypath.display().to_string();
            let ytext = std::fs::read_to_string(&ypath)
                .map_err(|e| format!("{shown}: leaderboard.competition_yaml: {yshown}: {e}"))?;
            let cols = config::leaderboard_from_yaml(&ytext).map_err(|e| located(&yshown, e))?;
            Ok(config::with_columns(cfg, cols))
        }
    }
}

/// `dropscore config FILE`: validates and prints the JSON form the page reads (exit 1 on errors).
pub fn config_cmd(args: &[String]) -> i32 {
    let [file] = args else {
        eprintln!("usage: dropscore config FILE   (checks dropscore.toml and prints its JSON form for the page)");
        return 2;
    };
    match read_config(Path::new(file)) {
        Ok(c) => {
            print!("{}", c.to_json());
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

struct ScoreArgs {
    input: PathBuf,
    output: PathBuf,
    protocol: Option<String>,
    mode: Option<String>,
    set: Vec<(String, String)>,
    config: Option<PathBuf>,
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

const USAGE: &str = "usage: dropscore score INPUT_DIR OUTPUT_DIR [--protocol ID] [--mode official|corrected] [--set NAME=VALUE]... [--config FILE]\n  reads INPUT_DIR/ref (ground truth, and dropscore.toml) and INPUT_DIR/res (predictions);\n  writes OUTPUT_DIR/scores.json, scores.txt and detailed_results.html";

/// Lists a Codabench input folder (`ref/` or `res/`) as inputs named `ref/...` / `res/...`, skipping the
/// config files in `ref/` and Codalab's `metadata` file at the top of either folder.
fn list_dir(
    root: &Path,
    name: &str,
    role: Role,
    skip: &[PathBuf],
    out: &mut Vec<Input>,
) -> Result<(), String> {
    let dir = root.join(name);
    if !dir.is_dir() {
        return Err(format!(
            "{}: no such folder (a scoring program's input has ref/ and res/)",
            dir.display()
        ));
    }
    let mut found = Vec::new();
    walk(&dir, &mut found).map_err(|e| format!("{}: {e}", dir.display()))?;
    found.sort();
    for f in found {
        let rel = f.strip_prefix(&dir).unwrap_or(&f);
        if skip.contains(&f) || rel == Path::new("metadata") {
            continue;
        }
        let blob = DiskFile::open(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        out.push(Input {
            path: format!("{name}/{}", rel.to_string_lossy().replace('\\', "/")),
            role: Some(role),
            blob: Rc::new(blob),
        });
    }
    Ok(())
}

pub fn score_cmd(args: &[String]) -> i32 {
    let a = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("dropscore score: {e}");
            }
            eprintln!("{USAGE}");
            return 2;
        }
    };
    // The config: --config, else ref/dropscore.toml (or .json) when present.
    let ref_dir = a.input.join("ref");
    let config_path = a.config.clone().or_else(|| {
        CONFIG_NAMES
            .iter()
            .map(|n| ref_dir.join(n))
            .find(|p| p.is_file())
    });
    let mut cfg = match &config_path {
        Some(p) => match read_config(p) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!("{e}");
                return 2;
            }
        },
        None => None,
    };
    let Some(protocol) = a
        .protocol
        .clone()
        .or_else(|| cfg.as_ref().map(|c| c.protocol.clone()))
    else {
        eprintln!(
            "dropscore score: no protocol: give --protocol ID or put a dropscore.toml in {}",
            ref_dir.display()
        );
        return 2;
    };
    if let Some(c) = &mut cfg {
        if c.protocol != protocol {
            // --protocol overrides the config: its options and columns belong to another protocol.
            c.options.clear();
            c.protocol = protocol.clone();
        }
    }
    let mode = match a.mode.as_deref() {
        Some(m) => match Mode::parse(m) {
            Some(m) => m,
            None => {
                eprintln!("dropscore score: --mode must be official or corrected, not `{m}`");
                return 2;
            }
        },
        None => cfg.as_ref().map_or(Mode::Official, |c| c.mode),
    };
    let mut set: Vec<(String, String)> =
        cfg.as_ref().map(|c| c.options.clone()).unwrap_or_default();
    set.extend(a.set.iter().cloned());

    let mut skip: Vec<PathBuf> = CONFIG_NAMES.iter().map(|n| ref_dir.join(n)).collect();
    if let (Some(p), Some(c)) = (&config_path, &cfg) {
        skip.push(p.clone());
        if let Some(y) = &c.leaderboard.competition_yaml {
            skip.push(p.parent().unwrap_or(Path::new(".")).join(y));
        }
    }
    let mut inputs = Vec::new();
    if let Err(e) = list_dir(&a.input, "ref", Role::Gt, &skip, &mut inputs)
        .and_then(|_| list_dir(&a.input, "res", Role::Pred, &skip, &mut inputs))
    {
        eprintln!("dropscore score: {e}");
        return 2;
    }
    let files = FileSet::build(inputs, &Limits::from_set(&set));
    // aij2022's text tasks need the Russian lemmatiser: ru-lemmas.bin next to the executable (the packaged
    // scoring program), $DROPSCORE_LEMMAS, or the repository's www/assets/.
    let lemmatizer = if protocol == "aij2022" {
        match crate::cli::load_lemmatizer(None) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("dropscore score: {e}");
                return 2;
            }
        }
    } else {
        None
    };
    let req = Request {
        set,
        lemmatizer,
        ..Request::new(mode)
    };
    let report = match protocols::score(&protocol, &files, &req, &mut Quiet) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("dropscore score: {e}");
            return 2;
        }
    };
    for d in &report.diagnostics {
        eprint!("{}", render::diagnostic(d));
    }
    if let Err(e) = std::fs::create_dir_all(&a.output) {
        eprintln!("dropscore score: {}: {e}", a.output.display());
        return 2;
    }
    let write = |name: &str, text: &str| {
        let p = a.output.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    };
    if let Err(e) = write(
        "detailed_results.html",
        &html::detailed(&report, cfg.as_ref()),
    ) {
        eprintln!("dropscore score: {e}");
        return 1;
    }
    if report.has_errors() {
        eprintln!("dropscore score: the submission has errors (above); no scores written");
        return 1;
    }
    let cfg = cfg.unwrap_or_else(|| Config {
        title: String::new(),
        protocol: protocol.clone(),
        mode,
        options: Vec::new(),
        leaderboard: Default::default(),
        ground_truth: Vec::new(),
        hide_ground_truth_zone: false,
    });
    let scores = match cfg.leaderboard_scores(&report) {
        Ok(s) => s,
        Err(errs) => {
            let shown = config_path
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            for e in errs {
                eprintln!("{shown}:{e}");
            }
            return 2;
        }
    };
    let mut txt = String::new();
    for (k, v) in &scores {
        txt.push_str(&format!("{k}: {v}\n"));
    }
    let json = format!("{}\n", serde_json::Value::Object(scores));
    if let Err(e) = write("scores.json", &json).and_then(|_| write("scores.txt", &txt)) {
        eprintln!("dropscore score: {e}");
        return 1;
    }
    0
}
