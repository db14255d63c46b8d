// Hosted rerankers (issue #30) through the built package, with no internet: CohereRanker against a local server
// that answers like Cohere's API (tests/node/cohere_server.mjs: success, 400 with its error body, 401, 429 with
// Retry-After, 500, slow), HttpRanker's shipped mappings, WorkersAiRanker over a fake `env.AI`, withFallback on
// error and on timeout, and rerankPipeline taking any of them. Haystack 1.x's CohereRanker (seed 000) is the
// reference for top_k, max_chunks_per_doc, embed_meta_fields and predict_batch's three shapes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import path from "node:path";
import { inspect } from "node:util";
import { fileURLToPath } from "node:url";
import { typeErrors } from "../common/typecheck.mjs";
import {
  CohereRanker, CrossEncoder, Document, HttpRanker, RerankitError, WorkersAiRanker, rerankApis, rerankPipeline, withFallback,
} from "rerankit";
import * as evalApi from "rerankit/eval";
import { mockRanking, mockScore, startCohereMock } from "./cohere_server.mjs";
import { PASSAGES, QUERY, loadTinyCrossEncoder } from "./tiny_cross_encoder.mjs";

const KEY = "sk-test-0123456789abcdefSECRET";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// the first 15 of the integration suites' passages: more than topK's default (10) and than one small request
const TEXTS = PASSAGES.slice(0, 15);

let mock;
/** Every error message, warning and serialisation a test saw: none may contain the key. */
const seen = [];

before(async () => {
  mock = await startCohereMock({ apiKey: KEY });
});
after(async () => {
  await mock.close();
  for (const text of seen) assert.ok(!text.includes(KEY), `the API key leaked into: ${text}`);
});

const cohere = (options = {}) => new CohereRanker({ apiKey: KEY, model: "rerank-english-v3.0", baseUrl: mock.url, retryDelayMs: 1, ...options });

/** Asserts `promise` rejects with a RerankitError of `code` whose message matches `pattern`; returns the error. */
async function rejectsWith(promise, code, pattern) {
  let error;
  await assert.rejects(promise, (e) => {
    error = e;
    return true;
  });
  seen.push(String(error?.message), inspect(error));
  assert.ok(error instanceof RerankitError, `expected a RerankitError, got ${inspect(error)}`);
  assert.equal(error.code, code, error.message);
  assert.match(error.message, pattern);
  return error;
}

function throwsInvalid(fn, field) {
  assert.throws(fn, (e) => {
    seen.push(String(e.message));
    return e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && e.message.startsWith(`${field}:`);
  }, field);
}

const expected = (query, texts, topK = null) => mockRanking(query, texts).slice(0, topK ?? texts.length);

test("CohereRanker.rerank: Haystack's default top_k 10, the request Cohere documents, results best first", async () => {
  mock.reset();
  const ranker = cohere();
  const results = await ranker.rerank(QUERY, TEXTS);
  assert.equal(results.length, 10, "top_k defaults to 10 (Haystack)");
  assert.deepEqual(results, expected(QUERY, TEXTS, 10));
  for (let i = 1; i < results.length; i++) assert.ok(results[i - 1].score >= results[i].score);
  assert.equal(mock.requests.length, 1);
  const [req] = mock.requests;
  assert.equal(req.path, "/v1/rerank");
  assert.equal(req.method, "POST");
  assert.equal(req.headers.authorization, `Bearer ${KEY}`);
  assert.equal(req.headers["content-type"], "application/json");
  assert.deepEqual(req.body, { model: "rerank-english-v3.0", query: QUERY, documents: TEXTS, top_n: 10, return_documents: false });
  seen.push(JSON.stringify(ranker), inspect(ranker, { showHidden: true, depth: 5 }));
});

test("topK: the ranker's, overridden per call; null keeps all and sends no top_n; 0, NaN and strings are refused", async () => {
  mock.reset();
  assert.deepEqual(await cohere({ topK: 3 }).rerank(QUERY, TEXTS), expected(QUERY, TEXTS, 3));
  assert.equal(mock.requests[0].body.top_n, 3);
  assert.deepEqual(await cohere({ topK: 3 }).rerank(QUERY, TEXTS, { topK: 5 }), expected(QUERY, TEXTS, 5));
  assert.equal(mock.requests[1].body.top_n, 5);
  const all = await cohere().rerank(QUERY, TEXTS, { topK: null });
  assert.equal(all.length, TEXTS.length);
  assert.deepEqual(all, expected(QUERY, TEXTS));
  assert.equal("top_n" in mock.requests[2].body, false);
  // top_n never exceeds the documents sent
  await cohere({ topK: 50 }).rerank(QUERY, TEXTS.slice(0, 4));
  assert.equal(mock.requests[3].body.top_n, 4);
  // an empty list makes no request
  assert.deepEqual(await cohere().rerank(QUERY, []), []);
  assert.equal(mock.requests.length, 4);
  for (const topK of [0, -1, 1.5, Number.NaN, "5", Infinity]) {
    await rejectsWith(cohere().rerank(QUERY, TEXTS, { topK }), "INVALID_ARGUMENT", /^topK: expected an integer ≥ 1/);
    throwsInvalid(() => cohere({ topK }), "topK");
  }
  assert.equal(mock.requests.length, 4, "refused calls send nothing");
});

