//! dropscore: competition scores computed where the files are.
//!
//! Layers (each depends only on those above it):
//! - [`diag`], [`report`]: the located diagnostics and the one `Report` type the outside sees;
//! - [`metrics`]: pure functions, no I/O, each with its formula and source;
//! - [`formats`]: bytes in, typed data out, with located diagnostics;
//! - [`input`]: files, folders, zips and `.gz` → a set of named, role-tagged entries;
//! - [`protocols`]: one module per competition, composing formats and metrics into a `Report`;
//! - [`config`]: the organizers' competition config (dropscore.toml / its JSON form), pure;
//! - [`render`]: text / TSV / CSV output of a `Report`;
//! - `wasm` (wasm32 only) and the `dropscore` binary: thin shells.

pub mod config;
pub mod diag;
pub mod formats;
pub mod html;
pub mod input;
pub mod lemma;
pub mod metrics;
pub mod protocols;
pub mod render;
pub mod report;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use diag::{Diagnostic, Severity};
pub use report::{Mode, Report};
