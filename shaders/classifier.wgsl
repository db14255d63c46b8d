// Sequence-classification head on the [CLS] (first) token of each sequence, one workgroup (256) per sequence b:
//   x = hidden[b·S]                                       ([CLS] state, H)
//   pooled = act(x · Wp + bp)    when pooler ≠ 0,  else pooled = x
//     act by `pooler`: 1 tanh (BERT's pooler), 2 ReLU (DistilBERT's pre_classifier), 3 erf GELU (ELECTRA's
//     classification head; gelu_erf is gelu_fn.wgsl's, concat!'d in front by classifier.rs)
//   logits[b] = pooled · Wc + bc                          (Wc: [H, L], L = num_labels)
// tanh is evaluated as sign(x)·(1 − e^(−2|x|)) / (1 + e^(−2|x|)), which cannot overflow. H ≤ 1024.
//
// Bindings: 0 params {batch, seq, hidden, labels, pooler}, 1 hidden [B·S, H], 2 Wp [H, H], 3 bp [H],
// 4 Wc [H, L], 5 bc [L], 6 logits [B, L] (write). Dispatch: (B, 1, 1).

struct ClsParams {
    batch: u32, seq: u32, hidden: u32, labels: u32,
    pooler: u32, _p5: u32, _p6: u32, _p7: u32,
}

@group(0) @binding(0) var<uniform> p: ClsParams;
@group(0) @binding(1) var<storage, read> hs: array<f32>;
@group(0) @binding(2) var<storage, read> wp: array<f32>;
@group(0) @binding(3) var<storage, read> bp: array<f32>;
@group(0) @binding(4) var<storage, read> wc: array<f32>;
@group(0) @binding(5) var<storage, read> bc: array<f32>;
@group(0) @binding(6) var<storage, read_write> logits: array<f32>;

var<workgroup> cls: array<f32, 1024>;
var<workgroup> pooled: array<f32, 1024>;

fn tanh_safe(x: f32) -> f32 {
    let e = exp(-2.0 * abs(x));
    let t = (1.0 - e) / (1.0 + e);
    return select(t, -t, x < 0.0);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let b = wid.x;
    let H = p.hidden;
    let base = b * p.seq * H;
    for (var k = lid; k < H; k = k + 256u) { cls[k] = hs[base + k]; }
    workgroupBarrier();
    for (var n = lid; n < H; n = n + 256u) {
        if (p.pooler != 0u) {
            var acc = bp[n];
            for (var k = 0u; k < H; k = k + 1u) { acc = fma(cls[k], wp[k * H + n], acc); }
            if (p.pooler == 1u) {
                pooled[n] = tanh_safe(acc);
            } else if (p.pooler == 2u) {
                pooled[n] = max(acc, 0.0);
            } else {
                pooled[n] = gelu_erf(acc);
            }
        } else {
            pooled[n] = cls[n];
        }
    }
    workgroupBarrier();
    let L = p.labels;
    for (var l = lid; l < L; l = l + 256u) {
        var acc = bc[l];
        for (var n = 0u; n < H; n = n + 1u) { acc = fma(pooled[n], wc[n * L + l], acc); }
        logits[b * L + l] = acc;
    }
}
