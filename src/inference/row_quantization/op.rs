//! The tract op for a fused chain: parsed from the [`OP_TYPE`](super::OP_TYPE) node, it packs the constant
//! weights once when the plan is built and runs [`gemm::matmul`] on every call.

use std::sync::Arc;

use tract_onnx::model::{optional_inputs, ParsingContext};
use crate::inference::onnx_import::pb;
use tract_onnx::tract_hir::internal::*;

use super::gemm::{self, PackedWeights};

/// The builder registered under [`OP_TYPE`](super::OP_TYPE): inputs `X, Wq, [Wzp], Wscale, [bias]`.
pub fn parse(_ctx: &ParsingContext, node: &pb::NodeProto) -> TractResult<(Box<dyn InferenceOp>, Vec<String>)> {
    let mut slots = optional_inputs(node).skip(2);
    let zero_point = slots.next().flatten();
    let scale = slots.next().flatten().context("RowQuantizedMatMul needs a weight scale")?;
    let bias = slots.next().flatten();
    Ok((expand(RowQuantizedMatMulSpec { zero_point, scale, bias }), vec![]))
}

/// The parsed node: where its optional inputs are.
#[derive(Debug, Clone, Hash, PartialEq, Eq)]
struct RowQuantizedMatMulSpec {
    zero_point: Option<usize>,
    scale: usize,
    bias: Option<usize>,
}

impl Expansion for RowQuantizedMatMulSpec {
    fn name(&self) -> StaticName {
        "RowQuantizedMatMul".into()
    }

    fn rules<'r, 'p: 'r, 's: 'r>(
        &'s self,
        s: &mut Solver<'r>,
        inputs: &'p [TensorProxy],
        outputs: &'p [TensorProxy],
    ) -> InferenceResult {
        check_input_arity(inputs, 3 + self.zero_point.is_some() as usize + self.bias.is_some() as usize)?;
        check_output_arity(outputs, 1)?;
        s.equals(&inputs[0].datum_type, f32::datum_type())?;
        s.equals(&outputs[0].datum_type, f32::datum_type())?;
        s.equals(&inputs[1].rank, 2)?;
        s.equals(&outputs[0].rank, &inputs[0].rank)?;
        s.given_2(&inputs[0].shape, &inputs[1].shape, move |s, x, w| {
            let mut y = x.clone();
            if let Some(last) = y.last_mut() {
                *last = w[1].clone();
            }
            s.equals(&outputs[0].shape, y)
        })?;
        Ok(())
    }

    fn wire(&self, prefix: &str, model: &mut TypedModel, inputs: &[OutletId]) -> TractResult<TVec<OutletId>> {
        let konst = |i: usize| -> TractResult<Arc<Tensor>> {
            model.outlet_fact(inputs[i])?.konst.clone().with_context(|| format!("{prefix}: input {i} must be a constant"))
        };
        let w = konst(1)?;
        let (k, n) = (w.shape()[0], w.shape()[1]);
        ensure!(k > 0 && n > 0, "{prefix}: empty weight matrix [{k} × {n}]");
        let per_column = |t: &Tensor| -> TractResult<Vec<f32>> {
            let v: Vec<f32> = t.cast_to::<f32>()?.to_plain_array_view::<f32>()?.iter().copied().collect();
            match v.len() {
                1 => Ok(vec![v[0]; n]),
                len if len == n => Ok(v),
                len => bail!("{prefix}: {len} values for {n} columns"),
            }
        };
        let unsigned = w.datum_type() == u8::datum_type();
        let stored: Vec<i32> = w.cast_to::<i32>()?.to_plain_array_view::<i32>()?.iter().copied().collect();
        let stored_zero_point = match self.zero_point {
            Some(i) => per_column(konst(i)?.as_ref())?.into_iter().map(|z| z as i32).collect(),
            None => vec![0; n],
        };
        let (weights, zero_point) = gemm::to_signed(&stored, stored_zero_point, unsigned);
        let scale = per_column(konst(self.scale)?.as_ref())?;
        let bias = self.bias.map(|i| per_column(konst(i)?.as_ref())).transpose()?;
        let packed = PackedWeights::new(k, n, &weights, zero_point, scale, bias);
        model.wire_node(prefix, RowQuantizedMatMul { weights: Arc::new(packed) }, &[inputs[0]])
    }
}

