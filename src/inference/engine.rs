//! One engine per model kind — [`CrossEncoderEngine`], [`EmbedderEngine`] — owning a call from text to answer:
//! the CPU model tokenizes, batches, assembles and ranks; the batches run on WebGPU when it can (parity-checked),
//! else on the CPU. The device names, defaults and every fallback's message are src/inference/device.rs's.
//! Without the `webgpu` feature (the Workers build) the engines are the CPU path alone.
//!
//! [`Device`] is the user's choice: `"webgpu"`, `"cpu"` or `"auto"`. `auto` and `webgpu` both try the GPU (an
//! adapter, a supported graph); `cpu` never does. When the GPU cannot be used — no adapter, a graph the kernels
//! do not cover (`UNSUPPORTED`: int8, RoBERTa positions, …) — the model runs on the CPU and a warning says why
//! (`webgpu` warns, `auto` too: the caller asked for speed and should know it did not get it).
//!
//! **Parity probe.** On first use the GPU runs a fixed probe batch (pairs of mixed lengths, padded) and its
//! outputs are compared with the CPU (tract) path's: if any differs by more than [`PROBE_TOLERANCE`] the model
//! switches to the CPU for good, the warning callback is called and [`device`](CrossEncoderEngine::device) says
//! `"cpu"`. A GPU error or non-finite output at any later batch does the same (that batch is recomputed on the
//! CPU). WebGPU here therefore never returns an answer the CPU path would not.

use super::batching::{Batch, Sequence};
use super::cross_encoder::{group_sequences, rank_groups};
#[cfg(feature = "webgpu")]
use super::{bert::BertWeights, webgpu::GpuBert};
use super::{CrossEncoder, Embedder, ModelLoadOptions, ModelFiles, Pooling, PreparedModel, Ranked, RerankOptions};
use crate::{Error, Result};

/// Largest |GPU − CPU| difference the probe accepts on logits / embedding components.
pub const PROBE_TOLERANCE: f32 = 1e-3;

use super::device::{Device, Fallback};

/// What one forward pass returns per sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// `num_labels` logits.
    Logits,
    /// A mean-pooled embedding (`hidden` values), optionally L2-normalised.
    MeanPooled { normalize: bool },
}

impl Output {
    /// The ONNX graph output this reproduces (mean pooling starts from the token vectors).
    pub fn graph_output(self) -> &'static str {
        match self {
            Output::Logits => "logits",
            Output::MeanPooled { .. } => "last_hidden_state",
        }
    }
}

/// Called with a human-readable message whenever the GPU is given up for the CPU.
pub type WarningFn = Box<dyn Fn(&str)>;

/// The probe's verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeReport {
    /// Largest |GPU − CPU| over the probe outputs.
    pub max_abs_diff: f32,
    pub passed: bool,
    /// Outputs compared.
    pub values: usize,
}

/// Pairs of mixed lengths: short, medium and one long enough to need most of a 128-token window, so the probe
/// batch is padded and exercises the mask.
pub const PROBE_PAIRS: [(&str, &str); 6] = [
    ("what is the capital of france?", "Paris is the capital and most populous city of France."),
    ("what is the capital of france?", "The Eiffel Tower is a wrought-iron lattice tower in Paris."),
    ("how do vaccines work", "Vaccines train the immune system to recognise a pathogen without causing the disease, by presenting an antigen; memory B and T cells then respond faster on a later infection."),
    ("rust borrow checker", "ok"),
    ("effect of aspirin on heart attack risk", "Low-dose aspirin inhibits platelet cyclooxygenase, reducing thromboxane A2 and platelet aggregation. In primary prevention trials the absolute reduction of myocardial infarction was small and offset by bleeding; in secondary prevention after a heart attack or stroke the benefit clearly outweighs the bleeding risk, which is why guidelines recommend it there. Enteric coating does not remove the gastrointestinal risk, and interactions with ibuprofen can blunt the antiplatelet effect when ibuprofen is taken first."),
    ("¿dónde está la biblioteca? 図書館", "La biblioteca está cerca de la estación; 図書館は駅の近くにあります。"),
];

