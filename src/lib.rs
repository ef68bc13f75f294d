//! dropscore: competition scores computed where the files are.
//!
//! Layers (each depends only on those above it):
//! - [`diag`], [`report`]: the located diagnostics and the one `Report` type the outside sees;
//! - [`metrics`]: pure functions, no I/O, each with its formula and source;
//! - [`formats`]: bytes in, typed data out, with located diagnostics;
//! - [`input`]: files, folders, zips and `.gz` → a set of named, role-tagged entries;
//! - [`protocols`]: one module per competition, composing formats and metrics into a `Report`;
//! - [`pycompat`]: Python's float repr, `float()`, `str.split()` and `str.lower()`, as the official scripts see them;
//! - [`config`]: the organizers' competition config (dropscore.toml / its JSON form), pure;
//! - [`render`]: text / TSV / CSV output of a `Report`;
//! - `wasm` (wasm32 only) and the `dropscore` binary: thin shells.

pub mod budget;
pub mod config;
pub mod diag;
pub mod formats;
#[doc(hidden)]
pub mod fuzzing;
pub mod html;
pub mod input;
pub mod items;
pub mod items_query;
pub mod lemma;
pub mod metrics;
pub mod par;
pub mod protocols;
pub mod pycompat;
pub mod render;
pub mod report;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use diag::{Diagnostic, Severity};
pub use report::{Mode, Report};

/// Marsaglia's xorshift64 (13, 7, 17): deterministic random inputs (the tests', and the built-in exercise
/// input of `protocols::exercise`). Advances `x` and returns it.
pub(crate) fn xorshift64(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}
