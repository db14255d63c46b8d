//! Bindings for the rankers that need no model (wrapped by pkg/rankers/haystack_rankers.ts and pkg/rankers/fusion.ts).
//!
//! Documents arrive as lists of standard dicts (`Document.toJSON()`), always as a list of lists; `nested` tells
//! whether the caller gave a list of lists, so that errors name `documents[l][j]` or `documents[j]`. Rankings go
//! back as input indices with scores, so that the TypeScript side keeps its own `Document` objects.

use super::convert::{read_options, to_js, to_json};
use super::errors::{js, JsResult};
use rerankit::document::Document;
use rerankit::rankers::adaptive_weight::{adaptive_weight, combine_scores, AdaptiveWeightOptions, CombineScoresOptions};
use rerankit::rankers::diversity::{no_documents, DiversityRankerOptions, DiversityRanker};
use rerankit::rankers::fusion::{fuse, FuseOptions, Run};
use rerankit::rankers::lost_in_the_middle::{LostInTheMiddleRankerOptions, LostInTheMiddleRanker};
use rerankit::rankers::recentness::{RecentnessRankerOptions, RecentnessRanker};
use rerankit::{Error, Result};
use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::*;

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

#[wasm_bindgen(typescript_custom_section)]
const RANKINGS: &'static str = r#"
/** A document of the list given, by its position, with its new score. */
export interface RankedPosition { index: number; score: number }
/** `LostInTheMiddleRanker`'s order of one list: positions, and the one document cut at the word threshold. */
export interface ReorderPlan { order: number[]; truncated: { index: number; content: string } | null }
"#;

fn ranking_json(ranking: &[(usize, f64)]) -> Value {
    Value::Array(ranking.iter().map(|(i, s)| json!({"index": i, "score": s})).collect())
}

/// The query index each list is ranked with (the rankers' one pairing rule, `rankers::batch`): `lists` is the
/// number of lists given as a list of lists, or undefined for one flat list.
#[wasm_bindgen(js_name = queryForEachList)]
pub fn query_for_each_list(queries: u32, lists: Option<u32>) -> JsResult<Vec<u32>> {
    js(rerankit::rankers::batch::query_for_each_list("queries", queries as usize, "documents", lists.map(|n| n as usize))
        .map(|pairs| pairs.into_iter().map(|q| q as u32).collect()))
}

/// `RecentnessRanker`: `{lists: [[{index, score}] | null], warnings}`; `null` = list kept as it was.
#[wasm_bindgen(js_name = recentnessRank, unchecked_return_type = "{ lists: (RankedPosition[] | null)[]; warnings: string[] }")]
pub fn recentness_rank(documents: JsValue, nested: bool, options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let ranker = RecentnessRanker::try_from(read_options::<RecentnessRankerOptions>("", &options)?)?;
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
#[wasm_bindgen(js_name = lostInTheMiddleRank, unchecked_return_type = "{ lists: ReorderPlan[] }")]
pub fn lost_in_the_middle_rank(documents: JsValue, nested: bool, options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let ranker = LostInTheMiddleRanker::try_from(read_options::<LostInTheMiddleRankerOptions>("", &options)?)?;
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
#[wasm_bindgen(js_name = diversityRank, unchecked_return_type = "{ lists: RankedPosition[][] }")]
pub fn diversity_rank(query_embeddings: JsValue, documents: JsValue, nested: bool, options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let ranker = DiversityRanker::try_from(read_options::<DiversityRankerOptions>("", &options)?)?;
        let Value::Array(queries) = to_json("queryEmbedding", &query_embeddings)? else {
            return Err(Error::invalid("queryEmbedding", "expected an array of numbers"));
        };
        let lists = document_lists(&documents, nested)?;
        if nested && lists.is_empty() {
            return Err(no_documents("documents"));
        }
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
#[wasm_bindgen(js_name = fuseRuns, unchecked_return_type = "import('../rankers/fusion.js').FusionRun")]
pub fn fuse_runs(runs: JsValue, options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let (method, norm) = read_options::<FuseOptions>("", &options)?.method_and_norm()?;
        let Value::Array(items) = to_json("runs", &runs)? else {
            return Err(Error::invalid("runs", "expected an array of runs {queryId: {docId: score}}"));
        };
        let runs: Vec<Run> = items.iter().enumerate().map(|(i, r)| Run::from_json(&format!("runs[{i}]"), r)).collect::<Result<_>>()?;
        to_js(&fuse(&runs, &method, norm)?.to_json())
    })())
}

/// `adaptiveWeight(before, after, {error, minWeight})` → `{weight, error}`.
#[wasm_bindgen(js_name = adaptiveWeight, unchecked_return_type = "{ weight: number; error: number }")]
pub fn adaptive_weight_js(before_scores: &[f64], after_scores: &[f64], options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let o: AdaptiveWeightOptions = read_options("", &options)?;
        let w = adaptive_weight(before_scores, after_scores, o.error, o.min_weight)?;
        to_js(&json!({"weight": w.weight, "error": w.error}))
    })())
}

/// `combineScores(retriever, reranker, {retrieverWeight, rerankerWeight})` → the combined scores.
#[wasm_bindgen(js_name = combineScores)]
pub fn combine_scores_js(retriever_scores: &[f64], reranker_scores: &[f64], options: JsValue) -> JsResult<Vec<f64>> {
    js((|| {
        let o: CombineScoresOptions = read_options("", &options)?;
        combine_scores(retriever_scores, reranker_scores, o.retriever_weight, o.reranker_weight)
    })())
}
