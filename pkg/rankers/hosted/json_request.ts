// One JSON POST to a hosted reranker, with the retry policy of docs/hosted_rankers.md: 429 and 5xx answers and
// network failures are retried up to `maxRetries` times, waiting what the service's `Retry-After` asks (seconds or
// an HTTP date) or else an exponential backoff with jitter; every wait and request stops at once on the signal.
// Failures become `RerankitError` `REMOTE` with the HTTP status and the service's own message. Secrets (the API
// key, any header value the caller gave) are cut out of every message, whatever the service echoes back: an
// error is logged, shown or sent on far more often than a request is.
import { RerankitError } from "../../errors.js";
import type { CallControl } from "../../call_control.js";
import { sleep } from "./abort_scope.js";

/** The `fetch` a ranker calls (injectable: tests, proxies, a Worker's service binding's `fetch`). */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** How a hosted ranker retries failed requests: `maxRetries`, `retryDelayMs` and `maxRetryDelayMs` after their defaults. */
export interface RetryPolicy {
  /** Retries after the first attempt (429, 5xx, network failure). */
  maxRetries: number;
  /** The first backoff; each retry doubles it (with jitter), up to `maxRetryDelayMs`. */
  retryDelayMs: number;
  /** Longest wait between attempts; a `Retry-After` asking for longer ends the call with `REMOTE` instead. */
  maxRetryDelayMs: number;
}

export interface JsonRequest {
  service: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  fetch: FetchFunction;
  retry: RetryPolicy;
  signal: AbortSignal;
  /** `signal` as a {@link CallControl}: once it fires, every step throws `ABORTED` (the caller aborted, or a
   *  sibling request of the same call failed and the call's first error is already on its way). */
  control: CallControl;
  /** Strings never to appear in an error. */
  secrets: readonly string[];
  /** The service's message in an error body. */
  errorMessage: (body: unknown) => string | undefined;
}

/** The parsed JSON answer of a successful POST. */
export async function postJson(request: JsonRequest): Promise<unknown> {
  const { service, retry, signal, control } = request;
  const clean = (text: string) => redact(text, request.secrets);
  for (let attempt = 0; ; attempt++) {
    control.check();
    let response: Response | undefined;
    let failure: string;
    try {
      response = await request.fetch(request.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...request.headers },
        body: JSON.stringify(request.body),
        signal,
      });
    } catch (e) {
      control.check();
      failure = `request failed (${clean(e instanceof Error ? e.message : String(e))})`;
    }
    if (response !== undefined) {
      if (response.ok) {
        const text = await readText(response, request);
        try {
          return JSON.parse(text);
        } catch {
          throw new RerankitError(`${service}: unexpected response: HTTP ${response.status} with a body that is not JSON (${clean(text.slice(0, 120))})`, "REMOTE", { status: response.status });
        }
      }
      const text = await readText(response, request);
      let message: string | undefined;
      try {
        message = request.errorMessage(JSON.parse(text));
      } catch {
        message = undefined;
      }
      message ??= text.trim().slice(0, 300);
      failure = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}${message ? `: ${clean(message)}` : ""}`;
    }
    const status = response?.status;
    const retryable = status === undefined || status === 429 || status >= 500;
    const tries = attempt === 0 ? "" : ` (after ${attempt} ${attempt === 1 ? "retry" : "retries"})`;
    if (!retryable || attempt >= retry.maxRetries) throw new RerankitError(`${service}: ${failure!}${tries}`, "REMOTE", { status });
    const asked = response === undefined ? undefined : retryAfterMs(response.headers.get("retry-after"));
    if (asked !== undefined && asked > retry.maxRetryDelayMs) {
      throw new RerankitError(`${service}: ${failure!}; the service asks to retry after ${Math.ceil(asked / 1000)} s, more than maxRetryDelayMs (${retry.maxRetryDelayMs} ms)${tries}`, "REMOTE", { status });
    }
    const backoff = Math.min(retry.maxRetryDelayMs, retry.retryDelayMs * 2 ** attempt);
    // equal jitter: callers that failed together do not all come back at the same instant
    const wait = asked ?? backoff / 2 + (Math.random() * backoff) / 2;
    try {
      await sleep(wait, signal);
    } catch (e) {
      control.check();
      throw e;
    }
  }
}

async function readText(response: Response, request: JsonRequest): Promise<string> {
  try {
    return await response.text();
  } catch (e) {
    request.control.check();
    throw new RerankitError(`${request.service}: the answer broke off (${redact(e instanceof Error ? e.message : String(e), request.secrets)})`, "REMOTE", { status: response.status });
  }
}

/** `Retry-After` in milliseconds from now: delta-seconds or an HTTP date; `undefined` when absent or unreadable. */
export function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** `text` with every secret replaced by `[redacted]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length > 0) out = out.split(s).join("[redacted]");
  return out;
}
