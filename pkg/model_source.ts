// Model bytes from wherever they live: a URL (fetched with progress and cancellation), bytes already in
// memory, or — in Node and Deno — a file path. Cache API storage is a later concern; `cache` is its hook.
import { RerankitError, type ErrorCode } from "./errors.js";

/** A URL (string or `URL`), bytes, or in Node/Deno a file path. */
export type ModelSource = string | URL | Uint8Array | ArrayBuffer;

/** Download progress of one file; `total` is `null` when the server sends no length. */
export interface LoadProgress {
  file: string;
  loaded: number;
  total: number | null;
}

/** Where fetched bytes may be kept between sessions (e.g. the Cache API). Optional. */
export interface SourceCache {
  get(url: string): Promise<Uint8Array | undefined>;
  put(url: string, bytes: Uint8Array): Promise<void>;
}

export interface LoadSourceOptions {
  onProgress?: (progress: LoadProgress) => void;
  signal?: AbortSignal;
  cache?: SourceCache;
}

const isNode = typeof (globalThis as any).process?.versions?.node === "string" && typeof (globalThis as any).Deno === "undefined";
const isDeno = typeof (globalThis as any).Deno !== "undefined";
const URL_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

function fail(code: ErrorCode, file: string, problem: string): never {
  throw new RerankitError(`${file}: ${problem}`, code);
}

/** The bytes of `source`; `file` names it in errors and progress events (`model`, `tokenizer`, `config`). */
export async function loadBytes(source: ModelSource, file: string, code: ErrorCode, options: LoadSourceOptions = {}): Promise<Uint8Array> {
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (ArrayBuffer.isView(source)) {
    const v = source as ArrayBufferView;
    return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  }
  let url: string;
  if (source instanceof URL) url = source.href;
  else if (typeof source === "string") url = source;
  else fail("INVALID_ARGUMENT", file, "expected a URL, a file path, a Uint8Array or an ArrayBuffer");

  const isFileUrl = url.startsWith("file:");
  if ((isNode || isDeno) && (isFileUrl || !URL_SCHEME.test(url))) return readLocal(url, file, code, options);

  const cached = await options.cache?.get(url);
  if (cached) {
    onProgress?.({ file, loaded: cached.byteLength, total: cached.byteLength });
    return cached;
  }
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    fail(code, file, `cannot fetch ${url} (${(e as Error).message})`);
  }
  if (!response.ok) fail(code, file, `fetching ${url} gave HTTP ${response.status} ${response.statusText}`);
  const length = Number(response.headers.get("content-length"));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const bytes = await readBody(response, file, total, options);
  await options.cache?.put(url, bytes);
  return bytes;
}

async function readBody(response: Response, file: string, total: number | null, options: LoadSourceOptions): Promise<Uint8Array> {
  const { signal, onProgress } = options;
  if (!response.body) {
    const b = new Uint8Array(await response.arrayBuffer());
    onProgress?.({ file, loaded: b.byteLength, total: total ?? b.byteLength });
    return b;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  onProgress?.({ file, loaded: 0, total });
  for (;;) {
    if (signal?.aborted) {
      await reader.cancel().catch(() => {});
      throw signal.reason;
    }
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress?.({ file, loaded, total });
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

async function readLocal(pathOrUrl: string, file: string, code: ErrorCode, options: LoadSourceOptions): Promise<Uint8Array> {
  const { signal, onProgress } = options;
  try {
    let bytes: Uint8Array;
    if (isDeno) {
      const p = pathOrUrl.startsWith("file:") ? new URL(pathOrUrl) : pathOrUrl;
      bytes = await (globalThis as any).Deno.readFile(p, { signal });
    } else {
      const fsName = "node:fs/promises";
      const fs = await import(/* @vite-ignore */ fsName);
      const p = pathOrUrl.startsWith("file:") ? new URL(pathOrUrl) : pathOrUrl;
      const buf: Uint8Array = await fs.readFile(p, { signal });
      bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    }
    onProgress?.({ file, loaded: bytes.byteLength, total: bytes.byteLength });
    return bytes;
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    fail(code, file, `cannot read ${pathOrUrl} (${(e as Error).message})`);
  }
}
