//! `dropscore manifest` and `dropscore check`: the pre-flight check without the ground truth
//! (docs/specs/preflight.md). Exit status: 0 written / ready (warnings allowed), 1 problems (all printed, located),
//! 2 usage errors.

use super::inputs::load;
use super::{parse_set, usage};
use clap::{Parser, ValueEnum};
use dropscore::input::disk::io_words;
use dropscore::input::{organizer_file, FileSet, Limits, Role};
use dropscore::protocols::preflight;
use dropscore::render;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Parser, Debug)]
#[command(
    name = "dropscore manifest",
    about = "Write the manifest of a ground truth: what a submission must contain, never a label (organizer, once)."
)]
struct ManifestArgs {
    /// Protocol id (see `dropscore list`); the config's when `--config` is given.
    protocol: Option<String>,
    /// The competition config (dropscore.toml): its protocol and options are the manifest's (a --set adds to
    /// them), so the manifest agrees with the config on every participant's page.
    #[arg(long, value_name = "FILE")]
    config: Option<String>,
    /// Ground-truth files, folders or zips.
    #[arg(long, num_args = 1.., required = true)]
    gt: Vec<String>,
    /// Option NAME=VALUE (repeatable); recorded in the manifest.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Write the manifest here instead of standard output.
    #[arg(long)]
    out: Option<String>,
}

#[derive(Parser, Debug)]
#[command(
    name = "dropscore check",
    about = "Check a submission against a manifest: is it complete and well formed? (participant, no ground truth)"
)]
struct CheckArgs {
    /// Protocol id (see `dropscore list`); the config's when `--config` is given.
    protocol: Option<String>,
    /// The competition config (dropscore.toml): its protocol and options, and the manifest it names when
    /// `--manifest` is not given.
    #[arg(long, value_name = "FILE")]
    config: Option<String>,
    /// The manifest the organizer published (`dropscore manifest`); the config's `manifest` when not given.
    #[arg(long)]
    manifest: Option<String>,
    /// Prediction files, folders or zips.
    #[arg(long, num_args = 1.., required = true)]
    pred: Vec<String>,
    /// Option NAME=VALUE (repeatable); must agree with the manifest's options.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
enum Format {
    Text,
    Json,
}

fn parse<T: Parser>(name: &str, rest: &[String]) -> Result<T, i32> {
    let mut a = vec![name.to_string()];
    a.extend(rest.iter().cloned());
    T::try_parse_from(a).map_err(|e| {
        let _ = e.print();
        if e.use_stderr() {
            2
        } else {
            0
        }
    })
}

/// `dropscore manifest <protocol> --gt PATH... [--set ...] [--out FILE]`.
pub fn manifest_cmd(rest: &[String]) -> i32 {
    let a: ManifestArgs = match parse("dropscore manifest", rest) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let mut set = match parse_set(&a.set) {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    let protocol = match with_config(a.protocol, a.config.as_deref(), &mut set) {
        Ok(p) => p,
        Err(e) => return usage(&e),
    };
    let inputs = match dropscore::input::paths::load_relative(&a.gt) {
        Ok(i) => i,
        Err(e) => return usage(&e),
    };
    let files = FileSet::build(inputs, &Limits::from_set(&set));
    let made = match preflight::manifest(&protocol, &files, &set) {
        Ok(m) => m,
        Err(e) => return usage(&e.0),
    };
    let mut err = std::io::stderr().lock();
    for d in &made.diagnostics {
        let _ = err.write_all(render::diagnostic(d).as_bytes());
    }
    let Some(text) = made.manifest else {
        eprintln!("dropscore: the ground truth has errors; no manifest written");
        return 1;
    };
    let written = match &a.out {
        Some(f) => super::out_file::write(Path::new(f), text.as_bytes())
            .map_err(|e| format!("{f}: {}", io_words(&e))),
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string()),
    };
    match written {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("dropscore: {e}");
            1
        }
    }
}

/// `dropscore check <protocol> --manifest FILE --pred PATH... [--set ...] [--format text|json]`.
pub fn check_cmd(rest: &[String]) -> i32 {
    let a: CheckArgs = match parse("dropscore check", rest) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let mut set = match parse_set(&a.set) {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    let protocol = match with_config(a.protocol, a.config.as_deref(), &mut set) {
        Ok(p) => p,
        Err(e) => return usage(&e.replace("manifest PROTOCOL --gt", "check PROTOCOL --manifest")),
    };
    let manifest = match manifest_path(a.manifest, a.config.as_deref()) {
        Ok(m) => m,
        Err(e) => return usage(&e),
    };
    let cap = dropscore::budget::Budget::from_set(&set).entry_limit();
    let text = match organizer_file::read_text(&manifest, cap) {
        Ok(t) => t,
        Err(e) => return usage(&e),
    };
    let mut inputs = Vec::new();
    let mut walked = Vec::new();
    if let Err(e) = load(&a.pred, Role::Pred, &mut inputs, &mut walked) {
        return usage(&e);
    }
    let mut files = FileSet::build(inputs, &Limits::from_set(&set));
    files.diagnostics.splice(0..0, walked);
    let checked = match preflight::check(&protocol, &text, &files, &set) {
        Ok(c) => c,
        Err(e) => return usage(&format!("{}: {e}", manifest.display())),
    };
    let out = match a.format {
        Format::Text => checked.to_text(),
        Format::Json => checked.to_json(),
    };
    if std::io::stdout().lock().write_all(out.as_bytes()).is_err() {
        return 1;
    }
    if checked.ready {
        0
    } else {
        1
    }
}

/// The manifest of `dropscore check`: the one named, else the one the config names (relative to its folder).
fn manifest_path(named: Option<String>, config: Option<&str>) -> Result<PathBuf, String> {
    if let Some(m) = named {
        return Ok(PathBuf::from(m));
    }
    let Some(path) = config else {
        return Err("give the manifest (--manifest FILE) or a config that names one (--config dropscore.toml)".into());
    };
    let cfg = super::program::read_config(Path::new(path))?;
    let Some(m) = cfg.manifest else {
        return Err(format!("{path} names no manifest: give --manifest FILE"));
    };
    organizer_file::inside(
        super::program::folder_of(Path::new(path)),
        m.trim_start_matches('/'),
        "manifest",
    )
    .map_err(|e| format!("{path}: {e}"))
}

/// The protocol of `dropscore manifest` (and of a score with `--config`): the one named, else the config's;
/// with a config, its options come first in `set` (the --set pairs after them win).
pub(super) fn with_config(
    named: Option<String>,
    config: Option<&str>,
    set: &mut Vec<(String, String)>,
) -> Result<String, String> {
    let Some(path) = config else {
        return named.ok_or_else(|| {
            "name the protocol (dropscore manifest PROTOCOL --gt …) or give --config dropscore.toml".into()
        });
    };
    let cfg = super::program::read_config(Path::new(path))?;
    if let Some(p) = named.as_ref().filter(|p| **p != cfg.protocol) {
        return Err(format!(
            "protocol `{p}` differs from the config's `{}` ({path})",
            cfg.protocol
        ));
    }
    set.splice(0..0, cfg.options.iter().cloned());
    Ok(cfg.protocol)
}
