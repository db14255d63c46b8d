//! One typed dispatcher per WGSL kernel (`shaders/*.wgsl`, compiled in with `include_str!`).
//!
//! A dispatcher owns its bind group and a small uniform buffer of parameters; it is built once for a set of
//! buffers and re-parameterised per batch with `set(..)` (a 32-byte `queue.write_buffer`), then recorded into a
//! compute pass with [`Dispatch::encode`]. Pipelines are compiled once per device ([`Gpu::pipeline`]).
//! The math of each kernel is in the doc comment of its WGSL file and mirrored by [`super::reference`].

use super::context::{u32_bytes, Gpu};
use super::weights::PoolerActivation;
use std::sync::Arc;

/// WGSL sources.
pub mod source {
    pub const EMBEDDINGS: &str = include_str!("../../../shaders/embeddings.wgsl");
    pub const MATMUL: &str = include_str!("../../../shaders/matmul.wgsl");
    pub const ATTENTION: &str = include_str!("../../../shaders/attention.wgsl");
    pub const GELU: &str = include_str!("../../../shaders/gelu.wgsl");
    pub const LAYER_NORM: &str = include_str!("../../../shaders/layer_norm.wgsl");
    pub const CLASSIFIER: &str = include_str!("../../../shaders/classifier.wgsl");
    pub const MEAN_POOL: &str = include_str!("../../../shaders/mean_pool.wgsl");

    /// The GELU functions of gelu.wgsl (between its BEGIN/END gelu_fn markers).
    pub fn gelu_fn() -> &'static str {
        let start = GELU.find("// BEGIN gelu_fn").expect("gelu.wgsl has a BEGIN gelu_fn marker");
        let end = GELU.find("// END gelu_fn").expect("gelu.wgsl has an END gelu_fn marker");
        &GELU[start..end]
    }

    /// matmul.wgsl with the GELU epilogue functions prepended.
    pub fn matmul() -> String {
        format!("{}\n{}", gelu_fn(), MATMUL)
    }

    /// The layer-norm statistics of layer_norm.wgsl (between its BEGIN/END ln_stats markers).
    pub fn ln_stats() -> &'static str {
        let start = LAYER_NORM.find("// BEGIN ln_stats").expect("layer_norm.wgsl has a BEGIN ln_stats marker");
        let end = LAYER_NORM.find("// END ln_stats").expect("layer_norm.wgsl has an END ln_stats marker");
        &LAYER_NORM[start..end]
    }

    /// embeddings.wgsl with layer_norm.wgsl's row statistics prepended (one reduction for both kernels).
    pub fn embeddings() -> String {
        format!("{}\n{}", ln_stats(), EMBEDDINGS)
    }
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

/// embeddings.wgsl: word + position + token-type gather, then layer norm.
pub struct Embeddings(pub Dispatch);

impl Embeddings {
    /// `ids`, `types`: u32 `[R]`; `word` `[V, H]`, `pos` `[P, H]`, `typ` `[T, H]`; `ln` `[2, H]`; `out` `[R, H]`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        gpu: &Gpu,
        ids: &wgpu::Buffer,
        types: &wgpu::Buffer,
        word: &wgpu::Buffer,
        pos: &wgpu::Buffer,
        typ: &wgpu::Buffer,
        ln: &wgpu::Buffer,
        out: &wgpu::Buffer,
    ) -> Self {
        let p = gpu.pipeline("embeddings", source::embeddings);
        Embeddings(Dispatch::new(gpu, "embeddings", p, &[ids, types, word, pos, typ, ln, out]))
    }

    /// `rows = B·S`; `tables = (vocab, positions, types)` (types 0 = no token-type table).
    pub fn set(&mut self, gpu: &Gpu, rows: usize, seq: usize, hidden: usize, tables: (usize, usize, usize), eps: f32) {
        let (vocab, positions, types) = tables;
        let params = [
            rows as u32,
            seq as u32,
            hidden as u32,
            (types > 0) as u32,
            eps.to_bits(),
            vocab as u32,
            types.max(1) as u32,
            positions as u32,
        ];
        self.0.set(gpu, params, rows_grid(rows));
    }
}

/// matmul.wgsl: `C = act(A·W + bias)`, 64×64 tiles, 4×4 per thread.
pub struct Matmul(pub Dispatch);

impl Matmul {
    /// `a` `[M, K]`, `w` `[K, N]`, `bias` `[N]`, `c` `[M, N]`.
    pub fn new(gpu: &Gpu, a: &wgpu::Buffer, w: &wgpu::Buffer, bias: &wgpu::Buffer, c: &wgpu::Buffer) -> Self {
        let p = gpu.pipeline("matmul", source::matmul);
        Matmul(Dispatch::new(gpu, "matmul", p, &[a, w, bias, c]))
    }

    pub fn set(&mut self, gpu: &Gpu, m: usize, n: usize, k: usize, gelu: bool) {
        let params = [m as u32, n as u32, k as u32, gelu as u32, 0, 0, 0, 0];
        self.0.set(gpu, params, [n.div_ceil(64) as u32, m.div_ceil(64) as u32, 1]);
    }

    /// Floating-point operations of one `set(m, n, k)` product (2·M·N·K).
    pub fn flops(m: usize, n: usize, k: usize) -> f64 {
        2.0 * m as f64 * n as f64 * k as f64
    }
}

