//! Condorcet fusion (Montague & Aslam, CIKM 2002) and its weighted form, as ranx 0.3.21 computes them.
//!
//! The candidates C of a query (every document any run retrieved) are sorted with a pairwise vote: with
//! `pos_r(d)` d's 0-based position in run r (∞ when r missed d), x goes before y when
//! `votes(x, y) ≥ votes(y, x)`, where `votes(x, y) = Σ_r w_r · [pos_r(x) < pos_r(y)]` and
//! `votes(y, x) = Σ_r w_r − votes(x, y)` counted as ranx does (a run that missed both votes for y); w_r = 1
//! unweighted. The document sorted to position j scores `|C| − j`.
//!
//! The vote is no ordering when runs disagree evenly or prefer in a cycle, so the result depends on the sort
//! algorithm and the candidates' starting order. ranx starts from a Python set (its order changes with the hash
//! seed) and sorts with CPython's `sorted`; rerankit starts from the candidates by doc id ascending and runs
//! CPython's algorithm for fewer than 64 items (its run detection, then binary insertion sort), which is
//! `sorted` exactly for up to 63 candidates. Beyond that CPython merges runs, and where the vote is no ordering
//! rerankit's result may differ from ranx's (ranx's own differs between processes).

/// The Condorcet scores of documents `0..positions.len()`: `positions[d][r]` is d's position in run r, `None`
/// where r missed d; `order` the candidates' starting order (doc id ascending); `weights` one per run, `None`
/// for plain Condorcet.
pub fn condorcet_scores(positions: &[Vec<Option<usize>>], order: Vec<usize>, weights: Option<&[f64]>) -> Vec<f64> {
    let before = |x: usize, y: usize| -> bool {
        let wins = |r: usize| positions[x][r].unwrap_or(usize::MAX) < positions[y][r].unwrap_or(usize::MAX);
        let runs = positions[x].len();
        match weights {
            None => {
                let x_votes = (0..runs).filter(|&r| wins(r)).count();
                x_votes >= runs - x_votes
            }
            Some(w) => {
                let (mut x_votes, mut y_votes) = (0.0, 0.0);
                for r in 0..runs {
                    if wins(r) {
                        x_votes += w[r];
                    } else {
                        y_votes += w[r];
                    }
                }
                x_votes >= y_votes
            }
        }
    };
    let sorted = cpython_small_sort(order, before);
    let mut scores = vec![0.0; positions.len()];
    let count = sorted.len();
    for (j, d) in sorted.into_iter().enumerate() {
        scores[d] = (count - j) as f64;
    }
    scores
}

/// CPython 3.11's `list.sort` for fewer than 64 items (`count_run`, then `binarysort`), with `lt` as `<`; used
/// for any length.
fn cpython_small_sort(mut a: Vec<usize>, lt: impl Fn(usize, usize) -> bool) -> Vec<usize> {
    let n = a.len();
    if n < 2 {
        return a;
    }
    // count_run: the longest prefix that is non-descending, or strictly descending (then reversed)
    let mut run = 2;
    if lt(a[1], a[0]) {
        while run < n && lt(a[run], a[run - 1]) {
            run += 1;
        }
        a[..run].reverse();
    } else {
        while run < n && !lt(a[run], a[run - 1]) {
            run += 1;
        }
    }
    // binarysort of the rest into the sorted prefix
    for start in run..n {
        let pivot = a[start];
        let (mut l, mut r) = (0, start);
        while l < r {
            let p = l + ((r - l) >> 1);
            if lt(pivot, a[p]) {
                r = p;
            } else {
                l = p + 1;
            }
        }
        a.copy_within(l..start, l + 1);
        a[l] = pivot;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strict_majority_is_a_ranking() {
        // three runs over d0, d1, d2: d2 > d1 > d0 by majority
        let positions = vec![vec![Some(2), Some(1), None], vec![Some(1), Some(0), Some(1)], vec![Some(0), None, Some(0)]];
        assert_eq!(condorcet_scores(&positions, vec![0, 1, 2], None), [1.0, 2.0, 3.0]);
        assert_eq!(condorcet_scores(&positions, vec![0, 1, 2], Some(&[1.0, 1.0, 1.0])), [1.0, 2.0, 3.0]);
    }

    #[test]
    fn small_sort_is_cpython_sort_for_a_total_order() {
        let v = vec![5, 3, 9, 1, 4, 4, 8, 0];
        let mut want = v.clone();
        want.sort();
        assert_eq!(cpython_small_sort(v, |x, y| x < y), want);
        assert_eq!(cpython_small_sort(vec![3, 2, 1], |x, y| x < y), [1, 2, 3]);
    }
}
