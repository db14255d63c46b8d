//! DiversityRanker against docs/parity.md §5. The expected orders of the random example come from a plain-Python
//! transcription of Haystack's algorithms (greedy: `argmin(selected_sum / n @ docs)`; MMR: the 2.x loop).

use rerankit::rankers::diversity::diversity_order;
use rerankit::rankers::{Batch, DiversityRanker, DiversityStrategy, QueryBatch, Similarity};
use rerankit::{Document, ErrorCode};

const DOCS: [[f32; 6]; 12] = [
    [-0.352, -0.698, 0.302, -0.855, 0.072, -0.269],
    [-0.884, 0.015, -0.925, -0.133, -0.86, -0.819],
    [-0.151, 0.654, -0.752, -0.554, 0.255, 0.895],
    [0.154, -0.207, 0.953, -0.907, 0.717, -0.421],
    [-0.711, -0.764, -0.383, 0.632, -0.639, 0.163],
    [0.278, -0.255, 0.095, -0.874, -0.881, -0.588],
    [0.361, -0.145, -0.372, 0.171, -0.094, -0.4],
    [0.589, 0.398, -0.512, 0.149, 0.05, 0.75],
    [0.459, -0.424, 0.96, -0.764, -0.164, 0.514],
    [-0.696, -0.022, -0.922, 0.336, 0.529, 0.146],
    [0.751, -0.373, 0.391, 0.189, 0.16, -0.088],
    [0.68, 0.889, -0.052, 0.328, -0.879, 0.403],
];
const QUERY: [f32; 6] = [0.294, 0.986, 0.644, -0.431, -0.228, 0.337];

fn order(similarity: Similarity, strategy: DiversityStrategy, top_k: Option<i64>) -> Vec<usize> {
    let docs: Vec<&[f32]> = DOCS.iter().map(|d| d.as_slice()).collect();
    diversity_order(&QUERY, &docs, similarity, strategy, top_k).unwrap().into_iter().map(|(i, _)| i).collect()
}

fn documents(vectors: &[&[f32]]) -> Vec<Document> {
    vectors
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let mut d = Document::new(format!("doc {i}"));
            d.id = format!("d{i}");
            d.embedding = Some(v.iter().copied().map(f64::from).collect());
            d
        })
        .collect()
}

#[test]
fn greedy_dot_product_matches_haystack() {
    assert_eq!(order(Similarity::DotProduct, DiversityStrategy::Greedy, None), [11, 0, 9, 3, 4, 7, 10, 1, 8, 6, 2, 5]);
}

#[test]
fn greedy_cosine_matches_haystack() {
    assert_eq!(order(Similarity::Cosine, DiversityStrategy::Greedy, None), [11, 0, 9, 10, 1, 3, 7, 4, 8, 2, 6, 5]);
}

#[test]
fn greedy_top_k_is_a_prefix() {
    assert_eq!(order(Similarity::Cosine, DiversityStrategy::Greedy, Some(4)), [11, 0, 9, 10]);
}

#[test]
fn mmr_matches_haystack() {
    let mmr = |lambda| DiversityStrategy::MaximalMarginalRelevance { lambda };
    assert_eq!(order(Similarity::Cosine, mmr(0.5), None), [11, 3, 2, 5, 8, 7, 10, 4, 6, 0, 1, 9]);
    assert_eq!(order(Similarity::DotProduct, mmr(0.7), None), [11, 3, 2, 8, 7, 5, 10, 6, 0, 1, 9, 4]);
    assert_eq!(order(Similarity::DotProduct, mmr(0.7), Some(3)), [11, 3, 2]);
}

#[test]
fn hand_computed_example() {
    // q = x axis. Relevance 0.9, 0.8, 0.1, 0.85: d0 first.
    let vs: [&[f32]; 4] = [&[0.9, 0.1], &[0.8, 0.3], &[0.1, 0.9], &[0.85, 0.12]];
    let q = [1.0f32, 0.0];
    let run = |strategy| -> Vec<usize> {
        diversity_order(&q, &vs, Similarity::DotProduct, strategy, None).unwrap().into_iter().map(|(i, _)| i).collect()
    };
    assert_eq!(run(DiversityStrategy::Greedy), [0, 2, 3, 1]);
    assert_eq!(run(DiversityStrategy::MaximalMarginalRelevance { lambda: 0.5 }), [0, 3, 1, 2]);
    assert_eq!(run(DiversityStrategy::MaximalMarginalRelevance { lambda: 1.0 }), [0, 3, 1, 2]);
    assert_eq!(run(DiversityStrategy::MaximalMarginalRelevance { lambda: 0.0 }), [0, 2, 1, 3]);
}

#[test]
fn score_is_the_query_similarity() {
    let ranker = DiversityRanker::new(Similarity::Cosine, DiversityStrategy::Greedy, None).unwrap();
    let vs: [&[f32]; 3] = [&[3.0, 4.0], &[0.0, 2.0], &[-1.0, 0.0]];
    let out = ranker.run(QueryBatch::One(vec![0.0, 1.0]), Batch::One(documents(&vs))).unwrap();
    let Batch::One(list) = out.documents else { panic!("shape") };
    let got: Vec<_> = list.iter().map(|d| (d.id.as_str(), d.score.unwrap())).collect();
    // d1 is most similar (cosine 1); then d2 (cosine with d1 = 0) before d0 (0.8).
    assert_eq!(got[0], ("d1", 1.0));
    assert_eq!(got[1].0, "d2");
    assert!(got[1].1.abs() < 1e-12);
    assert_eq!(got[2].0, "d0");
    assert!((got[2].1 - 0.8).abs() < 1e-7);
}

