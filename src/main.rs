//! The `dropscore` command line: a thin shell over the library (specs README, "The command line").
//! Exit status: 0 scored (warnings allowed), 1 input errors (all printed, located), 2 usage errors.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    quiet_on_closed_pipe();
    std::process::exit(cli::run(std::env::args().collect()));
}

/// Rust's runtime ignores SIGPIPE, so a write to a closed pipe (`dropscore list | head -1`) fails with EPIPE and
/// `println!` panics ("failed printing to stdout", exit 101). Restoring the default disposition ends the
/// process quietly on the signal instead, as `cat` or `ls` do (the shell reports status 141).
#[cfg(all(unix, not(target_arch = "wasm32")))]
fn quiet_on_closed_pipe() {
    // SAFETY: signal(2) with SIG_DFL installs no handler; called once, before any other thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(all(not(unix), not(target_arch = "wasm32")))]
fn quiet_on_closed_pipe() {}

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(all(target_os = "linux", not(fuzzing)))]
mod huge_pages;

/// The command line's heap on Linux: the system's, and large allocations mapped in huge pages (see
/// [`huge_pages`]). The binary's own: the library (its tests, the wasm build, programs that link it) keeps
/// its user's allocator. Not under cargo-fuzz, whose sanitizers must see every allocation.
#[cfg(all(target_os = "linux", not(fuzzing)))]
#[global_allocator]
static HEAP: huge_pages::HugePages = huge_pages::HugePages;
