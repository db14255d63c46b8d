//! Relevance judgements (qrels), read from TREC text `qid iter docno grade`
//! ([`crate::metrics::formats::trec_text`]) or ranx's shape `{qid: {docno: grade}}`, or built in memory.
//!
//! Stored per query, sorted by docno (byte order, trec_eval's `strcmp`), with the document ids in one
//! [`DocnoArena`]. A negative grade means "in the pool but unjudged" (trec_eval's `RELVALUE_UNJUDGED`): such a
//! document is neither relevant nor judged non-relevant.

use std::borrow::Borrow;
use std::sync::Arc;

use super::docno_arena::{DocnoArena, DocnoPlace};
use super::intent_qrels::IntentQrels;
use super::query_ids::QueryIds;
use crate::error::{Error, Result};

/// One judged document of one query.
#[derive(Debug, Clone, Copy)]
pub struct Judgement {
    /// The index of its document id in the qrels' ids ([`Qrels::docno`] reads it).
    pub doc: u32,
    /// The hash the qrels' ids key the document by ([`DocnoArena::key_and_place`]), kept beside the index as a run
    /// entry's is: judging reads no span.
    pub(crate) key: u32,
    /// Where its id's bytes lie ([`DocnoArena::key_and_place`]), as a run entry keeps its own: judging and sorting
    /// read them without the span list.
    pub(crate) place: DocnoPlace,
    pub grade: i64,
    /// Position of this judgement among its query's judgements in input order.
    pub input_position: u32,
    /// 1-based line in the qrels text (0 for in-memory input).
    pub line: u32,
}

/// The judgements of one query.
#[derive(Debug, Clone)]
pub struct QueryQrels {
    pub qid: String,
    /// Sorted by docno bytes; no docno twice.
    pub judgements: Vec<Judgement>,
    /// `(grade, count)` for every grade ≥ 0 judged at least once, ascending by grade.
    pub grade_counts: Vec<(i64, u64)>,
}

impl QueryQrels {
    /// Number of documents judged with a grade ≥ `relevance_level` (trec_eval's `num_rel`).
    pub fn num_relevant(&self, relevance_level: i64) -> u64 {
        self.grade_counts.iter().filter(|(grade, _)| *grade >= relevance_level).map(|(_, count)| count).sum()
    }

    /// trec_eval's `num_rel_levels`: one more than the highest grade ≥ 0 judged (0 when there is none).
    pub fn num_grade_levels(&self) -> i64 {
        self.grade_counts.last().map_or(0, |(grade, _)| grade + 1)
    }

    /// How many documents were judged with exactly `grade`.
    pub fn count_at_grade(&self, grade: i64) -> u64 {
        self.grade_counts.binary_search_by_key(&grade, |(g, _)| *g).map_or(0, |i| self.grade_counts[i].1)
    }
}

/// All relevance judgements of a test collection.
#[derive(Debug, Clone, Default)]
pub struct Qrels {
    /// The ids of the judged documents: the qrels' own, or a table they share with other inputs (columns.rs).
    docnos: Arc<DocnoArena>,
    /// Sorted by qid bytes.
    queries: Vec<QueryQrels>,
    /// Subtopic judgements for the intent-aware measures, when given.
    intents: Option<IntentQrels>,
}

impl Qrels {
    /// These qrels with subtopic judgements for the intent-aware measures (`alpha_nDCG@k`, `ERR_IA@k`, …).
    pub fn with_intents(mut self, intents: IntentQrels) -> Qrels {
        self.intents = Some(intents);
        self
    }

    /// The subtopic judgements, if attached.
    pub fn intents(&self) -> Option<&IntentQrels> {
        self.intents.as_ref()
    }

    /// Builds qrels from `(qid, docno, grade)` triples in memory (the ranx shape flattened).
    pub fn from_triples<'a>(triples: impl IntoIterator<Item = (&'a str, &'a str, i64)>) -> Result<Qrels> {
        let mut builder = QrelsBuilder::default();
        for (qid, docno, grade) in triples {
            builder.add(qid, docno, grade)?;
        }
        builder.build()
    }

    /// Queries, sorted by qid.
    pub fn queries(&self) -> &[QueryQrels] {
        &self.queries
    }

    /// The judgements of `qid`, if it has any.
    pub fn query(&self, qid: &str) -> Option<&QueryQrels> {
        self.queries.binary_search_by(|q| q.qid.as_bytes().cmp(qid.as_bytes())).ok().map(|i| &self.queries[i])
    }

    /// The document id of a judgement.
    pub fn docno(&self, judgement: &Judgement) -> &str {
        self.docnos.get(judgement.doc)
    }

    /// The bytes of `judgement`'s id, read from the place the judgement keeps.
    #[inline]
    pub(crate) fn judgement_bytes(&self, judgement: &Judgement) -> &[u8] {
        self.docnos.bytes_at(judgement.doc, judgement.place)
    }

    /// The ids its judgements index.
    pub(crate) fn docnos(&self) -> &Arc<DocnoArena> {
        &self.docnos
    }

    /// Total number of judgements.
    pub fn len(&self) -> usize {
        self.queries.iter().map(|q| q.judgements.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.queries.is_empty()
    }
}

