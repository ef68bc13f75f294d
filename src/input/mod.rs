//! The input layer: the set of named files a protocol scores, built from single files, folders, `.zip`
//! archives (stored/deflate, one nested level) and `.gz` files. Junk entries are dropped with an info
//! diagnostic, roles (GT or prediction) come from the explicit choice or from path names, and size limits
//! refuse zip bombs before any byte is inflated. Entries are opened as streams: nothing is held whole.

mod blob;
#[cfg(not(target_arch = "wasm32"))]
pub mod disk;
pub mod kind;
mod zipped;

#[cfg(not(target_arch = "wasm32"))]
pub use blob::DiskFile;
pub use blob::{Blob, BlobReader};

use crate::diag::Diagnostic;
use flate2::read::{DeflateDecoder, MultiGzDecoder};
use serde::{Deserialize, Serialize};
use std::io::{self, Read};
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

/// One dropped file or folder member, before archives are opened.
pub struct Input {
    pub path: String,
    pub role: Option<Role>,
    pub blob: Rc<dyn Blob>,
}

/// Size limits, derived from the run's memory budget ([`crate::budget::Budget`]; README, "Limits and the
/// memory budget"). Defaults suit a browser tab and a scoring server alike.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The budget the limits derive from (named in every refusal).
    pub budget: crate::budget::Budget,
    /// Largest decompressed size of one entry: half the budget (1 GiB by default).
    pub max_entry_bytes: u64,
    /// Decompressed bytes across all compressed entries of the run (zip deflate members and `.gz`): twice
    /// the budget. They are streamed, not held, but a few kilobytes must not buy hours of inflating.
    pub max_total_bytes: u64,
    /// Largest compression ratio accepted for entries whose decompressed size exceeds `ratio_floor`. Deflate
    /// tops out near 1032:1, so the rule must sit well below that to fire at all: 250:1 above 64 MiB is
    /// beyond any real text (qrels, runs and XML compress 5–30:1) and typical of a bomb.
    pub max_ratio: u64,
    pub ratio_floor: u64,
    /// Largest zip nested inside a zip (it is inflated into memory to be opened).
    pub max_nested_zip: u64,
    /// Most entries in one archive.
    pub max_entries: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits::from_budget(crate::budget::Budget::default())
    }
}

impl Limits {
    pub fn from_budget(budget: crate::budget::Budget) -> Limits {
        Limits {
            budget,
            max_entry_bytes: budget.entry_limit(),
            max_total_bytes: budget.total_limit(),
            max_ratio: 250,
            ratio_floor: 64 << 20,
            max_nested_zip: budget.entry_limit().min(1 << 30),
            max_entries: 200_000,
        }
    }
    /// The limits for `--set` pairs (their `max_memory`, or the default budget).
    pub fn from_set(set: &[(String, String)]) -> Limits {
        Limits::from_budget(crate::budget::Budget::from_set(set))
    }
    /// The refusal of a decompressed size over the per-entry limit.
    pub(crate) fn entry_refusal(&self, what: &str, size: u64) -> String {
        format!(
            "{what} {} decompressed, over the per-file limit of {} (half of max_memory = {}); {}",
            crate::budget::human(size),
            crate::budget::human(self.max_entry_bytes),
            crate::budget::human(self.budget.max_memory),
            crate::budget::RAISE
        )
    }
}

#[derive(Clone)]
enum Source {
    Plain(Rc<dyn Blob>),
    /// A zip member: `method` 0 = stored, 8 = deflate; `limit` = declared size.
    Member {
        blob: Rc<dyn Blob>,
        start: u64,
        clen: u64,
        method: u16,
        limit: u64,
    },
    Gz(Box<Source>, u64),
}

impl Source {
    fn open(&self) -> io::Result<Box<dyn Read>> {
        Ok(match self {
            Source::Plain(b) => Box::new(BlobReader::new(b.clone())),
            Source::Member {
                blob,
                start,
                clen,
                method,
                limit,
            } => {
                let raw = BlobReader::window(blob.clone(), *start, *clen);
                match method {
                    0 => Box::new(raw),
                    _ => Box::new(Limited::new(DeflateDecoder::new(raw), *limit)),
                }
            }
            Source::Gz(inner, limit) => {
                Box::new(Limited::new(MultiGzDecoder::new(inner.open()?), *limit))
            }
        })
    }
    /// [`Source::open`] as a reader that may move to another thread, where the blob allows it (natively).
    #[cfg(not(target_arch = "wasm32"))]
    fn open_send(&self) -> Option<Box<dyn Read + Send + '_>> {
        Some(match self {
            Source::Plain(b) => b.send_window(0, b.len())?,
            Source::Member {
                blob,
                start,
                clen,
                method,
                limit,
            } => {
                let raw = blob.send_window(*start, *clen)?;
                match method {
                    0 => raw,
                    _ => Box::new(Limited::new(DeflateDecoder::new(raw), *limit)),
                }
            }
            Source::Gz(inner, limit) => Box::new(Limited::new(
                MultiGzDecoder::new(inner.open_send()?),
                *limit,
            )),
        })
    }
    /// The content in place, where no decompression is needed and the bytes are addressable.
    fn as_slice(&self) -> Option<&[u8]> {
        match self {
            Source::Plain(b) => b.as_slice(),
            Source::Member {
                blob,
                start,
                clen,
                method: 0,
                ..
            } => {
                let s = blob.as_slice()?;
                let a = usize::try_from(*start).ok()?;
                let e = a.checked_add(usize::try_from(*clen).ok()?)?;
                s.get(a..e)
            }
            _ => None,
        }
    }
    fn raw_len(&self) -> u64 {
        match self {
            Source::Plain(b) => b.len(),
            Source::Member { clen, .. } => *clen,
            Source::Gz(inner, _) => inner.raw_len(),
        }
    }
}

