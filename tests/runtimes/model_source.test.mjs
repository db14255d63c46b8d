// Model delivery in Node through the public API: files fetched from a local HTTP server with progress events,
// cancellation (RerankitError ABORTED), HTTP errors, truncated downloads, and the `cache` option (a custom store,
// `false`, bad values). The Cache API itself (absent in Node) is exercised in Chromium and workerd by
// runtimes.test.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { CrossEncoder, RerankitError } from "rerankit";
import { MODEL, MODEL_FILE } from "./scenario.mjs";

const models = process.env.RERANKIT_MODELS ?? path.join(homedir(), ".cache", "rerankit", "models");
const modelBytes = readFileSync(path.join(models, MODEL, MODEL_FILE));
const tokenizerBytes = readFileSync(path.join(models, MODEL, "tokenizer.json"));

let server;
let base;
/** Requests per path, to tell downloads from cache hits. */
const hits = new Map();

before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    // One connection per request: Node's server closes idle keep-alive sockets after 5 s, and undici may reuse
    // one at that very moment ("fetch failed"), which would make these tests flaky for a reason not ours.
    res.setHeader("connection", "close");
    const body = url.pathname.startsWith("/model") ? modelBytes : url.pathname.startsWith("/tokenizer") ? tokenizerBytes : null;
    if (!body) return res.writeHead(404).end("no such file");
    if (url.pathname.startsWith("/model-truncated")) {
      // Announces the whole file, sends half, then drops the connection.
      res.writeHead(200, { "content-length": body.byteLength });
      res.write(body.subarray(0, body.byteLength >> 1), () => res.destroy());
      return;
    }
    if (url.pathname.startsWith("/model-slow")) {
      // 64 KB every 20 ms: long enough to abort in the middle.
      res.writeHead(200, { "content-length": body.byteLength });
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed || at >= body.byteLength) {
          clearInterval(timer);
          return res.end();
        }
        res.write(body.subarray(at, at + 65536));
        at += 65536;
      }, 20);
      res.on("close", () => clearInterval(timer));
      return;
    }
    res.writeHead(200, { "content-length": body.byteLength, "content-type": "application/octet-stream" });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});

after(() => server?.close());

test("a URL loads with progress events that end at the file size", async () => {
  const events = [];
  const ranker = await CrossEncoder.load({ model: `${base}/model`, tokenizer: `${base}/tokenizer`, onProgress: (p) => events.push(p) });
  for (const [file, size] of [["model", modelBytes.byteLength], ["tokenizer", tokenizerBytes.byteLength]]) {
    const mine = events.filter((e) => e.file === file);
    assert.ok(mine.length >= 2, `${file}: ${mine.length} progress events`);
    assert.deepEqual(mine[0], { file, loaded: 0, total: size, fromCache: false });
    assert.deepEqual(mine.at(-1), { file, loaded: size, total: size, fromCache: false });
    for (let i = 1; i < mine.length; i++) assert.ok(mine[i].loaded >= mine[i - 1].loaded, `${file}: progress never goes back`);
  }
  const results = await ranker.rerank("vitamin D and fractures", ["vitamin D reduced fractures", "bananas"], { topK: null });
  assert.equal(results.length, 2);
  ranker.free();
});

test("aborting a download rejects with RerankitError ABORTED and stops reading", async () => {
  const controller = new AbortController();
  let seen = 0;
  const load = CrossEncoder.load({
    model: `${base}/model-slow`, tokenizer: tokenizerBytes, signal: controller.signal,
    onProgress: (p) => {
      if (p.file === "model" && p.loaded > 0 && ++seen === 3) controller.abort(new Error("user went away"));
    },
  });
  await assert.rejects(load, (e) => {
    assert.ok(e instanceof RerankitError, `not a RerankitError: ${e}`);
    assert.equal(e.code, "ABORTED", e.message);
    assert.match(e.message, /^model: loading was aborted \(user went away\)/);
    assert.equal(e.cause.message, "user went away");
    return true;
  });
  assert.equal(seen, 3, "no progress after the abort");
});

