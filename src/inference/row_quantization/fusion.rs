//! Finds onnxruntime's dynamic-quantisation chains in the protobuf and replaces each with one
//! [`OP_TYPE`](super::OP_TYPE) node.
//!
//! `quantize_dynamic` writes, per weight matrix:
//!
//! ```text
//! X ─ DynamicQuantizeLinear ─┬ q ──────────── MatMulInteger(q, Wq, zp, Wzp) ─ Cast(float) ─ Mul ─ [Add(bias)] ─ Y
//!                            ├ scale ─ Mul(scale, Wscale) ────────────────────────────────────┘
//!                            └ zp ───────────────┘
//! ```
//!
//! and the chain becomes `Y = RowQuantizedMatMul(X, Wq, Wzp, Wscale, bias)`. A chain is fused only when every
//! piece has exactly this shape: the weights, their zero point, their scale and the bias are initializers, and
//! no intermediate value is read by anything else or is a graph output. Anything else is left to tract as it
//! is. `DynamicQuantizeLinear` nodes and scale products left without readers are removed afterwards.

use std::collections::{HashMap, HashSet};

use crate::inference::onnx_import::pb;
use crate::inference::onnx_import::pb::tensor_proto::DataType;

use super::{DOMAIN, OP_TYPE};

/// Fuses every matching chain; returns how many.
pub fn fuse(proto: &mut pb::ModelProto) -> usize {
    let Some(graph) = proto.graph.as_mut() else { return 0 };
    let initializers: HashMap<&str, &pb::TensorProto> = graph.initializer.iter().map(|t| (t.name.as_str(), t)).collect();
    let outputs: HashSet<&str> = graph.output.iter().map(|o| o.name.as_str()).collect();
    let producer: HashMap<&str, usize> =
        graph.node.iter().enumerate().flat_map(|(i, n)| n.output.iter().map(move |o| (o.as_str(), i))).collect();
    let mut readers: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, n) in graph.node.iter().enumerate() {
        for input in n.input.iter().filter(|s| !s.is_empty()) {
            readers.entry(input.as_str()).or_default().push(i);
        }
    }
    // the one node reading `value`, when it is not also a graph output
    let only_reader = |value: &str| match readers.get(value).map(Vec::as_slice) {
        Some([i]) if !outputs.contains(value) => Some(*i),
        _ => None,
    };
    let nodes = &graph.node;
    let mut fused: Vec<(usize, pb::NodeProto, Vec<usize>)> = Vec::new();
    for (m, node) in nodes.iter().enumerate() {
        if node.op_type != "MatMulInteger" || !node.domain.is_empty() || node.input.len() < 3 {
            continue;
        }
        let Some(&d) = producer.get(node.input[0].as_str()) else { continue };
        let dql = &nodes[d];
        if dql.op_type != "DynamicQuantizeLinear" || dql.output.len() != 3 || node.input[0] != dql.output[0] || node.input[2] != dql.output[2] {
            continue;
        }
        let weights = node.input[1].as_str();
        let Some(w) = initializers.get(weights) else { continue };
        // an empty weight matrix (a corrupt file) stays with tract, which reports it
        if w.dims.len() != 2 || w.dims.iter().any(|&d| d <= 0) || !matches!(DataType::try_from(w.data_type), Ok(DataType::Int8 | DataType::Uint8)) {
            continue;
        }
        let n = w.dims[1];
        let w_zero_point = node.input.get(3).map(String::as_str).filter(|s| !s.is_empty());
        if w_zero_point.is_some_and(|z| !initializers.get(z).is_some_and(|t| per_column(t, n))) {
            continue;
        }
        let Some(c) = only_reader(&node.output[0]) else { continue };
        let cast = &nodes[c];
        if cast.op_type != "Cast" || !cast.attribute.iter().any(|a| a.name == "to" && a.i == DataType::Float as i64) {
            continue;
        }
        let Some(u) = only_reader(&cast.output[0]) else { continue };
        let mul = &nodes[u];
        if mul.op_type != "Mul" || mul.input.len() != 2 {
            continue;
        }
        let scales = if mul.input[0] == cast.output[0] { &mul.input[1] } else { &mul.input[0] };
        let Some(&s) = producer.get(scales.as_str()) else { continue };
        let scale_mul = &nodes[s];
        if scale_mul.op_type != "Mul" || scale_mul.input.len() != 2 || !scale_mul.input.contains(&dql.output[1]) {
            continue;
        }
        let w_scale = if scale_mul.input[0] == dql.output[1] { &scale_mul.input[1] } else { &scale_mul.input[0] };
        if !initializers.get(w_scale.as_str()).is_some_and(|t| per_column(t, n) && t.data_type == DataType::Float as i32) {
            continue;
        }
        // a bias added right after is folded in
        let mut removed = vec![m, c, u];
        let mut output = mul.output[0].clone();
        let mut bias = String::new();
        if let Some(a) = only_reader(&mul.output[0]) {
            let add = &nodes[a];
            let other = add.input.iter().find(|i| **i != mul.output[0]);
            if add.op_type == "Add" && add.input.len() == 2 {
                if let Some(t) = other.and_then(|o| initializers.get(o.as_str())) {
                    if t.dims == [n] && t.data_type == DataType::Float as i32 {
                        bias = t.name.clone();
                        output = add.output[0].clone();
                        removed.push(a);
                    }
                }
            }
        }
        let replacement = pb::NodeProto {
            name: format!("{}/rerankit/row_quantized", node.name),
            op_type: OP_TYPE.into(),
            domain: DOMAIN.into(),
            input: vec![
                dql.input[0].clone(),
                weights.to_string(),
                w_zero_point.unwrap_or_default().to_string(),
                w_scale.clone(),
                bias,
            ],
            output: vec![output],
            ..Default::default()
        };
        fused.push((m, replacement, removed));
    }
    let count = fused.len();
    if count == 0 {
        return 0;
    }
    let mut drop: HashSet<usize> = HashSet::new();
    let mut replace: HashMap<usize, pb::NodeProto> = HashMap::new();
    for (m, replacement, removed) in fused {
        drop.extend(removed);
        replace.insert(m, replacement);
    }
    let old = std::mem::take(&mut graph.node);
    graph.node = old
        .into_iter()
        .enumerate()
        .filter_map(|(i, n)| replace.remove(&i).or_else(|| (!drop.contains(&i)).then_some(n)))
        .collect();
    remove_unread(graph);
    count
}

