//! int8 cross-encoders against onnxruntime's int8 reference logits (tolerance 0.05, issue 14 item 9).
//!
//! Kept apart from tests/inference_models.rs because it does not pass, and not because of a tract bug:
//! the test models are quantised by onnxruntime's `quantize_dynamic` (per-tensor u8 activations from
//! `DynamicQuantizeLinear`, per-channel s8 weights). One activation whose float value lands a last bit on the
//! other side of a rounding boundary changes one u8, that change flows through every later layer and moves the
//! logit. Measured on the reference pairs (tract 0.23.9 Python bindings, /tmp investigation recorded in
//! src/inference/STATUS.md): with every intermediate tensor exposed tract and onnxruntime agree bit for bit
//! up to the first such flip (same quantised values, same zero points, same int32 MatMulInteger sums), and
//! onnxruntime disagrees **with itself** by as much: ORT_ENABLE_ALL (its fused MatMulIntegerToFloat kernels,
//! used for the references) against ORT_DISABLE_ALL differs by 0.045 on ce-parity-1 and 1.0 on ce-probe
//! (ce-probe's trained head has |w| = 146 against 5.7 for ce-parity-1's, so it amplifies encoder noise 25×).
//! The fp32 path matches within 1e-4 (tests/inference_models.rs).
//!
//! Checked 2026-11-23 whether onnxruntime with `ORT_DISABLE_ALL` (the graph run as written, one ONNX op at a time)
//! would be the closer reference: it is not. tract native against ORT_DISABLE_ALL: 0.092 / 0.054 / 1.08
//! (ce-parity-1 / ce-parity-2 / ce-probe; against ORT_ENABLE_ALL 0.092 / 0.060 / 1.08); tract wasm against it:
//! 0.050 / 0.063 / 0.90; tract native against tract wasm: 0.080 / 0.051 / 1.01. So the references stay
//! onnxruntime's default (ORT_ENABLE_ALL) and this test stays pending at 0.05.

#[path = "inference_common.rs"]
mod common;

use common::*;

fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

fn check_int8(name: &str) -> f32 {
    let reference = fixture_json(&format!("models/reference/{name}.json"));
    let ce = cross_encoder(name, "model_int8.onnx");
    let pairs = reference["pairs"].as_array().unwrap();
    let texts: Vec<(&str, &str)> = pairs.iter().map(|p| (p["query"].as_str().unwrap(), p["passage"].as_str().unwrap())).collect();
    let expected: Vec<f32> = pairs.iter().flat_map(|p| f32s(&p["logits_int8"])).collect();
    let single: Vec<f32> = texts.iter().flat_map(|&(q, d)| ce.score(&[(q, d)], 1).unwrap()).collect();
    let batched = ce.score(&texts, 8).unwrap();
    let (d1, d2) = (max_diff(&single, &expected), max_diff(&batched, &expected));
    eprintln!("{name} int8: max |Δlogit| single {d1:.4}, batch 8 {d2:.4}");
    d1.max(d2)
}

#[test]
fn cross_encoders_int8() {
    // Every model is measured before the assertion, so one run reports all three.
    let worst: Vec<(&str, f32)> = ["ce-parity-1", "ce-parity-2", "ce-probe"].into_iter().map(|n| (n, check_int8(n))).collect();
    for (name, d) in worst {
        assert!(d <= 0.05, "{name} int8: logits differ from onnxruntime's by {d} > 0.05");
    }
}
