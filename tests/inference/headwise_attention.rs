//! Attention one head at a time (src/inference/headwise_attention.rs) gives tract's batched logits bit for bit:
//! the same graph planned with and without it, run on batches whose lengths put the (row, head) blocks of the
//! batched scores at every alignment (odd lengths, lengths of 2 mod 4), padded rows included. The same holds with
//! the pooler's one-token read carried up the last layer (src/inference/token_slice.rs), int8 graphs included.

use rerankit::inference::onnx_import;
use rerankit::inference::{headwise_attention, middle_broadcast_add, row_quantization, token_slice};
use tract_onnx::prelude::*;

use crate::common::models_dir;

/// The plan `TractPlan` builds (the ONNX import steps, int8 chains fused), with or without the per-head attention
/// and the one-token slice; and how many attention chains it replaced.
fn plan(path: &std::path::Path, headwise: bool, sliced: bool) -> (Arc<TypedRunnableModel>, usize) {
    let (proto, _) = onnx_import::prepare(&std::fs::read(path).unwrap(), &[]).unwrap();
    let mut model =
        row_quantization::onnx().with_ignore_output_shapes(true).with_ignore_value_info(true).model_for_proto_model(&proto).unwrap();
    let (b, s) = (model.sym("B"), model.sym("S"));
    for i in 0..model.inputs.len() {
        model.set_input_fact(i, InferenceFact::dt_shape(i64::datum_type(), [b.to_dim(), s.to_dim()])).unwrap();
    }
    let mut typed = model.into_typed().unwrap();
    if sliced {
        assert_eq!(token_slice::replace(&mut typed).unwrap(), 1, "{}: the pooler's read", path.display());
    }
    let mut decluttered = typed.into_decluttered().unwrap();
    let replaced = if headwise { headwise_attention::replace(&mut decluttered).unwrap() } else { 0 };
    let mut optimized = decluttered.into_optimized().unwrap();
    middle_broadcast_add::replace(&mut optimized).unwrap();
    (optimized.into_runnable().unwrap(), replaced)
}

fn check(path: &std::path::Path, layers: usize) {
    let (batched, _) = plan(path, false, false);
    let (headwise, replaced) = plan(path, true, false);
    assert_eq!(replaced, layers, "{}: one attention chain per layer", path.display());
    let (sliced, replaced) = plan(path, true, true);
    assert_eq!(replaced, layers, "{}: one attention chain per layer, the last one's query rows sliced", path.display());
    // int8 graphs run one unpadded row per call (TractPlan): a padded batch is not their input
    let int8 = ["int8", "quantized"].iter().any(|f| path.to_string_lossy().contains(f));
    let mut seed = 7u64;
    let mut next = |m: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    for (rows, len) in [(1, 9), (1, 30), (2, 17), (3, 40), (4, 12), (2, 7), (1, 16), (1, 23)] {
        if int8 && rows > 1 {
            continue;
        }
        let (mut ids, mut mask) = (Vec::new(), Vec::new());
        for r in 0..rows {
            let real = len - (r * 3).min(len - 2);
            for j in 0..len {
                ids.push(if j < real { 5 + next(90) as i64 } else { 0 });
                mask.push((j < real) as i64);
            }
        }
        let types = vec![0i64; rows * len];
        let tensor = |v: &Vec<i64>| Tensor::from_shape(&[rows, len], v).unwrap().into_tvalue();
        let inputs: TVec<TValue> = [tensor(&ids), tensor(&mask), tensor(&types)].into_iter().take(batched.model().inputs.len()).collect();
        let bits = |plan: &Arc<TypedRunnableModel>| -> Vec<u32> {
            let out = plan.run(inputs.clone()).unwrap();
            out[0].to_plain_array_view::<f32>().unwrap().iter().map(|x| x.to_bits()).collect()
        };
        let want = bits(&batched);
        assert_eq!(bits(&headwise), want, "{} at {rows} × {len}", path.display());
        // Natively tract picks its AVX kernels by the product's row count, and a one-token product may take one
        // that adds in another order: a last bit may move (the wasm modules' kernels keep the order; their bits
        // are held by tests/node/rerank_golden.test.mjs).
        let close = bits(&sliced).iter().zip(&want).all(|(&a, &b)| (f32::from_bits(a) - f32::from_bits(b)).abs() <= 1e-6 * f32::from_bits(b).abs().max(1.0));
        assert!(close, "{} at {rows} × {len}, sliced: {:?} against {:?}", path.display(), bits(&sliced), want);
    }
}

#[test]
fn headwise_attention_gives_the_batched_logits() {
    check(&models_dir().join("ce-probe/model.onnx"), 6);
    check(&models_dir().join("ce-probe/model_int8.onnx"), 6);
    let tiny = crate::common::repo().join("tests/fixtures/hub/rerankit-test/tiny-bert-reranker/onnx/model.onnx");
    check(&tiny, 2);
    for form in ["model_quantized.onnx", "model_int8_per_channel.onnx"] {
        check(&tiny.with_file_name(form), 2);
    }
}
