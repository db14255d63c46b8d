//! Which CPU engine runs a graph: tract's plan ([`tract_plan`](super::tract_plan), any graph tract implements) or
//! the BERT engine ([`bert::plan`](super::bert::plan), BERT-family encoders from their mapped weights), behind one
//! interface — build from a prepared graph, `run` a padded batch, `rows_alone`, `output_dims`.
//!
//! - Without tract (the Workers module), the BERT engine.
//! - In wasm with relaxed SIMD, the BERT engine for every graph it maps, else tract: there it is the faster of the
//!   two (in Chromium, per thread, ce-probe against onnxruntime-web: fp32 1.60–1.72× where tract gave 1.37–1.40×,
//!   int8 1.71–1.72× where tract gave 1.61–1.63×; docs/benchmarks.md).
//! - Elsewhere tract: natively it has AVX kernels the BERT engine lacks, and in the SIMD128 module its bits are the
//!   model path's golden answers (tests/node/rerank_golden.test.mjs).

use super::batching::Batch;
use super::bert::plan::BertPlan;
use super::bert::BertWeights;
use super::memory_budget;
use super::model_info::ModelInfo;
use super::onnx_import::pb;
#[cfg(feature = "tract")]
use super::tract_plan::TractPlan;
use crate::Result;

/// A model's CPU plan.
#[derive(Debug, Clone)]
pub enum CpuPlan {
    #[cfg(feature = "tract")]
    Tract(TractPlan),
    Bert(BertPlan),
}

impl CpuPlan {
    /// Builds the plan for output `output` of a prepared graph (`onnx_import::prepare`) described by `info`.
    pub fn new(proto: pb::ModelProto, info: &ModelInfo, output: &str) -> Result<Self> {
        if !info.outputs.iter().any(|o| o == output) {
            return Err(crate::Error::model_load(format!("model: no output named {output:?} (the graph outputs {:?})", info.outputs)));
        }
        let heads = info.config_attention_heads;
        #[cfg(not(feature = "tract"))]
        let weights = BertWeights::from_onnx(&proto, output, heads)?;
        #[cfg(feature = "tract")]
        let weights = match cfg!(all(target_arch = "wasm32", feature = "relaxed-simd")).then(|| BertWeights::from_onnx(&proto, output, heads)) {
            Some(Ok(weights)) => weights,
            // a graph the mapper does not read (or reads as corrupt) is tract's to run or refuse
            _ => return TractPlan::new(proto, info, output).map(CpuPlan::Tract),
        };
        // the graph's tensors were copied into the weights: freed before packing, they do not add to the load's peak
        drop(proto);
        Ok(CpuPlan::Bert(BertPlan::new(weights)))
    }

    /// Whether a batch's rows run one at a time, unpadded.
    pub fn rows_alone(&self) -> bool {
        match self {
            #[cfg(feature = "tract")]
            CpuPlan::Tract(p) => p.rows_alone(),
            CpuPlan::Bert(p) => p.rows_alone(),
        }
    }

    /// The output's dimensions, `None` for the symbolic ones (batch, sequence).
    pub fn output_dims(&self) -> &[Option<usize>] {
        match self {
            #[cfg(feature = "tract")]
            CpuPlan::Tract(p) => &p.output_dims,
            CpuPlan::Bert(p) => &p.output_dims,
        }
    }

    /// Runs one padded batch: the output as `f32` with its shape `[rows, …]`.
    pub fn run(&self, batch: &Batch) -> Result<(Vec<usize>, Vec<f32>)> {
        let _work = memory_budget::ModelWork::begin();
        match self {
            #[cfg(feature = "tract")]
            CpuPlan::Tract(p) => p.run(batch),
            CpuPlan::Bert(p) => p.run(batch),
        }
    }
}
