//! f32 GEMM micro-kernel, MR = 4 rows × NR = 8 columns, 8 `f32x4` accumulators (see the module doc above).
//!
//! Packed operands (tract's `PackedFormat`, k-major): A panel `a[k·4 + r]`, B panel `b[k·8 + c]`.
use std::arch::wasm32::*;

use tract_linalg::mmm::FusedKerSpec;

use super::fused_op;

const MR: usize = 4;
const NR: usize = 8;

/// `acc[r] += a[k·MR + r] · b[k·NR ..][0..8]` for every k: per k, 2 loads of B, 4 splat-loads of A,
/// 8 mul + 8 add. Accumulators are locals, loaded from and stored back to the tile around the loop.
#[inline(never)]
unsafe fn add_mat_mul(ab: &mut [[f32; NR]; MR], k: usize, pa: *const f32, pb: *const f32) {
    unsafe {
        let t = ab.as_mut_ptr() as *mut v128;
        let (mut c00, mut c01) = (v128_load(t), v128_load(t.add(1)));
        let (mut c10, mut c11) = (v128_load(t.add(2)), v128_load(t.add(3)));
        let (mut c20, mut c21) = (v128_load(t.add(4)), v128_load(t.add(5)));
        let (mut c30, mut c31) = (v128_load(t.add(6)), v128_load(t.add(7)));
        let mut a = pa;
        let mut b = pb as *const v128;
        for _ in 0..k {
            let b0 = v128_load(b);
            let b1 = v128_load(b.add(1));
            let a0 = v128_load32_splat(a as *const u32);
            c00 = f32x4_add(c00, f32x4_mul(a0, b0));
            c01 = f32x4_add(c01, f32x4_mul(a0, b1));
            let a1 = v128_load32_splat(a.add(1) as *const u32);
            c10 = f32x4_add(c10, f32x4_mul(a1, b0));
            c11 = f32x4_add(c11, f32x4_mul(a1, b1));
            let a2 = v128_load32_splat(a.add(2) as *const u32);
            c20 = f32x4_add(c20, f32x4_mul(a2, b0));
            c21 = f32x4_add(c21, f32x4_mul(a2, b1));
            let a3 = v128_load32_splat(a.add(3) as *const u32);
            c30 = f32x4_add(c30, f32x4_mul(a3, b0));
            c31 = f32x4_add(c31, f32x4_mul(a3, b1));
            a = a.add(MR);
            b = b.add(NR / 4);
        }
        v128_store(t, c00);
        v128_store(t.add(1), c01);
        v128_store(t.add(2), c10);
        v128_store(t.add(3), c11);
        v128_store(t.add(4), c20);
        v128_store(t.add(5), c21);
        v128_store(t.add(6), c30);
        v128_store(t.add(7), c31);
    }
}

/// tract's kernel entry point: runs the fused op list until `Done`. 0 on success, 1 for an op it cannot run.
pub(super) unsafe fn kernel(ops: &[FusedKerSpec<f32>]) -> isize {
    let mut ab = [[0f32; NR]; MR];
    unsafe {
        let mut p = ops.as_ptr();
        loop {
            match *p {
                FusedKerSpec::Done => return 0,
                // tract's f32 layouts only: packing 0 is f32 × f32 in PackedFormat.
                FusedKerSpec::AddMatMul { k, pa, pb, packing: 0 } => {
                    add_mat_mul(&mut ab, k, pa as *const f32, pb as *const f32)
                }
                FusedKerSpec::AddMatMul { .. } => return 1,
                ref op => {
                    if !fused_op(&mut ab, op) {
                        return 1;
                    }
                }
            }
            p = p.add(1);
        }
    }
}
