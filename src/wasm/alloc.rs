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
//! Freed small blocks (up to [`SMALL_MAX`] bytes, alignment up to 8; and medium ones up to
//! [`PLAIN_MAX`], in classes of [`MEDIUM_GRAIN`] bytes) go to a per-size-class cache of about
//! [`CACHE_BYTES`] each, which the next allocation of that class takes first. The
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
use core::sync::atomic::{AtomicUsize, Ordering};

use crate::contract::val::forget_shared_literals;

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
        let want = need_pages
            .max(memory_size::<0>() >> GROWTH_SHIFT.load(Ordering::Relaxed))
            .max(MIN_GROW_PAGES);
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
pub(crate) const SMALL_MAX: usize = 1024;
/// Size classes are multiples of this (and blocks are aligned to it).
const GRAIN: usize = 8;
const CLASSES: usize = SMALL_MAX / GRAIN;
/// Bytes of freed blocks each class keeps for reuse (at least 16 small or 8 medium blocks).
const CACHE_BYTES: usize = 16 * 1024;
/// Largest plain block with a cache class: the medium arena classes up to here are cached too.
/// Every event a live projector applies is parsed into a few blocks of 1-2 KiB (its object's
/// member table and entries) freed right after; through talc's bins, their release alone
/// (`register_gap`) took ~10% of live `apply` in a profile.
const PLAIN_MAX: usize = 8 << 10;
/// Cache classes: the small ones, then the medium arena classes up to [`PLAIN_MAX`].
const PLAIN_CLASSES: usize = CLASSES + (PLAIN_MAX - SMALL_MAX) / MEDIUM_GRAIN;

/// Per-class caches of freed plain blocks (a cached block's first word links to the next).
struct Small {
    free: [*mut u8; PLAIN_CLASSES],
    count: [u32; PLAIN_CLASSES],
}

