//! Pipeline evaluation in the style of Haystack 1.x's `EvaluationResult` (seeds 001/003, docs/parity.md §8).
//!
//! - [`build`]: labels ([`MultiLabel`]) + a node's predictions → the node's rows, with Haystack's columns
//!   (gold ids/contexts/answers, `*_match`, EM/F1 and their `*_scope` variants, rank, type, node, eval_mode).
//! - [`metrics`]: `calculate_metrics` (six document scopes, four answer scopes, simulated top-k, eval mode) and
//!   `wrong_examples`.
//! - [`squad`]: the official SQuAD normalisation, EM/F1, and `evaluate-v1.1.py` / `evaluate-v2.0.py` outputs.
//! - [`context`]: Haystack's fuzzy context similarity (rapidfuzz `partial_ratio_alignment`).
//! - [`sas`]: semantic answer similarity through a [`sas::SasScorer`].
//! - [`table`]: rows as a table, CSV exactly as `EvaluationResult.save` writes it, and back.
//! - [`csv_records`]: CSV text into records, as the `csv` crate reads it.
//! - [`column_order`]: the column order `Pipeline.eval` gives its tables.
//! - [`warnings`]: what `calculate_metrics` / `wrong_examples` log in Haystack, returned to the caller.
//!
//! Conformance values come from farm-haystack 1.26.4.post0 itself (`scripts/fixtures/haystack/`).

pub mod build;
pub mod column_order;
pub mod context;
pub mod csv_records;
pub mod custom_ids;
pub mod node_metrics;
pub mod sas;
pub mod squad;
pub mod table;
pub mod warnings;

pub use build::{build_node_table, ContextMatchingOptions, EvaluationBuildOptions, NodePredictions, PredictedAnswer};
pub use node_metrics::{AnswerScope, DocumentScope, EvalMode, HaystackMetricsOptions, WrongExamplesOptions};
pub use table::{Cell, NodeTable};
pub use warnings::Warned;

use crate::document::{Document, Label, MultiLabel};
use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// One table per node, in insertion order (Haystack's `node_results`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EvaluationResult {
    pub node_results: Vec<(String, NodeTable)>,
}

impl EvaluationResult {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn node(&self, name: &str) -> Option<&NodeTable> {
        self.node_results.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }

    pub fn node_mut(&mut self, name: &str) -> Option<&mut NodeTable> {
        self.node_results.iter_mut().find(|(n, _)| n == name).map(|(_, t)| t)
    }

    /// Sets (or replaces) a node's table.
    pub fn insert(&mut self, name: &str, table: NodeTable) {
        match self.node_mut(name) {
            Some(t) => *t = table,
            None => self.node_results.push((name.to_string(), table)),
        }
    }

    /// Haystack's `append(key, value)`: a node's new rows go after the ones it has (`pd.concat(…)
    /// .reset_index(drop=True)`, see [`NodeTable::concat`]), or make a new node after the others; a table without
    /// rows changes nothing.
    pub fn append(&mut self, name: &str, table: NodeTable) {
        if table.rows.is_empty() {
            return;
        }
        match self.node_mut(name) {
            Some(t) => t.concat(table),
            None => self.node_results.push((name.to_string(), table)),
        }
    }

    /// Builds every node's table from the queries, their labels and each node's predictions, as `Pipeline.eval_batch`
    /// returns it: the rows of `_build_eval_dataframe`, the columns in `Pipeline.eval`'s order ([`column_order`]);
    /// with a `custom_document_id_field`, documents match labels by that meta field ([`custom_ids`]).
    pub fn from_predictions(queries: &[String], labels: &[MultiLabel], nodes: &[(String, NodePredictions)], cm: &ContextMatchingOptions, custom_document_id_field: Option<&str>) -> Result<Self> {
        let mut r = EvaluationResult::new();
        for (name, preds) in nodes {
            let t = build_node_table(queries, labels, name, preds, cm, custom_document_id_field)?;
            if !t.rows.is_empty() {
                r.insert(name, t);
            }
        }
        r.reorder_columns();
        Ok(r)
    }

    /// `Pipeline._reorder_columns_in_eval_result`: every node's columns in the order `Pipeline.eval` returns them.
    /// For results assembled by hand (`append`ed per query, as `Pipeline.eval` does before it reorders).
    pub fn reorder_columns(&mut self) {
        for (_, t) in &mut self.node_results {
            column_order::reorder_columns(t);
        }
    }

