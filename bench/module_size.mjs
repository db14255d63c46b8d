#!/usr/bin/env node
// What a wasm module's code is made of: `node bench/module_size.mjs FILE.wasm [--top 30]` sums each function
// body's bytes by the crate its name starts with (the names come from the module's name section, so measure
// wasm-bindgen's output before wasm-opt, which strips them) and lists the largest functions. Sizes are raw bytes
// of the code section; gzip shrinks every crate's share about alike.
import { readFileSync } from "node:fs";

const file = process.argv[2];
if (!file) {
  console.error("usage: node bench/module_size.mjs FILE.wasm [--top N]");
  process.exit(2);
}
const i = process.argv.indexOf("--top");
const TOP = i > 0 ? Number(process.argv[i + 1]) : 30;
const bytes = readFileSync(file);

let at = 0;
const u32 = () => {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return result;
  }
};
const name = () => {
  const n = u32();
  const s = bytes.toString("utf8", at, at + n);
  at += n;
  return s;
};

let importedFunctions = 0;
let code = null;
const names = new Map();
at = 8;
while (at < bytes.length) {
  const id = bytes[at++];
  const size = u32();
  const end = at + size;
  if (id === 2) {
    for (let n = u32(); n > 0; n--) {
      name();
      name();
      const kind = bytes[at++];
      if (kind === 0) { u32(); importedFunctions++; }
      else if (kind === 1) { at++; const flags = u32(); u32(); if (flags & 1) u32(); }
      else if (kind === 2) { const flags = u32(); u32(); if (flags & 1) u32(); }
      else if (kind === 3) at += 2;
    }
  } else if (id === 10) {
    code = { start: at, end };
  } else if (id === 0 && name() === "name") {
    while (at < end) {
      const sub = bytes[at++];
      const length = u32();
      const subEnd = at + length;
      if (sub === 1) for (let n = u32(); n > 0; n--) { const index = u32(); names.set(index, name()); }
      at = subEnd;
    }
  }
  at = end;
}
if (!code) throw new Error(`${file}: no code section`);
if (names.size === 0) console.warn(`${file}: no name section (wasm-opt strips it): every function counts as "?"`);

at = code.start;
const byCrate = new Map();
const functions = [];
for (let n = u32(), f = 0; f < n; f++) {
  const size = u32();
  const fname = names.get(importedFunctions + f) ?? "?";
  // `<tract_core::ops::… as …>::eval` and `tract_core::…` both belong to tract_core
  const crate = fname.match(/^[<&\s]*([A-Za-z_][A-Za-z0-9_]*)/)?.[1] ?? "?";
  const entry = byCrate.get(crate) ?? { bytes: 0, functions: 0 };
  entry.bytes += size;
  entry.functions++;
  byCrate.set(crate, entry);
  functions.push([size, fname]);
  at += size;
}
const total = [...byCrate.values()].reduce((s, e) => s + e.bytes, 0);
console.log(`${file}: ${(total / 1e6).toFixed(2)} MB of code in ${functions.length} functions`);
console.log("   bytes  share  functions  crate");
for (const [crate, e] of [...byCrate].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, TOP)) {
  console.log(`${String(e.bytes).padStart(8)} ${((100 * e.bytes) / total).toFixed(1).padStart(5)}% ${String(e.functions).padStart(10)}  ${crate}`);
}
console.log("largest functions:");
for (const [size, fname] of functions.sort((a, b) => b[0] - a[0]).slice(0, 10)) console.log(`${String(size).padStart(8)}  ${fname.slice(0, 140)}`);
