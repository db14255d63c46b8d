//! onnxruntime's fused transformer ops (`com.microsoft`), rewritten as standard ONNX before tract sees them.
//!
//! onnxruntime's transformer optimizer (optimum's O2–O4, sentence-transformers' `model_O*.onnx`) fuses a BERT
//! layer's attention into one `Attention` node and the embeddings into `EmbedLayerNormalization`. tract knows
//! neither (it reads any `Attention` as the ONNX-23 op of that name, whose inputs mean something else), so each
//! is expanded here into the standard ops it stands for. `SkipLayerNormalization`, `BiasGelu`, `FastGelu` and
//! `Gelu` need nothing: tract implements them.
//!
//! **Attention** (`input [B,S,H]`, `weights [H, Hq+Hk+Hv]`, `bias`, `mask_index`; attributes `num_heads`,
//! `scale`, `mask_filter_value`):
//! `Q,K,V = split(input·W + b)`, each reshaped to `[B, N, S, d]`;
//! `out = softmax(Q·Kᵀ·scale + (1 − m)·mask_filter_value)·V`, heads concatenated back to `[B, S, Hv]`, with
//! `scale = 1/√d` unless given and `m [B, S]` the attention mask (1 = attend).
//! onnxruntime feeds `mask_index` as either the raw mask or its row sums (`ReduceSum(Cast(mask))`, or
//! `EmbedLayerNormalization`'s second output): the sums are the key lengths of right-padded rows, which is how
//! every batch is padded, so the raw mask they were summed from says the same and is what the expansion uses.
//!
//! **EmbedLayerNormalization** (`input_ids`, `segment_ids`, word/position/segment tables, `gamma`, `beta`,
//! `mask`, `position_ids`): `LayerNorm(word[ids] + position[0..S or position_ids] + segment[segment_ids])`,
//! its second output the mask's row sums.

use crate::{Error, Result};
use crate::inference::onnx_import::pb;
use crate::inference::onnx_import::pb::tensor_proto::DataType;

const MS: &str = "com.microsoft";

/// Expands every `com.microsoft` `Attention` and `EmbedLayerNormalization` node of the main graph.
pub fn expand(proto: &mut pb::ModelProto) -> Result<()> {
    let opset = proto.opset_import.iter().find(|o| o.domain.is_empty() || o.domain == "ai.onnx").map_or(17, |o| o.version);
    let Some(graph) = proto.graph.as_mut() else { return Ok(()) };
    if !graph.node.iter().any(|n| n.domain == MS && matches!(n.op_type.as_str(), "Attention" | "EmbedLayerNormalization")) {
        return Ok(());
    }
    let original = graph.node.clone();
    let mut b = Builder { nodes: Vec::new(), initializers: Vec::new(), count: 0, opset };
    for node in &original {
        match (node.domain.as_str(), node.op_type.as_str()) {
            (MS, "Attention") => attention(&mut b, graph, &original, node)?,
            (MS, "EmbedLayerNormalization") => embed_layer_norm(&mut b, node)?,
            _ => b.nodes.push(node.clone()),
        }
    }
    graph.node = b.nodes;
    graph.initializer.extend(b.initializers);
    Ok(())
}

struct Builder {
    nodes: Vec<pb::NodeProto>,
    initializers: Vec<pb::TensorProto>,
    count: usize,
    opset: i64,
}

impl Builder {
    fn name(&mut self, what: &str) -> String {
        self.count += 1;
        format!("rerankit/contrib/{what}_{}", self.count)
    }

    /// Adds `op(inputs) -> output` (a fresh name unless `output` is given) and returns the output name.
    fn op(&mut self, op: &str, inputs: &[&str], attributes: Vec<pb::AttributeProto>, output: Option<&str>) -> String {
        let out = output.map_or_else(|| self.name(op), str::to_string);
        let name = self.name(&format!("{op}_node"));
        self.nodes.push(pb::NodeProto {
            name,
            op_type: op.to_string(),
            input: inputs.iter().map(|s| s.to_string()).collect(),
            output: vec![out.clone()],
            attribute: attributes,
            ..Default::default()
        });
        out
    }

    fn ints(&mut self, values: &[i64]) -> String {
        let name = self.name("ints");
        self.initializers.push(pb::TensorProto {
            name: name.clone(),
            dims: vec![values.len() as i64],
            data_type: DataType::Int64 as i32,
            int64_data: values.to_vec(),
            ..Default::default()
        });
        name
    }

    fn scalar_i64(&mut self, value: i64) -> String {
        let name = self.name("int");
        self.initializers.push(pb::TensorProto { name: name.clone(), data_type: DataType::Int64 as i32, int64_data: vec![value], ..Default::default() });
        name
    }

    fn scalar_f32(&mut self, value: f32) -> String {
        let name = self.name("float");
        self.initializers.push(pb::TensorProto { name: name.clone(), data_type: DataType::Float as i32, float_data: vec![value], ..Default::default() });
        name
    }

    fn slice(&mut self, data: &str, start: i64, end: i64, axis: i64) -> String {
        let (s, e, a) = (self.ints(&[start]), self.ints(&[end]), self.ints(&[axis]));
        self.op("Slice", &[data, &s, &e, &a], vec![], None)
    }

