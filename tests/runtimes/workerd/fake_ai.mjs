// A stand-in for a Worker's Workers AI binding (`env.AI`), for the runtimes test: `run(model, {query, contexts,
// top_k})` answers `{response: [{id, score}]}` as Workers AI's rerankers do, scored by shared words so that the
// test can tell its ranking from the local model's. `state.mode` scripts it: "ok", "error" (throws as the binding
// does when the model is unavailable) or "slow" (answers after `state.delayMs`). Runs in workerd (bundled with
// fake_ai_entry.js) and in Node (the test computes the expected answer with `fakeRanking`).

/** The fake's score of `text` for `query`: the share of the query's words found in the text. */
export function fakeScore(query, text) {
  const words = (s) => new Set(s.toLowerCase().match(/\w+/g) ?? []);
  const q = words(query);
  const t = words(text);
  let shared = 0;
  for (const w of q) if (t.has(w)) shared++;
  return shared / Math.max(1, q.size);
}

/** `[{id, score}]` best first (ties by id), cut to `topK`. */
export function fakeRanking(query, texts, topK = texts.length) {
  return texts.map((text, id) => ({ id, score: fakeScore(query, text) })).sort((a, b) => b.score - a.score || a.id - b.id).slice(0, topK);
}

export function createFakeAi() {
  const state = { mode: "ok", delayMs: 0, calls: [] };
  const binding = {
    async run(model, input) {
      state.calls.push({ model, input });
      if (state.mode === "error") throw new Error("3040: Capacity temporarily exceeded, please try again.");
      if (state.mode === "slow") await new Promise((resolve) => setTimeout(resolve, state.delayMs));
      return { response: fakeRanking(input.query, input.contexts.map((c) => c.text), input.top_k) };
    },
  };
  return { state, binding };
}