enum State {
    Cpu { reason: Option<String> },
    #[cfg(feature = "webgpu")]
    Unprobed(Box<GpuBert>),
    #[cfg(feature = "webgpu")]
    Gpu(Box<GpuBert>),
}

struct Backend {
    state: State,
    warn: Option<WarningFn>,
    warnings: Vec<String>,
    probe: Option<ProbeReport>,
}

/// What the GPU model is made from: its weights, read from the graph before the CPU plan consumes it; `None` when
/// the GPU is not tried. A failure to read them is reported once the CPU model has loaded.
#[cfg(feature = "webgpu")]
type GpuWeights = Option<Result<BertWeights>>;
#[cfg(not(feature = "webgpu"))]
type GpuWeights = ();

fn gpu_weights(model: &PreparedModel<'_>, device: Device, output: Output) -> GpuWeights {
    #[cfg(feature = "webgpu")]
    return (device != Device::Cpu).then(|| BertWeights::of_model(model, output));
    #[cfg(not(feature = "webgpu"))]
    let _ = (model, device, output);
}

impl Backend {
    /// Tries the GPU with `weights` unless `device` is `Cpu`.
    async fn open(weights: GpuWeights, device: Device, warn: Option<WarningFn>) -> Self {
        let mut b = Backend { state: State::Cpu { reason: None }, warn, warnings: Vec::new(), probe: None };
        #[cfg(feature = "webgpu")]
        if let Some(weights) = weights {
            let model = match weights {
                Ok(w) => GpuBert::upload(&w).await,
                Err(e) => Err(Error::unsupported(format!("webgpu: {}", e.message))),
            };
            match model {
                Ok(m) => b.state = State::Unprobed(Box::new(m)),
                Err(e) => b.fall_back(Fallback::Unavailable(e.message)),
            }
        }
        #[cfg(feature = "webgpu")]
        let _ = device;
        // an engine built without WebGPU: "webgpu" is owed a warning, "auto" is not
        #[cfg(not(feature = "webgpu"))]
        if device == Device::WebGpu {
            let () = weights;
            b.fall_back(Fallback::NotBuilt);
        }
        b
    }

    fn fall_back(&mut self, fallback: Fallback) {
        let reason = fallback.message();
        if let Some(w) = &self.warn {
            w(&reason);
        }
        self.warnings.push(reason.clone());
        self.state = State::Cpu { reason: Some(reason) };
    }

    fn device(&self) -> &'static str {
        match self.state {
            State::Cpu { .. } => "cpu",
            #[cfg(feature = "webgpu")]
            _ => "webgpu",
        }
    }

    fn adapter(&self) -> Option<String> {
        match &self.state {
            #[cfg(feature = "webgpu")]
            State::Unprobed(m) | State::Gpu(m) => Some(m.gpu().describe()),
            State::Cpu { .. } => None,
        }
    }

    /// Runs the probe (first use), then `sequences` in batches on the active device; `cpu(probe, batch_size)`
    /// computes the same outputs on the CPU, for the probe sequences (`probe = true`) or for `sequences` (the
    /// fallback). `width` values per sequence.
    async fn run(
        &mut self,
        sequences: &[Sequence],
        batch_size: usize,
        pad_id: i64,
        output: Output,
        width: usize,
        probe: &[Sequence],
        cpu: &dyn Fn(bool, usize) -> Result<Vec<f32>>,
    ) -> Result<Vec<f32>> {
        if batch_size == 0 {
            return Err(Error::invalid("batchSize", "must be at least 1"));
        }
        #[cfg(feature = "webgpu")]
        if let State::Unprobed(_) = self.state {
            let State::Unprobed(mut m) = std::mem::replace(&mut self.state, State::Cpu { reason: None }) else { unreachable!() };
            let want = cpu(true, probe.len())?;
            let got = m.outputs(probe, probe.len(), pad_id, output, width).await;
            match got {
                Ok(got) => {
                    let max_abs_diff = got.iter().zip(&want).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
                    let passed = got.len() == want.len() && max_abs_diff <= PROBE_TOLERANCE;
                    self.probe = Some(ProbeReport { max_abs_diff, passed, values: want.len() });
                    if passed {
                        self.state = State::Gpu(m);
                    } else {
                        self.fall_back(Fallback::ProbeMismatch { adapter: m.gpu().describe(), max_abs_diff, tolerance: PROBE_TOLERANCE });
                    }
                }
                Err(e) => self.fall_back(Fallback::ProbeFailed(e.message)),
            }
        }
        #[cfg(feature = "webgpu")]
        if let State::Gpu(m) = &mut self.state {
            match m.outputs(sequences, batch_size, pad_id, output, width).await {
                Ok(v) => return Ok(v),
                Err(e) if e.code == crate::ErrorCode::InvalidArgument => return Err(e),
                Err(e) => self.fall_back(Fallback::Failed(e.message)),
            }
        }
        let _ = (sequences, pad_id, output, width, probe);
        cpu(false, batch_size)
    }
}

