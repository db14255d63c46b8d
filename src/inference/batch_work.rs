//! A model call cut into the padded batches it runs, so that the caller can run them where it likes (inline
//! between event-loop turns, or spread over pool workers: pkg/models/pool.ts) and still get the answer of one thread.
//!
//! The batches are exactly the ones the single-threaded path builds ([`batches`]: length-sorted, dynamic
//! padding), and a batch's outputs depend only on the batch, so every row's values are bit-identical whichever
//! thread ran its batch. Outputs come back per batch (`[rows × width]`, the batch's row order) and are put back
//! in input order by [`BatchWork::assemble`].

use super::batching::{batches, batches_in_order, Batch, Sequence};
use super::memory_budget::BatchLimit;
use crate::{Error, Result};

/// The batches of one call over `rows` model inputs, each answering `width` values per row.
#[derive(Debug, Clone)]
pub struct BatchWork {
    pub batches: Vec<Batch>,
    pub rows: usize,
    pub width: usize,
}

impl BatchWork {
    /// `sequences` in batches within `limit` (`batchSize` at least 1), sorted by length.
    pub fn new(sequences: &[Sequence], limit: BatchLimit, pad_id: i64, width: usize) -> Result<BatchWork> {
        let limit = checked(sequences, limit)?;
        Ok(BatchWork { batches: batches(sequences, &limit, pad_id), rows: sequences.len(), width })
    }

    /// `sequences` in batches in their own order ([`batches_in_order`]): what a call stopped early has scored is
    /// the head of the input.
    pub fn in_order(sequences: &[Sequence], limit: BatchLimit, pad_id: i64, width: usize) -> Result<BatchWork> {
        let limit = checked(sequences, limit)?;
        Ok(BatchWork { batches: batches_in_order(sequences, &limit, pad_id), rows: sequences.len(), width })
    }

    /// The per-batch outputs (one per batch, in batch order) as one row-major `[rows × width]` in input order.
    pub fn assemble<V: AsRef<[f32]>>(&self, outputs: &[V]) -> Result<Vec<f32>> {
        if outputs.len() != self.batches.len() {
            return Err(Error::invalid("outputs", format!("{} batch outputs for {} batches", outputs.len(), self.batches.len())));
        }
        let w = self.width;
        let mut out = vec![0f32; self.rows * w];
        for (b, (batch, values)) in self.batches.iter().zip(outputs).enumerate() {
            let values = values.as_ref();
            if values.len() != batch.rows.len() * w {
                return Err(Error::invalid(&format!("outputs[{b}]"), format!("{} values, expected {} rows × {w}", values.len(), batch.rows.len())));
            }
            for (r, &i) in batch.rows.iter().enumerate() {
                out[i * w..(i + 1) * w].copy_from_slice(&values[r * w..(r + 1) * w]);
            }
        }
        Ok(out)
    }
}

/// `limit` when `batchSize` is at least 1 and the longest of `sequences` fits its memory budget.
fn checked(sequences: &[Sequence], limit: BatchLimit) -> Result<BatchLimit> {
    if limit.rows == 0 {
        return Err(Error::invalid("batchSize", "must be at least 1"));
    }
    limit.check(sequences.iter().map(Sequence::len).max().unwrap_or(0))?;
    Ok(limit)
}
