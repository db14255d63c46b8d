//! What one run gives a document it ranks, before the runs are combined ([`super::comb`]): its normalised score,
//! or a value of its 0-based position i in the run (ranx's order of the normalised run, see
//! [`super::normalization`]), as ranx 0.3.21 defines each method. n is the run's length for the query, C the
//! number of candidates (documents any run retrieved for the query).

/// A run's contribution to each document.
#[derive(Debug, Clone, PartialEq)]
pub enum Contribution {
    /// The normalised score s.
    Score,
    /// RRF: `1 / (k + i + 1)`.
    ReciprocalRank { k: f64 },
    /// ISR (Mourão et al., 2015): `1 / (i + 1)²`.
    InverseSquareRank,
    /// RBC (Bailey et al., SIGIR 2017): `(1 − φ) · φ^i`.
    RankBiased { phi: f64 },
    /// BordaFuse (Aslam & Montague, SIGIR 2001): `C − i`; every candidate the run missed gets `(C − n + 1) / 2`
    /// (and so counts as retrieved by the run).
    Borda,
    /// MAPFuse (Lillis et al., SIGIR 2010): `MAP_r / (i + 1)`, one trained MAP per run.
    MapScore(Vec<f64>),
    /// ProbFuse (Lillis et al., SIGIR 2006): `P_r(k) / (k + 1)` for position i in segment `k = ⌊i / ⌈n / K⌉⌋` of
    /// the K trained segment probabilities of run r.
    SegmentProbability(Vec<Vec<f64>>),
    /// PosFuse (Lillis et al., SIGIR 2010): `P_r(i)`, the trained probability of position i (0 past the end).
    PositionProbability(Vec<Vec<f64>>),
    /// SegFuse (Shokouhi, ECIR 2007): `P_r(k) · (s + 1)` for position i in segment k of the fixed bounds 0, 5, 15,
    /// 35, 75, …, 5115 (`10 · 2^(k−1) − 5`); 0 past the last.
    SegmentScore(Vec<Vec<f64>>),
    /// SlideFuse (Lillis et al., ECIR 2008): the mean of `P_r(j)` over the window `j ∈ [max(i − w, 0), min(i + w,
    /// n − 1)]`, summed over the trained positions only, divided by the window's width.
    SlidingWindow { probs: Vec<Vec<f64>>, w: usize },
    /// BayesFuse (Aslam & Montague, SIGIR 2001): `O_r(i)`, the trained log-odds of position i; a position past
    /// the trained ones counts as not retrieved.
    LogOdds(Vec<Vec<f64>>),
}

/// SegFuse's segment bounds: `[0] + [10 · 2^(k−1) − 5 for k in 1..=10]`.
pub const SEGFUSE_BOUNDS: [usize; 11] = [0, 5, 15, 35, 75, 155, 315, 635, 1275, 2555, 5115];

impl Contribution {
    /// Run `run`'s contributions: `list` is the run's `(document, normalised score)` in ranx's order, over
    /// documents `0..candidates`.
    pub fn values(&self, run: usize, list: &[(usize, f64)], candidates: usize) -> Vec<(usize, f64)> {
        let n = list.len();
        let at = |f: &dyn Fn(usize, f64) -> f64| list.iter().enumerate().map(|(i, &(d, s))| (d, f(i, s))).collect::<Vec<_>>();
        match self {
            Contribution::Score => list.to_vec(),
            Contribution::ReciprocalRank { k } => at(&|i, _| 1.0 / (k + i as f64 + 1.0)),
            Contribution::InverseSquareRank => at(&|i, _| 1.0 / ((i + 1) * (i + 1)) as f64),
            Contribution::RankBiased { phi } => at(&|i, _| (1.0 - phi) * phi.powf(i as f64)),
            Contribution::Borda => {
                let mut out = at(&|i, _| (candidates - i) as f64);
                let mut seen = vec![false; candidates];
                for &(d, _) in list {
                    seen[d] = true;
                }
                let missed = (candidates - n + 1) as f64 / 2.0;
                out.extend((0..candidates).filter(|&d| !seen[d]).map(|d| (d, missed)));
                out
            }
            Contribution::MapScore(map) => at(&|i, _| map[run] / (i + 1) as f64),
            Contribution::SegmentProbability(probs) => {
                let probs = &probs[run];
                if probs.is_empty() {
                    return at(&|_, _| 0.0);
                }
                let size = n.div_ceil(probs.len());
                at(&|i, _| {
                    let k = i / size;
                    probs[k] / (k + 1) as f64
                })
            }
            Contribution::PositionProbability(probs) => at(&|i, _| probs[run].get(i).copied().unwrap_or(0.0)),
            Contribution::SegmentScore(probs) => {
                let probs = &probs[run];
                at(&|i, s| {
                    let k = SEGFUSE_BOUNDS.windows(2).position(|b| i < b[1]);
                    k.and_then(|k| probs.get(k)).copied().unwrap_or(0.0) * (s + 1.0)
                })
            }
            Contribution::SlidingWindow { probs, w } => {
                let probs = &probs[run];
                at(&|i, _| {
                    let a = i.saturating_sub(*w);
                    let b = (i + w).min(n - 1);
                    let window = &probs[a.min(probs.len())..(b + 1).min(probs.len())];
                    window.iter().fold(0.0, |s, p| s + p) / (b - a + 1) as f64
                })
            }
            Contribution::LogOdds(odds) => {
                let odds = &odds[run];
                list.iter().enumerate().filter(|(i, _)| *i < odds.len()).map(|(i, &(d, _))| (d, odds[i])).collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let list = [(2, 0.9), (0, 0.5), (1, 0.1)];
        let v = |c: Contribution| c.values(0, &list, 4);
        assert_eq!(v(Contribution::ReciprocalRank { k: 60.0 }), [(2, 1.0 / 61.0), (0, 1.0 / 62.0), (1, 1.0 / 63.0)]);
        assert_eq!(v(Contribution::InverseSquareRank), [(2, 1.0), (0, 0.25), (1, 1.0 / 9.0)]);
        assert_eq!(v(Contribution::Borda), [(2, 4.0), (0, 3.0), (1, 2.0), (3, 1.0)]);
        // ProbFuse with 2 segments of ⌈3/2⌉ = 2 positions
        assert_eq!(v(Contribution::SegmentProbability(vec![vec![0.4, 0.2]])), [(2, 0.4), (0, 0.4), (1, 0.1)]);
        assert_eq!(v(Contribution::PositionProbability(vec![vec![0.5, 0.25]])), [(2, 0.5), (0, 0.25), (1, 0.0)]);
        // SlideFuse, w = 1: windows [0, 1], [0, 2], [1, 2] over 2 trained positions
        assert_eq!(v(Contribution::SlidingWindow { probs: vec![vec![0.5, 0.25]], w: 1 }), [(2, 0.375), (0, 0.25), (1, 0.125)]);
        assert_eq!(v(Contribution::LogOdds(vec![vec![-1.0, -2.0]])), [(2, -1.0), (0, -2.0)]);
    }
}
