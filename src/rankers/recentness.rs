//! Haystack 1.x `RecentnessRanker` (seed 000, docs/parity.md §3): newer documents rank higher.
//!
//! Given n documents in their retrieval order (index i, 0-based) and the same documents sorted by date, newest
//! first (index j, stable for equal dates), with `w` = `weight`:
//!
//! - `reciprocal_rank_fusion`: `score(d) = 1/(61 + i) × (1 − w) + 1/(61 + j) × w` (k = 61: RRF's 60 plus one,
//!   because the ranks are 0-based);
//! - `score`: `score(d) = s(d) × (1 − w) + (n − j)/n × w`, where s(d) is the document's own score when it lies
//!   in [0, 1], else 0 with a warning (also 0 with a warning when it has none).
//!
//! Every document's score is replaced by this combined score; the documents are sorted by it, descending and
//! stable, and cut to `ranked[:top_k]` (Python's slice: a negative `top_k` drops from the end; 0 keeps all, as
//! Haystack's `top_k or … or len(documents)` does). The terms are added in Haystack's order so that the floats
//! match bit for bit.
//!
//! Dates come from `meta[date_meta_field]` and are read by [`crate::rankers::lenient_date`]. A document without
//! that key (or with `null`) is an error naming the document ids. If any date string cannot be parsed, the list
//! is returned **unchanged** (same order, same scores, not cut to `top_k`) with a warning, as Haystack does.
//!
//! Differences from Haystack, on purpose: documents are scored by position, not by id (Haystack adds the scores
//! of two documents that share an id); a NaN score in `score` mode is an error (Python would sort NaN
//! arbitrarily); naive and zoned dates compare (naive = UTC) instead of raising.

use super::batch::Batch;
use super::lenient_date::{read_date, DateReading, EpochNanos};
use super::{cut_to_top_k, zero_keeps_all, RankedDocuments};
use crate::document::Document;
use crate::error::{Error, Result};

/// How the retrieval order and the date order are combined: "reciprocal_rank_fusion" (default) or "score"
/// (needs retriever scores in [0, 1]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "snake_case"))]
pub enum RankingMode {
    /// Reciprocal rank fusion of the two orders (Haystack's default).
    #[default]
    ReciprocalRankFusion,
    /// The retriever's score (which must lie in [0, 1]) plus a linear recentness score.
    Score,
}

impl RankingMode {
    /// `"reciprocal_rank_fusion"` or `"score"`.
    pub fn parse(field: &str, s: &str) -> Result<Self> {
        match s {
            "reciprocal_rank_fusion" => Ok(RankingMode::ReciprocalRankFusion),
            "score" => Ok(RankingMode::Score),
            other => Err(Error::invalid(field, format!("expected \"reciprocal_rank_fusion\" or \"score\", got {other:?}"))),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RankingMode::ReciprocalRankFusion => "reciprocal_rank_fusion",
            RankingMode::Score => "score",
        }
    }
}

crate::deserialize_by_parse!(RankingMode, |s| RankingMode::parse("", s));

/// Options of a `RecentnessRanker` (Haystack's `RecentnessRanker` parameters).
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecentnessRankerOptions {
    /// The meta key that holds each document's date (ISO 8601, RFC 2822, `2021/05/01`, epoch seconds, …).
    pub date_meta_field: String,
    /// In [0, 1]: 0 ignores age, 0.5 (default) weighs relevance and age equally, 1 sorts by age alone.
    #[serde(default = "RecentnessRankerOptions::default_weight")]
    pub weight: f64,
    /// How many documents to return per list, sliced as Haystack slices (`documents[:topK]`): a negative count
    /// leaves out the last `-topK`; 0 or `null` (default) returns all.
    #[serde(default)]
    pub top_k: Option<i64>,
    /// How relevance and age are combined. Default "reciprocal_rank_fusion".
    #[serde(default)]
    pub ranking_mode: RankingMode,
}

impl RecentnessRankerOptions {
    fn default_weight() -> f64 {
        0.5
    }
}

