//! One typed dispatcher per WGSL kernel: each kernel is `shaders/<name>.wgsl` at the top of the repository and its
//! dispatcher `<name>.rs` in this directory (with the shader's `SOURCE`, compiled in by [`shader!`]); its test is
//! tests/webgpu/kernels/<name>.rs.
//!
//! WGSL functions that several kernels share live in their own files, with no bindings and no entry point:
//! `shaders/gelu_fn.wgsl` (exact GELU: gelu.wgsl, matmul.wgsl's fused epilogue, classifier.wgsl's GELU pooler) and
//! `shaders/ln_stats.wgsl` (layer-norm row statistics: layer_norm.wgsl, embeddings.wgsl). A kernel that needs one is
//! compiled from `shader!("gelu_fn", "matmul")`, a `&'static str` put together at compile time (WGSL declarations
//! at module scope may come in any order).
//!
//! A dispatcher owns its bind group and a small uniform buffer of parameters; it is built once for a set of
//! buffers and re-parameterised per batch with `set(..)` (a 32-byte `queue.write_buffer`), then recorded into a
//! compute pass with [`Dispatch::encode`]. Pipelines are compiled once per device ([`Gpu::pipeline`]).
//! The math of each kernel is in the doc comment of its WGSL file and mirrored by [`super::reference`].

/// The WGSL of `shaders/<name>.wgsl` files, in order, as one `&'static str` (the files are compiled in).
macro_rules! shader {
    ($($name:literal),+) => {
        concat!($(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/shaders/", $name, ".wgsl"))),+)
    };
}

use super::context::{u32_bytes, Gpu};
use std::sync::Arc;

mod attention;
mod classifier;
mod embeddings;
mod gelu;
mod layer_norm;
mod matmul;
mod mean_pool;

pub use attention::Attention;
pub use classifier::Classifier;
pub use embeddings::Embeddings;
pub use gelu::Gelu;
pub use layer_norm::ResidualLayerNorm;
pub use matmul::Matmul;
pub use mean_pool::MeanPool;

/// The complete WGSL of each kernel, as compiled (shared functions included).
pub mod source {
    pub use super::attention::SOURCE as ATTENTION;
    pub use super::classifier::SOURCE as CLASSIFIER;
    pub use super::embeddings::SOURCE as EMBEDDINGS;
    pub use super::gelu::SOURCE as GELU;
    pub use super::layer_norm::SOURCE as LAYER_NORM;
    pub use super::matmul::SOURCE as MATMUL;
    pub use super::mean_pool::SOURCE as MEAN_POOL;

    /// The exact-GELU functions (`gelu_erf`, `one_plus_erf_as`) in front of gelu, matmul and classifier.
    pub const GELU_FN: &str = shader!("gelu_fn");
    /// The layer-norm row statistics (`ln_stats`, `wg_sum`, `ln_red`) in front of layer_norm and embeddings.
    pub const LN_STATS: &str = shader!("ln_stats");
}

/// Largest hidden size the row kernels (embeddings, layer norm, classifier, pooling) handle.
pub const MAX_HIDDEN: usize = 1024;
/// Longest sequence the attention kernel handles.
pub const MAX_SEQUENCE: usize = 512;
/// Largest head dimension the attention kernel handles (it must also be a multiple of 4: rows are read as vec4).
pub const MAX_HEAD_DIM: usize = 128;

/// A bind group + parameter buffer + workgroup count for one kernel invocation.
pub struct Dispatch {
    pipeline: Arc<wgpu::ComputePipeline>,
    bind_group: wgpu::BindGroup,
    params: wgpu::Buffer,
    groups: [u32; 3],
    label: &'static str,
}

impl Dispatch {
    /// Binds `buffers` at bindings 1.. (binding 0 is the parameter block).
    fn new(gpu: &Gpu, label: &'static str, pipeline: Arc<wgpu::ComputePipeline>, buffers: &[&wgpu::Buffer]) -> Self {
        let params = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: 32,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut entries = vec![wgpu::BindGroupEntry { binding: 0, resource: params.as_entire_binding() }];
        for (i, b) in buffers.iter().enumerate() {
            entries.push(wgpu::BindGroupEntry { binding: i as u32 + 1, resource: b.as_entire_binding() });
        }
        let bind_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        Dispatch { pipeline, bind_group, params, groups: [0, 1, 1], label }
    }

    fn set(&mut self, gpu: &Gpu, params: [u32; 8], groups: [u32; 3]) {
        gpu.queue.write_buffer(&self.params, 0, &u32_bytes(&params));
        self.groups = groups;
    }

    /// Records the dispatch (nothing when its last `set` gave zero work).
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        if self.groups.contains(&0) {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.dispatch_workgroups(self.groups[0], self.groups[1], self.groups[2]);
    }

    pub fn label(&self) -> &'static str {
        self.label
    }
}

/// `n` workgroups laid out as (x, y) with x ≤ 65535 (kernels index `wid.y · nwg.x + wid.x`).
fn rows_grid(n: usize) -> [u32; 3] {
    if n <= 65535 {
        [n as u32, 1, 1]
    } else {
        let y = n.div_ceil(65535);
        [n.div_ceil(y) as u32, y as u32, 1]
    }
}

/// Records `dispatches` in one compute pass, copies `words` f32 values of `result` into `staging`, submits.
pub fn submit(gpu: &Gpu, dispatches: &[&Dispatch], result: &wgpu::Buffer, staging: &wgpu::Buffer, words: usize) {
    let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("rerankit") });
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("rerankit"), timestamp_writes: None });
        for d in dispatches {
            d.encode(&mut pass);
        }
    }
    if words > 0 {
        encoder.copy_buffer_to_buffer(result, 0, staging, 0, Some((words * 4) as u64));
    }
    gpu.queue.submit([encoder.finish()]);
}
