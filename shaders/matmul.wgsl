// Tiled matrix product with bias and optional GELU epilogue:
//   C[m, n] = act( Σₖ A[m, k] · W[k, n] + bias[n] ),   A: [M, K], W: [K, N] (ONNX MatMul layout), C: [M, N],
//   act = identity (params.act = 0) or exact GELU (params.act = 1, gelu_erf from gelu_fn.wgsl,
//   which matmul.rs concat!s in front of this file).
//
// Each workgroup (16×16 threads) computes one 64×64 tile of C, walking K in steps of 16: the 64×16 slab of A
// and the 16×64 slab of W are staged in workgroup memory (A transposed, so both are read along the tile's
// columns), then each thread accumulates a 4×4 register block — rows lid.y + 16·i, columns lid.x + 16·j, so
// neighbouring threads touch neighbouring addresses on loads and stores. Out-of-range rows/columns/k are
// zero-filled, so any M, N, K work. Accumulation is f32 (fma).
//
// Bindings: 0 params {m, n, k, act}, 1 A (read), 2 W (read), 3 bias [N] (read), 4 C (write).
// Dispatch: (ceil(N/64), ceil(M/64), 1).

struct MatmulParams {
    m: u32, n: u32, k: u32, act: u32,
    _p4: u32, _p5: u32, _p6: u32, _p7: u32,
}

@group(0) @binding(0) var<uniform> p: MatmulParams;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> c: array<f32>;

const TM: u32 = 64u;
const TN: u32 = 64u;
const TK: u32 = 16u;

var<workgroup> As: array<f32, 1024>; // [TK][TM]
var<workgroup> Bs: array<f32, 1024>; // [TK][TN]

@compute @workgroup_size(16, 16, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
    let row0 = wid.y * TM;
    let col0 = wid.x * TN;
    var acc: array<f32, 16>;
    for (var i = 0u; i < 16u; i = i + 1u) { acc[i] = 0.0; }

    for (var t = 0u; t < p.k; t = t + TK) {
        for (var i = 0u; i < 4u; i = i + 1u) {
            let e = li + i * 256u;
            // A slab: 64 rows × 16 k, consecutive threads read consecutive k of one row
            let r = e / TK;
            let kk = e % TK;
            let gr = row0 + r;
            let gk = t + kk;
            var av = 0.0;
            if (gr < p.m && gk < p.k) { av = a[gr * p.k + gk]; }
            As[kk * TM + r] = av;
            // W slab: 16 k × 64 columns, consecutive threads read consecutive columns
            let kb = e / TN;
            let cc = e % TN;
            let gkb = t + kb;
            let gc = col0 + cc;
            var bv = 0.0;
            if (gkb < p.k && gc < p.n) { bv = w[gkb * p.n + gc]; }
            Bs[kb * TN + cc] = bv;
        }
        workgroupBarrier();
        for (var kk = 0u; kk < TK; kk = kk + 1u) {
            let a0 = As[kk * TM + lid.y];
            let a1 = As[kk * TM + lid.y + 16u];
            let a2 = As[kk * TM + lid.y + 32u];
            let a3 = As[kk * TM + lid.y + 48u];
            let b = vec4<f32>(Bs[kk * TN + lid.x], Bs[kk * TN + lid.x + 16u], Bs[kk * TN + lid.x + 32u],
                              Bs[kk * TN + lid.x + 48u]);
            acc[0] = fma(a0, b.x, acc[0]);   acc[1] = fma(a0, b.y, acc[1]);
            acc[2] = fma(a0, b.z, acc[2]);   acc[3] = fma(a0, b.w, acc[3]);
            acc[4] = fma(a1, b.x, acc[4]);   acc[5] = fma(a1, b.y, acc[5]);
            acc[6] = fma(a1, b.z, acc[6]);   acc[7] = fma(a1, b.w, acc[7]);
            acc[8] = fma(a2, b.x, acc[8]);   acc[9] = fma(a2, b.y, acc[9]);
            acc[10] = fma(a2, b.z, acc[10]); acc[11] = fma(a2, b.w, acc[11]);
            acc[12] = fma(a3, b.x, acc[12]); acc[13] = fma(a3, b.y, acc[13]);
            acc[14] = fma(a3, b.z, acc[14]); acc[15] = fma(a3, b.w, acc[15]);
        }
        workgroupBarrier();
    }

    for (var i = 0u; i < 4u; i = i + 1u) {
        let gr = row0 + lid.y + 16u * i;
        if (gr >= p.m) { continue; }
        for (var j = 0u; j < 4u; j = j + 1u) {
            let gc = col0 + lid.x + 16u * j;
            if (gc < p.n) {
                var v = acc[i * 4u + j] + bias[gc];
                if (p.act == 1u) { v = gelu_erf(v); }
                c[gr * p.n + gc] = v;
            }
        }
    }
}
