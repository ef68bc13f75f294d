//! A fast hasher for short byte keys (page ids, docnos) in bounded tables of trusted size.

use std::hash::{BuildHasherDefault, Hasher};

pub type FnvBuild = BuildHasherDefault<Fnv>;

/// FNV-1a: far cheaper than SipHash on short keys (markedly so in wasm). Use it only where a flood of
/// colliding keys cannot hurt: bounded tables, or tables the size of one query.
#[derive(Default)]
pub struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h = (h ^ *b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}
