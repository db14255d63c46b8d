//! Cross-encoder reranking (docs/parity.md §2, Haystack's `SentenceTransformersRanker`).
//!
//! For each (query, document) pair the model gives logits `z ∈ ℝ^L` (`L = num_labels`). The sort key is
//! `k = z₀` when `L = 1`, else the **last** logit `k = z_{L−1}`. A document longer than the window is cut into
//! chunks ([`super::tokenization::PairTokenizer::chunks`]) and keeps `k = max over its chunks`.
//!
//! The reported score is
//! - `σ(k · calibration_factor)` with `σ(x) = 1 / (1 + e^{−x})` when `L = 1` and `scale_score` (the default for
//!   one-logit models);
//! - `k` itself otherwise (raw logit; a two-logit model is scored by its raw last logit, no softmax).
//!
//! Documents scoring below `score_threshold` are dropped; the rest are sorted by score descending (then by `k`),
//! stably, so equal scores keep input order like Python's `sorted(..., reverse=True)`; then cut to `top_k`
//! (default 10, `None` = all).

use super::batch_work::BatchWork;
use super::batching::{Batch, Sequence};
use super::cpu::CpuPlan;
use super::memory_budget::{self, batch_limit, MemoryBudget, ModelMemory};
use super::model_info::{parse_config, ModelInfo};
use super::tokenization::PairTokenizer;
use super::{ModelLoadOptions, ModelFiles, PreparedModel};
use crate::python::repr as python_repr;
use crate::rankers::batch::{pair_queries_with_lists, Batch as RankerBatch, QueryBatch};
use std::borrow::Borrow;
use crate::python::values::truthy;
use crate::{Document, Error, Result};
use serde_json::Value;

/// Options of `CrossEncoder.score` (raw scores of query–document pairs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ScoreOptions {
    /// The most pairs per model call. Default 16; on the CPU long windows run fewer (`memoryBudgetMiB`).
    pub batch_size: usize,
}

impl Default for ScoreOptions {
    fn default() -> Self {
        ScoreOptions { batch_size: 16 }
    }
}

/// Options of `CrossEncoder.rerank` and `rerankBatch`; an absent key keeps its default.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct RerankOptions {
    /// Keep this many best documents; `null` keeps all. Default 10.
    pub top_k: Option<usize>,
    /// The most pairs per model call. Default 16 (Haystack's default); on the CPU long windows run fewer
    /// (`memoryBudgetMiB`).
    pub batch_size: usize,
    /// Sigmoid on one-logit models (default true); raw logits when false.
    pub scale_score: Option<bool>,
    /// sigmoid(logit × calibrationFactor). Default 1.
    pub calibration_factor: f32,
    /// Drop documents scoring below this (after scaling).
    pub score_threshold: Option<f32>,
    /// Long documents: chunks scored per document, the best kept. Default 10; 1 = plain truncation.
    pub max_chunks_per_doc: usize,
    /// Tokens shared by consecutive chunks. Default 0.
    pub chunk_overlap: usize,
    /// Meta fields whose values precede the content (joined with "\n") in the text the model reads.
    pub embed_meta_fields: Vec<String>,
    /// Score only the first this many documents of each list — your first-stage order — and return the others
    /// after them, unscored, in their order (each result then says `scored`). Default: all.
    pub max_documents: Option<usize>,
    /// A time budget for the whole call, in milliseconds (an edge function's CPU limit, a page's patience). The
    /// documents are scored in your order, batch by batch; no batch starts once the time is up or when the
    /// longest batch so far would end past it, and the call returns every document: the scored ones ranked
    /// first, the rest after them in your order, each result saying whether it was `scored`. On the CPU, inline
    /// and with workers; a model on WebGPU runs the call whole.
    // Rust only checks the value: the caller's clock stops the call between batches, and
    // [`RerankWork::rank_partial`] ranks what was scored.
    pub deadline_ms: Option<f64>,
}

impl Default for RerankOptions {
    fn default() -> Self {
        RerankOptions {
            top_k: Some(10),
            batch_size: 16,
            scale_score: None,
            calibration_factor: 1.0,
            score_threshold: None,
            max_chunks_per_doc: 10,
            chunk_overlap: 0,
            embed_meta_fields: Vec::new(),
            max_documents: None,
            deadline_ms: None,
        }
    }
}

