//! Qrels and runs given as query-major columns: one id per query, row offsets per query, and per row an index
//! into a document-id table and a grade or score — compressed sparse rows, the layout of ranx's numba arrays and
//! of a DataFrame grouped by query.
//!
//! Why this shape: a nested `{qid: {docno: value}}` costs one JavaScript object per entry (at 10M entries V8
//! stalls building them) and a long table repeats each query id on every row. Here only the ids are strings —
//! each query's once, each document's once however many queries retrieve it — and everything per row is a
//! number in a flat array, which crosses into wasm as one copy. The rows become the same [`Qrels`] and [`Run`]
//! the TREC text reader builds, row order standing for file order (a run's entries keep it for the "input" tie
//! policy), so every measure sees exactly what it would see from the text.
//!
//! Rules, as for the text and the nested shape: ids are non-empty; a query id listed twice has its rows joined,
//! in order, as two blocks of lines of one query are; a document twice in one query is an error (a run may keep
//! the first: [`DuplicatePolicy::KeepFirst`]), compared by id, so a table that lists an id twice is fine; scores
//! are finite. Errors are `INVALID_ARGUMENT`s naming the column and the row (`run.docs[17]: …`).

use std::sync::Arc;

use super::docno_arena::DocnoArena;
use super::qrels::{Qrels, QrelsBuilder};
use super::run::{check_score, DuplicatePolicy, Run, RunBuilder};
use crate::error::{Error, Result};

/// The document-id table of [`Columns`]: the ids one after another, which become the built input's own. Cloning it
/// shares it: qrels and runs built from one [`DocIdTable::distinct`] table compare documents by their index in it.
#[derive(Debug, Clone)]
pub struct DocIdTable {
    docnos: Arc<DocnoArena>,
}

impl DocIdTable {
    /// A table of `ids`, copied.
    pub fn new(ids: &[&str]) -> Result<DocIdTable> {
        let mut arena = DocnoArena::with_capacity(ids.iter().map(|d| d.len()).sum(), ids.len());
        for id in ids {
            arena.push(id)?;
        }
        Ok(DocIdTable { docnos: Arc::new(arena) })
    }

    /// `count` ids joined by U+0000, taken as they are (no copy); `field` names them in errors.
    pub fn from_joined(field: &str, joined: String, count: usize) -> Result<DocIdTable> {
        let arena = DocnoArena::from_joined(joined, count).map_err(|problem| Error::invalid(field, problem))?;
        Ok(DocIdTable { docnos: Arc::new(arena) })
    }

    /// This table, checked to list each id once and marked so: inputs built from it (or its clones) judge and find
    /// duplicates by comparing indices, without reading an id. An empty or repeated id is refused, naming its row
    /// of `field`.
    pub fn distinct(self, field: &str) -> Result<DocIdTable> {
        self.check_ids(field)?;
        let mut arena = Arc::unwrap_or_clone(self.docnos);
        if let Err((first, again)) = arena.mark_distinct() {
            return Err(Error::invalid(
                &format!("{field}[{again}]"),
                format!("repeats {field}[{first}] ({:?}): a shared table lists each id once", arena.get(first as u32)),
            ));
        }
        Ok(DocIdTable { docnos: Arc::new(arena) })
    }

    /// Refuses an empty id, naming its row of `field`.
    fn check_ids(&self, field: &str) -> Result<()> {
        match self.docnos.first_empty() {
            Some(i) => Err(Error::invalid(&format!("{field}[{i}]"), "is empty: document ids must not be empty")),
            None => Ok(()),
        }
    }

    /// Whether the table was checked to list each id once ([`DocIdTable::distinct`]).
    pub fn is_distinct(&self) -> bool {
        self.docnos.is_distinct()
    }

    /// Number of ids.
    pub fn len(&self) -> usize {
        self.docnos.len()
    }

    pub fn is_empty(&self) -> bool {
        self.docnos.is_empty()
    }

    /// The id at `index`.
    pub fn get(&self, index: usize) -> &str {
        self.docnos.get(index as u32)
    }
}

/// One input's columns; `V` is a grade (qrels) or a score (run).
#[derive(Debug, Clone)]
pub struct Columns<'a, V> {
    /// One id per query.
    pub query_ids: &'a [&'a str],
    /// Query `i`'s rows are `offsets[i]..offsets[i + 1]`: one more offset than queries, starting at 0,
    /// non-decreasing, ending at the number of rows.
    pub offsets: &'a [u32],
    /// The document-id table.
    pub doc_ids: DocIdTable,
    /// Per row, the index of its document in `doc_ids`; `None`: `doc_ids` itself has one id per row.
    pub docs: Option<&'a [u32]>,
    /// Per row, its grade or score.
    pub values: &'a [V],
}

