//! dropscore: competition scores computed where the files are.
//!
//! Layers, bottom up. A module imports only from its own layer and those below it (`tests/layers.rs` checks
//! every `crate::` and `super::` path of `src/`):
//! - core: [`diag`] (the located diagnostics), [`report`] (the one `Report` type the outside sees), [`budget`]
//!   (the memory budget every size rule derives from), [`pycompat`] (Python's float repr, `float()`,
//!   `str.split()` and `str.lower()`, as the official scripts see them), [`par`] (two pieces of work at once),
//!   [`items`] (per-item rows held column-wise, and their ids);
//! - [`metrics`]: pure functions, no I/O, each with its formula and source;
//! - [`formats`]: bytes in, typed data out, with located diagnostics (a reader takes a path and bytes or a
//!   reader, never an input entry); [`lemma`], the Russian lemmatiser loaded from its dictionary asset;
//! - [`input`]: files, folders, zips and `.gz` → a set of named, role-tagged entries, within the size limits;
//! - [`protocols`]: one module per competition, composing formats and metrics into a `Report`;
//! - [`render`] (text / TSV / CSV output of a `Report`), [`config`] (the organizers' competition config,
//!   pure), [`html`] (the scoring program's `detailed_results.html`), [`items_query`] (a page of per-item rows);
//! - the thin shells: `wasm` (wasm32 only, with its heap), `fuzzing` (the fuzz targets' bodies), and the
//!   `dropscore` binary (`src/main.rs`: the command line, `src/cli/`, and on Linux its huge-pages heap).

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
#[cfg(all(feature = "python", not(target_arch = "wasm32")))]
pub mod python;
pub mod render;
pub mod report;
pub mod stats;
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