    /// The one node with document rows (Haystack's `_get_documents_df`), for `simulated_top_k_retriever`.
    fn retriever(&self) -> Option<&NodeTable> {
        let with_docs: Vec<&NodeTable> = self
            .node_results
            .iter()
            .map(|(_, t)| t)
            .filter(|t| (0..t.rows.len()).any(|r| matches!(t.get(r, "type"), Cell::Str(s) if s == "document")))
            .collect();
        if with_docs.len() == 1 {
            Some(with_docs[0])
        } else {
            None
        }
    }

    /// `calculate_metrics(...)`: `{node: {metric: value}}`, and the warnings Haystack logs on the way ([`warnings`]).
    pub fn calculate_metrics(&self, o: &HaystackMetricsOptions) -> Result<Warned<Vec<(String, Map<String, Value>)>>> {
        let mut warnings = Vec::new();
        let value = self.node_results.iter().map(|(n, t)| Ok((n.clone(), node_metrics::node_metrics(t, o, self.retriever(), &mut warnings)?))).collect::<Result<_>>()?;
        Ok(Warned { value, warnings })
    }

    /// `wrong_examples(node, ...)`, and the warnings Haystack logs on the way ([`warnings`]).
    pub fn wrong_examples(&self, node: &str, o: &WrongExamplesOptions) -> Result<Warned<Vec<Value>>> {
        let t = self.node(node).ok_or_else(|| Error::invalid("node", format!("unknown node {node:?} (nodes: {})", self.node_names().join(", "))))?;
        let mut warnings = Vec::new();
        let value = node_metrics::wrong_examples(t, o, self.retriever(), &mut warnings)?;
        Ok(Warned { value, warnings })
    }

    pub fn node_names(&self) -> Vec<String> {
        self.node_results.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Adds SAS columns to every node with answer rows (in `Pipeline.eval`'s column order, as [`sas::add_sas`]).
    pub fn add_sas(&mut self, scorer: &mut dyn sas::SasScorer, context_matching_threshold: f64) -> Result<()> {
        for (_, t) in &mut self.node_results {
            sas::add_sas(t, scorer, context_matching_threshold)?;
        }
        Ok(())
    }

    /// `save(out_dir)` as in-memory files: `(file name "{node}.csv", CSV text)`.
    pub fn to_csv_files(&self) -> Vec<(String, String)> {
        self.node_results.iter().map(|(n, t)| (format!("{n}.csv"), t.to_csv())).collect()
    }

    /// `load(dir)` from `(file name, CSV text)` pairs; the node name is the file stem.
    pub fn from_csv_files(files: &[(String, String)]) -> Result<Self> {
        let mut r = EvaluationResult::new();
        for (name, text) in files {
            let stem = name.rsplit('/').next().unwrap_or(name);
            let stem = stem.strip_suffix(".csv").unwrap_or(stem);
            if stem.is_empty() {
                return Err(Error::invalid("files", format!("{name:?} has no node name")));
            }
            let mut t = NodeTable::from_csv(name, text)?;
            // Haystack's backward-compatibility renames
            for c in &mut t.columns {
                if c == "gold_document_contents" {
                    *c = "gold_contexts".into();
                } else if c == "content" {
                    *c = "context".into();
                }
            }
            if t.col("answer").is_some() {
                t.legacy_id_to_list("document_id", "document_ids");
                t.legacy_id_to_list("custom_document_id", "custom_document_ids");
            }
            r.insert(stem, t);
        }
        Ok(r)
    }

    /// `{node: [row objects]}`.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        for (n, t) in &self.node_results {
            m.insert(n.clone(), Value::Array(t.to_records()));
        }
        Value::Object(m)
    }

    pub fn from_json(v: &Value) -> Result<Self> {
        let Value::Object(m) = v else { return Err(Error::invalid("evaluation result", "expected {node: [rows]}")) };
        let mut r = EvaluationResult::new();
        for (n, rows) in m {
            let Value::Array(rows) = rows else { return Err(Error::invalid(n, "expected a list of rows")) };
            r.insert(n, NodeTable::from_records(rows)?);
        }
        Ok(r)
    }
}

