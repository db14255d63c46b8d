//! Attention one head at a time: `softmax(Q·Kᵀ · scale + mask) · V` run per (batch row, head) instead of over the
//! whole `[B, H, S, S]` score tensor.
//!
//! **Why.** The score tensor of one layer is `H × S × S` floats per row: 12 MiB for 12 heads at 512 tokens. tract
//! computes it whole, adds the mask and takes the softmax in place, then packs all of it again for the product with
//! V (its matrix kernels read packed panels), so a 512-token int8 rerank of ce-probe peaked at 53.3 MiB of live
//! heap, 26 MiB of it this one layer's attention — and wasm memory never shrinks. Per head the same chain needs
//! one head's scores and their packed copy, 2 MiB.
//!
//! **How.** In the decluttered graph each chain `EinSum → [Mul by a constant] → Add(mask) → Softmax(last axis) →
//! EinSum` becomes one [`HeadwiseAttention`] op. Per (row, head) it copies that block of Q, K, the mask and V, runs
//! `Q·Kᵀ · scale` and `probabilities · V` as two small plans of the graph's own ops (optimised by tract like the
//! model, so with the same packing and kernels), and between them adds the mask and takes the softmax itself.
//!
//! **Bit for bit.** Every output value goes through the same operations on the same values as in tract's batched
//! plan, so the logits do not change (tests/inference/headwise_attention.rs; tests/node/rerank_golden.test.mjs in
//! wasm). One thing had to be reproduced rather than reused: tract's softmax sums a row in SIMD lanes from its first
//! aligned address and the unaligned head apart, so a row's sum depends on where the row sits in memory. In the
//! batched `[B, H, S, S]` scores a (row, head) block starts `(b·H + h)·S²` floats into an aligned tensor; alone it
//! would start aligned, and at lengths where `S²` is not a multiple of the alignment the last bits moved. The op
//! therefore softmaxes each block at the offset it has in the batched tensor, with tract's own kernels
//! ([`SoftmaxKernels`]). Where declutter has carried a one-token read up to the probabilities
//! ([`super::token_slice`]: `Softmax → Slice → EinSum`), the op computes those query rows only, each at the offset
//! it has in the batched scores. A chain of any other shape (a mask applied another way, a softmax over another axis, head
//! and row axes that are not the scores' leading ones) is left to tract.
use std::sync::Arc;

use tract_onnx::prelude::*;
use tract_onnx::tract_core::ops::array::Slice;
use tract_onnx::tract_core::ops::binary::{BinMiniOp, TypedBinOp};
use tract_onnx::tract_core::ops::einsum::EinSum;
use tract_onnx::tract_core::ops::konst::Const;
use tract_onnx::tract_core::ops::math::{Add, Mul};
use tract_onnx::tract_core::ops::nn::{Softmax, SoftmaxKind};
use tract_onnx::tract_core::tract_linalg::{self, Func};
use tract_onnx::tract_hir::internal::*;

/// Replaces every attention chain of the module doc's shape in a decluttered model.
pub fn replace(model: &mut TypedModel) -> TractResult<usize> {
    let mut count = 0;
    while let Some(chain) = next_chain(model)? {
        let op = HeadwiseAttention::new(model, &chain)?;
        let inputs = [chain.q, chain.k, chain.mask, chain.v];
        let mut patch = TypedModelPatch::default();
        let taps: TVec<OutletId> = inputs.iter().map(|&o| patch.tap_model(model, o)).collect::<TractResult<_>>()?;
        let out = patch.wire_node(format!("{}.headwise", model.nodes[chain.pv].name), op, &taps)?;
        patch.shunt_outside(model, OutletId::new(chain.pv, 0), out[0])?;
        patch.apply(model)?;
        count += 1;
    }
    if count > 0 {
        model.compact()?;
    }
    Ok(count)
}

/// One attention chain: node ids and the four outside inputs.
struct Chain {
    qk: usize,
    /// The `Mul` by a constant, and the constant's input slot.
    scale: Option<(usize, usize)>,
    softmax: usize,
    /// The `Slice` between the softmax and the second product and the query rows it keeps, where declutter moved
    /// a one-token read up to the probabilities (`token_slice`).
    rows: Option<(usize, QueryRows)>,
    pv: usize,
    /// The slot of the probabilities in the second EinSum (V is the other).
    probs_slot: usize,
    q: OutletId,
    k: OutletId,
    mask: OutletId,
    v: OutletId,
}