test("maxChunksPerDoc is Cohere's max_chunks_per_doc, sent only when given", async () => {
  mock.reset();
  await cohere({ maxChunksPerDoc: 3 }).rerank(QUERY, TEXTS);
  assert.equal(mock.requests[0].body.max_chunks_per_doc, 3);
  await cohere().rerank(QUERY, TEXTS);
  assert.equal("max_chunks_per_doc" in mock.requests[1].body, false, "absent: the API's default (10)");
  for (const bad of [0, 2.5, Number.NaN, "3"]) throwsInvalid(() => cohere({ maxChunksPerDoc: bad }), "maxChunksPerDoc");
});

test("embedMetaFields: meta values precede the content in the text sent; the documents returned are the caller's, without them", async () => {
  mock.reset();
  const docs = [
    new Document({ content: "Hip fractures fell by a third.", meta: { title: "Vitamin D in elderly women", year: 2019, empty: "" } }),
    { content: "Bananas and potassium.", meta: { title: "Fruit", year: 2.5 } },
    "A plain string document.",
    { content: "No meta at all." },
    { content: "Listed meta.", meta: { title: ["a", 1, true, null], year: 0 } },
  ];
  const before = JSON.stringify(docs);
  const ranker = cohere({ embedMetaFields: ["title", "missing", "empty", "year"], topK: null });
  const results = await ranker.rerank(QUERY, docs, { returnDocuments: true });
  const sent = [
    "Vitamin D in elderly women\n2019\nHip fractures fell by a third.",
    "Fruit\n2.5\nBananas and potassium.",
    "A plain string document.",
    "No meta at all.",
    "a\n1\nTrue\nNone\nListed meta.",
  ];
  assert.deepEqual(mock.requests[0].body.documents, sent, "missing and falsy values are skipped (Python truthiness), values print as Python's str, a list one item a line (Haystack 1.x)");
  assert.deepEqual(results.map(({ index, score }) => ({ index, score })), expected(QUERY, sent));
  for (const r of results) assert.equal(r.document, docs[r.index], "the caller's own object");
  assert.equal(JSON.stringify(docs), before, "no document was changed");
  assert.equal(results.find((r) => r.index === 0).document.content, "Hip fractures fell by a third.");
  // the metadata changes the ranking: without it, document 0 shares fewer words with the query
  const plain = await cohere({ topK: null }).rerank(QUERY, docs);
  assert.ok(plain.find((r) => r.index === 0).score < results.find((r) => r.index === 0).score);
});

test("embedMetaFields: the text sent is the text the local model reads (same scores on the tiny model)", async () => {
  mock.reset();
  const ce = await loadTinyCrossEncoder();
  const metas = [{ m: 3 }, { m: 2.5 }, { m: 1e20 }, { m: 1e-5 }, { m: 1e19 }, { m: ["x", 1, false, null, { k: "v" }] }, { m: "it's" }, { m: true }, { m: 0 },
    { m: 1e16 }, { m: 2 ** 53 }, { m: [-0, -2.5, 2 ** 53 - 1] }, { m: { a: undefined, b: 1 } }, { m: new Date(0) }, { m: [new Date(0)] }, { m: 12n },
    { m: new Map([["k", 1]]) }, { m: new Float32Array([0.5, 1]) }, { m: 'say "hi" it\'s\n\ttab' }, { m: ['say "hi"', "it's", "a\\b"] }];
  const docs = metas.map((meta) => ({ content: "body text", meta }));
  await cohere({ embedMetaFields: ["m"], topK: null }).rerank("what is it", docs);
  const sent = mock.requests[0].body.documents;
  assert.equal(sent[2], "1e+20\nbody text");
  assert.equal(sent[8], "body text", "0 is falsy: skipped");
  const local = await ce.rerank("what is it", docs, { embedMetaFields: ["m"], topK: null });
  const asText = await ce.rerank("what is it", sent, { topK: null });
  for (let i = 0; i < docs.length; i++) {
    assert.equal(local.find((r) => r.index === i).score, asText.find((r) => r.index === i).score, `document ${i}: ${JSON.stringify(sent[i])}`);
  }
  // values the local model refuses are refused here too, naming the path
  const cyclic = { name: "c" };
  cyclic.self = cyclic;
  for (const [m, pattern] of [[cyclic, /^documents\[0\]\.meta\.m(\.self)+(\.name)?: nested deeper than 128 levels \(a cycle\?\)/], [[1, Number.NaN], /^documents\[0\]\.meta\.m\[1\]: NaN is not a finite number/], [[() => 1], /functions and symbols are not data/]]) {
    await rejectsWith(cohere({ embedMetaFields: ["m"] }).rerank("q", [{ content: "c", meta: { m } }]), "INVALID_ARGUMENT", pattern);
    await rejectsWith(ce.rerank("q", [{ content: "c", meta: { m } }], { embedMetaFields: ["m"] }), "INVALID_ARGUMENT", /./);
  }
  ce.free();
});