/// A scalar, or one value per column.
fn per_column(t: &pb::TensorProto, n: i64) -> bool {
    t.dims.is_empty() || t.dims == [1] || t.dims == [n]
}

/// Removes, until none is left, `DynamicQuantizeLinear` and `Mul` nodes none of whose outputs is read.
fn remove_unread(graph: &mut pb::GraphProto) {
    loop {
        let outputs: HashSet<&str> = graph.output.iter().map(|o| o.name.as_str()).collect();
        let read: HashSet<&str> = graph.node.iter().flat_map(|n| n.input.iter().map(String::as_str)).collect();
        let unread = |n: &pb::NodeProto| {
            matches!(n.op_type.as_str(), "DynamicQuantizeLinear" | "Mul")
                && n.output.iter().all(|o| !read.contains(o.as_str()) && !outputs.contains(o.as_str()))
        };
        let before = graph.node.len();
        let keep: Vec<bool> = graph.node.iter().map(|n| !unread(n)).collect();
        let mut keep = keep.into_iter();
        graph.node.retain(|_| keep.next().unwrap_or(true));
        if graph.node.len() == before {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(op: &str, inputs: &[&str], outputs: &[&str]) -> pb::NodeProto {
        pb::NodeProto {
            name: outputs[0].to_string(),
            op_type: op.into(),
            input: inputs.iter().map(|s| s.to_string()).collect(),
            output: outputs.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }
    }

    fn tensor(name: &str, data_type: DataType, dims: &[i64]) -> pb::TensorProto {
        pb::TensorProto { name: name.into(), data_type: data_type as i32, dims: dims.to_vec(), ..Default::default() }
    }

    /// onnxruntime's chain for one weight matrix `[k × n]`, with a bias, feeding the graph output `y`.
    fn chain(k: i64, n: i64) -> pb::ModelProto {
        let mut cast = node("Cast", &["acc"], &["accf"]);
        cast.attribute.push(pb::AttributeProto { name: "to".into(), i: DataType::Float as i64, ..Default::default() });
        let graph = pb::GraphProto {
            node: vec![
                node("DynamicQuantizeLinear", &["x"], &["xq", "xs", "xz"]),
                node("MatMulInteger", &["xq", "w", "xz", "wz"], &["acc"]),
                cast,
                node("Mul", &["xs", "ws"], &["scales"]),
                node("Mul", &["accf", "scales"], &["prod"]),
                node("Add", &["prod", "bias"], &["y"]),
            ],
            initializer: vec![
                tensor("w", DataType::Int8, &[k, n]),
                tensor("wz", DataType::Int8, &[n]),
                tensor("ws", DataType::Float, &[n]),
                tensor("bias", DataType::Float, &[n]),
            ],
            output: vec![pb::ValueInfoProto { name: "y".into(), ..Default::default() }],
            ..Default::default()
        };
        pb::ModelProto { graph: Some(graph), ..Default::default() }
    }

    #[test]
    fn the_whole_chain_becomes_one_node_reading_x_and_the_constants() {
        let mut proto = chain(8, 4);
        assert_eq!(fuse(&mut proto), 1);
        let nodes = &proto.graph.as_ref().unwrap().node;
        assert_eq!(nodes.len(), 1, "{nodes:?}");
        assert_eq!((nodes[0].op_type.as_str(), nodes[0].domain.as_str()), (OP_TYPE, DOMAIN));
        assert_eq!(nodes[0].input, ["x", "w", "wz", "ws", "bias"]);
        assert_eq!(nodes[0].output, ["y"]);
    }

    #[test]
    fn chains_that_differ_stay_as_written() {
        // an empty weight matrix (corrupt file)
        let mut empty = chain(0, 4);
        assert_eq!(fuse(&mut empty), 0);
        // the product is read by something else too
        let mut shared = chain(8, 4);
        shared.graph.as_mut().unwrap().node.push(node("Identity", &["acc"], &["other"]));
        assert_eq!(fuse(&mut shared), 0);
        assert_eq!(shared.graph.as_ref().unwrap().node.len(), 7);
        // the weights are not an initializer
        let mut dynamic = chain(8, 4);
        dynamic.graph.as_mut().unwrap().initializer.retain(|t| t.name != "w");
        assert_eq!(fuse(&mut dynamic), 0);
    }
}
