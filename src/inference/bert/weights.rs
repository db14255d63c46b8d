//! BERT weights read from an ONNX graph, mapped to their roles **by graph structure**.
//!
//! From `input_ids`, the walk finds the word-embedding `Gather`, follows the `Add` chain (position and token-type
//! `Gather`s) to the embedding layer norm, then per encoder layer: the three `MatMul(+Add)` projections of the
//! hidden state (told apart as Q, K, V by where they enter the two attention `MatMul`s, the V branch meeting the
//! `Softmax` output), the output projection, residual `Add` and layer norm, the FFN `MatMul` → GELU → `MatMul`,
//! residual and layer norm; it stops when the hidden state feeds no more projections. The head is read
//! backwards from the graph output: `logits` ← classifier linear ← (`Tanh` ← pooler linear ←) [CLS] `Gather` /
//! `Slice` of the last hidden state; or `last_hidden_state` itself for encoders.
//!
//! Layer norm is recognised fused (`LayerNormalization`) or decomposed (`ReduceMean → Sub → Pow → ReduceMean →
//! Add ε → Sqrt → Div → Mul γ → Add β`); linear layers as `MatMul` + `Add` (weight `[in, out]`, or through a
//! `Transpose` node), `Gemm` (with `transB`), or a dynamically quantised chain once
//! [`row_quantization::fusion`](crate::inference::row_quantization::fusion) has made it one node (int8 weights,
//! [`Matrix::Int8`]); embedding tables stored quantised are read through their `DequantizeLinear`; GELU as
//! `Gelu` or the exact erf form (`Div √2 → Erf → Add 1 → Mul x → Mul ½`, any operand order). Anything else —
//! tanh-approximated GELU, onnxruntime's fused attention, rotary positions — is `UNSUPPORTED`.

use crate::inference::model_info::{attention_heads, parse_config};
use crate::inference::{Output, PreparedModel};
use crate::{Error, Result};
use std::collections::HashMap;
use crate::inference::row_quantization;
use crate::inference::onnx_import::pb;
use crate::inference::onnx_import::pb::tensor_proto::DataType;

/// A weight matrix, row-major `[inputs, outputs]`.
#[derive(Debug, Clone)]
pub enum Matrix {
    F32(Vec<f32>),
    /// Stored in 8 bits by onnxruntime's `quantize_dynamic`: `w = (values − zero_point) · scale` per column, u8
    /// values and zero points already shifted into i8 (`RowQuantizedMatMul`'s rule, [`row_quantization::gemm`]).
    Int8 { values: Vec<i8>, zero_point: Vec<i32>, scale: Vec<f32> },
}

impl Matrix {
    /// The float values, when the matrix is stored as floats.
    pub fn as_f32(&self) -> Option<&[f32]> {
        match self {
            Matrix::F32(w) => Some(w),
            Matrix::Int8 { .. } => None,
        }
    }
}

/// An embedding table `[rows, H]`, row-major: floats, or the 8-bit values of `quantize_dynamic`'s tables with their
/// one scale and zero point, kept in 8 bits (a 30k-token vocabulary of width 384 is 45 MiB as floats, 11 MiB as
/// bytes) and dequantised row by row as tokens are looked up, with the arithmetic of `DequantizeLinear`.
#[derive(Debug, Clone)]
pub enum Embedding {
    F32(Vec<f32>),
    Int8 { values: Vec<u8>, signed: bool, zero_point: f32, scale: f32 },
}

