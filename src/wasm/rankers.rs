//! Bindings for the rankers that need no model (wrapped by pkg/rankers.ts).
//!
//! Documents arrive as lists of standard dicts (`Document.toJSON()`), always as a list of lists; `nested` tells
//! whether the caller gave a list of lists, so that errors name `documents[l][j]` or `documents[j]`. Rankings go
//! back as input indices with scores, so that the TypeScript side keeps its own `Document` objects.

use super::convert::{to_js, to_json, to_json_object};
use super::errors::{js, JsResult};
use crate::document::Document;
use crate::rankers::adaptive_weight::{adaptive_weight, combine_scores, PositionError};
use crate::rankers::diversity::{DiversityRanker, DiversityStrategy, Similarity};
use crate::rankers::fusion::{fuse, FusionMethod, Normalization, Run};
use crate::rankers::lost_in_the_middle::LostInTheMiddleRanker;
use crate::rankers::recentness::{RankingMode, RecentnessRanker};
use crate::{Error, Result};
use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::*;

/// `options[key]` as an integer ≥ `min`, `None` when absent or null.
fn count(options: &Map<String, Value>, key: &str, min: u64) -> Result<Option<usize>> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if n >= min => Ok(Some(n as usize)),
            _ => Err(Error::invalid(key, format!("expected an integer ≥ {min} (or null), got {v}"))),
        },
    }
}

fn number(options: &Map<String, Value>, key: &str) -> Result<Option<f64>> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_f64().map(Some).ok_or_else(|| Error::invalid(key, format!("expected a number, got {v}"))),
    }
}

fn text<'a>(options: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(v) => Err(Error::invalid(key, format!("expected a string, got {v}"))),
    }
}

fn flag(options: &Map<String, Value>, key: &str) -> Result<Option<bool>> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(v) => Err(Error::invalid(key, format!("expected a boolean, got {v}"))),
    }
}

/// The path of list `l`: `documents[l]` for a list of lists, `documents` for a single list.
fn list_path(nested: bool, l: usize) -> String {
    if nested {
        format!("documents[{l}]")
    } else {
        "documents".to_string()
    }
}

/// Lists of document dicts → lists of documents, errors naming `documents[l][j].field`.
fn document_lists(lists: &JsValue, nested: bool) -> Result<Vec<Vec<Document>>> {
    let Value::Array(lists) = to_json("documents", lists)? else {
        return Err(Error::invalid("documents", "expected an array of documents (or of arrays of documents)"));
    };
    lists
        .iter()
        .enumerate()
        .map(|(l, list)| {
            let path = list_path(nested, l);
            let Value::Array(items) = list else {
                return Err(Error::invalid(&path, "expected an array of documents"));
            };
            items
                .iter()
                .enumerate()
                .map(|(j, item)| {
                    let Value::Object(dict) = item else {
                        return Err(Error::invalid(&format!("{path}[{j}]"), "expected a document"));
                    };
                    Document::from_dict(dict, &Map::new(), None)
                        .map_err(|e| Error::new(e.code, format!("{path}[{j}].{}", e.message)))
                })
                .collect()
        })
        .collect()
}

fn ranking_json(ranking: &[(usize, f64)]) -> Value {
    Value::Array(ranking.iter().map(|(i, s)| json!({"index": i, "score": s})).collect())
}

/// `RecentnessRanker`: `{lists: [[{index, score}] | null], warnings}`; `null` = list kept as it was.
#[wasm_bindgen(js_name = recentnessRank)]
pub fn recentness_rank(documents: JsValue, nested: bool, options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let o = to_json_object("options", &options)?;
        let field = text(&o, "dateMetaField")?
            .ok_or_else(|| Error::invalid("dateMetaField", "is required: the meta key that holds the dates"))?;
        let mode = match text(&o, "rankingMode")? {
            None => RankingMode::default(),
            Some(s) => RankingMode::parse("rankingMode", s)?,
        };
        let weight = number(&o, "weight")?.unwrap_or(0.5);
        let ranker = RecentnessRanker::new(field, weight, count(&o, "topK", 1)?, mode)
            .map_err(|e| Error::new(e.code, e.message.replacen("top_k", "topK", 1)))?;
        let lists = document_lists(&documents, nested)?;
        let mut warnings = Vec::new();
        let mut out = Vec::with_capacity(lists.len());
        for (l, list) in lists.iter().enumerate() {
            let ranking = ranker.rank_positions(&list_path(nested, l), list, &mut warnings)?;
            out.push(ranking.as_deref().map_or(Value::Null, ranking_json));
        }
        to_js(&json!({"lists": out, "warnings": warnings}))
    })())
}

/// `LostInTheMiddleRanker`: `{lists: [{order: [index], truncated: {index, content} | null}]}`.
#[wasm_bindgen(js_name = lostInTheMiddleRank)]
pub fn lost_in_the_middle_rank(documents: JsValue, nested: bool, options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let o = to_json_object("options", &options)?;
        let threshold = count(&o, "wordCountThreshold", 1)?;
        let ranker = LostInTheMiddleRanker::new(threshold, flag(&o, "truncateDocument")?.unwrap_or(false), count(&o, "topK", 1)?)?;
        let lists = document_lists(&documents, nested)?;
        let mut out = Vec::with_capacity(lists.len());
        for (l, list) in lists.iter().enumerate() {
            let plan = ranker.reorder_plan(&list_path(nested, l), list)?;
            let truncated = plan.truncated.map_or(Value::Null, |(i, content)| json!({"index": i, "content": content}));
            out.push(json!({"order": plan.order, "truncated": truncated}));
        }
        to_js(&json!({ "lists": out }))
    })())
}