impl Chain {
    /// The constant the scores are multiplied by.
    fn scale_value<'a>(&self, model: &'a TypedModel) -> Option<&'a Arc<Tensor>> {
        let (mul, konst) = self.scale?;
        Some(model.nodes[model.nodes[mul].inputs[konst].node].op_as::<Const>()?.val())
    }
}

fn only_successor(model: &TypedModel, node: usize) -> Option<usize> {
    match model.outlet_successors(OutletId::new(node, 0)) {
        [one] => Some(one.node),
        _ => None,
    }
}

fn einsum(model: &TypedModel, node: usize) -> Option<&EinSum> {
    let n = &model.nodes[node];
    n.op_as::<EinSum>().filter(|e| e.q_params.is_none() && n.inputs.len() == 2 && e.operating_dt == f32::datum_type())
}

fn binary<B: BinMiniOp>(model: &TypedModel, node: usize) -> bool {
    model.nodes[node].op_as::<TypedBinOp>().is_some_and(|op| op.0.is::<B>()) && model.nodes[node].inputs.len() == 2
}

/// The first chain of the module doc's shape.
fn next_chain(model: &TypedModel) -> TractResult<Option<Chain>> {
    for softmax in model.eval_order()? {
        let Some(op) = model.nodes[softmax].op_as::<Softmax>() else { continue };
        let scores_rank = model.outlet_fact(OutletId::new(softmax, 0))?.rank();
        if op.axes.as_slice() != [scores_rank - 1] || op.quant_output_dt.is_some() || op.kind != SoftmaxKind::Softmax {
            continue;
        }
        let add = model.nodes[softmax].inputs[0].node;
        if !binary::<Add>(model, add) || only_successor(model, add) != Some(softmax) {
            continue;
        }
        // the scores side is the Add input that comes from the first EinSum (through the scale, if any)
        let from_scores = |outlet: OutletId| -> Option<(usize, Option<(usize, usize)>)> {
            let n = outlet.node;
            if only_successor(model, n) != Some(add) {
                return None;
            }
            if einsum(model, n).is_some() {
                return Some((n, None));
            }
            if !binary::<Mul>(model, n) {
                return None;
            }
            let inputs = &model.nodes[n].inputs;
            let konst = (0..2).find(|&i| model.nodes[inputs[i].node].op_as::<Const>().is_some())?;
            let qk = inputs[1 - konst].node;
            (einsum(model, qk).is_some() && only_successor(model, qk) == Some(n)).then_some((qk, Some((n, konst))))
        };
        let add_inputs = &model.nodes[add].inputs;
        let Some((mask_slot, (qk, scale))) = (0..2).find_map(|i| from_scores(add_inputs[1 - i]).map(|s| (i, s))) else { continue };
        let mask = add_inputs[mask_slot];
        if model.outlet_fact(mask)?.rank() != scores_rank {
            continue;
        }
        let Some(mut pv) = only_successor(model, softmax) else { continue };
        let mut rows = None;
        if let Some(slice) = model.nodes[pv].op_as::<Slice>() {
            let Some(query_rows) = query_rows(model, qk, slice, scores_rank) else { continue };
            rows = Some((pv, query_rows));
            let Some(next) = only_successor(model, pv) else { continue };
            pv = next;
        }
        if einsum(model, pv).is_none() {
            continue;
        }
        let probs = OutletId::new(rows.as_ref().map_or(softmax, |r| r.0), 0);
        let pv_inputs = &model.nodes[pv].inputs;
        let Some(probs_slot) = (0..2).find(|&i| pv_inputs[i] == probs) else { continue };
        if pv_inputs[1 - probs_slot] == probs {
            continue;
        }
        let qk_inputs = &model.nodes[qk].inputs;
        let f32_inputs = [qk_inputs[0], qk_inputs[1], mask, pv_inputs[1 - probs_slot]];
        if f32_inputs.iter().any(|&o| model.outlet_fact(o).map_or(true, |f| f.datum_type != f32::datum_type())) {
            continue;
        }
        let chain = Chain { qk, scale, softmax, rows, pv, probs_slot, q: qk_inputs[0], k: qk_inputs[1], mask, v: pv_inputs[1 - probs_slot] };
        if loops(model, &chain).is_ok_and(|l| !l.is_empty()) {
            return Ok(Some(chain));
        }
    }
    Ok(None)
}