/// `Y[…, n] = gemm::matmul(X[…, k])` over every row of X's last axis.
#[derive(Debug, Clone)]
pub struct RowQuantizedMatMul {
    weights: Arc<PackedWeights>,
}

impl PartialEq for RowQuantizedMatMul {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.weights, &other.weights)
    }
}

impl Eq for RowQuantizedMatMul {}

impl Op for RowQuantizedMatMul {
    fn name(&self) -> StaticName {
        "RowQuantizedMatMul".into()
    }

    fn info(&self) -> TractResult<Vec<String>> {
        Ok(vec![format!("k={} n={}", self.weights.k(), self.weights.n())])
    }

    op_as_typed_op!();
}

impl EvalOp for RowQuantizedMatMul {
    op_out_of_plan!();

    fn eval(&self, _ctx: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let x = &inputs[0];
        let shape = x.shape();
        let k = *shape.last().context("RowQuantizedMatMul: a scalar input")?;
        ensure!(k == self.weights.k(), "RowQuantizedMatMul: input has {k} columns, weights {} rows", self.weights.k());
        let m = shape[..shape.len() - 1].iter().product::<usize>();
        let mut out_shape: TVec<usize> = shape.into();
        *out_shape.last_mut().unwrap() = self.weights.n();
        // SAFETY: `gemm::matmul` writes every output value
        let mut y = unsafe { Tensor::uninitialized::<f32>(&out_shape)? };
        gemm::matmul(
            x.try_as_plain_ram()?.as_slice::<f32>()?,
            m,
            &self.weights,
            y.try_as_plain_ram_mut()?.as_slice_mut::<f32>()?,
        );
        Ok(tvec!(y.into_tvalue()))
    }
}

impl TypedOp for RowQuantizedMatMul {
    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        let mut shape: TVec<TDim> = inputs[0].shape.iter().cloned().collect();
        *shape.last_mut().context("RowQuantizedMatMul: a scalar input")? = self.weights.n().into();
        Ok(tvec!(f32::fact(shape)))
    }

    /// Every axis but the last is a row axis: output rows come from the same input rows, one by one.
    fn axes_mapping(&self, inputs: &[&TypedFact], _outputs: &[&TypedFact]) -> TractResult<AxesMapping> {
        let rows: String = ('a'..).take(inputs[0].rank().saturating_sub(1)).collect();
        ensure!(rows.len() < 10, "RowQuantizedMatMul: input of rank {}", inputs[0].rank());
        AxesMapping::from_strs(&[format!("{rows}k")], &[format!("{rows}n")])
    }

    /// A slice of rows is the product of those rows alone (each row is quantised on its own scale); a slice of
    /// columns is not this op.
    fn slice(
        &self,
        patch: &mut TypedModelPatch,
        model: &TypedModel,
        node: &TypedNode,
        prefix: &str,
        inputs: &[OutletId],
        output_axis: usize,
        _start: &TDim,
        _end: &TDim,
    ) -> TractResult<Option<TVec<OutletId>>> {
        if output_axis + 1 >= model.outlet_fact(OutletId::new(node.id, 0))?.rank() {
            return Ok(None);
        }
        patch.wire_node(prefix, self.clone(), inputs).map(Some)
    }

    fn cost(&self, inputs: &[&TypedFact]) -> TractResult<TVec<(Cost, TDim)>> {
        let rows: TDim = inputs[0].shape.iter().rev().skip(1).product();
        Ok(tvec!((Cost::FMA(i32::datum_type()), rows * (self.weights.k() * self.weights.n()))))
    }

    as_op!();
}
