//! Haystack's `DiversityRanker` (seed 000, docs/parity.md §5) over precomputed embeddings.
//!
//! The core ([`diversity_order`]) takes plain `&[f32]` vectors, so any embedder can feed it; [`DiversityRanker`]
//! reads them from `Document.embedding` and a query embedding. With `similarity = cosine` every vector is first
//! L2-normalised (a zero vector is then an error); with `dot_product` vectors are used as they are.
//! Similarities are computed in f64.
//!
//! - **Greedy diversity order** (Haystack 1.x / 2.x): first the document most similar to the query; then,
//!   repeatedly, the remaining document d that minimises the mean similarity to the already-picked set S,
//!   `(1/|S|) Σ_{s∈S} sim(d, s)`. Ties go to the earlier input index.
//! - **MMR** (Haystack 2.x, `lambda` λ ∈ [0, 1]): first the document most similar to the query; then
//!   `argmax_d λ·sim(q, d) − (1 − λ)·max_{s∈S} sim(d, s)`, ties to the earlier input index.
//!
//! Both stop after `order[:top_k]` picks (Python's slice, as Haystack's `diversity_sorted[:top_k]`: 0 picks none,
//! a negative `top_k` leaves out the last `|top_k|`), which is the same as ordering everything and cutting.
//!
//! As Haystack's `predict` / `predict_batch`, there must be something to choose from: an empty list of documents,
//! no lists at all or no query embeddings are errors.
//!
//! **Scores**: Haystack leaves scores untouched; rerankit sets each document's score to the similarity it used,
//! `sim(q, d)` between the query and the document (cosine or dot product). The order is the diversity order, so
//! these scores need not be descending.

use super::batch::{pair_queries_with_lists, Batch, QueryBatch};
use super::{python_prefix_len, RankedDocuments};
use crate::document::Document;
use crate::error::{Error, Result};

/// How two embeddings are compared: "dot_product" (default) or "cosine" (vectors L2-normalised first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "snake_case"))]
pub enum Similarity {
    /// `a · b` (Haystack's default).
    #[default]
    DotProduct,
    /// `a · b / (|a| |b|)`.
    Cosine,
}

impl Similarity {
    /// `"dot_product"` or `"cosine"`.
    pub fn parse(field: &str, s: &str) -> Result<Self> {
        match s {
            "dot_product" => Ok(Similarity::DotProduct),
            "cosine" => Ok(Similarity::Cosine),
            other => Err(Error::invalid(field, format!("expected \"dot_product\" or \"cosine\", got {other:?}"))),
        }
    }
}

crate::deserialize_by_parse!(Similarity, |s| Similarity::parse("", s));

/// Options of a `DiversityRanker` (Haystack's `DiversityRanker` parameters).
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct DiversityRankerOptions {
    /// How documents are compared. Default "dot_product".
    pub similarity: Similarity,
    /// How the next document is picked. Default "greedy".
    pub strategy: StrategyName,
    /// MMR trade-off in [0, 1] (1 = relevance only). Default 0.5.
    pub lambda: Option<f64>,
    /// How many documents to pick per list, as Haystack's `[:topK]`: 0 picks none, a negative count leaves out
    /// the last `-topK`; `null` (default) orders all of them.
    pub top_k: Option<i64>,
}

/// How a DiversityRanker picks the next document: "greedy" (the least mean similarity to the picked documents;
/// default) or "mmr" (maximal marginal relevance).
// The names of the [`DiversityStrategy`] kinds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum StrategyName {
    #[default]
    Greedy,
    Mmr,
}

impl TryFrom<DiversityRankerOptions> for DiversityRanker {
    type Error = Error;
    fn try_from(o: DiversityRankerOptions) -> Result<Self> {
        let strategy = match o.strategy {
            StrategyName::Greedy => DiversityStrategy::Greedy,
            StrategyName::Mmr => DiversityStrategy::MaximalMarginalRelevance { lambda: o.lambda.unwrap_or(0.5) },
        };
        DiversityRanker::new(o.similarity, strategy, o.top_k)
    }
}

