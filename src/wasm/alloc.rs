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
//! Freed small blocks (up to [`SMALL_MAX`] bytes, alignment up to 8) go to a per-size-class
//! cache of about [`CACHE_BYTES`] each, which the next allocation of that class takes first. The
//! projection allocates and frees millions of small objects (object entries, shared strings,
//! `Rc` boxes), many of them short-lived; a cache pop or push is a few instructions, where
//! talc's general path (bins, splitting, merging) took ~17% of live `apply` in a profile. The
//! cache is bounded on purpose: an unbounded one (tried first) kept every block a batch
//! projection freed and handed them out again in freeing order, scattered over the heap, so the
//! next projection ran ~15% slower than with talc alone; beyond the bound, blocks go back to
//! talc, which merges them into contiguous free memory.
//!
//! This is the crate's only `unsafe` code: implementing talc's `Source` (an unsafe trait),
//! handing it the grown pages, and the small-block caches.
#![allow(unsafe_code)]

use core::alloc::{GlobalAlloc, Layout};
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

// The small-block lists below assume one thread (no `atomics`), as talc's `new_wasm` does.
#[cfg(target_feature = "atomics")]
compile_error!("the wasm heap assumes single-threaded WebAssembly (no `atomics`)");

/// Largest size served from the small-block classes.
const SMALL_MAX: usize = 1024;
/// Size classes are multiples of this (and blocks are aligned to it).
const GRAIN: usize = 8;
const CLASSES: usize = SMALL_MAX / GRAIN;
/// Bytes of freed blocks each class keeps for reuse (at least 16 blocks).
const CACHE_BYTES: usize = 16 * 1024;

/// Per-class caches of freed small blocks (a cached block's first word links to the next).
struct Small {
    free: [*mut u8; CLASSES],
    count: [u32; CLASSES],
}

/// The global allocator: talc, with a bounded cache of freed small blocks in front.
struct Heap {
    large: TalcSyncCell<GeometricGrowth, WasmBinning>,
    small: core::cell::UnsafeCell<Small>,
}

// SAFETY: single-threaded WebAssembly (checked above): no two calls run at once, and the
// allocator is never re-entered (talc's source never allocates).
unsafe impl Sync for Heap {}

/// The class of a small layout, or None for talc.
#[inline]
fn class_of(layout: Layout) -> Option<usize> {
    let size = layout.size();
    if size == 0 || size > SMALL_MAX || layout.align() > GRAIN {
        return None;
    }
    Some((size - 1) / GRAIN)
}

/// The talc layout of every block of class `c`: the class size, aligned to [`GRAIN`].
#[inline]
fn class_layout(c: usize) -> Layout {
    // Always valid (GRAIN is a power of two, the size at most SMALL_MAX); the fallback is
    // never taken.
    match Layout::from_size_align((c + 1) * GRAIN, GRAIN) {
        Ok(l) => l,
        Err(_) => Layout::new::<u64>(),
    }
}

/// Most blocks a class keeps cached: about [`CACHE_BYTES`] of them.
#[inline]
fn class_cap(c: usize) -> u32 {
    (CACHE_BYTES / ((c + 1) * GRAIN)).max(16) as u32
}

impl Heap {
    /// A block of class `c`: a cached one, else a new one from talc (null when memory is
    /// exhausted).
    ///
    /// SAFETY: callers are the `GlobalAlloc` methods (single-threaded, not re-entered).
    #[inline]
    unsafe fn small_alloc(&self, c: usize) -> *mut u8 {
        // SAFETY: no other reference to `small` exists while an allocator call runs.
        let small = unsafe { &mut *self.small.get() };
        if let (Some(head), Some(count)) = (small.free.get_mut(c), small.count.get_mut(c)) {
            if !head.is_null() {
                let block = *head;
                // SAFETY: `block` is a cached block of this class; its first word holds the
                // link.
                *head = unsafe { (block as *mut *mut u8).read() };
                *count -= 1;
                return block;
            }
        }
        // SAFETY: a plain allocation from talc with the class layout.
        unsafe { self.large.alloc(class_layout(c)) }
    }

    /// Release a block of class `c`: into the class cache while it has room, else to talc
    /// (which merges neighbours, so bulk frees leave contiguous memory for the next run).
    ///
    /// SAFETY: `block` was returned by `small_alloc(c)` and is no longer used.
    #[inline]
    unsafe fn small_free(&self, block: *mut u8, c: usize) {
        // SAFETY: no other reference to `small` exists while an allocator call runs.
        let small = unsafe { &mut *self.small.get() };
        if let (Some(head), Some(count)) = (small.free.get_mut(c), small.count.get_mut(c)) {
            if *count < class_cap(c) {
                // SAFETY: the block is at least GRAIN bytes and GRAIN-aligned, room for the link.
                unsafe { (block as *mut *mut u8).write(*head) };
                *head = block;
                *count += 1;
                return;
            }
        }
        // SAFETY: the block came from talc with the class layout.
        unsafe { self.large.dealloc(block, class_layout(c)) }
    }
}

// SAFETY: a small block is handed out once (from talc or the cache) until freed, and always
// has its class layout in talc; everything else is talc's `GlobalAlloc`, called with the
// caller's guarantees.
unsafe impl GlobalAlloc for Heap {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match class_of(layout) {
            // SAFETY: see the impl.
            Some(c) => unsafe { self.small_alloc(c) },
            // SAFETY: the caller's guarantees.
            None => unsafe { self.large.alloc(layout) },
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match class_of(layout) {
            // SAFETY: `ptr` came from `alloc` with this layout, hence from class `c`.
            Some(c) => unsafe { self.small_free(ptr, c) },
            // SAFETY: the caller's guarantees.
            None => unsafe { self.large.dealloc(ptr, layout) },
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees `new_size` with this alignment is a valid layout.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let (old_c, new_c) = (class_of(layout), class_of(new_layout));
        if old_c.is_none() && new_c.is_none() {
            // SAFETY: the caller's guarantees; talc may grow in place.
            return unsafe { self.large.realloc(ptr, layout, new_size) };
        }
        if old_c.is_some() && old_c == new_c {
            return ptr;
        }
        // SAFETY: a fresh allocation, then a copy of the bytes both blocks hold and the old
        // block's release, as the default `realloc` does.
        unsafe {
            let fresh = self.alloc(new_layout);
            if !fresh.is_null() {
                core::ptr::copy_nonoverlapping(ptr, fresh, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            fresh
        }
    }
}

#[global_allocator]
static ALLOCATOR: Heap = Heap {
    large: TalcSyncCell::new_wasm(GeometricGrowth { end: None }),
    small: core::cell::UnsafeCell::new(Small {
        free: [core::ptr::null_mut(); CLASSES],
        count: [0; CLASSES],
    }),
};