impl Embedding {
    /// The number of values (`rows × H`).
    pub fn len(&self) -> usize {
        match self {
            Embedding::F32(t) => t.len(),
            Embedding::Int8 { values, .. } => values.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The float values, when the table is stored as floats.
    pub fn as_f32(&self) -> Option<&[f32]> {
        match self {
            Embedding::F32(t) => Some(t),
            Embedding::Int8 { .. } => None,
        }
    }

    /// Writes the values `range` (one row) into `out`, dequantised.
    pub fn read(&self, range: std::ops::Range<usize>, out: &mut [f32]) {
        match self {
            Embedding::F32(t) => out.copy_from_slice(&t[range]),
            Embedding::Int8 { values, signed, zero_point, scale } => {
                for (o, &b) in out.iter_mut().zip(&values[range]) {
                    *o = (byte_value(b, *signed) - zero_point) * scale;
                }
            }
        }
    }
}

/// An 8-bit tensor's byte as the number it stores.
fn byte_value(b: u8, signed: bool) -> f32 {
    if signed { b as i8 as f32 } else { b as f32 }
}

/// A dense layer: `y = x · w + b`.
#[derive(Debug, Clone)]
pub struct Linear {
    pub w: Matrix,
    pub b: Vec<f32>,
    pub inputs: usize,
    pub outputs: usize,
}

impl Linear {
    /// Linear layers of the same input joined into one whose outputs are theirs in order (Q, K and V into
    /// `[H, 3H]`); `None` when they are not all stored as floats or all as int8.
    fn side_by_side<const N: usize>(parts: [Linear; N]) -> Option<Linear> {
        let inputs = parts[0].inputs;
        let outputs: usize = parts.iter().map(|l| l.outputs).sum();
        fn rows<T: Copy>(blocks: &[(&[T], usize)], inputs: usize) -> Vec<T> {
            let mut out = Vec::with_capacity(inputs * blocks.iter().map(|b| b.1).sum::<usize>());
            for r in 0..inputs {
                for &(w, n) in blocks {
                    out.extend_from_slice(&w[r * n..(r + 1) * n]);
                }
            }
            out
        }
        let b = parts.iter().flat_map(|l| l.b.iter().copied()).collect();
        let w = if parts.iter().all(|l| matches!(l.w, Matrix::F32(_))) {
            let blocks: Vec<(&[f32], usize)> = parts.iter().map(|l| (l.w.as_f32().unwrap(), l.outputs)).collect();
            Matrix::F32(rows(&blocks, inputs))
        } else {
            let mut blocks = Vec::new();
            let (mut zero_point, mut scale) = (Vec::new(), Vec::new());
            for l in &parts {
                let Matrix::Int8 { values, zero_point: z, scale: s } = &l.w else { return None };
                blocks.push((values.as_slice(), l.outputs));
                zero_point.extend_from_slice(z);
                scale.extend_from_slice(s);
            }
            Matrix::Int8 { values: rows(&blocks, inputs), zero_point, scale }
        };
        Some(Linear { w, b, inputs, outputs })
    }
}

/// Layer-norm parameters: γ then β (`[2, H]`) and ε.
#[derive(Debug, Clone)]
pub struct Norm {
    pub gamma_beta: Vec<f32>,
    pub eps: f32,
}

/// One encoder layer, Q/K/V fused into one `[H, 3H]` projection.
#[derive(Debug, Clone)]
pub struct Layer {
    pub qkv: Linear,
    pub attn_out: Linear,
    pub ln1: Norm,
    pub ffn_in: Linear,
    pub ffn_out: Linear,
    pub ln2: Norm,
}

/// The activation after a classification head's first dense layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoolerActivation {
    /// BERT's pooler.
    Tanh,
    /// DistilBERT's `pre_classifier`.
    Relu,
    /// ELECTRA's classification head (exact erf GELU).
    Gelu,
}

/// A classification head's first dense layer and its activation.
#[derive(Debug, Clone)]
pub struct Pooler {
    pub linear: Linear,
    pub activation: PoolerActivation,
}

/// What the graph outputs.
#[derive(Debug, Clone)]
pub enum Head {
    /// `logits [B, L]` from [CLS]: optional pooler (dense + activation), then the classifier.
    Classifier { pooler: Option<Pooler>, classifier: Linear },
    /// `last_hidden_state [B, S, H]` (bi-encoders; rerankit mean-pools it).
    States,
}

/// Everything the WebGPU forward pass needs.
#[derive(Debug, Clone)]
pub struct BertWeights {
    pub hidden: usize,
    pub heads: usize,
    pub intermediate: usize,
    pub word: Embedding,
    pub vocab: usize,
    pub position: Vec<f32>,
    pub positions: usize,
    /// Token-type table `[T, H]`, when the graph adds one fed by `token_type_ids`.
    pub token_type: Option<(Vec<f32>, usize)>,
    pub emb_ln: Norm,
    pub layers: Vec<Layer>,
    pub head: Head,
    /// Name of the graph output this reproduces.
    pub output: String,
}

/// The ops (domain, type; `""` is ai.onnx) a graph the mapper reads may hold: the ones it maps to a role, and the
/// shape and mask arithmetic around them that the engine computes its own way (positions, the attention mask,
/// head splitting). Where the BERT engine is the only CPU engine (no tract), any other op is refused when the
/// graph is prepared, so that a layer this mapper does not know (another activation, rotary positions) cannot
/// be stepped over by the structural walk. The set is what every Hub export form the mapper reads holds
/// (tests/inference/bert_engine.rs).
pub const KNOWN_OPS: &[(&str, &str)] = &[
    ("", "Add"),
    ("", "Cast"),
    ("", "Concat"),
    ("", "Constant"),
    ("", "ConstantOfShape"),
    ("", "CumSum"),
    ("", "DequantizeLinear"),
    ("", "Div"),
    ("", "Equal"),
    ("", "Erf"),
    ("", "Expand"),
    ("", "Gather"),
    ("", "Gelu"),
    ("", "Gemm"),
    ("", "Identity"),
    ("", "LayerNormalization"),
    ("", "MatMul"),
    ("", "Mul"),
    ("", "Not"),
    ("", "Pow"),
    ("", "Range"),
    ("", "ReduceMean"),
    ("", "Relu"),
    ("", "Reshape"),
    ("", "Shape"),
    ("", "Slice"),
    ("", "Softmax"),
    ("", "Sqrt"),
    ("", "Squeeze"),
    ("", "Sub"),
    ("", "Tanh"),
    ("", "Transpose"),
    ("", "Unsqueeze"),
    ("", "Where"),
    (row_quantization::DOMAIN, row_quantization::OP_TYPE),
];

/// `UNSUPPORTED` naming the first op of a prepared graph that is not in [`KNOWN_OPS`].
pub fn check_ops(proto: &pb::ModelProto) -> Result<()> {
    let Some(graph) = &proto.graph else { return Ok(()) };
    for node in &graph.node {
        let domain = if node.domain == "ai.onnx" { "" } else { node.domain.as_str() };
        if !KNOWN_OPS.contains(&(domain, node.op_type.as_str())) {
            let domain = if domain.is_empty() { "ai.onnx" } else { domain };
            return Err(Error::unsupported(format!(
                "model: operator {domain}.{} (node {:?}) is not one the BERT engine runs: this module runs BERT-family \
                 encoders only (the `rerankit` package's Node, Deno and browser modules run any graph tract implements)",
                node.op_type, node.name
            )));
        }
    }
    Ok(())
}

fn unsupported(msg: impl std::fmt::Display) -> Error {
    Error::unsupported(format!("the graph is not a BERT-family encoder rerankit maps: {msg}"))
}

/// A node that hands its input on unchanged: `Identity`, or a `Cast` to float32 of a float tensor — what an fp16
/// graph's casts become once widened to fp32 (onnx_import::float16); the mapper never walks integer tensors.
fn passes_through(n: &pb::NodeProto) -> bool {
    n.op_type == "Identity"
        || (n.op_type == "Cast" && n.attribute.iter().any(|a| a.name == "to" && a.i == pb::tensor_proto::DataType::Float as i64))
}

/// Whether `n` has at least the inputs and outputs the walk reads of its op (a corrupt graph may not: such a
/// graph is left to tract, which reports it).
fn has_operands(n: &pb::NodeProto) -> bool {
    let inputs = match n.op_type.as_str() {
        "MatMul" | "Gemm" | "Add" | "Sub" | "Mul" | "Div" | "Pow" | "Gather" | "LayerNormalization" | "Reshape" | "Expand"
        | "DequantizeLinear" | "CumSum" => 2,
        row_quantization::OP_TYPE => 4,
        "Constant" => 0,
        _ => 1,
    };
    n.input.len() >= inputs && !n.output.is_empty()
}

/// The graph, indexed.
struct Graph<'a> {
    producer: HashMap<&'a str, &'a pb::NodeProto>,
    consumers: HashMap<&'a str, Vec<&'a pb::NodeProto>>,
    init: HashMap<&'a str, &'a pb::TensorProto>,
    inputs: Vec<&'a str>,
}

impl<'a> Graph<'a> {
    fn new(g: &'a pb::GraphProto) -> Self {
        let mut producer = HashMap::new();
        let mut consumers: HashMap<&str, Vec<&pb::NodeProto>> = HashMap::new();
        let mut init: HashMap<&str, &pb::TensorProto> = g.initializer.iter().map(|t| (t.name.as_str(), t)).collect();
        for n in &g.node {
            for o in &n.output {
                producer.insert(o.as_str(), n);
            }
            for i in &n.input {
                consumers.entry(i.as_str()).or_default().push(n);
            }
            if n.op_type == "Constant" {
                if let (Some(o), Some(t)) = (n.output.first(), n.attribute.iter().find(|a| a.name == "value").and_then(|a| a.t.as_ref())) {
                    init.insert(o.as_str(), t);
                }
            }
        }
        let inputs = g.input.iter().map(|i| i.name.as_str()).filter(|n| !init.contains_key(n)).collect();
        Graph { producer, consumers, init, inputs }
    }