impl RerankOptions {
    /// `INVALID_ARGUMENT` naming the field when an option is out of range (shared with the WebGPU ranker).
    pub fn validate(&self) -> Result<()> {
        if self.top_k == Some(0) {
            return Err(Error::invalid("topK", "must be at least 1 (or null for all documents)"));
        }
        if self.batch_size == 0 {
            return Err(Error::invalid("batchSize", "must be at least 1"));
        }
        if !self.calibration_factor.is_finite() {
            return Err(Error::invalid("calibrationFactor", "must be a finite number"));
        }
        if self.score_threshold.is_some_and(f32::is_nan) {
            return Err(Error::invalid("scoreThreshold", "must be a number, not NaN"));
        }
        if self.max_chunks_per_doc == 0 {
            return Err(Error::invalid("maxChunksPerDoc", "must be at least 1"));
        }
        if self.deadline_ms.is_some_and(|d| !(d.is_finite() && d >= 0.0)) {
            return Err(Error::invalid("deadlineMs", "must be a finite number of milliseconds ≥ 0 (or null for none)"));
        }
        Ok(())
    }

    /// Whether some documents may come back unscored (`maxDocuments` or `deadlineMs` given): the results then say
    /// which were scored.
    pub fn may_leave_unscored(&self) -> bool {
        self.max_documents.is_some() || self.deadline_ms.is_some()
    }
}

/// One reranked document: its index in the input and its score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ranked {
    pub index: usize,
    pub score: f32,
}

/// A rerank's batches (every chunk of every document of every group) and what ranks their logits.
#[derive(Debug, Clone)]
pub struct RerankWork {
    pub work: BatchWork,
    /// Documents per group.
    pub group_sizes: Vec<usize>,
    /// `(group, document)` of every sequence, in input order.
    pub owners: Vec<(usize, usize)>,
    pub options: RerankOptions,
}

impl RerankWork {
    /// Each group ranked from the per-batch logits (as [`BatchWork::assemble`] takes them).
    pub fn rank<V: AsRef<[f32]>>(&self, outputs: &[V]) -> Result<Vec<Vec<Ranked>>> {
        let logits = self.work.assemble(outputs)?;
        rank_groups(&self.group_sizes, &self.owners, &logits, None, self.work.width, &self.options)
    }

    /// Each group ranked from the batches that ran (`None`: the batch did not run, as when a deadline stopped the
    /// call): a document is scored when every one of its chunks ran; the others follow unscored (score NaN).
    pub fn rank_partial(&self, outputs: &[Option<Vec<f32>>]) -> Result<Vec<Vec<Ranked>>> {
        let w = self.work.width;
        // a batch that did not run stands in as zeros: its rows are marked not done below and never read
        let ran: Vec<std::borrow::Cow<[f32]>> = (self.work.batches.iter().zip(outputs))
            .map(|(b, o)| o.as_deref().map_or_else(|| vec![0.0; b.rows.len() * w].into(), Into::into))
            .collect();
        let logits = self.work.assemble(&ran)?;
        let mut done = vec![false; self.owners.len()];
        for (batch, output) in self.work.batches.iter().zip(outputs) {
            if output.is_some() {
                batch.rows.iter().for_each(|&r| done[r] = true);
            }
        }
        rank_groups(&self.group_sizes, &self.owners, &logits, Some(&done), w, &self.options)
    }
}

/// Documents given to [`CrossEncoder::predict_batch`]: one list, or a list of lists.
#[derive(Debug, Clone)]
pub enum BatchDocuments {
    Flat(Vec<Document>),
    Nested(Vec<Vec<Document>>),
}

/// The result of [`CrossEncoder::predict_batch`], shaped like its input.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchRanking {
    Flat(Vec<Ranked>),
    Nested(Vec<Vec<Ranked>>),
}

/// A loaded cross-encoder: tokenizer + optimised plan, reused for every call.
#[derive(Clone)]
pub struct CrossEncoder {
    plan: CpuPlan,
    tokenizer: PairTokenizer,
    info: ModelInfo,
    num_labels: usize,
    memory: Option<ModelMemory>,
}

