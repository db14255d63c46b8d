use super::{Rng, assert_close, gpu, run};
use rerankit::inference::webgpu::kernels::ResidualLayerNorm;
use rerankit::inference::webgpu::reference;

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
