//! i8 × i8 → i32 GEMM micro-kernel, MR = 4 × NR = 4, on `i32x4.dot_i16x8_s` (see the module doc above).
//!
//! Packing 1 (the int8 one) is tract's `PackedI8K4` on both sides: per block of 4 k, A holds
//! `a[blk·16 + r·4 + kk]` and B `b[blk·16 + c·4 + kk]`, the tail block zero-padded by the packer.
//! Packing 0 (i32 × i32, k-major `PackedFormat`) exists for tract's registry contract and runs scalar.
use std::arch::wasm32::*;

use tract_linalg::mmm::FusedKerSpec;

use super::fused_op;

const MR: usize = 4;
const NR: usize = 4;

/// Per 4-k block: B's 16 bytes → `blo` = i16 `[b(c0,k0..3), b(c1,k0..3)]`, `bhi` = the same for c2, c3; per
/// row, A's 4 bytes splatted and extended → `[a0..a3, a0..a3]`; `dot(a, blo)` = `[a0b0+a1b1, a2b2+a3b3]` for
/// c0 then c1 — two lanes per column, folded after the loop.
#[inline(never)]
unsafe fn add_mat_mul_i8(ab: &mut [[i32; NR]; MR], k: usize, pa: *const i8, pb: *const i8) {
    unsafe {
        let z = i32x4_splat(0);
        let (mut l0, mut h0, mut l1, mut h1) = (z, z, z, z);
        let (mut l2, mut h2, mut l3, mut h3) = (z, z, z, z);
        let mut a = pa;
        let mut b = pb;
        for _ in 0..k.div_ceil(4) {
            let bv = v128_load(b as *const v128);
            let blo = i16x8_extend_low_i8x16(bv);
            let bhi = i16x8_extend_high_i8x16(bv);
            let a0 = i16x8_extend_low_i8x16(v128_load32_splat(a as *const u32));
            l0 = i32x4_add(l0, i32x4_dot_i16x8(a0, blo));
            h0 = i32x4_add(h0, i32x4_dot_i16x8(a0, bhi));
            let a1 = i16x8_extend_low_i8x16(v128_load32_splat(a.add(4) as *const u32));
            l1 = i32x4_add(l1, i32x4_dot_i16x8(a1, blo));
            h1 = i32x4_add(h1, i32x4_dot_i16x8(a1, bhi));
            let a2 = i16x8_extend_low_i8x16(v128_load32_splat(a.add(8) as *const u32));
            l2 = i32x4_add(l2, i32x4_dot_i16x8(a2, blo));
            h2 = i32x4_add(h2, i32x4_dot_i16x8(a2, bhi));
            let a3 = i16x8_extend_low_i8x16(v128_load32_splat(a.add(12) as *const u32));
            l3 = i32x4_add(l3, i32x4_dot_i16x8(a3, blo));
            h3 = i32x4_add(h3, i32x4_dot_i16x8(a3, bhi));
            a = a.add(4 * MR);
            b = b.add(4 * NR);
        }
        // [l0+l1, l2+l3, h0+h1, h2+h3]: the whole row, columns 0..4.
        let fold = |l: v128, h: v128| i32x4_add(i32x4_shuffle::<0, 2, 4, 6>(l, h), i32x4_shuffle::<1, 3, 5, 7>(l, h));
        let t = ab.as_mut_ptr() as *mut v128;
        v128_store(t, i32x4_add(v128_load(t), fold(l0, h0)));
        v128_store(t.add(1), i32x4_add(v128_load(t.add(1)), fold(l1, h1)));
        v128_store(t.add(2), i32x4_add(v128_load(t.add(2)), fold(l2, h2)));
        v128_store(t.add(3), i32x4_add(v128_load(t.add(3)), fold(l3, h3)));
    }
}

/// i32 × i32, k-major: `ab[r][c] += a[k·MR + r] · b[k·NR + c]`, wrapping as tract's generic kernel does.
unsafe fn add_mat_mul_i32(ab: &mut [[i32; NR]; MR], k: usize, pa: *const i32, pb: *const i32) {
    for ik in 0..k {
        for (r, row) in ab.iter_mut().enumerate() {
            let av = unsafe { *pa.add(MR * ik + r) };
            for (c, x) in row.iter_mut().enumerate() {
                *x = x.wrapping_add(av.wrapping_mul(unsafe { *pb.add(NR * ik + c) }));
            }
        }
    }
}

/// tract's kernel entry point: runs the fused op list until `Done`. 0 on success, 1 for an op it cannot run.
pub(super) unsafe fn kernel(ops: &[FusedKerSpec<i32>]) -> isize {
    let mut ab = [[0i32; NR]; MR];
    unsafe {
        let mut p = ops.as_ptr();
        loop {
            match *p {
                FusedKerSpec::Done => return 0,
                FusedKerSpec::AddMatMul { k, pa, pb, packing: 1 } => {
                    add_mat_mul_i8(&mut ab, k, pa as *const i8, pb as *const i8)
                }
                FusedKerSpec::AddMatMul { k, pa, pb, packing: 0 } => {
                    add_mat_mul_i32(&mut ab, k, pa as *const i32, pb as *const i32)
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
