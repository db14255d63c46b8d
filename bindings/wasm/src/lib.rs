//! The JavaScript bindings of rerankit (wasm-bindgen): the only crate of the workspace that knows JS.
//!
//! Values cross the boundary as plain JS objects: [`convert`] turns them into `serde_json::Value` with errors
//! that name the offending path, and every error leaves as the wrapper's `RerankitError` (see [`errors`]).

mod convert;
mod document;
mod errors;
mod comparison;
mod metrics;
mod option_fields;
mod rankers;
mod agent_eval;
mod haystack_eval;
#[cfg(feature = "models")] mod inference;
#[cfg(feature = "models")] mod model_work;
#[cfg(feature = "models")] mod models;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// The crate version, for diagnostics.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The instance's linear memory (a fresh one after pkg/runtime.ts restarts a trapped instance).
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// Panics: the one deliberate trap, with which tests/node/wasm_trap.test.mjs checks that pkg/runtime.ts turns a
/// trap into `INTERNAL` and restarts the instance (every known panic path is prevented before tract runs).
#[doc(hidden)]
#[wasm_bindgen(js_name = __panicForTest)]
pub fn panic_for_test() {
    panic!("deliberate panic (test of the trap guard)");
}

/// Panics inside an async task, which the executor polls from the microtask queue rather than under the caller's
/// `await`: tests/node/wasm_trap.test.mjs checks that such a trap still ends as `INTERNAL` (scripts/build.mjs).
#[doc(hidden)]
#[cfg(feature = "models")]
#[wasm_bindgen(js_name = __panicInTaskForTest)]
pub fn panic_in_task_for_test() -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(async { panic!("deliberate panic in an async task (test of the trap guard)") })
}
