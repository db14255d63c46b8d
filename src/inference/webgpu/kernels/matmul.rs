//! The tiled matmul with bias and fused GELU kernel: `shaders/matmul.wgsl` and its dispatcher [`Matmul`].

use super::{Dispatch, Gpu};

/// The WGSL of the kernel: the GELU functions (gelu_fn.wgsl), then matmul.wgsl.
pub const SOURCE: &str = shader!("gelu_fn", "matmul");

/// matmul.wgsl: `C = act(A·W + bias)`, 64×64 tiles, 4×4 per thread.
pub struct Matmul(pub Dispatch);

impl Matmul {
    /// `a` `[M, K]`, `w` `[K, N]`, `bias` `[N]`, `c` `[M, N]`.
    pub fn new(gpu: &Gpu, a: &wgpu::Buffer, w: &wgpu::Buffer, bias: &wgpu::Buffer, c: &wgpu::Buffer) -> Self {
        let p = gpu.pipeline("matmul", || SOURCE.to_string());
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
