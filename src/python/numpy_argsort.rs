//! The order in which Haystack's `wrong_examples` lists tied queries: pandas `sort_values(by=[metric])`.
//!
//! pandas sorts one column with `nargsort(kind="quicksort", na_position="last")`: the non-NaN values are
//! arg-sorted by numpy's `argsort(kind="quicksort")`, which is **not stable**, and the NaN positions follow in
//! their original order. Ties (many queries share recall 0.0 or f1 0.0) therefore come out in the order of
//! numpy's introsort, reproduced here step by step: median-of-three quicksort partitions down to slices of
//! at most 16 elements (`SMALL_QUICKSORT` 15), insertion sort below that, heapsort once the depth limit
//! `2·⌊log2 n⌋` is spent (numpy `npysort/quicksort.cpp` `aquicksort_`, `heapsort.cpp` `aheapsort_`).
//!
//! numpy 1.25+ replaces this with an AVX-512 sorting network on CPUs that have AVX512_SKX, whose tie order
//! differs; Haystack's own output thus depends on the CPU. rerankit follows numpy's portable algorithm (the one
//! every other CPU runs); the fixtures are generated with `NPY_DISABLE_CPU_FEATURES` set to the AVX-512
//! features so that they record that path (scripts/fixtures/haystack).

use std::cmp::Ordering;

const SMALL_QUICKSORT: usize = 15;

/// numpy's float `less`: NaN sorts after every number.
fn less(a: f64, b: f64) -> bool {
    a < b || (b.is_nan() && !a.is_nan())
}

/// `np.argsort(v, kind="quicksort")` with numpy's portable introsort.
pub fn argsort_quicksort(v: &[f64]) -> Vec<usize> {
    let num = v.len();
    let mut t: Vec<usize> = (0..num).collect();
    if num < 2 {
        return t;
    }
    let (mut pl, mut pr) = (0usize, num - 1);
    let mut cdepth: i64 = 2 * (usize::BITS - 1 - num.leading_zeros()) as i64;
    let mut stack: Vec<(usize, usize, i64)> = Vec::new();
    loop {
        if cdepth < 0 {
            heapsort(v, &mut t[pl..=pr]);
        } else {
            while pr - pl > SMALL_QUICKSORT {
                let pm = pl + ((pr - pl) >> 1);
                if less(v[t[pm]], v[t[pl]]) {
                    t.swap(pm, pl);
                }
                if less(v[t[pr]], v[t[pm]]) {
                    t.swap(pr, pm);
                }
                if less(v[t[pm]], v[t[pl]]) {
                    t.swap(pm, pl);
                }
                let vp = v[t[pm]];
                let (mut pi, mut pj) = (pl, pr - 1);
                t.swap(pm, pj);
                loop {
                    pi += 1;
                    while less(v[t[pi]], vp) {
                        pi += 1;
                    }
                    pj -= 1;
                    while less(vp, v[t[pj]]) {
                        pj -= 1;
                    }
                    if pi >= pj {
                        break;
                    }
                    t.swap(pi, pj);
                }
                t.swap(pi, pr - 1);
                // the larger partition waits on the stack
                cdepth -= 1;
                if pi - pl < pr - pi {
                    stack.push((pi + 1, pr, cdepth));
                    pr = pi - 1;
                } else {
                    stack.push((pl, pi - 1, cdepth));
                    pl = pi + 1;
                }
            }
            for pi in pl + 1..=pr {
                let vi = t[pi];
                let vp = v[vi];
                let mut pj = pi;
                while pj > pl && less(vp, v[t[pj - 1]]) {
                    t[pj] = t[pj - 1];
                    pj -= 1;
                }
                t[pj] = vi;
            }
        }
        match stack.pop() {
            Some((l, r, d)) => {
                pl = l;
                pr = r;
                cdepth = d;
            }
            None => break,
        }
    }
    t
}

/// numpy's `aheapsort_` on the index slice `a` (1-based heap arithmetic as in numpy).
fn heapsort(v: &[f64], a: &mut [usize]) {
    let mut n = a.len();
    let mut l = n >> 1;
    while l > 0 {
        let tmp = a[l - 1];
        sift_down(v, a, tmp, l, n);
        l -= 1;
    }
    while n > 1 {
        let tmp = a[n - 1];
        a[n - 1] = a[0];
        n -= 1;
        sift_down(v, a, tmp, 1, n);
    }
}

/// Moves `tmp` down the 1-based heap `a[..n]` from position `i`, as numpy's heapsort loops do.
fn sift_down(v: &[f64], a: &mut [usize], tmp: usize, mut i: usize, n: usize) {
    let mut j = i << 1;
    while j <= n {
        if j < n && less(v[a[j - 1]], v[a[j]]) {
            j += 1;
        }
        if less(v[tmp], v[a[j - 1]]) {
            a[i - 1] = a[j - 1];
            i = j;
            j += j;
        } else {
            break;
        }
    }
    a[i - 1] = tmp;
}

/// pandas `nargsort(values, kind="quicksort", ascending=True, na_position="last")`: positions of the
/// non-NaN values in numpy's quicksort order, then the NaN positions in their original order.
pub fn pandas_sort_order(values: &[f64]) -> Vec<usize> {
    let non_nan: Vec<usize> = (0..values.len()).filter(|&i| !values[i].is_nan()).collect();
    let compact: Vec<f64> = non_nan.iter().map(|&i| values[i]).collect();
    let mut order: Vec<usize> = argsort_quicksort(&compact).into_iter().map(|k| non_nan[k]).collect();
    order.extend((0..values.len()).filter(|&i| values[i].is_nan()));
    order
}

/// Whether `order` sorts `values` ascending (NaN last): a check for callers and tests.
pub fn is_sorted_by(values: &[f64], order: &[usize]) -> bool {
    order.windows(2).all(|w| {
        let (a, b) = (values[w[0]], values[w[1]]);
        match (a.is_nan(), b.is_nan()) {
            (true, false) => false,
            (false, false) => a.partial_cmp(&b) != Some(Ordering::Greater),
            _ => true,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_slices_are_insertion_sorted_hence_stable() {
        let v = [1.0, 0.0, 1.0, 0.0, 0.5];
        assert_eq!(argsort_quicksort(&v), vec![1, 3, 4, 0, 2]);
    }

    #[test]
    fn nan_positions_follow_in_original_order() {
        let v = [f64::NAN, 1.0, f64::NAN, 0.0];
        assert_eq!(pandas_sort_order(&v), vec![3, 1, 0, 2]);
    }

    #[test]
    fn every_order_is_sorted() {
        // a deterministic pseudo-random sweep over lengths that reach the partition and heapsort paths
        let mut x: u64 = 0x9e3779b97f4a7c15;
        for n in 0..300usize {
            let v: Vec<f64> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % 4) as f64
                })
                .collect();
            let o = argsort_quicksort(&v);
            let mut seen = o.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..n).collect::<Vec<_>>());
            assert!(is_sorted_by(&v, &o), "n={n}");
        }
    }
}