impl TryFrom<RecentnessRankerOptions> for RecentnessRanker {
    type Error = Error;
    fn try_from(o: RecentnessRankerOptions) -> Result<Self> {
        RecentnessRanker::new(o.date_meta_field, o.weight, o.top_k, o.ranking_mode)
    }
}

/// Reranks documents by combining their relevance order with their age.
#[derive(Debug, Clone, PartialEq)]
pub struct RecentnessRanker {
    date_meta_field: String,
    weight: f64,
    top_k: Option<i64>,
    ranking_mode: RankingMode,
}

impl RecentnessRanker {
    /// `weight` ∈ [0, 1]: 0 ignores age, 0.5 weighs content and age equally, 1 sorts by age alone.
    /// `top_k`: `ranked[:top_k]`, where 0 keeps all as `None` does (Haystack's `top_k or self.top_k or len(documents)`).
    pub fn new(date_meta_field: impl Into<String>, weight: f64, top_k: Option<i64>, ranking_mode: RankingMode) -> Result<Self> {
        if !(0.0..=1.0).contains(&weight) {
            return Err(Error::invalid("weight", format!("must lie in [0, 1], got {weight}")));
        }
        Ok(RecentnessRanker { date_meta_field: date_meta_field.into(), weight, top_k: zero_keeps_all(top_k), ranking_mode })
    }

    pub fn date_meta_field(&self) -> &str {
        &self.date_meta_field
    }

    pub fn weight(&self) -> f64 {
        self.weight
    }

    pub fn top_k(&self) -> Option<i64> {
        self.top_k
    }

    pub fn ranking_mode(&self) -> RankingMode {
        self.ranking_mode
    }

    /// Ranks one list (`Batch::One`) or each list of a list of lists (`Batch::Many`) independently. Warnings of a
    /// list of lists name the list (`documents[1][0].score: …`).
    pub fn run(&self, documents: Batch<Document>) -> Result<RankedDocuments> {
        let mut warnings = Vec::new();
        let documents = documents.try_map_lists("documents", |path, list| self.rank_list(path, list, &mut warnings))?;
        Ok(RankedDocuments { documents, warnings })
    }

    /// Ranks a single list; `path` names it in messages (`documents`).
    pub fn rank_list(&self, path: &str, documents: Vec<Document>, warnings: &mut Vec<String>) -> Result<Vec<Document>> {
        let Some(ranking) = self.rank_positions(path, &documents, warnings)? else {
            return Ok(documents);
        };
        let mut slots: Vec<Option<Document>> = documents.into_iter().map(Some).collect();
        Ok(ranking
            .into_iter()
            .filter_map(|(i, score)| {
                let mut doc = slots[i].take()?;
                doc.score = Some(score);
                Some(doc)
            })
            .collect())
    }

    /// The ranking as `(input index, combined score)`, best first and cut to `top_k`; `None` when some date
    /// cannot be parsed (the caller keeps the list as it is; a warning says why).
    pub fn rank_positions(&self, path: &str, documents: &[Document], warnings: &mut Vec<String>) -> Result<Option<Vec<(usize, f64)>>> {
        if documents.is_empty() {
            return Ok(Some(Vec::new()));
        }
        let Some(dates) = self.read_dates(path, documents, warnings)? else {
            return Ok(None);
        };
        let n = documents.len();
        let mut by_date: Vec<usize> = (0..n).collect();
        crate::stable_sort::stable_sort_by(&mut by_date, |&a, &b| dates[b].cmp(&dates[a])); // newest first; stable for equal dates
        let mut date_rank = vec![0usize; n];
        for (j, &i) in by_date.iter().enumerate() {
            date_rank[i] = j;
        }

        let w = self.weight;
        let mut combined = vec![0.0f64; n];
        for (i, doc) in documents.iter().enumerate() {
            let relevance = match self.ranking_mode {
                RankingMode::ReciprocalRankFusion => reciprocal_rank(i) * (1.0 - w),
                RankingMode::Score => unit_score(path, i, doc, warnings)? * (1.0 - w),
            };
            combined[i] += relevance;
        }
        for i in 0..n {
            let j = date_rank[i];
            let recentness = match self.ranking_mode {
                RankingMode::ReciprocalRankFusion => reciprocal_rank(j) * w,
                RankingMode::Score => linear_recentness(j, n) * w,
            };
            combined[i] += recentness;
        }

        let mut ranking: Vec<(usize, f64)> = combined.into_iter().enumerate().collect();
        crate::stable_sort::stable_sort_by(&mut ranking, |a, b| b.1.total_cmp(&a.1)); // stable: equal scores keep input order
        cut_to_top_k(&mut ranking, self.top_k);
        Ok(Some(ranking))
    }

