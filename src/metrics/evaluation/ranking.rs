//! From one query's run entries and judgements to the relevance value at each rank (trec_eval's
//! `form_res_rels`): the input every measure reads.
//!
//! Ranking ([`TiePolicy::TrecEval`]): score descending, ties broken by docno in descending byte (`strcmp`)
//! order; the run's rank column is never used. The relevance value at a rank is the judged grade, or
//! [`NOT_IN_POOL`] for a document absent from the qrels, or [`UNJUDGED_IN_POOL`] for one judged with a
//! negative grade.

use std::sync::Arc;

use crate::metrics::inputs::docno_arena::DocnoIndex;
use crate::metrics::inputs::qrels::{Judgement, Qrels, QueryQrels};
use crate::metrics::inputs::run::{QueryRun, Run, RunEntry};

/// Relevance value of a retrieved document that the qrels do not mention (trec_eval `RELVALUE_NONPOOL`).
pub const NOT_IN_POOL: i64 = -1;
/// Relevance value of a retrieved document judged with a negative grade (trec_eval `RELVALUE_UNJUDGED`).
pub const UNJUDGED_IN_POOL: i64 = -2;
/// `judgement_at_rank` value for a document with no judgement.
pub const NO_JUDGEMENT: u32 = u32::MAX;
/// `entry_at_rank` value for a document that is no entry of the run.
pub const NO_ENTRY: u32 = u32::MAX;

/// How documents with equal scores are ordered: "trec_eval" (score descending, then docno descending; the
/// default) or "input" (the run's order as given).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum TiePolicy {
    /// trec_eval 9+/10.0: score descending, then docno descending (byte order).
    #[default]
    TrecEval,
    /// Keep the run's order as given (file order, or insertion order of an in-memory run); scores unused.
    Input,
}

/// One query's ranked relevance values and counts (trec_eval's `RES_RELS`).
#[derive(Debug, Clone, Default)]
pub struct RankedRelevance {
    /// Relevance value of the document at rank `i + 1`.
    pub rels: Vec<i64>,
    /// Index into the query's (docno-sorted) judgements of the document at rank `i + 1`, or [`NO_JUDGEMENT`].
    pub judgement_at_rank: Vec<u32>,
    /// Index into the query's run entries of the document at rank `i + 1` ([`NO_ENTRY`] for the stand-in
    /// document of a query missing from the run).
    pub entry_at_rank: Vec<u32>,
    /// Number of documents retrieved (after the `-M` cut).
    pub num_ret: u64,
    /// Number of judged documents with grade ≥ the relevance level.
    pub num_rel: u64,
    /// Number of retrieved documents with grade ≥ the relevance level.
    pub num_rel_ret: u64,
    /// Retrieved documents absent from the qrels.
    pub num_nonpool: u64,
    /// Retrieved documents judged with a negative grade.
    pub num_unjudged_in_pool: u64,
    /// The relevance level (`-l`) the counts were made with.
    pub relevance_level: i64,
}

impl RankedRelevance {
    /// True when the value at a rank counts as relevant: `rel ≥ relevance_level`.
    #[inline]
    pub fn is_relevant(&self, rel: i64) -> bool {
        rel >= self.relevance_level
    }
}

/// How a query is ranked and judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RankingOptions {
    /// Grades ≥ this are relevant (trec_eval `-l`, default 1).
    pub relevance_level: i64,
    pub ties: TiePolicy,
    /// Keep only the top n after ranking (trec_eval `-M`).
    pub max_results: Option<usize>,
    /// Drop retrieved documents the qrels do not mention or judge with a negative grade, after the `-M` cut
    /// (trec_eval `-J`, ir_measures' `judged_only=True`).
    pub judged_only: bool,
}

impl Default for RankingOptions {
    fn default() -> Self {
        RankingOptions { relevance_level: 1, ties: TiePolicy::TrecEval, max_results: None, judged_only: false }
    }
}

/// Reusable buffers for [`rank_query`], so that evaluating many queries allocates once.
#[derive(Debug, Default)]
pub struct RankingWorkspace {
    rel_of_entry: Vec<i64>,
    judgement_of_entry: Vec<u32>,
    packed: Vec<u64>,
    order: Vec<u32>,
    judgements: DocnoIndex,
}