/// One axis the op loops over (a batch-like axis of both products: the batch row, the head) and where it sits in
/// each tensor.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Loop {
    q: usize,
    k: usize,
    /// In the mask, which has the scores' rank (its dimension there may be 1: broadcast).
    mask: usize,
    v: usize,
    out: usize,
}

/// The loop axes: those of the scores that both EinSums carry through from both inputs to their output, and nothing
/// else sums or broadcasts over them.
fn loops(model: &TypedModel, chain: &Chain) -> TractResult<Vec<Loop>> {
    let qk = einsum(model, chain.qk).context("first product")?;
    let pv = einsum(model, chain.pv).context("second product")?;
    let (p, v) = (chain.probs_slot, 1 - chain.probs_slot);
    let position = |a: &tract_onnx::tract_core::axes::Axis, slot: usize| a.inputs[slot].first().copied();
    let mut out = Vec::new();
    for axis in qk.axes.iter_all_axes() {
        let (Some(q), Some(k), Some(&scores)) = (position(axis, 0), position(axis, 1), axis.outputs[0].first()) else { continue };
        if axis.inputs[0].len() != 1 || axis.inputs[1].len() != 1 || axis.outputs[0].len() != 1 {
            continue;
        }
        // the same axis of the probabilities in the second product must be batch-like there too
        let Some(second) = pv.axes.iter_all_axes().find(|a| a.inputs[p].as_slice() == [scores]) else { bail!("probabilities axis") };
        let (Some(v_at), Some(&o)) = (position(second, v), second.outputs[0].first()) else { continue };
        out.push(Loop { q, k, mask: scores, v: v_at, out: o });
    }
    // the op softmaxes each (row, head) block at the alignment it has in the batched scores, which it knows
    // only when the blocks are the scores' leading axes
    out.sort_by_key(|l| l.mask);
    if out.iter().enumerate().any(|(i, l)| l.mask != i) {
        return Ok(Vec::new());
    }
    Ok(out)
}

/// Where the sliced query rows sit: Q's axis that becomes the scores' sliced axis (K must not carry it), the mask's
/// (the scores' axis itself), and the range.
#[derive(Debug, Clone, PartialEq, Eq)]
struct QueryRows {
    q: usize,
    mask: usize,
    start: usize,
    end: usize,
}

/// The query rows a `Slice` of the probabilities keeps: a constant range of a scores axis that is not the keys'
/// (the last) and that the first product takes from Q alone; `None` for any other slice.
fn query_rows(model: &TypedModel, qk: usize, slice: &Slice, scores_rank: usize) -> Option<QueryRows> {
    let (start, end) = (slice.start.to_usize().ok()?, slice.end.to_usize().ok()?);
    if slice.axis + 1 >= scores_rank || start >= end {
        return None;
    }
    let axis = einsum(model, qk)?.axes.iter_all_axes().find(|a| a.outputs[0].as_slice() == [slice.axis])?;
    let ([q], []) = (axis.inputs[0].as_slice(), axis.inputs[1].as_slice()) else { return None };
    Some(QueryRows { q: *q, mask: slice.axis, start, end })
}

/// The chain as one op: see the module doc. Inputs `[q, k, mask, v]`.
#[derive(Debug, Clone)]
pub struct HeadwiseAttention {
    /// `Q·Kᵀ` (times the scale) for one (row, head).
    scores: Arc<TypedRunnableModel>,
    /// `probabilities · V` for one (row, head), its inputs in the graph's order.
    product: Arc<TypedRunnableModel>,
    loops: Vec<Loop>,
    /// The query rows the op computes, where only some are read (see [`Chain::rows`]); all of them otherwise.
    rows: Option<QueryRows>,
    /// Both products on the f32 tile kernel itself, where the chain's layout allows it (see [`DirectProducts`]).
    direct: Option<DirectProducts>,
    output: TypedFact,
}

/// `Q·Kᵀ · scale` and `probabilities · V` for one (row, head) run on the f32 tile kernel directly, in the wasm SIMD128
/// build, where tract's plans run that same kernel (src/inference/wasm_gemm): each value is the kernel's `c += a·b`
/// over the summed axis in order from zero (then times the scale), exactly as the plans compute it, so the bits do
/// not change (tests/node/rerank_golden.test.mjs). At a head's depth (k = 32 for MiniLM) tract's per-tile framework
/// — the fused-op list, its scratch space, the panel walk — costs about as much as the tile's own products. Only
/// where each block's values lie as `Q [Sq, d]`, `K [Sk, d]`, scores `[loops…, Sq, Sk]`, `V [Sk, d]` or `[d, Sk]`
/// and an output `[Sq, d]` (the axes besides the loops', in that order), with every query row; any other layout is
/// left to the plans.
#[derive(Debug, Clone, PartialEq)]
struct DirectProducts {
    scale: Option<f32>,
    /// Q's depth axis (the one the first product sums over).
    depth_axis: usize,
    /// The scores' rank: the loops' axes, then `[Sq, Sk]`.
    rank: usize,
    /// V's depth axis, and how V's block lies.
    v_depth_axis: usize,
    v_columns: Columns,
    /// The output's rank and its query and depth axes.
    out_rank: usize,
    out_query: usize,
    out_depth: usize,
}

