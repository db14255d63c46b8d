//! Each WGSL kernel against its plain-Rust reference (src/inference/webgpu/reference.rs) on random inputs,
//! relative tolerance ~1e-4. Runs natively through wgpu on Vulkan; on a machine without a GPU that is Mesa's
//! lavapipe: `bash scripts/install-vulkan.sh && cargo test --release --test webgpu kernels::`.
#![cfg(all(feature = "webgpu", not(target_arch = "wasm32")))]

use rerankit::inference::webgpu::kernels::{self, Attention, Classifier, Embeddings, Gelu, Matmul, MeanPool, ResidualLayerNorm};
use rerankit::inference::webgpu::{block_on, reference, Gpu, PoolerActivation};
use std::sync::OnceLock;

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

#[test]
fn matmul_matches_reference_on_ragged_shapes() {
    let g = gpu();
    let mut rng = Rng(7);
    for &(m, n, k, act) in &[(1, 1, 1, false), (70, 130, 33, false), (64, 64, 64, true), (131, 384, 384, false), (37, 1536, 384, true), (200, 384, 1536, false)] {
        let a = rng.vec(m * k, 1.0);
        let w = rng.vec(k * n, 0.1);
        let bias = rng.vec(n, 0.5);
        let (ab, wb, bb, cb) = (g.upload_f32("a", &a), g.upload_f32("w", &w), g.upload_f32("b", &bias), g.storage("c", m * n));
        let mut op = Matmul::new(g, &ab, &wb, &bb, &cb);
        op.set(g, m, n, k, act);
        let got = run(&op.0, &cb, m * n);
        let want = reference::matmul(&a, &w, &bias, m, n, k, act);
        // f32 accumulation of K products rounds like a random walk: ~√K·2⁻²⁴ of the partial sums' size, which is
        // the outputs' size. Elements that cancel towards 0 keep that absolute error (1.5e-6 seen at K = 1536), so
        // the floor is 4σ of it: |got − want| ≤ 1e-4·|want| + 4·√K·2⁻²⁴·max|want| (a wrong index or tile is O(1)).
        let scale = want.iter().fold(0f32, |m, v| m.max(v.abs()));
        let floor = 4.0 * (k as f32).sqrt() * f32::EPSILON / 2.0 * scale;
        assert_close(&format!("matmul {m}x{n}x{k} gelu={act}"), &got, &want, 1e-4, floor / 1e-4);
    }
}

#[test]
fn gelu_is_exact_erf_gelu() {
    let g = gpu();
    let mut x: Vec<f32> = (0..20001).map(|i| (i as f32 - 10000.0) / 1000.0).collect(); // [-10, 10]
    x.extend([-30.0, 30.0, 1e-6, -1e-6, 0.0]);
    let (xb, yb) = (g.upload_f32("x", &x), g.storage("y", x.len()));
    let mut op = Gelu::new(g, &xb, &yb);
    op.set(g, x.len());
    let got = run(&op.0, &yb, x.len());
    let want: Vec<f32> = x.iter().map(|&v| reference::gelu(v)).collect();
    // A&S 7.1.26 is 1.5e-7 absolute on erf: GELU error ≤ ½|x|·1.5e-7 + f32 rounding
    for (i, (&gv, &wv)) in got.iter().zip(&want).enumerate() {
        let tol = 0.5 * x[i].abs() * 2e-7 + 2e-7 * wv.abs().max(1e-30) + 1e-9;
        assert!((gv - wv).abs() <= tol.max(wv.abs() * 1e-5), "gelu({}) = {gv}, want {wv}", x[i]);
    }
    // summary: relative error with an absolute floor of 1e-6 (1e-4 · 1e-2), above A&S's ½·|x|·1.5e-7 ≤ 7.5e-7 on
    // [-10, 10]; the loop above holds each element to its own bound
    assert_close("gelu", &got, &want, 1e-4, 1e-2);
    // the negative tail keeps its relative accuracy: 1 + erf(z) is computed as erfc(|z|), not 1 − erf(|z|)
    // (which cancels to 0 in f32 near x = −5.5); A&S's own relative error on erfc stays below 0.4% on [−6, −½]
    for (i, (&gv, &wv)) in got.iter().zip(&want).enumerate() {
        if (-6.0..=-0.5).contains(&x[i]) {
            assert!((gv - wv).abs() <= 5e-3 * wv.abs(), "gelu({}) = {gv}, want {wv}: relative error in the tail", x[i]);
        }
    }
}