/// Fails a read once more than `limit` bytes came out (a zip bomb, or a header that lies).
struct Limited<R> {
    inner: R,
    left: u64,
    limit: u64,
}

impl<R: Read> Limited<R> {
    fn new(inner: R, limit: u64) -> Self {
        Limited {
            inner,
            left: limit,
            limit,
        }
    }
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            return Err(crate::budget::limit_error(format!(
                "decompressed data exceeds {} (the size its archive declares, or the per-file limit of half \
                 of max_memory): refused as a possible zip bomb; {}",
                crate::budget::human(self.limit),
                crate::budget::RAISE
            )));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// A named file ready to be read by a protocol.
#[derive(Clone)]
pub struct Entry {
    /// Path as dropped, with `!` separating archive members: `sub.zip!res/La_Tomatina.txt`.
    pub path: String,
    pub role: Option<Role>,
    pub role_from: Option<RoleFrom>,
    /// Decompressed size (exact for plain and zip members; from the gzip trailer for `.gz`, modulo 2³²).
    pub size: u64,
    source: Source,
    /// Most bytes a whole-entry read may hold ([`Limits::max_entry_bytes`]).
    cap: u64,
    /// Longest line or field a streaming reader of this entry holds ([`crate::budget::Budget::field_limit`]).
    field: u64,
}

impl Entry {
    /// A stream of the (decompressed) content.
    pub fn open(&self) -> io::Result<Box<dyn Read>> {
        #[cfg(target_arch = "wasm32")]
        crate::wasm::note_reading(&self.path);
        self.source.open()
    }
    /// [`Entry::open`] as a reader that may move to another thread: natively, for a file on disk or in memory,
    /// zipped or gzipped or not (`None` in wasm, whose blobs stay on their thread).
    pub fn open_send(&self) -> Option<Box<dyn Read + Send + '_>> {
        #[cfg(not(target_arch = "wasm32"))]
        return self.source.open_send();
        #[cfg(target_arch = "wasm32")]
        None
    }
    /// The content, when it is already in memory uncompressed (a plain file or a stored zip member).
    pub fn bytes(&self) -> Option<&[u8]> {
        #[cfg(target_arch = "wasm32")]
        crate::wasm::note_reading(&self.path);
        self.source.as_slice()
    }
    /// A buffered stream of the content, its buffer sized to the file (8 KiB to 1 MiB): large files are read
    /// in few calls, small ones (and fuzz inputs) allocate little.
    /// Addressable content (in memory, memory-mapped, or a stored zip member of such) is read in place.
    pub fn buffered(&self) -> io::Result<Box<dyn io::BufRead + '_>> {
        #[cfg(target_arch = "wasm32")]
        crate::wasm::note_reading(&self.path);
        if let Some(s) = self.source.as_slice() {
            return Ok(Box::new(s));
        }
        let cap = self.size.saturating_add(1).clamp(8 << 10, 1 << 20) as usize;
        Ok(Box::new(io::BufReader::with_capacity(cap, self.open()?)))
    }
    /// Up to `n` bytes from the start of the (decompressed) content.
    pub fn head(&self, n: usize) -> io::Result<Vec<u8>> {
        let mut v = Vec::with_capacity(n.min(self.size.saturating_add(1).min(1 << 20) as usize));
        self.open()?.take(n as u64).read_to_end(&mut v)?;
        Ok(v)
    }
    /// The whole (decompressed) content. Use for small files only: beyond the per-file limit (half of
    /// max_memory) it is refused before allocating, with an error that names the limit.
    pub fn read_all(&self) -> io::Result<Vec<u8>> {
        let refuse = |size: u64| {
            crate::budget::limit_error(format!(
                "the file is {} decompressed, over the limit of {} for a file read whole (half of max_memory): \
                 refused before allocating; {}",
                if size > self.cap { crate::budget::human(size) } else { "more than that".into() },
                crate::budget::human(self.cap),
                crate::budget::RAISE
            ))
        };
        if self.size > self.cap {
            return Err(refuse(self.size));
        }
        let mut v = Vec::with_capacity(self.size.min(64 << 20) as usize);
        self.open()?.take(self.cap + 1).read_to_end(&mut v)?;
        if v.len() as u64 > self.cap {
            return Err(refuse(0));
        }
        Ok(v)
    }
    /// The longest line or field a streaming reader of this entry may hold (1/32 of max_memory).
    pub fn field_limit(&self) -> u64 {
        self.field
    }
    /// Stored size (compressed for archive members and `.gz`).
    pub fn raw_len(&self) -> u64 {
        self.source.raw_len()
    }
    /// Last path component, without a `.gz` suffix.
    pub fn name(&self) -> &str {
        let last = self
            .path
            .rsplit(['/', '\\', '!'])
            .next()
            .unwrap_or(&self.path);
        last.strip_suffix(".gz").unwrap_or(last)
    }
    /// A file whose (decompressed) content is already in memory, taken as it is: no archive or gzip detection.
    /// Entries are not `Send` (their blobs may be the browser's); paths and bytes are, so a native caller can
    /// read an entry on one thread (`read_all`) and parse it on another as `Entry::plain(path, role, …, bytes)`.
    pub fn plain(
        path: String,
        role: Option<Role>,
        role_from: Option<RoleFrom>,
        bytes: Vec<u8>,
    ) -> Entry {
        Entry {
            path,
            role,
            role_from,
            size: bytes.len() as u64,
            source: Source::Plain(Rc::new(bytes)),
            cap: Limits::default().max_entry_bytes,
            field: crate::budget::Budget::default().field_limit(),
        }
    }
    /// An in-memory entry (tests, fuzzing, examples).
    pub fn from_bytes(path: &str, role: Option<Role>, bytes: Vec<u8>) -> Entry {
        let mut set = FileSet::build(
            vec![Input {
                path: path.to_string(),
                role,
                blob: Rc::new(bytes),
            }],
            &Limits::default(),
        );
        set.entries.pop().unwrap_or_else(|| Entry {
            path: path.to_string(),
            role,
            role_from: role.map(|_| RoleFrom::Explicit),
            size: 0,
            source: Source::Plain(Rc::new(Vec::new())),
            cap: Limits::default().max_entry_bytes,
            field: crate::budget::Budget::default().field_limit(),
        })
    }
}