/// A key whose ascending order is the score's descending order (−0 and +0 equal, as C's `>` sees them).
#[inline]
fn descending_key(score: f64) -> u64 {
    let score = if score == 0.0 { 0.0 } else { score };
    let bits = score.to_bits();
    let ascending = if bits >> 63 == 1 { !bits } else { bits | (1 << 63) };
    !ascending
}

/// Ranks one query's entries and judges them against `judged` (the qrels and this query's judgements, if
/// any), writing into `out`.
pub fn rank_query(
    run: &Run,
    query_run: &QueryRun,
    judged: Option<(&Qrels, &QueryQrels)>,
    options: &RankingOptions,
    workspace: &mut RankingWorkspace,
    out: &mut RankedRelevance,
) {
    let relevance_level = options.relevance_level;
    let entries = &query_run.entries;
    let n = entries.len();
    // Judge every entry: look its docno up among the query's judgements.
    workspace.rel_of_entry.clear();
    workspace.rel_of_entry.resize(n, NOT_IN_POOL);
    workspace.judgement_of_entry.clear();
    workspace.judgement_of_entry.resize(n, NO_JUDGEMENT);
    if let Some((qrels, query_qrels)) = judged {
        let judgements = &query_qrels.judgements;
        let found = workspace.rel_of_entry.iter_mut().zip(workspace.judgement_of_entry.iter_mut());
        // one table of ids for both (a shared DocIdTable): keyed and compared by the table's rule, by index when it
        // lists each id once; else by the ids' bytes — read from the places entries and judgements keep where both
        // inputs' ids are keyed by content (the rule checked once here, not per entry: in wasm that check per entry
        // cost evaluate 6–8%)
        let (qrels_ids, run_ids) = (qrels.docnos(), run.docnos());
        let ids = if Arc::ptr_eq(qrels_ids, run_ids) { Some(run_ids.as_ref()) } else { None };
        match ids {
            Some(ids) => judge(
                entries,
                judgements,
                (|j: &Judgement| j.key, |e: &RunEntry| e.key),
                |j: &Judgement, e: &RunEntry| ids.same(j.doc, e.doc),
                &mut workspace.judgements,
                found,
            ),
            None if qrels_ids.keys_by_content() && run_ids.keys_by_content() => judge(
                entries,
                judgements,
                (|j: &Judgement| j.key, |e: &RunEntry| e.key),
                |j: &Judgement, e: &RunEntry| qrels_ids.bytes_in_place(j.place) == run_ids.bytes_in_place(e.place),
                &mut workspace.judgements,
                found,
            ),
            None => judge(
                entries,
                judgements,
                (
                    |j: &Judgement| qrels_ids.content_hash_of(j.doc, j.key),
                    |e: &RunEntry| run_ids.content_hash_of(e.doc, e.key),
                ),
                |j: &Judgement, e: &RunEntry| qrels.judgement_bytes(j) == run.entry_bytes(e),
                &mut workspace.judgements,
                found,
            ),
        }
    }
    // Rank.
    workspace.order.clear();
    match options.ties {
        TiePolicy::TrecEval => {
            // One 64-bit word per entry: the score's descending key in the high bits, the entry's index in the low
            // ones (a one-word comparison sorts about twice as fast as a (key, index) pair in wasm). Entries whose
            // keys agree on the high bits — equal scores, or scores within a few ulps — come out side by side;
            // each such group is re-sorted by (full key, docno descending): the order comparing (score, docno)
            // pairs gives.
            let index_bits = u64::BITS - (n as u64).leading_zeros();
            let low = (1u64 << index_bits) - 1;
            let packed = &mut workspace.packed;
            packed.clear();
            packed.extend(entries.iter().enumerate().map(|(i, e)| (descending_key(e.score) & !low) | i as u64));
            packed.sort_unstable();
            let mut start = 0;
            while start < packed.len() {
                let high = packed[start] & !low;
                let mut end = start + 1;
                while end < packed.len() && packed[end] & !low == high {
                    end += 1;
                }
                if end - start > 1 {
                    packed[start..end].sort_unstable_by(|a, b| {
                        let (a, b) = (&entries[(a & low) as usize], &entries[(b & low) as usize]);
                        descending_key(a.score)
                            .cmp(&descending_key(b.score))
                            .then_with(|| run.entry_bytes(b).cmp(run.entry_bytes(a)))
                    });
                }
                start = end;
            }
            workspace.order.extend(packed.iter().map(|&p| (p & low) as u32));
        }
        // Entries are stored in input order already.
        TiePolicy::Input => workspace.order.extend(0..n as u32),
    }
    if let Some(max) = options.max_results {
        workspace.order.truncate(max);
    }
    if options.judged_only {
        // trec_eval 10.0's form_res_rels keeps `rel >= 0` only: a document judged with a negative grade ("in
        // the pool but unjudged", UNJUDGED_IN_POOL) goes as one absent from the qrels does.
        let rel_of_entry = &workspace.rel_of_entry;
        workspace.order.retain(|&i| rel_of_entry[i as usize] >= 0);
    }
    // Relevance by rank and counts.
    let order = &workspace.order;
    out.rels.clear();
    out.rels.extend(order.iter().map(|&i| workspace.rel_of_entry[i as usize]));
    out.judgement_at_rank.clear();
    out.judgement_at_rank.extend(order.iter().map(|&i| workspace.judgement_of_entry[i as usize]));
    out.entry_at_rank.clear();
    out.entry_at_rank.extend_from_slice(order);
    out.relevance_level = relevance_level;
    out.num_rel_ret = 0;
    out.num_nonpool = 0;
    out.num_unjudged_in_pool = 0;
    for &rel in &out.rels {
        match rel {
            NOT_IN_POOL => out.num_nonpool += 1,
            UNJUDGED_IN_POOL => out.num_unjudged_in_pool += 1,
            _ if rel >= relevance_level => out.num_rel_ret += 1,
            _ => {}
        }
    }
    out.num_ret = out.rels.len() as u64;
    out.num_rel = judged.map_or(0, |(_, q)| q.num_relevant(relevance_level));
}

