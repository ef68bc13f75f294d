//! Dropped files into wasm: a browser Blob read in slices ([`WebBlob`]) or whole, and the page's file list
//! (`[{ path, role, data }]`) as inputs.

use crate::input::{Blob, Input, Role};
use crate::protocols::Progress;
use js_sys::{Array, Reflect, Uint8Array};
use std::io;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A browser Blob read in slices (only inside a worker, where `FileReaderSync` exists). Each trip into JS
/// fetches a 4 MiB chunk; the readers' smaller reads are served from it.
struct WebBlob {
    blob: web_sys::Blob,
    reader: web_sys::FileReaderSync,
    len: u64,
    /// (offset, bytes) of the last chunk read.
    chunk: std::cell::RefCell<(u64, Vec<u8>)>,
}

const CHUNK: u64 = 4 << 20;

impl WebBlob {
    fn fetch_array(&self, offset: u64, n: u64) -> io::Result<Uint8Array> {
        let part = self
            .blob
            .slice_with_f64_and_f64(offset as f64, (offset + n) as f64)
            .map_err(|e| io::Error::other(format!("{e:?}")))?;
        let ab = self
            .reader
            .read_as_array_buffer(&part)
            .map_err(|e| io::Error::other(format!("{e:?}")))?;
        Ok(Uint8Array::new(&ab))
    }
    fn fetch(&self, offset: u64, n: u64) -> io::Result<Vec<u8>> {
        Ok(self.fetch_array(offset, n)?.to_vec())
    }
    /// The whole content, read front to back once in [`WHOLE_SLICE`] slices (`read(bytes so far)` after each);
    /// `None` when wasm memory cannot hold it or a read fails (the caller then reads lazily, and a failing read
    /// becomes a diagnostic there).
    fn read_whole(&self, read: &mut dyn FnMut(u64)) -> Option<Vec<u8>> {
        let len = usize::try_from(self.len).ok()?;
        let mut out = Vec::new();
        out.try_reserve_exact(len).ok()?;
        out.resize(len, 0);
        let mut at = 0u64;
        while at < self.len {
            let arr = self.fetch_array(at, WHOLE_SLICE.min(self.len - at)).ok()?;
            let n = arr.length() as u64;
            if n == 0 || at + n > self.len {
                return None;
            }
            arr.copy_to(&mut out[at as usize..(at + n) as usize]);
            at += n;
            read(at);
        }
        Some(out)
    }
}

impl Blob for WebBlob {
    fn len(&self) -> u64 {
        self.len
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        if offset >= self.len || buf.is_empty() {
            return Ok(0);
        }
        let mut chunk = self.chunk.borrow_mut();
        let inside = offset >= chunk.0 && offset < chunk.0 + chunk.1.len() as u64;
        if !inside && buf.len() as u64 >= CHUNK {
            // A large read (a whole file read at once): straight into the caller's buffer, in one trip.
            let n = (buf.len() as u64).min(self.len - offset);
            let arr = self.fetch_array(offset, n)?;
            let got = (arr.length() as usize).min(buf.len());
            arr.subarray(0, got as u32).copy_to(&mut buf[..got]);
            return Ok(got);
        }
        if !inside {
            let n = CHUNK.max(buf.len() as u64).min(self.len - offset);
            *chunk = (offset, self.fetch(offset, n)?);
        }
        let start = (offset - chunk.0) as usize;
        let got = buf.len().min(chunk.1.len() - start);
        buf[..got].copy_from_slice(&chunk.1[start..start + got]);
        Ok(got)
    }
}

/// How `inputs` hands browser Blobs to the readers.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Reading {
    /// In 4 MiB slices, as the readers ask (a second pass reads the file again).
    Lazy,
    /// Each Blob read through once, into wasm memory, up to [`IN_MEMORY_LIMIT`] bytes in all; larger inputs
    /// stay lazy.
    Whole,
}

/// The most bytes a [`Session`] copies into wasm memory (the rest is read lazily, so a multi-GiB drop still scores).
const IN_MEMORY_LIMIT: u64 = 1 << 30;

/// Read in slices of this size when a Blob is read whole: the Blob is never held twice (in JS and in wasm).
const WHOLE_SLICE: u64 = 8 << 20;

/// The dropped files (`[{ path, role, data }]`) as inputs, and how many of their bytes were copied into wasm memory
/// (every `Uint8Array`; with [`Reading::Whole`], the Blobs read whole).
pub(super) fn inputs(
    files: &JsValue,
    reading: Reading,
    progress: &mut dyn Progress,
) -> Result<(Vec<Input>, u64), JsValue> {
    let arr: &Array = files
        .dyn_ref()
        .ok_or_else(|| JsValue::from_str("files must be an array"))?;
    let mut out = Vec::new();
    let mut reader: Option<web_sys::FileReaderSync> = None;
    let mut in_memory = 0u64;
    let total: f64 = arr
        .iter()
        .map(|f| {
            Reflect::get(&f, &"data".into())
                .ok()
                .and_then(|d| d.dyn_into::<web_sys::Blob>().ok())
                .map_or(0.0, |b| b.size())
        })
        .sum::<f64>()
        .max(1.0);
    let mut done = 0.0;
    for f in arr.iter() {
        let path = Reflect::get(&f, &"path".into())?
            .as_string()
            .ok_or_else(|| JsValue::from_str("file.path must be a string"))?;
        let role = Reflect::get(&f, &"role".into())?
            .as_string()
            .and_then(|r| Role::parse(&r));
        let data = Reflect::get(&f, &"data".into())?;
        let blob: Rc<dyn Blob> = if let Some(u8s) = data.dyn_ref::<Uint8Array>() {
            in_memory += u8s.length() as u64;
            Rc::new(u8s.to_vec())
        } else if let Some(b) = data.dyn_ref::<web_sys::Blob>() {
            let r = match &reader {
                Some(r) => r.clone(),
                None => {
                    let r = web_sys::FileReaderSync::new()?;
                    reader = Some(r.clone());
                    r
                }
            };
            let web = WebBlob {
                blob: b.clone(),
                reader: r,
                len: b.size() as u64,
                chunk: Default::default(),
            };
            let whole = (reading == Reading::Whole && in_memory + web.len <= IN_MEMORY_LIMIT)
                .then(|| {
                    web.read_whole(&mut |n| {
                        progress.update((done + n as f64) / total, &format!("reading {path}"))
                    })
                })
                .flatten();
            done += web.len as f64;
            match whole {
                Some(bytes) => {
                    in_memory += bytes.len() as u64;
                    Rc::new(bytes)
                }
                None => Rc::new(web),
            }
        } else {
            return Err(JsValue::from_str(&format!(
                "{path}: data must be a Blob, File or Uint8Array"
            )));
        };
        out.push(Input { path, role, blob });
    }
    Ok((out, in_memory))
}
