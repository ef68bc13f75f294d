//! A table from names (class labels, list items, ids) to numbers. A name of at most 15 bytes is keyed by its
//! bytes and length packed into a `u128` (one of 16 bytes, in a table of its own, by its bytes), so that a lookup compares numbers in the table itself rather than following a
//! pointer to a string elsewhere in memory: with 100,000 class names, that pointer was a cache miss per row
//! (a quarter of the time of reading 2,000,000 labels).

use rustc_hash::FxHashMap;

#[derive(Default, Debug, Clone)]
pub struct Names {
    short: FxHashMap<u128, u32>,
    sixteen: FxHashMap<u128, u32>,
    long: FxHashMap<String, u32>,
}

enum Key {
    Short(u128),
    Sixteen(u128),
    Long,
}

/// The packed key of a name of at most 16 bytes.
#[inline]
fn packed(w: &str) -> Key {
    let mut b = [0u8; 16];
    match w.len() {
        n @ 0..=15 => {
            b[..n].copy_from_slice(w.as_bytes());
            b[15] = n as u8;
            Key::Short(u128::from_le_bytes(b))
        }
        16 => {
            b.copy_from_slice(w.as_bytes());
            Key::Sixteen(u128::from_le_bytes(b))
        }
        _ => Key::Long,
    }
}

impl Names {
    pub fn with_capacity(n: usize) -> Self {
        Names {
            short: FxHashMap::with_capacity_and_hasher(n, Default::default()),
            sixteen: FxHashMap::default(),
            long: FxHashMap::default(),
        }
    }
    /// Room for `n` more names as long as `w` (the table of its key grows once rather than as it fills: each
    /// growth of a table of a million ids is a rehash into fresh pages).
    pub fn reserve_like(&mut self, w: &str, n: usize) {
        match packed(w) {
            Key::Short(_) => self.short.reserve(n),
            Key::Sixteen(_) => self.sixteen.reserve(n),
            Key::Long => self.long.reserve(n),
        }
    }
    pub fn len(&self) -> usize {
        self.short.len() + self.sixteen.len() + self.long.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The number of `w`, if it has one.
    #[inline]
    pub fn get(&self, w: &str) -> Option<u32> {
        match packed(w) {
            Key::Short(k) => self.short.get(&k).copied(),
            Key::Sixteen(k) => self.sixteen.get(&k).copied(),
            Key::Long => self.long.get(w).copied(),
        }
    }
    /// The number of `w`; a new name takes `next`. Returns the number and whether the name is new.
    #[inline]
    pub fn get_or_insert(&mut self, w: &str, next: u32) -> (u32, bool) {
        let table = match packed(w) {
            Key::Short(k) => Some((&mut self.short, k)),
            Key::Sixteen(k) => Some((&mut self.sixteen, k)),
            Key::Long => None,
        };
        match table {
            Some((t, k)) => {
                let v = *t.entry(k).or_insert(next);
                (v, v == next)
            }
            None => match self.long.get(w) {
                Some(&v) => (v, false),
                None => {
                    self.long.insert(w.to_string(), next);
                    (next, true)
                }
            },
        }
    }
    /// The number of `w`, numbered in order of first appearance (`len()` for a new one).
    #[inline]
    pub fn code(&mut self, w: &str) -> u32 {
        let next = self.len() as u32;
        self.get_or_insert(w, next).0
    }
}

impl<'a> FromIterator<(&'a str, u32)> for Names {
    fn from_iter<I: IntoIterator<Item = (&'a str, u32)>>(it: I) -> Self {
        let mut t = Names::default();
        for (w, v) in it {
            t.get_or_insert(w, v);
        }
        t
    }
}
