//! The column order of what `Pipeline.eval` / `eval_batch` return (farm-haystack 1.26
//! `Pipeline._reorder_columns_in_eval_result`): `_build_eval_dataframe` builds the rows field by field, then
//! Haystack moves the columns a reader of the frame looks at first (query, answers, scores) to the front, for
//! every node. A Haystack user only ever sees this order (and `EvaluationResult.save` writes it), so rerankit's
//! tables built from predictions, and those SAS adds columns to, carry it too.

use super::table::{Cell, NodeTable};

/// Haystack's `desired_col_order`, verbatim; columns not listed (`index`, anything a caller added) follow in the
/// order they had.
pub const DISPLAY_ORDER: [&str; 49] = [
    "multilabel_id",
    "query",
    "filters",
    "gold_answers",
    "answer",
    "context",
    "exact_match",
    "f1",
    "sas",
    "exact_match_context_scope",
    "f1_context_scope",
    "sas_context_scope",
    "exact_match_document_id_scope",
    "f1_document_id_scope",
    "sas_document_id_scope",
    "exact_match_document_id_and_context_scope",
    "f1_document_id_and_context_scope",
    "sas_document_id_and_context_scope",
    "gold_contexts",
    "gold_id_match",
    "context_match",
    "answer_match",
    "gold_id_or_answer_match",
    "gold_id_and_answer_match",
    "gold_id_or_context_match",
    "gold_id_and_context_match",
    "gold_id_and_context_and_answer_match",
    "context_and_answer_match",
    "rank",
    "document_id",
    "document_ids",
    "gold_document_ids",
    "custom_document_id",
    "custom_document_ids",
    "gold_custom_document_ids",
    "offsets_in_document",
    "gold_offsets_in_documents",
    "offsets_in_context",
    "gold_offsets_in_contexts",
    "gold_answers_exact_match",
    "gold_answers_f1",
    "gold_answers_sas",
    "gold_documents_id_match",
    "gold_contexts_similarity",
    "gold_answers_match",
    "type",
    "node",
    "eval_mode",
    "prompt",
];

/// `_reorder_columns(df, desired_col_order)`: the listed columns the table has, in the listed order, then the
/// others in their order. Reordering twice changes nothing, so a table can be reordered after each step that adds
/// columns.
pub fn reorder_columns(table: &mut NodeTable) {
    let listed = DISPLAY_ORDER.iter().filter_map(|c| table.col(c));
    let others = (0..table.columns.len()).filter(|&i| !DISPLAY_ORDER.contains(&table.columns[i].as_str()));
    let order: Vec<usize> = listed.chain(others).collect();
    if order.iter().copied().eq(0..table.columns.len()) {
        return;
    }
    table.columns = order.iter().map(|&i| table.columns[i].clone()).collect();
    for row in &mut table.rows {
        // a row shorter than the header (a hand-made table) reads as None past its end, as `get` does
        let mut cells: Vec<Option<Cell>> = std::mem::take(row).into_iter().map(Some).collect();
        *row = order.iter().map(|&i| cells.get_mut(i).and_then(Option::take).unwrap_or(Cell::None)).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_columns_first_then_the_others_in_their_order() {
        let mut t = NodeTable::new(["index", "zeta", "type", "answer", "alpha", "query"].map(String::from).to_vec());
        t.rows.push((0..6).map(Cell::Int).collect());
        reorder_columns(&mut t);
        assert_eq!(t.columns, ["query", "answer", "type", "index", "zeta", "alpha"]);
        assert_eq!(t.rows[0], [5, 3, 2, 0, 1, 4].map(Cell::Int));
        let again = t.clone();
        reorder_columns(&mut t);
        assert_eq!(t, again);
    }

    #[test]
    fn the_list_is_haystacks_without_repeats() {
        let mut seen = std::collections::BTreeSet::new();
        assert!(DISPLAY_ORDER.iter().all(|c| seen.insert(*c)));
    }
}
