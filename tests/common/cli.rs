//! The command line as the integration tests run it: the built binary with its arguments, in a given folder or
//! in the test's own, and what it said (exit status, standard output and error as text, or its JSON report).
//! Standard input is closed (`Command::output`'s default, set explicitly in [`run_within`]).

use serde_json::Value;
use std::ffi::OsStr;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The binary under test: the one cargo built, or `DROPSCORE_SCORE_BIN` when set (scripts/test-scoring-program
/// runs tests/score_program.rs with the static musl build this way).
pub fn exe() -> PathBuf {
    std::env::var_os("DROPSCORE_SCORE_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_dropscore")),
        PathBuf::from,
    )
}

/// `dropscore ARGS` in the test's own folder: its exit status (-1 when a signal ended it), standard output and
/// standard error (lossy UTF-8).
pub fn run<S: AsRef<OsStr>>(args: &[S]) -> (i32, String, String) {
    texts(Command::new(exe()).args(args).output().unwrap())
}

/// [`run`] in the folder `dir`.
pub fn run_in<S: AsRef<OsStr>>(dir: impl AsRef<Path>, args: &[S]) -> (i32, String, String) {
    texts(
        Command::new(exe())
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap(),
    )
}

/// [`run`] with the standard output read as the JSON report (`args` ask for it with `--format json`): the exit
/// status and the report. A standard output that is not JSON fails the test, with the standard error.
pub fn run_json<S: AsRef<OsStr> + Debug>(args: &[S]) -> (i32, Value) {
    let (code, out, err) = run(args);
    (code, parse(args, &out, &err))
}

/// [`run_json`] in the folder `dir`.
pub fn run_json_in<S: AsRef<OsStr> + Debug>(dir: impl AsRef<Path>, args: &[S]) -> (i32, Value) {
    let (code, out, err) = run_in(dir, args);
    (code, parse(args, &out, &err))
}

/// The JSON report of `dropscore ARGS --format json -q` run in `dir`, and its bytes. A standard output that is
/// not JSON fails the test, with the standard error.
pub fn cli_json(dir: &Path, args: &[&str]) -> (Value, Vec<u8>) {
    let mut all = args.to_vec();
    all.extend(["--format", "json", "-q"]);
    let (_, out, err) = run_in(dir, &all);
    (parse(&all, &out, &err), out.into_bytes())
}

/// [`run`], failing the test if the command has not ended after `limit` (a FIFO opened for reading would
/// block it for ever).
pub fn run_within<S: AsRef<OsStr> + Debug>(args: &[S], limit: Duration) -> (i32, String, String) {
    let mut child = Command::new(exe())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t.elapsed() > limit {
            let _ = child.kill();
            panic!("dropscore {args:?} still runs after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    texts(child.wait_with_output().unwrap())
}

fn texts(out: Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn parse<S: Debug>(args: &[S], out: &str, err: &str) -> Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("dropscore {args:?}: {e}\n{err}"))
}
