//! Intent-aware (diversity) qrels: `qid subtopic docno grade` per line ([`crate::metrics::formats::trec_text`]),
//! the TREC Web track's format that `ndeval` reads and ir_measures passes to pyndeval (its qrels' `iteration`
//! column is the subtopic).
//!
//! They come beside the ordinary qrels, not instead of them: TREC ships a diversity collection as two files
//! (ad hoc and ndeval qrels), the ordinary qrels refuse a document judged twice for one query (which a
//! diversity qrels file does once per subtopic), and the evaluated queries stay those of the ordinary qrels.
//! Subtopic ids are numbered by first appearance in the file, as pyndeval numbers them; a document counts
//! for a subtopic when its grade there is ≥ the measure's relevance level.

use std::collections::HashMap;

use crate::error::{Error, Result};

/// One judged document of one query: its grade per subtopic.
#[derive(Debug, Clone, PartialEq)]
pub struct IntentDocument {
    pub docno: String,
    /// `(subtopic index, grade)`, ascending by subtopic index.
    pub grades: Vec<(u32, i64)>,
}

impl IntentDocument {
    /// Subtopic indices this document is relevant to at `relevance_level`, ascending.
    pub fn relevant_subtopics(&self, relevance_level: i64) -> impl Iterator<Item = u32> + '_ {
        self.grades.iter().filter(move |(_, grade)| *grade >= relevance_level).map(|(subtopic, _)| *subtopic)
    }
}

/// The subtopic judgements of one query.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryIntents {
    pub qid: String,
    /// Sorted by docno bytes; no docno twice.
    pub documents: Vec<IntentDocument>,
}

impl QueryIntents {
    /// Index of `docno` in [`QueryIntents::documents`].
    pub fn position(&self, docno: &[u8]) -> Option<usize> {
        self.documents.binary_search_by(|d| d.docno.as_bytes().cmp(docno)).ok()
    }

    /// Subtopics with at least one relevant document at `relevance_level` (ndeval's `actualSubtopics`).
    pub fn judged_subtopics(&self, relevance_level: i64) -> usize {
        let mut seen: Vec<u32> = self.documents.iter().flat_map(|d| d.relevant_subtopics(relevance_level)).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }
}

/// One line of the file: docno, subtopic index, grade, line number.
type Row<'a> = (&'a str, u32, i64, usize);

/// The subtopic judgements of a test collection.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IntentQrels {
    /// Sorted by qid bytes.
    queries: Vec<QueryIntents>,
    /// Number of distinct subtopic ids in the file.
    subtopics: usize,
}

/// Collects subtopic judgements one by one (each with its line in the text, which errors name), then groups
/// them by query and document.
#[derive(Debug, Default)]
pub struct IntentQrelsBuilder<'a> {
    subtopic_index: HashMap<&'a str, u32>,
    query_index: HashMap<&'a str, usize>,
    rows: Vec<(&'a str, Vec<Row<'a>>)>,
}

impl<'a> IntentQrelsBuilder<'a> {
    /// Adds one judgement read at `line` of the text (1-based). Subtopic ids are numbered by first appearance.
    pub fn add_at_line(&mut self, qid: &'a str, subtopic: &'a str, docno: &'a str, grade: i64, line: usize) {
        let next = self.subtopic_index.len() as u32;
        let subtopic = *self.subtopic_index.entry(subtopic).or_insert(next);
        let rows = &mut self.rows;
        let query = *self.query_index.entry(qid).or_insert_with(|| {
            rows.push((qid, Vec::new()));
            rows.len() - 1
        });
        self.rows[query].1.push((docno, subtopic, grade, line));
    }

    /// Groups the judgements by query and document; a (query, subtopic, document) judged twice is an error
    /// naming both lines, and no judgement at all is an error too.
    pub fn build(self) -> Result<IntentQrels> {
        let mut queries = Vec::with_capacity(self.rows.len());
        for (qid, mut judgements) in self.rows {
            judgements.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()).then(a.1.cmp(&b.1)).then(a.3.cmp(&b.3)));
            if let Some(pair) = judgements.windows(2).find(|w| w[0].0 == w[1].0 && w[0].1 == w[1].1) {
                return Err(Error::parse(
                    format!("intent qrels line {}", pair[1].3),
                    format!(
                        "document '{}' is judged twice for one subtopic of query '{qid}' (first at line {})",
                        pair[0].0, pair[0].3
                    ),
                ));
            }
            let mut documents: Vec<IntentDocument> = Vec::new();
            for (docno, subtopic, grade, _) in judgements {
                match documents.last_mut() {
                    Some(last) if last.docno == docno => last.grades.push((subtopic, grade)),
                    _ => documents.push(IntentDocument { docno: docno.to_string(), grades: vec![(subtopic, grade)] }),
                }
            }
            queries.push(QueryIntents { qid: qid.to_string(), documents });
        }
        if queries.is_empty() {
            return Err(Error::invalid("intents", "no judgements: empty intent-aware qrels"));
        }
        queries.sort_by(|a, b| a.qid.as_bytes().cmp(b.qid.as_bytes()));
        Ok(IntentQrels { queries, subtopics: self.subtopic_index.len() })
    }
}

impl IntentQrels {
    /// The subtopic judgements of `qid`, if it has any.
    pub fn query(&self, qid: &str) -> Option<&QueryIntents> {
        self.queries.binary_search_by(|q| q.qid.as_bytes().cmp(qid.as_bytes())).ok().map(|i| &self.queries[i])
    }

    /// Queries, sorted by qid.
    pub fn queries(&self) -> &[QueryIntents] {
        &self.queries
    }

    /// Number of distinct subtopic ids.
    pub fn subtopics(&self) -> usize {
        self.subtopics
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_subtopics_per_document() {
        let q = IntentQrels::parse("1 1 d2 1\n1 2 d1 0\n1 2 d2 2\n2 1 d9 1\n").unwrap();
        assert_eq!(q.subtopics(), 2);
        let one = q.query("1").unwrap();
        assert_eq!(one.documents.len(), 2);
        assert_eq!(one.documents[1], IntentDocument { docno: "d2".into(), grades: vec![(0, 1), (1, 2)] });
        assert_eq!(one.judged_subtopics(1), 2);
        assert_eq!(one.judged_subtopics(2), 1);
        assert_eq!(one.position(b"d1"), Some(0));
    }

    #[test]
    fn refuses_bad_lines() {
        assert!(IntentQrels::parse("1 1 d1\n").unwrap_err().to_string().contains("line 1"));
        assert!(IntentQrels::parse("1 1 d1 x\n").unwrap_err().to_string().contains("not an integer"));
        let twice = IntentQrels::parse("1 1 d1 1\n1 1 d1 0\n").unwrap_err().to_string();
        assert!(twice.contains("line 2") && twice.contains("first at line 1"), "{twice}");
        assert!(IntentQrels::parse("# nothing\n").is_err());
    }
}
