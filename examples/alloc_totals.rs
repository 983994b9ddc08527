//! Bytes the batch path the wasm `project` export runs allocates, natively: the event list's
//! JSON text read one event at a time (`project_array_text`), then the wire text into a buffer
//! reserved as the export reserves it. Prints the total requested, the peak live (beyond the
//! input text) and what is live after each step, and the blocks between 1 KiB and 64 KiB freed
//! during the batch, by size: the wasm batch arena hands such blocks out again through its
//! medium size classes (`src/wasm/alloc.rs`). Pointer-sized fields are twice their wasm32 size
//! here, so the figures bound the wasm heap's from above.
//! Run: `cargo run --release --example alloc_totals -- [n]`.
use agent_runtime_projection::contract::val::Val;
use agent_runtime_projection::generator::generate_json;
use agent_runtime_projection::projection::projector::ProjectorCore;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Count;
static TOTAL: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static N: AtomicUsize = AtomicUsize::new(0);
static MEDIUM_FREED: AtomicUsize = AtomicUsize::new(0);
/// Medium frees by size: 1-2 KiB, 2-4 KiB, ... 32-64 KiB.
static BY_SIZE: [AtomicUsize; 6] = [const { AtomicUsize::new(0) }; 6];

fn add(n: usize) {
    TOTAL.fetch_add(n, Relaxed);
    let l = LIVE.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(l, Relaxed);
}
fn freed(n: usize) {
    LIVE.fetch_sub(n, Relaxed);
    if n > 1024 && n <= 65536 {
        MEDIUM_FREED.fetch_add(n, Relaxed);
        let i = ((n - 1).ilog2() as usize).saturating_sub(10).min(5);
        if let Some(c) = BY_SIZE.get(i) {
            c.fetch_add(1, Relaxed);
        }
    }
}
unsafe impl GlobalAlloc for Count {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        N.fetch_add(1, Relaxed);
        add(l.size());
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        freed(l.size());
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        add(n);
        let q = unsafe { System.realloc(p, l, n) };
        freed(l.size());
        q
    }
}
#[global_allocator]
static A: Count = Count;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    let Ok(text) = generate_json(n, 42, "{}") else {
        return;
    };
    let mb = |x: usize| x as f64 / 1e6;
    let (t0, l0) = (TOTAL.load(Relaxed), LIVE.load(Relaxed));
    PEAK.store(l0, Relaxed);
    let reserved = text.len() / 2 + 1024;
    let mut out = String::with_capacity(reserved);
    let mut projector = ProjectorCore::counted(Val::Num(0.0));
    let Some(state) = projector.project_array_text(&text) else {
        eprintln!("the batch stopped");
        return;
    };
    let after_state = LIVE.load(Relaxed) - l0;
    projector.write_wire(&state, &mut out);
    let after_write = LIVE.load(Relaxed) - l0;
    let peak = PEAK.load(Relaxed) - l0;
    println!(
        "input {:.1} MB; wire text {:.1} MB (reserved {:.1} MB)",
        mb(text.len()),
        mb(out.len()),
        mb(reserved)
    );
    println!(
        "allocated {:.1} MB in {} blocks; live after the state {:.1} MB, after the wire text {:.1} MB; peak {:.1} MB ({:.2}x the input with it)",
        mb(TOTAL.load(Relaxed) - t0),
        N.load(Relaxed),
        mb(after_state),
        mb(after_write),
        mb(peak),
        (peak + text.len()) as f64 / text.len() as f64
    );
    let by_size: Vec<String> = BY_SIZE
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{}-{} KiB: {}", 1 << i, 2 << i, c.load(Relaxed)))
        .collect();
    println!(
        "blocks of 1-64 KiB freed during the batch: {:.1} MB ({})",
        mb(MEDIUM_FREED.load(Relaxed)),
        by_size.join(", ")
    );
}