    fn producer(&self, name: &str) -> Option<&'a pb::NodeProto> {
        self.producer.get(self.source_str(name)).copied()
    }

    /// `name`, looking through `Identity` producers (and casts to float: see [`passes_through`]).
    fn source_str<'b>(&self, name: &'b str) -> &'b str
    where
        'a: 'b,
    {
        let mut name = name;
        while let Some(n) = self.producer.get(name) {
            if passes_through(n) && !n.input.is_empty() {
                name = &n.input[0];
            } else {
                break;
            }
        }
        name
    }

    /// Consumers of `name` that read its values, looking through `Identity` nodes. `Shape` reads only the
    /// dimensions, and torch's exports ask the shape of Q, K and V (for the reshape targets and the SDPA scale)
    /// before using them, so it is no data consumer.
    fn consumers(&self, name: &str) -> Vec<&'a pb::NodeProto> {
        let mut out = Vec::new();
        for n in self.consumers.get(name).map(|v| v.as_slice()).unwrap_or(&[]) {
            if n.op_type == "Shape" {
                continue;
            }
            if passes_through(n) {
                out.extend(self.consumers(&n.output[0]));
            } else {
                out.push(*n);
            }
        }
        out
    }

    fn initializer(&self, name: &str) -> Option<&'a pb::TensorProto> {
        let name = self.source_str(name);
        self.init.get(name).copied()
    }

    /// An initializer as f32 (float32 tensors; `Transpose`d initializers are transposed here).
    fn floats(&self, name: &str) -> Option<(Vec<usize>, Vec<f32>)> {
        if let Some(t) = self.initializer(name) {
            return tensor_f32(t).ok();
        }
        let n = self.producer(name)?;
        if n.op_type == "DequantizeLinear" {
            return self.dequantized(self.initializer(&n.input[0])?, n);
        }
        if n.op_type == "Transpose" {
            let (dims, data) = self.floats(&n.input[0])?;
            if dims.len() == 2 {
                let perm = attr_ints(n, "perm");
                if perm.is_empty() || perm == [1, 0] {
                    return Some((vec![dims[1], dims[0]], transpose(&data, dims[0], dims[1])));
                }
            }
        }
        None
    }

    /// Whether an 8-bit initializer `t` is signed, and the one zero point and scale of `dequantize` (a
    /// `DequantizeLinear` node).
    fn quantization(&self, t: &pb::TensorProto, n: &pb::NodeProto) -> Option<(bool, f32, f32)> {
        let signed = match DataType::try_from(t.data_type).ok()? {
            DataType::Uint8 => false,
            DataType::Int8 => true,
            _ => return None,
        };
        let scale = self.scalar(&n.input[1])?;
        let zero_point = match n.input.get(2).filter(|s| !s.is_empty()) {
            Some(z) => {
                let z = self.initializer(z)?;
                match (z.raw_data.as_slice(), z.int32_data.as_slice()) {
                    ([b], _) => byte_value(*b, signed),
                    ([], [v]) => *v as f32,
                    _ => return None,
                }
            }
            None => 0.0,
        };
        Some((signed, zero_point, scale))
    }

    /// `(t − zero_point) · scale` of an 8-bit initializer `t` with the one scale and zero point of `dequantize`
    /// (a `DequantizeLinear` node), computed as ONNX defines it.
    fn dequantized(&self, t: &pb::TensorProto, n: &pb::NodeProto) -> Option<(Vec<usize>, Vec<f32>)> {
        let (signed, zero_point, scale) = self.quantization(t, n)?;
        let dims: Vec<usize> = t.dims.iter().map(|&d| d.max(0) as usize).collect();
        let values: Vec<f32> = if !t.raw_data.is_empty() {
            t.raw_data.iter().map(|&b| (byte_value(b, signed) - zero_point) * scale).collect()
        } else {
            t.int32_data.iter().map(|&v| (v as f32 - zero_point) * scale).collect()
        };
        (values.len() == dims.iter().product::<usize>()).then_some((dims, values))
    }

    /// The embedding row lookup producing `name`: the `Gather`, its table's dims and values. `quantize_dynamic`
    /// stores tables in 8 bits and dequantises the gathered rows (`DequantizeLinear(Gather(table, ids))`), which
    /// is the dequantised table's rows; such a table stays in 8 bits.
    fn embedding_table(&self, name: &str) -> Option<(&'a pb::NodeProto, Vec<usize>, Embedding)> {
        let n = self.producer(name)?;
        let (gather, dims, table) = match n.op_type.as_str() {
            "Gather" => {
                let (dims, table) = self.floats(&n.input[0])?;
                (n, dims, Embedding::F32(table))
            }
            "DequantizeLinear" => {
                let gather = self.producer(&n.input[0]).filter(|p| p.op_type == "Gather")?;
                let t = self.initializer(&gather.input[0])?;
                let dims: Vec<usize> = t.dims.iter().map(|&d| d.max(0) as usize).collect();
                match self.quantization(t, n)? {
                    (signed, zero_point, scale) if !t.raw_data.is_empty() && t.raw_data.len() == dims.iter().product::<usize>() => {
                        (gather, dims, Embedding::Int8 { values: t.raw_data.clone(), signed, zero_point, scale })
                    }
                    _ => {
                        let (dims, table) = self.dequantized(t, n)?;
                        (gather, dims, Embedding::F32(table))
                    }
                }
            }
            _ => return None,
        };
        (dims.len() == 2 && attr_i(gather, "axis", 0) == 0).then_some((gather, dims, table))
    }

    /// [`Graph::embedding_table`] as floats (the small tables: positions, token types).
    fn embedding(&self, name: &str) -> Option<(&'a pb::NodeProto, Vec<usize>, Vec<f32>)> {
        let (gather, dims, table) = self.embedding_table(name)?;
        let table = match table {
            Embedding::F32(t) => t,
            int8 => {
                let mut t = vec![0.0; int8.len()];
                int8.read(0..t.len(), &mut t);
                t
            }
        };
        Some((gather, dims, table))
    }

    fn scalar(&self, name: &str) -> Option<f32> {
        let (_, v) = self.floats(name)?;
        (v.len() == 1).then(|| v[0])
    }

    /// Whether `name` is produced from graph input `input` through shape-preserving int ops only.
    fn derives_from_input(&self, name: &str, input: &str, depth: usize) -> bool {
        let name = self.source_str(name);
        if name == input {
            return true;
        }
        if depth == 0 {
            return false;
        }
        match self.producer.get(name) {
            Some(n) if matches!(n.op_type.as_str(), "Cast" | "Unsqueeze" | "Squeeze" | "Reshape" | "Expand") => {
                self.derives_from_input(&n.input[0], input, depth - 1)
            }
            _ => false,
        }
    }

    /// Whether anything upstream of `name` (within `depth` nodes) is an op of type `op`.
    fn upstream_has(&self, name: &str, op: &str, depth: usize) -> bool {
        if depth == 0 {
            return false;
        }
        match self.producer(name) {
            Some(n) => n.op_type == op || n.input.iter().any(|i| self.upstream_has(i, op, depth - 1)),
            None => false,
        }
    }
}

