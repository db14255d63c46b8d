//! `memoryBudgetMiB`: a cap on the memory a model's calls may hold, honoured by choosing how many rows each batch
//! runs, never by stopping a batch half-way.
//!
//! In wasm, memory only grows: the peak of a call is what it costs for the life of the instance, and an edge
//! isolate (128 MB per Cloudflare Worker) is killed when it passes its limit. A batch's activations grow with its
//! rows × padded length, so the rows a batch may run follow from three numbers:
//!
//! - the room: the budget less the memory the last model load left (its holes — the weights' first copies, freed
//!   once packed — may not fit a batch's large tensors, so none of it is counted on), less the bytes held since
//!   that load (the call's tokens, the caller's objects: counted exactly by [`CountingAllocator`], which the wasm
//!   modules install), less a reserve for the allocator's fragmentation. Memory that earlier calls grew is counted
//!   on: their activations are freed when they end;
//! - the model's [`ActivationCost`], read from its layer widths;
//! - `batchSize`, the most rows a batch runs whatever the budget.
//!
//! Without a budget, a batch's activations are held to [`UNBUDGETED_BATCH_BYTES`] (so at least one row): fewer
//! rows than `batchSize` on long windows, whose tensors then fit the holes the load left instead of growing the
//! memory, and which run no slower (docs/inference.md has the measurements).
//!
//! A budget that the load itself passes, or that leaves no room for one row of `maxLength` tokens, is refused at
//! load (`INVALID_ARGUMENT` naming `memoryBudgetMiB` with the MiB needed). The rule is conservative: it may refuse
//! a budget that would have held (a batch's tensors often fit the load's holes); every budget it accepted held in
//! the measurements (docs/inference.md, tests/node/memory_budget.test.mjs, `bench/runtimes.mjs --memory-budget`).

use super::model_info::ModelInfo;
use crate::{Error, Result};
use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Bytes in a MiB, the unit of `memoryBudgetMiB`.
pub const MIB: usize = 1 << 20;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// A global allocator that counts the bytes held (and the peak since [`reset_peak`]) around another one. The wasm
/// bindings install it; without it [`held_bytes`] is `None` and a budget is refused.
pub struct CountingAllocator<A>(pub A);

unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAllocator<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { self.0.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { self.0.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { self.0.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            HELD.fetch_sub(layout.size(), Relaxed);
            grew(new_size);
        }
        p
    }
}

fn grew(size: usize) {
    let held = HELD.fetch_add(size, Relaxed) + size;
    PEAK.fetch_max(held, Relaxed);
}

/// Bytes held now, when [`CountingAllocator`] is the global allocator (a running program always holds some).
pub fn held_bytes() -> Option<usize> {
    Some(HELD.load(Relaxed)).filter(|&n| n > 0)
}

/// The most bytes held at once since the last [`reset_peak`].
pub fn peak_bytes() -> usize {
    PEAK.load(Relaxed)
}

/// Starts a new peak from what is held now.
pub fn reset_peak() {
    PEAK.store(HELD.load(Relaxed), Relaxed);
}

/// What a batch's activations cost at their peak, in bytes, read from the model's layer widths and calibrated on
/// the wasm build (the peak held bytes of batches of 1–16 rows × 108–512 tokens, `__memoryStats`): a layer peaks
/// either in its feed-forward block (its input, the `widest`-wide product and that product's activation) or in
/// attention (the rows' Q, K, V and context, with one head's `len × len` scores, softmax scratch and product,
/// which [`super::headwise_attention`] keeps to one head whatever the rows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActivationCost {
    /// Bytes per row-token in the feed-forward block.
    pub feed_forward_per_token: usize,
    /// Bytes per row-token in attention.
    pub attention_per_token: usize,
    /// Bytes per `len²` in attention, whatever the rows.
    pub per_square: usize,
    /// Rows run one at a time whatever the batch (graphs that quantise activations at run time: src/inference/cpu.rs).
    pub rows_alone: bool,
}