    fn reshape(&mut self, data: &str, shape: &[i64], output: Option<&str>) -> String {
        let s = self.ints(shape);
        self.op("Reshape", &[data, &s], vec![], output)
    }

    fn transpose(&mut self, data: &str, perm: &[i64]) -> String {
        self.op("Transpose", &[data], vec![ints_attr("perm", perm)], None)
    }
}

fn ints_attr(name: &str, values: &[i64]) -> pb::AttributeProto {
    pb::AttributeProto { name: name.into(), r#type: pb::attribute_proto::AttributeType::Ints as i32, ints: values.to_vec(), ..Default::default() }
}

fn int_attr(name: &str, value: i64) -> pb::AttributeProto {
    pb::AttributeProto { name: name.into(), r#type: pb::attribute_proto::AttributeType::Int as i32, i: value, ..Default::default() }
}

fn float_attr(name: &str, value: f32) -> pb::AttributeProto {
    pb::AttributeProto { name: name.into(), r#type: pb::attribute_proto::AttributeType::Float as i32, f: value, ..Default::default() }
}

fn attr<'a>(node: &'a pb::NodeProto, name: &str) -> Option<&'a pb::AttributeProto> {
    node.attribute.iter().find(|a| a.name == name)
}

fn input<'a>(node: &'a pb::NodeProto, i: usize) -> Option<&'a str> {
    node.input.get(i).map(String::as_str).filter(|s| !s.is_empty())
}

fn unsupported(node: &pb::NodeProto, what: impl std::fmt::Display) -> Error {
    Error::unsupported(format!("model: com.microsoft.{} (node {:?}): {what}", node.op_type, node.name))
}

fn attention(b: &mut Builder, graph: &pb::GraphProto, nodes: &[pb::NodeProto], node: &pb::NodeProto) -> Result<()> {
    for (i, what) in [(4, "past state"), (5, "attention_bias"), (6, "past_sequence_length")] {
        if input(node, i).is_some() {
            return Err(unsupported(node, format!("the {what} input is not supported (encoders have none)")));
        }
    }
    if node.output.iter().skip(1).any(|o| !o.is_empty()) {
        return Err(unsupported(node, "the present-state output is not supported (encoders have none)"));
    }
    if attr(node, "unidirectional").is_some_and(|a| a.i != 0) || attr(node, "do_rotary").is_some_and(|a| a.i != 0) {
        return Err(unsupported(node, "unidirectional (causal) or rotary attention is not supported"));
    }
    let (x, w, bias) = match (input(node, 0), input(node, 1), input(node, 2)) {
        (Some(x), Some(w), Some(b)) => (x, w, b),
        _ => return Err(unsupported(node, "needs input, weights and bias")),
    };
    let heads = attr(node, "num_heads").map(|a| a.i).filter(|&n| n > 0).ok_or_else(|| unsupported(node, "num_heads is missing"))?;
    let total = graph
        .initializer
        .iter()
        .find(|t| t.name == w)
        .and_then(|t| (t.dims.len() == 2).then_some(t.dims[1]))
        .ok_or_else(|| unsupported(node, "the packed QKV weights must be a 2-D initializer"))?;
    let sizes = match attr(node, "qkv_hidden_sizes").map(|a| a.ints.clone()) {
        Some(s) if s.len() == 3 => s,
        Some(_) => return Err(unsupported(node, "qkv_hidden_sizes must have 3 values")),
        None if total % 3 == 0 => vec![total / 3; 3],
        None => return Err(unsupported(node, format!("packed QKV width {total} is not divisible by 3"))),
    };
    let (hq, hk, hv) = (sizes[0], sizes[1], sizes[2]);
    if hq != hk || hq % heads != 0 || hv % heads != 0 || hq + hk + hv != total {
        return Err(unsupported(node, format!("QKV sizes {sizes:?} do not fit {heads} heads and width {total}")));
    }
    let (dq, dv) = (hq / heads, hv / heads);
    let scale = attr(node, "scale").map(|a| a.f).filter(|&s| s != 0.0).unwrap_or(1.0 / (dq as f32).sqrt());
    let filter = attr(node, "mask_filter_value").map_or(-10000.0, |a| a.f);
    let mask = match input(node, 3) {
        None => None,
        Some(m) => Some(raw_mask(nodes, m).ok_or_else(|| {
            unsupported(node, format!("its mask_index {m:?} is not derived from a [batch, sequence] attention mask"))
        })?),
    };

    let mm = b.op("MatMul", &[x, w], vec![], None);
    let qkv = b.op("Add", &[&mm, bias], vec![], None);
    let q = b.slice(&qkv, 0, hq, 2);
    let k = b.slice(&qkv, hq, hq + hk, 2);
    let v = b.slice(&qkv, hq + hk, total, 2);
    let q = b.reshape(&q, &[0, 0, heads, dq], None);
    let q = b.transpose(&q, &[0, 2, 1, 3]);
    let k = b.reshape(&k, &[0, 0, heads, dq], None);
    let k = b.transpose(&k, &[0, 2, 3, 1]);
    let v = b.reshape(&v, &[0, 0, heads, dv], None);
    let v = b.transpose(&v, &[0, 2, 1, 3]);
    let scores = b.op("MatMul", &[&q, &k], vec![], None);
    let s = b.scalar_f32(scale);
    let mut scores = b.op("Mul", &[&scores, &s], vec![], None);
    if let Some(mask) = mask {
        let m = b.op("Cast", &[&mask], vec![int_attr("to", DataType::Float as i64)], None);
        let one = b.scalar_f32(1.0);
        let inv = b.op("Sub", &[&one, &m], vec![], None);
        let f = b.scalar_f32(filter);
        let add = b.op("Mul", &[&inv, &f], vec![], None);
        let add = b.reshape(&add, &[0, 1, 1, -1], None);
        scores = b.op("Add", &[&scores, &add], vec![], None);
    }
    let probs = b.op("Softmax", &[&scores], vec![int_attr("axis", -1)], None);
    let ctx = b.op("MatMul", &[&probs, &v], vec![], None);
    let ctx = b.transpose(&ctx, &[0, 2, 1, 3]);
    b.reshape(&ctx, &[0, 0, hv], Some(&node.output[0]));
    Ok(())
}

