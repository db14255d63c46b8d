//! BERT-family encoders (BERT, MiniLM, DistilBERT, ELECTRA, RoBERTa / XLM-R) run from their weights, without a
//! general graph engine: [`weights`] maps an ONNX graph's initializers to their roles by structure,
//! [`forward`] runs them on the CPU ([`f32_gemm`] for float weights, `row_quantization::gemm` for int8,
//! `elementwise` for softmax, GELU and layer norm), and
//! `webgpu::model` on the GPU.

mod elementwise;
pub mod f32_gemm;
pub mod forward;
pub mod plan;
pub mod weights;

pub use forward::CpuBert;
pub use weights::{BertWeights, Head, Layer, Linear, Matrix, Norm, Pooler, PoolerActivation};
