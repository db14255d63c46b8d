//! Grouping sequences into padded batches.
//!
//! Sequences are sorted by length (longest first, stable), cut into batches of `batchSize` rows (fewer where a
//! memory budget says so: [`super::memory_budget`]), and each batch is
//! padded only to its own longest member (dynamic padding), so a batch of short passages does not pay for one
//! long one. Each batch remembers the original index of every row, so results are put back in input order.
//! Padded positions get the pad id, type id 0 and attention mask 0: the model ignores them, and a row's
//! logits match the unpadded sequence to float rounding.

use super::memory_budget::BatchLimit;

/// One model input row before padding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sequence {
    pub ids: Vec<i64>,
    pub type_ids: Vec<i64>,
}

impl Sequence {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// A padded batch: row-major `[rows, len]` tensors and the input index of each row.
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    /// `rows[r]` is the index (in the slice given to [`batches`]) of row `r`.
    pub rows: Vec<usize>,
    /// Padded sequence length.
    pub len: usize,
    pub input_ids: Vec<i64>,
    pub attention_mask: Vec<i64>,
    pub token_type_ids: Vec<i64>,
}

impl Batch {
    /// Its rows unpadded, in batch order: what [`pad`] made it from (the attention mask says each row's length).
    pub fn sequences(&self) -> Vec<Sequence> {
        (0..self.rows.len())
            .map(|r| {
                let row = r * self.len..(r + 1) * self.len;
                let n = self.attention_mask[row.clone()].iter().filter(|&&m| m != 0).count();
                let start = row.start;
                Sequence { ids: self.input_ids[start..start + n].to_vec(), type_ids: self.token_type_ids[start..start + n].to_vec() }
            })
            .collect()
    }
}

/// Groups `sequences` into batches of at most `limit` rows (fewer for long rows, within their activations' room), longest
/// first, each padded to its longest row.
pub fn batches(sequences: &[Sequence], limit: &BatchLimit, pad_id: i64) -> Vec<Batch> {
    let mut order: Vec<usize> = (0..sequences.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sequences[i].len())); // stable
    let mut out = Vec::new();
    let mut rest = &order[..];
    while let Some(&first) = rest.first() {
        // the first row is the longest: the batch's padded length
        let n = limit.rows_at(sequences[first].len()).clamp(1, rest.len());
        out.push(pad(sequences, &rest[..n], pad_id));
        rest = &rest[n..];
    }
    out
}

/// Groups `sequences` into batches of at most `limit` rows in their own order, each padded to its longest row:
/// more padding than [`batches`], but the first batches hold the first sequences.
pub fn batches_in_order(sequences: &[Sequence], limit: &BatchLimit, pad_id: i64) -> Vec<Batch> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < sequences.len() {
        let (mut end, mut len) = (start + 1, sequences[start].len());
        while end < sequences.len() {
            let longer = len.max(sequences[end].len());
            if end + 1 - start > limit.rows_at(longer) {
                break;
            }
            (end, len) = (end + 1, longer);
        }
        out.push(pad(sequences, &(start..end).collect::<Vec<_>>(), pad_id));
        start = end;
    }
    out
}

/// Pads the rows `rows` of `sequences` to their longest length.
pub fn pad(sequences: &[Sequence], rows: &[usize], pad_id: i64) -> Batch {
    let len = rows.iter().map(|&i| sequences[i].len()).max().unwrap_or(0);
    let n = rows.len() * len;
    let (mut input_ids, mut attention_mask, mut token_type_ids) = (vec![pad_id; n], vec![0; n], vec![0; n]);
    for (r, &i) in rows.iter().enumerate() {
        let s = &sequences[i];
        let base = r * len;
        input_ids[base..base + s.len()].copy_from_slice(&s.ids);
        token_type_ids[base..base + s.len()].copy_from_slice(&s.type_ids);
        attention_mask[base..base + s.len()].fill(1);
    }
    Batch { rows: rows.to_vec(), len, input_ids, attention_mask, token_type_ids }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(n: usize) -> Sequence {
        Sequence { ids: (1..=n as i64).collect(), type_ids: vec![0; n] }
    }

    #[test]
    fn sorts_pads_and_remembers_order() {
        let s = vec![seq(2), seq(5), seq(3), seq(5)];
        let b = batches(&s, &BatchLimit::rows(2), 0);
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].rows, vec![1, 3]);
        assert_eq!(b[0].len, 5);
        assert_eq!(b[1].rows, vec![2, 0]);
        assert_eq!(b[1].len, 3);
        assert_eq!(b[1].input_ids, vec![1, 2, 3, 1, 2, 0]);
        assert_eq!(b[1].attention_mask, vec![1, 1, 1, 1, 1, 0]);
    }

    #[test]
    fn a_batch_gives_back_its_sequences() {
        let s = vec![seq(2), seq(5), Sequence { ids: vec![7, 8, 9], type_ids: vec![0, 1, 1] }];
        for b in batches(&s, &BatchLimit::rows(2), 0).into_iter().chain(batches_in_order(&s, &BatchLimit::rows(2), 0)) {
            let want: Vec<Sequence> = b.rows.iter().map(|&i| s[i].clone()).collect();
            assert_eq!(b.sequences(), want);
        }
    }

    #[test]
    fn a_memory_budget_gives_long_rows_smaller_batches() {
        use crate::inference::memory_budget::ActivationCost;
        // 100 bytes per row-token: 1,000 bytes of room hold 2 rows of 5 tokens, 3 of 3, 5 of 2
        let cost = ActivationCost { feed_forward_per_token: 100, attention_per_token: 0, per_square: 0, rows_alone: false };
        let limit = BatchLimit { rows: 4, bytes: Some((1000, cost)), budgeted: true };
        let s = vec![seq(2), seq(5), seq(3), seq(5), seq(2), seq(2), seq(3), seq(2)];
        let sizes = |b: &[Batch]| b.iter().map(|b| (b.rows.len(), b.len)).collect::<Vec<_>>();
        assert_eq!(sizes(&batches(&s, &limit, 0)), [(2, 5), (3, 3), (3, 2)]);
        // in order, a batch ends before the row that would make it too long or too many
        assert_eq!(sizes(&batches_in_order(&s, &limit, 0)), [(2, 5), (2, 5), (3, 3), (1, 2)]);
        for b in batches(&s, &limit, 0).iter().chain(&batches_in_order(&s, &limit, 0)) {
            assert!(cost.batch_bytes(b.rows.len(), b.len) <= 1000);
        }
    }

    #[test]
    fn empty_input_gives_no_batch() {
        assert!(batches(&[], &BatchLimit::rows(8), 0).is_empty());
    }
}
