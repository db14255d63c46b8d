//! Haystack's fuzzy context matching (`haystack.utils.context_matching.calculate_context_similarity`).
//!
//! Both texts are normalised (`re.sub(r"\s+", " ", s).lower().strip()`); when either is shorter than
//! `min_length` characters the score is 0. Otherwise the score is rapidfuzz's `partial_ratio_alignment` of the
//! shorter against the longer text (0–100): the best normalised Indel similarity between the shorter text and
//! any window of the longer one of the same length (and the prefix/suffix windows cut by the longer text's
//! ends). With `boost_split_overlaps`, a score in [40, 65) whose best window touches an end of the longer text
//! is averaged with the score of the shorter text cut in half on that side ([AB] vs [BC] scores like B vs B).
//!
//! Why this similarity: it is the one Haystack 1.x uses for `context_match`, `gold_contexts_similarity` and the
//! `*_context_scope` answer metrics, so reproducing it is what makes those columns equal Haystack's. The
//! window search below follows rapidfuzz 3.x's `partial_ratio_impl` step by step (same windows, same order,
//! same strict improvements), because which window wins a tie decides the split-overlap boost; the Indel
//! distance itself comes from the `rapidfuzz` crate (the Rust port by rapidfuzz's author). Characters are
//! Unicode scalar values, as Python's `str` indexes them.

use rapidfuzz::distance::indel;
use std::collections::HashSet;

/// `calculate_context_similarity(context, candidate, min_length, boost_split_overlaps)`.
pub fn calculate_context_similarity(context: &str, candidate: &str, min_length: usize, boost_split_overlaps: bool) -> f64 {
    let context: Vec<char> = normalize_white_space_and_case(context).chars().collect();
    let candidate: Vec<char> = normalize_white_space_and_case(candidate).chars().collect();
    if candidate.len() < min_length || context.len() < min_length {
        return 0.0;
    }
    let (shorter, longer) = if context.len() < candidate.len() { (&context, &candidate) } else { (&candidate, &context) };
    let alignment = partial_ratio_alignment(shorter, longer);
    let mut score = alignment.score;
    if boost_split_overlaps && (40.0..65.0).contains(&score) {
        let cut_shorter_left = alignment.dest_start == 0;
        let cut_shorter_right = alignment.dest_end == longer.len();
        let cut_len = shorter.len() / 2;
        if cut_shorter_left {
            let cut_score = partial_ratio_alignment(&shorter[cut_len..], longer).score;
            if cut_score > score {
                score = (score + cut_score) / 2.0;
            }
        }
        if cut_shorter_right {
            // Python's shorter[:-cut_len] is empty when cut_len == 0
            let end = if cut_len == 0 { 0 } else { shorter.len() - cut_len };
            let cut_score = partial_ratio_alignment(&shorter[..end], longer).score;
            if cut_score > score {
                score = (score + cut_score) / 2.0;
            }
        }
    }
    score
}

/// `re.sub(r"\s+", " ", s).lower().strip()` (Python's `\s` and `strip()` whitespace).
pub fn normalize_white_space_and_case(s: &str) -> String {
    let is_space = |c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c);
    let mut collapsed = String::with_capacity(s.len());
    let mut in_space = false;
    for c in s.chars() {
        if is_space(c) {
            if !in_space {
                collapsed.push(' ');
            }
            in_space = true;
        } else {
            collapsed.push(c);
            in_space = false;
        }
    }
    collapsed.to_lowercase().trim_matches(is_space).to_string()
}

/// rapidfuzz's `ScoreAlignment`: the score and where the best window lies in each text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreAlignment {
    pub score: f64,
    pub src_start: usize,
    pub src_end: usize,
    pub dest_start: usize,
    pub dest_end: usize,
}

/// `rapidfuzz.fuzz.partial_ratio_alignment(s1, s2)` with no score cutoff.
pub fn partial_ratio_alignment(s1: &[char], s2: &[char]) -> ScoreAlignment {
    let (len1, len2) = (s1.len(), s2.len());
    if len1 > len2 {
        let r = partial_ratio_alignment(s2, s1);
        return ScoreAlignment { score: r.score, src_start: r.dest_start, src_end: r.dest_end, dest_start: r.src_start, dest_end: r.src_end };
    }
    if len1 == 0 || len2 == 0 {
        return ScoreAlignment { score: if len1 == len2 { 100.0 } else { 0.0 }, src_start: 0, src_end: len1, dest_start: 0, dest_end: len1 };
    }
    // shortcut: a contained shorter text scores 100 whichever window rapidfuzz reports (the window only matters
    // for the split-overlap boost, which needs a score below 65)
    if let Some(pos) = s2.windows(len1).position(|w| w == s1) {
        return ScoreAlignment { score: 100.0, src_start: 0, src_end: len1, dest_start: pos, dest_end: pos + len1 };
    }
    let alignment = partial_ratio_impl(s1, s2, 0.0);
    if alignment.score != 100.0 && len1 == len2 {
        let cutoff = alignment.score.max(0.0);
        let a2 = partial_ratio_impl(s2, s1, cutoff);
        if a2.score > alignment.score {
            return ScoreAlignment { score: a2.score, src_start: a2.dest_start, src_end: a2.dest_end, dest_start: a2.src_start, dest_end: a2.src_end };
        }
    }
    alignment
}

