//! A `Gather` of one constant position — BERT's pooler reading `hidden[:, 0]`, the `[CLS]` token — as `Slice` and an
//! axis removal, so that tract's slice push-up (`PushSliceUp`, part of declutter) carries it up the graph: every
//! step after the last attention works on each token alone (the projections, feed-forward layers, residual adds and
//! layer norms), so the last layer's are computed for that one token instead of the whole sequence. Its attention
//! still reads every token's keys and values; [`super::headwise_attention`] runs it for the sliced query rows only.
//!
//! **Why.** A cross-encoder's logit reads one token of the last layer's output, yet tract ran the layer for all
//! `S`: for MiniLM-L6 that is 83% of a sixth of the model's products thrown away. tract already rewrites a `Gather`
//! whose index is a one-element vector this way; ONNX exports of the pooler gather with a scalar (rank-0) index,
//! which it leaves as it is.
//!
//! **Bit for bit.** Each output value goes through the same operations on the same values: the per-token steps
//! do not look at other rows (row-quantised products quantise each row alone, `super::row_quantization`), and a
//! product's kernels sum each output in the same order whatever the number of rows (tests/inference/
//! headwise_attention.rs runs the sliced and whole plans side by side; tests/node/rerank_golden.test.mjs in wasm).
use tract_onnx::prelude::*;
use tract_onnx::tract_core::ops::array::{Gather, Slice};
use tract_onnx::tract_core::ops::change_axes::AxisOp;
use tract_onnx::tract_hir::internal::*;

/// Rewrites every `Gather` of a constant scalar position; returns how many.
pub fn replace(model: &mut TypedModel) -> TractResult<usize> {
    let mut count = 0;
    while let Some((node, axis, index)) = next_gather(model)? {
        let mut patch = TypedModelPatch::default();
        let name = model.nodes[node].name.clone();
        let mut wire = patch.tap_model(model, model.nodes[node].inputs[0])?;
        wire = patch.wire_node(format!("{name}.slice"), Slice { axis, start: index.to_dim(), end: (index + 1).to_dim() }, &[wire])?[0];
        wire = patch.wire_node(format!("{name}.rm"), AxisOp::Rm(axis), &[wire])?[0];
        patch.shunt_outside(model, OutletId::new(node, 0), wire)?;
        patch.apply(model)?;
        count += 1;
    }
    if count > 0 {
        model.compact()?;
    }
    Ok(count)
}

/// The first `Gather` of a constant scalar position on plain numbers: its node, axis and position (≥ 0).
fn next_gather(model: &TypedModel) -> TractResult<Option<(usize, usize, usize)>> {
    for node in model.eval_order()? {
        let Some(gather) = model.nodes[node].op_as::<Gather>() else { continue };
        let [data, indices] = [model.nodes[node].inputs[0], model.nodes[node].inputs[1]];
        let (data, indices) = (model.outlet_fact(data)?, model.outlet_fact(indices)?);
        let Some(index) = indices.konst.as_ref().filter(|k| k.rank() == 0) else { continue };
        if !data.is_plain() || !data.datum_type.is_number() || gather.output_type.is_some() {
            continue;
        }
        let Ok(index) = index.cast_to_scalar::<i64>() else { continue };
        // a negative position counts from the end of an axis whose length the plan does not know yet
        let Ok(index) = usize::try_from(index) else { continue };
        if data.shape[gather.axis].to_usize().is_ok_and(|len| index >= len) {
            continue;
        }
        return Ok(Some((node, gather.axis, index)));
    }
    Ok(None)
}
