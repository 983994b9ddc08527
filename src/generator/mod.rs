//! Deterministic realistic event stream generator (modelled on shared/bench/gen.mjs).
