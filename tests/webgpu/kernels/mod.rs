//! Each WGSL kernel against its plain-Rust reference (src/inference/webgpu/reference.rs) on random inputs,
//! relative tolerance ~1e-4: one file per kernel, named as in src/inference/webgpu/kernels/; this file holds the
//! shared device, random inputs, run and comparison. Runs natively through wgpu on Vulkan; on a machine without a
//! GPU that is Mesa's lavapipe: `bash scripts/install-vulkan.sh && cargo test --release --test webgpu kernels::`.
#![cfg(all(feature = "webgpu", not(target_arch = "wasm32")))]

use rerankit::inference::webgpu::kernels;
use rerankit::inference::webgpu::{block_on, Gpu};
use std::sync::OnceLock;

mod attention;
mod classifier;
mod embeddings;
mod gelu;
mod layer_norm;
mod matmul;
mod mean_pool;

fn gpu() -> &'static Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| {
        block_on(Gpu::new()).unwrap_or_else(|e| {
            panic!("no wgpu adapter ({e}): install a Vulkan driver (bash scripts/install-vulkan.sh installs lavapipe)")
        })
    })
}

/// xorshift64*: uniform in [-scale, scale).
struct Rng(u64);
impl Rng {
    fn f(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545F4914F6CDD1D) >> 40;
        (x as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
    fn vec(&mut self, n: usize, scale: f32) -> Vec<f32> {
        (0..n).map(|_| self.f() * scale).collect()
    }
    fn below(&mut self, n: u32) -> u32 {
        (((self.f() + 1.0) * 0.5 * n as f32) as u32).min(n - 1)
    }
}

fn run(d: &kernels::Dispatch, out: &wgpu::Buffer, words: usize) -> Vec<f32> {
    let g = gpu();
    let staging = g.staging("test", words);
    kernels::submit(g, &[d], out, &staging, words);
    block_on(g.read(&staging, words)).expect("kernel ran")
}

/// max over i of |got − want| / (atol + |want|).
fn assert_close(what: &str, got: &[f32], want: &[f32], rtol: f32, atol: f32) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let mut worst = (0.0f32, 0usize);
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let e = (g - w).abs() / (atol + w.abs());
        if !(e <= worst.0) {
            worst = (e, i);
        }
    }
    let (e, i) = worst;
    assert!(e <= rtol, "{what}: element {i}: got {} want {} (relative error {e:.2e} > {rtol:.0e})", got[i], want[i]);
    eprintln!("{what}: max relative error {e:.2e} over {} values", got.len());
}