impl CrossEncoder {
    /// Loads a cross-encoder whose graph outputs `logits [batch, num_labels]`.
    pub fn load(files: ModelFiles<'_>, options: &ModelLoadOptions) -> Result<Self> {
        Self::from_prepared(PreparedModel::of(files)?, options)
    }

    /// [`CrossEncoder::load`] from a decoded graph (which the plan consumes).
    pub fn from_prepared(model: PreparedModel<'_>, options: &ModelLoadOptions) -> Result<Self> {
        let _work = memory_budget::ModelWork::begin();
        let config = model.config.map(parse_config).transpose()?;
        let proto = model.graph;
        let info = ModelInfo::detect(&proto, config.as_ref())?;
        let max_length = info.resolve_max_length(options.max_length)?;
        let budget = options.memory_budget_mib.map(MemoryBudget::from_mib).transpose()?;
        if !info.outputs.iter().any(|o| o == "logits") {
            return Err(Error::model_load(format!(
                "model: a cross-encoder must output \"logits\" [batch, num_labels]; this graph outputs {:?}",
                info.outputs
            )));
        }
        let plan = CpuPlan::new(proto, &info, "logits")?;
        // after the plan: the tokenizer's tables then take memory the decoded graph has freed, not add to the
        // load's peak (the graph and the weights made from it)
        let mut tokenizer = PairTokenizer::from_bytes(model.tokenizer, max_length, &info)?;
        if let Some(n) = options.max_query_tokens {
            tokenizer.set_max_query_tokens(n)?;
        }
        memory_budget::loaded();
        let memory = ModelMemory::of_loaded(budget, &info, plan.rows_alone(), max_length)?;
        let num_labels = match plan.output_dims() {
            [_, Some(n)] if *n >= 1 => *n,
            [_, None] => info.config_num_labels.unwrap_or(1),
            other => {
                return Err(Error::model_load(format!("model: logits must be [batch, num_labels], got rank {}", other.len())))
            }
        };
        Ok(CrossEncoder { plan, tokenizer, info, num_labels, memory })
    }

    /// Logits per pair (1 for a relevance model, 2 or more for classifiers).
    pub fn num_labels(&self) -> usize {
        self.num_labels
    }

    /// The window (special tokens included) pairs are truncated or chunked to.
    pub fn max_length(&self) -> usize {
        self.tokenizer.max_length
    }

    /// What was detected about the graph.
    pub fn info(&self) -> &ModelInfo {
        &self.info
    }

    /// The tokenizer as prepared for this model (pair encoding, truncation, chunking).
    pub fn tokenizer(&self) -> &PairTokenizer {
        &self.tokenizer
    }

    /// The model input of one pair, truncated only_second (no chunking): what [`CrossEncoder::score`] feeds.
    pub fn encode_pair(&self, query: &str, document: &str) -> Result<Sequence> {
        let q = self.tokenizer.query(query)?;
        let d = self.tokenizer.document(&q, document, 1, 0)?;
        let w = self.tokenizer.window(&q);
        self.tokenizer.pair(&q, &d, 0, w.min(d.len()))
    }

    /// The model inputs of `pairs` (an error names the pair: `pairs[3]: …`), on either engine.
    pub fn encode_pairs(&self, pairs: &[(&str, &str)]) -> Result<Vec<Sequence>> {
        pairs
            .iter()
            .enumerate()
            .map(|(i, (q, d))| self.encode_pair(q, d).map_err(|e| e.at(&format!("pairs[{i}]"))))
            .collect()
    }

    /// Raw logits of each pair, row-major `[pairs.len() × num_labels]`; pairs are truncated only_second.
    pub fn score(&self, pairs: &[(&str, &str)], batch_size: usize) -> Result<Vec<f32>> {
        self.logits(&self.encode_pairs(pairs)?, batch_size)
    }

    /// Logits of padded batches of `sequences`, back in input order, row-major `[n × num_labels]`.
    pub fn logits(&self, sequences: &[Sequence], batch_size: usize) -> Result<Vec<f32>> {
        let work = BatchWork::new(sequences, batch_limit(self.memory.as_ref(), batch_size), self.tokenizer.pad_id as i64, self.num_labels)?;
        let outputs = work.batches.iter().map(|b| self.run_batch(b)).collect::<Result<Vec<_>>>()?;
        work.assemble(&outputs)
    }