test("rerankBatch: Haystack's predict_batch shapes (a) one query + a list, (b) one query + lists, (c) n queries + n lists", async () => {
  mock.reset();
  const ranker = cohere({ topK: 3 });
  const A = TEXTS.slice(0, 7);
  const B = TEXTS.slice(7);
  const q2 = "printing press history";
  // (a)
  assert.deepEqual(await ranker.rerankBatch([QUERY], A), expected(QUERY, A, 3));
  assert.deepEqual(await ranker.rerankBatch(QUERY, A), expected(QUERY, A, 3));
  // (b)
  assert.deepEqual(await ranker.rerankBatch([QUERY], [A, B]), [expected(QUERY, A, 3), expected(QUERY, B, 3)]);
  assert.deepEqual(await ranker.rerankBatch(QUERY, [A, B], { topK: 1 }), [expected(QUERY, A, 1), expected(QUERY, B, 1)]);
  // (c)
  const c = await ranker.rerankBatch([QUERY, q2], [A, B], { returnDocuments: true });
  assert.deepEqual(c.map((l) => l.map(({ index, score }) => ({ index, score }))), [expected(QUERY, A, 3), expected(q2, B, 3)]);
  assert.equal(c[1][0].document, B[c[1][0].index]);
  const queriesSent = mock.requests.slice(-2).map((r) => r.body.query).sort();
  assert.deepEqual(queriesSent, [q2, QUERY].sort());
  // any other shape is INVALID_ARGUMENT, as the local model's (one rule: src/rankers/batch.rs)
  const n = mock.requests.length;
  await rejectsWith(ranker.rerankBatch([QUERY, q2], A), "INVALID_ARGUMENT", /^queries: 2 queries for a single list in documents/);
  await rejectsWith(ranker.rerankBatch([QUERY, q2, "x"], [A, B]), "INVALID_ARGUMENT", /^queries: 3 queries for 2 lists in documents/);
  await rejectsWith(ranker.rerankBatch([QUERY, 7], [A, B]), "INVALID_ARGUMENT", /^queries\[1\]: expected a string/);
  await rejectsWith(ranker.rerankBatch(QUERY, [A, [1]]), "INVALID_ARGUMENT", /^documents\[1\]\[0\]: expected a string, a Document/);
  assert.equal(mock.requests.length, n);
});

test("the API's limit of 1000 documents per request: longer lists go in pieces, merged and re-sorted", async () => {
  mock.reset();
  const many = Array.from({ length: 2500 }, (_, i) => `${TEXTS[i % TEXTS.length]} (${i}${"!".repeat(i % 13)})`);
  const results = await cohere({ topK: 20 }).rerank(QUERY, many);
  assert.deepEqual(mock.requests.map((r) => r.body.documents.length).sort(), [1000, 1000, 500]);
  for (const r of mock.requests) assert.equal(r.body.top_n, 20, "each piece's best 20 are enough for the call's best 20");
  assert.deepEqual(results, expected(QUERY, many, 20));
  assert.ok(results.some((r) => r.index >= 1000), "indices of later pieces are offset back into the caller's list");
  mock.reset();
  const all = await cohere({ topK: null, maxDocumentsPerRequest: 4, concurrency: 2 }).rerank(QUERY, TEXTS);
  assert.deepEqual(mock.requests.map((r) => r.body.documents.length).sort(), [3, 4, 4, 4]);
  assert.deepEqual(all, expected(QUERY, TEXTS));
});

test("HTTP 400: REMOTE with the status and Cohere's message, no retry, the key (echoed by the API) redacted", async () => {
  mock.reset();
  mock.script.push({ status: 400, message: `invalid request: model 'nope' not found (key ${KEY})` });
  const e = await rejectsWith(cohere().rerank(QUERY, TEXTS), "REMOTE", /^cohere: HTTP 400 Bad Request: invalid request: model 'nope' not found \(key \[redacted\]\)$/);
  assert.equal(e.status, 400);
  assert.equal(mock.requests.length, 1, "a 400 is not retried");
  // a wrong key: 401, whose body echoes the key given
  mock.reset();
  const wrong = new CohereRanker({ apiKey: `${KEY}-wrong`, model: "m", baseUrl: mock.url });
  const e401 = await rejectsWith(wrong.rerank(QUERY, TEXTS), "REMOTE", /^cohere: HTTP 401 Unauthorized: invalid api token: \[redacted\]$/);
  assert.equal(e401.status, 401);
  assert.ok(!e401.message.includes("wrong"));
});

test("HTTP 429 with Retry-After (seconds, then an HTTP date) is retried after the wait the API asks for", async () => {
  mock.reset();
  mock.script.push({ status: 429, message: "You are using a Trial key, which is limited to 10 API calls / minute.", headers: { "retry-after": "1" } });
  let t0 = performance.now();
  assert.deepEqual(await cohere({ retryDelayMs: 1 }).rerank(QUERY, TEXTS), expected(QUERY, TEXTS, 10));
  const waited = performance.now() - t0;
  assert.equal(mock.requests.length, 2);
  assert.ok(waited >= 950, `Retry-After: 1 honoured (waited ${waited.toFixed(0)} ms, not the 1 ms backoff)`);
  mock.reset();
  const date = new Date(Date.now() + 2000).toUTCString(); // whole seconds: 1–2 s from now
  mock.script.push({ status: 429, headers: { "retry-after": date } });
  t0 = performance.now();
  await cohere().rerank(QUERY, TEXTS);
  const waitedDate = performance.now() - t0;
  assert.equal(mock.requests.length, 2);
  assert.ok(waitedDate >= 900 && waitedDate < 4000, `Retry-After as an HTTP date honoured (waited ${waitedDate.toFixed(0)} ms)`);
  // a wait beyond maxRetryDelayMs fails at once instead of sleeping
  mock.reset();
  mock.script.push({ status: 429, message: "slow down", headers: { "retry-after": "120" } });
  t0 = performance.now();
  const e = await rejectsWith(cohere({ maxRetryDelayMs: 5000 }).rerank(QUERY, TEXTS), "REMOTE", /^cohere: HTTP 429 Too Many Requests: slow down; the service asks to retry after 120 s, more than maxRetryDelayMs \(5000 ms\)$/);
  assert.equal(e.status, 429);
  assert.ok(performance.now() - t0 < 1000);
  assert.equal(mock.requests.length, 1);
});