/// How a product's second operand lies: `[n, k]` (each column's k values together, as K in `Q·Kᵀ`) or `[k, n]`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Columns {
    Rows,
    Lanes,
}

type Axis = tract_onnx::tract_core::axes::Axis;

/// Where an axis sits in input `slot`, or in the output for `None`.
fn positions(axis: &Axis, slot: Option<usize>) -> &[usize] {
    match slot {
        Some(i) => &axis.inputs[i],
        None => &axis.outputs[0],
    }
}

/// The axes (indices into `axes`) of input `slot` (the output for `None`) of rank `rank` other than the loops', in
/// order.
fn other_axes(axes: &[&Axis], rank: usize, slot: Option<usize>, loop_positions: &[usize]) -> Option<Vec<usize>> {
    (0..rank).filter(|p| !loop_positions.contains(p)).map(|p| axes.iter().position(|a| positions(a, slot) == [p])).collect()
}

impl DirectProducts {
    fn new(model: &TypedModel, chain: &Chain, loops: &[Loop]) -> Option<DirectProducts> {
        if !cfg!(all(target_arch = "wasm32", target_feature = "simd128")) || chain.rows.is_some() {
            return None;
        }
        let (qk, pv) = (einsum(model, chain.qk)?, einsum(model, chain.pv)?);
        let rank = loops.len() + 2;
        let at = |f: fn(&Loop) -> usize| loops.iter().map(f).collect::<Vec<usize>>();
        let rank_of = |o: OutletId| model.outlet_fact(o).ok().map(|f| f.rank());

        let qa: Vec<&Axis> = qk.axes.iter_all_axes().collect();
        let q_rest = other_axes(&qa, rank_of(chain.q)?, Some(0), &at(|l| l.q))?;
        let k_rest = other_axes(&qa, rank_of(chain.k)?, Some(1), &at(|l| l.k))?;
        let scores_rest = other_axes(&qa, qk.axes.rank(InOut::Out(0)), None, &at(|l| l.mask))?;
        let (&[query, q_depth], &[key, k_depth], &[s_query, s_key]) = (q_rest.as_slice(), k_rest.as_slice(), scores_rest.as_slice()) else { return None };
        let scores_ok = q_depth == k_depth
            && qa[q_depth].outputs[0].is_empty()
            && query == s_query
            && qa[query].inputs[1].is_empty()
            && key == s_key
            && qa[key].inputs[0].is_empty()
            && positions(qa[s_query], None) == [rank - 2]
            && positions(qa[s_key], None) == [rank - 1];
        let &[depth_axis] = positions(qa[q_depth], Some(0)) else { return None };

        let (p, v) = (chain.probs_slot, 1 - chain.probs_slot);
        let pa: Vec<&Axis> = pv.axes.iter_all_axes().collect();
        let out_rank = pv.axes.rank(InOut::Out(0));
        let probs_rest = other_axes(&pa, rank, Some(p), &at(|l| l.mask))?;
        let v_rest = other_axes(&pa, rank_of(chain.v)?, Some(v), &at(|l| l.v))?;
        let out_rest = other_axes(&pa, out_rank, None, &at(|l| l.out))?;
        let (&[p_query, p_key], &[v_first, v_second], &[o_query, o_depth]) = (probs_rest.as_slice(), v_rest.as_slice(), out_rest.as_slice()) else { return None };
        let v_columns = match (v_first == p_key && v_second == o_depth, v_first == o_depth && v_second == p_key) {
            (true, _) => Columns::Lanes,
            (_, true) => Columns::Rows,
            _ => return None,
        };
        let product_ok = p_query == o_query
            && pa[p_query].inputs[v].is_empty()
            && pa[p_key].outputs[0].is_empty()
            && pa[o_depth].inputs[p].is_empty()
            && positions(pa[p_query], Some(p)) == [rank - 2]
            && positions(pa[p_key], Some(p)) == [rank - 1];
        if !(scores_ok && product_ok) {
            return None;
        }
        let (&[v_depth_axis], &[out_query], &[out_depth]) = (positions(pa[o_depth], Some(v)), positions(pa[o_query], None), positions(pa[o_depth], None)) else { return None };
        let scale = match chain.scale {
            None => None,
            Some(_) => {
                let value = chain.scale_value(model)?;
                if value.datum_type() != f32::datum_type() || value.len() != 1 {
                    return None;
                }
                Some(*value.try_as_plain_ram().ok()?.as_slice::<f32>().ok()?.first()?)
            }
        };
        Some(DirectProducts { scale, depth_axis, rank, v_depth_axis, v_columns, out_rank, out_query, out_depth })
    }
}