impl ActivationCost {
    /// The cost of a transformer whose widest activation is `widest` floats per token and whose hidden state is
    /// `hidden` floats. Measured against given: ce-probe (384 / 1536) 6.84 MiB for a 512-token row (7.50 given), 108.3
    /// for 16 rows (111.0); small-ce-1 (96 / 384) 4.03 (4.13).
    pub fn of_transformer(widest: usize, hidden: usize, rows_alone: bool) -> ActivationCost {
        ActivationCost {
            feed_forward_per_token: 4 * (2 * widest + hidden + hidden / 4),
            attention_per_token: 4 * 6 * hidden,
            per_square: 4 * 3,
            rows_alone,
        }
    }

    /// Bytes of one batch of `rows` sequences padded to `len`.
    pub fn batch_bytes(&self, rows: usize, len: usize) -> usize {
        let tokens = if self.rows_alone { rows.min(1) } else { rows }.saturating_mul(len);
        let feed_forward = tokens.saturating_mul(self.feed_forward_per_token);
        let attention = tokens.saturating_mul(self.attention_per_token).saturating_add(len.saturating_mul(len).saturating_mul(self.per_square));
        if rows == 0 {
            0
        } else {
            feed_forward.max(attention)
        }
    }
}

/// Room kept free for the allocator's own fragmentation within a call.
const RESERVE: usize = MIB;

/// The most a batch's activations take without a budget. fp32 MiniLM-L6 (ce-probe) in Node: 2 rows at 512 tokens,
/// 4 at 256; larger batches there ran slower (16 rows: 1.3× the time at 512 tokens) and grew the memory by ~96
/// MiB past the load's, where these fit the load's holes.
pub const UNBUDGETED_BATCH_BYTES: usize = 16 * MIB;

/// The memory size when the last model finished loading, and the bytes then held: what a call cannot count on.
static LOADED_MEMORY: AtomicUsize = AtomicUsize::new(0);
static LOADED_HELD: AtomicUsize = AtomicUsize::new(0);

/// Model loads and batch runs in progress (see [`ModelWork`]).
static MODEL_WORK: AtomicUsize = AtomicUsize::new(0);

/// A model load or batch run in progress, for as long as it lives. While one is, the wasm bindings' allocator
/// grows the memory by what each request lacks (1 MiB steps) instead of by eighths: a model's peak is what an edge
/// isolate is charged for the rest of its life, and an eighth of a 180 MiB memory is a 22 MiB step that no request
/// needed (an fp32 load that needed 184 MiB left 202). Elsewhere (the metrics' large inputs) the eighths stay.
pub struct ModelWork(());

impl ModelWork {
    pub fn begin() -> ModelWork {
        MODEL_WORK.fetch_add(1, Relaxed);
        ModelWork(())
    }
}

impl Drop for ModelWork {
    fn drop(&mut self) {
        MODEL_WORK.fetch_sub(1, Relaxed);
    }
}

/// Whether a [`ModelWork`] is alive.
pub fn model_work_in_progress() -> bool {
    MODEL_WORK.load(Relaxed) > 0
}

/// The smallest budget given in this instance (bytes; `usize::MAX` before any): see [`growth_ceiling`].
static GROWTH_CEILING: AtomicUsize = AtomicUsize::new(usize::MAX);

/// The size the linear memory may reach by an allocator's own choice. The wasm bindings' allocator grows the
/// memory in steps larger than the requests; it stops its steps at the smallest budget a model of this instance
/// was given, so that a budget is never passed by a step that no request needed.
pub fn growth_ceiling() -> usize {
    GROWTH_CEILING.load(Relaxed)
}

/// A budget in bytes, read from `memoryBudgetMiB`; reading one lowers [`growth_ceiling`] to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryBudget {
    pub bytes: usize,
}

impl MemoryBudget {
    /// `memoryBudgetMiB` (a finite number of MiB > 0), when this build counts what it holds.
    pub fn from_mib(mib: f64) -> Result<MemoryBudget> {
        if !(mib.is_finite() && mib > 0.0) {
            return Err(Error::invalid("memoryBudgetMiB", format!("must be a finite number of MiB > 0, got {mib}")));
        }
        if held_bytes().is_none() || memory_bytes().is_none() {
            return Err(Error::unsupported("memoryBudgetMiB: only the wasm modules count the memory they hold"));
        }
        let budget = MemoryBudget { bytes: (mib * MIB as f64) as usize };
        GROWTH_CEILING.fetch_min(budget.bytes, Relaxed);
        Ok(budget)
    }

