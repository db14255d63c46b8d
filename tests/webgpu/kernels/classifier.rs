use super::{Rng, assert_close, gpu, run};
use rerankit::inference::webgpu::kernels::Classifier;
use rerankit::inference::bert::PoolerActivation;
use rerankit::inference::webgpu::reference;

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
