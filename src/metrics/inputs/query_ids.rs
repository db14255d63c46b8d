//! Where each query id's entries go while qrels or a run are built line by line: the index of its query in the
//! builder's list. Files list a query's lines together, so the previous line's query is checked first and the
//! hash map is consulted once per query, not once per line (500,000 SipHash look-ups were a third of parsing a
//! 10,000-query qrels file in wasm).

use std::collections::HashMap;

/// Query ids to their builder's query index.
#[derive(Debug, Default)]
pub(crate) struct QueryIds {
    index: HashMap<Box<str>, usize>,
    /// The query id looked up last (a buffer reused from look-up to look-up) and its index.
    last: Option<(String, usize)>,
}

impl QueryIds {
    /// The index of `qid`; when it is new, `add(qid)` appends its query to the builder and the index is the number
    /// of queries before it.
    #[inline]
    pub(crate) fn index_of(&mut self, qid: &str, add: impl FnOnce(&str)) -> usize {
        match &self.last {
            Some((last, index)) if **last == *qid => *index,
            _ => self.look_up(qid, add),
        }
    }

    fn look_up(&mut self, qid: &str, add: impl FnOnce(&str)) -> usize {
        let count = self.index.len();
        let index = *self.index.entry(qid.into()).or_insert_with(|| {
            add(qid);
            count
        });
        let last = self.last.get_or_insert_with(|| (String::new(), 0));
        last.0.clear();
        last.0.push_str(qid);
        last.1 = index;
        index
    }
}