test("HTTP 5xx: retried maxRetries times with backoff, then REMOTE saying how many retries; a later success is returned", async () => {
  mock.reset();
  for (let i = 0; i < 5; i++) mock.script.push({ status: 500, message: "internal server error" });
  const e = await rejectsWith(cohere({ maxRetries: 2 }).rerank(QUERY, TEXTS), "REMOTE", /^cohere: HTTP 500 Internal Server Error: internal server error \(after 2 retries\)$/);
  assert.equal(e.status, 500);
  assert.equal(mock.requests.length, 3, "1 attempt + 2 retries");
  mock.reset();
  mock.script.push({ status: 503, message: "unavailable" }, { status: 502, message: "bad gateway" });
  assert.deepEqual(await cohere({ maxRetries: 3 }).rerank(QUERY, TEXTS), expected(QUERY, TEXTS, 10));
  assert.equal(mock.requests.length, 3);
  mock.reset();
  mock.script.push({ status: 500 });
  await rejectsWith(cohere({ maxRetries: 0 }).rerank(QUERY, TEXTS), "REMOTE", /^cohere: HTTP 500 Internal Server Error: error 500$/);
  assert.equal(mock.requests.length, 1, "maxRetries 0: one attempt");
  // the backoff doubles: 3 retries from 100 ms wait at least 50 + 100 + 200 ms (equal jitter: half of each, at least)
  mock.reset();
  for (let i = 0; i < 4; i++) mock.script.push({ status: 500 });
  const t0 = performance.now();
  await rejectsWith(cohere({ maxRetries: 3, retryDelayMs: 100 }).rerank(QUERY, TEXTS), "REMOTE", /after 3 retries/);
  const took = performance.now() - t0;
  assert.ok(took >= 340 && took < 3000, `backoff ${took.toFixed(0)} ms`);
});

test("a refused connection is retried, then REMOTE without a status; answers that are not Cohere's shape are REMOTE", async () => {
  const closed = await startCohereMock({ apiKey: KEY });
  const url = closed.url;
  await closed.close();
  const e = await rejectsWith(new CohereRanker({ apiKey: KEY, model: "m", baseUrl: url, maxRetries: 1, retryDelayMs: 1 }).rerank(QUERY, TEXTS), "REMOTE", /^cohere: request failed \(.+\) \(after 1 retry\)$/);
  assert.equal(e.status, undefined);
  mock.reset();
  mock.script.push({ raw: "<html>gateway</html>" });
  await rejectsWith(cohere().rerank(QUERY, TEXTS), "REMOTE", /^cohere: unexpected response: HTTP 200 with a body that is not JSON/);
  mock.script.push({ raw: { results: "nope" } });
  await rejectsWith(cohere().rerank(QUERY, TEXTS), "REMOTE", /^cohere: unexpected response: expected \{results: \[\.\.\.\]\}/);
  mock.script.push({ raw: { results: [{ index: 99, relevance_score: 0.5 }] } });
  await rejectsWith(cohere().rerank(QUERY, TEXTS), "REMOTE", /^cohere: unexpected response: result index 99 is not one of the 15 documents sent/);
  mock.script.push({ raw: { results: [{ index: 0, relevance_score: "high" }] } });
  await rejectsWith(cohere({ topK: 1 }).rerank(QUERY, TEXTS), "REMOTE", /document 0 has score "high", not a finite number/);
  mock.script.push({ raw: { results: [{ index: 0, relevance_score: 0.5 }] } });
  await rejectsWith(cohere({ topK: 3 }).rerank(QUERY, TEXTS), "REMOTE", /1 results for 15 documents \(3 needed\)/);
});

test("abort: mid-request, during a Retry-After wait, and before the call (no request); the reason is the cause", async () => {
  mock.reset();
  mock.script.push({ delayMs: 5000 });
  let controller = new AbortController();
  let t0 = performance.now();
  setTimeout(() => controller.abort(new Error("user left")), 100);
  let e = await rejectsWith(cohere().rerank(QUERY, TEXTS, { signal: controller.signal }), "ABORTED", /^cohere: aborted \(user left\)$/);
  assert.equal(e.cause.message, "user left");
  assert.ok(performance.now() - t0 < 2000, "the slow answer was not awaited");
  mock.reset();
  mock.script.push({ status: 429, headers: { "retry-after": "30" } });
  controller = new AbortController();
  t0 = performance.now();
  setTimeout(() => controller.abort(), 200);
  await rejectsWith(cohere({ maxRetryDelayMs: 60_000 }).rerank(QUERY, TEXTS, { signal: controller.signal }), "ABORTED", /^cohere: aborted/);
  assert.ok(performance.now() - t0 < 2000, "the 30 s wait was cut short");
  assert.equal(mock.requests.length, 1);
  mock.reset();
  await rejectsWith(cohere().rerankBatch(QUERY, [TEXTS, TEXTS], { signal: AbortSignal.abort() }), "ABORTED", /aborted/);
  assert.equal(mock.requests.length, 0);
  await rejectsWith(cohere().rerank(QUERY, TEXTS, { signal: {} }), "INVALID_ARGUMENT", /^signal: expected an AbortSignal/);
});

