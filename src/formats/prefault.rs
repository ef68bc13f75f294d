//! A fresh table's pages made present by two threads before the calling thread fills it ([`populated`]).
//!
//! The first write to each page of a new allocation is a fault whose kernel work, clearing the page, is most of
//! what writing a large table costs here (1M x 6 submission, 48 MB: `clear_page_erms` was half of the
//! reading thread's samples while the tokenising thread waited on it). The calling thread and a second one ask
//! the kernel to do that work ahead, half the table each (Linux 5.14's `madvise(MADV_POPULATE_WRITE)`: the
//! pages are faulted in writable as a write would, their contents untouched), so that on two cores it takes
//! half the time. (A helper racing the filling thread instead lost: rows written at random touch every huge
//! page of the table within the first batches, so the filling thread still took most faults itself.)

/// Tables smaller than this are filled without help (a thread would cost more than their faults).
#[cfg(target_os = "linux")]
const LEAST: usize = 4 << 20;
/// The halves are cut at a multiple of this (a huge page, so that neither thread faults the other's).
#[cfg(target_os = "linux")]
const HUGE: usize = 2 << 20;

/// `fill(table)`, the pages of `table` made present first by this thread and a second one, half each (where
/// the kernel can; for a small table, or when no thread can be started, this thread alone or nobody).
pub fn populated<T, R>(table: &mut [T], fill: impl FnOnce(&mut [T]) -> R) -> R {
    #[cfg(target_os = "linux")]
    {
        let (at, len) = (table.as_ptr() as usize, std::mem::size_of_val(table));
        if len >= LEAST {
            let mid = (at + len / 2).div_ceil(HUGE) * HUGE;
            std::thread::scope(|s| {
                // The helper only holds an address: it never reads or writes the table, and the scope joins it
                // before `fill` runs.
                let helper =
                    std::thread::Builder::new().spawn_scoped(s, move || populate(mid, at + len));
                let end = if helper.is_ok() { mid } else { at + len };
                populate(at, end);
            });
        }
    }
    fill(table)
}

/// Asks the kernel to fault in the whole pages of `[from, to)` writable (nothing when it refuses: a kernel
/// before 5.14, or memory it will not give; the writes then fault as they would have).
#[cfg(target_os = "linux")]
fn populate(from: usize, to: usize) {
    const PAGE: usize = 4096;
    let (start, end) = (from.div_ceil(PAGE) * PAGE, to / PAGE * PAGE);
    if start < end {
        // SAFETY: `[start, end)` is whole pages inside a live allocation that nothing reads or writes meanwhile
        // (see `populated`); MADV_POPULATE_WRITE faults pages in as a write would without changing any byte.
        unsafe {
            libc::madvise(
                start as *mut libc::c_void,
                end - start,
                libc::MADV_POPULATE_WRITE,
            )
        };
    }
}

#[cfg(test)]
mod tests {
    /// The table is what `fill` writes, small or large (populating changes no byte).
    #[test]
    fn fill_is_unchanged() {
        for n in [10usize, 3 << 20] {
            let mut t = vec![0u64; n];
            let sum = super::populated(&mut t, |t| {
                for (i, x) in t.iter_mut().enumerate().step_by(7) {
                    *x = i as u64;
                }
                t.len()
            });
            assert_eq!(sum, n);
            assert!(t
                .iter()
                .enumerate()
                .all(|(i, &x)| x == if i % 7 == 0 { i as u64 } else { 0 }));
        }
    }
}
