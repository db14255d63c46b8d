//! ONNX files as the Hub ships them, made into graphs tract can plan.
//!
//! Exports differ in ways that do not change what the model computes: weights in a separate `.onnx_data` file
//! ([`external_data`]), fp16 storage ([`float16`]), onnxruntime's fused `com.microsoft` ops ([`contrib_ops`]),
//! int64 position counting that tract cannot evaluate ([`integer_cumsum`]). Dynamic-quantisation chains become
//! one node each ([`row_quantization::fusion`](crate::inference::row_quantization::fusion)).
//! [`prepare`] decodes the protobuf and removes each difference, then checks that every remaining op is one
//! tract implements, so that what cannot run fails here as `UNSUPPORTED` naming the op — never later, as a
//! panic inside tract (a trap in wasm).
//!
//! Every step rewrites the protobuf only; tract still does all typing and optimisation.

pub mod attribute_bounds;
pub mod contrib_ops;
pub mod external_data;
pub mod float16;
pub mod integer_cumsum;
pub mod pb;

pub use external_data::ExternalFile;

use crate::{Error, Result};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What [`prepare`] changed, for diagnostics (`model.info` in JS).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ImportReport {
    /// Tensors were read from external-data files.
    pub external_data: bool,
    /// fp16 weights were widened to fp32.
    pub widened_fp16: bool,
    /// onnxruntime fused ops were expanded.
    pub expanded_contrib_ops: bool,
}

/// `com.microsoft` ops that tract implements with onnxruntime's meaning.
#[cfg(feature = "tract")]
const MICROSOFT_OPS: &[&str] = &[
    "BiasGelu",
    "FastGelu",
    "Gelu",
    "QuickGelu",
    "SkipLayerNormalization",
    "SkipSimplifiedLayerNormalization",
    "SimplifiedLayerNormalization",
    "LayerNormalization",
    "MatMulNBits",
    "GatherBlockQuantized",
    "MultiHeadAttention",
    "RotaryEmbedding",
];

/// Decodes ONNX protobuf bytes (`MODEL_LOAD` when they are not a model).
pub fn decode(bytes: &[u8]) -> Result<pb::ModelProto> {
    if bytes.is_empty() {
        return Err(Error::model_load("model: the ONNX bytes are empty"));
    }
    // prost reads the caller's bytes in place: tract's `proto_model_for_read` would first copy them, and the
    // decoded tensors are a third copy (in wasm, memory never shrinks: that peak would be the model's cost)
    let proto = catch_unwind(AssertUnwindSafe(|| <pb::ModelProto as prost::Message>::decode(bytes)));
    let proto = match proto {
        Ok(Ok(p)) => p,
        Ok(Err(e)) => return Err(Error::model_load(format!("model: cannot decode the ONNX protobuf: {e:#}"))),
        Err(_) => return Err(Error::model_load("model: cannot decode the ONNX protobuf (corrupt file)")),
    };
    if proto.graph.as_ref().is_none_or(|g| g.node.is_empty()) {
        return Err(Error::model_load("model: the ONNX file has no graph nodes (corrupt or not an ONNX model)"));
    }
    attribute_bounds::check(&proto)?;
    Ok(proto)
}

/// Decodes `bytes` and makes the graph plannable by tract (module docs); `external` holds the files that
/// external-data tensors name.
pub fn prepare(bytes: &[u8], external: &[ExternalFile]) -> Result<(pb::ModelProto, ImportReport)> {
    let mut proto = decode(bytes)?;
    let mut report = ImportReport::default();
    if !external_data::locations(&mut proto).is_empty() {
        external_data::inline(&mut proto, external)?;
        report.external_data = true;
    }
    if float16::is_fp16(&proto) {
        float16::widen(&mut proto)?;
        report.widened_fp16 = true;
    }
    let before = proto.graph.as_ref().map_or(0, |g| g.node.len());
    contrib_ops::expand(&mut proto)?;
    report.expanded_contrib_ops = proto.graph.as_ref().map_or(0, |g| g.node.len()) != before;
    integer_cumsum::narrow(&mut proto);
    #[cfg(feature = "tract")]
    check_ops(&proto)?;
    // after tract's check (the fused node is rerankit's own op); before the BERT engine's, which runs only fused
    // chains
    crate::inference::row_quantization::fusion::fuse(&mut proto);
    #[cfg(not(feature = "tract"))]
    check_ops(&proto)?;
    Ok((proto, report))
}

/// `UNSUPPORTED` naming the first op tract does not implement (or implements with another meaning).
#[cfg(feature = "tract")]
pub fn check_ops(proto: &pb::ModelProto) -> Result<()> {
    let registry = tract_onnx::onnx().op_register;
    let Some(graph) = &proto.graph else { return Ok(()) };
    for node in &graph.node {
        let known = match node.domain.as_str() {
            "" | "ai.onnx" => registry.0.contains_key(&node.op_type),
            "com.microsoft" => MICROSOFT_OPS.contains(&node.op_type.as_str()),
            _ => false,
        };
        if !known {
            let domain = if node.domain.is_empty() { "ai.onnx" } else { &node.domain };
            return Err(Error::unsupported(format!(
                "model: operator {domain}.{} (node {:?}) is not supported by rerankit's CPU engine",
                node.op_type, node.name
            )));
        }
    }
    Ok(())
}

/// Without tract, the ops are the BERT engine's.
#[cfg(not(feature = "tract"))]
pub use crate::inference::bert::weights::check_ops;

/// Calls `f` on every tensor stored in the model: initializers and tensor attributes (`Constant` values), in the
/// main graph and its subgraphs.
pub(crate) fn for_each_tensor(proto: &mut pb::ModelProto, f: &mut dyn FnMut(&mut pb::TensorProto) -> Result<()>) -> Result<()> {
    fn walk(g: &mut pb::GraphProto, f: &mut dyn FnMut(&mut pb::TensorProto) -> Result<()>) -> Result<()> {
        for t in &mut g.initializer {
            f(t)?;
        }
        for n in &mut g.node {
            for a in &mut n.attribute {
                for t in a.t.iter_mut().chain(a.tensors.iter_mut()) {
                    f(t)?;
                }
                for sub in a.g.iter_mut().chain(a.graphs.iter_mut()) {
                    walk(sub, f)?;
                }
            }
        }
        Ok(())
    }
    match &mut proto.graph {
        Some(g) => walk(g, f),
        None => Ok(()),
    }
}