test("options are checked like the rest of the package: unknown names, wrong types and NaN are INVALID_ARGUMENT naming the field", async () => {
  const base = { apiKey: KEY, model: "rerank-english-v3.0", baseUrl: mock.url };
  throwsInvalid(() => new CohereRanker({ ...base, topk: 3 }), "topk");
  throwsInvalid(() => new CohereRanker({ ...base, max_chunks_per_doc: 3 }), "max_chunks_per_doc");
  throwsInvalid(() => new CohereRanker({ model: "m" }), "apiKey");
  throwsInvalid(() => new CohereRanker({ ...base, apiKey: 42 }), "apiKey");
  // a key of the wrong type is named by its type, never printed
  assert.throws(() => new CohereRanker({ ...base, apiKey: 8675309123 }), (e) => e.message === "apiKey: expected a non-empty string, got number");
  assert.throws(() => new HttpRanker({ baseUrl: mock.url, api: rerankApis.cohere, headers: { "x-api-key": 8675309123 } }), (e) => e.message === "headers.x-api-key: expected a string, got number");
  throwsInvalid(() => new CohereRanker({ ...base, model: undefined }), "model");
  throwsInvalid(() => new CohereRanker({ ...base, embedMetaFields: "title" }), "embedMetaFields");
  throwsInvalid(() => new CohereRanker({ ...base, embedMetaFields: ["title", 3] }), "embedMetaFields[1]");
  throwsInvalid(() => new CohereRanker({ ...base, maxRetries: -1 }), "maxRetries");
  throwsInvalid(() => new CohereRanker({ ...base, maxRetries: Number.NaN }), "maxRetries");
  throwsInvalid(() => new CohereRanker({ ...base, retryDelayMs: "100" }), "retryDelayMs");
  throwsInvalid(() => new CohereRanker({ ...base, maxDocumentsPerRequest: 0 }), "maxDocumentsPerRequest");
  throwsInvalid(() => new CohereRanker({ ...base, concurrency: 1.5 }), "concurrency");
  throwsInvalid(() => new CohereRanker({ ...base, fetch: "fetch" }), "fetch");
  throwsInvalid(() => new CohereRanker({ ...base, baseUrl: "not a url" }), "baseUrl");
  throwsInvalid(() => new CohereRanker({ ...base, headers: { "x-a": 1 } }), "headers.x-a");
  throwsInvalid(() => new CohereRanker("key"), "options");
  const r = cohere();
  await rejectsWith(r.rerank(QUERY, TEXTS, { topk: 3 }), "INVALID_ARGUMENT", /^topk: unknown option "topk"/);
  await rejectsWith(r.rerank(QUERY, TEXTS, { batchSize: 3 }), "INVALID_ARGUMENT", /^batchSize: unknown option/);
  await rejectsWith(r.rerank(QUERY, TEXTS, { returnDocuments: "yes" }), "INVALID_ARGUMENT", /^returnDocuments: expected a boolean/);
  await rejectsWith(r.rerank("  ", TEXTS), "INVALID_ARGUMENT", /^query: must be a non-empty string/);
  await rejectsWith(r.rerank(42, TEXTS), "INVALID_ARGUMENT", /^query: expected a string/);
  await rejectsWith(r.rerank(QUERY, "text"), "INVALID_ARGUMENT", /^documents: expected an array/);
  await rejectsWith(r.rerank(QUERY, ["a", { content: 5 }]), "INVALID_ARGUMENT", /^documents\[1\]\.content: a reranker needs text content/);
  // eslint-disable-next-line no-sparse-arrays
  await rejectsWith(r.rerank(QUERY, ["a", , "c"]), "INVALID_ARGUMENT", /^documents\[1\]: expected a string/);
});

test("HttpRanker: the shipped mappings — TEI's {query, texts} → [{index, score}] in pieces of 32, Jina's and Voyage's bodies", async () => {
  mock.reset();
  const texts = Array.from({ length: 40 }, (_, i) => TEXTS[i % TEXTS.length] + ` #${i}`);
  const tei = new HttpRanker({ baseUrl: `${mock.url}/`, api: rerankApis.tei, topK: null });
  assert.equal(tei.url, `${mock.url}/rerank`);
  assert.deepEqual(await tei.rerank(QUERY, texts), expected(QUERY, texts));
  assert.deepEqual(mock.requests.map((r) => [r.path, r.body.texts.length]).sort(), [["/rerank", 32], ["/rerank", 8]]);
  assert.deepEqual(Object.keys(mock.requests[0].body).sort(), ["query", "texts"]);
  assert.equal(mock.requests[0].headers.authorization, undefined, "no key, no Authorization header");
  // TEI's own error body ({error, error_type}) names the problem
  mock.reset();
  const tooMany = new HttpRanker({ baseUrl: mock.url, api: rerankApis.tei, maxDocumentsPerRequest: 40 });
  await rejectsWith(tooMany.rerank(QUERY, texts), "REMOTE", new RegExp(`^127\\.0\\.0\\.1:\\d+: HTTP 413 Payload Too Large: batch size 40 > maximum allowed batch size 32$`));

  // Jina and Voyage through an injected fetch: the request each API documents, its answer read back
  const calls = [];
  const fakeFetch = (answer) => async (url, init) => {
    calls.push({ url, headers: init.headers, body: JSON.parse(init.body) });
    const body = JSON.parse(init.body);
    const ranked = mockRanking(body.query, body.documents).slice(0, body.top_n ?? body.top_k ?? body.documents.length);
    return new Response(JSON.stringify(answer(ranked)), { status: 200, headers: { "content-type": "application/json" } });
  };
  const jina = new HttpRanker({ baseUrl: "https://api.jina.ai", api: rerankApis.jina, apiKey: KEY, model: "jina-reranker-v2-base-multilingual", topK: 2,
    fetch: fakeFetch((ranked) => ({ model: "jina", results: ranked.map((r) => ({ index: r.index, relevance_score: r.score })) })) });
  assert.deepEqual(await jina.rerank(QUERY, TEXTS), expected(QUERY, TEXTS, 2));
  assert.equal(calls[0].url, "https://api.jina.ai/v1/rerank");
  assert.equal(calls[0].headers.authorization, `Bearer ${KEY}`);
  assert.deepEqual(calls[0].body, { model: "jina-reranker-v2-base-multilingual", query: QUERY, documents: TEXTS, top_n: 2, return_documents: false });
  const voyage = new HttpRanker({ baseUrl: "https://api.voyageai.com", api: rerankApis.voyage, apiKey: KEY, model: "rerank-2", topK: 4, name: "voyage",
    fetch: fakeFetch((ranked) => ({ object: "list", data: ranked.map((r) => ({ index: r.index, relevance_score: r.score })) })) });
  assert.deepEqual(await voyage.rerank(QUERY, TEXTS), expected(QUERY, TEXTS, 4));
  assert.deepEqual(calls[1].body, { model: "rerank-2", query: QUERY, documents: TEXTS, top_k: 4, return_documents: false });
  // a mapping of one's own: a typed pair of functions
  const custom = new HttpRanker({
    baseUrl: "https://rank.example", name: "custom", topK: null,
    api: { path: "/score", maxDocuments: 100, request: ({ query, documents }) => ({ q: query, docs: documents }), response: (b) => b.scores.map((score, index) => ({ index, score })), errorMessage: (b) => b?.why },
    fetch: async (url, init) => {
      const b = JSON.parse(init.body);
      return url.endsWith("/score") ? Response.json({ scores: b.docs.map((d) => mockScore(b.q, d)) }) : Response.json({}, { status: 404 });
    },
  });
  assert.deepEqual(await custom.rerank(QUERY, TEXTS), expected(QUERY, TEXTS));
  throwsInvalid(() => new HttpRanker({ baseUrl: mock.url, api: "cohere" }), "api");
  throwsInvalid(() => new HttpRanker({ api: rerankApis.tei }), "baseUrl");
  // header values are secrets too
  const secretHeader = "x-secret-token-value-123";
  const h = new HttpRanker({ baseUrl: "https://h.example", api: rerankApis.cohere, headers: { "x-api-key": secretHeader },
    fetch: async () => Response.json({ message: `bad token ${secretHeader}` }, { status: 403 }) });
  const e = await rejectsWith(h.rerank(QUERY, TEXTS), "REMOTE", /^h\.example: HTTP 403: bad token \[redacted\]$/);
  assert.equal(e.status, 403);
});