fn attr<'n>(n: &'n pb::NodeProto, name: &str) -> Option<&'n pb::AttributeProto> {
    n.attribute.iter().find(|a| a.name == name)
}

fn attr_ints(n: &pb::NodeProto, name: &str) -> Vec<i64> {
    attr(n, name).map(|a| a.ints.clone()).unwrap_or_default()
}

fn attr_i(n: &pb::NodeProto, name: &str, default: i64) -> i64 {
    attr(n, name).map(|a| a.i).unwrap_or(default)
}

fn transpose(data: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut out = vec![0f32; data.len()];
    for r in 0..rows {
        for c in 0..cols {
            out[c * rows + r] = data[r * cols + c];
        }
    }
    out
}

/// A float32 initializer's dims and values.
fn tensor_f32(t: &pb::TensorProto) -> Result<(Vec<usize>, Vec<f32>)> {
    const FLOAT: i32 = 1;
    if t.data_type != FLOAT {
        return Err(unsupported(format!("initializer {:?} has ONNX data type {} (float32 needed)", t.name, t.data_type)));
    }
    if t.data_location == Some(1) {
        return Err(unsupported(format!("initializer {:?} uses external data", t.name)));
    }
    let dims: Vec<usize> = t.dims.iter().map(|&d| d.max(0) as usize).collect();
    let n: usize = dims.iter().product();
    let data = if !t.raw_data.is_empty() {
        t.raw_data.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect::<Vec<_>>()
    } else {
        t.float_data.clone()
    };
    if data.len() != n {
        return Err(Error::model_load(format!("initializer {:?}: {} values for dims {:?}", t.name, data.len(), dims)));
    }
    Ok((dims, data))
}

/// `(node, index of the other input)` when `node` is binary and one input is `x`.
fn other_input<'n>(node: &'n pb::NodeProto, x: &str, g: &Graph) -> Option<&'n str> {
    if node.input.len() != 2 {
        return None;
    }
    if g.source_str(&node.input[0]) == x {
        Some(&node.input[1])
    } else if g.source_str(&node.input[1]) == x {
        Some(&node.input[0])
    } else {
        None
    }
}

/// A linear layer applied to `x` by `node` (a `MatMul` with a constant weight, followed by `Add` of a constant
/// bias, or a `Gemm`): the layer and the name of its output.
fn linear_from(g: &Graph, node: &pb::NodeProto, x: &str) -> Option<(Linear, String)> {
    match node.op_type.as_str() {
        "MatMul" if g.source_str(&node.input[0]) == x => {
            let (dims, w) = g.floats(&node.input[1])?;
            if dims.len() != 2 {
                return None;
            }
            let out = &node.output[0];
            // bias Add (optional)
            let adds = g.consumers(out);
            let bias_add = adds.iter().find(|n| {
                n.op_type == "Add" && other_input(n, out, g).and_then(|o| g.floats(o)).is_some_and(|(d, _)| d == [dims[1]])
            });
            let (b, y) = match bias_add {
                Some(a) => (g.floats(other_input(a, out, g)?)?.1, a.output[0].clone()),
                None => (vec![0.0; dims[1]], out.clone()),
            };
            Some((Linear { w: Matrix::F32(w), b, inputs: dims[0], outputs: dims[1] }, y))
        }
        "Gemm" if g.source_str(&node.input[0]) == x => {
            if attr_i(node, "transA", 0) != 0 {
                return None;
            }
            let (dims, w) = g.floats(&node.input[1])?;
            if dims.len() != 2 {
                return None;
            }
            let alpha = attr(node, "alpha").map(|a| a.f).unwrap_or(1.0);
            let beta = attr(node, "beta").map(|a| a.f).unwrap_or(1.0);
            let (mut w, k, n) = if attr_i(node, "transB", 0) != 0 {
                (transpose(&w, dims[0], dims[1]), dims[1], dims[0])
            } else {
                (w, dims[0], dims[1])
            };
            if alpha != 1.0 {
                w.iter_mut().for_each(|v| *v *= alpha);
            }
            let mut b = match node.input.get(2) {
                Some(c) if !c.is_empty() => g.floats(c)?.1,
                _ => vec![0.0; n],
            };
            if b.len() != n {
                return None;
            }
            b.iter_mut().for_each(|v| *v *= beta);
            Some((Linear { w: Matrix::F32(w), b, inputs: k, outputs: n }, node.output[0].clone()))
        }
        row_quantization::OP_TYPE if node.domain == row_quantization::DOMAIN && g.source_str(&node.input[0]) == x => {
            let optional = |i: usize| node.input.get(i).filter(|s| !s.is_empty());
            let weights = g.initializer(&node.input[1])?;
            let (k, n) = match weights.dims[..] {
                [k, n] if k > 0 && n > 0 => (k as usize, n as usize),
                _ => return None,
            };
            let integers = |t: &pb::TensorProto| -> Option<Vec<i32>> {
                match DataType::try_from(t.data_type).ok()? {
                    DataType::Uint8 if !t.raw_data.is_empty() => Some(t.raw_data.iter().map(|&v| v as i32).collect()),
                    DataType::Int8 if !t.raw_data.is_empty() => Some(t.raw_data.iter().map(|&v| v as i8 as i32).collect()),
                    DataType::Uint8 | DataType::Int8 => Some(t.int32_data.clone()),
                    _ => None,
                }
            };
            let stored = integers(weights)?;
            let stored_zero_point = match optional(2) {
                Some(z) => per_column(integers(g.initializer(z)?)?, n)?,
                None => vec![0; n],
            };
            let unsigned = weights.data_type == DataType::Uint8 as i32;
            let (values, zero_point) = row_quantization::gemm::to_signed(&stored, stored_zero_point, unsigned);
            if values.len() != k * n {
                return None;
            }
            let scale = per_column(g.floats(&node.input[3])?.1, n)?;
            let b = match optional(4) {
                Some(b) => per_column(g.floats(b)?.1, n)?,
                None => vec![0.0; n],
            };
            Some((Linear { w: Matrix::Int8 { values, zero_point, scale }, b, inputs: k, outputs: n }, node.output[0].clone()))
        }
        _ => None,
    }
}

