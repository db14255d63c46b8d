//! One stable sort per element type.
//!
//! `slice::sort_by` is generic over its comparator, so every call site's closure instantiates the whole of std's
//! stable sort (driftsort: merges, quicksort, small sorts; about 4 KB of wasm each). Sorting through a
//! `&mut dyn FnMut` instead shares one instance per element type. The algorithm and the comparisons are std's, so
//! the order, ties included, is exactly what `sort_by` gives.

use std::cmp::Ordering;

/// `v.sort_by(cmp)`, with the comparator's type erased (see the module's comment).
pub fn stable_sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    sort_dyn(v, &mut cmp)
}

// Not inlined: inlined into each caller, it would be one instance per caller again.
#[inline(never)]
fn sort_dyn<T>(v: &mut [T], cmp: &mut dyn FnMut(&T, &T) -> Ordering) {
    v.sort_by(|a, b| cmp(a, b))
}