/** A fake Workers AI binding: `{response: [{id, score}]}` by the mock's scores, sorted, cut to top_k. */
function fakeAi({ fail, delayMs, shape } = {}) {
  const calls = [];
  return {
    calls,
    async run(model, input, options) {
      calls.push({ model, input, options });
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      if (fail) throw new Error(fail);
      if (shape) return shape;
      const ranked = mockRanking(input.query, input.contexts.map((c) => c.text)).slice(0, input.top_k);
      return { response: ranked.map((r) => ({ id: r.index, score: r.score })) };
    },
  };
}

test("WorkersAiRanker: ai.run(model, {query, contexts, top_k}) → {response: [{id, score}]}, errors REMOTE, abortable", async () => {
  const ai = fakeAi();
  const ranker = new WorkersAiRanker({ ai, topK: 4 });
  assert.deepEqual(await ranker.rerank(QUERY, TEXTS), expected(QUERY, TEXTS, 4));
  assert.deepEqual(ai.calls[0], { model: "@cf/baai/bge-reranker-base", input: { query: QUERY, contexts: TEXTS.map((text) => ({ text })), top_k: 4 }, options: undefined });
  const all = await new WorkersAiRanker({ ai, model: "@cf/baai/bge-reranker-v2-m3", runOptions: { gateway: { id: "g" } } }).rerankBatch([QUERY, "printing"], [TEXTS, TEXTS], { topK: null });
  assert.deepEqual(all, [expected(QUERY, TEXTS), expected("printing", TEXTS)]);
  assert.equal(ai.calls[1].model, "@cf/baai/bge-reranker-v2-m3");
  assert.equal(ai.calls[1].input.top_k, TEXTS.length);
  assert.deepEqual(ai.calls[1].options, { gateway: { id: "g" } });
  await rejectsWith(new WorkersAiRanker({ ai: fakeAi({ fail: "3040: Capacity temporarily exceeded" }) }).rerank(QUERY, TEXTS), "REMOTE",
    /^workers-ai: @cf\/baai\/bge-reranker-base failed: 3040: Capacity temporarily exceeded$/);
  await rejectsWith(new WorkersAiRanker({ ai: fakeAi({ shape: { result: [] } }) }).rerank(QUERY, TEXTS), "REMOTE", /^workers-ai: unexpected response: expected \{response: \[\{id, score\}\]\}/);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  await rejectsWith(new WorkersAiRanker({ ai: fakeAi({ delayMs: 3000 }) }).rerank(QUERY, TEXTS, { signal: controller.signal }), "ABORTED", /^workers-ai: aborted/);
  throwsInvalid(() => new WorkersAiRanker({}), "ai");
  throwsInvalid(() => new WorkersAiRanker({ ai: { run: 1 } }), "ai");
  throwsInvalid(() => new WorkersAiRanker({ ai, modle: "x" }), "modle");
});

