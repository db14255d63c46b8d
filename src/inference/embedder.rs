//! Bi-encoder embeddings: token states → one vector per text.
//!
//! Pooling, as sentence-transformers' `Pooling` module (`1_Pooling/config.json` of a Hub repo):
//! - mean (the default, `pooling_mode_mean_tokens`): `e = Σₜ mₜ·hₜ / max(Σₜ mₜ, 1e−9)` over the attention mask;
//! - CLS (`pooling_mode_cls_token`, bge, gte): `e = h₀`, the first token's state;
//! - last token (`pooling_mode_lasttoken`, decoder embedders): `e = h_T`, `T` the last unmasked position;
//! then optionally L2 normalisation `e / max(‖e‖₂, 1e−12)` (torch's `F.normalize`, the `Normalize` module).
//! Texts are truncated to the window (`max_length`, special tokens included).

use super::batch_work::BatchWork;
use super::memory_budget::{self, batch_limit, MemoryBudget, ModelMemory};
use super::batching::{Batch, Sequence};
use super::cpu::CpuPlan;
use super::model_info::{parse_config, ModelInfo};
use super::tokenization::PairTokenizer;
use super::{ModelLoadOptions, ModelFiles, PreparedModel};
use crate::{Error, Result};

/// Token-state outputs an encoder export may name.
const STATE_OUTPUTS: [&str; 2] = ["last_hidden_state", "token_embeddings"];

/// How token states become one vector (module docs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Pooling {
    #[default]
    Mean,
    Cls,
    LastToken,
}

impl Pooling {
    /// `"mean"`, `"cls"` or `"lastToken"` (`INVALID_ARGUMENT` naming `pooling` otherwise).
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "mean" => Ok(Pooling::Mean),
            "cls" => Ok(Pooling::Cls),
            "lastToken" | "last_token" => Ok(Pooling::LastToken),
            other => Err(Error::invalid("pooling", format!("expected \"mean\", \"cls\" or \"lastToken\", got {other:?}"))),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Pooling::Mean => "mean",
            Pooling::Cls => "cls",
            Pooling::LastToken => "lastToken",
        }
    }
}

/// Options of `Embedder.embed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct EmbedOptions {
    /// L2-normalise each vector (cosine similarity = dot product). Default: the model's (`normalize` at load),
    /// else false.
    pub normalize: Option<bool>,
    /// The most texts per model call. Default 32; on the CPU long windows run fewer (`memoryBudgetMiB`).
    pub batch_size: usize,
}

impl Default for EmbedOptions {
    fn default() -> Self {
        EmbedOptions { normalize: None, batch_size: 32 }
    }
}

/// A loaded bi-encoder.
#[derive(Clone)]
pub struct Embedder {
    plan: CpuPlan,
    tokenizer: PairTokenizer,
    dimension: usize,
    pooling: Pooling,
    memory: Option<ModelMemory>,
}

impl Embedder {
    /// Loads an encoder whose graph outputs `last_hidden_state [batch, sequence, hidden]`.
    pub fn load(files: ModelFiles<'_>, options: &ModelLoadOptions) -> Result<Self> {
        Self::from_prepared(PreparedModel::of(files)?, options)
    }

    /// [`Embedder::load`] from a decoded graph (which the plan consumes).
    pub fn from_prepared(model: PreparedModel<'_>, options: &ModelLoadOptions) -> Result<Self> {
        let _work = memory_budget::ModelWork::begin();
        let config = model.config.map(parse_config).transpose()?;
        let proto = model.graph;
        let info = ModelInfo::detect(&proto, config.as_ref())?;
        let max_length = info.resolve_max_length(options.max_length)?;
        let budget = options.memory_budget_mib.map(MemoryBudget::from_mib).transpose()?;
        let output = STATE_OUTPUTS.iter().find(|o| info.outputs.iter().any(|x| x == *o)).ok_or_else(|| {
            Error::model_load(format!("model: an encoder must output last_hidden_state; this graph outputs {:?}", info.outputs))
        })?;
        let plan = CpuPlan::new(proto, &info, output)?;
        // after the plan, as the cross-encoder's (the load's peak)
        let tokenizer = PairTokenizer::from_bytes(model.tokenizer, max_length, &info)?;
        memory_budget::loaded();
        let memory = ModelMemory::of_loaded(budget, &info, plan.rows_alone(), max_length)?;
        let dimension = match plan.output_dims() {
            [_, _, Some(h)] => *h,
            other => return Err(Error::model_load(format!("model: {output} must be [batch, sequence, hidden], got {other:?}"))),
        };
        Ok(Embedder { plan, tokenizer, dimension, pooling: Pooling::Mean, memory })
    }

