//! `a + b` where `b` broadcasts over middle axes only, `a [L…, M…, T…] + b [L…, 1…, T…]`, or has `a`'s shape.
//!
//! **Why.** A BERT-family graph adds the attention mask to every head's scores:
//! `scores [B, H, S, S] + mask [B, 1, 1, S]`. tract's fast element-wise paths cover `b` broadcast over
//! trailing axes (one value per row, "by scalar") or over leading ones ("unicast"); a broadcast over the
//! middle axes falls to its generic path, an ndarray `Zip` per element, which took 18% of an int8 ce-probe
//! rerank in wasm (`node --cpu-prof`, 256 tokens). Here it is a loop of contiguous row additions that the
//! compiler vectorises. Each element is the same single `a + b` as tract's, so outputs do not change.
//! The residual connections' `a [B, S, H] + b [B, S, H]` (no broadcast) took tract's per-element closure too,
//! 3.6% of that rerank at 4.6 ns a value: they are the same loop with one row.

use tract_onnx::prelude::*;
use tract_onnx::tract_core::ops::binary::TypedBinOp;
use tract_onnx::tract_core::ops::math::Add;
use tract_onnx::tract_hir::internal::*;

/// Replaces every f32 `Add` of this shape in an optimised model.
pub fn replace(model: &mut TypedModel) -> TractResult<usize> {
    let mut count = 0;
    while let Some((id, inputs)) = next_candidate(model)? {
        let patch = TypedModelPatch::replace_single_op(model, &model.nodes[id], &inputs, MiddleBroadcastAdd)?;
        patch.apply(model)?;
        count += 1;
    }
    if count > 0 {
        model.compact()?;
    }
    Ok(count)
}

/// The first f32 `Add` of the module doc's shape, with its inputs ordered `[a, b]`.
fn next_candidate(model: &TypedModel) -> TractResult<Option<(usize, [OutletId; 2])>> {
    for id in model.eval_order()? {
        let node = &model.nodes[id];
        let Some(op) = node.op_as::<TypedBinOp>() else { continue };
        if !op.0.is::<Add>() || node.inputs.len() != 2 {
            continue;
        }
        let facts = model.node_input_facts(id)?;
        if facts.iter().any(|f| f.datum_type != f32::datum_type()) {
            continue;
        }
        // m > 0: a broadcast over leading axes too is tract's own unicast case; (0, 0): equal shapes
        let middle = |a: &ShapeFact, b: &ShapeFact| split(a, b).is_some_and(|(m, t)| m > 0 || t == 0);
        if middle(&facts[0].shape, &facts[1].shape) {
            return Ok(Some((id, [node.inputs[0], node.inputs[1]])));
        }
        if middle(&facts[1].shape, &facts[0].shape) {
            return Ok(Some((id, [node.inputs[1], node.inputs[0]])));
        }
    }
    Ok(None)
}

/// `(m, t)`: axes `..m` of `b` equal `a`'s, axes `m..t` of `b` are 1 where `a`'s are not, axes `t..` equal;
/// `(0, 0)` for equal shapes (one row: the whole tensor); `None` for another shape.
fn split<D: PartialEq + Clone + Into<TDim>>(a: &[D], b: &[D]) -> Option<(usize, usize)> {
    if a.len() != b.len() {
        return None;
    }
    if a == b {
        return Some((0, 0));
    }
    let one: TDim = 1.into();
    let same = |i: usize| a[i] == b[i];
    let t = (0..a.len()).rev().take_while(|&i| same(i)).last().unwrap_or(a.len());
    let m = (0..t).rev().take_while(|&i| b[i].clone().into() == one).last().unwrap_or(t);
    // at least one broadcast axis, something to add per row, and leading axes equal
    ((0..m).all(same) && m < t && t < a.len()).then_some((m, t))
}

/// The op: inputs `[a, b]` in that order (see [`replace`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MiddleBroadcastAdd;

