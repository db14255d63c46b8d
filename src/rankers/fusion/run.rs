//! A run in ranx's shape, `{query_id: {doc_id: score}}`, and its ranking order.
//!
//! **Ranking order** (everywhere in fusion): score descending, ties broken by doc id ascending (byte order).
//! ranx sorts with numpy's unstable `argsort`, so its order for tied scores is not defined; rerankit's is.

use crate::error::{Error, Result};
use serde_json::{Map, Number, Value};
use std::cmp::Ordering;
use std::collections::HashSet;

/// One query's results: `(doc_id, score)` pairs.
pub type Results = Vec<(String, f64)>;

/// Query ids in first-appearance order, each with its results (in any order; see [`Run::ranked`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Run {
    pub queries: Vec<(String, Results)>,
}

/// Score descending, then doc id ascending.
pub fn ranking_order(a: &(String, f64), b: &(String, f64)) -> Ordering {
    b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0))
}

impl Run {
    pub fn new(queries: Vec<(String, Results)>) -> Self {
        Run { queries }
    }

    /// Reads `{qid: {docid: score}}`; `path` names the run in errors (`runs[1]`), which then name the exact score
    /// (`runs[1].q7.d3`).
    pub fn from_json(path: &str, value: &Value) -> Result<Self> {
        let Value::Object(queries) = value else {
            return Err(Error::invalid(path, "expected an object {queryId: {docId: score}}"));
        };
        let mut out = Vec::with_capacity(queries.len());
        for (qid, results) in queries {
            let Value::Object(results) = results else {
                return Err(Error::invalid(&format!("{path}.{qid}"), "expected an object {docId: score}"));
            };
            let mut list = Vec::with_capacity(results.len());
            for (docid, score) in results {
                let score = score
                    .as_f64()
                    .ok_or_else(|| Error::invalid(&format!("{path}.{qid}.{docid}"), format!("expected a number, got {score}")))?;
                list.push((docid.clone(), score));
            }
            out.push((qid.clone(), list));
        }
        let run = Run { queries: out };
        run.validate(path)?;
        Ok(run)
    }

    /// `{qid: {docid: score}}` with every query's documents in ranking order.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        for (qid, results) in &self.queries {
            let mut ranked = results.clone();
            ranked.sort_by(ranking_order);
            let mut docs = Map::new();
            for (docid, score) in ranked {
                docs.insert(docid, Number::from_f64(score).map_or(Value::Null, Value::Number));
            }
            out.insert(qid.clone(), Value::Object(docs));
        }
        Value::Object(out)
    }

    /// Every score finite, every query and doc id once.
    pub fn validate(&self, path: &str) -> Result<()> {
        let mut seen_queries = HashSet::new();
        for (qid, results) in &self.queries {
            if !seen_queries.insert(qid.as_str()) {
                return Err(Error::invalid(&format!("{path}.{qid}"), "query id appears twice"));
            }
            let mut seen_docs = HashSet::new();
            for (docid, score) in results {
                if !seen_docs.insert(docid.as_str()) {
                    return Err(Error::invalid(&format!("{path}.{qid}.{docid}"), "doc id appears twice in this query"));
                }
                if !score.is_finite() {
                    return Err(Error::invalid(&format!("{path}.{qid}.{docid}"), format!("{score} is not a finite score")));
                }
            }
        }
        Ok(())
    }

    /// The results of `query_id`, if the run has it.
    pub fn results(&self, query_id: &str) -> Option<&Results> {
        self.queries.iter().find(|(q, _)| q == query_id).map(|(_, r)| r)
    }

    /// A copy whose every query's results are in ranking order.
    pub fn ranked(&self) -> Run {
        Run {
            queries: self
                .queries
                .iter()
                .map(|(q, r)| {
                    let mut r = r.clone();
                    r.sort_by(ranking_order);
                    (q.clone(), r)
                })
                .collect(),
        }
    }
}
