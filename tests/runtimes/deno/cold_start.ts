// bench/runtimes.mjs's Deno leg: `deno run --allow-read --allow-env --config tests/runtimes/deno/deno.json
// tests/runtimes/deno/cold_start.ts MODEL_FILE TOKENIZER_FILE INPUT_JSON` prints coldStart's JSON.
import { coldStart } from "../scenario.mjs";

const [model, tokenizer, input] = Deno.args;
const { query, documents } = JSON.parse(await Deno.readTextFile(input));
const result = await coldStart(() => import("rerankit"), { model, tokenizer }, query, documents);
console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, ...result }));
