// Models by Hugging Face Hub id, laid out as the Hub (and transformers.js) lay them out:
//   {id}/config.json, tokenizer.json, tokenizer_config.json, modules.json, 1_Pooling/config.json
//   {id}/onnx/model.onnx, model_fp16.onnx, model_quantized.onnx, model_int8.onnx, model_uint8.onnx, model_q4.onnx…
//   and the external-data files those graphs name (model.onnx_data…), fetched beside them.
// A file is looked up under `localModelPath` first (a folder in Node/Deno, a URL prefix anywhere), then on the
// remote host (`remoteHost` + `remotePathTemplate`, the Hub by default; a mirror or your own bucket otherwise),
// unless `allowRemoteModels` is false (offline). The URL is the cache key: a second load reads the Cache API (or
// your `cache`) instead of the network.
import { RerankitError, invalidArgument } from "../errors.js";
import { loadOptionalBytes, sourceExists, type LoadSourceOptions } from "./model_source.js";

/** Weight formats of a Hub repo's `onnx/` folder, as transformers.js names them. */
export type Dtype = "fp32" | "fp16" | "q8" | "int8" | "uint8" | "q4" | "q4f16" | "bnb4";

/** The file suffix of each dtype: `onnx/model{suffix}.onnx`. */
export const DTYPE_SUFFIXES: Readonly<Record<Dtype, string>> = {
  fp32: "", fp16: "_fp16", q8: "_quantized", int8: "_int8", uint8: "_uint8", q4: "_q4", q4f16: "_q4f16", bnb4: "_bnb4",
};

/** Where and how `fromPretrained` finds a repo's files. */
export interface HubOptions {
  /**
   * Weight format. Default: `"q8"` on the CPU (int8 weights: a quarter of the download and faster in wasm, as
   * transformers.js defaults), `"fp32"` on WebGPU. When the default's file is missing the fp32 file is used (with
   * a warning); an explicit dtype that the repo lacks is a `MODEL_LOAD` error naming the dtypes it has.
   */
  dtype?: Dtype;
  /** Branch, tag or commit. Default `"main"`. */
  revision?: string;
  /** Default `"https://huggingface.co/"`. */
  remoteHost?: string;
  /** Path of a repo's files on the host; `{model}` and `{revision}` are replaced. Default `"{model}/resolve/{revision}/"`. */
  remotePathTemplate?: string;
  /** A folder (Node, Deno) or URL prefix holding `{model}/…` copies; looked up before the remote host. */
  localModelPath?: string;
  /** `false`: never fetch from the remote host (offline: only `localModelPath`). Default true. */
  allowRemoteModels?: boolean;
  /** Folder of the ONNX files in the repo. Default `"onnx"`. */
  subfolder?: string;
  /** The graph's base name. Default `"model"`. */
  modelFileName?: string;
}

const DEFAULT_HOST = "https://huggingface.co/";
const DEFAULT_TEMPLATE = "{model}/resolve/{revision}/";
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)?$/;

/** One Hub repo at one revision: resolves and fetches its files. */
export class HubRepo {
  readonly id: string;
  readonly revision: string;
  readonly #options: HubOptions;
  readonly #io: LoadSourceOptions;

  constructor(id: string, options: HubOptions, io: LoadSourceOptions) {
    if (typeof id !== "string" || !ID.test(id) || id.includes("..")) {
      invalidArgument("modelId", `expected a Hub model id like "Xenova/ms-marco-MiniLM-L-6-v2", got ${JSON.stringify(id)}`);
    }
    for (const key of ["revision", "remoteHost", "remotePathTemplate", "localModelPath", "subfolder", "modelFileName"] as const) {
      if (options[key] !== undefined && typeof options[key] !== "string") invalidArgument(key, "expected a string");
    }
    if (options.allowRemoteModels !== undefined && typeof options.allowRemoteModels !== "boolean") invalidArgument("allowRemoteModels", "expected a boolean");
    if (options.dtype !== undefined && !(options.dtype in DTYPE_SUFFIXES)) {
      invalidArgument("dtype", `expected one of ${Object.keys(DTYPE_SUFFIXES).join(", ")}, got ${JSON.stringify(options.dtype)}`);
    }
    this.id = id;
    this.revision = options.revision ?? "main";
    this.#options = options;
    this.#io = io;
  }

  /** `{subfolder}/{modelFileName}{suffix}.onnx` for a dtype. */
  graphPath(dtype: Dtype): string {
    const folder = this.#options.subfolder ?? "onnx";
    return `${folder ? folder + "/" : ""}${this.#options.modelFileName ?? "model"}${DTYPE_SUFFIXES[dtype]}.onnx`;
  }