/// Linear layers reading `x`.
fn linears_of(g: &Graph, x: &str) -> Vec<(Linear, String, String)> {
    g.consumers(x)
        .into_iter()
        .filter_map(|n| linear_from(g, n, x).map(|(l, y)| (l, y, n.output[0].clone())))
        .collect()
}

/// The layer norm applied to `x` (fused or decomposed): parameters and output name.
fn layer_norm_of(g: &Graph, x: &str) -> Option<(Norm, String)> {
    let consumers = g.consumers(x);
    if let Some(n) = consumers.iter().find(|n| n.op_type == "LayerNormalization" && g.source_str(&n.input[0]) == x) {
        let axis = attr_i(n, "axis", -1);
        if axis != -1 && axis != 2 {
            return None;
        }
        let eps = attr(n, "epsilon").map(|a| a.f).unwrap_or(1e-5);
        let (_, gamma) = g.floats(&n.input[1])?;
        let beta = match n.input.get(2) {
            Some(b) if !b.is_empty() => g.floats(b)?.1,
            _ => vec![0.0; gamma.len()],
        };
        return Some((Norm { gamma_beta: [gamma, beta].concat(), eps }, n.output[0].clone()));
    }
    // decomposed: Sub(x, ReduceMean(x)) → Div(d, Sqrt(Add(ReduceMean(Pow(d, 2)), ε))) → Mul γ → Add β
    let mean = consumers.iter().find(|n| n.op_type == "ReduceMean")?;
    let sub = consumers.iter().find(|n| {
        n.op_type == "Sub" && g.source_str(&n.input[0]) == x && g.source_str(&n.input[1]) == mean.output[0]
    })?;
    let d = &sub.output[0];
    let div = g.consumers(d).into_iter().find(|n| n.op_type == "Div" && g.source_str(&n.input[0]) == d)?;
    let sqrt = g.producer(&div.input[1]).filter(|n| n.op_type == "Sqrt")?;
    let add_eps = g.producer(&sqrt.input[0]).filter(|n| n.op_type == "Add")?;
    let eps = add_eps.input.iter().find_map(|i| g.scalar(i))?;
    let var = add_eps.input.iter().find_map(|i| g.producer(i).filter(|n| n.op_type == "ReduceMean"))?;
    let pow = g.producer(&var.input[0]).filter(|n| n.op_type == "Pow" || n.op_type == "Mul")?;
    if g.source_str(&pow.input[0]) != d {
        return None;
    }
    let mul = g.consumers(&div.output[0]).into_iter().find(|n| n.op_type == "Mul")?;
    let gamma = g.floats(other_input(mul, &div.output[0], g)?)?.1;
    let add = g.consumers(&mul.output[0]).into_iter().find(|n| n.op_type == "Add")?;
    let beta = g.floats(other_input(add, &mul.output[0], g)?)?.1;
    if gamma.len() != beta.len() {
        return None;
    }
    Some((Norm { gamma_beta: [gamma, beta].concat(), eps }, add.output[0].clone()))
}

/// The exact GELU applied to `x`: its output name (`Gelu` op, or `x · ½(1 + erf(x/√2))` in any operand order).
fn gelu_of(g: &Graph, x: &str) -> Result<String> {
    let consumers = g.consumers(x);
    if let Some(n) = consumers.iter().find(|n| n.op_type == "Gelu") {
        if attr(n, "approximate").is_some_and(|a| a.s != b"none") {
            return Err(unsupported("tanh-approximated GELU is not supported (only exact erf GELU)"));
        }
        return Ok(n.output[0].clone());
    }
    // √2 to fp16 precision (2⁻¹⁰ relative): fp16 exports store it as 1.4140625
    let near = |s: f32, want: f32| (s - want).abs() <= 2e-3 * want;
    let scaled = consumers.iter().find(|n| {
        (n.op_type == "Div" && g.scalar(&n.input[1]).is_some_and(|s| near(s, std::f32::consts::SQRT_2)))
            || (n.op_type == "Mul" && other_input(n, x, g).and_then(|o| g.scalar(o)).is_some_and(|s| near(s, std::f32::consts::FRAC_1_SQRT_2)))
    });
    let Some(scaled) = scaled else {
        if consumers.iter().any(|n| n.op_type == "Tanh" || n.op_type == "Pow") || g.consumers(x).iter().any(|n| n.op_type == "Mul") {
            return Err(unsupported("the FFN activation is not exact erf GELU (tanh approximation or another activation)"));
        }
        return Err(unsupported("no GELU after the FFN input projection"));
    };
    let erf = g.consumers(&scaled.output[0]).into_iter().find(|n| n.op_type == "Erf").ok_or_else(|| unsupported("GELU without Erf"))?;
    let plus1 = g.consumers(&erf.output[0]).into_iter().find(|n| n.op_type == "Add").ok_or_else(|| unsupported("GELU: no Add 1"))?;
    // remaining: Mul by x and Mul by ½, in either order (x·(1+erf))·½, (½x)·(1+erf), …
    let mut out = plus1.output[0].clone();
    let mut seen_x = false;
    let mut seen_half = false;
    for _ in 0..2 {
        let m = g.consumers(&out).into_iter().find(|n| n.op_type == "Mul").ok_or_else(|| unsupported("GELU: missing Mul"))?;
        let other = other_input(m, &out, g).unwrap_or_default();
        if g.source_str(other) == x {
            seen_x = true;
        } else if g.scalar(other).is_some_and(|s| (s - 0.5).abs() < 1e-6) {
            seen_half = true;
        } else if let Some(p) = g.producer(other).filter(|p| p.op_type == "Mul") {
            // (x · ½) computed first
            if other_input(p, x, g).and_then(|o| g.scalar(o)).is_some_and(|s| (s - 0.5).abs() < 1e-6) {
                seen_x = true;
                seen_half = true;
            }
        }
        out = m.output[0].clone();
        if seen_x && seen_half {
            return Ok(out);
        }
    }
    Err(unsupported("GELU: unrecognised Mul structure"))
}

/// Where a projection's output ends up in the attention block: ("q" | "k" | "v", the attention output name).
fn attention_role(g: &Graph, y: &str) -> Option<(char, String)> {
    let mut cur = y.to_string();
    for _ in 0..8 {
        let cons = g.consumers(&cur);
        let n = *cons.first()?;
        match n.op_type.as_str() {
            "Reshape" | "Transpose" | "Div" | "Mul" | "Squeeze" | "Unsqueeze" => cur = n.output[0].clone(),
            "MatMul" => {
                let idx = n.input.iter().position(|i| g.source_str(i) == cur).filter(|&i| i < 2)?;
                let other = &n.input[1 - idx];
                if idx == 1 && g.upstream_has(other, "Softmax", 3) {
                    return Some(('v', n.output[0].clone()));
                }
                // scores MatMul: find the Softmax downstream, then the context MatMul
                let mut s = n.output[0].clone();
                for _ in 0..6 {
                    let c = g.consumers(&s);
                    let m = *c.first()?;
                    if m.op_type == "Softmax" {
                        let ctx = g.consumers(&m.output[0]).into_iter().find(|x| x.op_type == "MatMul")?;
                        return Some((if idx == 0 { 'q' } else { 'k' }, ctx.output[0].clone()));
                    }
                    s = m.output[0].clone();
                }
                return None;
            }
            _ => return None,
        }
    }
    None
}

