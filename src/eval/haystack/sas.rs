//! Semantic answer similarity (Haystack 1.x `semantic_answer_similarity` + `_add_sas_to_eval_result`).
//!
//! For every answer row: `gold_answers_sas` = the similarity of the answer to each gold answer, `sas` = their
//! max (the top-1 prediction's SAS), and the scoped variants `sas_context_scope`, `sas_document_id_scope`,
//! `sas_document_id_and_context_scope` with the same rules as EM/F1. The similarity comes from a
//! [`SasScorer`]: a cross-encoder (one logit, sigmoid: sentence-transformers' `CrossEncoder.predict` default)
//! or a bi-encoder (cosine of the two embeddings). With the `cpu` feature, [`CrossEncoderSas`] and
//! [`BiEncoderSas`] wrap `crate::inference`'s models; any other scorer (a remote model, a test double) plugs
//! in through the trait.

use super::column_order;
use super::build::answer_scopes;
use super::table::{Cell, NodeTable};
use crate::error::{Error, Result};
use serde_json::{json, Value};

/// Scores (prediction, gold answer) pairs; higher is more similar.
pub trait SasScorer {
    fn score_pairs(&mut self, pairs: &[(String, String)]) -> Result<Vec<f64>>;
}

/// A scorer from a closure (e.g. a JS callback in the bindings).
pub struct FnScorer<F: FnMut(&[(String, String)]) -> Result<Vec<f64>>>(pub F);

impl<F: FnMut(&[(String, String)]) -> Result<Vec<f64>>> SasScorer for FnScorer<F> {
    fn score_pairs(&mut self, pairs: &[(String, String)]) -> Result<Vec<f64>> {
        (self.0)(pairs)
    }
}

/// Cosine similarity (0 when a vector is zero).
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let (mut dot, mut na, mut nb) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in a.iter().zip(b) {
        dot += *x as f64 * *y as f64;
        na += *x as f64 * *x as f64;
        nb += *y as f64 * *y as f64;
    }
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na.sqrt() * nb.sqrt())
    }
}

/// The (prediction, gold answer) pairs [`add_sas`] scores, in its order: for every answer row, its answer with
/// each of its gold answers. A caller with its own model scores these and hands the scores to
/// `add_sas` through a [`FnScorer`].
pub fn sas_pairs(table: &NodeTable) -> Vec<(String, String)> {
    answer_pairs(table).map(|(pairs, _)| pairs).unwrap_or_default()
}

/// The pairs, and per row the span of its pairs (`None` for document rows); `None` without answer columns.
#[allow(clippy::type_complexity)]
fn answer_pairs(table: &NodeTable) -> Option<(Vec<(String, String)>, Vec<Option<(usize, usize)>>)> {
    let (ans_col, gold_col) = (table.col("answer")?, table.col("gold_answers")?);
    let is_answer = |t: &NodeTable, r: usize| matches!(t.get(r, "type"), Cell::Str(s) if s == "answer");
    let mut pairs = Vec::new();
    let mut spans = Vec::new();
    for r in 0..table.rows.len() {
        if !is_answer(table, r) {
            spans.push(None);
            continue;
        }
        let pred = table.rows[r][ans_col].as_str().unwrap_or("").to_string();
        let golds: Vec<String> = match &table.rows[r][gold_col] {
            Cell::Lit(Value::Array(a)) => a.iter().map(|g| g.as_str().unwrap_or("").to_string()).collect(),
            _ => Vec::new(),
        };
        spans.push(Some((pairs.len(), golds.len())));
        pairs.extend(golds.into_iter().map(|g| (pred.clone(), g)));
    }
    Some((pairs, spans))
}

