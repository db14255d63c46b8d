// Deno harness: `deno run --allow-read --allow-env --config tests/runtimes/deno/deno.json tests/runtimes/deno/main.ts MODEL_DIR`
// prints the scenario's result as JSON. "rerankit" resolves to the package's Deno entry (deno.json).
import * as rr from "rerankit";
import { MODEL_FILE, scenario } from "../scenario.mjs";

const dir = Deno.args[0];
const result = await scenario(rr, { model: `${dir}/${MODEL_FILE}`, tokenizer: `${dir}/tokenizer.json` });
console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, ...result }));
