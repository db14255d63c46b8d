// Model bytes from wherever they live: a URL (fetched with progress, cancellation and HTTP caching), bytes already
// in memory, or — in Node and Deno — a file path. Weights are never part of the package: users point at their own
// files (a CDN, R2, a static folder), and the Cache API keeps them so a page reload or a new Worker isolate does
// not download them again.
import { RerankitError, type ErrorCode } from "../errors.js";

/** A URL (string or `URL`), bytes, or in Node/Deno a file path. */
export type ModelSource = string | URL | Uint8Array | ArrayBuffer;

/**
 * Progress of one file; `total` is `null` when the server sends no length. `fromCache` is true when the bytes
 * came from the cache (one event, `loaded === total`) rather than the network or the file system.
 */
export interface LoadProgress {
  /** The file, by URL, path or repo path. */
  file: string;
  /** Bytes received so far. */
  loaded: number;
  /** The file's size in bytes, or null when the server sends no length. */
  total: number | null;
  /** True when the bytes came from the cache. */
  fromCache: boolean;
}

/** A store of your own for downloaded files (IndexedDB, a KV namespace, a Map…), keyed by URL. */
export interface ModelCacheStore {
  /** The bytes stored for `url`, or undefined. */
  get(url: string): Promise<Uint8Array | undefined>;
  /** Stores the bytes of `url`. */
  put(url: string, bytes: Uint8Array): Promise<void>;
}

/** The part of a Cache API `Cache` rerankit uses (structural, so Node typings without the DOM lib accept it). */
export interface CacheApiCache {
  /** The cached response for a URL, or undefined. */
  match(request: string): Promise<Response | undefined>;
  /** Stores a response for a URL. */
  put(request: string, response: Response): Promise<void>;
}

/**
 * Where files fetched from a URL are kept:
 * - omitted: the Cache API cache named {@link DEFAULT_CACHE_NAME} wherever `caches` exists (browsers, Workers,
 *   Deno); nothing in Node;
 * - a string: the Cache API cache of that name;
 * - a `Cache` (e.g. `caches.default` in a Worker) or a {@link ModelCacheStore}: that one;
 * - `false`: never cache (every load downloads).
 */
export type SourceCache = ModelCacheStore | CacheApiCache | string | false;

export interface LoadSourceOptions {
  onProgress?: (progress: LoadProgress) => void;
  signal?: AbortSignal;
  cache?: SourceCache;
}

/** The Cache API cache rerankit uses unless told otherwise. */
export const DEFAULT_CACHE_NAME = "rerankit-models";

/** How long a cached file stays fresh where the Cache API honours expiry (Workers) and the server set none. */
const DEFAULT_MAX_AGE_S = 7 * 24 * 3600;

const isNode = typeof (globalThis as any).process?.versions?.node === "string" && typeof (globalThis as any).Deno === "undefined";
const isDeno = typeof (globalThis as any).Deno !== "undefined";
const URL_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

function fail(code: ErrorCode, file: string, problem: string): never {
  throw new RerankitError(`${file}: ${problem}`, code);
}

/** The error of a cancelled load: code ABORTED, the signal's reason as `cause`. */
function aborted(file: string, signal: AbortSignal): RerankitError {
  const reason = signal.reason;
  const why = reason instanceof Error ? reason.message : String(reason);
  const err = new RerankitError(`${file}: loading was aborted (${why})`, "ABORTED");
  Object.defineProperty(err, "cause", { value: reason, enumerable: false, writable: true, configurable: true });
  return err;
}

function checkAborted(file: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw aborted(file, signal);
}

/** The bytes of `source`; `file` names it in errors and progress events (`model`, `tokenizer`, `config`). */
export async function loadBytes(source: ModelSource, file: string, code: ErrorCode, options: LoadSourceOptions = {}): Promise<Uint8Array> {
  return (await loadBytesIf(source, file, code, options, false))!;
}

/** As {@link loadBytes}, but `undefined` when the file does not exist (HTTP 404, no such file). */
export async function loadOptionalBytes(source: ModelSource, file: string, code: ErrorCode, options: LoadSourceOptions = {}): Promise<Uint8Array | undefined> {
  return loadBytesIf(source, file, code, options, true);
}

/** Whether `source` (a URL or, in Node/Deno, a path) exists: a HEAD request, or a stat of the file. */
export async function sourceExists(source: string, signal?: AbortSignal): Promise<boolean> {
  if ((isNode || isDeno) && (source.startsWith("file:") || !URL_SCHEME.test(source))) {
    const p = source.startsWith("file:") ? new URL(source) : source;
    try {
      if (isDeno) await (globalThis as any).Deno.stat(p);
      else {
        const fsName = "node:fs/promises";
        await (await import(/* @vite-ignore */ fsName)).stat(p);
      }
      return true;
    } catch {
      return false;
    }
  }
  try {
    const r = await fetch(source, { method: "HEAD", signal });
    await r.body?.cancel().catch(() => {});
    return r.ok;
  } catch {
    return false;
  }
}

/** What a server said about a missing file, from the Hub's `X-Error-Code`/`X-Error-Message` headers. */
function hubError(response: Response): string {
  const code = response.headers.get("x-error-code");
  const message = response.headers.get("x-error-message");
  return code || message ? ` (${[code, message].filter(Boolean).join(": ")})` : "";
}

