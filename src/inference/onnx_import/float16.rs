//! fp16 graphs run in fp32 on the CPU.
//!
//! onnxruntime's float16 converter (`model_fp16.onnx` on the Hub, `keep_io_types=True`) stores weights as fp16
//! and computes in fp16 between a `Cast` after the inputs and one before the outputs. tract cannot type such a
//! graph (its Gemm/MatMul translators expect one float type end to end), and wasm has no fp16 arithmetic anyway.
//! So the graph is widened: every fp16 tensor becomes the fp32 tensor of the same values (exact: fp32 holds
//! every fp16 value), every `Cast`/type attribute to fp16 becomes one to fp32, and fp16 value types become fp32.
//! The result computes the fp16 weights in fp32, so it is closer to the fp32 model than onnxruntime's own fp16
//! run (tests/node/hub_models.test.mjs measures both).

use super::for_each_tensor;
use crate::Result;
use crate::inference::onnx_import::pb;
use crate::inference::onnx_import::pb::tensor_proto::DataType;
use half::f16;

const F16: i32 = DataType::Float16 as i32;
const F32: i32 = DataType::Float as i32;

/// Whether the graph holds any fp16 tensor, cast or value type.
pub fn is_fp16(proto: &pb::ModelProto) -> bool {
    let Some(g) = &proto.graph else { return false };
    g.initializer.iter().any(|t| t.data_type == F16)
        || g.node.iter().any(|n| n.attribute.iter().any(|a| (a.name == "to" && a.i == F16 as i64) || a.t.as_ref().is_some_and(|t| t.data_type == F16)))
}

/// Rewrites every fp16 tensor, type attribute and value type of the graph to fp32.
pub fn widen(proto: &mut pb::ModelProto) -> Result<()> {
    for_each_tensor(proto, &mut |t| {
        if t.data_type == F16 {
            let bits: Vec<u16> = if !t.raw_data.is_empty() {
                t.raw_data.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect()
            } else {
                t.int32_data.iter().map(|&x| x as u16).collect()
            };
            t.raw_data = bits.into_iter().flat_map(|b| f16::from_bits(b).to_f32().to_le_bytes()).collect();
            t.int32_data.clear();
            t.data_type = F32;
        }
        Ok(())
    })?;
    if let Some(g) = &mut proto.graph {
        widen_graph(g);
    }
    Ok(())
}

fn widen_graph(g: &mut pb::GraphProto) {
    for n in &mut g.node {
        for a in &mut n.attribute {
            // Cast(to), CastLike's target comes from a tensor (already widened), EyeLike/RandomX(dtype)
            if (a.name == "to" || a.name == "dtype") && a.i == F16 as i64 {
                a.i = F32 as i64;
            }
            for sub in a.g.iter_mut().chain(a.graphs.iter_mut()) {
                widen_graph(sub);
            }
        }
    }
    for v in g.input.iter_mut().chain(g.output.iter_mut()).chain(g.value_info.iter_mut()) {
        if let Some(pb::type_proto::Value::TensorType(t)) = v.r#type.as_mut().and_then(|t| t.value.as_mut()) {
            if t.elem_type == F16 {
                t.elem_type = F32;
            }
        }
    }
}
