//! What is evaluated, held in memory: relevance judgements ([`qrels`]), ranked results ([`run`]) and the
//! subtopic judgements of the intent-aware measures ([`intent_qrels`]), each with its document ids in one
//! [`docno_arena`]. They are read from text by [`crate::metrics::formats`], or built entry by entry
//! ([`qrels::QrelsBuilder`], [`run::RunBuilder`], each query's place found by [`query_ids`]) or from query-major [`columns`].

pub mod columns;
pub(crate) mod docno_arena;
pub mod intent_qrels;
pub mod qrels;
pub(crate) mod query_ids;
pub mod run;