/// The `[batch, sequence]` mask a `mask_index` was computed from: itself when it is a graph tensor of that form
/// (a Cast of one), the input of `ReduceSum(Cast(mask))` over the sequence axis, or `EmbedLayerNormalization`'s
/// mask input for its second output.
fn raw_mask(nodes: &[pb::NodeProto], name: &str) -> Option<String> {
    let producer = nodes.iter().find(|n| n.output.iter().any(|o| o == name));
    let Some(p) = producer else {
        return Some(name.to_string()); // a graph input: the raw mask itself
    };
    match (p.domain.as_str(), p.op_type.as_str()) {
        ("" | "ai.onnx", "Cast") => raw_mask(nodes, input(p, 0)?),
        ("" | "ai.onnx", "ReduceSum") => {
            // over axis 1 (or -1) of the 2-D mask, without keepdims
            if attr(p, "keepdims").is_some_and(|a| a.i != 0) {
                return None;
            }
            raw_mask(nodes, input(p, 0)?)
        }
        (MS, "EmbedLayerNormalization") if p.output.get(1).is_some_and(|o| o == name) => input(p, 7).map(str::to_string),
        _ => None,
    }
}

fn embed_layer_norm(b: &mut Builder, node: &pb::NodeProto) -> Result<()> {
    let need = |i: usize, what: &str| input(node, i).ok_or_else(|| unsupported(node, format!("the {what} input is missing")));
    let ids = need(0, "input_ids")?;
    let (word, position, gamma, beta) = (need(2, "word embedding")?, need(3, "position embedding")?, need(5, "gamma")?, need(6, "beta")?);
    let epsilon = attr(node, "epsilon").map_or(1e-12, |a| a.f);

    let mut sum = b.op("Gather", &[word, ids], vec![int_attr("axis", 0)], None);
    let positions = match input(node, 8) {
        Some(p) => p.to_string(),
        None => {
            let shape = b.op("Shape", &[ids], vec![], None);
            let one = b.scalar_i64(1);
            let len = b.op("Gather", &[&shape, &one], vec![int_attr("axis", 0)], None);
            let zero = b.scalar_i64(0);
            let step = b.scalar_i64(1);
            b.op("Range", &[&zero, &len, &step], vec![], None)
        }
    };
    let pos = b.op("Gather", &[position, &positions], vec![int_attr("axis", 0)], None);
    sum = b.op("Add", &[&sum, &pos], vec![], None);
    if let (Some(segments), Some(table)) = (input(node, 1), input(node, 4)) {
        let seg = b.op("Gather", &[table, segments], vec![int_attr("axis", 0)], None);
        let out = node.output.get(2).filter(|o| !o.is_empty()).map(String::as_str);
        sum = b.op("Add", &[&sum, &seg], vec![], out);
    } else if let Some(out) = node.output.get(2).filter(|o| !o.is_empty()) {
        sum = b.op("Identity", &[&sum], vec![], Some(out));
    }
    b.op(
        "LayerNormalization",
        &[&sum, gamma, beta],
        vec![int_attr("axis", -1), float_attr("epsilon", epsilon)],
        Some(&node.output[0]),
    );
    if let Some(mask_index) = node.output.get(1).filter(|o| !o.is_empty()) {
        let mask = input(node, 7).ok_or_else(|| unsupported(node, "mask_index is used but no mask is given"))?;
        let m = b.op("Cast", &[mask], vec![int_attr("to", DataType::Int32 as i64)], None);
        if b.opset >= 13 {
            let axes = b.ints(&[1]);
            b.op("ReduceSum", &[&m, &axes], vec![int_attr("keepdims", 0)], Some(mask_index));
        } else {
            b.op("ReduceSum", &[&m], vec![ints_attr("axes", &[1]), int_attr("keepdims", 0)], Some(mask_index));
        }
    }
    Ok(())
}
