//! Bindings under wasm-bindgen-test in headless Chromium (`cargo test --target wasm32-unknown-unknown --test wasm_browser`).
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod wasm_cases;

wasm_case_tests!(
    fixtures_validate_and_verify_clean,
    validators_report_issues_in_order,
    sequence_verifier_is_incremental,
    terminal_helpers,
    projector_matches_batch,
    bad_input_is_refused_without_change,
    input_buffer_handles_non_ascii,
    large_input_buffer_is_released,
    input_over_the_limit_is_a_range_error,
    heap_blocks_keep_contents,
    batch_arena_keeps_blocks_apart,
    lower_casing_is_the_hosts,
);