/// `CachedRatio::similarity(s2, cutoff)`: 100 · normalised Indel similarity, 0 below the cutoff.
fn ratio(cmp: &indel::BatchComparator<char>, len1: usize, s2: &[char], score_cutoff: f64) -> f64 {
    let maximum = len1 + s2.len();
    if maximum == 0 {
        return 100.0;
    }
    let dist = cmp.distance(s2.iter().copied());
    let norm_sim = 1.0 - dist as f64 / maximum as f64;
    let sim = if norm_sim >= score_cutoff / 100.0 { norm_sim } else { 0.0 };
    sim * 100.0
}

fn partial_ratio_impl(s1: &[char], s2: &[char], mut score_cutoff: f64) -> ScoreAlignment {
    let (len1, len2) = (s1.len(), s2.len());
    let cmp = indel::BatchComparator::new(s1.iter().copied());
    let charset: HashSet<char> = s1.iter().copied().collect();
    let mut res = ScoreAlignment { score: 0.0, src_start: 0, src_end: len1, dest_start: 0, dest_end: len1 };

    if len2 > len1 {
        let maximum = len1 * 2;
        let norm_cutoff_sim = 1.0 - score_cutoff / 100.0;
        let mut cutoff_dist = (maximum as f64 * norm_cutoff_sim).ceil() as usize;
        let mut best_dist = usize::MAX;
        let mut scores = vec![usize::MAX; len2 - len1];
        let mut windows: Vec<(usize, usize)> = vec![(0, len2 - len1 - 1)];
        let mut new_windows: Vec<(usize, usize)> = Vec::new();
        while !windows.is_empty() {
            for &(first, second) in &windows {
                for pos in [first, second] {
                    if scores[pos] == usize::MAX {
                        scores[pos] = cmp.distance(s2[pos..pos + len1].iter().copied());
                        if scores[pos] < cutoff_dist {
                            cutoff_dist = scores[pos];
                            best_dist = scores[pos];
                            res.dest_start = pos;
                            res.dest_end = pos + len1;
                            if best_dist == 0 {
                                res.score = 100.0;
                                return res;
                            }
                        }
                    }
                }
                let cell_diff = second - first;
                if cell_diff == 1 {
                    continue;
                }
                let known_edits = scores[first].abs_diff(scores[second]);
                let max_score_improvement = (cell_diff.wrapping_sub(known_edits / 2)) / 2 * 2;
                let min_score = scores[first].min(scores[second]) as i128 - max_score_improvement as i128;
                if min_score < cutoff_dist as i128 {
                    let center = cell_diff / 2;
                    new_windows.push((first, first + center));
                    new_windows.push((first + center, second));
                }
            }
            std::mem::swap(&mut windows, &mut new_windows);
            new_windows.clear();
        }
        if best_dist != usize::MAX {
            let score = (1.0 - best_dist as f64 / maximum as f64) * 100.0;
            if score >= score_cutoff {
                score_cutoff = score;
                res.score = score;
            }
        }
    }

    for i in 1..len1 {
        if i > len2 {
            break;
        }
        let sub = &s2[..i];
        if !charset.contains(&sub[i - 1]) {
            continue;
        }
        let ls_ratio = ratio(&cmp, len1, sub, score_cutoff);
        if ls_ratio > res.score {
            score_cutoff = ls_ratio;
            res.score = ls_ratio;
            res.dest_start = 0;
            res.dest_end = i;
            if res.score == 100.0 {
                return res;
            }
        }
    }
    for i in len2 - len1..len2 {
        let sub = &s2[i..];
        if !charset.contains(&sub[0]) {
            continue;
        }
        let ls_ratio = ratio(&cmp, len1, sub, score_cutoff);
        if ls_ratio > res.score {
            score_cutoff = ls_ratio;
            res.score = ls_ratio;
            res.dest_start = i;
            res.dest_end = len2;
            if res.score == 100.0 {
                return res;
            }
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_texts_score_zero_and_containment_scores_100() {
        assert_eq!(calculate_context_similarity("short", "short", 100, true), 0.0);
        let long = "x".repeat(150);
        assert_eq!(calculate_context_similarity(&long, &format!("abc {long} def"), 100, true), 100.0);
    }
}
