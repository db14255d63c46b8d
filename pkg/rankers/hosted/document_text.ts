// The text a hosted reranker is sent for each document: the listed meta values, then the content, joined with
// "\n" — the text the local model reads (src/inference/cross_encoder.rs `model_text`, Haystack's
// `embed_meta_fields`), so a hosted ranker and the local model rank the same strings. Meta values print as
// Python's `str` (src/python/repr.rs): Haystack builds the text in Python, and a number, list or boolean must
// read the same whichever ranker sees it; a list gives a line per item. Missing and falsy values are skipped, as
// Python's truthiness skips them.
import { invalidArgument } from "../../errors.js";
import type { RerankDocument } from "../ranker.js";

/** The text of `documents[i]` (`field` names the list in errors). */
export function documentText(document: RerankDocument | undefined, field: string, metaFields: readonly string[]): string {
  if (typeof document === "string") return document;
  if (document === null || typeof document !== "object" || Array.isArray(document)) invalidArgument(field, "expected a string, a Document or {content, meta}");
  const { content, meta } = document as { content?: unknown; meta?: unknown };
  if (typeof content !== "string") invalidArgument(`${field}.content`, "a reranker needs text content (a string)");
  if (metaFields.length === 0 || meta === undefined || meta === null) return content;
  if (typeof meta !== "object" || Array.isArray(meta)) invalidArgument(`${field}.meta`, "expected an object");
  const parts: string[] = [];
  for (const key of metaFields) {
    if (!Object.hasOwn(meta, key)) continue;
    const value = (meta as Record<string, unknown>)[key];
    if (!truthy(value)) continue;
    // Haystack 1.x writes a list's items one per line (its falsy items too), as the local model's text does
    if (Array.isArray(value) || ArrayBuffer.isView(value)) {
      Array.from(value as ArrayLike<unknown>, (item, i) => parts.push(pythonStr(item, `${field}.meta.${key}[${i}]`)));
    } else {
      parts.push(pythonStr(value, `${field}.meta.${key}`));
    }
  }
  return parts.length === 0 ? content : [...parts, content].join("\n");
}

/** Python's truthiness of the value the local model would read (`undefined` is None, a Date a string). */
function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === 0n || value === "") return false;
  if (Array.isArray(value) || ArrayBuffer.isView(value)) return (value as ArrayLike<unknown>).length > 0;
  if (value instanceof Map) return value.size > 0;
  if (typeof value === "object" && !(value instanceof Date)) return Object.values(value).some((v) => v !== undefined);
  return true;
}

/** Deepest nesting read, as the wasm side's conversion (bindings/wasm/src/convert.rs): deeper is almost surely a cycle. */
const MAX_DEPTH = 128;

/** Python's `str(value)` of the JSON value the local model would read: strings (and Dates, as ISO text) as they are, anything else as its `repr`. */
function pythonStr(value: unknown, field: string): string {
  if (typeof value === "string") return value;
  if (value instanceof Date) return isoDate(value, field);
  return pythonRepr(value, field, 0);
}

function isoDate(date: Date, field: string): string {
  if (Number.isNaN(date.getTime())) invalidArgument(field, "an invalid Date");
  return date.toISOString();
}

function pythonRepr(value: unknown, field: string, depth: number): string {
  if (depth > MAX_DEPTH) invalidArgument(field, `nested deeper than ${MAX_DEPTH} levels (a cycle?)`);
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) invalidArgument(field, `${value} is not a finite number`);
    // the conversion keeps integral values within the safe range as integers (Python prints `1`, not `1.0`)
    return Number.isSafeInteger(value) && !Object.is(value, -0) ? String(value) : reprFloat(value);
  }
  if (typeof value === "bigint") {
    if (value < -(2n ** 63n) || value >= 2n ** 63n) invalidArgument(field, "a BigInt outside the 64-bit range");
    return value.toString();
  }
  if (typeof value === "string") return reprStr(value);
  if (typeof value === "function" || typeof value === "symbol") invalidArgument(field, "functions and symbols are not data");
  if (value instanceof Date) return reprStr(isoDate(value, field));
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    return `[${Array.from(value as ArrayLike<unknown>, (v, i) => pythonRepr(v, `${field}[${i}]`, depth + 1)).join(", ")}]`;
  }
  const entries = value instanceof Map ? [...value.entries()].map(([k, v]) => [mapKey(k, field), v] as const) : Object.entries(value as object);
  // JSON drops undefined properties, and so does the conversion the local model reads through
  const kept = entries.filter(([, v]) => v !== undefined);
  return `{${kept.map(([k, v]) => `${reprStr(String(k))}: ${pythonRepr(v, `${field}.${k}`, depth + 1)}`).join(", ")}}`;
}

/** A Map key as the wasm conversion names it: a string, or the JSON text of a number, boolean or null. */
function mapKey(key: unknown, field: string): string {
  if (typeof key === "string") return key;
  if ((typeof key === "number" && Number.isFinite(key)) || typeof key === "boolean" || key === null) return JSON.stringify(key);
  invalidArgument(field, "a Map key that is neither a string nor JSON data");
}

/** Python's `repr(float)`: shortest round-trip digits, fixed notation for decimal exponents in [-4, 16). */
function reprFloat(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (Object.is(x, -0)) return "-0.0";
  // toExponential() without a digit count gives the shortest digits that round-trip, as Python's repr does
  const [mantissa, exp] = x.toExponential().split("e");
  const exponent = Number(exp);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace(/[-.]/g, "");
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
    const intLen = exponent + 1;
    if (digits.length <= intLen) return `${sign}${digits.padEnd(intLen, "0")}.0`;
    return `${sign}${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
  }
  const tail = digits.length > 1 ? `.${digits.slice(1)}` : "";
  return `${sign}${digits[0]}${tail}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

/** Python's `repr(str)` for printable text: single quotes unless the text holds `'` and no `"`. */
function reprStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const c of s) {
    const code = c.codePointAt(0)!;
    if (c === "\\") out += "\\\\";
    else if (c === "\t") out += "\\t";
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === quote) out += `\\${c}`;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += c;
  }
  return out + quote;
}
