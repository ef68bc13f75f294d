//! Random-access byte sources: a file on disk, bytes in memory, or (in wasm) a browser `Blob` read in chunks.
//! Nothing here reads a whole file unless asked to.

use std::io::{self, Read, Seek, SeekFrom};
use std::rc::Rc;

pub trait Blob {
    fn len(&self) -> u64;
    /// Reads up to `buf.len()` bytes at `offset`; returns 0 only at or past the end.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize>;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The whole content as one slice, when it is addressable (in memory or memory-mapped): readers then
    /// parse it in place, without copying it into a buffer.
    fn as_slice(&self) -> Option<&[u8]> {
        None
    }
    /// A reader of the window `[start, start + len)` that owns what it reads from (a file on disk opened for
    /// it, closed when the reader is dropped); `None` where a [`BlobReader`] over the blob does as well.
    fn own_window(&self, _start: u64, _len: u64) -> Option<io::Result<Box<dyn Read>>> {
        None
    }
    /// Keeps the blob's file open until [`Blob::release`] (many small reads in a row: a zip's directory);
    /// otherwise each positioned read opens and closes it. Nothing to do for bytes in memory.
    fn hold(&self) {}
    /// Ends a [`Blob::hold`].
    fn release(&self) {}
    /// A reader of the window `[start, start + len)` that may move to another thread (natively: bytes in
    /// memory, or a file on disk read by position), so that a reader can decode ahead of its checker.
    #[cfg(not(target_arch = "wasm32"))]
    fn send_window(&self, start: u64, len: u64) -> Option<Box<dyn Read + Send + '_>> {
        let s = self.as_slice()?;
        let a = usize::try_from(start).ok()?.min(s.len());
        let e = a.saturating_add(usize::try_from(len).ok()?).min(s.len());
        Some(Box::new(&s[a..e]))
    }
}

fn slice_read_at(s: &[u8], offset: u64, buf: &mut [u8]) -> io::Result<usize> {
    let start = offset.min(s.len() as u64) as usize;
    let n = buf.len().min(s.len() - start);
    buf[..n].copy_from_slice(&s[start..start + n]);
    Ok(n)
}

impl Blob for Vec<u8> {
    fn len(&self) -> u64 {
        self.as_slice().len() as u64
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        slice_read_at(self, offset, buf)
    }
    fn as_slice(&self) -> Option<&[u8]> {
        Some(self)
    }
}

/// Holds a blob's file open while it lives ([`Blob::hold`]).
pub(super) struct Held<'a>(&'a dyn Blob);

impl<'a> Held<'a> {
    pub(super) fn new(blob: &'a dyn Blob) -> Self {
        blob.hold();
        Held(blob)
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.0.release();
    }
}

/// A regular file on disk, known by its path and size. It is opened only while it is read and closed after
/// (a stream owns its file; a positioned read opens it for that read), so a submission of 100,000 files
/// needs no more descriptors than the files read at once. Each opening checks that the path still names the
/// file that was listed (same device and inode, a regular file, no link where none was followed).
#[cfg(not(target_arch = "wasm32"))]
pub struct DiskFile {
    path: std::path::PathBuf,
    follow: bool,
    len: u64,
    /// Device and inode at listing time (unix).
    id: (u64, u64),
    /// The file while [`Blob::hold`] keeps it open, and how many holds there are.
    held: std::cell::RefCell<(Option<std::sync::Arc<std::fs::File>>, u32)>,
}

#[cfg(not(target_arch = "wasm32"))]
impl DiskFile {
    /// Opens a regular file for positioned reads, following a symbolic link (a path the user named). (Not
    /// memory-mapped: a map would count the whole file in the process's resident memory, and streaming keeps
    /// memory to one query block.) Anything but a regular file is refused, and opening never waits: a FIFO
    /// is opened non-blocking and then refused, a terminal never becomes the controlling one.
    pub fn open(path: &std::path::Path) -> io::Result<Self> {
        Self::open_with(path, true)
    }

    /// As [`DiskFile::open`], but a symbolic link is refused too (a file found in a folder: the walk never
    /// leaves the folder, even when a link replaced the file after it was listed).
    pub fn open_no_follow(path: &std::path::Path) -> io::Result<Self> {
        Self::open_with(path, false)
    }

    fn open_with(path: &std::path::Path, follow: bool) -> io::Result<Self> {
        let (_, meta) = open_regular(path, follow)?;
        Ok(DiskFile {
            path: path.to_path_buf(),
            follow,
            len: meta.len(),
            id: identity(&meta),
            held: Default::default(),
        })
    }

    /// Opens the file again for a read: the same file as listed, or an error that says it changed.
    fn reopen(&self) -> io::Result<std::sync::Arc<std::fs::File>> {
        if let Some(f) = &self.held.borrow().0 {
            return Ok(f.clone());
        }
        let (file, meta) = open_regular(&self.path, self.follow)?;
        if identity(&meta) != self.id {
            return Err(io::Error::other(
                "the file was replaced since the folder was listed",
            ));
        }
        Ok(std::sync::Arc::new(file))
    }
}

