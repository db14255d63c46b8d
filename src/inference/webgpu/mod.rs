//! WebGPU backend: rerankit's own WGSL kernels for BERT-family cross-encoders and bi-encoders, with a parity
//! self-check against the CPU (tract) path and a CPU fallback.
//!
//! - [`kernels`]: one typed dispatcher beside each WGSL kernel in `kernels/` (embedding gather + layer norm, tiled
//!   matmul with bias and fused exact GELU, attention, residual + layer norm, classifier head, mean pooling, GELU).
//! - [`reference`]: the same math in plain Rust, for the kernel tests.
//! - [`context`]: device, pipeline cache, buffers, GPU-error capture, read-back.
//! - [`weights`]: BERT weights from the ONNX graph, mapped by structure (`UNSUPPORTED` otherwise).
//! - [`model`]: the forward pass (weights resident, activations and bind groups reused across batches).
//! - [`ranker`]: `device: "webgpu" | "cpu" | "auto"`, the parity probe against tract, the CPU fallback.
//!
//! wgpu runs on Vulkan natively (Mesa lavapipe on machines without a GPU: `scripts/install-vulkan.sh`) and on
//! the browser's WebGPU in wasm. See docs/webgpu.md.

pub mod context;
pub mod kernels;
pub mod model;
pub mod ranker;
pub mod reference;
pub mod weights;

pub use context::Gpu;
pub use model::{GpuBert, Output};
pub use ranker::{Device, GpuCrossEncoder, GpuEmbedder, ProbeReport, WarningFn, PROBE_PAIRS, PROBE_TOLERANCE};
pub use weights::{BertWeights, PoolerActivation};
/// The wgpu the kernels run on (for tests and benches that make their own buffers).
pub use wgpu;
#[cfg(not(target_arch = "wasm32"))]
pub use context::block_on;