/// A cross-encoder that runs on WebGPU when it can (parity-checked), else on the CPU. Tokenization, chunking
/// and ranking are the CPU [`CrossEncoder`]'s.
pub struct CrossEncoderEngine {
    cpu: CrossEncoder,
    backend: Backend,
    probe: Vec<Sequence>,
}

impl CrossEncoderEngine {
    /// Loads the CPU model (always: it tokenizes, checks the GPU and is the fallback) and, unless `device` is
    /// `Cpu`, the GPU one. `on_warning` hears every fallback.
    pub async fn load(files: ModelFiles<'_>, options: &ModelLoadOptions, device: Device, on_warning: Option<WarningFn>) -> Result<Self> {
        Self::load_prepared(PreparedModel::of(files)?, options, device, on_warning).await
    }

    /// [`CrossEncoderEngine::load`] from a decoded graph, so that the caller can free the ONNX bytes first.
    pub async fn load_prepared(model: PreparedModel<'_>, options: &ModelLoadOptions, device: Device, on_warning: Option<WarningFn>) -> Result<Self> {
        let weights = gpu_weights(&model, device, Output::Logits);
        Self::with_gpu_weights(model, weights, options, device, on_warning).await
    }

    /// As [`CrossEncoderEngine::load`], but the GPU gets the graph `gpu_model` (tests: a GPU model that disagrees
    /// with the CPU one must be caught by the probe).
    #[doc(hidden)]
    pub async fn load_with_gpu_model(
        files: ModelFiles<'_>,
        gpu_model: &[u8],
        options: &ModelLoadOptions,
        device: Device,
        on_warning: Option<WarningFn>,
    ) -> Result<Self> {
        let gpu = PreparedModel::prepare(gpu_model, files.external_data, files.tokenizer, files.config)?;
        let weights = gpu_weights(&gpu, device, Output::Logits);
        Self::with_gpu_weights(PreparedModel::of(files)?, weights, options, device, on_warning).await
    }

    async fn with_gpu_weights(model: PreparedModel<'_>, weights: GpuWeights, options: &ModelLoadOptions, device: Device, on_warning: Option<WarningFn>) -> Result<Self> {
        let cpu = CrossEncoder::from_prepared(model, options)?;
        let probe = PROBE_PAIRS.iter().map(|(q, d)| cpu.encode_pair(q, d)).collect::<Result<Vec<_>>>()?;
        let backend = Backend::open(weights, device, on_warning).await;
        Ok(CrossEncoderEngine { cpu, backend, probe })
    }

