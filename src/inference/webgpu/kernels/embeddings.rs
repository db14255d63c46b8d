//! The embedding gather + layer norm kernel: `shaders/embeddings.wgsl` and its dispatcher [`Embeddings`].

use super::{rows_grid, Dispatch, Gpu};

/// The WGSL of the kernel: the layer-norm row statistics (ln_stats.wgsl), then embeddings.wgsl.
pub const SOURCE: &str = shader!("ln_stats", "embeddings");

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
        let p = gpu.pipeline("embeddings", || SOURCE.to_string());
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
