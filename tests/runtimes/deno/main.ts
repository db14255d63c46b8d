// Deno harness: `deno run --allow-read --allow-env --allow-net=127.0.0.1,localhost --config tests/runtimes/deno/deno.json
// tests/runtimes/deno/main.ts MODEL_DIR HUB_URL` prints the scenario's result as JSON, with `pretrained`: the model
// loaded by id from the Hub-shaped server at HUB_URL, `evalOnly`: evaluate through rerankit/eval, and `pipelineOnly`:
// SQuAD's scores through rerankit/pipeline-eval. "rerankit", "rerankit/eval" and "rerankit/pipeline-eval" resolve to
// the package's Deno entries (deno.json).
import * as rr from "rerankit";
import * as evalApi from "rerankit/eval";
import * as pipelineApi from "rerankit/pipeline-eval";
import { MEASURES, MODEL_FILE, QRELS, RUN, SQUAD_GOLD, SQUAD_PREDICTION, pretrained, scenario } from "../scenario.mjs";

const [dir, hub] = Deno.args;
const result = await scenario(rr, { model: `${dir}/${MODEL_FILE}`, tokenizer: `${dir}/tokenizer.json` });
// the evaluation API over its own wasm (rerankit/eval) must answer as the whole package does
const evalOnly = evalApi.evaluate(QRELS, RUN, MEASURES).aggregate;
const pipelineOnly = pipelineApi.squadScores(SQUAD_GOLD, SQUAD_PREDICTION);
console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, ...result, evalOnly, pipelineOnly, pretrained: await pretrained(rr, hub) }));
