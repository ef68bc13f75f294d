//! The input layer: the set of named files a protocol scores, built from single files, folders, `.zip`
//! archives (stored/deflate, one nested level) and `.gz` files. Junk entries are dropped with an info
//! diagnostic, roles (GT or prediction) come from the explicit choice or from path names, and size limits
//! refuse zip bombs before any byte is inflated. Entries are opened as streams: nothing is held whole.

mod blob;
#[cfg(not(target_arch = "wasm32"))]
pub mod disk;
mod entry;
pub mod kind;
mod limits;
#[cfg(not(target_arch = "wasm32"))]
pub mod organizer_file;
#[cfg(not(target_arch = "wasm32"))]
pub mod paths;
mod source;
mod zipped;

#[cfg(not(target_arch = "wasm32"))]
pub use blob::DiskFile;
pub use blob::{Blob, BlobReader};
pub use entry::{on_reading, Entry};
pub use limits::Limits;

use crate::diag::Diagnostic;
use serde::{Deserialize, Serialize};
use source::{gz_size_hint, Source};
use std::io::Read;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Gt,
    Pred,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Gt => "gt",
            Role::Pred => "pred",
        }
    }
    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "gt" | "ref" => Some(Role::Gt),
            "pred" | "res" => Some(Role::Pred),
            _ => None,
        }
    }
}

/// Where a role came from (specs README, "Role detection", steps 1–3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoleFrom {
    Explicit,
    PathName,
    Sniffed,
}

/// One dropped file or folder member, before archives are opened. A path ending in `/` is an empty folder
/// ([`Input::empty_folder`]): it has no content and becomes one of [`FileSet::empty_folders`].
pub struct Input {
    pub path: String,
    pub role: Option<Role>,
    pub blob: Rc<dyn Blob>,
}

impl Input {
    /// An empty folder (on disk, or a zip's directory entry with nothing under it), named `path` (a `/` is
    /// added at the end), so that a protocol can report a folder where it expects files (a manuscript's
    /// empty `test/`).
    pub fn empty_folder(path: &str, role: Option<Role>) -> Input {
        Input {
            path: format!("{}/", path.trim_end_matches('/')),
            role,
            blob: Rc::new(Vec::new()),
        }
    }
}

/// An empty folder of the set: its path (ending in `/`) and role (explicit, or from the path's folders).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmptyFolder {
    pub path: String,
    pub role: Option<Role>,
}

/// The set of named files, plus what the input layer noticed while building it.
#[derive(Clone, Default)]
pub struct FileSet {
    pub entries: Vec<Entry>,
    pub diagnostics: Vec<Diagnostic>,
    /// Folders with no file in them (no entry below them), in the order they were dropped or listed.
    pub empty_folders: Vec<EmptyFolder>,
    /// Decompressed bytes promised so far by compressed entries (against [`Limits::max_total_bytes`]).
    inflated: u64,
}

impl FileSet {
    /// A set of entries already built (a subset of another set, or entries made in memory).
    pub fn of(entries: Vec<Entry>, diagnostics: Vec<Diagnostic>) -> FileSet {
        FileSet {
            entries,
            diagnostics,
            empty_folders: Vec::new(),
            inflated: 0,
        }
    }
    pub fn build(inputs: Vec<Input>, limits: &Limits) -> FileSet {
        let mut set = FileSet::default();
        for input in inputs {
            if input.path.ends_with('/') {
                set.add_empty_folder(input.path, input.role);
                continue;
            }
            set.add(input.path, input.role, Source::Plain(input.blob), limits, 0);
        }
        set
    }

    /// The empty folders of `role`.
    pub fn empty_folders_of(&self, role: Role) -> impl Iterator<Item = &EmptyFolder> {
        self.empty_folders
            .iter()
            .filter(move |f| f.role == Some(role))
    }

    fn add_empty_folder(&mut self, path: String, role: Option<Role>) {
        if junk(&path).is_some() {
            return;
        }
        // The folder's own name marks a role too (`res/` empty): a marker for a file inside it.
        let role = role.or_else(|| role_from_path(&format!("{path}x")));
        self.empty_folders.push(EmptyFolder { path, role });
    }

