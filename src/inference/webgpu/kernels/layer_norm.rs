//! The residual add + layer norm kernel: `shaders/layer_norm.wgsl` and its dispatcher [`ResidualLayerNorm`].

use super::{rows_grid, Dispatch, Gpu};

/// The WGSL of the kernel: the layer-norm row statistics (ln_stats.wgsl), then layer_norm.wgsl.
pub const SOURCE: &str = shader!("ln_stats", "layer_norm");

/// layer_norm.wgsl: `hidden = LayerNorm(x + hidden)` in place.
pub struct ResidualLayerNorm(pub Dispatch);

impl ResidualLayerNorm {
    /// `x` `[R, H]`, `ln` `[2, H]` (γ, β), `hidden` `[R, H]` (residual in, result out).
    pub fn new(gpu: &Gpu, x: &wgpu::Buffer, ln: &wgpu::Buffer, hidden: &wgpu::Buffer) -> Self {
        let p = gpu.pipeline("layer_norm", || SOURCE.to_string());
        ResidualLayerNorm(Dispatch::new(gpu, "layer_norm", p, &[x, ln, hidden]))
    }

    pub fn set(&mut self, gpu: &Gpu, rows: usize, hidden: usize, eps: f32) {
        self.0.set(gpu, [rows as u32, hidden as u32, eps.to_bits(), 0, 0, 0, 0, 0], rows_grid(rows));
    }
}
