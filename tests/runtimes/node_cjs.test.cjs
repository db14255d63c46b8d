// CommonJS: `require("rerankit")` loads the Node entry (an ES module without top-level await) through Node's
// require(esm), unflagged since Node 20.19 / 22.12. It must be the very module `import` gives — one wasm instance.
const { test } = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { homedir } = require("node:os");

test("require('rerankit') reranks and evaluates, sharing the ES module's instance", async () => {
  const rr = require("rerankit");
  const esm = await import("rerankit");
  assert.equal(rr.CrossEncoder, esm.CrossEncoder, "require and import give the same module");
  const { scenario, MODEL, MODEL_FILE, DOCUMENTS } = await import("./scenario.mjs");
  const dir = path.join(process.env.RERANKIT_MODELS ?? path.join(homedir(), ".cache", "rerankit", "models"), MODEL);
  const result = await scenario(rr, { model: path.join(dir, MODEL_FILE), tokenizer: path.join(dir, "tokenizer.json") });
  assert.equal(result.errorCode, "INVALID_ARGUMENT");
  assert.deepEqual(result.rerank.map((r) => r.index).sort(), DOCUMENTS.map((_, i) => i));
  assert.equal(result.ids[0], new esm.Document({ content: DOCUMENTS[0] }).id);
  console.log(`runtime passed: node ${process.version} CommonJS require`);
});