/** A local ranker that answers by the mock's scores negated (so its order is recognisably its own), optionally slowly. */
function localRanker({ delayMs = 0 } = {}) {
  const calls = [];
  const rank = async (query, docs, options = {}) => {
    await new Promise((resolve, reject) => {
      const t = setTimeout(resolve, delayMs);
      options.signal?.addEventListener("abort", () => (clearTimeout(t), reject(new RerankitError("local: aborted", "ABORTED"))), { once: true });
    });
    const texts = docs.map((d) => (typeof d === "string" ? d : d.content));
    const ranked = texts.map((t, index) => ({ index, score: -mockScore(query, t) })).sort((a, b) => b.score - a.score || a.index - b.index);
    return ranked.slice(0, options.topK === undefined ? 10 : options.topK ?? ranked.length).map((r) => (options.returnDocuments ? { ...r, document: docs[r.index] } : r));
  };
  return {
    calls,
    async rerank(query, docs, options) {
      calls.push({ query, options });
      return rank(query, docs, options);
    },
    async rerankBatch(queries, lists, options) {
      calls.push({ queries, options });
      return Promise.all(lists.map((l, i) => rank(typeof queries === "string" ? queries : queries[queries.length === 1 ? 0 : i], l, options)));
    },
  };
}
const localExpected = (query, texts, topK) => texts.map((t, index) => ({ index, score: -mockScore(query, t) })).sort((a, b) => b.score - a.score || a.index - b.index).slice(0, topK);

test("withFallback: the primary answers while it can; on its error the fallback does, and onWarning says why (with a code)", async () => {
  mock.reset();
  const warnings = [];
  const onWarning = (message, warning) => {
    warnings.push({ message, warning });
    seen.push(message, inspect(warning));
  };
  const local = localRanker();
  const ranker = withFallback(cohere({ maxRetries: 1 }), local, { onWarning, fallbackOptions: { fast: true } });
  assert.deepEqual(await ranker.rerank(QUERY, TEXTS, { topK: 3 }), expected(QUERY, TEXTS, 3));
  assert.equal(local.calls.length, 0);
  assert.equal(warnings.length, 0);
  // the service fails (every retry too): the local ranker answers, with the fallback's own options
  mock.script.push({ status: 500, message: `overloaded (${KEY})` }, { status: 500, message: "overloaded" });
  assert.deepEqual(await ranker.rerank(QUERY, TEXTS, { topK: 3 }), localExpected(QUERY, TEXTS, 3));
  assert.equal(mock.requests.length, 3);
  assert.deepEqual(local.calls[0].options, { fast: true, topK: 3 });
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].warning.code, "REMOTE");
  assert.equal(warnings[0].warning.error.status, 500);
  assert.match(warnings[0].message, /^withFallback: cohere failed \(REMOTE: cohere: HTTP 500 Internal Server Error: overloaded \(after 1 retry\)\); Object ranks instead$/);
  // rerankBatch falls back the same way
  mock.script.push({ status: 400, message: "bad model" });
  const batch = await ranker.rerankBatch([QUERY, "printing"], [TEXTS, TEXTS], { topK: 2 });
  assert.deepEqual(batch, [localExpected(QUERY, TEXTS, 2), localExpected("printing", TEXTS, 2)]);
  assert.equal(warnings.at(-1).warning.code, "REMOTE");
  // the caller's mistake is not hidden behind a fallback
  const n = local.calls.length;
  await rejectsWith(ranker.rerank(QUERY, TEXTS, { topK: 0 }), "INVALID_ARGUMENT", /^topK/);
  await rejectsWith(ranker.rerank(QUERY, TEXTS, { batchSize: 4 }), "INVALID_ARGUMENT", /^batchSize: unknown option/);
  assert.equal(local.calls.length, n);
  // a binding that throws a plain Error falls back with code REMOTE (WorkersAiRanker maps it)
  const ai = withFallback(new WorkersAiRanker({ ai: fakeAi({ fail: "5007: no such model" }) }), local, { onWarning });
  assert.deepEqual(await ai.rerank(QUERY, TEXTS, { topK: 2 }), localExpected(QUERY, TEXTS, 2));
  assert.match(warnings.at(-1).message, /^withFallback: workers-ai failed \(REMOTE: workers-ai: @cf\/baai\/bge-reranker-base failed: 5007: no such model\)/);
  throwsInvalid(() => withFallback(cohere(), {}), "fallback");
  throwsInvalid(() => withFallback(cohere(), local, { timeoutMs: Number.NaN }), "timeoutMs");
  throwsInvalid(() => withFallback(cohere(), local, { timeout: 5 }), "timeout");
  throwsInvalid(() => withFallback(cohere(), local, { onWarning: "log" }), "onWarning");
});

test("withFallback: a primary slower than timeoutMs is aborted and the fallback answers; the caller's signal aborts both", async () => {
  mock.reset();
  const warnings = [];
  const onWarning = (message, warning) => {
    warnings.push({ message, warning });
    seen.push(message);
  };
  const primarySignals = [];
  const watched = (url, init) => {
    primarySignals.push(init.signal);
    return fetch(url, init);
  };
  const local = localRanker();
  const ranker = withFallback(cohere({ fetch: watched }), local, { timeoutMs: 300, onWarning });
  mock.script.push({ delayMs: 3000 });
  const t0 = performance.now();
  assert.deepEqual(await ranker.rerank(QUERY, TEXTS, { topK: 4 }), localExpected(QUERY, TEXTS, 4));
  const took = performance.now() - t0;
  assert.ok(took >= 290 && took < 2000, `fell back after the timeout (${took.toFixed(0)} ms)`);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].warning.code, "TIMEOUT");
  assert.ok(warnings[0].warning.milliseconds >= 290);
  assert.match(warnings[0].message, /^withFallback: cohere took longer than 300 ms; Object ranks instead$/);
  assert.equal(primarySignals[0].aborted, true, "the primary's request was aborted");
  // a primary within its time answers
  assert.deepEqual(await ranker.rerank(QUERY, TEXTS, { topK: 4 }), expected(QUERY, TEXTS, 4));
  assert.equal(warnings.length, 1);

  // the caller aborts while the primary is in flight: ABORTED, no fallback
  mock.script.push({ delayMs: 3000 });
  let controller = new AbortController();
  setTimeout(() => controller.abort(new Error("gone")), 100);
  const calls = local.calls.length;
  await rejectsWith(withFallback(cohere(), local, { timeoutMs: 2000, onWarning }).rerank(QUERY, TEXTS, { signal: controller.signal }), "ABORTED", /aborted \(gone\)/);
  assert.equal(local.calls.length, calls, "the fallback never started");
  assert.equal(warnings.length, 1);
  // the caller aborts while the fallback runs (the primary failed): ABORTED from the fallback
  mock.script.push({ status: 400, message: "bad" });
  controller = new AbortController();
  const slowLocal = localRanker({ delayMs: 3000 });
  setTimeout(() => controller.abort(), 200);
  const t1 = performance.now();
  await rejectsWith(withFallback(cohere(), slowLocal, { onWarning }).rerank(QUERY, TEXTS, { signal: controller.signal }), "ABORTED", /aborted/);
  assert.ok(performance.now() - t1 < 2000);
  assert.equal(slowLocal.calls.length, 1);
  assert.equal(slowLocal.calls[0].options.signal, controller.signal, "the fallback got the caller's signal");
  await rejectsWith(withFallback(cohere(), local).rerank(QUERY, TEXTS, { signal: AbortSignal.abort() }), "ABORTED", /withFallback: aborted/);
});

