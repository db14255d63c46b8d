//! Retrieval metrics with trec_eval semantics (filled in by the metrics work).
