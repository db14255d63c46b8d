//! Gain values per relevance grade for the nDCG / G / rbp measures (trec_eval's `setup_gains`).
//!
//! Default gain of grade g is g, for every grade 0 ≤ g < (highest judged grade + 1); `level=gain` pairs
//! override or add levels. A retrieved document's gain is its grade's gain (0 for grades with no entry,
//! including not-in-pool and unjudged documents unless a pair names level -1 or -2).

use super::metric::GainPairs;
use crate::metrics::inputs::qrels::QueryQrels;

/// One relevance level: its grade, its gain, and how many judged documents have it.
#[derive(Debug, Clone, Copy)]
pub struct GainLevel {
    pub grade: i64,
    pub gain: f64,
    pub count: u64,
}

/// Gain levels of one query, ascending by gain.
#[derive(Debug, Clone, Default)]
pub struct GainTable {
    pub levels: Vec<GainLevel>,
}

/// trec_eval's check that a pair name is an integer (`valid_int`): optional sign and digits only.
fn is_integer_name(name: &str) -> bool {
    let digits = name.strip_prefix(['-', '+']).unwrap_or(name);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

impl GainTable {
    /// The gain table of `query` (None: a query without judgements) under `pairs`.
    pub fn new(pairs: &GainPairs, query: Option<&QueryQrels>) -> GainTable {
        let mut levels: Vec<GainLevel> = pairs
            .pairs
            .iter()
            .filter(|(name, _)| is_integer_name(name))
            .filter_map(|(name, gain)| name.parse::<i64>().ok().map(|grade| GainLevel { grade, gain: *gain, count: 0 }))
            .collect();
        // trec_eval adds a default level (gain = grade) for every grade from 0 to the highest judged one.
        // Grades nobody was judged with cannot be retrieved and, apart from grade 0 (the minimum rbp
        // rescales by), change no measure, so only judged grades and grade 0 are listed: a qrels with a
        // huge grade does not make a huge table.
        let judged = query.map_or(&[][..], |q| q.grade_counts.as_slice());
        let zero = if judged.is_empty() || judged[0].0 == 0 { None } else { Some((0i64, 0u64)) };
        for &(grade, count) in zero.iter().chain(judged) {
            match levels.iter_mut().find(|level| level.grade == grade) {
                Some(level) => level.count = count,
                None => levels.push(GainLevel { grade, gain: grade as f64, count }),
            }
        }
        levels.sort_by(|a, b| a.gain.total_cmp(&b.gain));
        GainTable { levels }
    }

    /// Gain of a document with relevance value `rel`.
    #[inline]
    pub fn gain(&self, rel: i64) -> f64 {
        self.levels.iter().find(|level| level.grade == rel).map_or(0.0, |level| level.gain)
    }

    /// The ideal ranking's gains: each level's gain repeated by its count, highest first, positive gains only.
    pub fn ideal_gains(&self) -> impl Iterator<Item = f64> + '_ {
        self.levels
            .iter()
            .rev()
            .take_while(|level| level.gain > 0.0)
            .flat_map(|level| std::iter::repeat(level.gain).take(level.count as usize))
    }
}