    /// Every document's date, or `None` (with a warning) when some date string cannot be parsed.
    fn read_dates(&self, path: &str, documents: &[Document], warnings: &mut Vec<String>) -> Result<Option<Vec<EpochNanos>>> {
        let field = &self.date_meta_field;
        let missing: Vec<usize> = documents
            .iter()
            .enumerate()
            .filter(|(_, d)| d.meta.get(field).is_none_or(|v| v.is_null()))
            .map(|(i, _)| i)
            .collect();
        if let Some(&first) = missing.first() {
            let ids: Vec<&str> = missing.iter().map(|&i| documents[i].id.as_str()).collect();
            let places: Vec<String> = missing.iter().map(|i| format!("{path}[{i}]")).collect();
            return Err(Error::invalid(
                &format!("{path}[{first}].meta.{field}"),
                format!(
                    "date_meta_field is {field:?}, but document(s) {} ({}) have no such meta key; set date_meta_field to the \
                     key that holds the dates",
                    ids.join(", "),
                    places.join(", ")
                ),
            ));
        }
        let mut dates = Vec::with_capacity(documents.len());
        let mut unparsable = Vec::new();
        for (i, doc) in documents.iter().enumerate() {
            let value = &doc.meta[field.as_str()];
            match read_date(value) {
                Ok(DateReading::Instant(t)) => dates.push(t),
                Ok(DateReading::Unparsable) => {
                    unparsable.push(format!("{path}[{i}].meta.{field} = {value}"));
                    dates.push(0);
                }
                Err(problem) => return Err(Error::invalid(&format!("{path}[{i}].meta.{field}"), problem)),
            }
        }
        if !unparsable.is_empty() {
            warnings.push(format!(
                "{path}: could not parse the date(s) {}; returned the documents unchanged, without sorting by date",
                unparsable.join(", ")
            ));
            return Ok(None);
        }
        Ok(Some(dates))
    }
}

/// RRF with k = 61 over a 0-based rank: `1 / (61 + rank)`.
fn reciprocal_rank(rank: usize) -> f64 {
    1.0 / (61.0 + rank as f64)
}

/// `(n − j) / n`: 1 for the newest document, 1/n for the oldest.
fn linear_recentness(j: usize, n: usize) -> f64 {
    (n - j) as f64 / n as f64
}

/// A document's score for `score` mode: itself when in [0, 1], else 0 with a warning.
fn unit_score(path: &str, i: usize, doc: &Document, warnings: &mut Vec<String>) -> Result<f64> {
    match doc.score {
        Some(s) if s.is_nan() => Err(Error::invalid(&format!("{path}[{i}].score"), "NaN is not a score")),
        Some(s) if (0.0..=1.0).contains(&s) => Ok(s),
        Some(s) => {
            warnings.push(format!(
                "{path}[{i}].score: {s} of document {} is outside [0, 1]; counted as 0 (use ranking_mode \
                 \"score\" only with scores in [0, 1])",
                doc.id
            ));
            Ok(0.0)
        }
        None => {
            warnings.push(format!("{path}[{i}].score: document {} has no score; counted as 0", doc.id));
            Ok(0.0)
        }
    }
}
