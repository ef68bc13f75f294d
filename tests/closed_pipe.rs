//! A closed standard output or error ends the command quietly with a non-zero status: no panic message, no
//! exit 101 (Rust's runtime ignores SIGPIPE; the binary restores the default, as `cat` does).

#![cfg(unix)]

use std::io::Read;
use std::os::fd::FromRawFd;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_dropscore")
}

/// Runs `args` with stdout (or stderr) the writing end of a pipe whose reading end is already closed; returns
/// the exit status and what the other stream said.
fn closed(args: &[&str], stderr_side: bool) -> (std::process::ExitStatus, String) {
    let mut fds = [0; 2];
    // SAFETY: pipe(2) fills two descriptors; the reading one is closed at once, the writing one is owned below.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe");
    unsafe { libc::close(fds[0]) };
    // SAFETY: fds[1] is a fresh descriptor that nothing else owns.
    let write_end = unsafe { std::os::fd::OwnedFd::from_raw_fd(fds[1]) };
    let mut cmd = Command::new(bin());
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
