//! The masked mean pooling kernel: `shaders/mean_pool.wgsl` and its dispatcher [`MeanPool`].

use super::{Dispatch, Gpu};

/// The WGSL of the kernel.
pub const SOURCE: &str = shader!("mean_pool");

/// mean_pool.wgsl: masked mean over tokens, optionally L2-normalised.
pub struct MeanPool(pub Dispatch);

impl MeanPool {
    /// `hidden` `[B·S, H]`, `mask` u32 `[B·S]`, `out` `[B, H]`.
    pub fn new(gpu: &Gpu, hidden: &wgpu::Buffer, mask: &wgpu::Buffer, out: &wgpu::Buffer) -> Self {
        let p = gpu.pipeline("mean_pool", || SOURCE.to_string());
        MeanPool(Dispatch::new(gpu, "mean_pool", p, &[hidden, mask, out]))
    }

    pub fn set(&mut self, gpu: &Gpu, batch: usize, seq: usize, hidden: usize, normalize: bool) {
        self.0.set(gpu, [batch as u32, seq as u32, hidden as u32, normalize as u32, 0, 0, 0, 0], [batch as u32, 1, 1]);
    }
}
