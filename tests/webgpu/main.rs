//! The WGSL kernels through wgpu (lavapipe without a GPU): each kernel, parity with tract, and the GPU benchmark (ignored).
//! One test binary per area (cargo builds and links each once); `cargo test --test webgpu` runs them.

#[path = "../common/mod.rs"]
mod common;

mod kernels;
mod parity;
mod bench;
mod hub_exports;
