//! Unranked measures over the whole retrieved set: `set_F`, `utility`; and `unj_k`, `relstring`.

use crate::metrics::evaluation::ranking::{RankedRelevance, NOT_IN_POOL, UNJUDGED_IN_POOL};

/// `set_F_x` = (x + 1)·P·R / (x·P + R) with P = set_P, R = set_recall; 0 when nothing relevant is retrieved.
pub fn set_f(r: &RankedRelevance, x: f64) -> f64 {
    if r.num_rel_ret == 0 {
        return 0.0;
    }
    let precision = r.num_rel_ret as f64 / r.num_ret as f64;
    let recall = r.num_rel_ret as f64 / r.num_rel as f64;
    (x + 1.0) * precision * recall / (x * precision + recall)
}

/// `utility_a,b,c,d` = a·rel_ret + b·(ret − rel_ret) + c·(R − rel_ret) + d·(N + rel_ret − ret − R), N the
/// collection size (`-N`, default 0).
pub fn utility(r: &RankedRelevance, coefficients: &[f64], collection_size: u64) -> f64 {
    let [a, b, c, d] = [coefficients[0], coefficients[1], coefficients[2], coefficients[3]];
    let (rel_ret, ret, rel) = (r.num_rel_ret as f64, r.num_ret as f64, r.num_rel as f64);
    a * rel_ret + b * (ret - rel_ret) + c * (rel - rel_ret) + d * (collection_size as f64 + rel_ret - ret - rel)
}

/// `unj_k` = (unjudged or not-in-pool documents in the top k) / k.
pub fn unjudged_at(r: &RankedRelevance, k: u32) -> f64 {
    r.rels.iter().take(k as usize).filter(|&&rel| rel < 0).count() as f64 / k as f64
}

/// `relstring_n`: one character per document of the top n: the grade 0–9, `>` above 9, `-` not in the pool,
/// `.` unjudged in the pool, `<` any other negative value.
pub fn relevance_string(r: &RankedRelevance, length: u32) -> String {
    r.rels
        .iter()
        .take(length as usize)
        .map(|&rel| match rel {
            10.. => '>',
            0..=9 => (b'0' + rel as u8) as char,
            NOT_IN_POOL => '-',
            UNJUDGED_IN_POOL => '.',
            _ => '<',
        })
        .collect()
}
