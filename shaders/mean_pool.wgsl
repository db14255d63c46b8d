// Mean pooling over the attention mask (sentence-transformers' Pooling(mean)), one workgroup (256) per sequence:
//   e[b] = Σₜ m[b, t] · hidden[b, t] / max(Σₜ m[b, t], 1e−9)
//   and, when normalize = 1, e[b] / max(‖e[b]‖₂, 1e−12)   (torch F.normalize)
// H ≤ 1024.
//
// Bindings: 0 params {batch, seq, hidden, normalize}, 1 hidden [B·S, H], 2 mask [B·S] u32, 3 out [B, H] (write).
// Dispatch: (B, 1, 1).

struct PoolParams {
    batch: u32, seq: u32, hidden: u32, normalize: u32,
    _p4: u32, _p5: u32, _p6: u32, _p7: u32,
}

@group(0) @binding(0) var<uniform> p: PoolParams;
@group(0) @binding(1) var<storage, read> hs: array<f32>;
@group(0) @binding(2) var<storage, read> mask: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

var<workgroup> red: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let b = wid.x;
    let H = p.hidden;
    let S = p.seq;
    var count = 0.0;
    for (var t = 0u; t < S; t = t + 1u) { if (mask[b * S + t] != 0u) { count = count + 1.0; } }
    let inv = 1.0 / max(count, 1e-9);
    var v: array<f32, 4>;
    var sq = 0.0;
    for (var j = 0u; j < 4u; j = j + 1u) {
        let i = lid + j * 256u;
        var acc = 0.0;
        if (i < H) {
            for (var t = 0u; t < S; t = t + 1u) {
                if (mask[b * S + t] != 0u) { acc = acc + hs[(b * S + t) * H + i]; }
            }
        }
        v[j] = acc * inv;
        sq = sq + v[j] * v[j];
    }
    red[lid] = sq;
    workgroupBarrier();
    for (var s = 128u; s > 0u; s = s >> 1u) {
        if (lid < s) { red[lid] = red[lid] + red[lid + s]; }
        workgroupBarrier();
    }
    var scale = 1.0;
    if (p.normalize == 1u) { scale = 1.0 / max(sqrt(red[0]), 1e-12); }
    for (var j = 0u; j < 4u; j = j + 1u) {
        let i = lid + j * 256u;
        if (i < H) { out[b * H + i] = v[j] * scale; }
    }
}