/// Parses `{"queries": [...], "labels": [[Label dict]...], "nodes": {name: {answers|answers_isolated|documents|documents_isolated: [[...]...]}}}`.
/// Predictions may also be keyed by query text (`{query: [...]}`) instead of aligned lists; a key that is
/// not one of the queries is an error.
pub fn parse_eval_input(v: &Value) -> Result<(Vec<String>, Vec<MultiLabel>, Vec<(String, NodePredictions)>)> {
    let queries: Vec<String> = match v.get("queries") {
        Some(Value::Array(a)) => a.iter().enumerate().map(|(i, q)| q.as_str().map(str::to_string).ok_or_else(|| Error::invalid(&format!("queries[{i}]"), "expected a string"))).collect::<Result<_>>()?,
        _ => return Err(Error::invalid("queries", "expected a list of strings")),
    };
    let labels = match v.get("labels") {
        Some(Value::Array(a)) => a,
        _ => return Err(Error::invalid("labels", "expected a list (one list of labels per query)")),
    };
    if labels.len() != queries.len() {
        return Err(Error::invalid("labels", format!("{} label lists for {} queries", labels.len(), queries.len())));
    }
    let mut mls = Vec::new();
    for (i, ls) in labels.iter().enumerate() {
        let Value::Array(ls) = ls else { return Err(Error::invalid(&format!("labels[{i}]"), "expected a list of labels")) };
        if ls.is_empty() {
            return Err(Error::invalid(&format!("labels[{i}]"), "a query needs at least one label (Haystack omits queries without labels)"));
        }
        let parsed = ls.iter().enumerate().map(|(j, l)| Label::from_dict(&format!("labels[{i}][{j}]"), l)).collect::<Result<Vec<_>>>()?;
        let ml = MultiLabel::new(parsed, false, false)?;
        if ml.query != queries[i] {
            return Err(Error::invalid(&format!("labels[{i}]"), format!("label query {:?} differs from queries[{i}] {:?}", ml.query, queries[i])));
        }
        mls.push(ml);
    }
    let mut nodes = Vec::new();
    if let Some(Value::Object(ns)) = v.get("nodes") {
        for (name, out) in ns {
            let Value::Object(out) = out else { return Err(Error::invalid(&format!("nodes.{name}"), "expected an object")) };
            let mut p = NodePredictions::default();
            for (field, val) in out {
                let at = format!("nodes.{name}.{field}");
                let per_query = aligned(&at, val, &queries)?;
                match field.as_str() {
                    "answers" | "answers_isolated" => {
                        let lists = per_query
                            .iter()
                            .enumerate()
                            .map(|(i, l)| l.iter().enumerate().map(|(j, a)| PredictedAnswer::from_dict(&format!("{at}[{i}][{j}]"), a)).collect::<Result<Vec<_>>>())
                            .collect::<Result<Vec<_>>>()?;
                        if field == "answers" {
                            p.answers = Some(lists);
                        } else {
                            p.answers_isolated = Some(lists);
                        }
                    }
                    "documents" | "documents_isolated" => {
                        let lists = per_query
                            .iter()
                            .enumerate()
                            .map(|(i, l)| {
                                l.iter()
                                    .enumerate()
                                    .map(|(j, d)| match d {
                                        Value::Object(m) => Document::from_dict(m, &Map::new(), None).map_err(|e| Error::new(e.code, format!("{at}[{i}][{j}].{}", e.message))),
                                        _ => Err(Error::invalid(&format!("{at}[{i}][{j}]"), "expected a document object")),
                                    })
                                    .collect::<Result<Vec<_>>>()
                            })
                            .collect::<Result<Vec<_>>>()?;
                        if field == "documents" {
                            p.documents = Some(lists);
                        } else {
                            p.documents_isolated = Some(lists);
                        }
                    }
                    other => return Err(Error::invalid(&at, format!("unknown field {other:?} (answers, answers_isolated, documents, documents_isolated)"))),
                }
            }
            nodes.push((name.clone(), p));
        }
    } else if v.get("nodes").is_some() {
        return Err(Error::invalid("nodes", "expected {node name: predictions}"));
    }
    Ok((queries, mls, nodes))
}

/// Predictions per query: a list aligned with the queries, or an object keyed by query text.
fn aligned(at: &str, v: &Value, queries: &[String]) -> Result<Vec<Vec<Value>>> {
    let as_list = |i: String, x: &Value| -> Result<Vec<Value>> {
        match x {
            Value::Array(a) => Ok(a.clone()),
            Value::Null => Ok(Vec::new()),
            _ => Err(Error::invalid(&format!("{at}[{i}]"), "expected a list")),
        }
    };
    match v {
        Value::Array(a) => {
            if a.len() != queries.len() {
                return Err(Error::invalid(at, format!("{} prediction lists for {} queries", a.len(), queries.len())));
            }
            a.iter().enumerate().map(|(i, x)| as_list(i.to_string(), x)).collect()
        }
        Value::Object(m) => {
            for k in m.keys() {
                if !queries.contains(k) {
                    return Err(Error::invalid(at, format!("predictions for unknown query {k:?}")));
                }
            }
            queries.iter().map(|q| m.get(q).map(|x| as_list(format!("{q:?}"), x)).unwrap_or(Ok(Vec::new()))).collect()
        }
        _ => Err(Error::invalid(at, "expected a list per query or an object keyed by query")),
    }
}
