//! Haystack's `LostInTheMiddleRanker` (seed 000, docs/parity.md §4): the most relevant documents go to the two ends of
//! the context, the least relevant to the middle ("Lost in the Middle", Liu et al. 2023).
//!
//! The input is taken as ordered by relevance. Starting from `[0]`, each next index i is inserted at position
//! `len / 2 + len % 2` of the list built so far, so 1..9 become 1 3 5 7 9 8 6 4 2.
//!
//! - `top_k` cuts the input before reordering, as Haystack 1.26's `documents[:top_k] if top_k else documents`:
//!   0 keeps all, a negative `top_k` drops the last `|top_k|` documents (all of them when `|top_k| ≥ n`).
//! - `word_count_threshold`: words are counted as Python's `str.split()` does (runs of whitespace). If the first
//!   document alone reaches the threshold, only it is returned; otherwise documents are added until the running
//!   count reaches the threshold: the document that reaches it is included and the rest are dropped.
//! - `truncate_document` (Haystack 1.x): that last document's content is cut to its first words so that the
//!   total equals the threshold (the kept words joined with single spaces; its id is kept, as Haystack keeps it).
//!
//! Only text documents can be reordered: any other content type among the kept documents is an error, unless
//! fewer than two are kept (Haystack returns those before looking at their type). Scores are left as they are.

use super::batch::Batch;
use super::{python_prefix_len, zero_keeps_all, RankedDocuments};
use crate::document::{ContentType, Document};
use crate::error::{Error, Result};
use serde_json::Value;

/// Options of a `LostInTheMiddleRanker` (Haystack's `LostInTheMiddleRanker` parameters).
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct LostInTheMiddleRankerOptions {
    /// Keep documents until their total word count reaches this (the document that reaches it is kept); `null`
    /// (default): no limit.
    pub word_count_threshold: Option<usize>,
    /// Cut the last kept document so that the total equals `wordCountThreshold` exactly (Haystack 1.x).
    pub truncate_document: bool,
    /// Keep only the first `topK` input documents before reordering, sliced as Haystack slices: a negative count
    /// leaves out the last `-topK`; 0 or `null` (default) keeps all.
    pub top_k: Option<i64>,
}

impl TryFrom<LostInTheMiddleRankerOptions> for LostInTheMiddleRanker {
    type Error = Error;
    fn try_from(o: LostInTheMiddleRankerOptions) -> Result<Self> {
        LostInTheMiddleRanker::new(o.word_count_threshold, o.truncate_document, o.top_k)
    }
}

/// Reorders documents so that the most relevant sit at the beginning and the end.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LostInTheMiddleRanker {
    word_count_threshold: Option<usize>,
    truncate_document: bool,
    top_k: Option<i64>,
}

impl LostInTheMiddleRanker {
    /// `word_count_threshold` must be at least 1 when given; `top_k` is any integer (see the module docs).
    pub fn new(word_count_threshold: Option<usize>, truncate_document: bool, top_k: Option<i64>) -> Result<Self> {
        if word_count_threshold == Some(0) {
            return Err(Error::invalid("wordCountThreshold", "must be at least 1 (or null for no limit)"));
        }
        Ok(LostInTheMiddleRanker { word_count_threshold, truncate_document, top_k: zero_keeps_all(top_k) })
    }

    /// Reorders one list, or each list of a list of lists.
    pub fn run(&self, documents: Batch<Document>) -> Result<RankedDocuments> {
        let documents = documents.try_map_lists("documents", |path, list| self.rank_list(path, list))?;
        Ok(RankedDocuments { documents, warnings: Vec::new() })
    }

    /// Reorders a single list; `path` names it in error messages.
    pub fn rank_list(&self, path: &str, documents: Vec<Document>) -> Result<Vec<Document>> {
        let plan = self.reorder_plan(path, &documents)?;
        let mut slots: Vec<Option<Document>> = documents.into_iter().map(Some).collect();
        if let Some((i, text)) = plan.truncated {
            if let Some(doc) = slots[i].as_mut() {
                doc.content = Value::String(text);
            }
        }
        Ok(plan.order.into_iter().filter_map(|i| slots[i].take()).collect())
    }

    /// The new order as input indices, and the cut content of the document truncated by `truncate_document`.
    pub fn reorder_plan(&self, path: &str, documents: &[Document]) -> Result<ReorderPlan> {
        let mut kept = python_prefix_len(documents.len(), self.top_k);
        if kept < 2 {
            return Ok(ReorderPlan { order: (0..kept).collect(), truncated: None });
        }
        if let Some((i, doc)) = documents[..kept].iter().enumerate().find(|(_, d)| d.text().is_none()) {
            let what = match (doc.content_type, &doc.content) {
                (ContentType::Text, other) => format!("text content that is {}", crate::document::json_type(other)),
                (ct, _) => format!("content_type {:?}", ct.as_str()),
            };
            return Err(Error::invalid(
                &format!("{path}[{i}].content_type"),
                format!("LostInTheMiddleRanker reorders text documents only; document {} has {what}", doc.id),
            ));
        }
        let mut truncated = None;
        if let Some(threshold) = self.word_count_threshold {
            let mut words = 0usize;
            for (i, doc) in documents[..kept].iter().enumerate() {
                let text = doc.text().unwrap_or_default();
                let count = python_word_count(text);
                if words + count >= threshold {
                    if self.truncate_document && words + count > threshold {
                        truncated = Some((i, first_words(text, threshold - words)));
                    }
                    kept = i + 1;
                    break;
                }
                words += count;
            }
        }
        Ok(ReorderPlan { order: lost_in_the_middle_order(kept), truncated })
    }
}

/// What [`LostInTheMiddleRanker::reorder_plan`] decided.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReorderPlan {
    /// Input indices in their new order.
    pub order: Vec<usize>,
    /// `(input index, new content)` of the document cut by `truncate_document`.
    pub truncated: Option<(usize, String)>,
}

/// The permutation for n documents ordered by relevance: start with `[0]`, insert each next index at
/// `len / 2 + len % 2`. n = 5 gives `[0, 2, 4, 3, 1]`.
pub fn lost_in_the_middle_order(n: usize) -> Vec<usize> {
    let mut order = Vec::with_capacity(n);
    for i in 0..n {
        let at = order.len() / 2 + order.len() % 2;
        order.insert(at, i);
    }
    order
}

/// Whitespace as Python's `str.isspace` sees it: Unicode White_Space plus the separators U+001C–U+001F.
fn is_python_whitespace(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `len(text.split())`.
pub fn python_word_count(text: &str) -> usize {
    text.split(is_python_whitespace).filter(|w| !w.is_empty()).count()
}

/// The first `keep` words of `text`, joined with single spaces.
fn first_words(text: &str, keep: usize) -> String {
    let words: Vec<&str> = text.split(is_python_whitespace).filter(|w| !w.is_empty()).take(keep).collect();
    words.join(" ")
}