/// `out [m, n] = a [m, k] · b` (times `scale`), `b` lying as `columns` says, on the f32 tile kernel: `a` and `b`
/// packed into its panels (A `a[k·MR + r]`, B `b[k·NR + c]`, zeros past the edges) in `panels`, each tile from zero.
fn tile_product(a: &[f32], k: usize, b: &[f32], columns: Columns, scale: Option<f32>, out: &mut [f32], panels: &mut (Vec<f32>, Vec<f32>)) {
    use super::f32_tile::{add_mat_mul, MR, NR};
    let (m, n) = (a.len() / k, b.len() / k);
    let (pa, pb) = panels;
    pb.clear();
    pb.resize(n.div_ceil(NR) * k * NR, 0.0);
    match columns {
        Columns::Rows => {
            for (col, values) in b.chunks_exact(k).enumerate() {
                let panel = &mut pb[col / NR * k * NR..][..k * NR];
                for (d, &x) in values.iter().enumerate() {
                    panel[d * NR + col % NR] = x;
                }
            }
        }
        Columns::Lanes => {
            for (d, line) in b.chunks_exact(n).enumerate() {
                for (panel, chunk) in line.chunks(NR).enumerate() {
                    pb[panel * k * NR + d * NR..][..chunk.len()].copy_from_slice(chunk);
                }
            }
        }
    }
    for row0 in (0..m).step_by(MR) {
        let rows = MR.min(m - row0);
        pa.clear();
        pa.resize(k * MR, 0.0);
        for r in 0..rows {
            for (d, &x) in a[(row0 + r) * k..][..k].iter().enumerate() {
                pa[d * MR + r] = x;
            }
        }
        for (panel, col0) in pb.chunks_exact(k * NR).zip((0..n).step_by(NR)) {
            let mut tile = [[0.0f32; NR]; MR];
            // SAFETY: `pa` holds k·MR floats and `panel` k·NR
            unsafe { add_mat_mul(&mut tile, k, pa.as_ptr(), panel.as_ptr()) };
            let cols = NR.min(n - col0);
            for (r, line) in tile.iter().take(rows).enumerate() {
                let dest = &mut out[(row0 + r) * n + col0..][..cols];
                match scale {
                    Some(s) => dest.iter_mut().zip(line).for_each(|(o, &x)| *o = s * x),
                    None => dest.copy_from_slice(&line[..cols]),
                }
            }
        }
    }
}

impl PartialEq for HeadwiseAttention {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.scores, &other.scores) && Arc::ptr_eq(&self.product, &other.product) && self.loops == other.loops && self.rows == other.rows && self.direct == other.direct
    }
}

impl Eq for HeadwiseAttention {}

