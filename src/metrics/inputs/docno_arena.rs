//! One contiguous buffer holding every document id of a qrels or run, so that parsing allocates once per
//! input instead of once per line.

use crate::error::{Error, Result};

/// Where one document id lies in a [`DocnoArena`]: byte offset and length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocnoSpan {
    start: u32,
    len: u32,
}

impl DocnoSpan {
    /// Whether the id is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
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
            let mut start = 0u32;
            for (i, &b) in text.as_bytes().iter().enumerate() {
                if b == 0 {
                    spans.push(DocnoSpan { start, len: i as u32 - start });
                    start = i as u32 + 1;
                }
            }
            spans.push(DocnoSpan { start, len: text.len() as u32 - start });
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
        Ok(DocnoSpan { start: start as u32, len: docno.len() as u32 })
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

/// A docno's hash for the hash tables that find documents by id, eight bytes at a time (the high half of a
/// multiply, so that the low bits that pick a slot mix every byte).
#[inline]
pub(crate) fn docno_hash(bytes: &[u8]) -> u32 {
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