/// Adds the SAS columns to every answer row of `table` (document rows get `None`), then puts the columns in
/// `Pipeline.eval`'s order, which Haystack applies after its SAS step (`sas` after `f1`, …).
pub fn add_sas(table: &mut NodeTable, scorer: &mut dyn SasScorer, context_matching_threshold: f64) -> Result<()> {
    let Some((pairs, spans)) = answer_pairs(table) else {
        return Ok(());
    };
    let scores = if pairs.is_empty() { Vec::new() } else { scorer.score_pairs(&pairs)? };
    if scores.len() != pairs.len() {
        return Err(Error::invalid("sas scorer", format!("returned {} scores for {} pairs", scores.len(), pairs.len())));
    }
    let new_cols = ["sas", "gold_answers_sas", "sas_context_scope", "sas_document_id_scope", "sas_document_id_and_context_scope"];
    for c in new_cols {
        if table.col(c).is_none() {
            table.columns.push(c.to_string());
            for row in &mut table.rows {
                row.push(Cell::None);
            }
        }
    }
    let idx: Vec<usize> = new_cols.iter().map(|c| table.col(c).unwrap_or(0)).collect();
    for (r, span) in spans.into_iter().enumerate() {
        let Some((start, n)) = span else { continue };
        let vals = &scores[start..start + n];
        let sim = list(table, r, "gold_contexts_similarity");
        let idm = list(table, r, "gold_documents_id_match");
        let [any, ctx, doc, both] = answer_scopes(vals, &sim, &idm, context_matching_threshold);
        // np.max over the row's gold labels (a query always has at least the "" gold answer)
        let top = if vals.is_empty() { f64::NAN } else { vals.iter().copied().fold(f64::NEG_INFINITY, f64::max) };
        let _ = any;
        let row = &mut table.rows[r];
        row[idx[0]] = Cell::Float(top);
        row[idx[1]] = Cell::Lit(Value::Array(vals.iter().map(|v| json!(v)).collect()));
        row[idx[2]] = Cell::Float(ctx);
        row[idx[3]] = Cell::Float(doc);
        row[idx[4]] = Cell::Float(both);
    }
    column_order::reorder_columns(table);
    Ok(())
}

fn list(t: &NodeTable, r: usize, c: &str) -> Vec<f64> {
    match t.get(r, c) {
        Cell::Lit(Value::Array(a)) => a.iter().map(|x| x.as_f64().unwrap_or(0.0)).collect(),
        _ => Vec::new(),
    }
}

/// SAS with a cross-encoder of one label: sigmoid of its logit.
#[cfg(feature = "cpu")]
pub struct CrossEncoderSas<'a> {
    pub model: &'a crate::inference::CrossEncoder,
    pub batch_size: usize,
}

#[cfg(feature = "cpu")]
impl SasScorer for CrossEncoderSas<'_> {
    fn score_pairs(&mut self, pairs: &[(String, String)]) -> Result<Vec<f64>> {
        if self.model.num_labels() != 1 {
            return Err(Error::unsupported(format!("SAS needs a cross-encoder with one label, this one has {}", self.model.num_labels())));
        }
        let sequences = pairs
            .iter()
            .enumerate()
            .map(|(i, (pred, gold))| self.pair(pred, gold).map_err(|e| Error::new(e.code, format!("sas pairs[{i}]: {}", e.message))))
            .collect::<Result<Vec<_>>>()?;
        let logits = self.model.logits(&sequences, self.batch_size.max(1))?;
        Ok(logits.into_iter().map(|x| crate::inference::cross_encoder::sigmoid(x) as f64).collect())
    }
}

#[cfg(feature = "cpu")]
impl CrossEncoderSas<'_> {
    /// The model input of (prediction, gold answer). Reranking refuses a blank query, but an empty prediction
    /// is a normal SAS input (Haystack's placeholder row of a query without answers; sentence-transformers
    /// scores `("", gold)` as `[CLS] [SEP] gold [SEP]`), so a blank prediction gets no query tokens.
    fn pair(&self, prediction: &str, gold: &str) -> Result<crate::inference::batching::Sequence> {
        if !prediction.trim().is_empty() {
            return self.model.encode_pair(prediction, gold);
        }
        let tok = self.model.tokenizer();
        let q = tok.encode("")?;
        let d = tok.document(&q, gold, 1, 0)?;
        let w = tok.window(&q);
        tok.pair(&q, &d, 0, w.min(d.len()))
    }
}

/// SAS with a bi-encoder: cosine similarity of the embeddings.
#[cfg(feature = "cpu")]
pub struct BiEncoderSas<'a> {
    pub model: &'a crate::inference::Embedder,
    pub batch_size: usize,
}

#[cfg(feature = "cpu")]
impl SasScorer for BiEncoderSas<'_> {
    fn score_pairs(&mut self, pairs: &[(String, String)]) -> Result<Vec<f64>> {
        let mut texts: Vec<&str> = Vec::with_capacity(pairs.len() * 2);
        for (a, b) in pairs {
            texts.push(a);
            texts.push(b);
        }
        let emb = self.model.embed(&texts, false, self.batch_size.max(1))?;
        Ok(emb.chunks(2).map(|c| cosine(&c[0], &c[1])).collect())
    }
}