test("an already aborted signal fails before any request", async () => {
  const before = hits.get("/model-never") ?? 0;
  await assert.rejects(
    CrossEncoder.load({ model: `${base}/model-never`, tokenizer: tokenizerBytes, signal: AbortSignal.abort() }),
    (e) => e instanceof RerankitError && e.code === "ABORTED",
  );
  assert.equal(hits.get("/model-never") ?? 0, before);
});

test("HTTP errors and truncated downloads are RerankitErrors naming the file", async () => {
  await assert.rejects(CrossEncoder.load({ model: `${base}/missing.onnx`, tokenizer: tokenizerBytes }), (e) => {
    assert.equal(e.code, "MODEL_LOAD");
    assert.match(e.message, /^model: fetching http:\/\/127\.0\.0\.1:\d+\/missing\.onnx gave HTTP 404/);
    return true;
  });
  await assert.rejects(CrossEncoder.load({ model: modelBytes, tokenizer: `${base}/missing.json` }), (e) => {
    assert.equal(e.code, "TOKENIZER");
    assert.match(e.message, /^tokenizer: fetching .* gave HTTP 404/);
    return true;
  });
  await assert.rejects(CrossEncoder.load({ model: `${base}/model-truncated`, tokenizer: tokenizerBytes }), (e) => {
    assert.ok(e instanceof RerankitError, `not a RerankitError: ${e}`);
    assert.equal(e.code, "MODEL_LOAD");
    assert.match(e.message, /^model: (the download ended after \d+ of \d+ bytes|the download broke off after \d+ bytes)/);
    return true;
  });
  await assert.rejects(CrossEncoder.load({ model: "http://127.0.0.1:1/model.onnx", tokenizer: tokenizerBytes }), (e) => {
    assert.equal(e.code, "MODEL_LOAD");
    assert.match(e.message, /^model: cannot fetch http:\/\/127\.0\.0\.1:1\/model\.onnx/);
    return true;
  });
});

test("a custom cache store serves the second load; cache: false always downloads", async () => {
  const store = new Map();
  const cache = { get: async (url) => store.get(url), put: async (url, bytes) => void store.set(url, bytes) };
  const first = [];
  (await CrossEncoder.load({ model: `${base}/model?c=1`, tokenizer: `${base}/tokenizer?c=1`, cache, onProgress: (p) => first.push(p) })).free();
  assert.deepEqual([...store.keys()].sort(), [`${base}/model?c=1`, `${base}/tokenizer?c=1`]);
  assert.equal(store.get(`${base}/model?c=1`).byteLength, modelBytes.byteLength);
  assert.ok(first.every((p) => !p.fromCache));
  const hitsBefore = hits.get("/model");
  const second = [];
  (await CrossEncoder.load({ model: `${base}/model?c=1`, tokenizer: `${base}/tokenizer?c=1`, cache, onProgress: (p) => second.push(p) })).free();
  assert.equal(hits.get("/model"), hitsBefore, "the second load made no request");
  assert.deepEqual(second.filter((p) => p.file === "model"), [{ file: "model", loaded: modelBytes.byteLength, total: modelBytes.byteLength, fromCache: true }]);

  (await CrossEncoder.load({ model: `${base}/model`, tokenizer: tokenizerBytes, cache: false })).free();
  assert.equal(hits.get("/model"), hitsBefore + 1);
  await assert.rejects(CrossEncoder.load({ model: `${base}/model`, tokenizer: tokenizerBytes, cache: 42 }), (e) => {
    assert.equal(e.code, "INVALID_ARGUMENT");
    assert.match(e.message, /^cache: expected false, a Cache API cache name/);
    return true;
  });
  await assert.rejects(CrossEncoder.load({ model: `${base}/model`, tokenizer: tokenizerBytes, cache: "my-models" }), (e) => {
    assert.equal(e.code, "UNSUPPORTED", "Node has no Cache API");
    assert.match(e.message, /^cache: the Cache API is not available here/);
    return true;
  });
});