impl HeadwiseAttention {
    fn new(model: &TypedModel, chain: &Chain) -> TractResult<Self> {
        let loops = loops(model, chain)?;
        let rows = chain.rows.as_ref().map(|r| r.1.clone());
        // one (row, head): every loop axis 1; the other dimensions as in the model, symbols made again in each
        // plan's own scope
        // `cut`: an axis cut to the sliced query rows
        let source = |body: &mut TypedModel, name: &str, outlet: OutletId, axes: &[usize], cut: Option<usize>| -> TractResult<OutletId> {
            let fact = model.outlet_fact(outlet)?;
            let dims: TVec<TDim> = (fact.shape.iter().enumerate())
                .map(|(i, d)| match (axes.contains(&i), d.to_usize()) {
                    (true, _) => Ok(1.to_dim()),
                    _ if cut == Some(i) => Ok(rows.as_ref().map_or(0, |r| r.end - r.start).to_dim()),
                    (false, Ok(n)) => Ok(n.to_dim()),
                    (false, Err(_)) => body.symbols.parse_tdim(d.to_string()),
                })
                .collect::<TractResult<_>>()?;
            body.add_source(name, fact.datum_type.fact(dims))
        };
        let at = |f: fn(&Loop) -> usize| loops.iter().map(f).collect::<Vec<usize>>();
        let node = |id: usize| &model.nodes[id];

        let mut scores = TypedModel::default();
        let q = source(&mut scores, "q", chain.q, &at(|l| l.q), rows.as_ref().map(|r| r.q))?;
        let k = source(&mut scores, "k", chain.k, &at(|l| l.k), None)?;
        let mut x = scores.wire_node("qk", node(chain.qk).op.clone(), &[q, k])?[0];
        if let Some((mul, konst)) = chain.scale {
            let value = chain.scale_value(model).context("scale")?.clone();
            let c = scores.add_const("scale", value)?;
            let inputs = if konst == 0 { [c, x] } else { [x, c] };
            x = scores.wire_node("scaled", node(mul).op.clone(), &inputs)?[0];
        }
        scores.select_output_outlets(&[x])?;

        let mut product = TypedModel::default();
        let probs = OutletId::new(chain.rows.as_ref().map_or(chain.softmax, |r| r.0), 0);
        let probs = source(&mut product, "probs", probs, &at(|l| l.mask), None)?;
        let v = source(&mut product, "v", chain.v, &at(|l| l.v), None)?;
        let inputs = if chain.probs_slot == 0 { [probs, v] } else { [v, probs] };
        let out = product.wire_node("pv", node(chain.pv).op.clone(), &inputs)?[0];
        product.select_output_outlets(&[out])?;

        Ok(HeadwiseAttention {
            direct: DirectProducts::new(model, chain, &loops),
            scores: scores.into_optimized()?.into_runnable()?,
            product: product.into_optimized()?.into_runnable()?,
            loops,
            rows,
            output: model.outlet_fact(OutletId::new(chain.pv, 0))?.without_value(),
        })
    }
}

/// tract's f32 softmax kernels, chosen as tract's `Softmax` chooses them.
struct SoftmaxKernels {
    rows: Option<tract_linalg::routines::SoftmaxRowsF32>,
    max: Box<dyn tract_linalg::reduce::Reduce<f32>>,
    exp_sum: Box<dyn tract_linalg::reduce::MapReduce<f32, f32>>,
    scale: Box<dyn tract_linalg::element_wise::ElementWise<f32, f32>>,
}

impl SoftmaxKernels {
    fn new() -> TractResult<Self> {
        Ok(SoftmaxKernels {
            rows: tract_linalg::routines::softmax_rows_f32(),
            max: Func::ReduceMax.reduce_f32()?,
            exp_sum: Func::Softmax2.map_reduce_f32()?,
            scale: Func::MulByScalar.ew_f32_param()?,
        })
    }

    /// Softmax over each `row_len` row of `block` (plus `mask_row`, when one mask row applies to every row)
    /// exactly as tract's `Softmax` computes it where `block` starts `offset` floats into an aligned tensor.
    /// tract's reductions sum a row in SIMD lanes from its first aligned address and the unaligned head apart, so a
    /// row's sum (and its last bit) depends on the row's address modulo the kernels' alignment: the rows are
    /// softmaxed in `scratch` at the alignment they have in the batched `[B, H, S, S]` scores, and the mask is
    /// added on the way there (one pass over the scores instead of two).
    fn run(&self, block: &mut [f32], mask_row: Option<&[f32]>, offset: usize, row_len: usize, scratch: &mut Vec<f32>) -> TractResult<()> {
        // a multiple of every tract-linalg kernel's alignment, which divides the tensors' own
        const ALIGN: usize = 64;
        let floats = ALIGN / size_of::<f32>();
        scratch.clear();
        scratch.resize(block.len() + floats, 0.0);
        let base = scratch.as_ptr() as usize % ALIGN / size_of::<f32>();
        let start = (offset % floats + floats - base) % floats;
        let rows = &mut scratch[start..start + block.len()];
        match mask_row {
            Some(mask) => {
                for (row, scores) in rows.chunks_exact_mut(row_len).zip(block.chunks_exact(row_len)) {
                    row.iter_mut().zip(scores).zip(mask).for_each(|((r, s), m)| *r = s + m);
                }
            }
            None => rows.copy_from_slice(block),
        }
        match self.rows {
            Some(kernel) if row_len.is_multiple_of(4) => kernel(rows, row_len),
            _ => {
                for row in rows.chunks_mut(row_len) {
                    let max = self.max.run(row)?;
                    let sum = self.exp_sum.run_with_params(row, max)?;
                    self.scale.run_with_params(row, sum.recip())?;
                }
            }
        }
        block.copy_from_slice(rows);
        Ok(())
    }
}