    /// The same model pooling its token states by `pooling`.
    pub fn with_pooling(mut self, pooling: Pooling) -> Self {
        self.pooling = pooling;
        self
    }

    pub fn pooling(&self) -> Pooling {
        self.pooling
    }

    /// Length of each embedding.
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// The tokenizer as prepared for this model.
    pub fn tokenizer(&self) -> &PairTokenizer {
        &self.tokenizer
    }

    /// One pooled (and, with `normalize`, unit-length) vector per text, in input order.
    pub fn embed(&self, texts: &[&str], normalize: bool, batch_size: usize) -> Result<Vec<Vec<f32>>> {
        let work = self.embed_work(texts, batch_size)?;
        let outputs = work.batches.iter().map(|b| self.run_batch(b, normalize)).collect::<Result<Vec<_>>>()?;
        let h = self.dimension;
        Ok(work.assemble(&outputs)?.chunks(h.max(1)).map(<[f32]>::to_vec).take(texts.len()).collect())
    }

    /// `embed` as batches to run anywhere ([`BatchWork`]).
    pub fn embed_work(&self, texts: &[&str], batch_size: usize) -> Result<BatchWork> {
        let sequences = texts
            .iter()
            .enumerate()
            .map(|(i, t)| self.tokenizer.single(t).map_err(|e| e.at(&format!("texts[{i}]"))))
            .collect::<Result<Vec<Sequence>>>()?;
        BatchWork::new(&sequences, batch_limit(self.memory.as_ref(), batch_size), self.tokenizer.pad_id as i64, self.dimension)
    }

    /// The pooled (and, with `normalize`, unit-length) vectors of one padded batch, `[rows × dimension]` in the
    /// batch's row order.
    pub fn run_batch(&self, batch: &Batch, normalize: bool) -> Result<Vec<f32>> {
        let h = self.dimension;
        let (shape, states) = self.plan.run(batch)?;
        if shape != [batch.rows.len(), batch.len, h] {
            return Err(Error::internal(format!("states came back as {shape:?}")));
        }
        let mut out = Vec::with_capacity(batch.rows.len() * h);
        for r in 0..batch.rows.len() {
            let mask = &batch.attention_mask[r * batch.len..(r + 1) * batch.len];
            let rows = &states[r * batch.len * h..(r + 1) * batch.len * h];
            out.extend(pool(self.pooling, rows, mask, h, normalize));
        }
        Ok(out)
    }
}

/// One vector from the rows of `states` (`[len, h]`) by `pooling` over `mask`, optionally L2-normalised
/// (formulas above).
pub fn pool(pooling: Pooling, states: &[f32], mask: &[i64], h: usize, normalize: bool) -> Vec<f32> {
    let row = |t: usize| states[t * h..(t + 1) * h].iter().map(|&x| x as f64).collect::<Vec<f64>>();
    let e = match pooling {
        Pooling::Mean => {
            let mut sum = vec![0f64; h];
            let mut count = 0f64;
            for (t, &m) in mask.iter().enumerate() {
                if m != 0 {
                    count += 1.0;
                    for (s, &x) in sum.iter_mut().zip(&states[t * h..(t + 1) * h]) {
                        *s += x as f64;
                    }
                }
            }
            sum.into_iter().map(|s| s / count.max(1e-9)).collect()
        }
        Pooling::Cls => row(0),
        Pooling::LastToken => row(mask.iter().rposition(|&m| m != 0).unwrap_or(0)),
    };
    finish(e, normalize)
}

fn finish(mut e: Vec<f64>, normalize: bool) -> Vec<f32> {
    if normalize {
        let norm = e.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-12);
        e.iter_mut().for_each(|x| *x /= norm);
    }
    e.into_iter().map(|x| x as f32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_over_the_mask_only() {
        let states = [1.0, 2.0, 3.0, 4.0, 100.0, 100.0];
        assert_eq!(pool(Pooling::Mean, &states, &[1, 1, 0], 2, false), vec![2.0, 3.0]);
        let n = pool(Pooling::Mean, &states, &[1, 1, 0], 2, true);
        assert!(((n[0] * n[0] + n[1] * n[1]) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn cls_and_last_token_pick_one_row() {
        let states = [1.0, 2.0, 3.0, 4.0, 100.0, 100.0];
        assert_eq!(pool(Pooling::Cls, &states, &[1, 1, 0], 2, false), vec![1.0, 2.0]);
        assert_eq!(pool(Pooling::LastToken, &states, &[1, 1, 0], 2, false), vec![3.0, 4.0]);
        assert_eq!(Pooling::parse("lastToken").unwrap(), Pooling::LastToken);
        assert!(Pooling::parse("max").unwrap_err().message.starts_with("pooling:"));
    }
}
