//! Rankers that need no model: recentness, lost-in-the-middle, diversity, fusion, adaptive weight.
//!
//! Every ranker takes one list of [`Document`]s or a list of lists ([`Batch`]) and ranks each list on its own.
//! Sorting is stable everywhere: documents with equal keys keep their input order, as Python's `sorted` does.
//! Bad input never panics: it is an [`Error`] whose message names the field (`documents[3].meta.date: …`).
//!
//! - [`recentness`]: Haystack's `RecentnessRanker` (docs/parity.md §3).
//! - [`lost_in_the_middle`]: `LostInTheMiddleRanker` (docs/parity.md §4).
//! - [`diversity`]: `DiversityRanker`, greedy diversity order and MMR over precomputed embeddings (docs/parity.md §5).
//! - [`fusion`]: rank fusion over ranx-shaped runs (RRF, weighted sum, CombSUM/MNZ/MAX, score normalisation).
//! - [`adaptive_weight`]: the adaptive reranker weight of seed 002 (docs/parity.md §6).
//! - [`lenient_date`]: the dateutil-like date reading that recentness relies on.

pub mod adaptive_weight;
pub mod batch;
pub mod diversity;
pub mod fusion;
pub mod lenient_date;
pub mod lost_in_the_middle;
pub mod recentness;

pub use adaptive_weight::{adaptive_weight, combine_scores, AdaptiveWeight, PositionError};
pub use batch::{pair_queries_with_lists, Batch, QueryBatch, QueryListPairs};
pub use diversity::{DiversityRanker, DiversityStrategy, Similarity};
pub use lost_in_the_middle::LostInTheMiddleRanker;
pub use recentness::{RankingMode, RecentnessRanker};

use crate::document::Document;

/// A ranker's answer: the documents in their new order, and warnings a caller may want to log (Haystack logs
/// them; rerankit hands them back so that callers decide).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RankedDocuments {
    pub documents: Batch<Document>,
    /// Each warning names the field it is about (`documents[2].score: …`).
    pub warnings: Vec<String>,
}

/// Haystack's `documents[:top_k]`: the length Python's slice keeps of `len` items. A negative `top_k` drops the
/// last `|top_k|` items (all of them when `|top_k| ≥ len`); `None` keeps all. What 0 means differs per ranker
/// (`[:0]` keeps none, but some rankers read `top_k or …` first), so each ranker maps it before calling this.
pub fn python_prefix_len(len: usize, top_k: Option<i64>) -> usize {
    match top_k {
        None => len,
        Some(k) if k >= 0 => usize::try_from(k).map_or(len, |k| k.min(len)),
        Some(k) => len.saturating_sub(usize::try_from(k.unsigned_abs()).unwrap_or(usize::MAX)),
    }
}

/// Haystack's `top_k or …`: 0 is falsy in Python, so it keeps every document as `None` does.
pub(crate) fn zero_keeps_all(top_k: Option<i64>) -> Option<i64> {
    top_k.filter(|&k| k != 0)
}

/// Keeps `items[:top_k]` as Python slices it ([`python_prefix_len`]).
pub(crate) fn cut_to_top_k<T>(items: &mut Vec<T>, top_k: Option<i64>) {
    items.truncate(python_prefix_len(items.len(), top_k));
}
