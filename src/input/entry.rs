//! A named file of the set ([`Entry`]): its path, role and size, and the ways to read it (a stream, in place,
//! whole, or as a [`TextFile`] for the text readers).

use super::source::Source;
use super::{FileSet, Input, Limits, Role, RoleFrom};
use crate::formats::text_file::{Body, TextFile};
use std::io::{self, Read};
use std::rc::Rc;
use std::sync::OnceLock;

/// The function told the path of each entry as it is opened, if a shell set one ([`on_reading`]).
static ON_READING: OnceLock<fn(&str)> = OnceLock::new();

/// Sets the function told the path of each entry as it is opened (the wasm shell shows it to the page's
/// worker, which names that file when the instance traps). The first call wins; by default there is none.
pub fn on_reading(hook: fn(&str)) {
    let _ = ON_READING.set(hook);
}

#[inline]
fn note_reading(path: &str) {
    if let Some(hook) = ON_READING.get() {
        hook(path);
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
    pub(super) source: Source,
    /// Most bytes a whole-entry read may hold ([`Limits::max_entry_bytes`]).
    pub(super) cap: u64,
    /// Longest line or field a streaming reader of this entry holds ([`crate::budget::Budget::field_limit`]).
    pub(super) field: u64,
}

impl Entry {
    /// A stream of the (decompressed) content.
    pub fn open(&self) -> io::Result<Box<dyn Read>> {
        note_reading(&self.path);
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
        note_reading(&self.path);
        self.source.as_slice()
    }
    /// A buffered stream of the content, its buffer sized to the file (8 KiB to 1 MiB): large files are read
    /// in few calls, small ones (and fuzz inputs) allocate little.
    /// Addressable content (in memory, memory-mapped, or a stored zip member of such) is read in place.
    pub fn buffered(&self) -> io::Result<Box<dyn io::BufRead + '_>> {
        note_reading(&self.path);
        if let Some(s) = self.source.as_slice() {
            return Ok(Box::new(s));
        }
        let cap = self.size.saturating_add(1).clamp(8 << 10, 1 << 20) as usize;
        Ok(Box::new(io::BufReader::with_capacity(cap, self.open()?)))
    }
    /// The entry for the text readers of [`crate::formats`]: in place when it is addressable (as
    /// [`Entry::bytes`] gives it), else streamed (as [`Entry::buffered`]), with this entry's line limit.
    pub fn text_file(&self) -> TextFile<'_> {
        let body = match self.bytes() {
            Some(b) => Body::InMemory(b),
            None => match self.buffered() {
                Ok(r) => Body::Stream(r),
                Err(e) => Body::Unreadable(e),
            },
        };
        TextFile {
            path: &self.path,
            body,
            max_line: self.field,
        }
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
