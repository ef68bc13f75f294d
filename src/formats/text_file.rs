//! What a text reader is given: the file's path (to locate its diagnostics), its content, in memory or as a
//! stream, and the longest line it may hold. The input layer makes one of each entry it opens
//! (`input::Entry::text_file`); tests and tools make one from bytes.

use std::io::{self, BufRead};

/// A text file to read.
pub struct TextFile<'a> {
    /// The path as the user gave it (`sub.zip!res/La_Tomatina.txt`), named in every diagnostic.
    pub path: &'a str,
    pub body: Body<'a>,
    /// The longest line or field a streaming reader holds ([`crate::budget::Budget::field_limit`]).
    pub max_line: u64,
}

/// The content of a [`TextFile`].
pub enum Body<'a> {
    /// Uncompressed and addressable (in memory, memory-mapped, a stored zip member of such): read in place.
    InMemory(&'a [u8]),
    /// Anything else (inflated on the fly), read through a buffer.
    Stream(Box<dyn BufRead + 'a>),
    /// The file could not be opened.
    Unreadable(io::Error),
}

impl<'a> TextFile<'a> {
    /// `bytes` under `path`, with the default budget's line limit.
    pub fn in_memory(path: &'a str, bytes: &'a [u8]) -> Self {
        TextFile {
            path,
            body: Body::InMemory(bytes),
            max_line: crate::budget::Budget::default().field_limit(),
        }
    }
    /// The content as one buffered stream (in-memory content read in place), or why it cannot be opened.
    pub fn into_reader(self) -> io::Result<Box<dyn BufRead + 'a>> {
        match self.body {
            Body::InMemory(b) => Ok(Box::new(b)),
            Body::Stream(r) => Ok(r),
            Body::Unreadable(e) => Err(e),
        }
    }
}
