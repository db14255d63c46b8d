//! Attributes that size tract's work, checked before tract sees them. A corrupt or hand-edited model can carry a
//! `Transpose` whose `perm` holds 2⁶³−1, or an `axis` of a million: tract would reserve that many axes (8 GiB for
//! one `perm`) and the allocation failure aborts the process — on wasm32 a trap. Real models stay far inside
//! these bounds (BERT-family graphs have rank ≤ 5). Where the rank of an input is known before inference (an
//! initializer, a `Constant`), `LayerNormalization`'s axis must lie in `[-rank, rank)` as ONNX requires: tract's
//! shape rules compute `axis + rank` as an unsigned count, and a scalar input makes that loop for 2⁶⁴ steps.

use crate::error::{Error, Result};
use tract_onnx::pb;

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

/// The rank of every tensor known before inference: initializers and the outputs of `Constant` nodes.
fn known_ranks(graph: &pb::GraphProto) -> std::collections::HashMap<&str, i64> {
    let mut ranks: std::collections::HashMap<&str, i64> = graph.initializer.iter().map(|t| (t.name.as_str(), t.dims.len() as i64)).collect();
    for node in graph.node.iter().filter(|n| n.op_type == "Constant") {
        let value = node.attribute.iter().find(|a| a.name == "value").and_then(|a| a.t.as_ref());
        if let (Some(t), Some(out)) = (value, node.output.first()) {
            ranks.insert(out.as_str(), t.dims.len() as i64);
        }
    }
    ranks
}