/// How the next document is picked.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum DiversityStrategy {
    /// Least mean similarity to the picked documents.
    #[default]
    Greedy,
    /// Maximal marginal relevance with trade-off `lambda` (1 = relevance only, 0 = diversity only).
    MaximalMarginalRelevance { lambda: f64 },
}

/// Orders documents so that each next one adds the most diversity.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DiversityRanker {
    similarity: Similarity,
    strategy: DiversityStrategy,
    top_k: Option<i64>,
}

impl DiversityRanker {
    /// `top_k`: `order[:top_k]` (`None` = all; see the module docs). MMR's `lambda` must lie in [0, 1].
    pub fn new(similarity: Similarity, strategy: DiversityStrategy, top_k: Option<i64>) -> Result<Self> {
        if let DiversityStrategy::MaximalMarginalRelevance { lambda } = strategy {
            if !(0.0..=1.0).contains(&lambda) {
                return Err(Error::invalid("lambda", format!("must lie in [0, 1], got {lambda}")));
            }
        }
        Ok(DiversityRanker { similarity, strategy, top_k })
    }

    /// Ranks one list with one query embedding, each list of a list of lists with the same query embedding, or
    /// list i with query embedding i (see [`crate::rankers::batch`]).
    pub fn run(&self, query_embeddings: QueryBatch<Vec<f32>>, documents: Batch<Document>) -> Result<RankedDocuments> {
        if matches!(&query_embeddings, QueryBatch::Many(queries) if queries.is_empty()) {
            return Err(Error::invalid("queryEmbedding", "is empty: DiversityRanker needs a query to rank for"));
        }
        if matches!(&documents, Batch::Many(lists) if lists.is_empty()) {
            return Err(no_documents("documents"));
        }
        let pairs = pair_queries_with_lists("queryEmbedding", query_embeddings, "documents", documents)?;
        let documents = pairs.try_map(|path, query, list| self.rank_list(path, &query, list))?;
        Ok(RankedDocuments { documents, warnings: Vec::new() })
    }

    /// Ranks a single list by its documents' `embedding`s; `path` names it in error messages.
    pub fn rank_list(&self, path: &str, query_embedding: &[f32], documents: Vec<Document>) -> Result<Vec<Document>> {
        let picks = self.rank_positions(path, query_embedding, &documents)?;
        let mut slots: Vec<Option<Document>> = documents.into_iter().map(Some).collect();
        Ok(picks
            .into_iter()
            .filter_map(|(i, sim)| {
                let mut doc = slots[i].take()?;
                doc.score = Some(sim);
                Some(doc)
            })
            .collect())
    }

    /// The picks as `(input index, sim(query, document))`, in diversity order.
    pub fn rank_positions(&self, path: &str, query_embedding: &[f32], documents: &[Document]) -> Result<Vec<(usize, f64)>> {
        if documents.is_empty() {
            return Err(no_documents(path));
        }
        // Documents keep their embeddings as doubles; the ranker compares float32 vectors, as it always has
        // (the query embedding is float32 too), so each document's is narrowed here.
        let mut vectors: Vec<Vec<f32>> = Vec::with_capacity(documents.len());
        for (i, doc) in documents.iter().enumerate() {
            match &doc.embedding {
                Some(e) => vectors.push(e.iter().map(|&x| x as f32).collect()),
                None => {
                    return Err(Error::invalid(
                        &format!("{path}[{i}].embedding"),
                        format!(
                            "document {} has no embedding; DiversityRanker compares embeddings (give every document \
                             one, or use an embedder)",
                            doc.id
                        ),
                    ))
                }
            }
        }
        let vectors: Vec<&[f32]> = vectors.iter().map(Vec::as_slice).collect();
        diversity_order(query_embedding, &vectors, self.similarity, self.strategy, self.top_k)
            .map_err(|e| Error::new(e.code, e.message.replacen("documents[", &format!("{path}["), 1)))
    }
}

