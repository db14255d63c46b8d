//! tract's CPU plan: one per model, built once (load → type → optimise → runnable) with symbolic
//! `batch × sequence` input dimensions, then run on every padded batch whatever its shape.
//!
//! Like tract's own typed plans, the expensive work happens at load: the ONNX protobuf becomes an inference
//! model, its inputs are pinned to `int64 [B, S]`, it is typed, decluttered and optimised for the host (AVX2/FMA
//! kernels natively, SIMD128 in wasm) exactly once; a run only binds `B` and `S`.

use super::batching::Batch;
use super::model_info::{InputRole, ModelInfo};
use super::{headwise_attention, middle_broadcast_add, row_quantization, token_slice};
use crate::{Error, Result};
use std::panic::{catch_unwind, AssertUnwindSafe};
use crate::inference::onnx_import::pb;
use tract_onnx::prelude::*;
use tract_onnx::tract_hir::internal::DimLike;

/// An optimised, runnable tract plan producing one float output.
#[derive(Debug, Clone)]
pub struct TractPlan {
    plan: Arc<TypedRunnableModel>,
    inputs: Vec<InputRole>,
    /// The output's dimensions after optimisation: `None` for symbolic ones (batch, sequence).
    pub output_dims: Vec<Option<usize>>,
    /// The graph quantises activations at run time (`DynamicQuantizeLinear`). Such models run one unpadded row
    /// per call. With one scale per tensor (a chain [`row_quantization`] could not fuse), a padded batch's
    /// padding rows would set the real rows' scale (measured on all-MiniLM-L6-v2 int8: cosine to fp32 0.976 in
    /// padded batches of 8, 0.986 one text per call, onnxruntime's own int8 0.987). With a scale per row the
    /// padding cannot move a scale, but it still changes the last bit of some float sums (a softmax over more
    /// keys), and a last bit that moves a value across a rounding boundary flips an int8 value, which the next
    /// layers amplify to int8-noise size (0.6 on ce-probe's logits). Rows alone give the same logits whatever
    /// the batch, the batch size or the number of workers.
    dynamic_quantization: bool,
}

impl TractPlan {
    /// Builds the plan for output `output` (one of `info.outputs`: [`super::cpu`] checks) of a prepared graph (`onnx_import::prepare`: its dynamic
    /// quantisation chains fused, [`row_quantization`]) described by `info`.
    pub fn new(proto: pb::ModelProto, info: &ModelInfo, output: &str) -> Result<Self> {
        let dynamic_quantization = proto
            .graph
            .as_ref()
            .is_some_and(|g| g.node.iter().any(|n| n.op_type == "DynamicQuantizeLinear" || n.op_type == row_quantization::OP_TYPE));
        let typed = guarded("model: cannot prepare the graph for tract", move || {
            // The file's own shape annotations are ignored: exports name their dims differently ("batch",
            // "batch_size", "B", "unk__0"…) and tools like onnxruntime's quantizer add `value_info` entries
            // whose symbols tract cannot unify with ours. Our `B × S` input facts are the only shape source;
            // tract infers every other shape from them.
            let mut model = row_quantization::onnx()
                .with_ignore_output_shapes(true)
                .with_ignore_value_info(true)
                .model_for_proto_model(&proto)?;
            // The protobuf's tensors are tract's now. Freed before optimising (which makes packed copies of the
            // weights), they do not add to the load's peak: wasm memory never shrinks, so that peak is what a
            // loaded model costs for good.
            drop(proto);
            let b = model.sym("B");
            let s = model.sym("S");
            for i in 0..info.inputs.len() {
                model.set_input_fact(i, InferenceFact::dt_shape(i64::datum_type(), [b.to_dim(), s.to_dim()]))?;
            }
            model.select_outputs_by_name([output])?;
            // the pooler's one-token read becomes a slice that declutter carries up the last layer
            // (token_slice.rs); attention per head (headwise_attention.rs) is found in the decluttered graph,
            // before tract fuses and packs its products
            let mut typed = model.into_typed()?;
            token_slice::replace(&mut typed)?;
            let mut decluttered = typed.into_decluttered()?;
            headwise_attention::replace(&mut decluttered)?;
            let mut typed = decluttered.into_optimized()?;
            middle_broadcast_add::replace(&mut typed)?;
            Ok(typed)
        })?;
        let fact = typed.output_fact(0).map_err(|e| Error::model_load(format!("model: {e}")))?.clone();
        let output_dims = fact.shape.iter().map(|d| d.to_usize().ok()).collect();
        let plan = guarded("model: cannot make the graph runnable", || typed.into_runnable())?;
        Ok(TractPlan { plan, inputs: info.inputs.clone(), output_dims, dynamic_quantization })
    }