  /** The places `path` may be found, in lookup order: the local copy, then the remote URL. */
  sources(path: string): string[] {
    const out: string[] = [];
    const local = this.#options.localModelPath;
    if (local) out.push(`${local.replace(/\/+$/, "")}/${this.id}/${path}`);
    if (this.#options.allowRemoteModels !== false) {
      const host = (this.#options.remoteHost ?? DEFAULT_HOST).replace(/\/?$/, "/");
      const repoPath = (this.#options.remotePathTemplate ?? DEFAULT_TEMPLATE)
        .replaceAll("{model}", this.id)
        .replaceAll("{revision}", encodeURIComponent(this.revision));
      out.push(host + repoPath.replace(/^\/+/, "").replace(/\/?$/, "/") + path);
    }
    return out;
  }

  /** The bytes of `path`, or `undefined` when no source has it. */
  async fetchOptional(path: string): Promise<Uint8Array | undefined> {
    for (const source of this.sources(path)) {
      const bytes = await loadOptionalBytes(source, path, "MODEL_LOAD", this.#io);
      if (bytes !== undefined) return bytes;
    }
    return undefined;
  }

  /** The bytes of `path`; `MODEL_LOAD` naming the places looked at when none has it. */
  async fetch(path: string): Promise<Uint8Array> {
    const bytes = await this.fetchOptional(path);
    if (bytes === undefined) throw this.missing(path);
    return bytes;
  }

  /** Whether any source has `path` (HEAD or stat, no download). */
  async has(path: string): Promise<boolean> {
    for (const source of this.sources(path)) if (await sourceExists(source, this.#io.signal)) return true;
    return false;
  }

  /** The dtypes whose graph file the repo has. */
  async availableDtypes(): Promise<Dtype[]> {
    const all = Object.keys(DTYPE_SUFFIXES) as Dtype[];
    const found = await Promise.all(all.map((d) => this.has(this.graphPath(d))));
    return all.filter((_, i) => found[i]);
  }

  missing(path: string, detail = ""): RerankitError {
    const where = this.sources(path);
    const offline = this.#options.allowRemoteModels === false ? " (allowRemoteModels is false: nothing is fetched from the remote host)" : "";
    return new RerankitError(
      `${path}: not found in ${this.id}@${this.revision}${detail}; looked at ${where.length ? where.join(", ") : "nothing"}${offline}`,
      "MODEL_LOAD",
    );
  }
}

/** The graph file for the requested (or default) dtype, and the dtype chosen. */
export async function resolveGraph(repo: HubRepo, requested: Dtype | undefined, fallback: Dtype, warn: ((m: string) => void) | undefined): Promise<{ path: string; bytes: Uint8Array; dtype: Dtype }> {
  const dtype = requested ?? fallback;
  const path = repo.graphPath(dtype);
  const bytes = await repo.fetchOptional(path);
  if (bytes !== undefined) return { path, bytes, dtype };
  if (requested === undefined && dtype !== "fp32") {
    const fp32 = repo.graphPath("fp32");
    const b = await repo.fetchOptional(fp32);
    if (b !== undefined) {
      warn?.(`${repo.id} has no ${path} (dtype "${dtype}", the default here): using ${fp32} (fp32)`);
      return { path: fp32, bytes: b, dtype: "fp32" };
    }
  }
  const have = await repo.availableDtypes();
  const list = have.length ? have.map((d) => `${d} (${repo.graphPath(d)})`).join(", ") : "none";
  throw repo.missing(path, ` (dtype "${dtype}"); the repo has: ${list}`);
}

/** sentence-transformers' pooling of an embedder repo, from `modules.json` and its Pooling module's config. */
export async function poolingOf(repo: HubRepo): Promise<{ pooling: "mean" | "cls" | "lastToken"; normalize: boolean } | undefined> {
  const modulesBytes = await repo.fetchOptional("modules.json");
  if (modulesBytes === undefined) return undefined;
  const modules = parseJson(modulesBytes, "modules.json") as { type?: string; path?: string }[];
  if (!Array.isArray(modules)) throw new RerankitError("modules.json: expected a list of modules", "MODEL_LOAD");
  const normalize = modules.some((m) => typeof m?.type === "string" && m.type.endsWith(".Normalize"));
  const poolingModule = modules.find((m) => typeof m?.type === "string" && m.type.endsWith(".Pooling"));
  if (!poolingModule) return { pooling: "mean", normalize };
  const path = `${poolingModule.path ? poolingModule.path.replace(/\/+$/, "") + "/" : ""}config.json`;
  const config = parseJson(await repo.fetch(path), path) as Record<string, unknown>;
  const modes = Object.entries(config).filter(([k, v]) => k.startsWith("pooling_mode_") && v === true).map(([k]) => k.slice("pooling_mode_".length));
  const known: Record<string, "mean" | "cls" | "lastToken"> = { mean_tokens: "mean", cls_token: "cls", lasttoken: "lastToken" };
  if (modes.length !== 1 || !(modes[0] in known)) {
    throw new RerankitError(`${path}: pooling ${modes.join(" + ") || "(none)"} is not supported (mean, CLS or last-token pooling; pass \`pooling\` to override)`, "UNSUPPORTED");
  }
  return { pooling: known[modes[0]], normalize };
}

function parseJson(bytes: Uint8Array, file: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new RerankitError(`${file}: not valid JSON (${(e as Error).message})`, "MODEL_LOAD");
  }
}
