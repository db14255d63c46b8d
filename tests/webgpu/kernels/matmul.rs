use super::{Rng, assert_close, gpu, run};
use rerankit::inference::webgpu::kernels::Matmul;
use rerankit::inference::webgpu::reference;

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
