use super::{Rng, assert_close, gpu, run};
use rerankit::inference::webgpu::kernels::Embeddings;
use rerankit::inference::webgpu::reference;

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