    /// Bytes a batch may add now: the room of the module's doc.
    pub fn room(&self) -> usize {
        let held_since = held_bytes().unwrap_or(0).saturating_sub(LOADED_HELD.load(Relaxed));
        self.bytes.saturating_sub(LOADED_MEMORY.load(Relaxed) + held_since + RESERVE)
    }
}

/// Records the memory a finished load leaves (see [`MemoryBudget::room`]); every model load calls it once the
/// model is whole (plan and tokenizer), budgeted or not: each load moves the floor a budgeted model's calls cannot
/// count on.
pub fn loaded() {
    if let (Some(memory), Some(held)) = (memory_bytes(), held_bytes()) {
        LOADED_MEMORY.store(memory, Relaxed);
        LOADED_HELD.store(held, Relaxed);
    }
}

/// How many rows a batch may hold: at most `rows`, and within `room` bytes at `cost` when the model's costs are
/// known — the room a budget leaves, or [`UNBUDGETED_BATCH_BYTES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchLimit {
    pub rows: usize,
    pub bytes: Option<(usize, ActivationCost)>,
    /// Whether the room is a budget's: only then is a row that does not fit refused (else it runs alone).
    pub budgeted: bool,
}

impl BatchLimit {
    /// `batchSize` rows, whatever they cost.
    pub fn rows(rows: usize) -> BatchLimit {
        BatchLimit { rows, bytes: None, budgeted: false }
    }

    /// The rows a batch padded to `len` may hold (0 when not even one fits: refused under a budget, else run alone).
    pub fn rows_at(&self, len: usize) -> usize {
        match self.bytes {
            None => self.rows,
            Some((room, cost)) => {
                // the cost grows with the rows: the most that fit, found by halving
                let (mut fits, mut over) = (0, self.rows + 1);
                while over - fits > 1 {
                    let mid = fits + (over - fits) / 2;
                    if cost.batch_bytes(mid, len) <= room { fits = mid } else { over = mid }
                }
                fits
            }
        }
    }

    /// `INVALID_ARGUMENT` naming `memoryBudgetMiB` when a row of `len` tokens does not fit.
    pub fn check(&self, len: usize) -> Result<()> {
        match self.bytes {
            Some((room, cost)) if self.budgeted && len > 0 && self.rows_at(len) == 0 => Err(Error::invalid(
                "memoryBudgetMiB",
                format!(
                    "too small: a {len}-token row needs {:.1} MiB beside the loaded model, and the budget leaves {:.1} MiB (raise the budget or lower maxLength)",
                    cost.batch_bytes(1, len) as f64 / MIB as f64,
                    room as f64 / MIB as f64
                ),
            )),
            _ => Ok(()),
        }
    }
}

/// The size of this instance's linear memory (wasm only): what a budget bounds.
pub fn memory_bytes() -> Option<usize> {
    #[cfg(target_arch = "wasm32")]
    return Some(core::arch::wasm32::memory_size(0) * 65536);
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// A model's budget, if it has one, and what its batches cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelMemory {
    budget: Option<MemoryBudget>,
    cost: ActivationCost,
}

impl ModelMemory {
    /// `budget` for a model of `info`, just loaded, whose rows run alone or together and fill windows of
    /// `max_length` tokens (`None` when the layer widths are not found and there is no budget: batches of
    /// `batchSize`). Refused: a budget for a graph whose layer widths are not found (its batches' cost would be a
    /// guess), a load that grew the memory past the budget, a budget with no room for one row of `max_length`
    /// tokens.
    pub fn of_loaded(budget: Option<MemoryBudget>, info: &ModelInfo, rows_alone: bool, max_length: usize) -> Result<Option<ModelMemory>> {
        let (Some(widest), Some(hidden)) = (info.widest, info.hidden) else {
            return match budget {
                None => Ok(None),
                Some(_) => Err(Error::unsupported("memoryBudgetMiB: the layer widths of this graph were not found (no word-embedding table)")),
            };
        };
        let cost = ActivationCost::of_transformer(widest, hidden, rows_alone);
        let Some(budget) = budget else { return Ok(Some(ModelMemory { budget: None, cost })) };
        let mib = |bytes: usize| bytes as f64 / MIB as f64;
        if let Some(memory) = memory_bytes().filter(|&m| m > budget.bytes) {
            return Err(Error::invalid(
                "memoryBudgetMiB",
                format!("too small: loading this model took {:.1} MiB of memory, over the budget of {:.1} MiB", mib(memory), mib(budget.bytes)),
            ));
        }
        let memory = ModelMemory { budget: Some(budget), cost };
        memory.limit(1).check(max_length)?;
        Ok(Some(memory))
    }

