//! A run (ranked results), read from TREC text `qid Q0 docno rank score tag`
//! ([`crate::metrics::formats::trec_text`]) or ranx's shape `{qid: {docno: score}}`, or built in memory.
//!
//! trec_eval ignores the rank column and ranks by score; entries are kept in input order (the "input" tie
//! policy ranks by it) and their document ids in one arena. A document listed twice for one query is an error
//! ([`DuplicatePolicy::Error`], as in trec_eval) unless [`DuplicatePolicy::KeepFirst`] is chosen; duplicates are
//! found with one hash-table pass per query. Scores must be finite.

use std::borrow::Borrow;
use std::sync::Arc;

use super::docno_arena::{index_key, DocnoArena, DocnoIndex, DocnoPlace};
use super::query_ids::QueryIds;
use crate::error::{Error, Result};

/// Options of `parseRun` and `runFromColumns`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct RunParseOptions {
    /// A document listed twice for a query: keep the first instead of failing (trec_eval refuses such a run).
    pub keep_first_duplicate: bool,
}

impl RunParseOptions {
    pub fn duplicates(&self) -> DuplicatePolicy {
        DuplicatePolicy::keeping_first(self.keep_first_duplicate)
    }
}

/// What to do with a document listed twice for one query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DuplicatePolicy {
    /// Refuse the run (trec_eval: "duplicate docs").
    #[default]
    Error,
    /// Keep the first occurrence in input order, drop later ones.
    KeepFirst,
}

impl DuplicatePolicy {
    /// The policy of a `keepFirstDuplicate` option or `--keep-first-duplicate` flag: [`DuplicatePolicy::KeepFirst`]
    /// when set, else [`DuplicatePolicy::Error`].
    pub fn keeping_first(keep_first: bool) -> DuplicatePolicy {
        if keep_first {
            DuplicatePolicy::KeepFirst
        } else {
            DuplicatePolicy::Error
        }
    }
}

/// One retrieved document of one query. A query's entries are kept in input order, so an entry's index is its
/// input position (the "input" tie policy ranks by it).
#[derive(Debug, Clone, Copy)]
pub struct RunEntry {
    /// The index of its document id in the run's ids ([`Run::docno`] reads it).
    pub doc: u32,
    /// The hash the run's ids key the document by ([`DocnoArena::key_and_place`]), kept beside the index: finding
    /// duplicates and judging then read no span, which for a table's ids lies anywhere in it (a cache miss per entry).
    pub(crate) key: u32,
    pub score: f64,
    /// Where its id's bytes lie ([`DocnoArena::key_and_place`]): judging it against other ids reads them from here.
    /// (Its line in a run text is not kept: it would make an entry 32 bytes; [`RunBuilder::build_naming_lines`].)
    pub(crate) place: DocnoPlace,
}

/// The retrieved documents of one query.
#[derive(Debug, Clone)]
pub struct QueryRun {
    pub qid: String,
    /// In input order; no docno twice.
    pub entries: Vec<RunEntry>,
}

/// A whole run.
#[derive(Debug, Clone, Default)]
pub struct Run {
    /// The ids of the run's documents: its own, or a table it shares with other inputs (columns.rs).
    docnos: Arc<DocnoArena>,
    /// Sorted by qid bytes.
    queries: Vec<QueryRun>,
    /// The tag column of the last line (what trec_eval prints as `runid`); empty for in-memory runs.
    pub name: String,
}