/// `padding_idx` of RoBERTa's position ids `cumsum(mask)·mask + padding_idx`: the integer constant added last
/// (looking through casts).
fn roberta_padding_idx(g: &Graph, ids: &str) -> Option<usize> {
    let mut name = ids.to_string();
    for _ in 0..4 {
        let n = g.producer(&name)?;
        match n.op_type.as_str() {
            "Cast" => name = n.input[0].clone(),
            "Add" => {
                return n.input.iter().find_map(|i| {
                    let t = g.initializer(i)?;
                    let v = if !t.int64_data.is_empty() {
                        *t.int64_data.first()?
                    } else if t.data_type == pb::tensor_proto::DataType::Int64 as i32 && t.raw_data.len() == 8 {
                        i64::from_le_bytes(t.raw_data[..8].try_into().ok()?)
                    } else if t.data_type == pb::tensor_proto::DataType::Int32 as i32 && t.raw_data.len() == 4 {
                        i32::from_le_bytes(t.raw_data[..4].try_into().ok()?) as i64
                    } else {
                        return None;
                    };
                    usize::try_from(v).ok()
                });
            }
            _ => return None,
        }
    }
    None
}

/// The input `d` of an erf GELU whose output is `y` (found through the `Erf` upstream of `y`, then checked by
/// [`gelu_of`] reading forward from `d`).
fn gelu_input(g: &Graph, y: &str) -> Option<String> {
    let mut frontier = vec![g.source_str(y).to_string()];
    for _ in 0..4 {
        let mut next = Vec::new();
        for name in &frontier {
            let n = g.producer(name)?;
            if n.op_type == "Erf" {
                let scale = g.producer(&n.input[0])?;
                let d = scale.input.iter().find(|i| g.scalar(i).is_none())?;
                let d = g.source_str(d).to_string();
                return (gelu_of(g, &d).ok().as_deref() == Some(g.source_str(y))).then_some(d);
            }
            if matches!(n.op_type.as_str(), "Mul" | "Add") {
                next.extend(n.input.iter().filter(|i| g.scalar(i).is_none()).cloned());
            }
        }
        frontier = next;
    }
    None
}

/// Follows the context tensor through Transpose/Reshape to the output projection.
fn merged_heads(g: &Graph, ctx: &str) -> Option<String> {
    let mut cur = ctx.to_string();
    for _ in 0..4 {
        let cons = g.consumers(&cur);
        let n = *cons.first()?;
        if matches!(n.op_type.as_str(), "Transpose" | "Reshape") {
            cur = n.output[0].clone();
        } else {
            return Some(cur);
        }
    }
    Some(cur)
}

/// `Add(a, hidden)` of the residual: its output.
fn residual_add(g: &Graph, a: &str, residual: &str) -> Option<String> {
    g.consumers(a)
        .into_iter()
        .find(|n| n.op_type == "Add" && other_input(n, a, g).is_some_and(|o| g.source_str(o) == residual))
        .map(|n| n.output[0].clone())
}

impl BertWeights {
    /// Whether the linear layers or the word-embedding table hold 8-bit weights.
    pub fn is_quantised(&self) -> bool {
        self.layers.iter().any(|l| matches!(l.qkv.w, Matrix::Int8 { .. })) || matches!(self.word, Embedding::Int8 { .. })
    }

    /// The weights of a prepared model up to `output`'s graph output; the head count comes from `config.json`
    /// when it names one.
    pub fn of_model(model: &PreparedModel<'_>, output: Output) -> Result<Self> {
        let config = model.config.map(parse_config).transpose()?;
        Self::from_onnx(&model.graph, output.graph_output(), config.as_ref().and_then(attention_heads))
    }

    /// Maps the graph's initializers to BERT roles (see the module docs). `output`: the graph output to
    /// reproduce (`logits` or `last_hidden_state`); `heads`: `config.json`'s `num_attention_heads`, if known.
    pub fn from_onnx(proto: &pb::ModelProto, output: &str, heads: Option<usize>) -> Result<Self> {
        let graph = proto.graph.as_ref().ok_or_else(|| Error::model_load("model: the ONNX file has no graph"))?;
        if let Some(n) = graph.node.iter().find(|n| matches!(n.op_type.as_str(), "MatMulInteger" | "DynamicQuantizeLinear" | "QLinearMatMul" | "MatMulNBits")) {
            return Err(unsupported(format!("a quantised product ({}) that is not onnxruntime's dynamic-quantisation chain", n.op_type)));
        }
        if let Some(n) = graph.node.iter().find(|n| !has_operands(n)) {
            return Err(unsupported(format!("node {:?} ({}) lacks inputs or outputs its op has", n.name, n.op_type)));
        }
        let g = Graph::new(graph);
        let input_ids = *g.inputs.iter().find(|i| **i == "input_ids").ok_or_else(|| unsupported("no input_ids input"))?;
        let type_input = g.inputs.iter().find(|i| matches!(**i, "token_type_ids" | "segment_ids")).copied();

        // --- embeddings
        let (mut cur, wd, word) = graph
            .node
            .iter()
            .filter(|n| n.op_type == "Gather" && g.derives_from_input(&n.input[1], input_ids, 4))
            .flat_map(|n| {
                // the gathered rows, or their dequantised values
                let dequantized = g.consumers(&n.output[0]).into_iter().filter(|c| c.op_type == "DequantizeLinear");
                std::iter::once(&n.output[0]).chain(dequantized.map(|c| &c.output[0]))
            })
            .find_map(|out| g.embedding_table(out).map(|(_, dims, table)| (out.clone(), dims, table)))
            .ok_or_else(|| unsupported("no word-embedding Gather fed by input_ids"))?;
        let (vocab, hidden) = (wd[0], wd[1]);
        let mut position = None;
        let mut token_type = None;
        let (emb_ln, h) = loop {
            if let Some(ln) = layer_norm_of(&g, &cur) {
                break ln;
            }
            let add = g.consumers(&cur).into_iter().find(|n| n.op_type == "Add").ok_or_else(|| unsupported("embeddings: no layer norm after the embedding sum"))?;
            let other = other_input(add, &cur, &g).ok_or_else(|| unsupported("embeddings: unexpected Add"))?;
            let (gather, d, table) = g.embedding(other).ok_or_else(|| unsupported("embeddings: an Add operand is not a lookup in a constant table"))?;
            if d[1] != hidden {
                return Err(unsupported("embeddings: table width differs from the hidden size"));
            }
            if type_input.is_some_and(|t| g.derives_from_input(&gather.input[1], t, 4)) {
                token_type = Some((table, d[0]));
            } else if g.upstream_has(&gather.input[1], "CumSum", 8) {
                // RoBERTa: position = cumsum(ids ≠ pad)·(ids ≠ pad) + padding_idx, so token t of a right-padded
                // row sits at padding_idx + 1 + t: the table from that row on is indexed by t like BERT's (padding
                // tokens land elsewhere, but they are masked out of every real token's attention)
                let offset = roberta_padding_idx(&g, &gather.input[1])
                    .ok_or_else(|| unsupported("position ids computed from the mask (RoBERTa-style CumSum) without a constant padding_idx"))?
                    + 1;
                if offset >= d[0] {
                    return Err(unsupported("embeddings: the position table is shorter than its padding offset"));
                }
                // a constant-index gather met before this one (RoBERTa adds token types first) was the type table
                if let Some(earlier) = position.replace((table[offset * hidden..].to_vec(), d[0] - offset)) {
                    token_type = Some(earlier);
                }
            } else if position.is_none() {
                position = Some((table, d[0]));
            } else {
                // a constant-index token-type gather (graphs without token_type_ids): row 0 of it
                token_type = Some((table, d[0]));
            }
            cur = add.output[0].clone();
        };
        let (position, positions) = position.ok_or_else(|| unsupported("embeddings: no position-embedding Gather"))?;
        if type_input.is_none() {
            if let Some((t, _)) = token_type.take() {
                // no token_type_ids input: the graph adds a constant row (type 0); fold it into the positions
                let mut p = position.clone();
                for r in 0..positions {
                    for i in 0..hidden {
                        p[r * hidden + i] += t[i];
                    }
                }
                return Self::encoder(&g, proto, output, heads, hidden, word, vocab, (p, positions), None, emb_ln, h);
            }
        }
        Self::encoder(&g, proto, output, heads, hidden, word, vocab, (position, positions), token_type, emb_ln, h)
    }

