import type { ErrorCode } from "./rust_types.js";
export type { ErrorCode } from "./rust_types.js";

/** Every error rerankit throws. `message` names the offending field (`documents[2].meta.date: …`). */
export class RerankitError extends Error {
  /** What went wrong, as a stable code. */
  readonly code: ErrorCode;
  /** `REMOTE` errors: the HTTP status of the service's last answer (absent when none came: network, binding). */
  readonly status?: number;

  constructor(message: string, code: ErrorCode, details?: { status?: number }) {
    super(message);
    this.name = "RerankitError";
    this.code = code;
    if (details?.status !== undefined) this.status = details.status;
  }
}

/**
 * A value as an error message may print it: strings quoted (cut at 40 characters), numbers, booleans, null and
 * undefined as they are, anything else by its kind — never converted, which a hostile object could refuse.
 */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) return String(value);
  return Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : typeof value;
}

/** Throws an INVALID_ARGUMENT error for `field`. */
export function invalidArgument(field: string, problem: string): never {
  throw new RerankitError(`${field}: ${problem}`, "INVALID_ARGUMENT");
}

/**
 * Most elements rerankit reads from one list, here and in Rust (`MAX_ELEMENTS` in bindings/wasm/src/convert.rs):
 * walking a longer array — a sparse one of length 2³²−1 — would block the caller for minutes or exhaust memory.
 */
export const MAX_LIST_LENGTH = 2 ** 25;

/** Refuses a list longer than {@link MAX_LIST_LENGTH} before anything iterates it. */
export function checkListLength(list: { length: number }, field: string): void {
  if (list.length > MAX_LIST_LENGTH) invalidArgument(field, `has ${list.length} elements, more than the ${MAX_LIST_LENGTH} rerankit reads from one list`);
}

/**
 * The options object of a function whose options TypeScript reads itself (callbacks, models): `undefined` or
 * `null` is `{}`; anything but an object, or a key not in `known`, is `INVALID_ARGUMENT` — as the Rust option
 * structs refuse unknown keys (src/options.rs).
 */
export function optionsObject<T extends object>(options: T | null | undefined, known: readonly string[], field = "options"): T {
  if (options === undefined || options === null) return {} as T;
  if (typeof options !== "object" || Array.isArray(options)) invalidArgument(field, `expected an object with ${known.join(", ")}`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) invalidArgument(key, `unknown option ${JSON.stringify(key)} (valid: ${known.join(", ")})`);
  }
  return options;
}

