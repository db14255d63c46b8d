// Multi-head self-attention for one (query token i, head h, sequence b) per workgroup (64 threads):
//   q = Q[b, i, h] · scale (scale = 1/√d),  sⱼ = q · K[b, j, h] + (mask[b, j] = 0 ? f32::MIN : 0)
//   pⱼ = exp(sⱼ − maxₖ sₖ) / Σₖ exp(sₖ − maxₖ sₖ)          (numerically stable softmax)
//   ctx[b, i, h·d + c] = Σⱼ pⱼ · V[b, j, h·d + c]
// Q, K, V are the three H-wide column blocks of the fused projection qkv [B·S, 3H]; the mask term is the
// exported graph's (1 − m)·finfo(f32).min. S ≤ 512, head_dim d ≤ 128 and a multiple of 4 (rows are read as
// vec4). Scores: one key per thread. Context: the 64 threads split into G = 64 / (d/4) slices of the keys, each
// thread one vec4 column of V over its slice (a chain of S/G steps, not S: this loop set the kernel's speed on
// a GPU), then the slices' partial sums are added in workgroup memory.
//
// Bindings: 0 params {batch, seq, heads, head_dim, hidden, scale}, 1 qkv [B·S, 3H], 2 mask [B·S] u32,
// 3 ctx [B·S, H] (write). Dispatch: (S, heads, B).

struct AttnParams {
    batch: u32, seq: u32, heads: u32, head_dim: u32,
    hidden: u32, scale: f32, _p6: u32, _p7: u32,
}

@group(0) @binding(0) var<uniform> p: AttnParams;
@group(0) @binding(1) var<storage, read> qkv: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> mask: array<u32>;
@group(0) @binding(3) var<storage, read_write> ctx: array<f32>;

const WG: u32 = 64u;
// f32::MIN exactly (hex): the decimal -3.40282347e+38 rounds past f32::MAX, which Chromium (Tint) rejects.
const F32_MIN: f32 = -0x1.fffffep+127f;

var<workgroup> sc: array<f32, 512>;
var<workgroup> qs: array<vec4<f32>, 32>;
var<workgroup> red: array<f32, 64>;
var<workgroup> part: array<vec4<f32>, 64>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let i = wid.x;
    let h = wid.y;
    let b = wid.z;
    let S = p.seq;
    let d4 = p.head_dim / 4u;
    let H = p.hidden;
    let H4 = H / 4u;
    let stride4 = 3u * H4;
    let qbase4 = (b * S + i) * stride4 + h * d4;
    for (var c = lid; c < d4; c = c + WG) { qs[c] = qkv[qbase4 + c] * p.scale; }
    workgroupBarrier();

    var m = F32_MIN;
    for (var j = lid; j < S; j = j + WG) {
        let kbase4 = (b * S + j) * stride4 + H4 + h * d4;
        var acc = vec4<f32>(0.0);
        for (var c = 0u; c < d4; c = c + 1u) { acc = fma(qs[c], qkv[kbase4 + c], acc); }
        var s = (acc.x + acc.y) + (acc.z + acc.w);
        if (mask[b * S + j] == 0u) { s = s + F32_MIN; }
        sc[j] = s;
        m = max(m, s);
    }
    red[lid] = m;
    workgroupBarrier();
    for (var r = WG / 2u; r > 0u; r = r >> 1u) {
        if (lid < r) { red[lid] = max(red[lid], red[lid + r]); }
        workgroupBarrier();
    }
    let mx = red[0];
    workgroupBarrier();

    var z = 0.0;
    for (var j = lid; j < S; j = j + WG) {
        let e = exp(sc[j] - mx);
        sc[j] = e;
        z = z + e;
    }
    red[lid] = z;
    workgroupBarrier();
    for (var r = WG / 2u; r > 0u; r = r >> 1u) {
        if (lid < r) { red[lid] = red[lid] + red[lid + r]; }
        workgroupBarrier();
    }
    let inv = 1.0 / red[0];

    let slices = WG / d4;
    let c = lid % d4;
    let g = lid / d4;
    var acc = vec4<f32>(0.0);
    if (g < slices) {
        let vbase4 = b * S * stride4 + 2u * H4 + h * d4 + c;
        for (var j = g; j < S; j = j + slices) { acc = fma(vec4<f32>(sc[j]), qkv[vbase4 + j * stride4], acc); }
    }
    part[lid] = acc;
    workgroupBarrier();
    if (lid < d4) {
        var t = vec4<f32>(0.0);
        for (var k = 0u; k < slices; k = k + 1u) { t = t + part[k * d4 + lid]; }
        let o = (b * S + i) * H + h * 4u * d4 + 4u * lid;
        ctx[o] = t.x * inv;
        ctx[o + 1u] = t.y * inv;
        ctx[o + 2u] = t.z * inv;
        ctx[o + 3u] = t.w * inv;
    }
}
