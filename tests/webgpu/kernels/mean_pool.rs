use super::{Rng, assert_close, gpu, run};
use rerankit::inference::webgpu::kernels::MeanPool;
use rerankit::inference::webgpu::reference;

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
