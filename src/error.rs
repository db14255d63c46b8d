//! One error type for the whole crate.
//!
//! Every failure a caller can cause is an [`Error`] with a stable [`ErrorCode`] and a message that names the
//! offending field; across the wasm boundary it becomes a JS `RerankitError` with the same `code`.

use std::fmt;

/// The stable, machine-readable `code` of a `RerankitError`: switch on `err.code`, never on the message.
/// `REMOTE`: a hosted reranker failed (HTTP error, unreachable, malformed answer; docs/hosted_rankers.md).
/// `FREED`: a method of an object whose `free()` was called (a model, a parsed run…): make it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum ErrorCode {
    /// A caller-supplied value has the wrong type, range or shape.
    InvalidArgument,
    /// A model file could not be read, parsed or prepared.
    ModelLoad,
    /// A tokenizer could not be loaded or did not fit the model.
    Tokenizer,
    /// The request is valid but not supported by this build or this model.
    Unsupported,
    /// A text input (qrels, run, CSV, YAML, JSON) is malformed.
    Parse,
    /// A bug in rerankit: please report it.
    Internal,
    // The last three are raised by the JavaScript side only; they are declared here so that every code has one
    // declaration, the one TypeScript's `ErrorCode` is rendered from (src/typescript.rs).
    /// The caller's `AbortSignal` (or a fallback's timeout) stopped the call.
    Aborted,
    /// A hosted ranker's service failed or answered something unexpected (`details.status` has the HTTP status).
    Remote,
    /// The object (or one it was given) was freed with `free()`.
    Freed,
}

impl ErrorCode {
    /// The code as it appears in JS (`err.code`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgument => "INVALID_ARGUMENT",
            ErrorCode::ModelLoad => "MODEL_LOAD",
            ErrorCode::Tokenizer => "TOKENIZER",
            ErrorCode::Unsupported => "UNSUPPORTED",
            ErrorCode::Parse => "PARSE",
            ErrorCode::Internal => "INTERNAL",
            ErrorCode::Aborted => "ABORTED",
            ErrorCode::Remote => "REMOTE",
            ErrorCode::Freed => "FREED",
        }
    }

    /// Every code.
    pub const ALL: [ErrorCode; 9] = [
        Self::InvalidArgument,
        Self::ModelLoad,
        Self::Tokenizer,
        Self::Unsupported,
        Self::Parse,
        Self::Internal,
        Self::Aborted,
        Self::Remote,
        Self::Freed,
    ];

    /// The code named by [`ErrorCode::as_str`]'s text.
    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == code)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The crate's error: a code and a human-readable message naming the field at fault.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
}

/// Shorthand for results carrying [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error { code, message: message.into() }
    }

    /// `field`: what is wrong with it.
    pub fn invalid(field: &str, problem: impl fmt::Display) -> Self {
        Error::new(ErrorCode::InvalidArgument, format!("{field}: {problem}"))
    }

    pub fn model_load(message: impl Into<String>) -> Self {
        Error::new(ErrorCode::ModelLoad, message)
    }

    pub fn tokenizer(message: impl Into<String>) -> Self {
        Error::new(ErrorCode::Tokenizer, message)
    }

    pub fn unsupported(message: impl Into<String>) -> Self {
        Error::new(ErrorCode::Unsupported, message)
    }

    /// A malformed text input; `location` names the input and, where known, the line.
    pub fn parse(location: impl fmt::Display, problem: impl fmt::Display) -> Self {
        Error::new(ErrorCode::Parse, format!("{location}: {problem}"))
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Error::new(ErrorCode::Internal, message)
    }

    /// The same error located inside a list: `pairs[3]: …`.
    pub fn at(self, path: &str) -> Self {
        Error::new(self.code, format!("{path}: {}", self.message))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for Error {}
