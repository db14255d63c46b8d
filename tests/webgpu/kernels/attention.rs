use super::{Rng, assert_close, gpu, run};
use rerankit::inference::webgpu::kernels::Attention;
use rerankit::inference::webgpu::reference;

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
