//! The wasm modules' global allocator: dlmalloc (std's allocator on wasm32-unknown-unknown) over a linear memory
//! that grows in larger steps: by 1 MiB at least, and once the memory holds 64 MiB by an eighth of it at least —
//! except while a model loads or runs a batch (`memory_budget::ModelWork`), when the steps stay 1 MiB.
//!
//! Why: std's dlmalloc grows the memory by what each request lacks, 64 KiB pages at a time, so building a large
//! input grows it thousands of times — and V8 runs a full garbage collection of the JavaScript heap every few
//! `memory.grow`s (Node 20: 11,199 one-page grows to 700 MiB ran 1,432 mark-compacts). Parsing a 10M-line run took
//! 11 s the first time against 2.6 s once the memory had grown; with a caller's 4M-id arrays alive (each
//! collection marks them) building a run from columns took 40 s against 1 s. With these steps any size is
//! reached in under a hundred grows. A model's memory is the other way round: few, large requests, and a peak
//! that stays the instance's size for its life (an edge isolate is charged for it), so there the memory stays
//! within 1 MiB of what was asked for. A step stops at the smallest `memoryBudgetMiB` given
//! (`memory_budget::growth_ceiling`): only a request that needs more passes a budget.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;

use core::arch::wasm32;
use dlmalloc::{Allocator, Dlmalloc};

#[cfg(feature = "models")]
use rerankit::inference::memory_budget::{growth_ceiling, model_work_in_progress};

/// The eval module runs no models, so no memory budget bounds its steps.
#[cfg(not(feature = "models"))]
fn growth_ceiling() -> usize {
    usize::MAX
}

#[cfg(not(feature = "models"))]
fn model_work_in_progress() -> bool {
    false
}

const PAGE: usize = 64 * 1024;
const MIN_STEP: usize = 1 << 20;
const LARGE_MEMORY: usize = 64 << 20;

/// dlmalloc's view of the linear memory: regions taken by `memory.grow`, in the steps above.
struct GrowingMemory;

unsafe impl Allocator for GrowingMemory {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        let needed = size.div_ceil(PAGE);
        let pages_now = wasm32::memory_size(0);
        let eighths = pages_now >= LARGE_MEMORY / PAGE && !model_work_in_progress();
        let step = needed.max(if eighths { pages_now / 8 } else { MIN_STEP / PAGE });
        // A memory budget is passed only where a request needs it, never by a step.
        let step = step.min(needed.max((growth_ceiling() / PAGE).saturating_sub(pages_now)));
        // Near the 4 GiB limit the step may not fit where the request would: then grow by the request alone.
        for pages in [step, needed] {
            let previous = wasm32::memory_grow(0, pages);
            if previous != usize::MAX {
                let base = previous * PAGE;
                let mut bytes = pages * PAGE;
                // The top of the 32-bit address space: a region may not end at address 0 (dlmalloc's own rule).
                if base.wrapping_add(bytes) == 0 {
                    bytes -= 16;
                }
                return (base as *mut u8, bytes, 0);
            }
        }
        (std::ptr::null_mut(), 0, 0)
    }

    fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
        std::ptr::null_mut()
    }

    fn free_part(&self, _ptr: *mut u8, _old: usize, _new: usize) -> bool {
        false
    }

    /// Linear memory never shrinks: dlmalloc keeps freed regions for later requests.
    fn free(&self, _ptr: *mut u8, _size: usize) -> bool {
        false
    }

    fn can_release_part(&self, _flags: u32) -> bool {
        false
    }

    fn allocates_zeros(&self) -> bool {
        true
    }

    fn page_size(&self) -> usize {
        PAGE
    }
}

/// dlmalloc on [`GrowingMemory`], as a global allocator.
pub struct WasmAllocator(UnsafeCell<Dlmalloc<GrowingMemory>>);

// The modules are built without the atomics feature: one thread, never re-entered.
unsafe impl Sync for WasmAllocator {}

impl WasmAllocator {
    pub const fn new() -> WasmAllocator {
        WasmAllocator(UnsafeCell::new(Dlmalloc::new_with_allocator(GrowingMemory)))
    }

    #[allow(clippy::mut_from_ref)]
    fn dlmalloc(&self) -> &mut Dlmalloc<GrowingMemory> {
        unsafe { &mut *self.0.get() }
    }
}

unsafe impl GlobalAlloc for WasmAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { self.dlmalloc().malloc(layout.size(), layout.align()) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe { self.dlmalloc().calloc(layout.size(), layout.align()) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { self.dlmalloc().free(ptr, layout.size(), layout.align()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe { self.dlmalloc().realloc(ptr, layout.size(), layout.align(), new_size) }
    }
}