    pub fn with_role(&self, role: Role) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(move |e| e.role == Some(role))
    }

    fn add(
        &mut self,
        path: String,
        role: Option<Role>,
        source: Source,
        limits: &Limits,
        depth: u32,
    ) {
        if let Some(why) = junk(&path) {
            self.diagnostics.push(
                Diagnostic::info("input.ignored_file", format!("{why} ignored"))
                    .file(&path)
                    .hint("System files are never scored; nothing to do."),
            );
            return;
        }
        let (magic, n) = match first_bytes(&source) {
            Ok(h) => h,
            Err(e) => {
                self.diagnostics.push(Diagnostic::read_error(&path, e));
                return;
            }
        };
        let is_gz = n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b;
        let is_zip =
            n >= 4 && &magic[..2] == b"PK" && matches!((magic[2], magic[3]), (3, 4) | (5, 6));
        if is_gz {
            self.add_gz(path, role, source, limits, depth);
        } else if is_zip {
            if depth >= 2 {
                self.diagnostics.push(
                    Diagnostic::info(
                        "input.zip_too_deep",
                        "a zip nested more than one level deep is not opened",
                    )
                    .file(&path)
                    .hint("Unzip the inner archive and drop its files."),
                );
                return;
            }
            zipped::expand(self, &path, role, source, limits, depth);
        } else {
            let size = source.raw_len();
            self.push_entry(path, role, size, source, limits);
        }
    }

    /// Adds the content of the `.gz` file `source` as one entry, inflated on the fly (within the per-file
    /// limit and the ratio rule), its size counted against the run's total.
    fn add_gz(
        &mut self,
        path: String,
        role: Option<Role>,
        source: Source,
        limits: &Limits,
        depth: u32,
    ) {
        let compressed = source.raw_len();
        let limit = limits.max_entry_bytes.min(
            compressed
                .saturating_mul(limits.max_ratio)
                .max(limits.ratio_floor),
        );
        let size = gz_size_hint(&source).unwrap_or(compressed);
        if !self.charge(&path, size, limits) {
            return;
        }
        let gz = Source::Gz(Box::new(source), limit);
        if path.to_ascii_lowercase().ends_with(".zip.gz") && depth == 0 {
            self.diagnostics.push(
                Diagnostic::info(
                    "input.zip_in_gz",
                    "a zip inside a .gz is scored as one file, not opened",
                )
                .file(&path),
            );
        }
        self.push_entry(path, role, size, gz, limits);
    }

    /// Counts `size` decompressed bytes of entry `path` against the total budget; `false` (with a located
    /// refusal) once the total would exceed it.
    fn charge(&mut self, path: &str, size: u64, limits: &Limits) -> bool {
        let total = self.inflated.saturating_add(size);
        if total > limits.max_total_bytes {
            self.diagnostics.push(
                Diagnostic::error(
                    "input.limit",
                    format!(
                        "the compressed files inflate to more than {} in all (twice max_memory = {}): this \
                         file ({}) is not read; {}",
                        crate::budget::human(limits.max_total_bytes),
                        crate::budget::human(limits.budget.max_memory),
                        crate::budget::human(size),
                        crate::budget::RAISE
                    ),
                )
                .file(path)
                .expected(format!("at most {} decompressed in all", crate::budget::human(limits.max_total_bytes)))
                .found(format!("{} so far", crate::budget::human(total)))
                .hint("Score fewer files at once, or drop the uncompressed files."),
            );
            return false;
        }
        self.inflated = total;
        true
    }

    fn push_entry(
        &mut self,
        path: String,
        role: Option<Role>,
        size: u64,
        source: Source,
        limits: &Limits,
    ) {
        let (role, role_from) = match role {
            Some(r) => (Some(r), Some(RoleFrom::Explicit)),
            None => match role_from_path(&path) {
                Some(r) => (Some(r), Some(RoleFrom::PathName)),
                None => (None, None),
            },
        };
        self.entries.push(Entry {
            path,
            role,
            role_from,
            size,
            source,
            cap: limits.max_entry_bytes,
            field: limits.budget.field_limit(),
        });
    }
}

/// Up to the first 4 bytes of `source` (its magic number) and how many there are.
fn first_bytes(source: &Source) -> std::io::Result<([u8; 4], usize)> {
    let mut r = source.open()?;
    let mut h = [0u8; 4];
    let mut n = 0;
    while n < 4 {
        let k = r.read(&mut h[n..])?;
        if k == 0 {
            break;
        }
        n += k;
    }
    Ok((h, n))
}

/// Why a path is junk (specs README, "Inputs"), or `None`.
pub fn junk(path: &str) -> Option<&'static str> {
    let mut parts = path.split(['/', '\\', '!']).filter(|p| !p.is_empty());
    let last = path.rsplit(['/', '\\', '!']).next().unwrap_or(path);
    if parts.any(|p| p == "__MACOSX") {
        return Some("macOS resource folder __MACOSX/");
    }
    if last.starts_with("._") {
        return Some("macOS resource fork ._*");
    }
    match last {
        ".DS_Store" => Some("macOS .DS_Store"),
        "Thumbs.db" | "thumbs.db" => Some("Windows Thumbs.db"),
        "desktop.ini" => Some("Windows desktop.ini"),
        _ => None,
    }
}

/// Role from a path component (`ref`, `gt`, … / `res`, `pred`, …); the innermost marked component wins.
pub fn role_from_path(path: &str) -> Option<Role> {
    let comps: Vec<&str> = path.split(['/', '\\', '!']).collect();
    // The last component is the file itself: only folders (and archive names) mark a role.
    for c in comps[..comps.len().saturating_sub(1)].iter().rev() {
        let c = c.to_ascii_lowercase();
        let c = c.strip_suffix(".zip").unwrap_or(&c);
        match c {
            "ref" | "gt" | "ground_truth" | "reference" => return Some(Role::Gt),
            "res" | "pred" | "predictions" | "submission" | "results" => return Some(Role::Pred),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_from_paths() {
        assert_eq!(role_from_path("input/ref/gt.xml"), Some(Role::Gt));
        assert_eq!(role_from_path("input/res/a.txt"), Some(Role::Pred));
        assert_eq!(role_from_path("sub.zip!res/a.txt"), Some(Role::Pred));
        assert_eq!(role_from_path("ref.xml"), None);
        assert_eq!(role_from_path("x/results/ref/a"), Some(Role::Gt));
    }

    #[test]
    fn junk_names() {
        assert!(junk("a/__MACOSX/x").is_some());
        assert!(junk("z.zip!._x.txt").is_some());
        assert!(junk("d/.DS_Store").is_some());
        assert!(junk("d/a.txt").is_none());
    }
}