    #[allow(clippy::too_many_arguments)]
    fn encoder(
        g: &Graph,
        _proto: &pb::ModelProto,
        output: &str,
        heads: Option<usize>,
        hidden: usize,
        word: Embedding,
        vocab: usize,
        position: (Vec<f32>, usize),
        token_type: Option<(Vec<f32>, usize)>,
        emb_ln: Norm,
        mut h: String,
    ) -> Result<Self> {
        let mut layers = Vec::new();
        let mut heads_found = heads;
        let mut intermediate = 0;
        loop {
            let projections: Vec<_> = linears_of(g, &h).into_iter().filter(|(l, _, _)| l.inputs == hidden && l.outputs == hidden).collect();
            if projections.len() < 3 {
                break;
            }
            let layer_no = layers.len();
            let ctx_err = || unsupported(format!("layer {layer_no}: attention block not recognised"));
            let (mut q, mut k, mut v, mut ctx) = (None, None, None, None);
            for (l, y, mm) in projections {
                match attention_role(g, &y) {
                    Some(('q', c)) => {
                        q = Some(l);
                        ctx = Some(c);
                        if heads_found.is_none() {
                            heads_found = heads_from_reshape(g, &y, hidden);
                        }
                    }
                    Some(('k', _)) => k = Some(l),
                    Some(('v', c)) => {
                        v = Some(l);
                        ctx = Some(c);
                    }
                    _ => {
                        let _ = mm;
                    }
                }
            }
            let (q, k, v, ctx) = (q.ok_or_else(ctx_err)?, k.ok_or_else(ctx_err)?, v.ok_or_else(ctx_err)?, ctx.ok_or_else(ctx_err)?);
            let merged = merged_heads(g, &ctx).ok_or_else(ctx_err)?;
            let (attn_out, a) = linears_of(g, &merged).into_iter().next().map(|(l, y, _)| (l, y)).ok_or_else(ctx_err)?;
            let r1 = residual_add(g, &a, &h).ok_or_else(|| unsupported(format!("layer {layer_no}: no residual after attention")))?;
            let (ln1, h1) = layer_norm_of(g, &r1).ok_or_else(|| unsupported(format!("layer {layer_no}: no layer norm after attention")))?;
            let (ffn_in, f) = linears_of(g, &h1)
                .into_iter()
                .find(|(l, _, _)| l.inputs == hidden)
                .map(|(l, y, _)| (l, y))
                .ok_or_else(|| unsupported(format!("layer {layer_no}: no FFN")))?;
            let act = gelu_of(g, &f)?;
            let (ffn_out, o) = linears_of(g, &act).into_iter().next().map(|(l, y, _)| (l, y)).ok_or_else(|| unsupported(format!("layer {layer_no}: no FFN output projection")))?;
            let r2 = residual_add(g, &o, &h1).ok_or_else(|| unsupported(format!("layer {layer_no}: no residual after the FFN")))?;
            let (ln2, h2) = layer_norm_of(g, &r2).ok_or_else(|| unsupported(format!("layer {layer_no}: no layer norm after the FFN")))?;
            if ffn_out.inputs != ffn_in.outputs || ffn_out.outputs != hidden || attn_out.inputs != hidden || attn_out.outputs != hidden {
                return Err(unsupported(format!("layer {layer_no}: projection shapes do not fit")));
            }
            intermediate = ffn_in.outputs;
            let qkv = Linear::side_by_side([q, k, v]).ok_or_else(|| unsupported(format!("layer {layer_no}: Q, K and V are not stored alike")))?;
            layers.push(Layer { qkv, attn_out, ln1, ffn_in, ffn_out, ln2 });
            h = h2;
        }
        if layers.is_empty() {
            return Err(unsupported("no transformer layer recognised (not a BERT-family encoder)"));
        }
        let heads = heads_found.ok_or_else(|| unsupported("cannot tell the number of attention heads (give config.json)"))?;
        if heads == 0 || hidden % heads != 0 {
            return Err(unsupported(format!("{heads} heads do not divide hidden size {hidden}")));
        }
        let head = if output == "logits" {
            head_of(g, output, &h, hidden)?
        } else {
            let out = g.source_str(output);
            if out != h {
                return Err(unsupported(format!("{output} is not the last encoder layer's output")));
            }
            Head::States
        };
        let (position, positions) = position;
        let weights = BertWeights {
            hidden,
            heads,
            intermediate,
            word,
            vocab,
            position,
            positions,
            token_type,
            emb_ln,
            layers,
            head,
            output: output.to_string(),
        };
        weights.check_sizes()?;
        Ok(weights)
    }

