// Models as the Hub ships them, in the built package (wasm): every family (BERT with 1 and 2 logits, DistilBERT,
// XLM-R with a Unigram tokenizer, ELECTRA, ModernBERT with byte-level BPE, a BERT embedder) × every export form
// in tests/fixtures/hub (torch.onnx TorchScript opset 14/17, dynamo with weights inside and in `.onnx.data`,
// optimum O1–O4, onnxruntime's fused graph, quantize_dynamic QUInt8/QInt8/per channel, fp16, MatMulNBits 4-bit),
// made by tests/fixtures/gen/make_hub_models.py with the real toolchains. Each form must match onnxruntime:
// fp32 forms within 1e-4 (of onnxruntime on the same file and on model.onnx); fp16 forms within 2× onnxruntime-
// fp16's own distance from fp32; quantised forms within 2× onnxruntime's distance from fp32 on the same file.
// Token ids must equal the `tokenizers` library's. The same table runs natively in tests/inference/hub_exports.rs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CrossEncoder, Embedder } from "rerankit";

const hub = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/hub");
const references = readdirSync(path.join(hub, "references")).filter((f) => f.endsWith(".json")).sort()
  .map((f) => JSON.parse(readFileSync(path.join(hub, "references", f), "utf8")));

const maxDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
const lossy = (form) => /fp16|O4|quant|int8|uint8|q4/.test(form);

for (const ref of references) {
  test(`${ref.repo}: every export form matches onnxruntime`, async (t) => {
    const repo = path.join(hub, ref.repo);
    const fp32 = ref.outputs.model.flat();
    const failures = [];
    for (const [form, meta] of Object.entries(ref.forms)) {
      if (!ref.outputs[form]) continue;
      const ort = ref.outputs[form].flat();
      const files = { model: path.join(repo, meta.file), tokenizer: path.join(repo, "tokenizer.json"), config: path.join(repo, "config.json") };
      let ours;
      try {
        if (ref.output === "last_hidden_state") {
          const e = await Embedder.load(files);
          ours = (await e.embed(ref.texts, { batchSize: 4 })).flatMap((v) => Array.from(v));
          e.free();
        } else {
          const ce = await CrossEncoder.load(files);
          assert.equal(ce.maxLength, ref.window, `${form}: window`);
          ref.pairs.forEach(([q, d], i) => assert.deepEqual(ce.encodePair(q, d).inputIds, ref.tokens[i].ids, `${form}: tokens of pair ${i}`));
          ours = Array.from(await ce.score(ref.pairs, { batchSize: 4 }));
          ce.free();
        }
      } catch (e) {
        failures.push(`${form}: ${e.code ?? ""} ${e.message}`);
        continue;
      }
      const vsFp32 = maxDiff(ours, fp32), vsForm = maxDiff(ours, ort), ortVsFp32 = maxDiff(ort, fp32);
      const limit = lossy(form) ? Math.max(2 * ortVsFp32, 1e-5) : 1e-4;
      t.diagnostic(`${form}: vs ort(form) ${vsForm.toExponential(1)}, vs fp32 ${vsFp32.toExponential(1)} (ort ${ortVsFp32.toExponential(1)}, limit ${limit.toExponential(1)})`);
      if (vsFp32 > limit) failures.push(`${form}: ${vsFp32} from onnxruntime fp32 (limit ${limit})`);
      if (!lossy(form) && vsForm > 1e-4) failures.push(`${form}: ${vsForm} from onnxruntime on the same file`);
    }
    assert.deepEqual(failures, []);
  });
}

test("XLM-R loaded from the model and tokenizer alone (no config.json): window from the graph, long pairs, free()", async () => {
  const repo = path.join(hub, "rerankit-test/tiny-xlm-roberta-reranker");
  const ce = await CrossEncoder.load({ model: path.join(repo, "onnx/model.onnx"), tokenizer: path.join(repo, "tokenizer.json") });
  assert.equal(ce.maxLength, 128);
  const [s] = await ce.score([["query", "word ".repeat(3000)]]);
  assert.ok(Number.isFinite(s));
  ce.free();
  await assert.rejects(CrossEncoder.load({ model: path.join(repo, "onnx/model.onnx"), tokenizer: path.join(repo, "tokenizer.json"), maxLength: 130 }),
    (e) => e.code === "INVALID_ARGUMENT" && /maxLength/.test(e.message));
});

test("a tokenizer of another model is refused (TOKENIZER)", async () => {
  const file = (r, f) => path.join(hub, "rerankit-test", r, f);
  for (const [model, tokenizer] of [["tiny-bert-reranker", "tiny-xlm-roberta-reranker"], ["tiny-distilbert-reranker", "tiny-modernbert-reranker"]]) {
    await assert.rejects(CrossEncoder.load({ model: file(model, "onnx/model.onnx"), tokenizer: file(tokenizer, "tokenizer.json"), config: file(model, "config.json") }),
      (e) => e.code === "TOKENIZER" && /belongs to another model/.test(e.message), `${model} + ${tokenizer}`);
  }
});

test("external data: beside a path, given as bytes, or missing (named)", async () => {
  const repo = path.join(hub, "rerankit-test/tiny-bert-reranker");
  const ref = references.find((r) => r.repo === "rerankit-test/tiny-bert-reranker");
  const tokenizer = path.join(repo, "tokenizer.json");
  const modelPath = path.join(repo, "onnx/model_external.onnx");
  const bytes = readFileSync(modelPath);
  const data = readFileSync(path.join(repo, "onnx/model_external.onnx.data"));
  for (const externalData of [undefined, data, { "model_external.onnx.data": data }]) {
    const ce = await CrossEncoder.load({ model: externalData === undefined ? modelPath : bytes, tokenizer, externalData });
    assert.ok(maxDiff(Array.from(await ce.score(ref.pairs)), ref.outputs.model.flat()) <= 1e-4);
    ce.free();
  }
  await assert.rejects(CrossEncoder.load({ model: bytes, tokenizer }), (e) => e.code === "INVALID_ARGUMENT" && /model_external\.onnx\.data/.test(e.message));
  await assert.rejects(CrossEncoder.load({ model: bytes, tokenizer, externalData: data.subarray(0, 100) }), (e) => e.code === "MODEL_LOAD" && /truncated/.test(e.message));
});
