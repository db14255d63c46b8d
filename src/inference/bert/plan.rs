//! The BERT engine as a CPU plan: the interface of tract's plan (`inference::tract_plan`), so that
//! `inference::cpu` can run a graph on either.

use super::weights::{BertWeights, Head};
use super::CpuBert;
use crate::inference::batching::Batch;
use crate::Result;
use std::sync::Arc;

/// A BERT-family graph mapped to its weights and packed for the CPU.
#[derive(Debug, Clone)]
pub struct BertPlan {
    bert: Arc<CpuBert>,
    /// The output's dimensions: `[batch, labels]` or `[batch, sequence, hidden]`, `None` for the symbolic ones.
    pub output_dims: Vec<Option<usize>>,
}

impl BertPlan {
    /// Packs mapped weights (consumed: each matrix is freed once packed).
    pub fn new(weights: BertWeights) -> Self {
        let output_dims = match &weights.head {
            Head::Classifier { classifier, .. } => vec![None, Some(classifier.outputs)],
            Head::States => vec![None, None, Some(weights.hidden)],
        };
        let bert = CpuBert::new(weights);
        BertPlan { bert: Arc::new(bert), output_dims }
    }

    /// Always: the engine runs each row alone, unpadded (no attention mask; the same logits in any batch).
    pub fn rows_alone(&self) -> bool {
        true
    }

    /// Runs one padded batch; the output as `f32` with its shape `[rows, …]`, a per-token output zero-padded to the
    /// batch length (as tract's plan gives it).
    pub fn run(&self, batch: &Batch) -> Result<(Vec<usize>, Vec<f32>)> {
        self.bert.run(batch)
    }
}
