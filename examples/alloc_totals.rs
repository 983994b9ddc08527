//! Bytes the batch path allocates: total requested, peak live, and counts.
//! Run: `cargo run --release --example alloc_totals -- [n]`.
use agent_runtime_projection::generator::generate_json;
use agent_runtime_projection::projection::projector::Projector;
use serde_json::Value;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Count;
static TOTAL: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static N: AtomicUsize = AtomicUsize::new(0);
static RE: AtomicUsize = AtomicUsize::new(0);
fn add(n: usize) {
    TOTAL.fetch_add(n, Relaxed);
    let l = LIVE.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(l, Relaxed);
}
unsafe impl GlobalAlloc for Count {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        N.fetch_add(1, Relaxed);
        add(l.size());
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        RE.fetch_add(1, Relaxed);
        LIVE.fetch_sub(l.size(), Relaxed);
        add(n);
        unsafe { System.realloc(p, l, n) }
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
    let (t0, l0) = (TOTAL.load(Relaxed), LIVE.load(Relaxed));
    PEAK.store(l0, Relaxed);
    let Ok(Value::Array(events)) = agent_runtime_projection::contract::json::parse_value(&text)
    else {
        return;
    };
    let after_parse = TOTAL.load(Relaxed) - t0;
    let mut p = Projector::new(None);
    p.hydrate(events, &[], None).expect("hydrated");
    let st = p.state().expect("readable state");
    let mut out = String::with_capacity(text.len() * 2);
    p.write_wire(&st, &mut out);
    let mb = |x: usize| x as f64 / 1e6;
    println!(
        "input {:.1} MB, output {:.1} MB",
        mb(text.len()),
        mb(out.len())
    );
    println!("parse allocated {:.1} MB; total allocated {:.1} MB; peak live {:.1} MB; allocs {} reallocs {}",
        mb(after_parse), mb(TOTAL.load(Relaxed) - t0), mb(PEAK.load(Relaxed) - l0), N.load(Relaxed), RE.load(Relaxed));
}
