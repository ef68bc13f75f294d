//! The native heap on Linux: small allocations are the system allocator's; those of [`LARGE`] bytes or more
//! are mappings of their own, whole 2 MiB huge pages in length (so that the kernel aligns them to one), advised
//! for transparent huge pages (`madvise(MADV_HUGEPAGE)`), grown with `mremap` and returned with `munmap`.
//!
//! The large buffers of a scoring run (the id table, a 5M-row column, a sort's scratch) are read at random;
//! with 4 KiB pages nearly every such read also misses the TLB, and every first touch of a page is a fault.
//! With 2 MiB pages both mostly go away: 5M-row regression, best of 8 runs, 1.10 -> 0.90 s (median 1.22 ->
//! 1.01 s), peak memory 447 -> 505 MB (whole huge pages). Where the kernel's THP setting is `madvise` (as on
//! the machine measured) nothing else asks for them; where it refuses (THP `never`, or no huge page to be had)
//! the mapping is a plain one.

use std::alloc::{GlobalAlloc, Layout, System};

/// The smallest allocation mapped on its own: two huge pages.
pub const LARGE: usize = 4 << 20;

const HUGE: usize = 2 << 20;

pub struct HugePages;

/// Whether an allocation of `layout` is (or would be) a mapping of its own.
#[inline]
fn mapped(size: usize, align: usize) -> bool {
    size >= LARGE && align <= 4096
}

/// The length of the mapping of `size` bytes.
fn length(size: usize) -> usize {
    size.div_ceil(HUGE) * HUGE
}

/// Advises the mapping `[p, p + len)` for huge pages and returns `p`, or null when `p` is `MAP_FAILED` (a
/// mapping the kernel refused).
fn advise(p: *mut libc::c_void, len: usize) -> *mut u8 {
    if p == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    // SAFETY: the range is a mapping this allocator owns; advice changes no contents.
    unsafe { libc::madvise(p, len, libc::MADV_HUGEPAGE) };
    p.cast()
}

/// A new zeroed mapping of at least `size` bytes (null if the kernel refuses).
fn map(size: usize) -> *mut u8 {
    let len = length(size);
    // SAFETY: an anonymous private mapping at an address of the kernel's choosing touches no existing memory.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    advise(p, len)
}

// SAFETY: small allocations are the system allocator's, unchanged; large ones are page-aligned anonymous
// mappings (their layouts' alignment is at most a page), zeroed, at least the size asked for, and freed or
// moved only through the same layout's size, which decides which of the two an allocation is.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if mapped(layout.size(), layout.align()) {
            return map(layout.size());
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if mapped(layout.size(), layout.align()) {
            return map(layout.size());
        }
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        if mapped(layout.size(), layout.align()) {
            // SAFETY: `p` is the start of a mapping of this length (see `map`).
            unsafe { libc::munmap(p.cast(), length(layout.size())) };
            return;
        }
        unsafe { System.dealloc(p, layout) }
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let (was, will) = (
            mapped(layout.size(), layout.align()),
            mapped(new_size, layout.align()),
        );
        if !was && !will {
            return unsafe { System.realloc(p, layout, new_size) };
        }
        if was && will {
            let (old, new) = (length(layout.size()), length(new_size));
            if old == new {
                return p;
            }
            // SAFETY: `p` is the start of a mapping of `old` bytes; the kernel moves it if it must.
            let q = unsafe { libc::mremap(p.cast(), old, new, libc::MREMAP_MAYMOVE) };
            return advise(q, new);
        }
        // Across the threshold: a new allocation, the common bytes copied, the old one freed.
        // SAFETY: `new_size` is non-zero (GlobalAlloc's contract) and the alignment is the old one's.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let q = unsafe { self.alloc(new_layout) };
        if !q.is_null() {
            // SAFETY: both blocks are live, distinct, and at least this long.
            unsafe { std::ptr::copy_nonoverlapping(p, q, layout.size().min(new_size)) };
            unsafe { self.dealloc(p, layout) };
        }
        q
    }
}

#[cfg(test)]
mod tests {
    use super::{HugePages, LARGE};
    use std::alloc::{GlobalAlloc, Layout};

    /// Bytes survive every move: small to large (a copy), large to larger and smaller (`mremap`), large to
    /// small (a copy back); a large zeroed allocation is zeroed.
    #[test]
    fn contents_survive_every_move() {
        let h = HugePages;
        let fill =
            |p: *mut u8, n: usize| (0..n).for_each(|i| unsafe { *p.add(i) = (i % 251) as u8 });
        let check = |p: *mut u8, n: usize| (0..n).all(|i| unsafe { *p.add(i) } == (i % 251) as u8);
        unsafe {
            let small = Layout::from_size_align(1000, 8).unwrap();
            let p = h.alloc(small);
            fill(p, 1000);
            let p = h.realloc(p, small, LARGE + 5);
            assert!(check(p, 1000));
            fill(p, LARGE + 5);
            let big = Layout::from_size_align(LARGE + 5, 8).unwrap();
            let p = h.realloc(p, big, 3 * LARGE);
            assert!(check(p, LARGE + 5));
            let bigger = Layout::from_size_align(3 * LARGE, 8).unwrap();
            let p = h.realloc(p, bigger, LARGE);
            assert!(check(p, LARGE));
            let p = h.realloc(p, Layout::from_size_align(LARGE, 8).unwrap(), 100);
            assert!(check(p, 100));
            h.dealloc(p, Layout::from_size_align(100, 8).unwrap());
            let z = Layout::from_size_align(LARGE * 2, 4096).unwrap();
            let q = h.alloc_zeroed(z);
            assert_eq!(q as usize % 4096, 0);
            assert!((0..LARGE * 2).step_by(4093).all(|i| *q.add(i) == 0));
            h.dealloc(q, z);
        }
    }
}
