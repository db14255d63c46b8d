//! farm-haystack v1.26.4's `test/nodes/test_diversity_ranker.py`, one Rust test per Python test function, then the
//! values farm-haystack itself gave around them (`tests/fixtures/haystack/rankers.json`, "diversity").
//!
//! Every test there embeds with the real all-MiniLM-L6-v2 through sentence-transformers (PyTorch). rerankit's
//! DiversityRanker takes the embeddings instead, so the tests whose assertions do not depend on the embeddings
//! (how many documents, which shape, which errors) are translated with fixed embeddings and run for both
//! similarities as Haystack's `parametrize` does; the orders the model decides are listed as not applicable in
//! docs/parity.md §9. Haystack's `predict` / `predict_batch` are rerankit's `run` on one list or a list of lists,
//! its `top_k` rerankit's `topK` option (a per-call 0 falls back to the init value in Haystack; rerankit has only
//! the option).

use super::haystack_fixture::{rankers_fixture, top_k};
use rerankit::rankers::{Batch, DiversityRanker, DiversityStrategy, QueryBatch, Similarity};
use rerankit::{Document, ErrorCode, Result};
use serde_json::Value;

const SIMILARITIES: [Similarity; 2] = [Similarity::DotProduct, Similarity::Cosine];
const QUERY: [f32; 3] = [0.6, 0.8, 0.0];

fn ranker(similarity: Similarity, top_k: Option<i64>) -> DiversityRanker {
    DiversityRanker::new(similarity, DiversityStrategy::Greedy, top_k).unwrap()
}

/// Documents with these contents and distinct, fixed embeddings (what the model would have given them).
fn documents(contents: &[&str]) -> Vec<Document> {
    contents
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut d = Document::new(*c);
            let angle = i as f64 * 0.7;
            d.embedding = Some(vec![angle.cos(), angle.sin(), 0.1 * i as f64]);
            d
        })
        .collect()
}

fn predict(ranker: &DiversityRanker, documents: Vec<Document>) -> Result<Vec<Document>> {
    match ranker.run(QueryBatch::One(QUERY.to_vec()), Batch::One(documents))?.documents {
        Batch::One(list) => Ok(list),
        Batch::Many(_) => panic!("one list in, one list out"),
    }
}

fn predict_batch(ranker: &DiversityRanker, queries: usize, documents: Vec<Vec<Document>>) -> Result<Vec<Vec<Document>>> {
    match ranker.run(QueryBatch::Many(vec![QUERY.to_vec(); queries]), Batch::Many(documents))?.documents {
        Batch::Many(lists) => Ok(lists),
        Batch::One(_) => panic!("lists in, lists out"),
    }
}

fn two_lists() -> Vec<Vec<Document>> {
    vec![documents(&["doc1", "doc2"]), documents(&["doc3", "doc4"])]
}

#[test]
fn test_predict_returns_list_of_documents() {
    for similarity in SIMILARITIES {
        let result = predict(&ranker(similarity, None), documents(&["doc1", "doc2"])).unwrap();
        assert_eq!(result.len(), 2);
    }
}

#[test]
fn test_predict_returns_correct_number_of_documents() {
    for similarity in SIMILARITIES {
        assert_eq!(predict(&ranker(similarity, Some(1)), documents(&["doc1", "doc2"])).unwrap().len(), 1);
    }
}

#[test]
fn test_predict_batch_returns_list_of_lists_of_documents() {
    for similarity in SIMILARITIES {
        let result = predict_batch(&ranker(similarity, None), 2, two_lists()).unwrap();
        assert_eq!(result.iter().map(Vec::len).collect::<Vec<_>>(), [2, 2]);
    }
}

#[test]
fn test_predict_batch_returns_correct_number_of_documents() {
    for similarity in SIMILARITIES {
        let result = predict_batch(&ranker(similarity, Some(1)), 2, two_lists()).unwrap();
        assert_eq!(result.len(), 2);
        assert_eq!(result[0].len(), 1);
        assert_eq!(result[1].len(), 1);
    }
}

#[test]
fn test_predict_single_document_corner_case() {
    for similarity in SIMILARITIES {
        assert_eq!(predict(&ranker(similarity, None), documents(&["doc1"])).unwrap().len(), 1);
    }
}

#[test]
fn test_predict_raises_value_error_if_query_is_empty() {
    // The query's text is embedded outside the Rust ranker; what reaches it is the embedding, and an empty one is
    // refused as Haystack refuses the empty query.
    for similarity in SIMILARITIES {
        let err = ranker(similarity, None).run(QueryBatch::One(vec![]), Batch::One(documents(&["doc1", "doc2"]))).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument);
        assert!(err.message.starts_with("queryEmbedding: is empty"), "{}", err.message);
    }
}

#[test]
fn test_predict_raises_value_error_if_documents_is_empty() {
    for similarity in SIMILARITIES {
        let err = predict(&ranker(similarity, None), vec![]).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument);
        assert_eq!(err.message, "documents: is empty: DiversityRanker has no documents to choose from");
    }
}