impl Run {
    /// Builds a run from `(qid, docno, score)` triples in memory.
    pub fn from_triples<'a>(
        triples: impl IntoIterator<Item = (&'a str, &'a str, f64)>,
        duplicates: DuplicatePolicy,
    ) -> Result<Run> {
        let mut builder = RunBuilder::with_capacity(0, 0, duplicates);
        for (qid, docno, score) in triples {
            builder.add(qid, docno, score)?;
        }
        builder.build()
    }

    /// Queries, sorted by qid.
    pub fn queries(&self) -> &[QueryRun] {
        &self.queries
    }

    /// The results of `qid`, if the run has any.
    pub fn query(&self, qid: &str) -> Option<&QueryRun> {
        self.queries.binary_search_by(|q| q.qid.as_bytes().cmp(qid.as_bytes())).ok().map(|i| &self.queries[i])
    }

    pub fn docno(&self, entry: &RunEntry) -> &str {
        self.docnos.get(entry.doc)
    }

    /// The bytes of `entry`'s id, read from the place the entry keeps.
    #[inline]
    pub(crate) fn entry_bytes(&self, entry: &RunEntry) -> &[u8] {
        self.docnos.bytes_at(entry.doc, entry.place)
    }

    /// The ids its entries index.
    pub(crate) fn docnos(&self) -> &Arc<DocnoArena> {
        &self.docnos
    }

    /// Total number of entries.
    pub fn len(&self) -> usize {
        self.queries.iter().map(|q| q.entries.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.queries.is_empty()
    }
}

/// The score, or `Err` when it is NaN or infinite (a run's scores must be finite, however they are given).
pub(crate) fn check_score(score: f64) -> std::result::Result<f64, ()> {
    if score.is_finite() {
        Ok(score)
    } else {
        Err(())
    }
}

/// Collects entries one by one, then sorts and checks them. `A` holds the document ids: the builder's own
/// ([`DocnoArena`], which [`RunBuilder::add`] appends to), or a table shared with other inputs (`Arc<DocnoArena>`).
#[derive(Debug, Default)]
pub struct RunBuilder<A = DocnoArena> {
    docnos: A,
    query_ids: QueryIds,
    queries: Vec<QueryRun>,
    duplicates: DuplicatePolicy,
}

impl RunBuilder {
    /// A builder with room for `entries` entries whose ids take `docno_bytes` bytes in all.
    pub fn with_capacity(docno_bytes: usize, entries: usize, duplicates: DuplicatePolicy) -> Self {
        RunBuilder { docnos: DocnoArena::with_capacity(docno_bytes, entries), duplicates, ..Default::default() }
    }

    /// Adds one in-memory entry; a score that is NaN or infinite is refused.
    pub fn add(&mut self, qid: &str, docno: &str, score: f64) -> Result<()> {
        check_score(score)
            .map_err(|_| Error::invalid(&format!("run[{qid:?}][{docno:?}]"), format!("score {score} is not finite")))?;
        self.add_unchecked(qid, docno, score)
    }

    /// Adds one entry whose score is finite. Each entry adds its id to the builder's own ids, so the `k`-th entry
    /// added names the document at index `k` ([`RunBuilder::build_naming_lines`] relies on it).
    pub(crate) fn add_unchecked(&mut self, qid: &str, docno: &str, score: f64) -> Result<()> {
        if qid.is_empty() || docno.is_empty() {
            return Err(Error::invalid("run", "query and document ids must not be empty"));
        }
        let index = self.query(qid);
        let doc = self.docnos.push(docno)?;
        let (key, place) = self.docnos.key_and_place(doc);
        self.queries[index].entries.push(RunEntry { doc, key, score, place });
        Ok(())
    }
}

impl RunBuilder<Arc<DocnoArena>> {
    /// A builder whose entries' document ids are already in `docnos` ([`RunBuilder::extend_query`]).
    pub(crate) fn with_arena(docnos: Arc<DocnoArena>, duplicates: DuplicatePolicy) -> Self {
        RunBuilder { docnos, duplicates, query_ids: QueryIds::default(), queries: Vec::new() }
    }
}

impl<A: Borrow<DocnoArena> + Into<Arc<DocnoArena>>> RunBuilder<A> {
    /// The index of `qid`'s results, a new empty query if it has none yet. A new query has room for as many
    /// entries as the query before it (runs mostly list the same number per query): growing each query's entries
    /// by doubling, with the arena's spans ([`DocnoArena::with_capacity`]), put a fifth of parsing a 10M-line run
    /// in wasm in the allocator's `realloc`.
    pub(crate) fn query(&mut self, qid: &str) -> usize {
        let queries = &mut self.queries;
        self.query_ids.index_of(qid, |qid| {
            let room = queries.last().map_or(0, |q| q.entries.len());
            queries.push(QueryRun { qid: qid.to_string(), entries: Vec::with_capacity(room) })
        })
    }