    /// Whether a batch's rows run one at a time (the graph quantises activations at run time).
    pub fn rows_alone(&self) -> bool {
        self.dynamic_quantization
    }

    /// Runs one padded batch; returns the output as `f32` with its shape `[rows, …]`. For dynamically quantised
    /// graphs each row runs alone without its padding; a per-token output (`[1, s, …]`) is zero-padded back to
    /// the batch length (padding positions are masked by every consumer).
    pub fn run(&self, batch: &Batch) -> Result<(Vec<usize>, Vec<f32>)> {
        if !self.dynamic_quantization || batch.rows.len() == 1 && batch.attention_mask.iter().all(|&m| m == 1) {
            return self.run_padded(batch);
        }
        let (n, len) = (batch.rows.len(), batch.len);
        let mut shape = Vec::new();
        let mut out = Vec::new();
        for r in 0..n {
            let row = r * len..(r + 1) * len;
            let real = batch.attention_mask[row.clone()].iter().filter(|&&m| m != 0).count().max(1);
            let cut = |v: &Vec<i64>| v[row.start..row.start + real].to_vec();
            let one = Batch {
                rows: vec![batch.rows[r]],
                len: real,
                input_ids: cut(&batch.input_ids),
                attention_mask: cut(&batch.attention_mask),
                token_type_ids: cut(&batch.token_type_ids),
            };
            let (s, v) = self.run_padded(&one)?;
            if s.len() >= 3 && real < len {
                // per-token output: pad the sequence axis back to `len` with zeros
                let inner: usize = s[2..].iter().product();
                out.extend_from_slice(&v);
                out.resize(out.len() + (len - real) * inner, 0.0);
                shape = [&[n, len][..], &s[2..]].concat();
            } else {
                out.extend_from_slice(&v);
                shape = [&[n][..], &s[1..]].concat();
            }
        }
        Ok((shape, out))
    }

    fn run_padded(&self, batch: &Batch) -> Result<(Vec<usize>, Vec<f32>)> {
        let shape = [batch.rows.len(), batch.len];
        let tensor = |data: &Vec<i64>| Tensor::from_shape(&shape, data).map(IntoTValue::into_tvalue);
        let inputs = self
            .inputs
            .iter()
            .map(|role| match role {
                InputRole::InputIds => tensor(&batch.input_ids),
                InputRole::AttentionMask => tensor(&batch.attention_mask),
                InputRole::TokenTypeIds => tensor(&batch.token_type_ids),
            })
            .collect::<TractResult<TVec<TValue>>>()
            .map_err(|e| Error::internal(format!("cannot build input tensors: {e}")))?;
        let outputs = guarded("model: inference failed", || self.plan.run(inputs))?;
        let out = outputs[0].cast_to::<f32>().map_err(|e| Error::internal(format!("output is not numeric: {e}")))?;
        let view = out.to_plain_array_view::<f32>().map_err(|e| Error::internal(format!("output: {e}")))?;
        Ok((view.shape().to_vec(), view.iter().copied().collect()))
    }
}

/// Runs `f`, mapping a tract error or a panic inside tract to `MODEL_LOAD` with `context`.
fn guarded<T>(context: &str, f: impl FnOnce() -> TractResult<T>) -> Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(Error::model_load(format!("{context}: {e:#}"))),
        Err(_) => Err(Error::model_load(format!("{context}: tract panicked on this model"))),
    }
}
