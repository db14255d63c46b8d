//! The document ids of an input, or of a table several inputs share: their bytes in one buffer (so that parsing
//! allocates once per input instead of once per line) and where each lies, addressed by index. A run entry or a
//! judgement names its document by that index.

use crate::error::{Error, Result};

/// Where one document id's bytes lie in its arena's text (byte offset and length); run entries and judgements keep
/// it too ([`DocnoArena::key_and_place`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct DocnoPlace {
    start: u32,
    len: u32,
}

/// Where one document id lies in a [`DocnoArena`], and the id's hash.
///
/// The hash is computed once, where the id enters the arena: judging a retrieved document and finding a document
/// listed twice compare hashes and read the id's bytes only when two hashes agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct DocnoSpan {
    place: DocnoPlace,
    hash: u32,
}

impl DocnoSpan {
    fn new(text: &[u8], start: usize, end: usize) -> DocnoSpan {
        let place = DocnoPlace { start: start as u32, len: (end - start) as u32 };
        DocnoSpan { place, hash: docno_hash(&text[start..end]) }
    }
}

/// All document ids of one input (or one shared table), concatenated, and where each lies.
#[derive(Debug, Clone, Default)]
pub struct DocnoArena {
    text: String,
    spans: Vec<DocnoSpan>,
    /// No id is listed twice ([`DocnoArena::mark_distinct`]): then two indices name the same document exactly when
    /// they are equal, and look-ups key an id by its index instead of its bytes.
    distinct: bool,
    /// The index of the first empty id (kept as ids arrive, so that a shared table is not scanned on every use).
    first_empty: Option<u32>,
}

impl DocnoArena {
    /// An empty arena with room for `ids` ids of `bytes` bytes in all (grown by doubling, its spans are copied
    /// again and again: [`RunBuilder::query`](super::run::RunBuilder::query)).
    pub fn with_capacity(bytes: usize, ids: usize) -> Self {
        DocnoArena { text: String::with_capacity(bytes), spans: Vec::with_capacity(ids), ..Default::default() }
    }

