//! Attributes that size tract's work, checked before tract sees them. A corrupt or hand-edited model can carry a
//! `Transpose` whose `perm` holds 2⁶³−1, or an `axis` of a million: tract would reserve that many axes (8 GiB for
//! one `perm`) and the allocation failure aborts the process — on wasm32 a trap. Real models stay far inside
//! these bounds (BERT-family graphs have rank ≤ 5). Where the rank of an input is known before inference (an
//! initializer, a `Constant`, a scalar a node computes: [`known_ranks`]), `LayerNormalization`'s axis must lie in `[-rank, rank)` as ONNX requires: tract's
//! shape rules compute `axis + rank` as an unsigned count, and a scalar input makes that loop for 2⁶⁴ steps.

use crate::error::{Error, Result};
use crate::inference::onnx_import::pb;

/// More axes than any tensor of a supported model has, by a wide margin.
const MAX_RANK: i64 = 16;

/// `MODEL_LOAD` naming the node and attribute when a `perm` is not a permutation of `0..n` (n ≤ [`MAX_RANK`]), or
/// an `axis`/`axes` value lies outside ±[`MAX_RANK`].
pub fn check(proto: &pb::ModelProto) -> Result<()> {
    let Some(graph) = proto.graph.as_ref() else { return Ok(()) };
    let known_rank = known_ranks(graph);
    for node in &graph.node {
        if node.op_type == "LayerNormalization" {
            let axis = node.attribute.iter().find(|a| a.name == "axis").map_or(-1, |a| a.i);
            if let Some(&rank) = node.input.first().and_then(|i| known_rank.get(i.as_str())) {
                if !(-rank..rank).contains(&axis) {
                    return Err(Error::model_load(format!(
                        "model: node {:?} (LayerNormalization): axis {axis} is outside [-{rank}, {rank}) for its rank-{rank} input",
                        node.name
                    )));
                }
            }
        }
        for a in &node.attribute {
            let bad = |what: String| Error::model_load(format!("model: node {:?} ({}): attribute {}: {what}", node.name, node.op_type, a.name));
            match a.name.as_str() {
                "perm" => {
                    let n = a.ints.len();
                    if n as i64 > MAX_RANK {
                        return Err(bad(format!("{n} axes, more than {MAX_RANK}")));
                    }
                    let mut seen = vec![false; n];
                    for &p in &a.ints {
                        if p < 0 || p as usize >= n || std::mem::replace(&mut seen[p as usize], true) {
                            return Err(bad(format!("{:?} is not a permutation of 0..{n}", a.ints)));
                        }
                    }
                }
                "axis" if !(-MAX_RANK..MAX_RANK).contains(&a.i) => return Err(bad(format!("{} is not an axis", a.i))),
                "axes" => {
                    if let Some(v) = a.ints.iter().find(|v| !(-MAX_RANK..MAX_RANK).contains(*v)) {
                        return Err(bad(format!("{v} is not an axis")));
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// The rank of every tensor known before inference: initializers, the outputs of `Constant` nodes, the scalars
/// `DynamicQuantizeLinear` computes (its scale and zero point), `Shape`'s vector, and what element-wise ops make
/// of operands of known rank (the largest of their ranks, by broadcasting). A graph lists its nodes in
/// topological order, so one pass sees every operand before its readers.
fn known_ranks(graph: &pb::GraphProto) -> std::collections::HashMap<&str, i64> {
    let mut ranks: std::collections::HashMap<&str, i64> = graph.initializer.iter().map(|t| (t.name.as_str(), t.dims.len() as i64)).collect();
    for node in &graph.node {
        let out = |i: usize| node.output.get(i).map(String::as_str).filter(|o| !o.is_empty());
        let operands = || node.input.iter().filter(|i| !i.is_empty()).map(|i| ranks.get(i.as_str()).copied()).collect::<Option<Vec<i64>>>();
        let known: Vec<(&str, i64)> = match node.op_type.as_str() {
            "Constant" => {
                let value = node.attribute.iter().find(|a| a.name == "value").and_then(|a| a.t.as_ref());
                value.zip(out(0)).map(|(t, o)| vec![(o, t.dims.len() as i64)]).unwrap_or_default()
            }
            "DynamicQuantizeLinear" => [out(1), out(2)].into_iter().flatten().map(|o| (o, 0)).collect(),
            "Shape" => out(0).map(|o| vec![(o, 1)]).unwrap_or_default(),
            "Add" | "Sub" | "Mul" | "Div" | "Pow" | "Cast" | "Sqrt" | "Neg" | "Abs" | "Relu" | "Erf" | "Tanh" | "Identity" => {
                match (out(0), operands()) {
                    (Some(o), Some(r)) if !r.is_empty() => vec![(o, r.into_iter().max().unwrap_or(0))],
                    _ => vec![],
                }
            }
            _ => vec![],
        };
        ranks.extend(known);
    }
    ranks
}