    /// `"webgpu"` or `"cpu"`: where the next batch runs.
    pub fn device(&self) -> &'static str {
        self.backend.device()
    }

    /// The GPU adapter in use, when on WebGPU.
    pub fn adapter(&self) -> Option<String> {
        self.backend.adapter()
    }

    /// Why the model is on the CPU, when it fell back.
    pub fn fallback_reason(&self) -> Option<&str> {
        match &self.backend.state {
            State::Cpu { reason } => reason.as_deref(),
            #[cfg(feature = "webgpu")]
            _ => None,
        }
    }

    /// Every warning given so far.
    pub fn warnings(&self) -> &[String] {
        &self.backend.warnings
    }

    /// The probe's result, once it ran.
    pub fn probe_report(&self) -> Option<&ProbeReport> {
        self.backend.probe.as_ref()
    }

    /// The CPU model (tokenizer, window, labels).
    pub fn cpu(&self) -> &CrossEncoder {
        &self.cpu
    }

    /// Seconds per kernel kind of one forward pass over the middle batch of `pairs` (length-sorted batches of
    /// `batch_size`, padded as `score` pads them) on the GPU; `None` on the CPU. Benchmarks only: see [`GpuBert::profile`].
    #[doc(hidden)]
    #[cfg(feature = "webgpu")]
    pub async fn profile_gpu(&mut self, pairs: &[(&str, &str)], batch_size: usize, reps: usize) -> Result<Option<Vec<(&'static str, f64)>>> {
        let seqs = self.cpu.encode_pairs(pairs)?;
        let pad = self.cpu.tokenizer().pad_id as i64;
        let all = super::batching::batches(&seqs, &super::memory_budget::BatchLimit::rows(batch_size), pad);
        let Some(batch) = all.get(all.len() / 2) else { return Ok(None) };
        match &mut self.backend.state {
            State::Gpu(m) | State::Unprobed(m) => Ok(Some(m.profile(batch, Output::Logits, reps).await?)),
            State::Cpu { .. } => Ok(None),
        }
    }

    /// Logits of `sequences`, `[n × num_labels]` in input order, on the active device.
    pub async fn logits(&mut self, sequences: &[Sequence], batch_size: usize) -> Result<Vec<f32>> {
        let cpu = &self.cpu;
        let pad = cpu.tokenizer().pad_id as i64;
        let l = cpu.num_labels();
        let probe = &self.probe;
        let cpu_logits = |is_probe: bool, b: usize| cpu.logits(if is_probe { probe } else { sequences }, b);
        self.backend.run(sequences, batch_size, pad, Output::Logits, l, probe, &cpu_logits).await
    }

    /// Logits of one padded batch of a call's [`BatchWork`] (as [`CrossEncoder::run_batch`] gives them) on the
    /// active device: a call on WebGPU runs batch by batch too, so that it can stop at a deadline between two.
    /// The batch is run as its own rows, padded as it is, so its logits are those of the whole call.
    pub async fn batch_logits(&mut self, batch: &Batch) -> Result<Vec<f32>> {
        let sequences = batch.sequences();
        self.logits(&sequences, sequences.len().max(1)).await
    }

    /// Raw logits of (query, document) pairs, truncated only_second (as [`CrossEncoder::score`]).
    pub async fn score(&mut self, pairs: &[(&str, &str)], batch_size: usize) -> Result<Vec<f32>> {
        let seqs = self.cpu.encode_pairs(pairs)?;
        self.logits(&seqs, batch_size).await
    }

    /// Reranks `texts` for `query` exactly as [`CrossEncoder::rerank_texts`], with the logits from the active
    /// device.
    pub async fn rerank_texts(&mut self, query: &str, texts: &[&str], options: &RerankOptions) -> Result<Vec<Ranked>> {
        let texts = texts.iter().map(|t| t.to_string()).collect();
        Ok(self.rerank_groups(&[(query, texts)], options).await?.pop().unwrap_or_default())
    }

    /// [`CrossEncoder::rerank_groups`] on the active device: every chunk of every document of every group in
    /// shared length-sorted batches, then per group: max logit over a document's chunks (the last logit for
    /// classifiers), sigmoid on one-logit models, threshold, stable sort, top-k.
    pub async fn rerank_groups(&mut self, groups: &[(&str, Vec<String>)], options: &RerankOptions) -> Result<Vec<Vec<Ranked>>> {
        let (sequences, owners) = group_sequences(self.cpu.tokenizer(), groups, options)?;
        let logits = self.logits(&sequences, options.batch_size).await?;
        let sizes: Vec<usize> = groups.iter().map(|(_, texts)| texts.len()).collect();
        rank_groups(&sizes, &owners, &logits, None, self.cpu.num_labels(), options)
    }
}

