// Deno harness: `deno run --allow-read --allow-env --allow-net=127.0.0.1,localhost --config tests/runtimes/deno/deno.json
// tests/runtimes/deno/main.ts MODEL_DIR HUB_URL` prints the scenario's result as JSON, with `pretrained`: the model
// loaded by id from the Hub-shaped server at HUB_URL. "rerankit" resolves to the package's Deno entry (deno.json).
import * as rr from "rerankit";
import { MODEL_FILE, pretrained, scenario } from "../scenario.mjs";

const [dir, hub] = Deno.args;
const result = await scenario(rr, { model: `${dir}/${MODEL_FILE}`, tokenizer: `${dir}/tokenizer.json` });
console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, ...result, pretrained: await pretrained(rr, hub) }));
