// Deno harness: `deno run --allow-read --allow-env --allow-net=127.0.0.1,localhost --config tests/runtimes/deno/deno.json
// tests/runtimes/deno/main.ts MODEL_DIR HUB_URL` prints the scenario's result as JSON, with `pretrained`: the model
// loaded by id from the Hub-shaped server at HUB_URL, and `evalOnly`: evaluate through rerankit/eval. "rerankit" and
// "rerankit/eval" resolve to the package's Deno entries (deno.json).
import * as rr from "rerankit";
import * as evalApi from "rerankit/eval";
import { MEASURES, MODEL_FILE, QRELS, RUN, pretrained, scenario } from "../scenario.mjs";

const [dir, hub] = Deno.args;
const result = await scenario(rr, { model: `${dir}/${MODEL_FILE}`, tokenizer: `${dir}/tokenizer.json` });
// the evaluation API over its own wasm (rerankit/eval) must answer as the whole package does
const evalOnly = evalApi.evaluate(QRELS, RUN, MEASURES).aggregate;
console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, ...result, evalOnly, pretrained: await pretrained(rr, hub) }));