    /// The logits of one padded batch, `[rows × num_labels]` in the batch's row order.
    pub fn run_batch(&self, batch: &Batch) -> Result<Vec<f32>> {
        let l = self.num_labels;
        let (shape, values) = self.plan.run(batch)?;
        if shape != [batch.rows.len(), l] {
            return Err(Error::internal(format!("logits came back as {shape:?}, expected [{}, {l}]", batch.rows.len())));
        }
        Ok(values)
    }

    /// `score` as batches to run anywhere ([`BatchWork`]).
    pub fn score_work(&self, pairs: &[(&str, &str)], batch_size: usize) -> Result<BatchWork> {
        let sequences = self.encode_pairs(pairs)?;
        BatchWork::new(&sequences, batch_limit(self.memory.as_ref(), batch_size), self.tokenizer.pad_id as i64, self.num_labels)
    }

    /// `rerank_groups` as batches to run anywhere ([`RerankWork`]).
    pub fn rerank_work(&self, groups: &[(&str, Vec<String>)], options: &RerankOptions) -> Result<RerankWork> {
        let (sequences, owners) = group_sequences(&self.tokenizer, groups, options)?;
        let pad = self.tokenizer.pad_id as i64;
        // the room is measured with the call's tokens held
        let limit = batch_limit(self.memory.as_ref(), options.batch_size);
        Ok(RerankWork {
            // under a deadline the batches go in the caller's order, so that what is scored in time is the head of
            // the caller's ranking
            work: if options.deadline_ms.is_some() {
                BatchWork::in_order(&sequences, limit, pad, self.num_labels)?
            } else {
                BatchWork::new(&sequences, limit, pad, self.num_labels)?
            },
            group_sizes: groups.iter().map(|(_, texts)| texts.len()).collect(),
            owners,
            options: options.clone(),
        })
    }

    /// Reranks `documents` for `query` (text documents; see [`RerankOptions`]).
    pub fn rerank(&self, query: &str, documents: &[Document], options: &RerankOptions) -> Result<Vec<Ranked>> {
        let texts = document_texts("documents", documents, &options.embed_meta_fields)?;
        Ok(self.rerank_groups(&[(query, texts)], options)?.pop().unwrap_or_default())
    }

    /// Reranks plain texts for `query`.
    pub fn rerank_texts(&self, query: &str, texts: &[&str], options: &RerankOptions) -> Result<Vec<Ranked>> {
        let texts = texts.iter().map(|t| t.to_string()).collect();
        Ok(self.rerank_groups(&[(query, texts)], options)?.pop().unwrap_or_default())
    }

    /// Haystack's `predict_batch`: (a) one query + a list → a list; (b) one query + lists → each list ranked
    /// independently; (c) `n` queries + `n` lists → list `i` ranked for query `i`. A list of one query is one query;
    /// any other shape is an error ([`crate::rankers::batch`], the one pairing rule).
    pub fn predict_batch(&self, queries: &[&str], documents: &BatchDocuments, options: &RerankOptions) -> Result<BatchRanking> {
        let lists = match documents {
            BatchDocuments::Flat(docs) => RankerBatch::One(docs.iter().collect()),
            BatchDocuments::Nested(lists) => RankerBatch::Many(lists.iter().map(|docs| docs.iter().collect()).collect()),
        };
        let pairs = pair_queries_with_lists("queries", QueryBatch::Many(queries.to_vec()), "documents", lists)?;
        let groups = pairs
            .pairs
            .into_iter()
            .map(|(path, query, docs)| Ok((query, document_texts(&path, &docs, &options.embed_meta_fields)?)))
            .collect::<Result<Vec<_>>>()?;
        let mut ranked = self.rerank_groups(&groups, options)?;
        Ok(if pairs.nested { BatchRanking::Nested(ranked) } else { BatchRanking::Flat(ranked.pop().unwrap_or_default()) })
    }

