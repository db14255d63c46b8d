// The Workers module (scripts/build.mjs: relaxed SIMD without tract and wgpu, its CPU plan the BERT engine; the
// package's workerd entry, pkg/dist/workers) loaded in Node the way workerd loads it — a compiled module handed to
// its own glue —, in a child with --experimental-wasm-relaxed-simd (Node 20 has relaxed SIMD only behind it). On
// every Hub export form of tests/fixtures/hub it must match onnxruntime within hub_models.test.mjs's limits (fp32
// forms 1e-4 of onnxruntime on the same file; fp16 and int8 forms within twice onnxruntime's own distance from
// fp32), or refuse the form as UNSUPPORTED where the BERT engine does not read it (onnxruntime's fused graphs, 4-bit
// weights, ModernBERT) — never a wrong answer. workerd itself runs this module in tests/runtimes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const hub = path.join(root, "tests/fixtures/hub");
const workers = path.join(root, "pkg/dist/workers");
const models = process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models");
const references = readdirSync(path.join(hub, "references")).filter((f) => f.endsWith(".json")).sort()
  .map((f) => JSON.parse(readFileSync(path.join(hub, "references", f), "utf8")));

// child: what workerd.ts does, then every form of every reference
if (process.argv[2] === "--child") {
  const glue = await import(pathToFileURL(path.join(workers, "wasm/rerankit.js")).href);
  const { finishInit } = await import(pathToFileURL(path.join(workers, "runtimes/wasm_instance.js")).href);
  finishInit(glue.initSync({ module: new WebAssembly.Module(readFileSync(path.join(workers, "wasm/rerankit_bg.wasm"))) }), "relaxed-simd");
  const { CrossEncoder, Embedder, wasmSimd } = await import(pathToFileURL(path.join(workers, "index.js")).href);
  const read = (...p) => new Uint8Array(readFileSync(path.join(...p)));
  const out = { simd: wasmSimd(), forms: {}, parity: null };
  for (const ref of references) {
    const repo = path.join(hub, ref.repo);
    for (const [form, meta] of Object.entries(ref.forms)) {
      if (!ref.outputs[form]) continue;
      const files = { model: read(repo, meta.file), tokenizer: read(repo, "tokenizer.json"), config: read(repo, "config.json") };
      if (existsSync(path.join(repo, meta.file + ".data"))) files.externalData = read(repo, meta.file + ".data");
      try {
        if (ref.output === "last_hidden_state") {
          const e = await Embedder.load(files);
          out.forms[`${ref.repo} ${form}`] = { values: (await e.embed(ref.texts, { batchSize: 4 })).flatMap((v) => Array.from(v)) };
          e.free();
        } else {
          const ce = await CrossEncoder.load(files);
          out.forms[`${ref.repo} ${form}`] = { values: Array.from(await ce.score(ref.pairs, { batchSize: 4 })) };
          ce.free();
        }
      } catch (e) {
        out.forms[`${ref.repo} ${form}`] = { error: { code: e.code, message: e.message } };
      }
    }
  }
  // a model of real size (ce-parity-1: 6 layers, 384 wide) on the first 10 of its reference pairs
  const dir = path.join(models, "ce-parity-1");
  const ref = JSON.parse(readFileSync(path.join(root, "tests/fixtures/models/reference/ce-parity-1.json"), "utf8"));
  const ce = await CrossEncoder.load({ model: read(dir, "model.onnx"), tokenizer: read(dir, "tokenizer.json"), config: read(dir, "config.json") });
  out.parity = Array.from(await ce.score(ref.pairs.slice(0, 10).map((p) => [p.query, p.passage]), { batchSize: 8 }));
  console.log(JSON.stringify(out));
  process.exit(0);
}

const maxDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
const lossy = (form) => /fp16|quant|int8|uint8/.test(form);
const unread = (ref, form) => ref.model_type === "modernbert" || /O2|O3|O4|ort_fused|q4/.test(form);

test("the Workers module matches onnxruntime on every Hub form the BERT engine reads, and refuses the rest as UNSUPPORTED", () => {
  const result = JSON.parse(execFileSync(process.execPath, ["--experimental-wasm-relaxed-simd", fileURLToPath(import.meta.url), "--child"],
    { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 }));
  assert.equal(result.simd, "relaxed-simd");
  const failures = [];
  let read = 0;
  for (const ref of references) {
    const fp32 = ref.outputs.model.flat();
    for (const form of Object.keys(ref.forms)) {
      if (!ref.outputs[form]) continue;
      const got = result.forms[`${ref.repo} ${form}`];
      if (unread(ref, form)) {
        if (got.error?.code !== "UNSUPPORTED") failures.push(`${ref.repo} ${form}: expected UNSUPPORTED, got ${JSON.stringify(got.error ?? "scores")}`);
        continue;
      }
      if (got.error) {
        failures.push(`${ref.repo} ${form}: ${got.error.code} ${got.error.message}`);
        continue;
      }
      read++;
      const ort = ref.outputs[form].flat();
      const limit = lossy(form) ? Math.max(2 * maxDiff(ort, fp32), 1e-5) : 1e-4;
      const distance = lossy(form) ? maxDiff(got.values, fp32) : maxDiff(got.values, ort);
      if (!(distance <= limit)) failures.push(`${ref.repo} ${form}: ${distance} from onnxruntime${lossy(form) ? " fp32" : ""} (limit ${limit})`);
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(read >= 40, `only ${read} forms read`);
  const expected = JSON.parse(readFileSync(path.join(root, "tests/fixtures/models/reference/ce-parity-1.json"), "utf8")).pairs.slice(0, 10).flatMap((p) => p.logits_fp32);
  assert.ok(maxDiff(result.parity, expected) <= 1e-4, `ce-parity-1: ${maxDiff(result.parity, expected)} from onnxruntime`);
});
