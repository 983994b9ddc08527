//! Bindings under wasm-bindgen-test in headless Chromium (`cargo test --target wasm32-unknown-unknown --test wasm_browser`).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

mod wasm_cases;

#[wasm_bindgen_test]
fn constants_are_complete() {
    wasm_cases::constants_are_complete();
}

#[wasm_bindgen_test]
fn fixtures_validate_and_verify_clean() {
    wasm_cases::fixtures_validate_and_verify_clean();
}

#[wasm_bindgen_test]
fn validators_report_issues_in_order() {
    wasm_cases::validators_report_issues_in_order();
}

#[wasm_bindgen_test]
fn sequence_verifier_is_incremental() {
    wasm_cases::sequence_verifier_is_incremental();
}

#[wasm_bindgen_test]
fn terminal_helpers() {
    wasm_cases::terminal_helpers();
}

#[wasm_bindgen_test]
fn projector_matches_batch() {
    wasm_cases::projector_matches_batch();
}

#[wasm_bindgen_test]
fn bad_input_is_refused_without_change() {
    wasm_cases::bad_input_is_refused_without_change();
}

#[wasm_bindgen_test]
fn input_buffer_handles_non_ascii() {
    wasm_cases::input_buffer_handles_non_ascii();
}

#[wasm_bindgen_test]
fn large_input_buffer_is_released() {
    wasm_cases::large_input_buffer_is_released();
}
