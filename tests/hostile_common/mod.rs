//! The hostile-input tests' runner (tests/hostile.rs, tests/hostile_families.rs): the release CLI under
//! `/usr/bin/time -v`, and the checks of a located refusal with a bounded peak memory.
#![allow(dead_code)]

pub mod bombs;

use super::common::{cli, data};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every hostile case peaks under 400 MiB of resident memory (the default budget is 2 GiB).
pub const PEAK_BOUND_KB: u64 = 400 * 1024;

pub struct Outcome {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub peak_kb: Option<u64>,
}

/// Runs the CLI under `/usr/bin/time -v` when it exists (peak resident memory), else plainly.
pub fn run(args: &[&str]) -> Outcome {
    let exe = cli::exe();
    let timed = Path::new("/usr/bin/time").exists();
    let mut cmd = if timed {
        let mut c = Command::new("/usr/bin/time");
        c.arg("-v").arg(exe);
        c
    } else {
        Command::new(exe)
    };
    let out = cmd.args(args).current_dir(data("")).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let peak_kb = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("Maximum resident set size (kbytes):"))
        .and_then(|v| v.trim().parse().ok());
    Outcome {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
        peak_kb,
    }
}

/// Exit 1, a diagnostic `code` naming `file` (JSON report), and the peak under the bound.
pub fn refused(o: &Outcome, code: &str, file: &str) {
    assert_eq!(o.code, 1, "exit status\n{}\n{}", o.stdout, o.stderr);
    let report: serde_json::Value = serde_json::from_str(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", o.stdout, o.stderr));
    let diags = report["diagnostics"].as_array().unwrap();
    assert!(
        diags
            .iter()
            .any(|d| d["code"] == code && d["file"].as_str().is_some_and(|f| f.contains(file))),
        "no {code} naming {file}: {diags:#?}"
    );
    for d in diags {
        let m = d["message"].as_str().unwrap_or_default();
        assert!(
            !m.contains("os error") && !m.contains("failed to fill whole buffer"),
            "{m}"
        );
        if d["code"] == "input.limit" {
            assert!(
                m.contains("--set max_memory=") || m.contains("drop the file uncompressed"),
                "a refusal says how to raise the limit: {m}"
            );
        }
    }
    if let Some(kb) = o.peak_kb {
        assert!(kb < PEAK_BOUND_KB, "peak {kb} KiB over the bound");
        eprintln!("peak resident memory: {} MiB", kb / 1024);
    }
}

pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dropscore-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

pub fn write(name: &str, bytes: &[u8]) -> String {
    let p = tmp(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}
