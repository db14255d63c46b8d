// Browsers and bundlers: the wasm is fetched by URL and compiled with instantiateStreaming.
import init from "./wasm/rerankit.js";
import { finishInit } from "./runtime.js";

await init({ module_or_path: new URL("./wasm/rerankit_bg.wasm", import.meta.url) });
finishInit();

export * from "./index.js";
