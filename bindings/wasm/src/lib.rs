//! The JavaScript bindings of rerankit (wasm-bindgen): the only crate of the workspace that knows JS.
//!
//! Values cross the boundary as plain JS objects: [`convert`] turns them into `serde_json::Value` with errors
//! that name the offending path, and every error leaves as the wrapper's `RerankitError` (see [`errors`]).

mod allocator;
mod convert;
mod document;
mod errors;
#[cfg(feature = "eval")] mod comparison;
#[cfg(feature = "eval")] mod metrics;
// for a test of the main module only (tests/node/option_types.test.mjs), which has both halves
#[cfg(all(feature = "eval", feature = "pipeline-eval"))] mod option_fields;
#[cfg(feature = "eval")] mod rankers;
#[cfg(feature = "pipeline-eval")] mod agent_eval;
#[cfg(feature = "pipeline-eval")] mod haystack_eval;
#[cfg(feature = "models")] mod inference;
#[cfg(feature = "models")] mod model_work;
#[cfg(feature = "models")] mod models;

use wasm_bindgen::prelude::*;

/// Counts the bytes held, so that `memoryBudgetMiB` can be honoured (src/inference/memory_budget.rs).
#[cfg(feature = "models")]
#[global_allocator]
static ALLOCATOR: rerankit::inference::memory_budget::CountingAllocator<allocator::WasmAllocator> =
    rerankit::inference::memory_budget::CountingAllocator(allocator::WasmAllocator::new());

#[cfg(not(feature = "models"))]
#[global_allocator]
static ALLOCATOR: allocator::WasmAllocator = allocator::WasmAllocator::new();

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// The crate version, for diagnostics.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

// scripts/build.mjs adds this function to the models module's glue (its async executor's guard); the eval
// module runs no async tasks and has none.
#[wasm_bindgen(typescript_custom_section)]
const TASK_TRAP: &'static str = r#"
/** Where an exception escaping an async task goes (models module only: scripts/build.mjs adds it to the glue). */
export declare const __onTaskTrap: ((handler: (e: unknown) => void) => void) | undefined;
"#;

/// The instance's linear memory (a fresh one after pkg/runtimes/wasm_instance.ts restarts a trapped instance).
#[wasm_bindgen(js_name = wasmMemory, unchecked_return_type = "WebAssembly.Memory")]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// Panics: the one deliberate trap, with which tests/node/wasm_trap.test.mjs checks that pkg/runtimes/wasm_instance.ts turns a
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

/// `{held, peak, memory}` in bytes: what the program holds, the most it held since the last call, and the linear
/// memory's size (bench/runtimes.mjs and the budget's tests read it; src/inference/memory_budget.rs).
#[doc(hidden)]
#[cfg(feature = "models")]
#[wasm_bindgen(js_name = __memoryStats)]
pub fn memory_stats() -> JsValue {
    use rerankit::inference::memory_budget::{held_bytes, memory_bytes, peak_bytes, reset_peak};
    let stats = js_sys::Object::new();
    let set = |k: &str, v: usize| js_sys::Reflect::set(&stats, &k.into(), &(v as f64).into()).ok();
    set("held", held_bytes().unwrap_or(0));
    set("peak", peak_bytes());
    set("memory", memory_bytes().unwrap_or(0));
    reset_peak();
    stats.into()
}
