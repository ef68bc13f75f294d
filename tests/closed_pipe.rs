//! A closed standard output or error ends the command quietly with a non-zero status: no panic message, no
//! exit 101 (Rust's runtime ignores SIGPIPE; the binary restores the default, as `cat` does).

#![cfg(unix)]

mod common;
use common::cli;
use std::io::Read;
use std::os::fd::FromRawFd;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

/// Runs `args` with stdout (or stderr) the writing end of a pipe whose reading end is already closed; returns
/// the exit status and what the other stream said.
fn closed(args: &[&str], stderr_side: bool) -> (std::process::ExitStatus, String) {
    let mut fds = [0; 2];
    // SAFETY: pipe(2) fills two descriptors; the reading one is closed at once, the writing one is owned below.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe");
    unsafe { libc::close(fds[0]) };
    // SAFETY: fds[1] is a fresh descriptor that nothing else owns.
    let write_end = unsafe { std::os::fd::OwnedFd::from_raw_fd(fds[1]) };
    let mut cmd = Command::new(cli::exe());
    cmd.args(args).stdin(Stdio::null());
    if stderr_side {
        cmd.stdout(Stdio::null()).stderr(Stdio::from(write_end));
    } else {
        cmd.stdout(Stdio::from(write_end)).stderr(Stdio::piped());
    }
    let mut child = cmd.spawn().expect("dropscore runs");
    let mut other = String::new();
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut other).expect("stderr readable");
    }
    (child.wait().expect("dropscore ends"), other)
}

#[test]
fn list_to_a_closed_stdout_ends_quietly() {
    let (status, stderr) = closed(&["list"], false);
    assert!(!status.success(), "{status:?}");
    assert_ne!(status.code(), Some(101), "a panic: {stderr}");
    assert_eq!(status.signal(), Some(libc::SIGPIPE), "{status:?}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn errors_to_a_closed_stderr_end_quietly() {
    // A usage error writes only to stderr.
    let (status, _) = closed(&["kws", "--gt", "/nonexistent/gt.xml"], true);
    assert!(!status.success(), "{status:?}");
    assert_ne!(status.code(), Some(101), "{status:?}");
}

fn data(p: &str) -> String {
    format!("{}/tests/data/{p}", env!("CARGO_MANIFEST_DIR"))
}

fn quiet_failure(args: &[&str], stderr_side: bool) {
    let (status, other) = closed(args, stderr_side);
    let side = if stderr_side { "stderr" } else { "stdout" };
    assert!(
        !status.success(),
        "{args:?} with a closed {side}: {status:?}"
    );
    assert_ne!(status.code(), Some(101), "{args:?}: a panic: {other}");
    assert!(!other.contains("panicked"), "{args:?}: {other}");
}

#[test]
fn every_command_ends_quietly_on_a_closed_stream() {
    let gt = data("kws/rusteval/GroundTruthRelevanceJudgementsSample.xml");
    let pred = data("kws/rusteval/WordSpottingResultsSample.xml");
    let config = format!("{}/examples/kws/dropscore.toml", env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("dropscore-pipe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("input/ref")).unwrap();
    std::fs::create_dir_all(dir.join("input/res")).unwrap();
    std::fs::copy(&gt, dir.join("input/ref/gt.xml")).unwrap();
    std::fs::copy(&pred, dir.join("input/res/res.xml")).unwrap();
    let manifest = dir.join("manifest.json");
    let manifest = manifest.to_str().unwrap();
    let (code, out, err) = cli::run(&["manifest", "kws", "--gt", &gt, "--out", manifest]);
    assert_eq!(code, 0, "{out}\n{err}");
    let input = dir.join("input");
    let input = input.to_str().unwrap();
    let output = dir.join("output");
    let output = output.to_str().unwrap();
    // What writes to standard output.
    for args in [
        vec!["list"],
        vec!["list", "--format=json"],
        vec!["--help"],
        vec!["config", &config],
        vec!["kws", "--gt", &gt, "--pred", &pred],
        vec!["kws", "--gt", &gt, "--pred", &pred, "--format", "json"],
        vec!["kws", "--gt", &gt, "--pred", &pred, "--mode", "both"],
        vec!["manifest", "kws", "--gt", &gt],
        vec!["check", "kws", "--manifest", manifest, "--pred", &pred],
        vec![
            "check",
            "kws",
            "--manifest",
            manifest,
            "--pred",
            &pred,
            "--format",
            "json",
        ],
    ] {
        quiet_failure(&args, false);
    }
    // What writes to standard error: usage errors, input errors, the scoring program's diagnostics.
    for args in [
        vec!["config", "/nonexistent/dropscore.toml"],
        vec!["score", input, output, "--protocol", "nope"],
        vec!["score", input, output, "--protocol", "kws", "--set", "k=x"],
        vec!["score", input, output, "--protocol", "chalearn-ce"],
        vec!["manifest", "kws", "--gt", "/nonexistent"],
        vec![
            "check",
            "kws",
            "--manifest",
            "/nonexistent",
            "--pred",
            &pred,
        ],
        vec!["kws", "--gt", &gt, "--pred", &gt],
        vec!["score"],
    ] {
        quiet_failure(&args, true);
    }
}