    /// At most `rows` per batch, within the room the budget leaves now, or [`UNBUDGETED_BATCH_BYTES`].
    pub fn limit(&self, rows: usize) -> BatchLimit {
        match self.budget {
            Some(budget) => BatchLimit { rows, bytes: Some((budget.room(), self.cost)), budgeted: true },
            None => BatchLimit { rows, bytes: Some((UNBUDGETED_BATCH_BYTES, self.cost)), budgeted: false },
        }
    }
}

/// At most `rows` per batch, within `memory`'s room when its costs are known.
pub fn batch_limit(memory: Option<&ModelMemory>, rows: usize) -> BatchLimit {
    memory.map_or(BatchLimit::rows(rows), |m| m.limit(rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    const COST: ActivationCost = ActivationCost { feed_forward_per_token: 1000, attention_per_token: 500, per_square: 10, rows_alone: false };

    #[test]
    fn a_batch_costs_its_larger_phase() {
        // 512 tokens: feed-forward 512,000 per row; attention 256,000 per row + 2,621,440
        assert_eq!(COST.batch_bytes(1, 512), 256_000 + 2_621_440);
        assert_eq!(COST.batch_bytes(16, 512), 16 * 512_000);
        assert_eq!(COST.batch_bytes(0, 512), 0);
        let alone = ActivationCost { rows_alone: true, ..COST };
        assert_eq!(alone.batch_bytes(16, 512), COST.batch_bytes(1, 512));
    }

    #[test]
    fn rows_follow_the_room_and_the_cap() {
        let limit = BatchLimit { rows: 16, bytes: Some((5_120_000, COST)), budgeted: true };
        // 10 rows would fit the feed-forward block (5,120,000) but not attention (5,181,440)
        assert_eq!(limit.rows_at(512), 9);
        assert_eq!(limit.rows_at(8), 16);
        assert_eq!(BatchLimit::rows(16).rows_at(512), 16);
        let alone = BatchLimit { rows: 16, bytes: Some((3_000_000, ActivationCost { rows_alone: true, ..COST })), budgeted: true };
        assert_eq!(alone.rows_at(512), 16);
    }

    #[test]
    fn a_row_that_cannot_fit_is_refused_naming_the_option() {
        let limit = BatchLimit { rows: 16, bytes: Some((1000, COST)), budgeted: true };
        assert_eq!(limit.rows_at(512), 0);
        let e = limit.check(512).unwrap_err();
        assert!(e.message.starts_with("memoryBudgetMiB: too small"), "{}", e.message);
        assert!(limit.check(0).is_ok());
        // without a budget the row runs alone (the batcher takes at least one row)
        assert!(BatchLimit { budgeted: false, ..limit }.check(512).is_ok());
    }

    #[test]
    fn without_a_budget_long_windows_run_fewer_rows() {
        // ce-probe's widths (MiniLM-L6: 384 hidden, 1536 feed-forward)
        let cost = ActivationCost::of_transformer(1536, 384, false);
        let memory = ModelMemory { budget: None, cost };
        assert_eq!(memory.limit(16).rows_at(512), 2);
        assert_eq!(memory.limit(16).rows_at(256), 4);
        assert_eq!(memory.limit(16).rows_at(64), 16);
        assert_eq!(memory.limit(1).rows_at(512), 1);
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn natively_a_budget_is_unsupported() {
        // no linear memory to bound (and the test binary counts nothing)
        assert_eq!(MemoryBudget::from_mib(64.0).unwrap_err().code, crate::ErrorCode::Unsupported);
    }

    #[test]
    fn a_budget_is_a_positive_finite_number() {
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(MemoryBudget::from_mib(bad).unwrap_err().message.starts_with("memoryBudgetMiB"));
        }
    }
}
