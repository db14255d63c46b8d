//! tract's f32 kernel entry point around [`f32_tile`](crate::inference::f32_tile)'s 4 × 8 micro-kernel, with the
//! fused epilogue ops in SIMD (see the module doc above).
//!
//! Packed operands (tract's `PackedFormat`, k-major): A panel `a[k·4 + r]`, B panel `b[k·8 + c]`.
use std::arch::wasm32::*;

use tract_linalg::mmm::FusedKerSpec;

use super::fused_op;
use crate::inference::f32_tile::{MR, NR};

/// The tile as 8 vectors: row r is `t[2r]` (columns 0–3) and `t[2r + 1]` (columns 4–7), the layout of `[[f32; 8]; 4]`.
type Tile = [v128; 2 * MR];

/// Columns 0–3 of four row vectors: `[v0[j], v1[j], v2[j], v3[j]]` for j = 0..4.
#[inline(always)]
fn transpose4(v0: v128, v1: v128, v2: v128, v3: v128) -> [v128; 4] {
    let t0 = i32x4_shuffle::<0, 4, 1, 5>(v0, v1);
    let t1 = i32x4_shuffle::<2, 6, 3, 7>(v0, v1);
    let t2 = i32x4_shuffle::<0, 4, 1, 5>(v2, v3);
    let t3 = i32x4_shuffle::<2, 6, 3, 7>(v2, v3);
    [
        i32x4_shuffle::<0, 1, 4, 5>(t0, t2),
        i32x4_shuffle::<2, 3, 6, 7>(t0, t2),
        i32x4_shuffle::<0, 1, 4, 5>(t1, t3),
        i32x4_shuffle::<2, 3, 6, 7>(t1, t3),
    ]
}

