//! Adaptive reranker weight against seed 002 and docs/parity.md §6.

use rerankit::rankers::adaptive_weight::{combine_with_adaptive_weight, ranks_by_score};
use rerankit::rankers::{adaptive_weight, combine_scores, PositionError};
use rerankit::ErrorCode;

const RETRIEVED: [f64; 10] = [
    0.9782995053726794,
    0.9504939500760989,
    0.8765814146070106,
    0.8623934128019434,
    0.842523354483268,
    0.7736853461402741,
    0.7713904667955406,
    0.6740331628686816,
    0.6378117863548827,
    0.5634670917387724,
];

const RERANKED: [f64; 10] = [
    0.8958727100108653,
    0.9704265468563152,
    0.8037856351531634,
    0.4605732745735953,
    0.9991750843646917,
    0.7299899568668072,
    0.6836966943663378,
    0.6294383998509153,
    0.5605524792499585,
    0.41810846856511075,
];

/// The blog's `(s + r) / 2` list.
const AVERAGES: [f64; 10] = [
    0.9370861076917724,
    0.960460248466207,
    0.840183524880087,
    0.6614833436877694,
    0.9208492194239799,
    0.7518376515035406,
    0.7275435805809392,
    0.6517357813597985,
    0.5991821328024206,
    0.4907877801519416,
];

#[test]
fn golden_rmse() {
    let w = adaptive_weight(&RETRIEVED, &RERANKED, PositionError::Rmse, 0.0).unwrap();
    assert!((w.error - 2.23606797749979).abs() < 1e-12, "{}", w.error);
    assert_eq!(w.weight, w.error);
}

#[test]
fn golden_mae() {
    let w = adaptive_weight(&RETRIEVED, &RERANKED, PositionError::Mae, 0.0).unwrap();
    assert!((w.error - 1.6).abs() < 1e-12, "{}", w.error);
}

#[test]
fn min_weight_floors_the_weight() {
    let w = adaptive_weight(&RETRIEVED, &RERANKED, PositionError::Mae, 2.0).unwrap();
    assert_eq!(w.weight, 2.0);
    assert!((w.error - 1.6).abs() < 1e-12);
    let w = adaptive_weight(&RETRIEVED, &RERANKED, PositionError::Mae, 1.0).unwrap();
    assert!((w.weight - 1.6).abs() < 1e-12);
}

#[test]
fn unchanged_order_gives_zero_error() {
    let w = adaptive_weight(&RETRIEVED, &RETRIEVED, PositionError::Rmse, 0.5).unwrap();
    assert_eq!(w.error, 0.0);
    assert_eq!(w.weight, 0.5);
}

#[test]
fn ranks_are_descending_and_stable() {
    assert_eq!(ranks_by_score(&[0.1, 0.9, 0.5, 0.9]), [3, 0, 2, 1]);
}

#[test]
fn golden_combined_average() {
    let got = combine_scores(&RETRIEVED, &RERANKED, 1.0, 1.0).unwrap();
    for (g, w) in got.iter().zip(AVERAGES) {
        assert_eq!(*g, w, "bit-exact with Python's (s + r) / 2");
    }
}

#[test]
fn combined_with_blog_weights() {
    let got = combine_scores(&RETRIEVED, &RERANKED, 1.2, 1.5).unwrap();
    assert_eq!(got[0], (RETRIEVED[0] * 1.2 + RERANKED[0] * 1.5) / 2.0);
    assert_eq!(got[0], 1.2588842357317565, "Python: (s * 1.2 + r * 1.5) / 2");
}

#[test]
fn adaptive_combination_returns_weight_with_scores() {
    let c = combine_with_adaptive_weight(&RETRIEVED, &RERANKED, PositionError::Rmse, 0.0, 1.0).unwrap();
    assert!((c.weight - 2.23606797749979).abs() < 1e-12);
    assert_eq!(c.scores.len(), 10);
    assert_eq!(c.scores[4], (RETRIEVED[4] + RERANKED[4] * c.weight) / 2.0);
}

#[test]
fn bad_input() {
    let err = adaptive_weight(&[1.0, 2.0], &[1.0], PositionError::Rmse, 0.0).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.starts_with("afterScores:"), "{}", err.message);
    let err = adaptive_weight(&[1.0, f64::NAN], &[1.0, 2.0], PositionError::Rmse, 0.0).unwrap_err();
    assert!(err.message.starts_with("beforeScores[1]:"), "{}", err.message);
    let err = adaptive_weight(&[1.0], &[1.0], PositionError::Rmse, f64::NAN).unwrap_err();
    assert!(err.message.starts_with("minWeight:"), "{}", err.message);
    let err = combine_scores(&[1.0], &[f64::INFINITY], 1.0, 1.0).unwrap_err();
    assert!(err.message.starts_with("rerankerScores[0]:"), "{}", err.message);
    assert!(PositionError::parse("error", "mse").unwrap_err().message.starts_with("error:"));
}

#[test]
fn empty_lists() {
    let w = adaptive_weight(&[], &[], PositionError::Rmse, 0.25).unwrap();
    assert_eq!((w.error, w.weight), (0.0, 0.25));
    assert!(combine_scores(&[], &[], 1.0, 1.0).unwrap().is_empty());
}
