// Node ≥ 20: compile the wasm from the file next to this module, synchronously, at import time.
import { readFileSync } from "node:fs";
import { initSync } from "./wasm/rerankit.js";
import { finishInit } from "./runtime.js";

finishInit(initSync({ module: readFileSync(new URL("./wasm/rerankit_bg.wasm", import.meta.url)) }));

export * from "./index.js";