/// Haystack's "No documents to choose from", for the list at `path` (or a batch without lists).
pub fn no_documents(path: &str) -> Error {
    Error::invalid(path, "is empty: DiversityRanker has no documents to choose from")
}

/// The diversity order of `documents` for `query`: `(input index, sim(query, document))` for each pick of
/// `order[:top_k]`. Errors name `queryEmbedding`, `documents` or `documents[i].embedding`.
pub fn diversity_order(
    query: &[f32],
    documents: &[&[f32]],
    similarity: Similarity,
    strategy: DiversityStrategy,
    top_k: Option<i64>,
) -> Result<Vec<(usize, f64)>> {
    let n = documents.len();
    if n == 0 {
        return Err(no_documents("documents"));
    }
    if query.is_empty() {
        return Err(Error::invalid("queryEmbedding", "is empty"));
    }
    let query = prepared_vector("queryEmbedding", query, similarity)?;
    let docs: Vec<Vec<f64>> = documents
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let field = format!("documents[{i}].embedding");
            if d.len() != query.len() {
                return Err(Error::invalid(
                    &field,
                    format!("has {} dimensions but the query embedding has {}", d.len(), query.len()),
                ));
            }
            prepared_vector(&field, d, similarity)
        })
        .collect::<Result<_>>()?;

    let relevance: Vec<f64> = docs.iter().map(|d| dot(&query, d)).collect();
    let picks = python_prefix_len(n, top_k);
    if picks == 0 {
        return Ok(Vec::new());
    }
    let mut picked = vec![false; n];
    let mut order = Vec::with_capacity(picks);

    let first = argmax_first(relevance.iter().copied().enumerate());
    picked[first] = true;
    order.push(first);

    // Greedy: Σ_{s∈S} sim(d, s) per document; MMR: max_{s∈S} sim(d, s). Both updated with each new pick.
    let mut to_picked: Vec<f64> = docs.iter().map(|d| dot(d, &docs[first])).collect();
    while order.len() < picks {
        let candidates = (0..n).filter(|&i| !picked[i]);
        let next = match strategy {
            DiversityStrategy::Greedy => argmax_first(candidates.map(|i| (i, -to_picked[i]))),
            DiversityStrategy::MaximalMarginalRelevance { lambda } => {
                argmax_first(candidates.map(|i| (i, lambda * relevance[i] - (1.0 - lambda) * to_picked[i])))
            }
        };
        picked[next] = true;
        order.push(next);
        for i in 0..n {
            if !picked[i] {
                let s = dot(&docs[i], &docs[next]);
                to_picked[i] = match strategy {
                    DiversityStrategy::Greedy => to_picked[i] + s,
                    DiversityStrategy::MaximalMarginalRelevance { .. } => to_picked[i].max(s),
                };
            }
        }
    }
    Ok(order.into_iter().map(|i| (i, relevance[i])).collect())
}

/// The vector in f64, L2-normalised for cosine.
fn prepared_vector(field: &str, v: &[f32], similarity: Similarity) -> Result<Vec<f64>> {
    if let Some(i) = v.iter().position(|x| !x.is_finite()) {
        return Err(Error::invalid(field, format!("value at index {i} is not finite")));
    }
    let v: Vec<f64> = v.iter().map(|&x| x as f64).collect();
    match similarity {
        Similarity::DotProduct => Ok(v),
        Similarity::Cosine => {
            let norm = dot(&v, &v).sqrt();
            if norm == 0.0 {
                return Err(Error::invalid(field, "is a zero vector, which has no cosine similarity"));
            }
            Ok(v.into_iter().map(|x| x / norm).collect())
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The index with the largest value; the first such index on ties.
fn argmax_first(values: impl Iterator<Item = (usize, f64)>) -> usize {
    let mut best: Option<(usize, f64)> = None;
    for (i, v) in values {
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    }
    best.map_or(0, |(i, _)| i)
}