    /// Scores every (query, texts) group in shared batches (all chunks of all groups are length-sorted together),
    /// then ranks each group on its own.
    pub fn rerank_groups(&self, groups: &[(&str, Vec<String>)], options: &RerankOptions) -> Result<Vec<Vec<Ranked>>> {
        let work = self.rerank_work(groups, options)?;
        let outputs = work.work.batches.iter().map(|b| self.run_batch(b)).collect::<Result<Vec<_>>>()?;
        work.rank(&outputs)
    }
}

/// Every chunk of every document of every group, with its owner (group, document): what a rerank scores, on
/// either engine (the CPU's `rerank_groups`, and the WebGPU model's).
pub(crate) fn group_sequences(
    tokenizer: &PairTokenizer,
    groups: &[(&str, Vec<String>)],
    options: &RerankOptions,
) -> Result<(Vec<Sequence>, Vec<(usize, usize)>)> {
    options.validate()?;
    let mut sequences = Vec::new();
    let mut owners = Vec::new();
    for (g, (query, texts)) in groups.iter().enumerate() {
        let q = tokenizer.query(query)?;
        for (d, text) in texts.iter().enumerate().take(options.max_documents.unwrap_or(usize::MAX)) {
            let doc = tokenizer.document(&q, text, options.max_chunks_per_doc, options.chunk_overlap)?;
            let chunks = tokenizer.chunks(&q, &doc, options.max_chunks_per_doc, options.chunk_overlap);
            let path = if groups.len() == 1 { format!("documents[{d}]") } else { format!("documents[{g}][{d}]") };
            for chunk in chunks.map_err(|e| e.at(&path))? {
                sequences.push(chunk);
                owners.push((g, d));
            }
        }
    }
    Ok((sequences, owners))
}

/// Each group ranked from its chunks' logits: a document's key is its best chunk's. `done` says which sequences
/// ran (all when `None`); a document with a chunk that did not run, or none at all (past `maxDocuments`), is
/// unscored: it follows the ranked ones in its list's order, with a NaN score, within `topK`.
pub(crate) fn rank_groups(
    group_sizes: &[usize],
    owners: &[(usize, usize)],
    logits: &[f32],
    done: Option<&[bool]>,
    num_labels: usize,
    options: &RerankOptions,
) -> Result<Vec<Vec<Ranked>>> {
    let l = num_labels;
    let mut keys: Vec<Vec<f32>> = group_sizes.iter().map(|&n| vec![f32::NEG_INFINITY; n]).collect();
    let mut scored: Vec<Vec<bool>> = group_sizes.iter().map(|&n| vec![false; n]).collect();
    for &(g, d) in owners {
        scored[g][d] = true;
    }
    for (i, &(g, d)) in owners.iter().enumerate() {
        if done.is_some_and(|done| !done[i]) {
            scored[g][d] = false;
        }
    }
    for (i, &(g, d)) in owners.iter().enumerate() {
        if !scored[g][d] {
            continue;
        }
        let k = logits[i * l + l - 1]; // z₀ for one logit, the last logit otherwise
        // A NaN cannot be ranked (it compares with nothing); it comes from the model's weights or graph, so it
        // is reported like the model's other run-time failures (MODEL_LOAD), naming the document.
        if k.is_nan() {
            let at = if group_sizes.len() == 1 { format!("documents[{d}]") } else { format!("documents[{g}][{d}]") };
            return Err(Error::model_load(format!("model: produced NaN logits for {at}")));
        }
        keys[g][d] = keys[g][d].max(k);
    }
    let scale = options.scale_score.unwrap_or(true) && l == 1;
    Ok(keys.into_iter().zip(scored).map(|(k, scored)| rank_scored(&k, &scored, scale, options)).collect())
}

/// [`rank`] over the scored documents, then the unscored ones in their order (score NaN), cut to `topK`.
fn rank_scored(keys: &[f32], scored: &[bool], scale: bool, options: &RerankOptions) -> Vec<Ranked> {
    if scored.iter().all(|&s| s) {
        return rank(keys, scale, options);
    }
    let ids: Vec<usize> = (0..keys.len()).filter(|&d| scored[d]).collect();
    let subset: Vec<f32> = ids.iter().map(|&d| keys[d]).collect();
    let mut out: Vec<Ranked> = rank(&subset, scale, options).into_iter().map(|r| Ranked { index: ids[r.index], ..r }).collect();
    let room = options.top_k.unwrap_or(usize::MAX).saturating_sub(out.len());
    out.extend((0..keys.len()).filter(|&d| !scored[d]).take(room).map(|index| Ranked { index, score: f32::NAN }));
    out
}