    /// `MODEL_LOAD` unless every table, norm and matrix has the size its role needs (a corrupt graph can pass
    /// the structural walk with a table or norm of another width).
    fn check_sizes(&self) -> Result<()> {
        let h = self.hidden;
        let table = |t: &[f32], rows: usize| rows > 0 && t.len() == rows * h;
        let norm = |n: &Norm| n.gamma_beta.len() == 2 * h;
        let linear = |l: &Linear, inputs: usize, outputs: usize| {
            let w = match &l.w {
                Matrix::F32(w) => w.len(),
                Matrix::Int8 { values, zero_point, scale } => {
                    if zero_point.len() != outputs || scale.len() != outputs {
                        return false;
                    }
                    values.len()
                }
            };
            l.inputs == inputs && l.outputs == outputs && outputs > 0 && w == inputs * outputs && l.b.len() == outputs
        };
        let i = self.intermediate;
        let layers = self.layers.iter().all(|l| {
            linear(&l.qkv, h, 3 * h) && linear(&l.attn_out, h, h) && linear(&l.ffn_in, h, i) && linear(&l.ffn_out, i, h) && norm(&l.ln1) && norm(&l.ln2)
        });
        let head = match &self.head {
            Head::Classifier { pooler, classifier } => {
                pooler.as_ref().is_none_or(|p| linear(&p.linear, h, h)) && linear(classifier, h, classifier.outputs)
            }
            Head::States => true,
        };
        let types = self.token_type.as_ref().is_none_or(|(t, rows)| table(t, *rows));
        if h > 0 && self.vocab > 0 && self.word.len() == self.vocab * h && table(&self.position, self.positions) && types && norm(&self.emb_ln) && layers && head {
            Ok(())
        } else {
            Err(Error::model_load("model: a BERT weight has the wrong size for its role (corrupt graph)"))
        }
    }
}

/// Heads from the `Reshape [0, 0, heads, head_dim]` after a projection.
fn heads_from_reshape(g: &Graph, y: &str, hidden: usize) -> Option<usize> {
    let n = g.consumers(y).into_iter().find(|n| n.op_type == "Reshape")?;
    let t = g.initializer(&n.input[1])?;
    let shape: Vec<i64> = if !t.raw_data.is_empty() {
        t.raw_data.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap())).collect()
    } else {
        t.int64_data.clone()
    };
    match shape.as_slice() {
        [_, _, heads, d] if *heads > 0 && *d > 0 && (*heads * *d) as usize == hidden => Some(*heads as usize),
        [_, _, heads, -1] if *heads > 0 => Some(*heads as usize),
        [_, _, -1, d] if *d > 0 => Some(hidden / *d as usize),
        _ => None,
    }
}

/// One value per column of `n`: `v` itself, or its single value repeated.
fn per_column<T: Copy>(v: Vec<T>, n: usize) -> Option<Vec<T>> {
    match v.len() {
        1 => Some(vec![v[0]; n]),
        len if len == n => Some(v),
        _ => None,
    }
}

/// A node that multiplies its first input by a weight matrix.
fn is_product(n: &pb::NodeProto) -> bool {
    matches!(n.op_type.as_str(), "MatMul" | "Gemm" | row_quantization::OP_TYPE)
}

/// The classifier head, read backwards from `output`.
fn head_of(g: &Graph, output: &str, last: &str, hidden: usize) -> Result<Head> {
    let err = || unsupported("the logits head is not [CLS] → (dense + tanh/ReLU/GELU →) linear");
    // walk back from logits to the classifier's linear
    let y = g.source_str(output).to_string();
    let add_or_gemm = g.producer(&y).ok_or_else(err)?;
    let x = match add_or_gemm.op_type.as_str() {
        "Gemm" => add_or_gemm.input[0].clone(),
        "Add" => {
            let mm = add_or_gemm.input.iter().find_map(|i| g.producer(i).filter(|n| n.op_type == "MatMul")).ok_or_else(err)?;
            mm.input[0].clone()
        }
        "MatMul" | row_quantization::OP_TYPE => add_or_gemm.input[0].clone(),
        _ => return Err(err()),
    };
    let x = g.source_str(&x).to_string();
    let producer = g.producer(&x).ok_or_else(err)?;
    let mm_node = g.consumers(&x).into_iter().find(|n| is_product(n)).ok_or_else(err)?;
    let (classifier, _) = linear_from(g, mm_node, &x).ok_or_else(err)?;
    let activation = match producer.op_type.as_str() {
        "Tanh" => Some((PoolerActivation::Tanh, g.source_str(&producer.input[0]).to_string())),
        "Relu" => Some((PoolerActivation::Relu, g.source_str(&producer.input[0]).to_string())),
        _ => gelu_input(g, &x).map(|d| (PoolerActivation::Gelu, d)),
    };
    let (pooler, cls) = if let Some((activation, t_in)) = activation {
        let p = g.producer(&t_in).ok_or_else(err)?;
        let px = match p.op_type.as_str() {
            "Gemm" | "MatMul" | row_quantization::OP_TYPE => p.input[0].clone(),
            "Add" => p.input.iter().find_map(|i| g.producer(i).filter(|n| n.op_type == "MatMul")).ok_or_else(err)?.input[0].clone(),
            _ => return Err(err()),
        };
        let px = g.source_str(&px).to_string();
        let pm = g.consumers(&px).into_iter().find(|n| is_product(n)).ok_or_else(err)?;
        let (linear, _) = linear_from(g, pm, &px).ok_or_else(err)?;
        (Some(Pooler { linear, activation }), px)
    } else {
        (None, x)
    };
    // cls must be token 0 of the last hidden state
    let sel = g.producer(&cls).ok_or_else(err)?;
    let is_first_token = match sel.op_type.as_str() {
        "Gather" => {
            attr_i(sel, "axis", 0) == 1
                && g.source_str(&sel.input[0]) == last
                && g.initializer(&sel.input[1]).is_some_and(|t| t.int64_data.iter().all(|&v| v == 0) && t.raw_data.iter().all(|&b| b == 0))
        }
        "Squeeze" | "Reshape" => {
            let s = g.producer(&sel.input[0]).ok_or_else(err)?;
            s.op_type == "Slice" && g.source_str(&s.input[0]) == last
        }
        _ => false,
    };
    if !is_first_token {
        return Err(err());
    }
    if classifier.inputs != hidden || pooler.as_ref().is_some_and(|p| p.linear.inputs != hidden || p.linear.outputs != hidden) {
        return Err(err());
    }
    Ok(Head::Classifier { pooler, classifier })
}