/// Looks every entry up among the query's judgements, writing its relevance value and judgement index into `found`
/// (left as they are for an entry nobody judged). `keys` hash a judgement's and an entry's document alike; `same`
/// says whether they are the same document.
fn judge<'a>(
    entries: &[RunEntry],
    judgements: &[Judgement],
    keys: (impl Fn(&Judgement) -> u32, impl Fn(&RunEntry) -> u32),
    same: impl Fn(&Judgement, &RunEntry) -> bool,
    table: &mut DocnoIndex,
    found: impl Iterator<Item = (&'a mut i64, &'a mut u32)>,
) {
    table.reset(judgements.len(), 8);
    for (j, judgement) in judgements.iter().enumerate() {
        // a query's judgements name each document once (the qrels refuse a second): none is found already
        table.insert(j as u32, keys.0(judgement), |_| false);
    }
    for (entry, (rel, judgement_index)) in entries.iter().zip(found) {
        if let Some(j) = table.find(keys.1(entry), |j| same(&judgements[j as usize], entry)) {
            let grade = judgements[j as usize].grade;
            *rel = if grade < 0 { UNJUDGED_IN_POOL } else { grade };
            *judgement_index = j;
        }
    }
}

/// The ranking trec_eval `-c` substitutes for a query of the qrels missing from the run: one document
/// (`ceci_nest_pas_un_docno`) that is in no pool. Measures computed on it are then fixed up by the caller
/// (num_ret, utility, relstring, unj, rbp_resid reset) exactly as trec_eval does.
pub fn missing_query_ranking(query_qrels: &QueryQrels, relevance_level: i64, out: &mut RankedRelevance) {
    out.rels.clear();
    out.rels.push(NOT_IN_POOL);
    out.judgement_at_rank.clear();
    out.judgement_at_rank.push(NO_JUDGEMENT);
    out.entry_at_rank.clear();
    out.entry_at_rank.push(NO_ENTRY);
    out.num_ret = 1;
    out.num_rel = query_qrels.num_relevant(relevance_level);
    out.num_rel_ret = 0;
    out.num_nonpool = 1;
    out.num_unjudged_in_pool = 0;
    out.relevance_level = relevance_level;
}