/// A bi-encoder on WebGPU when it can (parity-checked), else on the CPU.
pub struct EmbedderEngine {
    cpu: Embedder,
    backend: Backend,
    probe: Vec<Sequence>,
}

impl EmbedderEngine {
    /// As [`CrossEncoderEngine::load`], for encoders outputting `last_hidden_state`.
    pub async fn load(files: ModelFiles<'_>, options: &ModelLoadOptions, device: Device, on_warning: Option<WarningFn>) -> Result<Self> {
        Self::load_prepared(PreparedModel::of(files)?, options, device, on_warning).await
    }

    /// [`EmbedderEngine::load`] from a decoded graph, so that the caller can free the ONNX bytes first.
    pub async fn load_prepared(model: PreparedModel<'_>, options: &ModelLoadOptions, device: Device, on_warning: Option<WarningFn>) -> Result<Self> {
        let weights = gpu_weights(&model, device, Output::MeanPooled { normalize: false });
        let cpu = Embedder::from_prepared(model, options)?;
        let probe = PROBE_PAIRS.iter().map(|(_, d)| cpu.tokenizer().single(d)).collect::<Result<Vec<_>>>()?;
        let backend = Backend::open(weights, device, on_warning).await;
        Ok(EmbedderEngine { cpu, backend, probe })
    }

    /// Pools token vectors by `pooling`. The WGSL pipeline ends in mean pooling, so any other pooling moves the
    /// model to the CPU (with a warning when it was on the GPU).
    pub fn with_pooling(mut self, pooling: Pooling) -> Self {
        self.cpu = self.cpu.with_pooling(pooling);
        if pooling != Pooling::Mean && !matches!(self.backend.state, State::Cpu { .. }) {
            self.backend.fall_back(Fallback::Pooling(pooling));
        }
        self
    }

    pub fn device(&self) -> &'static str {
        self.backend.device()
    }

    pub fn adapter(&self) -> Option<String> {
        self.backend.adapter()
    }

    pub fn warnings(&self) -> &[String] {
        &self.backend.warnings
    }

    pub fn probe_report(&self) -> Option<&ProbeReport> {
        self.backend.probe.as_ref()
    }

    pub fn cpu(&self) -> &Embedder {
        &self.cpu
    }

    /// One mean-pooled (optionally unit-length) vector per text, in input order.
    pub async fn embed(&mut self, texts: &[&str], normalize: bool, batch_size: usize) -> Result<Vec<Vec<f32>>> {
        let cpu = &self.cpu;
        let seqs = texts
            .iter()
            .enumerate()
            .map(|(i, t)| cpu.tokenizer().single(t).map_err(|e| e.at(&format!("texts[{i}]"))))
            .collect::<Result<Vec<_>>>()?;
        let h = cpu.dimension();
        let pad = cpu.tokenizer().pad_id as i64;
        let probe_texts: Vec<&str> = PROBE_PAIRS.iter().map(|(_, d)| *d).collect();
        let cpu_embed = |is_probe: bool, b: usize| -> Result<Vec<f32>> {
            Ok(cpu.embed(if is_probe { &probe_texts } else { texts }, normalize, b)?.concat())
        };
        let flat = self.backend.run(&seqs, batch_size, pad, Output::MeanPooled { normalize }, h, &self.probe, &cpu_embed).await?;
        Ok(flat.chunks(h).map(|c| c.to_vec()).collect())
    }
}