/// The global allocator: talc, with a bounded cache of freed small blocks in front.
struct Heap {
    large: TalcSyncCell<GeometricGrowth, WasmBinning>,
    small: core::cell::UnsafeCell<Small>,
    arena: core::cell::UnsafeCell<Arena>,
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

/// The cache class of a plain layout (small, or medium up to [`PLAIN_MAX`]), or None for talc.
#[inline]
fn plain_class(layout: Layout) -> Option<usize> {
    arena_class(layout).filter(|&c| c < PLAIN_CLASSES)
}

/// The talc layout of every block of cache class `c`: the class size, aligned to [`GRAIN`].
#[inline]
fn class_layout(c: usize) -> Layout {
    // Always valid (GRAIN is a power of two, the size at most PLAIN_MAX); the fallback is
    // never taken.
    match Layout::from_size_align(arena_class_size(c), GRAIN) {
        Ok(l) => l,
        Err(_) => Layout::new::<u64>(),
    }
}

/// Most blocks a class keeps cached: about [`CACHE_BYTES`] of them.
#[inline]
fn class_cap(c: usize) -> u32 {
    let least = if c < CLASSES { 16 } else { 8 };
    (CACHE_BYTES / arena_class_size(c)).max(least) as u32
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
// has its class layout in talc; arena blocks are handed out once from their chunk or the arena's
// class lists and are recognised on release by the page map; everything else is talc's
// `GlobalAlloc`, called with the caller's guarantees.
unsafe impl GlobalAlloc for Heap {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: no other reference to `arena` exists while an allocator call runs.
        let arena = unsafe { &mut *self.arena.get() };
        if arena.state == ArenaState::Active {
            // SAFETY: see the impl.
            let p = unsafe { self.arena_alloc(arena, layout) };
            if !p.is_null() {
                return p;
            }
            arena.complete = false;
        }
        // SAFETY: see the impl.
        unsafe { self.plain_alloc(layout) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: no other reference to `arena` exists while an allocator call runs.
        let arena = unsafe { &mut *self.arena.get() };
        if arena.owns(ptr) {
            // SAFETY: `ptr` is an arena block with this layout.
            return unsafe { self.arena_dealloc(arena, ptr, layout) };
        }
        // SAFETY: the caller's guarantees (a plain block).
        unsafe { self.plain_dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees `new_size` with this alignment is a valid layout.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: no other reference to `arena` exists while an allocator call runs.
        let arena = unsafe { &mut *self.arena.get() };
        if !arena.owns(ptr) {
            // A plain block stays plain, even while the arena is active (the buffer a batch
            // writes its result into outlives the arena).
            // SAFETY: the caller's guarantees.
            return unsafe { self.plain_realloc(ptr, layout, new_layout) };
        }
        if arena.state == ArenaState::Active {
            if let Some(p) = arena.grow_in_place(ptr, layout, new_layout) {
                return p;
            }
        }
        // SAFETY: a fresh block (arena or plain), then a copy of the bytes both hold and the
        // old block's release.
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

impl Heap {
    /// A block from talc or the small-block cache.
    ///
    /// SAFETY: `GlobalAlloc::alloc`'s contract.
    #[inline]
    unsafe fn plain_alloc(&self, layout: Layout) -> *mut u8 {
        match plain_class(layout) {
            // SAFETY: see the `GlobalAlloc` impl.
            Some(c) => unsafe { self.small_alloc(c) },
            // SAFETY: the caller's guarantees.
            None => unsafe { self.large.alloc(layout) },
        }
    }

    /// Release a block from [`Self::plain_alloc`].
    ///
    /// SAFETY: `GlobalAlloc::dealloc`'s contract, for a plain block.
    #[inline]
    unsafe fn plain_dealloc(&self, ptr: *mut u8, layout: Layout) {
        match plain_class(layout) {
            // SAFETY: `ptr` came from `plain_alloc` with this layout, hence from class `c`.
            Some(c) => unsafe { self.small_free(ptr, c) },
            // SAFETY: the caller's guarantees.
            None => unsafe { self.large.dealloc(ptr, layout) },
        }
    }

    /// Resize a plain block into a plain block.
    ///
    /// SAFETY: `GlobalAlloc::realloc`'s contract, for a plain block.
    unsafe fn plain_realloc(&self, ptr: *mut u8, layout: Layout, new_layout: Layout) -> *mut u8 {
        let (old_c, new_c) = (plain_class(layout), plain_class(new_layout));
        if old_c.is_none() && new_c.is_none() {
            // SAFETY: the caller's guarantees; talc may grow in place.
            return unsafe { self.large.realloc(ptr, layout, new_layout.size()) };
        }
        if old_c.is_some() && old_c == new_c {
            return ptr;
        }
        // SAFETY: a fresh plain block, a copy of the bytes both hold, the old block's release.
        unsafe {
            let fresh = self.plain_alloc(new_layout);
            if !fresh.is_null() {
                let n = layout.size().min(new_layout.size());
                core::ptr::copy_nonoverlapping(ptr, fresh, n);
                self.plain_dealloc(ptr, layout);
            }
            fresh
        }
    }

    /// A block from the arena: a freed block of its class, else bump-allocated (null when no
    /// chunk can be had; the caller then falls back to a plain block).
    ///
    /// SAFETY: called from `alloc` while the arena is active.
    unsafe fn arena_alloc(&self, arena: &mut Arena, layout: Layout) -> *mut u8 {
        if let Some(c) = arena_class(layout) {
            if let Some(head) = arena.free.get_mut(c) {
                if !head.is_null() {
                    let block = *head;
                    // SAFETY: `block` is a freed arena block of this class; its first word
                    // holds the link.
                    *head = unsafe { (block as *mut *mut u8).read() };
                    return block;
                }
            }
        }
        if layout.align() > PAGE {
            return core::ptr::null_mut();
        }
        let size = block_size(layout);
        if size > DEDICATED_MIN {
            // SAFETY: a plain allocation from talc.
            return unsafe { self.arena_chunk(arena, size, false) };
        }
        // At least GRAIN-aligned: a freed small block goes to its class list and may be handed
        // out again for any layout of that class (alignment up to GRAIN), and the blocks before
        // it in the chunk may end anywhere (large blocks have their own size).
        let align = layout.align().max(GRAIN);
        if let Some(p) = arena.bump(size, align) {
            return p;
        }
        // SAFETY: a plain allocation from talc.
        if unsafe { self.arena_chunk(arena, CHUNK, true) }.is_null() {
            return core::ptr::null_mut();
        }
        arena.bump(size, align).unwrap_or(core::ptr::null_mut())
    }

    /// A new arena chunk of at least `size` bytes from talc, its pages marked; `bump` makes it
    /// the chunk bump allocation takes from. Null when talc or the chunk table is exhausted.
    ///
    /// SAFETY: called from the allocator while the arena is active.
    unsafe fn arena_chunk(&self, arena: &mut Arena, size: usize, bump: bool) -> *mut u8 {
        if arena.count >= MAX_CHUNKS {
            return core::ptr::null_mut();
        }
        let size = size.div_ceil(PAGE).saturating_mul(PAGE);
        let Ok(layout) = Layout::from_size_align(size, PAGE) else {
            return core::ptr::null_mut();
        };
        // SAFETY: a plain allocation from talc, page-aligned and a whole number of pages.
        let base = unsafe { self.large.alloc(layout) };
        if base.is_null() {
            return core::ptr::null_mut();
        }
        if let Some(slot) = arena.chunks.get_mut(arena.count) {
            *slot = (base, size, !bump);
        }
        arena.count += 1;
        arena.mark(base as usize, size, true);
        if bump {
            arena.base = base as usize;
            arena.cur = base as usize;
            arena.end = base as usize + size;
        }
        base
    }

    /// Release an arena block: the last bump block back to the chunk (small ones excepted),
    /// other small and medium ones to their class list, a dedicated chunk back to talc; larger
    /// blocks of unusual alignment wait for the arena's end.
    ///
    /// SAFETY: `ptr` is an arena block with this layout, no longer used.
    unsafe fn arena_dealloc(&self, arena: &mut Arena, ptr: *mut u8, layout: Layout) {
        if arena.state != ArenaState::Active {
            return;
        }
        let class = arena_class(layout);
        let p = ptr as usize;
        let size = block_size(layout);
        if class.map_or(true, |c| c >= CLASSES) && p >= arena.base && p + size == arena.cur {
            arena.cur = p;
            return;
        }
        if let Some(c) = class {
            if let Some(head) = arena.free.get_mut(c) {
                // SAFETY: arena blocks of a class are at least its size (GRAIN-aligned).
                unsafe { (ptr as *mut *mut u8).write(*head) };
                *head = ptr;
            }
            return;
        }
        if size > DEDICATED_MIN {
            if let Some(i) = arena.chunk_at(ptr) {
                // SAFETY: the chunk came from talc with this page layout and holds no other
                // block.
                unsafe { self.release_chunk(arena, i) };
            }
        }
    }

    /// Give chunk `i` back to talc and unmark its pages.
    ///
    /// SAFETY: no block of the chunk is used any more.
    unsafe fn release_chunk(&self, arena: &mut Arena, i: usize) {
        let last = arena.count.saturating_sub(1);
        let Some(&(base, size, _)) = arena.chunks.get(i) else {
            return;
        };
        arena.chunks.swap(i, last);
        arena.count = last;
        arena.mark(base as usize, size, false);
        if let Ok(layout) = Layout::from_size_align(size, PAGE) {
            // SAFETY: `base` came from talc with this layout.
            unsafe { self.large.dealloc(base, layout) };
        }
    }
}

/// Size of an arena block: its class size when it has an arena class, else its own size.
#[inline]
fn block_size(layout: Layout) -> usize {
    match arena_class(layout) {
        Some(c) => arena_class_size(c),
        None => layout.size(),
    }
}

/// The arena class of a layout: the small classes of [`class_of`], then classes of
/// [`MEDIUM_GRAIN`] bytes up to [`DEDICATED_MIN`] (alignment up to [`GRAIN`]); None for larger
/// or more aligned blocks.
#[inline]
fn arena_class(layout: Layout) -> Option<usize> {
    let size = layout.size();
    if size <= SMALL_MAX {
        return class_of(layout);
    }
    if size > DEDICATED_MIN || layout.align() > GRAIN {
        return None;
    }
    Some(CLASSES + (size - SMALL_MAX - 1) / MEDIUM_GRAIN)
}

/// The size of every block of arena class `c`.
#[inline]
fn arena_class_size(c: usize) -> usize {
    if c < CLASSES {
        (c + 1) * GRAIN
    } else {
        SMALL_MAX + (c - CLASSES + 1) * MEDIUM_GRAIN
    }
}

// --- The batch arena -------------------------------------------------------------------------

/// Bytes of a bump chunk. The last chunk of a batch is half used on average, and a batch's
/// memory is its peak: at 4 MiB, a 20,000-event batch grew memory by 1.4 MB more.
const CHUNK: usize = 1 << 20;
/// Blocks larger than this get a chunk of their own, given back to talc when freed: the old
/// buffers of a growing list or table go back at once (talc merges them for later blocks)
/// instead of waiting for the arena's end. At 1 MiB, a 20,000-event batch grew memory by 6.1x
/// its input; at 64 KiB, by 4.9x, as fast.
const DEDICATED_MIN: usize = 64 << 10;
/// Arena blocks between [`SMALL_MAX`] and [`DEDICATED_MIN`] bytes are rounded up to a multiple
/// of this, and a freed one goes to the list of its size class for the next block of that class:
/// a batch parses each event into a few such blocks (an event object's member table and entries,
/// about 1-2 KiB each in wasm32) and frees them after applying it; without the lists they stayed
/// unused until the arena's end, most of a 20,000-event batch's memory beyond its input.
const MEDIUM_GRAIN: usize = 64;
/// Arena size classes: the small ones, then the medium ones.
const ARENA_CLASSES: usize = CLASSES + (DEDICATED_MIN - SMALL_MAX) / MEDIUM_GRAIN;
/// Most chunks an arena holds (a 4 GiB memory holds 4,096 bump chunks).
const MAX_CHUNKS: usize = 4096;
/// 64 KiB pages of a 4 GiB memory, one bit each.
const PAGE_WORDS: usize = (1 << 16) / 64;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ArenaState {
    /// No arena: every block is plain.
    Off,
    /// Allocations come from the arena.
    Active,
    /// Allocations are plain again; arena blocks are still readable, their release ignored.
    Stopped,
}

/// A batch arena: chunks of talc memory that a whole batch projection allocates from and that
/// go back to talc in one step at its end (see [`BatchArena`]).
struct Arena {
    state: ArenaState,
    /// Every allocation since the start came from the arena.
    complete: bool,
    /// Base, size and whether the chunk holds one large block (given back when it is freed).
    chunks: [(*mut u8, usize, bool); MAX_CHUNKS],
    count: usize,
    /// The bump chunk: its start, the next free byte and its end.
    base: usize,
    cur: usize,
    end: usize,
    /// Freed small and medium blocks, per arena class (first word links to the next).
    free: [*mut u8; ARENA_CLASSES],
    /// Which 64 KiB pages belong to arena chunks.
    pages: [u64; PAGE_WORDS],
}

impl Arena {
    /// Whether `ptr` is in an arena chunk.
    #[inline]
    fn owns(&self, ptr: *mut u8) -> bool {
        if self.count == 0 {
            return false;
        }
        let page = ptr as usize / PAGE;
        self.pages
            .get(page / 64)
            .is_some_and(|w| w >> (page % 64) & 1 == 1)
    }

    fn mark(&mut self, base: usize, size: usize, on: bool) {
        for page in base / PAGE..(base + size) / PAGE {
            if let Some(w) = self.pages.get_mut(page / 64) {
                let bit = 1u64 << (page % 64);
                if on {
                    *w |= bit;
                } else {
                    *w &= !bit;
                }
            }
        }
    }

    /// `size` bytes aligned to `align` from the bump chunk, if they fit.
    #[inline]
    fn bump(&mut self, size: usize, align: usize) -> Option<*mut u8> {
        let start = self.cur.checked_add(align - 1)? & !(align - 1);
        let next = start.checked_add(size)?;
        if self.cur == 0 || next > self.end {
            return None;
        }
        self.cur = next;
        Some(start as *mut u8)
    }

    /// Resize the last bump block where it lies, when that is possible.
    #[inline]
    fn grow_in_place(&mut self, ptr: *mut u8, old: Layout, new: Layout) -> Option<*mut u8> {
        let p = ptr as usize;
        if arena_class(old).is_some() && arena_class(old) == arena_class(new) {
            return Some(ptr);
        }
        let next = p.checked_add(block_size(new))?;
        if p >= self.base && p + block_size(old) == self.cur && next <= self.end {
            self.cur = next;
            return Some(ptr);
        }
        None
    }

    fn chunk_at(&self, base: *mut u8) -> Option<usize> {
        self.chunks
            .get(..self.count)?
            .iter()
            .position(|&(b, _, dedicated)| dedicated && b == base)
    }
}

/// A batch projection's arena. While it is active every allocation comes from chunks of talc
/// memory, bump-allocated, with freed blocks up to 64 KiB reused per size class; at its end all
/// chunks go back to talc at once. A batch builds millions of small objects that all die
/// together; the arena makes each allocation a few instructions and lets the batch forget its
/// structures instead of walking them to free each block ([`BatchArena::dispose`]).
///
/// The rule that makes it sound: nothing allocated between [`BatchArena::start`] and
/// [`BatchArena::stop`] may be used after the [`StoppedArena`] is dropped. The batch exports
/// in `api.rs` allocate their result buffer before the start (a plain block stays plain when it
/// grows) and turn error messages into JS errors only after the stop; the arena itself empties
/// the cache of shared literal strings (`Val::lit`, a thread-local) at its start and its stop.
pub(crate) struct BatchArena(());

/// Memory grows by at least `memory >> GROWTH_SHIFT`: a quarter, or a sixteenth while a
/// [`Reserved`] batch runs.
static GROWTH_SHIFT: AtomicUsize = AtomicUsize::new(2);

/// A batch expected to need about the memory [`reserve`] set aside: further growth in smaller
/// steps until it is dropped.
pub(crate) struct Reserved(());

impl Drop for Reserved {
    fn drop(&mut self) {
        GROWTH_SHIFT.store(2, Ordering::Relaxed);
    }
}

/// Set `bytes` of free heap aside in one piece ahead of a batch expected to need about that
/// much: memory grows once to fit them (nothing is written or kept) instead of in quarter
/// steps, whose last one can overshoot the batch's need by up to a quarter of the memory.
/// Until the returned guard is dropped memory grows by a sixteenth at least, as a batch that
/// needs more than it reserved needs little more.
pub(crate) fn reserve(bytes: usize) -> Reserved {
    let mut block: Vec<u8> = Vec::new();
    // Refused or not, the batch runs as it would have (and the allocator says so if it runs
    // out).
    let _ = block.try_reserve_exact(bytes);
    drop(block);
    GROWTH_SHIFT.store(4, Ordering::Relaxed);
    Reserved(())
}

/// Drop `value` through the arena when there is one (forgotten, its memory released at the
/// arena's end, instead of walked block by block), else as usual.
pub(crate) fn dispose<T>(arena: Option<&BatchArena>, value: T) {
    match arena {
        Some(a) => a.dispose(value),
        None => drop(value),
    }
}

/// An arena that no longer allocates; dropping it gives its chunks back to talc.
pub(crate) struct StoppedArena(());

impl BatchArena {
    /// Start the arena (None when one is already running).
    pub(crate) fn start() -> Option<BatchArena> {
        {
            // SAFETY: single-threaded; no allocator call is running.
            let arena = unsafe { &mut *ALLOCATOR.arena.get() };
            if arena.state != ArenaState::Off {
                return None;
            }
            arena.state = ArenaState::Active;
            arena.complete = true;
        }
        // Strings cached before the start are plain blocks; from here the cache takes arena
        // blocks, which the stop forgets again.
        forget_shared_literals();
        Some(BatchArena(()))
    }

    /// Drop `value` cheaply: forgotten when all its memory is the arena's (given back at its
    /// end), else dropped as usual.
    pub(crate) fn dispose<T>(&self, value: T) {
        // SAFETY: single-threaded; no allocator call is running.
        let arena = unsafe { &*ALLOCATOR.arena.get() };
        if arena.complete {
            core::mem::forget(value);
        } else {
            drop(value);
        }
    }

    /// Stop allocating from the arena. Its blocks stay readable until the result is dropped.
    pub(crate) fn stop(self) -> StoppedArena {
        drop(self);
        StoppedArena(())
    }
}

/// Run `f` with plain allocations when a batch arena is active, for a call into JS during a
/// batch (a sink handed the wire text, the core's host hooks): what it allocates
/// (wasm-bindgen's table of JS values grows as a Rust vector) may outlive the arena. Arena
/// blocks freed meanwhile wait for the arena's end. Without an active arena, just `f()`.
pub(crate) fn outside_arena<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: single-threaded; no allocator call is running.
    let arena = unsafe { &mut *ALLOCATOR.arena.get() };
    let active = arena.state == ArenaState::Active;
    if active {
        arena.state = ArenaState::Stopped;
    }
    let out = f();
    if active {
        // SAFETY: as above (`f` has returned).
        let arena = unsafe { &mut *ALLOCATOR.arena.get() };
        arena.state = ArenaState::Active;
    }
    out
}

impl Drop for BatchArena {
    fn drop(&mut self) {
        // The literal cache is a thread-local: its strings cached during the batch are arena
        // blocks, which must not outlive the arena (released while it is still active).
        forget_shared_literals();
        // SAFETY: single-threaded; no allocator call is running.
        let arena = unsafe { &mut *ALLOCATOR.arena.get() };
        arena.state = ArenaState::Stopped;
    }
}

impl Drop for StoppedArena {
    fn drop(&mut self) {
        // SAFETY: single-threaded; no allocator call is running; by the arena's rule no arena
        // block is used any more.
        let arena = unsafe { &mut *ALLOCATOR.arena.get() };
        while arena.count > 0 {
            // SAFETY: as above.
            unsafe { ALLOCATOR.release_chunk(arena, arena.count - 1) };
        }
        arena.free = [core::ptr::null_mut(); ARENA_CLASSES];
        arena.base = 0;
        arena.cur = 0;
        arena.end = 0;
        arena.state = ArenaState::Off;
    }
}

/// Run `f` inside a batch arena (tests of the heap).
///
/// # Safety
///
/// Nothing `f` allocates may stay reachable after it returns: not through statics or
/// thread-locals (e.g. the input buffer), since the arena's memory goes back to talc then. (`f`
/// is a plain function, so it captures nothing.)
#[doc(hidden)]
pub unsafe fn in_batch_arena(f: fn()) -> bool {
    match BatchArena::start() {
        Some(a) => {
            f();
            drop(a.stop());
            true
        }
        None => false,
    }
}

#[global_allocator]
static ALLOCATOR: Heap = Heap {
    large: TalcSyncCell::new_wasm(GeometricGrowth { end: None }),
    small: core::cell::UnsafeCell::new(Small {
        free: [core::ptr::null_mut(); PLAIN_CLASSES],
        count: [0; PLAIN_CLASSES],
    }),
    arena: core::cell::UnsafeCell::new(Arena {
        state: ArenaState::Off,
        complete: true,
        chunks: [(core::ptr::null_mut(), 0, false); MAX_CHUNKS],
        count: 0,
        base: 0,
        cur: 0,
        end: 0,
        free: [core::ptr::null_mut(); ARENA_CLASSES],
        pages: [0; PAGE_WORDS],
    }),
};
