// The three integration subpaths (issue #29) as a user installs them: their types fit the frameworks' own types
// (a ContextualCompressionRetriever takes RerankCompressor, a RetrieverQueryEngine takes RerankPostprocessor,
// `rerank()` takes the model), `rerankit` itself never loads a framework, package.json keeps the frameworks
// optional peer dependencies with exactly pinned versions to test against, and the examples run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { typeErrors } from "../common/typecheck.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const SUBPATHS = { "./langchain": "langchain", "./llamaindex": "llamaindex", "./ai-sdk": "ai_sdk" };

test("types: each integration fits its framework's pipeline; unknown options are type errors", () => {
  // inside node_modules so that the frameworks' packages resolve from the check file as from a user's code
  const cache = path.join(root, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  const dist = (file) => JSON.stringify(path.join(root, "pkg/dist", file));
  const errors = typeErrors(`
      import { ContextualCompressionRetriever } from "@langchain/classic/retrievers/contextual_compression";
      import type { DocumentInterface } from "@langchain/core/documents";
      import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
      import { RetrieverQueryEngine } from "@llamaindex/core/query-engine";
      import type { BaseRetriever } from "@llamaindex/core/retriever";
      import { MetadataMode, type NodeWithScore } from "@llamaindex/core/schema";
      import { rerank } from "ai";
      import { CohereRanker, CrossEncoder, withFallback } from ${dist("index.js")};
      import { RerankCompressor } from ${dist("integrations/langchain.js")};
      import { RerankPostprocessor } from ${dist("integrations/llamaindex.js")};
      import { rerankit, type RerankitRerankingModel } from ${dist("integrations/ai_sdk.js")};
      declare const ce: CrossEncoder;
      declare const documents: BaseRetrieverInterface;
      declare const nodes: BaseRetriever;
      const hosted = new CohereRanker({ apiKey: "k", model: "m" });
      export const lc = new ContextualCompressionRetriever({ baseCompressor: new RerankCompressor(ce, { topK: 3 }), baseRetriever: documents });
      export const li = new RetrieverQueryEngine(nodes, undefined, [new RerankPostprocessor(withFallback(hosted, ce), { topK: null, metadataMode: MetadataMode.EMBED })]);
      export async function use(): Promise<[DocumentInterface[], NodeWithScore[], number[]]> {
        const model: RerankitRerankingModel = rerankit.reranking(hosted, { modelId: "cohere" });
        const { ranking } = await rerank({ model, query: "q", documents: [{ title: "a" }], topN: 1 });
        return [await lc.invoke("q"), await li.retrieve("q"), ranking.map((r) => r.score)];
      }
      // @ts-expect-error LangChain's name for it is topN; rerankit's is topK
      new RerankCompressor(ce, { topN: 3 });
      // @ts-expect-error a MetadataMode, not a string
      new RerankPostprocessor(ce, { metadataMode: "ALL" });
      // @ts-expect-error the ranker comes first
      rerankit.reranking({ modelId: "x" });
  `, cache);
  assert.deepEqual(errors, []);
});

test("`import \"rerankit\"` loads no framework; each subpath loads its own", () => {
  // A resolve hook that refuses the frameworks' packages: importing `rerankit` must not reach it, and importing
  // `rerankit/langchain` must (which shows the hook would catch a framework import).
  const hook = `data:text/javascript,${encodeURIComponent(
    'export async function resolve(s, c, next) { if (/^(@langchain|@llamaindex|@ai-sdk|ai$|ai\\/)/.test(s)) throw new Error("framework loaded: " + s); return next(s, c); }',
  )}`;
  const load = (specifier) => execFileSync(process.execPath, ["--input-type=module", "-e",
    `import { register } from "node:module"; register(${JSON.stringify(hook)}); const m = await import(${JSON.stringify(specifier)}); console.log(Object.keys(m).length);`,
  ], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  for (const entry of ["rerankit", "rerankit/eval", "rerankit/pipeline-eval"]) assert.ok(Number(load(entry)) > 10, entry);
  for (const sub of ["rerankit/langchain", "rerankit/llamaindex"]) {
    assert.throws(() => load(sub), (e) => /framework loaded: @(langchain|llamaindex)\/core/.test(e.stderr), sub);
  }
  // the AI SDK's provider interface is types only: the model loads without the AI SDK
  assert.equal(load("rerankit/ai-sdk").trim(), "2");
});

test("package.json: a subpath export per integration (types first), the frameworks optional peers, pinned for the tests", () => {
  for (const [sub, file] of Object.entries(SUBPATHS)) {
    assert.deepEqual(pkg.exports[sub], { types: `./pkg/dist/integrations/${file}.d.ts`, default: `./pkg/dist/integrations/${file}.js` }, sub);
  }
  assert.deepEqual(pkg.dependencies, undefined, "rerankit alone stays dependency-free");
  for (const name of Object.keys(pkg.peerDependencies)) {
    assert.deepEqual(pkg.peerDependenciesMeta[name], { optional: true }, name);
    assert.match(pkg.devDependencies[name], /^\d+\.\d+\.\d+$/, `${name}: the tested version, pinned exactly`);
  }
  for (const name of ["@langchain/classic", "ai"]) assert.match(pkg.devDependencies[name], /^\d+\.\d+\.\d+$/, name);
});

test("examples/langchain, examples/llamaindex, examples/ai-sdk run and print three reranked results", () => {
  // small-ce-1 (13 MB, from $RERANKIT_MODELS: npm run fixtures) rather than the examples' default ce-probe (110 MB):
  // what is checked is that each example runs its framework's pipeline, not the model. One after the other: each
  // process compiles the wasm module, and two at once on CI's 2 cores take longer than in turn.
  const models = process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models");
  const env = { ...process.env, RERANKIT_MODELS: models, RERANKIT_MODEL: "small-ce-1" };
  for (const example of ["langchain", "llamaindex", "ai-sdk"]) {
    const out = execFileSync(process.execPath, [path.join(root, "examples", example, "index.mjs")], { cwd: root, env, encoding: "utf8" });
    const scores = out.split("\n").filter((line) => /^\d\.\d{4} {2}\[/.test(line)).map((line) => Number(line.slice(0, 6)));
    assert.equal(scores.length, 3, `${example}:\n${out}`);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a), `${example}: best first`);
  }
});
