//! The wasm heap: the talc allocator, fed by a source that grows linear memory geometrically.
//!
//! Why: in V8 (Node 20, Chromium) every `memory.grow` costs about a millisecond whatever its
//! size (measured here: 2,000 one-page grows to 137 MB take 2-4 s; 22 geometric grows to 1.6 GB
//! take 25 ms). Rust's default wasm allocator grows memory by what each allocation lacks, often
//! one 64 KiB page, so the first batch projection of 20,000 events spent seconds in grows and
//! live `apply` paid millisecond spikes. Growing by at least a quarter of the current memory
//! (and at least 1 MiB) keeps the number of grows logarithmic in the heap size; at most a quarter
//! of the memory is reserved ahead of use.
//!
//! This is the crate's only `unsafe` code: implementing talc's `Source` (an unsafe trait) and
//! handing it the grown pages.
#![allow(unsafe_code)]

use core::alloc::Layout;
use core::arch::wasm32::{memory_grow, memory_size};
use core::ptr::NonNull;

use talc::base::binning::Binning;
use talc::base::{Talc, CHUNK_UNIT};
use talc::cell::TalcSyncCell;
use talc::source::Source;
use talc::wasm::WasmBinning;

const PAGE: usize = 64 * 1024;
/// Smallest grow: 1 MiB.
const MIN_GROW_PAGES: usize = 16;

/// A talc source that extends one heap at the end of linear memory, growing it geometrically.
#[derive(Debug)]
pub struct GeometricGrowth {
    /// End of the heap talc manages (None before the first grow).
    end: Option<NonNull<u8>>,
}

/// Address `base + bytes`, saturated at the top of the 32-bit address space (a 4 GiB memory's
/// end would wrap to 0).
fn end_of(base: usize, bytes: usize) -> *mut u8 {
    base.saturating_add(bytes) as *mut u8
}

// SAFETY: `acquire` only calls `memory.grow` and talc's `claim`/`extend` on the `talc` it is
// given; it never allocates.
unsafe impl Source for GeometricGrowth {
    fn acquire<B: Binning>(talc: &mut Talc<Self, B>, layout: Layout) -> Result<(), ()> {
        // Room for the chunk, its tag, alignment padding and a claim's metadata.
        let need = layout
            .size()
            .saturating_add(layout.align())
            .saturating_add(4 * CHUNK_UNIT);
        let need_pages = need.div_ceil(PAGE);
        let want = need_pages.max(memory_size::<0>() / 4).max(MIN_GROW_PAGES);
        let (prev_pages, pages) = match memory_grow::<0>(want) {
            usize::MAX => match memory_grow::<0>(need_pages) {
                usize::MAX => return Err(()),
                prev => (prev, need_pages),
            },
            prev => (prev, want),
        };
        let base = prev_pages.saturating_mul(PAGE);
        let new_end = end_of(base, pages.saturating_mul(PAGE));
        if let Some(old_end) = talc.source.end.take() {
            if old_end.as_ptr() as usize == base {
                // SAFETY: `old_end` is the end of the heap talc manages and the memory from
                // there to `new_end` was just grown, so it is unused and ours to give.
                talc.source.end = Some(unsafe { talc.extend(old_end, new_end) });
                return Ok(());
            }
        }
        // SAFETY: the pages from `base` were just grown and are used by nothing else.
        talc.source.end = unsafe { talc.claim(base as *mut u8, new_end as usize - base) };
        Ok(())
    }
}

#[global_allocator]
static ALLOCATOR: TalcSyncCell<GeometricGrowth, WasmBinning> =
    TalcSyncCell::new_wasm(GeometricGrowth { end: None });