/// The set of named files, plus what the input layer noticed while building it.
#[derive(Clone, Default)]
pub struct FileSet {
    pub entries: Vec<Entry>,
    pub diagnostics: Vec<Diagnostic>,
    /// Decompressed bytes promised so far by compressed entries (against [`Limits::max_total_bytes`]).
    inflated: u64,
}

impl FileSet {
    /// A set of entries already built (a subset of another set, or entries made in memory).
    pub fn of(entries: Vec<Entry>, diagnostics: Vec<Diagnostic>) -> FileSet {
        FileSet {
            entries,
            diagnostics,
            inflated: 0,
        }
    }
    pub fn build(inputs: Vec<Input>, limits: &Limits) -> FileSet {
        let mut set = FileSet::default();
        for input in inputs {
            set.add(input.path, input.role, Source::Plain(input.blob), limits, 0);
        }
        set
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
        let head = match source.open().and_then(|mut r| {
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
        }) {
            Ok(h) => h,
            Err(e) => {
                self.diagnostics.push(Diagnostic::read_error(&path, e));
                return;
            }
        };
        let (magic, n) = head;
        let is_gz = n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b;
        let is_zip =
            n >= 4 && &magic[..2] == b"PK" && matches!((magic[2], magic[3]), (3, 4) | (5, 6));
        if is_gz {
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
            let inner_path = path.clone();
            if inner_path.to_ascii_lowercase().ends_with(".zip.gz") && depth == 0 {
                self.diagnostics.push(
                    Diagnostic::info(
                        "input.zip_in_gz",
                        "a zip inside a .gz is scored as one file, not opened",
                    )
                    .file(&path),
                );
            }
            self.push_entry(path, role, size, gz, limits);
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

/// The gzip ISIZE trailer: the decompressed size modulo 2³² (of the last member).
fn gz_size_hint(source: &Source) -> Option<u64> {
    if let Source::Plain(b) = source {
        let len = b.len();
        if len >= 18 {
            let mut t = [0u8; 4];
            if b.read_at(len - 4, &mut t).ok()? == 4 {
                return Some(u32::from_le_bytes(t) as u64);
            }
        }
    }
    None
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
