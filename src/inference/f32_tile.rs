//! The f32 micro-kernel: `C[4×8] += A[4×k]·B[k×8]` on packed, k-major panels (A `a[k·4 + r]`, B `b[k·8 + c]`).
//! tract's plans call it through `wasm_gemm::f32_4x8` (wasm only), the BERT engine through
//! [`bert::f32_gemm`](super::bert::f32_gemm) (everywhere).
//!
//! In wasm it is XNNPACK's "splat" scheme: per k, two `v128` loads of B, four `v128.load32_splat` of A, eight
//! multiply-adds into 8 accumulators (8 + 2 + 1 live vectors, under the 16 V8 gives wasm on x86-64). Each
//! element is `c += a·b` in k order. The `relaxed-simd` build fuses each multiply-add (`f32x4.relaxed_madd`,
//! which engines lower to a fused multiply-add where the CPU has one): the product is then rounded once, so
//! its outputs may differ from the SIMD128 build's in the last bits (docs/inference.md, "Two modules").
//! Elsewhere it is a plain loop the compiler vectorises.

/// Rows and columns of a tile.
pub const MR: usize = 4;
pub const NR: usize = 8;

/// A tile, row by row.
pub type Tile = [[f32; NR]; MR];

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use super::{Tile, MR, NR};
    use std::arch::wasm32::*;

    // (A macro: `#[inline(always)]` cannot be combined with `#[target_feature]`, and the intrinsic needs the
    // feature enabled in the function it is inlined into.)
    #[cfg(feature = "relaxed-simd")]
    macro_rules! madd {
        ($a:expr, $b:expr, $c:expr) => {
            f32x4_relaxed_madd($a, $b, $c)
        };
    }
    #[cfg(not(feature = "relaxed-simd"))]
    macro_rules! madd {
        ($a:expr, $b:expr, $c:expr) => {
            f32x4_add($c, f32x4_mul($a, $b))
        };
    }

    /// `tile[r] += a[k·MR + r] · b[k·NR ..][0..8]` for every k. Accumulators are locals, loaded from and stored
    /// back to the tile around the loop.
    ///
    /// # Safety
    /// `pa` must point to `k · MR` and `pb` to `k · NR` readable floats.
    #[inline(never)]
    #[cfg_attr(feature = "relaxed-simd", target_feature(enable = "relaxed-simd"))]
    pub unsafe fn add_mat_mul(tile: &mut Tile, k: usize, pa: *const f32, pb: *const f32) {
        unsafe {
            let t = tile.as_mut_ptr() as *mut v128;
            let [mut c00, mut c01, mut c10, mut c11, mut c20, mut c21, mut c30, mut c31] =
                [0, 1, 2, 3, 4, 5, 6, 7].map(|i| v128_load(t.add(i)));
            let mut a = pa;
            let mut b = pb as *const v128;
            for _ in 0..k {
                let b0 = v128_load(b);
                let b1 = v128_load(b.add(1));
                let a0 = v128_load32_splat(a as *const u32);
                c00 = madd!(a0, b0, c00);
                c01 = madd!(a0, b1, c01);
                let a1 = v128_load32_splat(a.add(1) as *const u32);
                c10 = madd!(a1, b0, c10);
                c11 = madd!(a1, b1, c11);
                let a2 = v128_load32_splat(a.add(2) as *const u32);
                c20 = madd!(a2, b0, c20);
                c21 = madd!(a2, b1, c21);
                let a3 = v128_load32_splat(a.add(3) as *const u32);
                c30 = madd!(a3, b0, c30);
                c31 = madd!(a3, b1, c31);
                a = a.add(MR);
                b = b.add(NR / 4);
            }
            for (i, v) in [c00, c01, c10, c11, c20, c21, c30, c31].into_iter().enumerate() {
                v128_store(t.add(i), v);
            }
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub use simd::add_mat_mul;

/// `tile[r] += a[k·MR + r] · b[k·NR ..][0..8]` for every k.
///
/// # Safety
/// `pa` must point to `k · MR` and `pb` to `k · NR` readable floats.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub unsafe fn add_mat_mul(tile: &mut Tile, k: usize, pa: *const f32, pb: *const f32) {
    // SAFETY: the caller's contract.
    let (a, b) = unsafe { (std::slice::from_raw_parts(pa, k * MR), std::slice::from_raw_parts(pb, k * NR)) };
    let mut acc = *tile;
    for (av, bv) in a.chunks_exact(MR).zip(b.chunks_exact(NR)) {
        for (row, &x) in acc.iter_mut().zip(av) {
            for (c, &y) in row.iter_mut().zip(bv) {
                *c += x * y;
            }
        }
    }
    *tile = acc;
}