#[test]
fn embeddings_gather_and_normalise() {
    let g = gpu();
    let mut rng = Rng(11);
    let (v, p, t, h, b, s) = (50usize, 20usize, 2usize, 384usize, 3usize, 17usize);
    let word = rng.vec(v * h, 1.0);
    let pos = rng.vec(p * h, 0.3);
    let typ = rng.vec(t * h, 0.3);
    let mut ln = rng.vec(h, 1.0);
    ln.extend(rng.vec(h, 0.2));
    let ids: Vec<u32> = (0..b * s).map(|_| rng.below(v as u32)).collect();
    let types: Vec<u32> = (0..b * s).map(|_| rng.below(t as u32)).collect();
    let bufs = [g.upload_u32("ids", &ids), g.upload_u32("types", &types), g.upload_f32("w", &word), g.upload_f32("p", &pos), g.upload_f32("t", &typ), g.upload_f32("ln", &ln)];
    let out = g.storage("out", b * s * h);
    for has_type in [true, false] {
        let mut op = Embeddings::new(g, &bufs[0], &bufs[1], &bufs[2], &bufs[3], &bufs[4], &bufs[5], &out);
        op.set(g, b * s, s, h, (v, p, if has_type { t } else { 0 }), 1e-12);
        let got = run(&op.0, &out, b * s * h);
        let want = reference::embeddings(&ids, &types, &word, &pos, has_type.then_some(&typ[..]), &ln, s, h, 1e-12);
        assert_close(&format!("embeddings (type table: {has_type})"), &got, &want, 1e-4, 1e-3);
    }
}

#[test]
fn residual_layer_norm_in_place() {
    let g = gpu();
    let mut rng = Rng(13);
    for &(rows, h) in &[(1usize, 384usize), (45, 384), (9, 768), (5, 1000)] {
        let x = rng.vec(rows * h, 2.0);
        let r = rng.vec(rows * h, 1.0);
        let mut ln = rng.vec(h, 1.0);
        ln.extend(rng.vec(h, 0.2));
        let (xb, lb, hb) = (g.upload_f32("x", &x), g.upload_f32("ln", &ln), g.upload_f32("h", &r));
        let mut op = ResidualLayerNorm::new(g, &xb, &lb, &hb);
        op.set(g, rows, h, 1e-12);
        let got = run(&op.0, &hb, rows * h);
        assert_close(&format!("layer norm {rows}x{h}"), &got, &reference::residual_layer_norm(&x, &r, &ln, h, 1e-12), 1e-4, 1e-3);
    }
}

#[test]
fn attention_masks_padding_and_softmaxes_per_head() {
    let g = gpu();
    let mut rng = Rng(17);
    for &(b, s, heads, h) in &[(2usize, 7usize, 12usize, 384usize), (3, 64, 12, 384), (1, 130, 4, 256), (2, 512, 12, 384)] {
        let qkv = rng.vec(b * s * 3 * h, 1.0);
        let mut mask = vec![1u32; b * s];
        for row in 1..b {
            let len = (s * (b - row) / b).max(1); // later rows padded
            mask[row * s + len..(row + 1) * s].fill(0);
        }
        let (qb, mb, cb) = (g.upload_f32("qkv", &qkv), g.upload_u32("mask", &mask), g.storage("ctx", b * s * h));
        let mut op = Attention::new(g, &qb, &mb, &cb);
        op.set(g, b, s, heads, h);
        let got = run(&op.0, &cb, b * s * h);
        assert_close(&format!("attention b{b} s{s} heads{heads} h{h}"), &got, &reference::attention(&qkv, &mask, b, s, heads, h), 1e-4, 1e-3);
    }
}

#[test]
fn classifier_head_with_each_pooler_activation_and_without() {
    let g = gpu();
    let mut rng = Rng(19);
    let (b, s, h) = (5usize, 9usize, 384usize);
    let hidden = rng.vec(b * s * h, 1.0);
    let wp = rng.vec(h * h, 0.1);
    let bp = rng.vec(h, 0.1);
    for labels in [1usize, 3] {
        let wc = rng.vec(h * labels, 0.3);
        let bc = rng.vec(labels, 0.3);
        let bufs = [g.upload_f32("h", &hidden), g.upload_f32("wp", &wp), g.upload_f32("bp", &bp), g.upload_f32("wc", &wc), g.upload_f32("bc", &bc)];
        let out = g.storage("logits", b * labels);
        for pooler in [Some(PoolerActivation::Tanh), Some(PoolerActivation::Relu), Some(PoolerActivation::Gelu), None] {
            let mut op = Classifier::new(g, &bufs[0], (&bufs[1], &bufs[2]), (&bufs[3], &bufs[4]), &out);
            op.set(g, b, s, h, labels, pooler);
            let got = run(&op.0, &out, b * labels);
            let want = reference::classifier(&hidden, pooler.map(|a| (&wp[..], &bp[..], a)), &wc, &bc, b, s, h);
            assert_close(&format!("classifier labels={labels} pooler={pooler:?}"), &got, &want, 1e-4, 1e-3);
        }
    }
}

#[test]
fn mean_pool_over_the_mask() {
    let g = gpu();
    let mut rng = Rng(23);
    let (b, s, h) = (4usize, 21usize, 384usize);
    let hidden = rng.vec(b * s * h, 1.0);
    let mut mask = vec![1u32; b * s];
    for row in 0..b {
        mask[row * s + s - 3 * row..(row + 1) * s].fill(0);
    }
    let (hb, mb, ob) = (g.upload_f32("h", &hidden), g.upload_u32("m", &mask), g.storage("o", b * h));
    for normalize in [false, true] {
        let mut op = MeanPool::new(g, &hb, &mb, &ob);
        op.set(g, b, s, h, normalize);
        let got = run(&op.0, &ob, b * h);
        assert_close(&format!("mean pool normalize={normalize}"), &got, &reference::mean_pool(&hidden, &mask, b, s, h, normalize), 1e-4, 1e-4);
    }
}
