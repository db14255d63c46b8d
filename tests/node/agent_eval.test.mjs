// Agent-step evaluation through `rerankit/pipeline-eval`, imported by name as users do: graphrag-eval 6.6.1's
// outputs (tests/fixtures/graphrag_eval, made by graphrag-eval itself) reproduced, the judge callback, the CLI.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { evaluateAgent, aggregateAgent, agentJudgePrompts, RerankitError } from "rerankit/pipeline-eval";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fx = (rel) => path.join(repo, "tests/fixtures/graphrag_eval", rel);
const text = (rel) => readFileSync(fx(rel), "utf8");
const json = (rel) => JSON.parse(text(rel));
const manifest = json("cases.json");

/** Deep equality with numbers to 1e-9; `*_error` values compared by presence when `looseErrors`. */
function same(expected, actual, where, looseErrors = false) {
  if (typeof expected === "number" && typeof actual === "number") {
    assert.ok(Math.abs(expected - actual) <= 1e-9 * Math.max(1, Math.abs(expected)), `${where}: ${expected} vs ${actual}`);
  } else if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${where}: expected an array`);
    assert.equal(actual.length, expected.length, `${where}: length`);
    expected.forEach((e, i) => same(e, actual[i], `${where}[${i}]`, looseErrors));
  } else if (expected && typeof expected === "object") {
    assert.ok(actual && typeof actual === "object", `${where}: expected an object`);
    assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort(), `${where}: keys`);
    for (const [k, v] of Object.entries(expected)) {
      if (looseErrors && k.endsWith("_error")) continue;
      same(v, actual[k], `${where}.${k}`, looseErrors);
    }
  } else {
    assert.equal(actual, expected, where);
  }
}

test("evaluateAgent + aggregateAgent reproduce graphrag-eval's non-LLM outputs", () => {
  const cases = manifest.evaluation.filter((c) => c.config === null);
  assert.ok(cases.length >= 10);
  for (const c of cases) {
    const results = evaluateAgent(text(c.reference), text(c.responses));
    same(json(c.evaluation), results, c.name);
    same(json(c.aggregates), aggregateAgent(results), `${c.name} aggregates`);
  }
  for (const c of manifest.aggregates) {
    same(json(c.aggregates), aggregateAgent(text(c.evaluation)), c.name);
  }
});

test("parsed values are accepted as well as text", () => {
  const reference = [{ template_id: "t", questions: [{ id: "q", question_text: "?", reference_steps: [[{ name: "a", output: "1" }]] }] }];
  const responses = { q: { question_id: "q", actual_steps: [{ name: "a", id: "s1", status: "success", output: "1" }] } };
  const [r] = evaluateAgent(reference, responses);
  assert.equal(r.steps_score, 1);
  assert.equal(r.reference_steps[0][0].matches, "s1");
});

test("a judge callback: replaying graphrag-eval's fake judge gives its outputs", async () => {
  const c = manifest.evaluation.find((e) => e.name === "extra_llm");
  const transcript = new Map(json(c.judge).map((t) => [t.prompt, t.response]));
  const config = text(c.config);
  const asked = [];
  const judge = async (prompt) => {
    asked.push(prompt);
    assert.ok(transcript.has(prompt), `a prompt graphrag-eval never asked:\n${prompt}`);
    return transcript.get(prompt);
  };
  const results = await evaluateAgent(text(c.reference), text(c.responses), { judge, config });
  assert.equal(asked.length, transcript.size);
  same(json(c.evaluation), results, "extra_llm", true);
  same(json(c.aggregates), aggregateAgent(results, { config }), "extra_llm aggregates", true);
  assert.deepEqual(agentJudgePrompts(text(c.reference), text(c.responses), config).sort(), [...asked].sort());
});

test("judge costs are reported, failures become *_error keys", async () => {
  const reference = [{ template_id: "t", questions: [{ id: "q", question_text: "Who?", reference_answer: "Ada" }] }];
  const responses = [{ question_id: "q", actual_answer: "Ada Lovelace" }];
  const judge = async (prompt) => {
    if (prompt.includes("reference_claims_count")) return { text: '{"reference_claims_count": 1, "actual_claims_count": 1, "matching_claims_count": 1, "reason": "same"}', cost: 0.002 };
    throw new Error("rate limited");
  };
  const [r] = await evaluateAgent(reference, responses, { judge });
  assert.equal(r.answer_f1, 1);
  assert.equal(r.answer_correctness_cost, 0.002);
  assert.match(r.answer_relevance_error, /rate limited/);
});

test("bad input: malformed documents throw PARSE, bad items do not stop the run", () => {
  assert.throws(() => evaluateAgent("- template_id: [", "[]"), (e) => e instanceof RerankitError && e.code === "PARSE");
  const results = evaluateAgent(
    "- template_id: t\n  questions:\n  - id: a\n    question_text: A\n  - id: b\n",
    '{"question_id": "a"}\n{broken\n',
  );
  assert.equal(results.length, 2);
  assert.equal(results[0].status, "success");
  assert.equal(results[1].status, "error");
});

test("CLI: rerankit agent-eval prints results and aggregates (json, yaml)", () => {
  const cli = path.join(repo, "pkg/dist/cli/main.js");
  const c = manifest.evaluation.find((e) => e.name === "extra_steps");
  const out = execFileSync(process.execPath, [cli, "agent-eval", fx(c.reference), fx(c.responses)], { encoding: "utf8" });
  same(json(c.evaluation), JSON.parse(out), "cli results");
  const agg = execFileSync(process.execPath, [cli, "agent-eval", fx(c.reference), fx(c.responses), "--aggregates"], { encoding: "utf8" });
  same(json(c.aggregates), JSON.parse(agg), "cli aggregates");
  const yaml = execFileSync(process.execPath, [cli, "agent-eval", fx(c.reference), fx(c.responses), "--aggregates", "--format", "yaml"], { encoding: "utf8" });
  assert.match(yaml, /^per_template:/m);
  const bad = spawnSync(process.execPath, [cli, "agent-eval", fx(c.reference)], { encoding: "utf8" });
  assert.equal(bad.status, 2);
});

test("CLI: --judge-command runs a shell command per prompt (replaying graphrag-eval's fake judge)", () => {
  const cli = path.join(repo, "pkg/dist/cli/main.js");
  const c = manifest.evaluation.find((e) => e.name === "extra_llm");
  const replay = `'${process.execPath}' -e 'const t=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));let p="";` +
    `process.stdin.setEncoding("utf8").on("data",(d)=>p+=d).on("end",()=>{const h=t.find((x)=>x.prompt===p);process.stdout.write(h?h.response:"MISSING PROMPT")})' '${fx(c.judge)}'`;
  const out = execFileSync(process.execPath, [cli, "agent-eval", fx(c.reference), fx(c.responses), "--config", fx(c.config), "--judge-command", replay], { encoding: "utf8" });
  same(json(c.evaluation), JSON.parse(out), "cli judged results", true);
});