#[test]
fn ties_go_to_the_earlier_document() {
    let vs: [&[f32]; 3] = [&[1.0, 0.0], &[1.0, 0.0], &[1.0, 0.0]];
    let picks: Vec<usize> = diversity_order(&[1.0, 0.0], &vs, Similarity::DotProduct, DiversityStrategy::Greedy, None)
        .unwrap()
        .into_iter()
        .map(|(i, _)| i)
        .collect();
    assert_eq!(picks, [0, 1, 2]);
}

#[test]
fn batch_shapes() {
    let ranker = DiversityRanker::new(Similarity::DotProduct, DiversityStrategy::Greedy, Some(1)).unwrap();
    let vs: [&[f32]; 2] = [&[1.0, 0.0], &[0.0, 1.0]];
    // One query, list of lists.
    let out = ranker.run(QueryBatch::One(vec![0.0, 1.0]), Batch::Many(vec![documents(&vs), documents(&vs)])).unwrap();
    let Batch::Many(lists) = out.documents else { panic!("shape") };
    assert_eq!(lists.iter().map(|l| l.iter().map(|d| d.id.as_str()).collect::<Vec<_>>()).collect::<Vec<_>>(), [["d1"], ["d1"]]);
    // A list of one query is one query (Haystack's `predict_batch(queries=[q], …)`).
    let out = ranker.run(QueryBatch::Many(vec![vec![0.0, 1.0]]), Batch::One(documents(&vs))).unwrap();
    assert_eq!(out.documents, ranker.run(QueryBatch::One(vec![0.0, 1.0]), Batch::One(documents(&vs))).unwrap().documents);
    // One query per list.
    let out = ranker
        .run(QueryBatch::Many(vec![vec![1.0, 0.0], vec![0.0, 1.0]]), Batch::Many(vec![documents(&vs), documents(&vs)]))
        .unwrap();
    let Batch::Many(lists) = out.documents else { panic!("shape") };
    assert_eq!(lists[0][0].id, "d0");
    assert_eq!(lists[1][0].id, "d1");
    // Mismatched shapes.
    let two = || QueryBatch::Many(vec![vec![1.0, 0.0], vec![0.0, 1.0]]);
    let err = ranker.run(two(), Batch::One(documents(&vs))).unwrap_err();
    assert!(err.message.starts_with("queryEmbedding: 2 queries for a single list"), "{}", err.message);
    let err = ranker.run(two(), Batch::Many(vec![documents(&vs); 3])).unwrap_err();
    assert!(err.message.contains("2 queries for 3 lists"), "{}", err.message);
}

#[test]
fn bad_input() {
    let ranker = DiversityRanker::new(Similarity::Cosine, DiversityStrategy::Greedy, None).unwrap();
    let vs: [&[f32]; 2] = [&[1.0, 0.0], &[0.0, 0.0]];
    let err = ranker.run(QueryBatch::One(vec![1.0, 0.0]), Batch::One(documents(&vs))).unwrap_err();
    assert!(err.message.starts_with("documents[1].embedding: is a zero vector"), "{}", err.message);

    let vs: [&[f32]; 2] = [&[1.0, 0.0], &[0.0, 1.0, 2.0]];
    let err = ranker.run(QueryBatch::One(vec![1.0, 0.0]), Batch::Many(vec![documents(&vs)])).unwrap_err();
    assert!(err.message.starts_with("documents[0][1].embedding: has 3 dimensions"), "{}", err.message);

    let mut docs = documents(&[&[1.0, 0.0], &[0.0, 1.0]]);
    docs[1].embedding = None;
    let err = ranker.run(QueryBatch::One(vec![1.0, 0.0]), Batch::One(docs)).unwrap_err();
    assert!(err.message.starts_with("documents[1].embedding: document d1 has no embedding"), "{}", err.message);

    let err = ranker.run(QueryBatch::One(vec![]), Batch::One(documents(&[&[1.0]]))).unwrap_err();
    assert!(err.message.starts_with("queryEmbedding:"), "{}", err.message);

    let err = ranker.run(QueryBatch::One(vec![f32::NAN, 0.0]), Batch::One(documents(&[&[1.0, 0.0]]))).unwrap_err();
    assert!(err.message.starts_with("queryEmbedding: value at index 0"), "{}", err.message);

    let err = DiversityRanker::new(Similarity::Cosine, DiversityStrategy::MaximalMarginalRelevance { lambda: 1.5 }, None).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.starts_with("lambda:"), "{}", err.message);
    assert!(Similarity::parse("similarity", "l2").unwrap_err().message.starts_with("similarity:"));
}

#[test]
fn empty_lists_are_an_error() {
    // Haystack's predict / predict_batch: "No documents to choose from"
    let ranker = DiversityRanker::new(Similarity::Cosine, DiversityStrategy::Greedy, None).unwrap();
    let err = ranker.run(QueryBatch::One(vec![1.0]), Batch::One(vec![])).unwrap_err();
    assert_eq!((err.code, err.message.as_str()), (ErrorCode::InvalidArgument, "documents: is empty: DiversityRanker has no documents to choose from"));
    let err = ranker.run(QueryBatch::One(vec![1.0]), Batch::Many(vec![documents(&[&[1.0]]), vec![]])).unwrap_err();
    assert!(err.message.starts_with("documents[1]: is empty"), "{}", err.message);
    let err = diversity_order(&[1.0], &[], Similarity::Cosine, DiversityStrategy::Greedy, None).unwrap_err();
    assert!(err.message.starts_with("documents: is empty"), "{}", err.message);
}
