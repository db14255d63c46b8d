//! # rerankit
//!
//! Rerank and evaluate search results wherever JavaScript runs. The core modules are plain Rust with no JS in
//! them; the JavaScript bindings are a crate of their own (bindings/wasm).
//!
//! - [`byte_order_mark`]: the one rule for a leading byte-order mark in text a user hands in.
//! - [`document`]: Haystack's Document / Span / Answer / Label / MultiLabel schema with compatible ids.
//! - [`error`]: the one error type, with stable codes.
//! - [`metrics`]: trec_eval-exact retrieval metrics.
//! - [`python`]: Python's `str`/`repr`, `json.dumps`, `==`, truthiness and numpy's sort, where parity needs them.
//! - [`options`]: option structs read from JSON, with errors that name the field.
//! - [`rankers`]: recentness, lost-in-the-middle, diversity, rank fusion, adaptive weight.
//! - [`stable_sort`]: one stable sort for the sorts off the hot paths, whatever they sort (wasm size).
//! - `typescript` (tests only): renders pkg/rust_types.ts, the TypeScript declarations of the option types.

pub mod byte_order_mark;
pub mod document;
pub mod error;
#[cfg(feature = "cpu")]
pub mod inference;
pub mod eval;
pub mod metrics;
pub mod options;
pub mod python;
pub mod rankers;
pub mod stable_sort;
#[cfg(all(test, feature = "cpu"))]
mod typescript;

pub use document::Document;
pub use error::{Error, ErrorCode, Result};

