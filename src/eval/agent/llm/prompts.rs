//! The prompts rerankit asks the judge: answer correctness (graphrag-eval's placeholders and JSON fields) and
//! rerankit's own prompts for answer relevance and the retrieval context metrics, which graphrag-eval computes
//! with RAGAS instead.

use crate::python::values as py;
use serde_json::Value;

/// rerankit's default answer-correctness prompt (same placeholders and JSON fields as graphrag-eval's).
pub const DEFAULT_CORRECTNESS_PROMPT: &str = "Below are a question, a reference answer and a candidate answer.
1. List the claims each answer makes.
2. Match claims between the answers: matching claims mean the same, with the same subjects, names, places, amounts, IDs, commands and paths.
3. Reply with one JSON object and nothing else.

# Question
{question}

# Reference answer
{reference_answer}

# Candidate answer
{actual_answer}

# JSON keys
* reference_claims_count: number of claims in the reference answer (at least 1)
* actual_claims_count: number of claims in the candidate answer (at least 1)
* matching_claims_count: number of matching claims (at most either count)
* reason: a short explanation of the counts

# Example
{{\"reference_claims_count\": 2, \"actual_claims_count\": 3, \"matching_claims_count\": 2, \"reason\": \"...\"}}
";


pub(super) fn contexts_texts(output: &Value) -> std::result::Result<Vec<String>, String> {
    let text = output.as_str().ok_or("the retrieval output is not a string")?;
    let parsed = py::json_loads(text).map_err(|e| format!("the retrieval output is not JSON: {e}"))?;
    let items = parsed.as_array().ok_or("the retrieval output is not a JSON list")?;
    items
        .iter()
        .map(|c| c.get("text").map(py::str_of).ok_or_else(|| "'text'".to_string()))
        .collect()
}

pub(super) fn retrieval_recall_prompt(question: &str, reference: &str, contexts: &[String]) -> String {
    let mut p = String::from(
        "Split the reference text into its claims and decide, for each claim, whether the retrieved contexts support it.\n\
         Reply with one JSON object and nothing else: {\"attributed\": <claims supported by the contexts>, \"total\": <claims in the reference>, \"reason\": \"...\"}.\n\n",
    );
    p.push_str(&format!("# Question\n{question}\n\n# Reference\n{reference}\n\n# Retrieved contexts\n"));
    for (i, c) in contexts.iter().enumerate() {
        p.push_str(&format!("[{}] {}\n", i + 1, c));
    }
    p
}

pub(super) fn retrieval_precision_prompt(question: &str, reference: &str, contexts: &[String]) -> String {
    let mut p = String::from(
        "For each retrieved context, in order, decide whether it was useful in arriving at the reference text for the question (1) or not (0).\n\
         Reply with one JSON object and nothing else: {\"verdicts\": [<1 or 0 for each context, in order>], \"reason\": \"...\"}.\n\n",
    );
    p.push_str(&format!("# Question\n{question}\n\n# Reference\n{reference}\n\n# Retrieved contexts\n"));
    for (i, c) in contexts.iter().enumerate() {
        p.push_str(&format!("[{}] {}\n", i + 1, c));
    }
    p
}

pub(super) fn relevance_prompt(question: &str, answer: &str) -> String {
    format!(
        "Rate how relevant the answer is to the question: 1 when it addresses the question directly and completely, 0 when it is unrelated or evasive (non-committal answers such as \"I don't know\" score 0).\n\
         Reply with one JSON object and nothing else: {{\"answer_relevance\": <a number from 0 to 1>, \"reason\": \"...\"}}.\n\n# Question\n{question}\n\n# Answer\n{answer}\n"
    )
}

