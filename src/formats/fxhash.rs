//! A fast hasher for short byte keys (page ids, docnos, image ids) in tables of trusted size: the FxHash
//! mixing step of rustc (`rotate_left(5) ^ word`, times a constant), eight bytes at a time, and MurmurHash3's
//! 64-bit finaliser (`fmix64`) at the end. Without the finaliser, keys that differ only in the high bytes of
//! a word (`002234.jpg` vs `002235.jpg`) differ only in the hash's high bits, and the table indexes by the
//! low bits: 30,000 such ids fell into about a thousand buckets.

use std::hash::{BuildHasherDefault, Hasher};

pub type FxBuild = BuildHasherDefault<Fx>;

/// Far cheaper than SipHash on short keys (markedly so in wasm). Not collision-resistant: use it only where
/// a flood of colliding keys cannot hurt, in bounded tables or tables the size of one query.
#[derive(Default)]
pub struct Fx(u64);

const K: u64 = 0x517c_c1b7_2722_0a95;

impl Fx {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut a = [0u8; 8];
            a.copy_from_slice(c);
            self.add(u64::from_le_bytes(a));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut a = [0u8; 8];
            a[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(a));
        }
        // The length separates keys that differ only by trailing zero bytes.
        self.add(bytes.len() as u64);
    }
}

/// The hash of a byte string (its words, then its length), without the `Hash` machinery: for tables that hash
/// their keys only through this function ([`super::id_csv::IdIndex`]).
#[inline]
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = Fx::default();
    h.write(bytes);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// Ids that differ only in one middle byte spread over the low bits the table indexes by.
    #[test]
    fn similar_ids_fill_the_low_bits() {
        let b = FxBuild::default();
        let mut buckets = std::collections::HashSet::new();
        let mut tags = std::collections::HashSet::new();
        for i in 0..30_000u32 {
            let id = format!("{i:06}.jpg");
            buckets.insert(b.hash_one(id.as_bytes()) & 0xffff);
            tags.insert(hash_bytes(id.as_bytes()) >> 32 & 0xffff);
        }
        // 30,000 keys into 65,536 buckets: a uniform hash fills about 24,200 distinct buckets.
        assert!(
            buckets.len() > 23_000,
            "{} distinct low-16-bit values",
            buckets.len()
        );
        // The id table's home slot is the low bits of the hash's high half.
        assert!(tags.len() > 23_000, "{} distinct tag values", tags.len());
    }
}
