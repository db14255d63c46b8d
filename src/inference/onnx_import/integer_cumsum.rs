//! `CumSum` over int64 token masks, computed in int32.
//!
//! RoBERTa-family exports number positions with `cumsum(input_ids != pad)`. The dynamo exporter casts the mask
//! to int64 first; tract reads every ONNX cast to int64 as a cast to its symbolic-dimension type (so that shape
//! arithmetic stays symbolic), and its `CumSum` kernel has no such type: the plan builds, then fails at the first
//! run. A cumulative count of at most the sequence length fits int32 exactly, so such a `CumSum` is wrapped in
//! casts to int32 and back.

use crate::inference::onnx_import::pb;
use crate::inference::onnx_import::pb::tensor_proto::DataType;

/// Wraps every `CumSum` whose input is a `Cast` to int64 in int32 casts.
pub fn narrow(proto: &mut pb::ModelProto) {
    let Some(graph) = proto.graph.as_mut() else { return };
    let int64_casts: std::collections::HashSet<String> = graph
        .node
        .iter()
        .filter(|n| n.op_type == "Cast" && n.attribute.iter().any(|a| a.name == "to" && a.i == DataType::Int64 as i64))
        .flat_map(|n| n.output.iter().cloned())
        .collect();
    let mut nodes = Vec::with_capacity(graph.node.len());
    for mut node in std::mem::take(&mut graph.node) {
        if node.op_type != "CumSum" || !node.input.first().is_some_and(|i| int64_casts.contains(i)) {
            nodes.push(node);
            continue;
        }
        let narrow = format!("{}/rerankit/int32_in", node.name);
        let sum = format!("{}/rerankit/int32_sum", node.name);
        nodes.push(cast(&node.input[0], &narrow, DataType::Int32, &format!("{}/rerankit/cast_in", node.name)));
        let output = std::mem::replace(&mut node.output[0], sum.clone());
        node.input[0] = narrow;
        let name = format!("{}/rerankit/cast_out", node.name);
        nodes.push(node);
        nodes.push(cast(&sum, &output, DataType::Int64, &name));
    }
    graph.node = nodes;
}

fn cast(input: &str, output: &str, to: DataType, name: &str) -> pb::NodeProto {
    pb::NodeProto {
        name: name.to_string(),
        op_type: "Cast".into(),
        input: vec![input.to_string()],
        output: vec![output.to_string()],
        attribute: vec![pb::AttributeProto {
            name: "to".into(),
            r#type: pb::attribute_proto::AttributeType::Int as i32,
            i: to as i64,
            ..Default::default()
        }],
        ..Default::default()
    }
}
