//! The list-of-lists shapes of Haystack's `run` / `run_batch` / `predict_batch` (seed 000).
//!
//! A ranker is given either one list of documents or a list of lists (what a `JoinDocuments` node hands on);
//! each list is ranked on its own and the answer has the shape of the question. Rankers that take a query
//! ([`crate::rankers::DiversityRanker`]) pair queries with lists as `predict_batch` does:
//!
//! | queries | documents | result |
//! |---|---|---|
//! | one (or a list of one) | one list | one list |
//! | one (or a list of one) | list of lists | list of lists, every list ranked with the query |
//! | list of n | list of n lists | list of lists, list i ranked with query i |
//!
//! A list of one query is one query, as Haystack's `predict_batch(queries=[q], …)` takes it. Any other pairing
//! (n ≥ 2 queries with one list, n queries with m ≠ n lists) is an `INVALID_ARGUMENT`.

use crate::error::{Error, Result};

/// One list or a list of lists, as a ranker's input or output.
#[derive(Debug, Clone, PartialEq)]
pub enum Batch<T> {
    /// A single list.
    One(Vec<T>),
    /// A list of lists, each ranked independently.
    Many(Vec<Vec<T>>),
}

impl<T> Default for Batch<T> {
    fn default() -> Self {
        Batch::One(Vec::new())
    }
}

impl<T> Batch<T> {
    /// Applies `rank` to every list (with the list's path), keeping the shape.
    pub fn try_map_lists<U>(self, name: &str, mut rank: impl FnMut(&str, Vec<T>) -> Result<Vec<U>>) -> Result<Batch<U>> {
        match self {
            Batch::One(list) => Ok(Batch::One(rank(name, list)?)),
            Batch::Many(lists) => {
                let mut out = Vec::with_capacity(lists.len());
                for (i, list) in lists.into_iter().enumerate() {
                    out.push(rank(&format!("{name}[{i}]"), list)?);
                }
                Ok(Batch::Many(out))
            }
        }
    }

    /// The number of lists (1 for [`Batch::One`]).
    pub fn list_count(&self) -> usize {
        match self {
            Batch::One(_) => 1,
            Batch::Many(lists) => lists.len(),
        }
    }
}

/// One query for every list, or one query per list.
#[derive(Debug, Clone, PartialEq)]
pub enum QueryBatch<Q> {
    One(Q),
    Many(Vec<Q>),
}

/// Queries paired with document lists; `nested` tells whether the answer is a list of lists.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryListPairs<Q, T> {
    pub nested: bool,
    /// (the list's path for error messages, its query, the list)
    pub pairs: Vec<(String, Q, Vec<T>)>,
}

impl<Q, T> QueryListPairs<Q, T> {
    /// Ranks every pair and rebuilds the shape of the input.
    pub fn try_map<U>(self, mut rank: impl FnMut(&str, Q, Vec<T>) -> Result<Vec<U>>) -> Result<Batch<U>> {
        let mut lists = Vec::with_capacity(self.pairs.len());
        for (path, q, list) in self.pairs {
            lists.push(rank(&path, q, list)?);
        }
        if self.nested {
            Ok(Batch::Many(lists))
        } else {
            Ok(Batch::One(lists.pop().unwrap_or_default()))
        }
    }
}

/// Pairs queries with document lists by the table in the module docs; `query_name` and `list_name` name the two
/// inputs in errors (e.g. `queryEmbedding`, `documents`).
pub fn pair_queries_with_lists<Q: Clone, T>(
    query_name: &str,
    queries: QueryBatch<Q>,
    list_name: &str,
    lists: Batch<T>,
) -> Result<QueryListPairs<Q, T>> {
    let queries = match queries {
        QueryBatch::Many(mut qs) if qs.len() == 1 => QueryBatch::One(qs.remove(0)),
        queries => queries,
    };
    match (queries, lists) {
        (QueryBatch::One(q), Batch::One(list)) => {
            Ok(QueryListPairs { nested: false, pairs: vec![(list_name.to_string(), q, list)] })
        }
        (QueryBatch::One(q), Batch::Many(lists)) => Ok(QueryListPairs {
            nested: true,
            pairs: lists.into_iter().enumerate().map(|(i, l)| (format!("{list_name}[{i}]"), q.clone(), l)).collect(),
        }),
        (QueryBatch::Many(qs), Batch::Many(lists)) if qs.len() == lists.len() => Ok(QueryListPairs {
            nested: true,
            pairs: qs.into_iter().zip(lists).enumerate().map(|(i, (q, l))| (format!("{list_name}[{i}]"), q, l)).collect(),
        }),
        (QueryBatch::Many(qs), Batch::Many(lists)) => Err(Error::invalid(
            query_name,
            format!("{} queries for {} lists in {list_name}: give one query per list, or a single query", qs.len(), lists.len()),
        )),
        (QueryBatch::Many(qs), Batch::One(_)) => Err(Error::invalid(
            query_name,
            format!(
                "{} queries for a single list in {list_name}: give one query, or one list of documents per query",
                qs.len()
            ),
        )),
    }
}

/// The query each list is ranked with, by [`pair_queries_with_lists`]'s rule, for callers that hold the queries and
/// lists themselves (the hosted rankers in TypeScript): `queries` queries given as a list, `lists` lists given as a
/// list of lists, or `None` for one flat list.
pub fn query_for_each_list(query_name: &str, queries: usize, list_name: &str, lists: Option<usize>) -> Result<Vec<usize>> {
    let lists = match lists {
        None => Batch::One(Vec::<()>::new()),
        Some(n) => Batch::Many((0..n).map(|_| Vec::new()).collect()),
    };
    Ok(pair_queries_with_lists(query_name, QueryBatch::Many((0..queries).collect()), list_name, lists)?.pairs.into_iter().map(|(_, q, _)| q).collect())
}
