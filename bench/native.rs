//! Native benchmark of the Rust core (filled in by the benchmarks work).
fn main() {}
