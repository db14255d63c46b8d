//! The scaled dot-product attention kernel: `shaders/attention.wgsl` and its dispatcher [`Attention`].

use super::{Dispatch, Gpu};

/// The WGSL of the kernel.
pub const SOURCE: &str = shader!("attention");

/// attention.wgsl: scaled dot-product attention with the additive padding mask, per (token, head, sequence).
pub struct Attention(pub Dispatch);

impl Attention {
    /// `qkv` `[B·S, 3H]` (Q | K | V), `mask` u32 `[B·S]`, `ctx` `[B·S, H]`.
    pub fn new(gpu: &Gpu, qkv: &wgpu::Buffer, mask: &wgpu::Buffer, ctx: &wgpu::Buffer) -> Self {
        let p = gpu.pipeline("attention", || SOURCE.to_string());
        Attention(Dispatch::new(gpu, "attention", p, &[qkv, mask, ctx]))
    }

    pub fn set(&mut self, gpu: &Gpu, batch: usize, seq: usize, heads: usize, hidden: usize) {
        let head_dim = hidden / heads;
        let scale = 1.0 / (head_dim as f32).sqrt();
        let params = [batch as u32, seq as u32, heads as u32, head_dim as u32, hidden as u32, scale.to_bits(), 0, 0];
        self.0.set(gpu, params, [seq as u32, heads as u32, batch as u32]);
    }
}
