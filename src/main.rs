//! The `dropscore` command line: a thin shell over the library (specs README, "The command line").
//! Exit status: 0 scored (warnings allowed), 1 input errors (all printed, located), 2 usage errors.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::run(std::env::args().collect()));
}

#[cfg(not(target_arch = "wasm32"))]
mod cli;
