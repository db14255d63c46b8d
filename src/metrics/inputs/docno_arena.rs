//! One contiguous buffer holding every document id of a qrels or run, so that parsing allocates once per
//! input instead of once per line.

use crate::error::{Error, Result};

/// Where one document id lies in a [`DocnoArena`] (byte offset and length), and the id's hash.
///
/// The hash is computed once, where the id enters the arena: judging a retrieved document and finding a document
/// listed twice compare hashes and read the id's bytes only when two hashes agree. A run's ids lie all over the
/// arena (a columnar table lists each once, in its own order), so reading the bytes again per look-up was a cache
/// miss per entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocnoSpan {
    start: u32,
    len: u32,
    hash: u32,
}

impl DocnoSpan {
    fn new(text: &[u8], start: usize, end: usize) -> DocnoSpan {
        DocnoSpan { start: start as u32, len: (end - start) as u32, hash: docno_hash(&text[start..end]) }
    }

    /// Whether the id is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The id's hash ([`DocnoIndex`] keys).
    #[inline]
    pub fn hash(&self) -> u32 {
        self.hash
    }

    /// Whether the two spans are the same place of one arena (then their ids are equal without reading them).
    #[inline]
    pub fn same_place(&self, other: &DocnoSpan) -> bool {
        self.start == other.start && self.len == other.len
    }
}

/// All document ids of one input, concatenated.
#[derive(Debug, Clone, Default)]
pub struct DocnoArena {
    text: String,
}

impl DocnoArena {
    pub fn with_capacity(bytes: usize) -> Self {
        DocnoArena { text: String::with_capacity(bytes) }
    }

    /// `count` ids joined by U+0000, kept as they are: the arena is the text, and the spans say where each id
    /// lies. `Err` when the text holds another number of ids (an id contains U+0000) or exceeds 4 GiB.
    pub fn from_joined(text: String, count: usize) -> std::result::Result<(DocnoArena, Vec<DocnoSpan>), &'static str> {
        if text.len() > u32::MAX as usize {
            return Err("the document ids of one input exceed 4 GiB");
        }
        let mut spans = Vec::with_capacity(count);
        if count > 0 {
            let bytes = text.as_bytes();
            let mut start = 0;
            // memchr (already in the modules through csv) scans a word or a SIMD vector at a time
            for end in memchr::memchr_iter(0, bytes) {
                spans.push(DocnoSpan::new(bytes, start, end));
                start = end + 1;
            }
            spans.push(DocnoSpan::new(bytes, start, bytes.len()));
        } else if !text.is_empty() {
            return Err("ids must not contain U+0000");
        }
        if spans.len() != count {
            return Err("ids must not contain U+0000");
        }
        Ok((DocnoArena { text }, spans))
    }

    /// Appends `docno` and returns where it lies; inputs beyond 4 GiB of ids are refused.
    pub fn push(&mut self, docno: &str) -> Result<DocnoSpan> {
        let start = self.text.len();
        let end = start + docno.len();
        if end > u32::MAX as usize {
            return Err(Error::invalid("docno", "the document ids of one input exceed 4 GiB"));
        }
        self.text.push_str(docno);
        Ok(DocnoSpan::new(self.text.as_bytes(), start, end))
    }

    /// The document id at `span`.
    #[inline]
    pub fn get(&self, span: DocnoSpan) -> &str {
        &self.text[span.start as usize..(span.start + span.len) as usize]
    }

    /// The bytes of the id at `span`; comparing these is trec_eval's `strcmp` order.
    #[inline]
    pub fn bytes(&self, span: DocnoSpan) -> &[u8] {
        &self.text.as_bytes()[span.start as usize..(span.start + span.len) as usize]
    }
}