#[test]
fn test_predict_batch_raises_value_error_if_queries_is_empty() {
    for similarity in SIMILARITIES {
        let err = predict_batch(&ranker(similarity, None), 0, two_lists()).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument);
        assert!(err.message.starts_with("queryEmbedding: is empty"), "{}", err.message);
    }
}

#[test]
fn test_predict_batch_raises_value_error_if_documents_is_empty() {
    for similarity in SIMILARITIES {
        let err = predict_batch(&ranker(similarity, None), 2, vec![]).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument);
        assert!(err.message.starts_with("documents: is empty"), "{}", err.message);
    }
}

#[test]
fn test_diversity_ranker_with_top_k() {
    assert_eq!(predict(&ranker(Similarity::Cosine, Some(1)), documents(&["doc1", "doc2", "doc3"])).unwrap().len(), 1);
}

#[test]
fn test_diversity_ranker_with_top_k_edge() {
    let docs = || documents(&["doc1", "doc2", "doc3"]);
    assert_eq!(predict(&ranker(Similarity::Cosine, Some(5)), docs()).unwrap().len(), 3);
    // negative top_k should return empty list
    assert_eq!(predict(&ranker(Similarity::Cosine, Some(-5)), docs()).unwrap().len(), 0);
    assert_eq!(predict(&ranker(Similarity::Cosine, None), docs()).unwrap().len(), 3);
}

// --- values farm-haystack 1.26.4 gave (rankers.json, "diversity"; its order replaced by the input order, so only
// `predict`'s own `[:top_k]` and input checks acted) ---

fn haystack() -> &'static Value {
    &rankers_fixture()["diversity"]
}

fn ids(documents: &[Document]) -> Vec<&str> {
    documents.iter().map(|d| d.text().unwrap()).collect()
}

#[test]
fn haystack_top_k_of_every_sign() {
    let docs = || documents(&["doc1", "doc2", "doc3"]);
    for case in haystack()["top_k"].as_array().unwrap() {
        let k = top_k(&case["top_k"]);
        let want = case["init"]["result"].as_array().unwrap().len();
        for similarity in SIMILARITIES {
            let all = predict(&ranker(similarity, None), docs()).unwrap();
            let cut = predict(&ranker(similarity, k), docs()).unwrap();
            assert_eq!(cut.len(), want, "top_k {k:?}");
            assert_eq!(ids(&cut), ids(&all[..want]), "top_k {k:?}: a prefix of the whole diversity order");
        }
    }
}

#[test]
fn haystack_batch_shapes_and_errors() {
    let cases = &haystack()["cases"];
    let is_error = |name: &str| cases[name].get("error").is_some();
    let r = ranker(Similarity::Cosine, None);
    assert!(is_error("predict_empty_documents") && predict(&r, vec![]).is_err());
    assert_eq!(predict(&r, documents(&["doc1"])).unwrap().len(), cases["predict_single_document"]["result"].as_array().unwrap().len());
    assert!(is_error("predict_batch_empty_queries") && predict_batch(&r, 0, two_lists()).is_err());
    assert!(is_error("predict_batch_empty_documents") && predict_batch(&r, 2, vec![]).is_err());
    assert!(is_error("predict_batch_empty_inner_list"));
    let err = predict_batch(&r, 1, vec![documents(&["doc1", "doc2"]), vec![]]).unwrap_err();
    assert!(err.message.starts_with("documents[1]: is empty"), "{}", err.message);
    assert!(is_error("predict_batch_three_queries_two_lists") && predict_batch(&r, 3, two_lists()).is_err());

    assert!(is_error("predict_batch_two_queries_one_list"));
    let err = r.run(QueryBatch::Many(vec![QUERY.to_vec(); 2]), Batch::One(documents(&["doc1", "doc2"]))).unwrap_err();
    assert!(err.message.starts_with("queryEmbedding: 2 queries for a single list"), "{}", err.message);
    // a list of one query: one list back, or every list ranked with it
    assert!(cases["predict_batch_one_query_one_list"]["result"][0].is_string());
    let one = r.run(QueryBatch::Many(vec![QUERY.to_vec()]), Batch::One(documents(&["doc1", "doc2"]))).unwrap().documents;
    assert!(matches!(one, Batch::One(ref l) if l.len() == 2));
    let lists = predict_batch(&r, 1, two_lists()).unwrap();
    assert_eq!(lists.iter().map(Vec::len).collect::<Vec<_>>(), [2, 2]);
    let want: Vec<usize> = cases["predict_batch_two_queries_two_lists_top_k_1"]["result"].as_array().unwrap().iter().map(|l| l.as_array().unwrap().len()).collect();
    let got: Vec<usize> = predict_batch(&ranker(Similarity::Cosine, Some(1)), 2, two_lists()).unwrap().iter().map(Vec::len).collect();
    assert_eq!(got, want);
}