/// Qrels columns: integer grades (a negative grade is "in the pool but unjudged", as in the text).
pub type QrelsColumns<'a> = Columns<'a, i64>;
/// Run columns: finite scores.
pub type RunColumns<'a> = Columns<'a, f64>;

impl<V: Copy> Columns<'_, V> {
    /// Checks the shape (`field` names the input in errors: `qrels`, `run`, `runs[1]`): offsets against queries
    /// and rows, every document index inside the table, no empty id. `values` is the name of the values' column.
    fn check(&self, field: &str, values: &str) -> Result<()> {
        let rows = self.values.len();
        if self.offsets.len() != self.query_ids.len() + 1 {
            return Err(Error::invalid(
                &format!("{field}.offsets"),
                format!("has {} offsets for {} queries: expected one more than queryIds", self.offsets.len(), self.query_ids.len()),
            ));
        }
        if self.offsets[0] != 0 {
            return Err(Error::invalid(&format!("{field}.offsets[0]"), format!("is {}: the first query's rows start at 0", self.offsets[0])));
        }
        if let Some(i) = self.offsets.windows(2).position(|w| w[1] < w[0]) {
            return Err(Error::invalid(
                &format!("{field}.offsets[{}]", i + 1),
                format!("is {}, below the offset before it ({}): offsets must not decrease", self.offsets[i + 1], self.offsets[i]),
            ));
        }
        let last = *self.offsets.last().expect("one offset at least") as usize;
        if last != rows {
            return Err(Error::invalid(
                &format!("{field}.offsets[{}]", self.offsets.len() - 1),
                format!("is {last}, but {field}.{values} has {rows} rows: the last offset is the number of rows"),
            ));
        }
        match self.docs {
            Some(docs) => {
                if docs.len() != rows {
                    return Err(Error::invalid(&format!("{field}.docs"), format!("has {} rows, {field}.{values} {rows}", docs.len())));
                }
                let table = self.doc_ids.len();
                if let Some(row) = docs.iter().position(|&d| d as usize >= table) {
                    return Err(Error::invalid(
                        &format!("{field}.docs[{row}]"),
                        format!("is {}, outside {field}.docIds (length {table})", docs[row]),
                    ));
                }
            }
            None if self.doc_ids.len() != rows => {
                return Err(Error::invalid(
                    &format!("{field}.docIds"),
                    format!("has {} ids for {rows} rows: without {field}.docs it lists one id per row", self.doc_ids.len()),
                ));
            }
            None => {}
        }
        if let Some(i) = self.query_ids.iter().position(|q| q.is_empty()) {
            return Err(Error::invalid(&format!("{field}.queryIds[{i}]"), "is empty: query ids must not be empty"));
        }
        self.doc_ids.check_ids(&format!("{field}.docIds"))
    }
}

/// Calls `row(query index, row, table index)` for every row, query by query.
fn for_each_row(offsets: &[u32], docs: Option<&[u32]>, mut row: impl FnMut(usize, usize, usize)) {
    for (q, range) in offsets.windows(2).enumerate() {
        for r in range[0] as usize..range[1] as usize {
            row(q, r, docs.map_or(r, |docs| docs[r] as usize));
        }
    }
}

impl Qrels {
    /// Qrels from columns (module docs); `field` names them in errors.
    pub fn from_columns(field: &str, columns: QrelsColumns) -> Result<Qrels> {
        columns.check(field, "grades")?;
        let Columns { query_ids, offsets, doc_ids, docs, values } = columns;
        let mut builder = QrelsBuilder::with_arena(doc_ids.docnos);
        let queries: Vec<usize> = query_ids.iter().map(|q| builder.query(q)).collect();
        for_each_row(offsets, docs, |q, r, d| builder.push_judgement(queries[q], d as u32, values[r], 0));
        builder.build()
    }
}

impl Run {
    /// A run from columns (module docs); `field` names it in errors.
    pub fn from_columns(field: &str, columns: RunColumns, duplicates: DuplicatePolicy) -> Result<Run> {
        columns.check(field, "scores")?;
        if let Some(row) = columns.values.iter().position(|&s| check_score(s).is_err()) {
            return Err(Error::invalid(&format!("{field}.scores[{row}]"), format!("score {} is not finite", columns.values[row])));
        }
        let Columns { query_ids, offsets, doc_ids, docs, values } = columns;
        let mut builder = RunBuilder::with_arena(doc_ids.docnos, duplicates);
        for (qid, range) in query_ids.iter().zip(offsets.windows(2)) {
            let index = builder.query(qid);
            let rows = range[0] as usize..range[1] as usize;
            match docs {
                Some(docs) => builder.extend_query(index, docs[rows.clone()].iter().copied().zip(&values[rows])),
                None => builder.extend_query(index, (range[0]..range[1]).zip(&values[rows])),
            }
        }
        builder.build()
    }
}