/// Item indices keyed by the items' docnos: one query's judgements (to judge a run's entries) or one query's run
/// entries (to find documents listed twice). Open addressing with linear probing on the spans' hashes; the ids
/// themselves are compared only when two hashes agree. Reset and reused from query to query.
#[derive(Debug, Default)]
pub(crate) struct DocnoIndex {
    slots: Vec<(u32, u32)>,
}

impl DocnoIndex {
    const EMPTY: u32 = u32::MAX;

    /// Empties the table and sizes it for up to `items` indices, with `slots_per_item` slots each (rounded up to
    /// a power of two). Where most look-ups are for a docno that is not there (judging a run's entries: a query
    /// judges a few dozen of its thousand), a sparse table (8 slots per item) answers most of them at the first,
    /// empty slot, a branch the CPU then predicts; at 2 slots per item a third of them first met another docno,
    /// and judging took twice as long.
    pub(crate) fn reset(&mut self, items: usize, slots_per_item: usize) {
        let capacity = (items * slots_per_item).next_power_of_two().max(16);
        self.slots.clear();
        self.slots.resize(capacity, (0, Self::EMPTY));
    }

    /// Adds `index` under `hash`; when an index whose docno `is_same` says is equal is there already, adds nothing
    /// and returns it.
    #[inline]
    pub(crate) fn insert(&mut self, index: u32, hash: u32, is_same: impl Fn(u32) -> bool) -> Option<u32> {
        match self.probe(hash, is_same) {
            (_, Some(found)) => Some(found),
            (slot, None) => {
                self.slots[slot] = (hash, index);
                None
            }
        }
    }

    /// The index added under `hash` whose docno `is_same` says is equal to the one looked for.
    #[inline]
    pub(crate) fn find(&self, hash: u32, is_same: impl Fn(u32) -> bool) -> Option<u32> {
        self.probe(hash, is_same).1
    }

    /// The slot holding the index of an equal docno and that index; or the empty slot where it would go.
    #[inline]
    fn probe(&self, hash: u32, is_same: impl Fn(u32) -> bool) -> (usize, Option<u32>) {
        let mask = self.slots.len() - 1;
        let mut slot = hash as usize & mask;
        loop {
            match self.slots[slot] {
                (_, Self::EMPTY) => return (slot, None),
                (slot_hash, i) if slot_hash == hash && is_same(i) => return (slot, Some(i)),
                _ => slot = (slot + 1) & mask,
            }
        }
    }
}

/// A docno's hash, eight bytes at a time (the high half of a multiply, so that the low bits that pick a slot mix
/// every byte).
#[inline]
fn docno_hash(bytes: &[u8]) -> u32 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut hash = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        hash = (hash.rotate_left(23) ^ u64::from_le_bytes(chunk.try_into().expect("8 bytes"))).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        hash = (hash.rotate_left(23) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    (hash >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_ids_split_as_str_split_does() {
        // ids of every length around the 8-byte words, with bytes a word's borrow could mistake for zeros
        // (0x01, 0x80, 0xff in UTF-8 text) and empty ids side by side
        let pieces = ["", "a", "\u{1}", "\u{1}\u{1}", "é", "\u{80}x", "ÿÿÿÿ", "abcdefg", "abcdefgh", "abcdefghi", "\u{1}bcdefghijklmnop"];
        let mut ids = Vec::new();
        for (i, a) in pieces.iter().enumerate() {
            for b in &pieces[i..] {
                ids.push(format!("{a}{b}"));
            }
        }
        let joined = ids.join("\0");
        let (arena, spans) = DocnoArena::from_joined(joined.clone(), ids.len()).unwrap();
        let read: Vec<&str> = spans.iter().map(|&s| arena.get(s)).collect();
        assert_eq!(read, joined.split('\0').collect::<Vec<_>>());
        for (span, id) in spans.iter().zip(&ids) {
            assert_eq!(span.hash(), docno_hash(id.as_bytes()));
        }
        assert_eq!(DocnoArena::from_joined(joined, ids.len() - 1).unwrap_err(), "ids must not contain U+0000");
    }
}