/// Reads a list of numbers as an embedding, naming `field[i]` in errors.
fn embedding(field: &str, value: &Value) -> Result<Vec<f32>> {
    let Value::Array(items) = value else {
        return Err(Error::invalid(field, "expected an array of numbers"));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, x)| match x.as_f64() {
            Some(v) if v.is_finite() => Ok(v as f32),
            _ => Err(Error::invalid(&format!("{field}[{i}]"), format!("expected a finite number, got {x}"))),
        })
        .collect()
}

/// `DiversityRanker` on precomputed embeddings: `queryEmbeddings` holds one embedding per list (the TypeScript
/// side repeats a single query). Returns `{lists: [[{index, score}]]}`, score = sim(query, document).
#[wasm_bindgen(js_name = diversityRank)]
pub fn diversity_rank(query_embeddings: JsValue, documents: JsValue, nested: bool, options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let o = to_json_object("options", &options)?;
        let similarity = match text(&o, "similarity")? {
            None => Similarity::default(),
            Some(s) => Similarity::parse("similarity", s)?,
        };
        let strategy = match text(&o, "strategy")? {
            None | Some("greedy") => DiversityStrategy::Greedy,
            Some("mmr") => DiversityStrategy::MaximalMarginalRelevance { lambda: number(&o, "lambda")?.unwrap_or(0.5) },
            Some(other) => return Err(Error::invalid("strategy", format!("expected \"greedy\" or \"mmr\", got {other:?}"))),
        };
        let ranker = DiversityRanker::new(similarity, strategy, count(&o, "topK", 1)?)?;
        let Value::Array(queries) = to_json("queryEmbedding", &query_embeddings)? else {
            return Err(Error::invalid("queryEmbedding", "expected an array of numbers"));
        };
        let lists = document_lists(&documents, nested)?;
        if queries.len() != lists.len() {
            return Err(Error::internal(format!("{} query embeddings for {} lists", queries.len(), lists.len())));
        }
        let mut out = Vec::with_capacity(lists.len());
        for (l, (query, list)) in queries.iter().zip(&lists).enumerate() {
            let field = if nested && queries.len() > 1 { format!("queryEmbedding[{l}]") } else { "queryEmbedding".to_string() };
            let query = embedding(&field, query)?;
            let picks = ranker
                .rank_positions(&list_path(nested, l), &query, list)
                .map_err(|e| Error::new(e.code, e.message.replacen("queryEmbedding", &field, 1)))?;
            out.push(ranking_json(&picks));
        }
        to_js(&json!({ "lists": out }))
    })())
}

/// `fuse(runs, options)` over ranx-shaped runs; returns the fused run (documents in ranking order).
#[wasm_bindgen(js_name = fuseRuns)]
pub fn fuse_runs(runs: JsValue, options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let o = to_json_object("options", &options)?;
        let Value::Array(items) = to_json("runs", &runs)? else {
            return Err(Error::invalid("runs", "expected an array of runs {queryId: {docId: score}}"));
        };
        let runs: Vec<Run> = items.iter().enumerate().map(|(i, r)| Run::from_json(&format!("runs[{i}]"), r)).collect::<Result<_>>()?;
        let weights = match o.get("weights") {
            None | Some(Value::Null) => None,
            Some(Value::Array(ws)) => Some(
                ws.iter()
                    .enumerate()
                    .map(|(i, w)| w.as_f64().ok_or_else(|| Error::invalid(&format!("weights[{i}]"), format!("expected a number, got {w}"))))
                    .collect::<Result<Vec<_>>>()?,
            ),
            Some(v) => return Err(Error::invalid("weights", format!("expected an array of numbers, got {v}"))),
        };
        let method = FusionMethod::parse(text(&o, "method")?.unwrap_or("rrf"), number(&o, "k")?, weights)?;
        let norm = match o.get("norm") {
            None => Normalization::default(),
            Some(Value::Null) => Normalization::None,
            Some(Value::String(s)) => Normalization::parse("norm", s)?,
            Some(v) => return Err(Error::invalid("norm", format!("expected a string or null, got {v}"))),
        };
        to_js(&fuse(&runs, &method, norm)?.to_json())
    })())
}

/// `adaptiveWeight(before, after, error, minWeight)` → `{weight, error}`.
#[wasm_bindgen(js_name = adaptiveWeight)]
pub fn adaptive_weight_js(before_scores: &[f64], after_scores: &[f64], error: &str, min_weight: f64) -> JsResult<JsValue> {
    js((|| {
        let kind = PositionError::parse("error", error)?;
        let w = adaptive_weight(before_scores, after_scores, kind, min_weight)?;
        to_js(&json!({"weight": w.weight, "error": w.error}))
    })())
}

/// `combineScores(retriever, reranker, retrieverWeight, rerankerWeight)` → the combined scores.
#[wasm_bindgen(js_name = combineScores)]
pub fn combine_scores_js(retriever_scores: &[f64], reranker_scores: &[f64], retriever_weight: f64, reranker_weight: f64) -> JsResult<Vec<f64>> {
    js(combine_scores(retriever_scores, reranker_scores, retriever_weight, reranker_weight))
}