/// Turns sort keys into the ranked, thresholded, cut list (formulas in the module docs).
pub fn rank(keys: &[f32], scale: bool, options: &RerankOptions) -> Vec<Ranked> {
    let c = options.calibration_factor;
    let mut ranked: Vec<(Ranked, f32)> = keys
        .iter()
        .enumerate()
        .map(|(index, &k)| (Ranked { index, score: if scale { sigmoid(k * c) } else { k } }, k))
        .filter(|(r, _)| options.score_threshold.is_none_or(|t| r.score >= t))
        .collect();
    ranked.sort_by(|(a, ka), (b, kb)| b.score.total_cmp(&a.score).then(kb.total_cmp(ka)));
    let mut out: Vec<Ranked> = ranked.into_iter().map(|(r, _)| r).collect();
    if let Some(k) = options.top_k {
        out.truncate(k);
    }
    out
}

/// `σ(x) = 1 / (1 + e^{−x})`, computed in f64.
pub fn sigmoid(x: f32) -> f32 {
    (1.0 / (1.0 + (-(x as f64)).exp())) as f32
}

/// The model's text for each document ([`model_text`]); non-text content is an error.
pub fn document_texts<D: Borrow<Document>>(field: &str, documents: &[D], meta_fields: &[String]) -> Result<Vec<String>> {
    documents
        .iter()
        .map(Borrow::borrow)
        .enumerate()
        .map(|(i, doc)| {
            let content = doc.text().ok_or_else(|| {
                Error::invalid(&format!("{field}[{i}].content"), "a cross-encoder needs text content (a string)")
            })?;
            Ok(model_text(content, &doc.meta, meta_fields))
        })
        .collect()
}

/// The text the model reads for a document: the listed meta values (Python `str`, skipping missing and falsy
/// ones) then the content, joined with `"\n"`, as Haystack 1.x's `_add_meta_fields_to_docs`. A list value gives
/// one line per item (Haystack 2.x's `meta_fields_to_embed` would print the list's repr instead).
pub fn model_text(content: &str, meta: &serde_json::Map<String, Value>, meta_fields: &[String]) -> String {
    let mut parts: Vec<String> = Vec::new();
    for value in meta_fields.iter().filter_map(|key| meta.get(key)).filter(|v| truthy(v)) {
        match value {
            Value::Array(items) => parts.extend(items.iter().map(python_repr::str_of)),
            other => parts.push(python_repr::str_of(other)),
        }
    }
    if parts.is_empty() {
        return content.to_string();
    }
    parts.push(content.to_string());
    parts.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_is_stable_thresholded_and_cut() {
        let o = RerankOptions { top_k: Some(3), ..Default::default() };
        let r = rank(&[0.5, 2.0, 0.5, -1.0], false, &o);
        assert_eq!(r.iter().map(|r| r.index).collect::<Vec<_>>(), vec![1, 0, 2]);
        let o = RerankOptions { top_k: None, score_threshold: Some(0.5), ..Default::default() };
        let r = rank(&[0.0, 2.0, -3.0], true, &o);
        assert_eq!(r.iter().map(|r| r.index).collect::<Vec<_>>(), vec![1, 0]);
        assert!((r[0].score - sigmoid(2.0)).abs() < 1e-7 && r[1].score == 0.5);
    }

    #[test]
    fn calibration_scales_the_logit() {
        let o = RerankOptions { calibration_factor: 0.5, ..Default::default() };
        assert!((rank(&[2.0], true, &o)[0].score - sigmoid(1.0)).abs() < 1e-7);
    }

    #[test]
    fn meta_fields_precede_content() {
        let mut d = Document::new("body");
        d.meta.insert("title".into(), Value::String("T".into()));
        d.meta.insert("page".into(), Value::from(3));
        d.meta.insert("empty".into(), Value::String(String::new()));
        let t = document_texts("documents", &[d], &["page".into(), "missing".into(), "empty".into(), "title".into()]).unwrap();
        assert_eq!(t, vec!["3\nT\nbody".to_string()]);
    }
}