test("withFallback over a real local CrossEncoder (the tiny model): the fallback's results are the model's own", async () => {
  mock.reset();
  const ce = await loadTinyCrossEncoder();
  const warnings = [];
  const ranker = withFallback(cohere({ maxRetries: 0 }), ce, { onWarning: (m, w) => warnings.push(w.code), fallbackOptions: { batchSize: 4 } });
  mock.script.push({ status: 503, message: "down" });
  const got = await ranker.rerank(QUERY, TEXTS, { topK: 5, returnDocuments: true });
  assert.deepEqual(got, await ce.rerank(QUERY, TEXTS, { topK: 5, returnDocuments: true }));
  assert.deepEqual(warnings, ["REMOTE"]);
  ce.free();
});

test("rerankPipeline takes any Ranker: a CohereRanker (as `ranker`) and a withFallback pair (as `crossEncoder`)", async () => {
  mock.reset();
  const docs = TEXTS.map((content, i) => new Document({ content, id: `d${i}`, score: 20 - i }));
  const res = await rerankPipeline(QUERY, docs, { ranker: cohere(), fusion: "none" });
  assert.deepEqual(res.stages.map((s) => s.name), ["retriever", "cross-encoder"]);
  assert.deepEqual(res.documents.map((d) => [d.id, d.score]), expected(QUERY, TEXTS).map((r) => [`d${r.index}`, r.score]), "every document scored (topK null)");
  assert.equal("top_n" in mock.requests[0].body, false);
  const pair = withFallback(cohere(), localRanker(), { onWarning: () => {} });
  mock.script.push({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
  const viaFallback = await rerankPipeline(QUERY, docs, { crossEncoder: pair, fusion: "rrf", topK: 3 });
  assert.equal(viaFallback.documents.length, 3);
  assert.deepEqual(viaFallback.stages[1].documents.map((d) => d.id), localExpected(QUERY, TEXTS, TEXTS.length).map((r) => `d${r.index}`));
  await assert.rejects(rerankPipeline(QUERY, docs, { ranker: cohere(), crossEncoder: cohere() }), (e) => e.code === "INVALID_ARGUMENT" && e.message.startsWith("ranker:"));
  await assert.rejects(rerankPipeline(QUERY, docs, { ranker: {} }), (e) => e.code === "INVALID_ARGUMENT" && e.message.startsWith("ranker:"));
});

test("rerankit/eval exports the hosted rankers (no model code needed); the types: every ranker is a Ranker that rerankPipeline takes", () => {
  for (const name of ["CohereRanker", "WorkersAiRanker", "HttpRanker", "withFallback", "FallbackRanker"]) assert.equal(typeof evalApi[name], "function", name);
  assert.deepEqual(Object.keys(evalApi.rerankApis), ["cohere", "jina", "voyage", "tei"]);
  const entry = path.join(root, "pkg/dist/index.js");
  const errors = typeErrors(`
      import { CohereRanker, CrossEncoder, HttpRanker, WorkersAiRanker, rerankApis, rerankPipeline, withFallback, type Ranker, type RerankResult, type WorkersAiBinding } from ${JSON.stringify(entry)};
      declare const ce: CrossEncoder;
      declare const ai: WorkersAiBinding;
      const rankers: Ranker[] = [ce, new CohereRanker({ apiKey: "k", model: "m" }), new WorkersAiRanker({ ai }), new HttpRanker({ baseUrl: "http://x", api: rerankApis.tei })];
      const pair: Ranker = withFallback(rankers[2], ce, { timeoutMs: 100, onWarning: (m, w) => console.log(m, w.code) });
      export async function use(): Promise<RerankResult<string>[]> {
        await rerankPipeline("q", [], { ranker: pair });
        await rerankPipeline("q", [], { crossEncoder: rankers[1] });
        const local: Ranker<{ topK?: number | null; batchSize?: number }> = ce;
        await local.rerank("q", ["a"], { batchSize: 2 });
        return pair.rerank("q", ["a", "b"], { topK: 1, returnDocuments: true });
      }
      // @ts-expect-error a ranker's call options are checked
      rankers[1].rerank("q", ["a"], { topk: 1 });
  `, tmpdir());
  assert.deepEqual(errors, []);
});