    /// Appends in-memory entries to query `index` ([`RunBuilder::query`]); their documents index the builder's
    /// ids and their scores are finite.
    pub(crate) fn extend_query<'a>(&mut self, index: usize, entries: impl Iterator<Item = (u32, &'a f64)>) {
        let docnos: &DocnoArena = self.docnos.borrow();
        let query = &mut self.queries[index].entries;
        // the arena's rule checked once, not per row (in wasm the check per row was a third of building a run from
        // columns, node:inspector sampling)
        if docnos.keys_by_content() {
            query.extend(entries.map(|(doc, &score)| {
                let (key, place) = docnos.content_key_and_place(doc);
                RunEntry { doc, key, score, place }
            }));
        } else {
            query.extend(entries.map(|(doc, &score)| RunEntry { doc, key: index_key(doc), score, place: DocnoPlace::default() }));
        }
    }

    /// Applies the duplicate policy to every query and sorts queries by qid.
    pub fn build(self) -> Result<Run> {
        self.build_naming_lines(|_| 0)
    }

    /// [`RunBuilder::build`], where a duplicate's error names the text lines of the two entries: `line_of(doc)`
    /// is the 1-based line of the entry whose document is at index `doc`. Entries do not keep their lines (a
    /// 4-byte field would make each 32 bytes, and every judging pass reads them); a text's reader finds the line
    /// again from the entry's index when it is needed, for an error.
    pub(crate) fn build_naming_lines(mut self, line_of: impl Fn(u32) -> u32) -> Result<Run> {
        let docnos: &DocnoArena = self.docnos.borrow();
        let mut seen = DocnoIndex::default();
        for query in &mut self.queries {
            let duplicates = duplicates(&mut seen, &query.entries, docnos);
            if duplicates.is_empty() {
                continue;
            }
            match self.duplicates {
                DuplicatePolicy::Error => {
                    let (first, second) = (query.entries[duplicates[0].0], query.entries[duplicates[0].1]);
                    let docno = docnos.get(first.doc);
                    let second_line = line_of(second.doc);
                    return Err(if second_line > 0 {
                        Error::parse(
                            format!("run line {second_line}"),
                            format!(
                                "document '{docno}' is listed twice for query '{}' (first at line {}); \
                                 pass the keep-first duplicate policy to keep the first",
                                query.qid,
                                line_of(first.doc)
                            ),
                        )
                    } else {
                        Error::invalid("run", format!("document '{docno}' is listed twice for query '{}'", query.qid))
                    });
                }
                DuplicatePolicy::KeepFirst => {
                    let mut drop = vec![false; query.entries.len()];
                    for (_, later) in duplicates {
                        drop[later] = true;
                    }
                    let mut i = 0;
                    query.entries.retain(|_| {
                        i += 1;
                        !drop[i - 1]
                    });
                }
            }
        }
        self.queries.sort_by(|a, b| a.qid.as_bytes().cmp(b.qid.as_bytes()));
        Ok(Run { docnos: self.docnos.into(), queries: self.queries, name: String::new() })
    }
}

/// `(first, later)` index pairs of entries whose docno appeared earlier in `entries`.
fn duplicates(seen: &mut DocnoIndex, entries: &[RunEntry], docnos: &DocnoArena) -> Vec<(usize, usize)> {
    seen.reset(entries.len(), 4);
    let mut found = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let is_same = |j: u32| docnos.same(entries[j as usize].doc, entry.doc);
        if let Some(first) = seen.insert(i as u32, entry.key, is_same) {
            found.push((first as usize, i));
        }
    }
    found
}
