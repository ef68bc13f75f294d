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

#[cfg(not(target_arch = "wasm32"))]
pub struct DiskFile {
    file: std::fs::File,
    len: u64,
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
        Ok(DiskFile {
            file,
            len: meta.len(),
        })
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Blob for DiskFile {
    fn len(&self) -> u64 {
        self.len
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        file_read_at(&self.file, offset, buf)
    }
    fn send_window(&self, start: u64, len: u64) -> Option<Box<dyn Read + Send + '_>> {
        let end = start.saturating_add(len).min(self.len);
        Some(Box::new(FileWindow {
            file: &self.file,
            pos: start.min(end),
            end,
        }))
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
/// [`BlobReader`] over an `Rc`.
#[cfg(not(target_arch = "wasm32"))]
struct FileWindow<'f> {
    file: &'f std::fs::File,
    pos: u64,
    end: u64,
}

#[cfg(not(target_arch = "wasm32"))]
impl Read for FileWindow<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.end.saturating_sub(self.pos);
        if left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(left) as usize;
        let n = file_read_at(self.file, self.pos, &mut buf[..want])?;
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
