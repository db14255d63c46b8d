//! WebGPU backend: rerankit's own WGSL kernels for BERT-family cross-encoders and bi-encoders.
//!
//! - [`kernels`]: one typed dispatcher beside each WGSL kernel in `kernels/` (embedding gather + layer norm, tiled
//!   matmul with bias and fused exact GELU, attention, residual + layer norm, classifier head, mean pooling, GELU).
//! - [`reference`]: the same math in plain Rust, for the kernel tests.
//! - [`context`]: device, pipeline cache, buffers, GPU-error capture, read-back.
//! - [`model`]: the forward pass of [`BertWeights`](crate::inference::bert::BertWeights) (weights resident,
//!   activations and bind groups reused across batches).
//!
//! The engines that choose between this and the CPU — the parity probe, the fallback — are
//! `super::engine`'s.
//!
//! wgpu runs on Vulkan natively (Mesa lavapipe on machines without a GPU: `scripts/install-vulkan.sh`) and on
//! the browser's WebGPU in wasm. See docs/webgpu.md.

pub mod context;
pub mod kernels;
pub mod model;
pub mod reference;

pub use context::Gpu;
pub use model::{GpuBert, Output};
/// The wgpu the kernels run on (for tests and benches that make their own buffers).
pub use wgpu;
#[cfg(not(target_arch = "wasm32"))]
pub use context::block_on;