async function loadBytesIf(source: ModelSource, file: string, code: ErrorCode, options: LoadSourceOptions, optional: boolean): Promise<Uint8Array | undefined> {
  const { signal, onProgress } = options;
  checkAborted(file, signal);
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
  if ((isNode || isDeno) && (isFileUrl || !URL_SCHEME.test(url))) {
    if (optional && !(await sourceExists(url))) return undefined;
    return readLocal(url, file, code, options);
  }

  const cache = await openCache(options.cache, file);
  const cached = await cache?.get(url).catch(() => undefined);
  if (cached) {
    onProgress?.({ file, loaded: cached.byteLength, total: cached.byteLength, fromCache: true });
    return cached;
  }
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (e) {
    checkAborted(file, signal);
    fail(code, file, `cannot fetch ${url} (${(e as Error).message})`);
  }
  if (optional && response.status === 404 && !/^(RepoNotFound|RevisionNotFound|GatedRepo)$/.test(response.headers.get("x-error-code") ?? "")) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  if (!response.ok) fail(code, file, `fetching ${url} gave HTTP ${response.status} ${response.statusText}${hubError(response)}`);
  // content-length counts encoded bytes: with gzip/br on the wire the decoded size is unknown until the end.
  const encoding = (response.headers.get("content-encoding") ?? "identity").toLowerCase();
  const length = Number(response.headers.get("content-length"));
  const total = encoding === "identity" && Number.isFinite(length) && length > 0 ? length : null;
  const bytes = await readBody(response, file, total, options);
  checkAborted(file, signal);
  // A cache that cannot store (quota, private mode) costs a download next time, never the load itself.
  if (cache && storable(response)) await cache.put(url, bytes, response.headers).catch(() => {});
  return bytes;
}

/** HTTP caching: the server's `no-store` is honoured; everything else may be kept. */
function storable(response: Response): boolean {
  return !/(^|,)\s*no-store\s*(,|$)/i.test(response.headers.get("cache-control") ?? "");
}

interface OpenedCache {
  get(url: string): Promise<Uint8Array | undefined>;
  put(url: string, bytes: Uint8Array, headers: Headers): Promise<void>;
}

/** Resolves the `cache` option to something with get/put, or undefined for no caching. */
async function openCache(option: SourceCache | undefined, file: string): Promise<OpenedCache | undefined> {
  if (option === false) return undefined;
  if (option !== undefined && typeof option === "object" && typeof (option as ModelCacheStore).get === "function" && typeof (option as ModelCacheStore).put === "function") {
    const store = option as ModelCacheStore;
    return { get: (url) => store.get(url), put: (url, bytes) => store.put(url, bytes) };
  }
  if (option !== undefined && typeof option === "object" && typeof (option as CacheApiCache).match === "function" && typeof (option as CacheApiCache).put === "function") {
    return cacheApi(option as CacheApiCache);
  }
  if (option !== undefined && typeof option !== "string") {
    fail("INVALID_ARGUMENT", "cache", "expected false, a Cache API cache name, a Cache, or an object with get(url) and put(url, bytes)");
  }
  const storage = (globalThis as any).caches as CacheStorage | undefined;
  if (typeof storage?.open !== "function") {
    if (typeof option === "string") fail("UNSUPPORTED", "cache", `the Cache API is not available here, so cache "${option}" cannot be opened`);
    return undefined;
  }
  try {
    return cacheApi(await storage.open(option ?? DEFAULT_CACHE_NAME));
  } catch (e) {
    // Opaque origins and some private modes refuse the Cache API: load without it.
    if (typeof option === "string") fail("UNSUPPORTED", "cache", `cannot open Cache API cache "${option}" for the ${file} (${(e as Error).message})`);
    return undefined;
  }
}

/** A Cache API cache keyed by the file's URL. */
function cacheApi(cache: CacheApiCache): OpenedCache {
  return {
    async get(url) {
      const hit = await cache.match(url);
      return hit ? new Uint8Array(await hit.arrayBuffer()) : undefined;
    },
    async put(url, bytes, source) {
      const headers = new Headers({ "content-type": source.get("content-type") ?? "application/octet-stream", "content-length": String(bytes.byteLength) });
      // Workers expire entries by cache-control; keep the server's freshness where it gave one.
      const cc = source.get("cache-control");
      headers.set("cache-control", cc && /max-age|s-maxage|immutable/i.test(cc) ? cc : `public, max-age=${DEFAULT_MAX_AGE_S}`);
      for (const h of ["etag", "last-modified"]) {
        const v = source.get(h);
        if (v) headers.set(h, v);
      }
      await cache.put(url, new Response(bytes as Uint8Array<ArrayBuffer>, { headers }));
    },
  };
}

async function readBody(response: Response, file: string, total: number | null, options: LoadSourceOptions): Promise<Uint8Array> {
  const { signal, onProgress } = options;
  if (!response.body) {
    const b = new Uint8Array(await response.arrayBuffer());
    onProgress?.({ file, loaded: b.byteLength, total: total ?? b.byteLength, fromCache: false });
    return b;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  onProgress?.({ file, loaded: 0, total, fromCache: false });
  for (;;) {
    if (signal?.aborted) {
      await reader.cancel().catch(() => {});
      throw aborted(file, signal);
    }
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (e) {
      checkAborted(file, signal);
      fail("MODEL_LOAD", file, `the download broke off after ${loaded} bytes (${(e as Error).message})`);
    }
    if (step.done) break;
    chunks.push(step.value);
    loaded += step.value.byteLength;
    onProgress?.({ file, loaded, total, fromCache: false });
  }
  if (total !== null && loaded !== total) fail("MODEL_LOAD", file, `the download ended after ${loaded} of ${total} bytes`);
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
    onProgress?.({ file, loaded: bytes.byteLength, total: bytes.byteLength, fromCache: false });
    return bytes;
  } catch (e) {
    checkAborted(file, signal);
    fail(code, file, `cannot read ${pathOrUrl} (${(e as Error).message})`);
  }
}
