//! The classifier head kernel: `shaders/classifier.wgsl` and its dispatcher [`Classifier`].

use super::{Dispatch, Gpu};
use crate::inference::bert::PoolerActivation;

/// The WGSL of the kernel: the GELU functions (gelu_fn.wgsl), then classifier.wgsl.
pub const SOURCE: &str = shader!("gelu_fn", "classifier");

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
        let p = gpu.pipeline("classifier", || SOURCE.to_string());
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
