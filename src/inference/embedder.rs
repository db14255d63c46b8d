//! Bi-encoder embeddings: token states → one vector per text.
//!
//! Mean pooling over the attention mask (sentence-transformers' `Pooling(mean)`):
//! `e = Σₜ mₜ·hₜ / max(Σₜ mₜ, 1e−9)`, then optionally L2 normalisation `e / max(‖e‖₂, 1e−12)` (torch's
//! `F.normalize`). Texts are truncated to the window (`max_length`, special tokens included).

use super::batching::{batches, Sequence};
use super::cpu::{decode, CpuPlan};
use super::model_info::{parse_config, ModelInfo};
use super::tokenization::PairTokenizer;
use super::{LoadOptions, ModelFiles};
use crate::{Error, Result};

/// Token-state outputs an encoder export may name.
const STATE_OUTPUTS: [&str; 2] = ["last_hidden_state", "token_embeddings"];

/// A loaded bi-encoder.
#[derive(Clone)]
pub struct Embedder {
    plan: CpuPlan,
    tokenizer: PairTokenizer,
    dimension: usize,
}

impl Embedder {
    /// Loads an encoder whose graph outputs `last_hidden_state [batch, sequence, hidden]`.
    pub fn load(files: ModelFiles<'_>, options: &LoadOptions) -> Result<Self> {
        let config = files.config.map(parse_config).transpose()?;
        let proto = decode(files.model)?;
        let info = ModelInfo::detect(&proto, config.as_ref())?;
        let max_length = info.resolve_max_length(options.max_length)?;
        let tokenizer = PairTokenizer::from_bytes(files.tokenizer, max_length, info.vocab_rows)?;
        let output = STATE_OUTPUTS.iter().find(|o| info.outputs.iter().any(|x| x == *o)).ok_or_else(|| {
            Error::model_load(format!("model: an encoder must output last_hidden_state; this graph outputs {:?}", info.outputs))
        })?;
        let plan = CpuPlan::new(&proto, &info, output)?;
        let dimension = match plan.output_dims.as_slice() {
            [_, _, Some(h)] => *h,
            other => return Err(Error::model_load(format!("model: {output} must be [batch, sequence, hidden], got {other:?}"))),
        };
        Ok(Embedder { plan, tokenizer, dimension })
    }

    /// Length of each embedding.
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// The tokenizer as prepared for this model.
    pub fn tokenizer(&self) -> &PairTokenizer {
        &self.tokenizer
    }

    /// One mean-pooled (and, with `normalize`, unit-length) vector per text, in input order.
    pub fn embed(&self, texts: &[&str], normalize: bool, batch_size: usize) -> Result<Vec<Vec<f32>>> {
        if batch_size == 0 {
            return Err(Error::invalid("batchSize", "must be at least 1"));
        }
        let sequences = texts.iter().map(|t| self.tokenizer.single(t)).collect::<Result<Vec<Sequence>>>()?;
        let h = self.dimension;
        let mut out = vec![Vec::new(); texts.len()];
        for batch in batches(&sequences, batch_size, self.tokenizer.pad_id as i64) {
            let (shape, states) = self.plan.run(&batch)?;
            if shape != [batch.rows.len(), batch.len, h] {
                return Err(Error::internal(format!("states came back as {shape:?}")));
            }
            for (r, &i) in batch.rows.iter().enumerate() {
                let mask = &batch.attention_mask[r * batch.len..(r + 1) * batch.len];
                let rows = &states[r * batch.len * h..(r + 1) * batch.len * h];
                out[i] = mean_pool(rows, mask, h, normalize);
            }
        }
        Ok(out)
    }
}

/// Mean of the rows of `states` (`[len, h]`) where `mask` is 1, optionally L2-normalised (formulas above).
pub fn mean_pool(states: &[f32], mask: &[i64], h: usize, normalize: bool) -> Vec<f32> {
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
    let mut e: Vec<f64> = sum.into_iter().map(|s| s / count.max(1e-9)).collect();
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
        assert_eq!(mean_pool(&states, &[1, 1, 0], 2, false), vec![2.0, 3.0]);
        let n = mean_pool(&states, &[1, 1, 0], 2, true);
        assert!(((n[0] * n[0] + n[1] * n[1]) - 1.0).abs() < 1e-6);
    }
}
