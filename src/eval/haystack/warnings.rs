//! The warnings Haystack 1.26's `calculate_metrics` and `wrong_examples` log (`haystack/schema.py`), verbatim.
//! rerankit's core logs nothing: these functions return the warnings beside their result, and the TypeScript
//! wrapper hands them to the caller's `onWarning`. Haystack logs each once per node it evaluates, so a pipeline of
//! two nodes gets two of the same; so does rerankit's caller.

/// A result and the warnings Haystack would have logged while computing it, in its order.
#[derive(Debug, Clone, PartialEq)]
pub struct Warned<T> {
    pub value: T,
    pub warnings: Vec<String>,
}

/// `_filter_eval_mode` on a frame without an `eval_mode` column (a CSV saved by an older Haystack, or rows a
/// caller made): every row is scored, whatever `evalMode` asks.
pub const NO_EVAL_MODE_COLUMN: &str = "eval dataframe has no eval_mode column. eval_mode param will be ignored.";

/// `_get_document_relevance_criterion` when `answer_scope` is not `any` but `document_scope` does not involve
/// answers: documents are then judged without the answer scope, answers with it.
pub const NON_ANSWER_DOCUMENT_SCOPE: &str = "You specified a non-answer document_scope together with a non-default answer_scope. \
This may result in inconsistencies between answer and document metrics. \
To enforce the same definition of correctness for both, document_scope must be one of 'answer', 'document_id_or_answer'.";

// Haystack's two other warnings there ("You specified an answer_metric=… / a document_metric=… not available in
// calculated metrics") cannot be reached: `sort_values(by=[metric])` raises KeyError on such a metric first.