/// Opens `path` for reading, never waiting and never becoming the controlling terminal; anything but a
/// regular file is refused (and a symbolic link unless `follow`).
#[cfg(not(target_arch = "wasm32"))]
fn open_regular(
    path: &std::path::Path,
    follow: bool,
) -> io::Result<(std::fs::File, std::fs::Metadata)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let nofollow = if follow { 0 } else { libc::O_NOFOLLOW };
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | nofollow);
    }
    #[cfg(not(unix))]
    if !follow && std::fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a symbolic link",
        ));
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            if meta.is_dir() {
                "a folder, not a file"
            } else {
                "not a regular file"
            },
        ));
    }
    Ok((file, meta))
}

#[cfg(all(unix, not(target_arch = "wasm32")))]
fn identity(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(all(not(unix), not(target_arch = "wasm32")))]
fn identity(_: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

#[cfg(not(target_arch = "wasm32"))]
impl Blob for DiskFile {
    fn len(&self) -> u64 {
        self.len
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        let file = self.reopen()?;
        file_read_at(&file, offset, buf)
    }
    fn own_window(&self, start: u64, len: u64) -> Option<io::Result<Box<dyn Read>>> {
        Some(self.reopen().map(|file| {
            let end = start.saturating_add(len).min(self.len);
            Box::new(FileWindow {
                file,
                pos: start.min(end),
                end,
            }) as Box<dyn Read>
        }))
    }
    fn hold(&self) {
        let mut held = self.held.borrow_mut();
        if held.1 == 0 {
            held.0 = open_regular(&self.path, self.follow)
                .ok()
                .filter(|(_, m)| identity(m) == self.id)
                .map(|(f, _)| std::sync::Arc::new(f));
        }
        held.1 += 1;
    }
    fn release(&self) {
        let mut held = self.held.borrow_mut();
        held.1 = held.1.saturating_sub(1);
        if held.1 == 0 {
            held.0 = None;
        }
    }
    fn send_window(&self, start: u64, len: u64) -> Option<Box<dyn Read + Send + '_>> {
        let end = start.saturating_add(len).min(self.len);
        Some(match self.reopen() {
            Ok(file) => Box::new(FileWindow {
                file,
                pos: start.min(end),
                end,
            }),
            Err(e) => Box::new(Failed(Some(e))),
        })
    }
}

/// A reader whose first read fails with the error that kept its file from opening.
#[cfg(not(target_arch = "wasm32"))]
struct Failed(Option<io::Error>);

#[cfg(not(target_arch = "wasm32"))]
impl Read for Failed {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(self
            .0
            .take()
            .unwrap_or_else(|| io::Error::other("the file could not be opened")))
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn file_read_at(file: &std::fs::File, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        std::os::windows::fs::FileExt::seek_read(file, buf, offset)
    }
}

/// A window of a file on disk, read by position (the file's own offset is not used): `Send`, unlike a
/// [`BlobReader`] over an `Rc`. The file closes when the last window (or hold) on it is dropped.
#[cfg(not(target_arch = "wasm32"))]
struct FileWindow {
    file: std::sync::Arc<std::fs::File>,
    pos: u64,
    end: u64,
}

#[cfg(not(target_arch = "wasm32"))]
impl Read for FileWindow {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.end.saturating_sub(self.pos);
        if left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(left) as usize;
        let n = file_read_at(&self.file, self.pos, &mut buf[..want])?;
        self.pos += n as u64;
        Ok(n)
    }
}

/// A `Read + Seek` cursor over a window `[start, end)` of a blob.
#[derive(Clone)]
pub struct BlobReader {
    blob: Rc<dyn Blob>,
    start: u64,
    end: u64,
    pos: u64,
}

impl BlobReader {
    pub fn new(blob: Rc<dyn Blob>) -> Self {
        let end = blob.len();
        BlobReader {
            blob,
            start: 0,
            end,
            pos: 0,
        }
    }
    pub fn window(blob: Rc<dyn Blob>, start: u64, len: u64) -> Self {
        let end = start.saturating_add(len).min(blob.len());
        BlobReader {
            blob,
            start,
            end,
            pos: start.min(end),
        }
    }
}

impl Read for BlobReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.end.saturating_sub(self.pos);
        if left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(left) as usize;
        let n = self.blob.read_at(self.pos, &mut buf[..want])?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for BlobReader {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        let len = self.end - self.start;
        let rel = self.pos - self.start;
        let new = match pos {
            SeekFrom::Start(o) => Some(o),
            SeekFrom::End(d) => len.checked_add_signed(d),
            SeekFrom::Current(d) => rel.checked_add_signed(d),
        };
        match new {
            Some(n) => {
                self.pos = self.start + n.min(len);
                Ok(n.min(len))
            }
            None => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek before start",
            )),
        }
    }
}
