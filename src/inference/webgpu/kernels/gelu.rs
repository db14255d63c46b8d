//! The elementwise exact GELU kernel: `shaders/gelu.wgsl` and its dispatcher [`Gelu`].

use super::{rows_grid, Dispatch, Gpu};

/// The WGSL of the kernel: the GELU functions (gelu_fn.wgsl), then gelu.wgsl.
pub const SOURCE: &str = shader!("gelu_fn", "gelu");

/// gelu.wgsl: elementwise exact GELU (the model fuses it into [`Matmul`]; this standalone form is for tests and
/// for graphs where GELU does not follow a MatMul + bias).
pub struct Gelu(pub Dispatch);

impl Gelu {
    pub fn new(gpu: &Gpu, x: &wgpu::Buffer, y: &wgpu::Buffer) -> Self {
        let p = gpu.pipeline("gelu", || SOURCE.to_string());
        Gelu(Dispatch::new(gpu, "gelu", p, &[x, y]))
    }

    pub fn set(&mut self, gpu: &Gpu, n: usize) {
        self.0.set(gpu, [n as u32, 0, 0, 0, 0, 0, 0, 0], rows_grid(n.div_ceil(256)));
    }
}