impl Op for HeadwiseAttention {
    fn name(&self) -> StaticName {
        "HeadwiseAttention".into()
    }

    op_as_typed_op!();
}

impl EvalOp for HeadwiseAttention {
    op_out_of_plan!();

    fn eval(&self, _ctx: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let [q, k, mask, v] = [&inputs[0], &inputs[1], &inputs[2], &inputs[3]];
        let counts: Vec<usize> = self.loops.iter().map(|l| q.shape()[l.q]).collect();
        let total: usize = counts.iter().product();
        // one (row, head) of a tensor: a copy of that block only (a dimension of 1 broadcasts over its loop axis)
        // `cut`: an axis taken at the query rows only (a dimension of 1 broadcasts over them)
        let slice = |t: &Tensor, axes: &[(usize, usize)], cut: Option<usize>| -> TractResult<Tensor> {
            let view = t.to_plain_array_view::<f32>()?;
            let block = view.slice_each_axis(|axis| match axes.iter().find(|(a, _)| *a == axis.axis.index()) {
                Some(&(_, i)) => {
                    let i = if axis.len == 1 { 0 } else { i };
                    tract_ndarray::Slice::from(i..i + 1)
                }
                None => match (&self.rows, cut) {
                    (Some(r), Some(c)) if c == axis.axis.index() && axis.len != 1 => tract_ndarray::Slice::from(r.start..r.end),
                    _ => tract_ndarray::Slice::from(..),
                },
            });
            // lane by lane: a head's block is strided, and ndarray copies a strided view value by value
            let mut values = Vec::with_capacity(block.len());
            block.rows().into_iter().for_each(|lane| match lane.as_slice() {
                Some(lane) => values.extend_from_slice(lane),
                None => values.extend(lane.iter()),
            });
            Ok(tract_ndarray::ArrayD::from_shape_vec(block.shape(), values)?.into_tensor())
        };
        let kernels = SoftmaxKernels::new()?;
        let mut scratch = Vec::new();
        let mut panels = (Vec::new(), Vec::new());
        let mut output: Option<Tensor> = None;
        // the loops are the scores' leading axes in order (see `loops`): `flat` walks the (row, head) blocks of
        // the batched scores in memory order
        for flat in 0..total {
            let mut index = Vec::with_capacity(counts.len());
            let mut rest = flat;
            for &n in counts.iter().rev() {
                index.push(rest % n);
                rest /= n;
            }
            index.reverse();
            let pick = |f: fn(&Loop) -> usize| self.loops.iter().zip(&index).map(|(l, &i)| (f(l), i)).collect::<Vec<_>>();
            let q_rows = self.rows.as_ref().map(|r| r.q);
            let (q_block, k_block) = (slice(q, &pick(|l| l.q), q_rows)?, slice(k, &pick(|l| l.k), None)?);
            let mut scores = match &self.direct {
                Some(direct) => {
                    let depth = q_block.shape()[direct.depth_axis];
                    let mut shape = vec![1; direct.rank];
                    shape[direct.rank - 2..].copy_from_slice(&[q_block.len() / depth, k_block.len() / depth]);
                    let mut scores = Tensor::zero::<f32>(&shape)?;
                    let (q, k) = (q_block.try_as_plain_ram()?.as_slice::<f32>()?, k_block.try_as_plain_ram()?.as_slice::<f32>()?);
                    tile_product(q, depth, k, Columns::Rows, direct.scale, scores.try_as_plain_ram_mut()?.as_slice_mut::<f32>()?, &mut panels);
                    scores
                }
                None => self.scores.run(tvec![q_block.into_tvalue(), k_block.into_tvalue()])?.remove(0).into_tensor(),
            };
            let row_len = *scores.shape().last().context("scores rank")?;
            // the mask as MiddleBroadcastAdd or tract's Add adds it: one `score + mask` per element — by the softmax's
            // copy where one row of it applies to every row (BERT's `[B, 1, 1, S]`), else here
            let mask = slice(mask, &pick(|l| l.mask), self.rows.as_ref().map(|r| r.mask))?;
            let mask_row = if mask.len() == row_len && mask.shape().last() == Some(&row_len) {
                Some(mask.try_as_plain_ram()?.as_slice::<f32>()?)
            } else {
                scores.to_plain_array_view_mut::<f32>()?.zip_mut_with(&mask.to_plain_array_view::<f32>()?, |s, m| *s += *m);
                None
            };
            let block_len = scores.len();
            // where this block's rows sit in the batched scores, all query rows included
            let offset = match &self.rows {
                Some(r) => (flat * q.shape()[r.q] + r.start) * row_len,
                None => flat * block_len,
            };
            kernels.run(scores.try_as_plain_ram_mut()?.as_slice_mut::<f32>()?, mask_row, offset, row_len, &mut scratch)?;
            let v_block = slice(v, &pick(|l| l.v), None)?;
            let part = match &self.direct {
                Some(direct) => {
                    let depth = v_block.shape()[direct.v_depth_axis];
                    let mut shape = vec![1; direct.out_rank];
                    shape[direct.out_query] = block_len / row_len;
                    shape[direct.out_depth] = depth;
                    let mut part = Tensor::zero::<f32>(&shape)?;
                    let (probs, v) = (scores.try_as_plain_ram()?.as_slice::<f32>()?, v_block.try_as_plain_ram()?.as_slice::<f32>()?);
                    tile_product(probs, row_len, v, direct.v_columns, None, part.try_as_plain_ram_mut()?.as_slice_mut::<f32>()?, &mut panels);
                    part
                }
                None => self.product.run(tvec![scores.into_tvalue(), v_block.into_tvalue()])?.remove(0).into_tensor(),
            };
            let part = part.to_plain_array_view::<f32>()?;
            let out = match &mut output {
                Some(o) => o,
                None => {
                    let mut shape = part.shape().to_vec();
                    for (l, &n) in self.loops.iter().zip(&counts) {
                        shape[l.out] = n;
                    }
                    // SAFETY: every (row, head) block is assigned below, and the loops cover them all
                    output.insert(unsafe { Tensor::uninitialized::<f32>(&shape)? })
                }
            };
            let mut view = out.to_plain_array_view_mut::<f32>()?;
            let mut place = view.view_mut();
            for (l, &i) in self.loops.iter().zip(&index) {
                place.slice_axis_inplace(tract_ndarray::Axis(l.out), tract_ndarray::Slice::from(i..i + 1));
            }
            place.assign(&part);
        }
        // (batches are never empty: rerankit runs no batch without a row)
        Ok(tvec!(output.context("HeadwiseAttention: no row or head to run")?.into_tvalue()))
    }
}