impl Op for MiddleBroadcastAdd {
    fn name(&self) -> StaticName {
        "MiddleBroadcastAdd".into()
    }

    op_as_typed_op!();
}

impl EvalOp for MiddleBroadcastAdd {
    op_out_of_plan!();

    fn eval(&self, _ctx: &EvalContext, mut inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let b = inputs.pop().context("MiddleBroadcastAdd: two inputs")?;
        let mut a = inputs.pop().context("MiddleBroadcastAdd: two inputs")?.into_tensor();
        let (m, t) = split(a.shape(), b.shape()).context("MiddleBroadcastAdd: shapes do not broadcast over middle axes")?;
        let inner: usize = a.shape()[t..].iter().product();
        let middle: usize = a.shape()[m..t].iter().product();
        if middle * inner == 0 {
            return Ok(tvec!(a.into_tvalue())); // an empty tensor: nothing to add
        }
        let b_view = b.try_as_plain_ram()?;
        let b = b_view.as_slice::<f32>()?;
        let mut a_view = a.try_as_plain_ram_mut()?;
        for (block, row) in a_view.as_slice_mut::<f32>()?.chunks_exact_mut(middle * inner).zip(b.chunks_exact(inner)) {
            for x in block.chunks_exact_mut(inner) {
                for (v, w) in x.iter_mut().zip(row) {
                    *v += w;
                }
            }
        }
        Ok(tvec!(a.into_tvalue()))
    }
}

impl TypedOp for MiddleBroadcastAdd {
    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        Ok(tvec!(inputs[0].without_value()))
    }

    as_op!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_finds_the_mask_broadcast_and_nothing_else() {
        assert_eq!(split::<usize>(&[2, 12, 7, 7], &[2, 1, 1, 7]), Some((1, 3)));
        assert_eq!(split::<usize>(&[2, 12, 7, 7], &[1, 1, 1, 7]), Some((0, 3))); // also over leading axes
        assert_eq!(split::<usize>(&[2, 12, 7, 7], &[2, 12, 7, 1]), None); // trailing broadcast (tract's by-scalar case)
        assert_eq!(split::<usize>(&[2, 3], &[2, 3]), Some((0, 0))); // no broadcast: one row
        assert_eq!(split::<usize>(&[2, 3], &[2, 1, 3]), None);
        assert_eq!(split::<usize>(&[2, 12, 7, 7], &[2, 12, 1, 1]), None);
    }

    #[test]
    fn equal_shapes_add_element_by_element() -> TractResult<()> {
        let a = Tensor::from_shape(&[2, 3, 4], &(0..24).map(|i| i as f32 * 0.1).collect::<Vec<_>>())?;
        let b = Tensor::from_shape(&[2, 3, 4], &(0..24).map(|i| 1.0 / (i as f32 + 0.3)).collect::<Vec<_>>())?;
        let got = MiddleBroadcastAdd.eval(&EvalContext::out_of_plan(), tvec!(a.clone().into_tvalue(), b.clone().into_tvalue()))?;
        let want = &a.to_plain_array_view::<f32>()? + &b.to_plain_array_view::<f32>()?;
        assert_eq!(got[0].to_plain_array_view::<f32>()?, want.view());
        Ok(())
    }

    #[test]
    fn equals_broadcasting_addition() -> TractResult<()> {
        let a = Tensor::from_shape(&[2, 3, 2, 4], &(0..48).map(|i| i as f32 * 0.5).collect::<Vec<_>>())?;
        let b = Tensor::from_shape(&[2, 1, 1, 4], &(0..8).map(|i| -(i as f32) * 10.0).collect::<Vec<_>>())?;
        let got = MiddleBroadcastAdd.eval(&EvalContext::out_of_plan(), tvec!(a.clone().into_tvalue(), b.clone().into_tvalue()))?;
        let want = &a.to_plain_array_view::<f32>()? + &b.to_plain_array_view::<f32>()?;
        assert_eq!(got[0].to_plain_array_view::<f32>()?, want.view());
        Ok(())
    }
}
