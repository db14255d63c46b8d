//! One stable sort for the sorts off the hot paths, whatever they sort.
//!
//! `slice::sort_by` is generic over the element type and the comparator, so every call site instantiates the
//! whole of std's stable sort (driftsort: merges, quicksort, small sorts; 2–4 KB of wasm each), and
//! `sort_unstable` the whole of ipnsort (up to 10 KB with a string comparison inlined). [`stable_sort_by`] sorts
//! the positions `0..n` instead, comparing the elements at two positions through a `&mut dyn FnMut`, then moves
//! the elements into that order: std's sort is instantiated once, for positions, in the whole crate. The
//! algorithm and the comparisons are std's stable sort's, so the order, ties included, is exactly what
//! `v.sort_by(cmp)` gives.
//!
//! The price is an indirect call per comparison, a `Vec<usize>` of positions and a pass that moves the elements:
//! nothing beside a sort made once per call (measure names, a report's rows, a ranking), too much for the sorts
//! made for every query of an evaluation, which keep std's inlined sorts. A call site that sorted with
//! `sort_unstable` comes here only where equal elements are indistinguishable (integers, strings), so that any
//! sort leaves the same slice.

use std::cmp::Ordering;

/// `v.sort_by(cmp)`, through the one shared sort (see the module's comment).
pub fn stable_sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let order = sorted_positions(v.len(), &mut |a, b| cmp(&v[a], &v[b]));
    move_into_order(v, order);
}

/// `v.sort_by_key(key)` (the key is computed for each comparison, as std's is).
pub fn stable_sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    stable_sort_by(v, |a, b| key(a).cmp(&key(b)))
}

/// `v.sort()`.
pub fn stable_sort<T: Ord>(v: &mut [T]) {
    stable_sort_by(v, T::cmp)
}

/// The positions `0..n` in the stable order of `cmp`, which compares the elements at two positions.
// Not inlined: inlined into each caller, it would be one instance of std's sort per caller again.
#[inline(never)]
fn sorted_positions(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Puts the element at `order[i]` at position `i`, for every `i`: each cycle of the permutation is followed from
/// its first position, swapping the element each position wants into it, and marked as done on the way.
fn move_into_order<T>(v: &mut [T], mut order: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..order.len() {
        let mut i = start;
        loop {
            let from = std::mem::replace(&mut order[i], DONE);
            // back at the cycle's start (whose element the last swap brought here), or a cycle already followed
            if from == start || from == DONE {
                break;
            }
            v.swap(i, from);
            i = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order `sort_by` gives, ties included: keys with many repeats, each element told apart by its position.
    #[test]
    fn same_order_as_std_sort_by() {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for n in [0, 1, 2, 3, 7, 20, 21, 64, 100, 1000] {
            for distinct in [1, 3, 50, u32::MAX] {
                let v: Vec<(u32, usize)> = (0..n).map(|i| (next() % distinct, i)).collect();
                let mut expected = v.clone();
                expected.sort_by(|a, b| b.0.cmp(&a.0));
                let mut got = v.clone();
                stable_sort_by(&mut got, |a, b| b.0.cmp(&a.0));
                assert_eq!(got, expected, "n={n} distinct={distinct}");
                let mut by_key = v.clone();
                stable_sort_by_key(&mut by_key, |x| x.0);
                let mut std_by_key = v;
                std_by_key.sort_by_key(|x| x.0);
                assert_eq!(by_key, std_by_key);
            }
        }
        let mut words = vec!["b".to_string(), "a".into(), "é".into(), "".into(), "a".into()];
        stable_sort(&mut words);
        assert_eq!(words, ["", "a", "a", "b", "é"]);
    }
}
