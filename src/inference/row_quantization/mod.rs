//! Dynamically quantised matrix products with one activation scale per row instead of one per tensor.
//!
//! onnxruntime's `quantize_dynamic` (how the Hub's `model_quantized.onnx` / `model_int8.onnx` files are made)
//! quantises each weight matrix to int8 ahead of time and each activation tensor at run time with
//! `DynamicQuantizeLinear`: one scale and zero point for the whole tensor. Run as written, that has two costs in
//! rerankit:
//!
//! - **Batches.** In a padded batch the padding rows' activations take part in the tensor's min and max, so they
//!   move the real rows' scale: int8 graphs had to run one unpadded row per call.
//! - **Glue.** tract runs the chain as separate passes over whole tensors — min/max and quantise to u8, shift
//!   u8 to i8 and subtract zero points, the i32 product, cast to f32, multiply by the two scales, add the bias
//!   — where the product itself was only ~21% of an int8 rerank's time.
//!
//! [`fusion`] replaces each chain with one node, and [`op`] runs it as one pass ([`gemm`]): per row `r` of X
//! (one token's activations), `s_r = max|x_r| / 127`, `q_r = round_half_even(x_r / s_r)` in [-127, 127], then
//!
//! `y[r, c] = (Σ_k q_r[k] · (W[k, c] − zp_c)) · s_r · w_scale_c + bias_c`
//!
//! in exact i32 arithmetic up to the final float multiply. A token's scale depends on that token's
//! activations alone, so padding rows cannot move it; and a scale per token is finer than one per tensor, so
//! the logits move closer to the fp32 model's, not further (tests/inference/int8.rs compares both engines with
//! fp32). Quantised graphs still run one unpadded row per call (`super::tract_plan::TractPlan` says why: bit-identical
//! logits whatever the batching).
pub mod fusion;
pub mod gemm;
#[cfg(feature = "tract")] pub mod op;
pub mod quad_tile;
pub mod tile;

/// The fused node's op type and domain in the rewritten protobuf.
pub const OP_TYPE: &str = "RowQuantizedMatMul";
pub const DOMAIN: &str = "ai.rerankit";

/// The int8 micro-kernel this build runs: `"relaxed-dot"` ([`quad_tile`], where relaxed SIMD's integer dot
/// product is exact on this CPU) or `"i16-dot"` ([`tile`]).
pub fn kernel_name() -> &'static str {
    if quad_tile::dot_form().is_some() { "relaxed-dot" } else { "i16-dot" }
}

/// tract's ONNX framework with the fused op registered.
#[cfg(feature = "tract")]
pub fn onnx() -> tract_onnx::Onnx {
    let mut onnx = tract_onnx::onnx();
    onnx.op_register.insert(OP_TYPE, op::parse);
    onnx
}
