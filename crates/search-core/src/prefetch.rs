//! A cache prefetch hint: the one place this crate needs `unsafe`.
//!
//! A search that knows which table slots it will probe next asks the processor to start loading
//! them, so that the misses of several slots overlap with useful work. A plain read of each slot
//! does not serve: the processor then waits for the read to finish before it can retire the
//! instructions after it, and the whole wait lands on the search.

/// Asks the processor to bring the cache line holding `value` into the nearest cache.
///
/// A hint only: it never faults, changes no value and may be ignored. On targets without a
/// prefetch instruction it does nothing. Games use it too, for their own tables (the 2048
/// n-tuple training prefetches the weights it will update a move later).
///
/// ```
/// let table = vec![0u64; 1 << 20];
/// // The slot the next step will read: its line is loading while this step works.
/// search_core::prefetch(&table[12_345]);
/// assert_eq!(table[12_345], 0);
/// ```
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` only needs SSE, which every x86_64 processor has (it is part of
    // the target's baseline), and a prefetch of any address, valid or not, never faults; here
    // the address is a live reference anyway.
    #[allow(unsafe_code)]
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