impl TypedOp for HeadwiseAttention {
    fn output_facts(&self, _inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        Ok(tvec!(self.output.clone()))
    }

    as_op!();
}

#[cfg(test)]
mod tests {
    use super::{tile_product, Columns};

    /// `tile_product` against the textbook product, on small integers (every sum exact, so any order agrees), at
    /// sizes that leave partial tiles on both edges, with each layout of the second operand and with a scale.
    #[test]
    fn tile_product_is_the_matrix_product() {
        let value = |i: usize| ((i * 7919) % 13) as f32 - 6.0;
        let mut panels = (Vec::new(), Vec::new());
        for (m, k, n) in [(1, 1, 1), (3, 5, 7), (4, 32, 8), (9, 17, 13), (13, 32, 30)] {
            let a: Vec<f32> = (0..m * k).map(value).collect();
            let b_kn: Vec<f32> = (0..k * n).map(|i| value(i + 5)).collect();
            let b_nk: Vec<f32> = (0..n * k).map(|i| b_kn[(i % k) * n + i / k]).collect();
            let expected: Vec<f32> = (0..m * n).map(|i| (0..k).map(|d| a[i / n * k + d] * b_kn[d * n + i % n]).sum()).collect();
            for (b, columns) in [(&b_kn, Columns::Lanes), (&b_nk, Columns::Rows)] {
                let mut out = vec![f32::NAN; m * n];
                tile_product(&a, k, b, columns, None, &mut out, &mut panels);
                assert_eq!(out, expected, "{m}×{k}×{n} {columns:?}");
                tile_product(&a, k, b, columns, Some(0.5), &mut out, &mut panels);
                assert_eq!(out, expected.iter().map(|x| x * 0.5).collect::<Vec<_>>(), "{m}×{k}×{n} {columns:?} scaled");
            }
        }
    }
}