/// attention.wgsl: scaled dot-product attention with the additive padding mask, per (token, head, sequence).
pub struct Attention(pub Dispatch);

impl Attention {
    /// `qkv` `[B·S, 3H]` (Q | K | V), `mask` u32 `[B·S]`, `ctx` `[B·S, H]`.
    pub fn new(gpu: &Gpu, qkv: &wgpu::Buffer, mask: &wgpu::Buffer, ctx: &wgpu::Buffer) -> Self {
        let p = gpu.pipeline("attention", || source::ATTENTION.to_string());
        Attention(Dispatch::new(gpu, "attention", p, &[qkv, mask, ctx]))
    }

    pub fn set(&mut self, gpu: &Gpu, batch: usize, seq: usize, heads: usize, hidden: usize) {
        let head_dim = hidden / heads;
        let scale = 1.0 / (head_dim as f32).sqrt();
        let params = [batch as u32, seq as u32, heads as u32, head_dim as u32, hidden as u32, scale.to_bits(), 0, 0];
        self.0.set(gpu, params, [seq as u32, heads as u32, batch as u32]);
    }
}

/// gelu.wgsl: elementwise exact GELU (the model fuses it into [`Matmul`]; this standalone form is for tests and
/// for graphs where GELU does not follow a MatMul + bias).
pub struct Gelu(pub Dispatch);

impl Gelu {
    pub fn new(gpu: &Gpu, x: &wgpu::Buffer, y: &wgpu::Buffer) -> Self {
        let p = gpu.pipeline("gelu", || source::GELU.to_string());
        Gelu(Dispatch::new(gpu, "gelu", p, &[x, y]))
    }

    pub fn set(&mut self, gpu: &Gpu, n: usize) {
        self.0.set(gpu, [n as u32, 0, 0, 0, 0, 0, 0, 0], rows_grid(n.div_ceil(256)));
    }
}

/// layer_norm.wgsl: `hidden = LayerNorm(x + hidden)` in place.
pub struct ResidualLayerNorm(pub Dispatch);

impl ResidualLayerNorm {
    /// `x` `[R, H]`, `ln` `[2, H]` (γ, β), `hidden` `[R, H]` (residual in, result out).
    pub fn new(gpu: &Gpu, x: &wgpu::Buffer, ln: &wgpu::Buffer, hidden: &wgpu::Buffer) -> Self {
        let p = gpu.pipeline("layer_norm", || source::LAYER_NORM.to_string());
        ResidualLayerNorm(Dispatch::new(gpu, "layer_norm", p, &[x, ln, hidden]))
    }

    pub fn set(&mut self, gpu: &Gpu, rows: usize, hidden: usize, eps: f32) {
        self.0.set(gpu, [rows as u32, hidden as u32, eps.to_bits(), 0, 0, 0, 0, 0], rows_grid(rows));
    }
}

/// classifier.wgsl: pooler (dense + activation on [CLS]) then the linear classifier.
pub struct Classifier(pub Dispatch);

impl Classifier {
    /// `hidden` `[B·S, H]`, `wp` `[H, H]`, `bp` `[H]`, `wc` `[H, L]`, `bc` `[L]`, `logits` `[B, L]`.
    pub fn new(
        gpu: &Gpu,
        hidden: &wgpu::Buffer,
        pooler: (&wgpu::Buffer, &wgpu::Buffer),
        classifier: (&wgpu::Buffer, &wgpu::Buffer),
        logits: &wgpu::Buffer,
    ) -> Self {
        let p = gpu.pipeline("classifier", || format!("{}\n{}", source::gelu_fn(), source::CLASSIFIER));
        Classifier(Dispatch::new(gpu, "classifier", p, &[hidden, pooler.0, pooler.1, classifier.0, classifier.1, logits]))
    }

    /// `pooler`: the pooler's activation, `None` without a pooler.
    pub fn set(&mut self, gpu: &Gpu, batch: usize, seq: usize, hidden: usize, labels: usize, pooler: Option<PoolerActivation>) {
        let code = match pooler {
            None => 0,
            Some(PoolerActivation::Tanh) => 1,
            Some(PoolerActivation::Relu) => 2,
            Some(PoolerActivation::Gelu) => 3,
        };
        let params = [batch as u32, seq as u32, hidden as u32, labels as u32, code, 0, 0, 0];
        self.0.set(gpu, params, [batch as u32, 1, 1]);
    }
}

/// mean_pool.wgsl: masked mean over tokens, optionally L2-normalised.
pub struct MeanPool(pub Dispatch);

impl MeanPool {
    /// `hidden` `[B·S, H]`, `mask` u32 `[B·S]`, `out` `[B, H]`.
    pub fn new(gpu: &Gpu, hidden: &wgpu::Buffer, mask: &wgpu::Buffer, out: &wgpu::Buffer) -> Self {
        let p = gpu.pipeline("mean_pool", || source::MEAN_POOL.to_string());
        MeanPool(Dispatch::new(gpu, "mean_pool", p, &[hidden, mask, out]))
    }

    pub fn set(&mut self, gpu: &Gpu, batch: usize, seq: usize, hidden: usize, normalize: bool) {
        self.0.set(gpu, [batch as u32, seq as u32, hidden as u32, normalize as u32, 0, 0, 0, 0], [batch as u32, 1, 1]);
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