/// The fused ops tract emits around a product, in SIMD; `false` for one left to the scalar [`fused_op`].
/// Same semantics as the scalar path: `Min`/`Max` are `pmin`/`pmax` (`m < x ? m : x`), `Sub` is `m - x`.
#[inline(always)]
unsafe fn simd_op(t: &mut Tile, op: &FusedKerSpec<f32>) -> bool {
    macro_rules! scalar {
        ($m:expr, |$x:ident, $s:ident| $e:expr) => {{
            let $s = f32x4_splat($m);
            for $x in t.iter_mut() {
                *$x = { let $x = *$x; $e };
            }
        }};
    }
    macro_rules! per_row {
        ($p:expr, |$x:ident, $s:ident| $e:expr) => {{
            for r in 0..MR {
                let $s = f32x4_splat(*$p.add(r));
                for $x in &mut t[2 * r..2 * r + 2] {
                    *$x = { let $x = *$x; $e };
                }
            }
        }};
    }
    macro_rules! per_col {
        ($p:expr, |$x:ident, $s:ident| $e:expr) => {{
            let cols = [v128_load($p as *const v128), v128_load($p.add(4) as *const v128)];
            for (i, $x) in t.iter_mut().enumerate() {
                let $s = cols[i % 2];
                *$x = { let $x = *$x; $e };
            }
        }};
    }
    unsafe {
        match *op {
            FusedKerSpec::Clear => *t = [f32x4_splat(0.0); 2 * MR],
            FusedKerSpec::ScalarAdd(m) => scalar!(m, |x, s| f32x4_add(s, x)),
            FusedKerSpec::ScalarMul(m) => scalar!(m, |x, s| f32x4_mul(s, x)),
            FusedKerSpec::ScalarSub(m) => scalar!(m, |x, s| f32x4_sub(s, x)),
            FusedKerSpec::ScalarSubF(m) => scalar!(m, |x, s| f32x4_sub(x, s)),
            FusedKerSpec::ScalarMin(m) => scalar!(m, |x, s| f32x4_pmin(x, s)),
            FusedKerSpec::ScalarMax(m) => scalar!(m, |x, s| f32x4_pmax(x, s)),
            FusedKerSpec::PerRowAdd(p) => per_row!(p, |x, s| f32x4_add(s, x)),
            FusedKerSpec::PerRowMul(p) => per_row!(p, |x, s| f32x4_mul(s, x)),
            FusedKerSpec::PerRowSub(p) => per_row!(p, |x, s| f32x4_sub(s, x)),
            FusedKerSpec::PerRowSubF(p) => per_row!(p, |x, s| f32x4_sub(x, s)),
            FusedKerSpec::PerRowMin(p) => per_row!(p, |x, s| f32x4_pmin(x, s)),
            FusedKerSpec::PerRowMax(p) => per_row!(p, |x, s| f32x4_pmax(x, s)),
            FusedKerSpec::PerColAdd(p) => per_col!(p, |x, s| f32x4_add(s, x)),
            FusedKerSpec::PerColMul(p) => per_col!(p, |x, s| f32x4_mul(s, x)),
            FusedKerSpec::PerColSub(p) => per_col!(p, |x, s| f32x4_sub(s, x)),
            FusedKerSpec::PerColSubF(p) => per_col!(p, |x, s| f32x4_sub(x, s)),
            FusedKerSpec::PerColMin(p) => per_col!(p, |x, s| f32x4_pmin(x, s)),
            FusedKerSpec::PerColMax(p) => per_col!(p, |x, s| f32x4_pmax(x, s)),
            // Row-contiguous (C's columns adjacent): two vectors per row.
            FusedKerSpec::Store(s) if s.item_size == 4 && s.col_byte_stride == 4 => {
                for r in 0..MR {
                    let row = s.ptr.offset(s.row_byte_stride * r as isize) as *mut v128;
                    v128_store(row, t[2 * r]);
                    v128_store(row.add(1), t[2 * r + 1]);
                }
            }
            // Column-contiguous (C's rows adjacent, e.g. tract's scratch tile): transposed, one vector per column.
            FusedKerSpec::Store(s) if s.item_size == 4 && s.row_byte_stride == 4 => {
                for h in 0..2 {
                    let cols = transpose4(t[h], t[2 + h], t[4 + h], t[6 + h]);
                    for (j, c) in cols.into_iter().enumerate() {
                        v128_store(s.ptr.offset(s.col_byte_stride * (4 * h + j) as isize) as *mut v128, c);
                    }
                }
            }
            FusedKerSpec::AddUnicast(s) if s.item_size == 4 && s.col_byte_stride == 4 => {
                for r in 0..MR {
                    let row = s.ptr.offset(s.row_byte_stride * r as isize) as *const v128;
                    t[2 * r] = f32x4_add(t[2 * r], v128_load(row));
                    t[2 * r + 1] = f32x4_add(t[2 * r + 1], v128_load(row.add(1)));
                }
            }
            FusedKerSpec::AddUnicast(s) if s.item_size == 4 && s.row_byte_stride == 4 => {
                for h in 0..2 {
                    let c = |j: usize| v128_load(s.ptr.offset(s.col_byte_stride * (4 * h + j) as isize) as *const v128);
                    // transposing the 4 column vectors gives the 4 row halves
                    let rows = transpose4(c(0), c(1), c(2), c(3));
                    for (r, v) in rows.into_iter().enumerate() {
                        t[2 * r + h] = f32x4_add(t[2 * r + h], v);
                    }
                }
            }
            _ => return false,
        }
    }
    true
}

/// tract's kernel entry point: runs the fused op list until `Done`. 0 on success, 1 for an op it cannot run.
pub(super) unsafe fn kernel(ops: &[FusedKerSpec<f32>]) -> isize {
    let mut t: Tile = [f32x4_splat(0.0); 2 * MR];
    unsafe {
        let mut p = ops.as_ptr();
        loop {
            match *p {
                FusedKerSpec::Done => return 0,
                // tract's f32 layouts only: packing 0 is f32 × f32 in PackedFormat.
                FusedKerSpec::AddMatMul { k, pa, pb, packing: 0 } => {
                    // the tile's 8 vectors are the rows of `[[f32; 8]; 4]`
                    crate::inference::f32_tile::add_mat_mul(&mut *(t.as_mut_ptr() as *mut [[f32; NR]; MR]), k, pa as *const f32, pb as *const f32)
                }
                FusedKerSpec::AddMatMul { .. } => return 1,
                ref op => {
                    if !simd_op(&mut t, op) && !fused_op(&mut *(t.as_mut_ptr() as *mut [[f32; NR]; MR]), op) {
                        return 1;
                    }
                }
            }
            p = p.add(1);
        }
    }
}
