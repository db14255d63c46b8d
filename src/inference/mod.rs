//! Cross-encoder reranking and bi-encoder embeddings on the CPU, through tract (natively and in wasm).
//!
//! A model is loaded once into a typed, optimised tract plan and reused:
//!
//! - [`model_info`]: what the ONNX graph takes and gives (inputs, `logits`, embedding table sizes, window).
//! - [`tokenization`]: pair encoding with only_second truncation, a query cap, and chunking of long documents.
//! - [`batching`]: length-sorted batches, dynamic padding, attention masks, input order restored.
//! - [`memory_budget`]: `memoryBudgetMiB`, honoured by the rows each batch runs.
//! - [`batch_work`]: a call's batches to run anywhere (inline or in pool workers), with identical results.
//! - [`cpu`]: which CPU engine runs a graph: tract's plan (`tract_plan`: symbolic `batch × sequence` inputs) or
//!   the BERT engine ([`bert`]).
//! - [`cross_encoder`]: scores, sorting and `top_k` per docs/parity.md §2, `predict_batch`'s three shapes.
//! - [`embedder`]: mean pooling and L2 normalisation.
//! - [`device`]: device names, the default, every fallback's message; [`engine`]: one engine per model kind,
//!   running its batches on WebGPU (`webgpu`, parity-checked) or the CPU.
//!
//! Long documents are **chunked by default** (`max_chunks_per_doc = 10`): a document longer than the window
//! beside the query is cut into window-filling chunks, each is scored and the best chunk's score is kept
//! (Cohere's rerank behaviour). `max_chunks_per_doc = 1` gives Haystack's plain truncation.

pub mod batch_work;
pub mod batching;
pub mod bert;
pub mod cpu;
pub mod cross_encoder;
pub mod device;
pub mod embedder;
pub mod engine;
pub mod f32_tile;
#[cfg(feature = "tract")] pub mod headwise_attention;
pub mod memory_budget;
#[cfg(feature = "tract")] pub mod middle_broadcast_add;
pub mod model_info;
pub mod onnx_import;
pub mod row_quantization;
pub mod tokenization;
#[cfg(feature = "tract")] pub mod token_slice;
#[cfg(feature = "tract")] pub mod tract_plan;
#[cfg(all(feature = "tract", target_arch = "wasm32", target_feature = "simd128"))] mod wasm_gemm;
#[cfg(feature = "webgpu")] pub mod webgpu;

pub use batch_work::BatchWork;
pub use cross_encoder::{BatchDocuments, BatchRanking, CrossEncoder, Ranked, RerankOptions, RerankWork, ScoreOptions};
pub use device::{place, Device, Placement};
pub use embedder::{EmbedOptions, Embedder, Pooling};
pub use engine::{CrossEncoderEngine, EmbedderEngine, Output, ProbeReport, WarningFn, PROBE_PAIRS, PROBE_TOLERANCE};
pub use onnx_import::ExternalFile;

/// The bytes of a model: ONNX graph, `tokenizer.json`, optionally `config.json`, and the external-data files
/// the graph's tensors name (`model.onnx_data`…; none for most models).
#[derive(Debug, Clone, Copy, Default)]
pub struct ModelFiles<'a> {
    pub model: &'a [u8],
    pub tokenizer: &'a [u8],
    pub config: Option<&'a [u8]>,
    pub external_data: &'a [ExternalFile],
}

/// A model ready to be built: its graph decoded and made plannable ([`onnx_import::prepare`]), its tokenizer and
/// config. The engines build from this; a caller that owns the ONNX bytes frees them once they are decoded, which
/// lowers a load's peak memory by the model's size (in wasm, memory never shrinks: the peak is what a model costs).
pub struct PreparedModel<'a> {
    pub graph: onnx_import::pb::ModelProto,
    pub tokenizer: &'a [u8],
    pub config: Option<&'a [u8]>,
}

impl<'a> PreparedModel<'a> {
    /// Decodes `model` (with the external-data files its tensors name) beside `tokenizer` and `config`.
    pub fn prepare(model: &[u8], external_data: &[ExternalFile], tokenizer: &'a [u8], config: Option<&'a [u8]>) -> crate::Result<Self> {
        let _work = memory_budget::ModelWork::begin();
        let (graph, _) = onnx_import::prepare(model, external_data)?;
        Ok(PreparedModel { graph, tokenizer, config })
    }

    /// [`PreparedModel::prepare`] of `files`.
    pub fn of(files: ModelFiles<'a>) -> crate::Result<Self> {
        Self::prepare(files.model, files.external_data, files.tokenizer, files.config)
    }
}

/// Options of loading a model that the model itself reads (the files and devices are the loader's).
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ModelLoadOptions {
    /// Window in tokens, special tokens included. Default: `config.json`'s `max_position_embeddings`, else the
    /// graph's position table, else 512.
    pub max_length: Option<usize>,
    /// Cap on query tokens. Default `maxLength / 2`.
    pub max_query_tokens: Option<usize>,
    /// The most wasm memory, in MiB, the instance may reach through this model's calls: each batch runs as many
    /// of `batchSize` rows as fit beside what is already held (a Cloudflare Worker has 128 MB). A budget that
    /// cannot hold the loaded model and one row of `maxLength` tokens is refused with `INVALID_ARGUMENT`. CPU
    /// only: WebGPU batches hold their activations on the GPU. Default: none (each batch's activations within 16
    /// MiB).
    // The batch costs and the room: [`memory_budget`].
    #[serde(rename = "memoryBudgetMiB")]
    pub memory_budget_mib: Option<f64>,
}

/// Files of a model directory (`model.onnx` or `onnx/model_quantized.onnx`…, `tokenizer.json`, `config.json`,
/// and the external-data files the graph names, beside the graph), read from disk; native only.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone)]
pub struct ModelDir {
    pub model: Vec<u8>,
    pub tokenizer: Vec<u8>,
    pub config: Option<Vec<u8>>,
    pub external_data: Vec<ExternalFile>,
}

#[cfg(not(target_arch = "wasm32"))]
impl ModelDir {
    /// Reads `dir/<model_file>`, `dir/tokenizer.json` and (if present) `dir/config.json`.
    pub fn read(dir: impl AsRef<std::path::Path>, model_file: &str) -> crate::Result<Self> {
        let dir = dir.as_ref();
        let read = |name: &str, code: fn(String) -> crate::Error| {
            std::fs::read(dir.join(name)).map_err(|e| code(format!("{}: {e}", dir.join(name).display())))
        };
        let model = read(model_file, |m| crate::Error::model_load(m))?;
        let beside = dir.join(model_file).parent().map(std::path::Path::to_path_buf).unwrap_or_default();
        let external_data = onnx_import::external_data::locations(&mut onnx_import::decode(&model)?)
            .into_iter()
            .map(|location| {
                let path = beside.join(&location);
                let bytes = std::fs::read(&path).map_err(|e| crate::Error::model_load(format!("{}: {e}", path.display())))?;
                Ok(ExternalFile { location, bytes })
            })
            .collect::<crate::Result<_>>()?;
        Ok(ModelDir {
            model,
            tokenizer: read("tokenizer.json", |m| crate::Error::tokenizer(m))?,
            config: std::fs::read(dir.join("config.json")).ok(),
            external_data,
        })
    }

    pub fn files(&self) -> ModelFiles<'_> {
        ModelFiles { model: &self.model, tokenizer: &self.tokenizer, config: self.config.as_deref(), external_data: &self.external_data }
    }
}
