//! Where an entry's bytes come from: a blob, a member of a zip in a blob, or the content of a `.gz`; each
//! opened as a stream that inflates on the fly within its declared size.

use super::limits::Limited;
use super::{Blob, BlobReader};
use flate2::read::{DeflateDecoder, MultiGzDecoder};
use std::io::{self, Read};
use std::rc::Rc;

#[derive(Clone)]
pub(super) enum Source {
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
    pub(super) fn open(&self) -> io::Result<Box<dyn Read>> {
        Ok(match self {
            Source::Plain(b) => window(b, 0, b.len())?,
            Source::Member {
                blob,
                start,
                clen,
                method,
                limit,
            } => {
                let raw = window(blob, *start, *clen)?;
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
    pub(super) fn open_send(&self) -> Option<Box<dyn Read + Send + '_>> {
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
    pub(super) fn as_slice(&self) -> Option<&[u8]> {
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
    pub(super) fn raw_len(&self) -> u64 {
        match self {
            Source::Plain(b) => b.len(),
            Source::Member { clen, .. } => *clen,
            Source::Gz(inner, _) => inner.raw_len(),
        }
    }
}

/// A reader of `[start, start + len)` of `blob`: one that owns its opened file for a file on disk (closed when
/// the reader is dropped), a [`BlobReader`] otherwise.
fn window(blob: &Rc<dyn Blob>, start: u64, len: u64) -> io::Result<Box<dyn Read>> {
    match blob.own_window(start, len) {
        Some(r) => r,
        None => Ok(Box::new(BlobReader::window(blob.clone(), start, len))),
    }
}

/// The gzip ISIZE trailer: the decompressed size modulo 2³² (of the last member).
pub(super) fn gz_size_hint(source: &Source) -> Option<u64> {
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