    /// `count` ids joined by U+0000, kept as they are: the arena is the text, and the spans say where each id
    /// lies. `Err` when the text holds another number of ids (an id contains U+0000) or exceeds 4 GiB.
    pub fn from_joined(text: String, count: usize) -> std::result::Result<DocnoArena, &'static str> {
        if text.len() > u32::MAX as usize {
            return Err("the document ids of one input exceed 4 GiB");
        }
        let mut spans = Vec::with_capacity(count);
        let mut first_empty = None;
        if count > 0 {
            let bytes = text.as_bytes();
            let mut start = 0;
            // memchr (already in the modules through csv) scans a word or a SIMD vector at a time
            for end in memchr::memchr_iter(0, bytes).chain([bytes.len()]) {
                if end == start && first_empty.is_none() {
                    first_empty = Some(spans.len() as u32);
                }
                spans.push(DocnoSpan::new(bytes, start, end));
                start = end + 1;
            }
        } else if !text.is_empty() {
            return Err("ids must not contain U+0000");
        }
        if spans.len() != count {
            return Err("ids must not contain U+0000");
        }
        Ok(DocnoArena { text, spans, distinct: false, first_empty })
    }

    /// Appends `docno` and returns its index; inputs beyond 4 GiB of ids are refused.
    pub fn push(&mut self, docno: &str) -> Result<u32> {
        let start = self.text.len();
        let end = start + docno.len();
        if end > u32::MAX as usize || self.spans.len() >= u32::MAX as usize {
            return Err(Error::invalid("docno", "the document ids of one input exceed 4 GiB"));
        }
        self.text.push_str(docno);
        if docno.is_empty() && self.first_empty.is_none() {
            self.first_empty = Some(self.spans.len() as u32);
        }
        self.spans.push(DocnoSpan::new(self.text.as_bytes(), start, end));
        self.distinct = false;
        Ok((self.spans.len() - 1) as u32)
    }

    /// Number of ids.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The document id at index `doc`.
    #[inline]
    pub fn get(&self, doc: u32) -> &str {
        let DocnoPlace { start, len } = self.spans[doc as usize].place;
        &self.text[start as usize..(start + len) as usize]
    }

    /// The bytes of the id at index `doc`; comparing these is trec_eval's `strcmp` order.
    #[inline]
    pub fn bytes(&self, doc: u32) -> &[u8] {
        self.bytes_in_place(self.spans[doc as usize].place)
    }

    /// The index of the first empty id.
    pub fn first_empty(&self) -> Option<usize> {
        self.first_empty.map(|i| i as usize)
    }

    /// Marks the arena as listing each id once; `Err((first, again))`, unmarked: the id at `again` repeats the one
    /// at `first` (the lowest such `again`, and the first place of its id).
    ///
    /// The ids are first grouped by their hash's high bits (a count, then one pass writing each `(hash, index)`
    /// into its group), and each group is searched for repeats with a hash table small enough to stay in cache:
    /// one table over 4.3M ids took a cache miss per id (415 of the 630 ms a table of them took to build).
    pub fn mark_distinct(&mut self) -> std::result::Result<(), (usize, usize)> {
        const IDS_PER_GROUP: usize = 2048;
        let bits = (self.spans.len() / IDS_PER_GROUP).max(1).ilog2();
        let group = |hash: u32| if bits == 0 { 0 } else { (hash >> (32 - bits)) as usize };
        let mut starts = vec![0usize; (1 << bits) + 1];
        for span in &self.spans {
            starts[group(span.hash) + 1] += 1;
        }
        for g in 1..starts.len() {
            starts[g] += starts[g - 1];
        }
        let mut grouped = vec![(0u32, 0u32); self.spans.len()];
        let mut next = starts.clone();
        for (i, span) in self.spans.iter().enumerate() {
            let at = &mut next[group(span.hash)];
            grouped[*at] = (span.hash, i as u32);
            *at += 1;
        }
        let mut seen = DocnoIndex::default();
        let mut repeat: Option<(usize, usize)> = None;
        for members in starts.windows(2).map(|w| &grouped[w[0]..w[1]]) {
            seen.reset(members.len(), 2);
            // members keep index order, so the first repeat found in a group is its lowest
            for &(hash, i) in members {
                if let Some(first) = seen.insert(i, hash, |j| self.bytes(j) == self.bytes(i)) {
                    if repeat.is_none_or(|(_, again)| (i as usize) < again) {
                        repeat = Some((first as usize, i as usize));
                    }
                    break;
                }
            }
        }
        match repeat {
            Some(pair) => Err(pair),
            None => {
                self.distinct = true;
                Ok(())
            }
        }
    }

    /// Whether each id is listed once ([`DocnoArena::mark_distinct`]).
    pub fn is_distinct(&self) -> bool {
        self.distinct
    }

    /// The id's hash from its bytes: equal ids of any two arenas hash alike.
    #[inline]
    pub(crate) fn content_hash(&self, doc: u32) -> u32 {
        self.spans[doc as usize].hash
    }

    /// [`DocnoArena::content_hash`] of the id at `doc`, whose key ([`DocnoArena::key_and_place`]) is `key`: the key
    /// itself, unless the arena keys ids by index.
    #[inline]
    pub(crate) fn content_hash_of(&self, doc: u32, key: u32) -> u32 {
        if self.distinct {
            self.content_hash(doc)
        } else {
            key
        }
    }

    /// The hash a [`DocnoIndex`] keys the id at `doc` by among ids of this arena, and where its bytes lie, for a
    /// run entry or judgement to keep beside its index. The key is the index mixed ([`index_key`]) when each id is
    /// listed once, else [`DocnoArena::content_hash`]; the place is read only then, from the span the hash comes from
    /// anyway: a distinct arena compares indices, and reading the spans of a table that many inputs share would be a
    /// cache miss per entry, so its place is left empty.
    #[inline]
    pub(crate) fn key_and_place(&self, doc: u32) -> (u32, DocnoPlace) {
        if self.distinct {
            (index_key(doc), DocnoPlace::default())
        } else {
            self.content_key_and_place(doc)
        }
    }

    /// [`DocnoArena::key_and_place`] of an arena that [`DocnoArena::keys_by_content`].
    #[inline]
    pub(crate) fn content_key_and_place(&self, doc: u32) -> (u32, DocnoPlace) {
        let span = self.spans[doc as usize];
        (span.hash, span.place)
    }

    /// The bytes of the id at `doc`, whose place [`DocnoArena::key_and_place`] gave: read from the place, without
    /// the span list (judging a run's entries against other ids: the span was a cache miss per judged entry).
    #[inline]
    pub(crate) fn bytes_at(&self, doc: u32, place: DocnoPlace) -> &[u8] {
        if self.distinct {
            self.bytes(doc)
        } else {
            self.bytes_in_place(place)
        }
    }

    /// Whether the keys of this arena's ids are their content hashes and their places are kept
    /// ([`DocnoArena::key_and_place`]): the arena is not marked distinct.
    #[inline]
    pub(crate) fn keys_by_content(&self) -> bool {
        !self.distinct
    }

    /// The bytes at `place`: one of this arena's spans, or a place [`DocnoArena::key_and_place`] gave where the arena
    /// [`DocnoArena::keys_by_content`] (a loop that has checked that once reads its ids without checking it per id).
    #[inline]
    pub(crate) fn bytes_in_place(&self, place: DocnoPlace) -> &[u8] {
        &self.text.as_bytes()[place.start as usize..(place.start + place.len) as usize]
    }

    /// Whether the ids at `a` and `b` of this arena are the same document.
    #[inline]
    pub(crate) fn same(&self, a: u32, b: u32) -> bool {
        a == b || (!self.distinct && self.content_hash(a) == self.content_hash(b) && self.bytes(a) == self.bytes(b))
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

/// The key of the id at index `doc` of an arena that lists each id once: the index mixed, so that the low bits
/// that pick a [`DocnoIndex`] slot vary.
#[inline]
pub(crate) fn index_key(doc: u32) -> u32 {
    ((doc as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as u32
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
        let arena = DocnoArena::from_joined(joined.clone(), ids.len()).unwrap();
        let read: Vec<&str> = (0..arena.len() as u32).map(|i| arena.get(i)).collect();
        assert_eq!(read, joined.split('\0').collect::<Vec<_>>());
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(arena.content_hash(i as u32), docno_hash(id.as_bytes()));
        }
        assert_eq!(DocnoArena::from_joined(joined, ids.len() - 1).unwrap_err(), "ids must not contain U+0000");
    }

    #[test]
    fn a_distinct_arena_compares_ids_by_index() {
        let mut arena = DocnoArena::from_joined("b\0a\0c".to_string(), 3).unwrap();
        arena.mark_distinct().unwrap();
        assert!(arena.is_distinct() && arena.same(1, 1) && !arena.same(0, 1));
        // a repeated id is refused, naming both places; without the mark the two places are the same document
        let mut repeated = DocnoArena::from_joined("b\0a\0b".to_string(), 3).unwrap();
        assert!(repeated.same(0, 2) && !repeated.same(0, 1));
        assert_eq!(repeated.mark_distinct().unwrap_err(), (0, 2));
        assert!(!repeated.is_distinct());
        // among many ids (many groups), the lowest repeat is reported, with its id's first place
        let mut ids: Vec<String> = (0..20_000).map(|i| format!("d{i}")).collect();
        ids[15_000] = "d7".into();
        ids[12_000] = "d9000".into();
        let mut many = DocnoArena::from_joined(ids.join("\0"), ids.len()).unwrap();
        assert_eq!(many.mark_distinct().unwrap_err(), (9000, 12_000));
        ids[12_000] = "x".into();
        ids[15_000] = "y".into();
        let mut many = DocnoArena::from_joined(ids.join("\0"), ids.len()).unwrap();
        assert!(many.mark_distinct().is_ok() && many.is_distinct());
        // adding an id takes the mark away: the arena no longer knows its ids to be distinct
        arena.push("a").unwrap();
        assert!(!arena.is_distinct() && arena.same(1, 3));
    }
}