test("CLI: a missing --config file is an error message, not a stack trace", () => {
  const cli = path.join(repo, "pkg/dist/cli/main.js");
  const out = spawnSync(process.execPath, [cli, "agent-eval", "--config", "missing.yaml", "reference.yaml", "responses.json"], { encoding: "utf8" });
  assert.notEqual(out.status, 0);
  assert.match(out.stderr, /missing\.yaml/);
  assert.doesNotMatch(out.stderr, /\n\s+at /);
});

test("numbers read from JSONL text are the doubles JSON.parse gives, bit for bit (issue #41)", () => {
  // upstream_1's responses carry elapsed_sec 12.084330081939697, which serde_json's default float reading made
  // 12.084330081939695
  let compared = 0;
  let known = false;
  for (const c of manifest.evaluation.filter((c) => c.config === null && c.responses.endsWith(".jsonl"))) {
    const responses = text(c.responses);
    const given = new Map(responses.split("\n").filter((l) => l.trim().startsWith("{")).map((l) => JSON.parse(l)).map((r) => [r.question_id, r]));
    for (const result of evaluateAgent(text(c.reference), responses)) {
      const response = given.get(result.question_id);
      if (response === undefined || typeof response.elapsed_sec !== "number") continue;
      assert.ok(Object.is(result.elapsed_sec, response.elapsed_sec), `${c.name}: ${result.elapsed_sec} vs ${response.elapsed_sec}`);
      compared++;
      known ||= response.elapsed_sec === 12.084330081939697;
    }
  }
  assert.ok(compared >= 10 && known, `${compared} values compared`);
});