/// Collects judgements one by one, then sorts and checks them. `A` holds the document ids: the builder's own
/// ([`DocnoArena`], which [`QrelsBuilder::add`] appends to), or a table shared with other inputs (`Arc<DocnoArena>`).
#[derive(Debug, Default)]
pub struct QrelsBuilder<A = DocnoArena> {
    docnos: A,
    query_ids: QueryIds,
    queries: Vec<QueryQrels>,
}

impl QrelsBuilder {
    /// A builder with room for `judgements` judgements whose ids take `docno_bytes` bytes in all.
    pub fn with_capacity(docno_bytes: usize, judgements: usize) -> Self {
        QrelsBuilder { docnos: DocnoArena::with_capacity(docno_bytes, judgements), ..Default::default() }
    }

    /// Adds one in-memory judgement.
    pub fn add(&mut self, qid: &str, docno: &str, grade: i64) -> Result<()> {
        self.add_at_line(qid, docno, grade, 0)
    }

    /// Adds one judgement read at `line` of a text (1-based), which errors name.
    pub(crate) fn add_at_line(&mut self, qid: &str, docno: &str, grade: i64, line: u32) -> Result<()> {
        if qid.is_empty() || docno.is_empty() {
            return Err(Error::invalid("qrels", "query and document ids must not be empty"));
        }
        let index = self.query(qid);
        let doc = self.docnos.push(docno)?;
        self.push_judgement(index, doc, grade, line);
        Ok(())
    }
}

impl QrelsBuilder<Arc<DocnoArena>> {
    /// A builder whose judgements' document ids are already in `docnos` ([`QrelsBuilder::push_judgement`]).
    pub(crate) fn with_arena(docnos: Arc<DocnoArena>) -> Self {
        QrelsBuilder { docnos, query_ids: QueryIds::default(), queries: Vec::new() }
    }
}

impl<A: Borrow<DocnoArena> + Into<Arc<DocnoArena>>> QrelsBuilder<A> {

    /// The index of `qid`'s judgements, a new empty query if it has none yet.
    pub(crate) fn query(&mut self, qid: &str) -> usize {
        let queries = &mut self.queries;
        self.query_ids.index_of(qid, |qid| queries.push(QueryQrels { qid: qid.to_string(), judgements: Vec::new(), grade_counts: Vec::new() }))
    }

    /// Appends a judgement to query `index` ([`QrelsBuilder::query`]); `doc` indexes the builder's ids.
    #[inline]
    pub(crate) fn push_judgement(&mut self, index: usize, doc: u32, grade: i64, line: u32) {
        let (key, place) = self.docnos.borrow().key_and_place(doc);
        let query = &mut self.queries[index];
        let input_position = query.judgements.len() as u32;
        query.judgements.push(Judgement { doc, key, place, grade, input_position, line });
    }

    /// Sorts every query's judgements by docno, refuses a document judged twice for one query (as trec_eval
    /// does), counts grades, and sorts queries by qid.
    pub fn build(mut self) -> Result<Qrels> {
        let docnos: &DocnoArena = self.docnos.borrow();
        for query in &mut self.queries {
            // the ids' rule checked once per query, not per comparison (as in judging: ranking.rs)
            if docnos.keys_by_content() {
                query.judgements.sort_by(|a, b| docnos.bytes_in_place(a.place).cmp(docnos.bytes_in_place(b.place)));
            } else {
                query.judgements.sort_by(|a, b| docnos.bytes(a.doc).cmp(docnos.bytes(b.doc)));
            }
            if let Some(pair) = query.judgements.windows(2).find(|pair| docnos.same(pair[0].doc, pair[1].doc))
            {
                let (first, second) = if pair[0].input_position < pair[1].input_position {
                    (pair[0], pair[1])
                } else {
                    (pair[1], pair[0])
                };
                let docno = docnos.get(first.doc);
                return Err(if second.line > 0 {
                    Error::parse(
                        format!("qrels line {}", second.line),
                        format!("document '{docno}' is judged twice for query '{}' (first at line {})", query.qid, first.line),
                    )
                } else {
                    Error::invalid("qrels", format!("document '{docno}' is judged twice for query '{}'", query.qid))
                });
            }
            let mut grades: Vec<i64> = query.judgements.iter().map(|j| j.grade).filter(|g| *g >= 0).collect();
            grades.sort_unstable();
            for grade in grades {
                match query.grade_counts.last_mut() {
                    Some((last, count)) if *last == grade => *count += 1,
                    _ => query.grade_counts.push((grade, 1)),
                }
            }
        }
        self.queries.sort_by(|a, b| a.qid.as_bytes().cmp(b.qid.as_bytes()));
        Ok(Qrels { docnos: self.docnos.into(), queries: self.queries, intents: None })
    }
}
