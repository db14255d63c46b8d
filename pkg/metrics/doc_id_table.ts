// Document-id tables: how a column of ids crosses into wasm (UTF-8 bytes joined by a zero byte), and a table built
// once and kept there (DocIdTable), which the columns of many qrels and runs can name instead of an array of ids.
import * as wasm from "../wasm/rerankit.js";
import { checkListLength, invalidArgument } from "../errors.js";
import { OwnedWasm, notMadeByRerankit } from "../runtimes/wasm_instance.js";

/**
 * A document-id table kept in wasm, made once by {@link docIdTable} and named by the `docIds` of any number of
 * `ColumnarQrels` and `ColumnarRun`s (src/metrics/inputs/columns.rs). Its ids do not cross again on each
 * call, and qrels and a run that name the same table are judged by comparing indices in it, never the ids' bytes.
 * Values are those of the same input given as text.
 */
export class DocIdTable {
  readonly #wasm: OwnedWasm<wasm.MetricsDocIdTable>;
  /** @internal */
  constructor(handle: wasm.MetricsDocIdTable) {
    this.#wasm = new OwnedWasm(handle, "DocIdTable");
  }
  /** @internal The wasm object (`FREED` after free()). */
  get handle(): wasm.MetricsDocIdTable {
    if (!(#wasm in this)) throw notMadeByRerankit("DocIdTable");
    return this.#wasm.get();
  }
  /** Number of ids. */
  get size(): number {
    return this.handle.size;
  }
  /**
   * Releases the wasm memory now (otherwise the garbage collector does, eventually); a second call does nothing.
   * Qrels and runs built from the table before keep their own share of it.
   */
  free(): void {
    if (#wasm in this) this.#wasm.free();
  }
}

/**
 * A document-id table of `ids` (strings, each listed once, none empty), for the `docIds` of columnar qrels and runs:
 * row `r` of such columns names `ids[docs[r]]`. A repeated or empty id is `INVALID_ARGUMENT` naming its index
 * (`docIds[7]: repeats docIds[3] ("D12")…`).
 */
export function docIdTable(ids: string[]): DocIdTable {
  const [bytes, count] = joinedIdBytes(ids, "docIds");
  return new DocIdTable(wasm.metricsDocIdTable("docIds", bytes, count));
}

/** `ids` as a column of strings, or `INVALID_ARGUMENT` naming the field or the first element that is not one. */
export function idColumn(ids: unknown, field: string): string[] {
  if (!Array.isArray(ids)) return invalidArgument(field, `expected an array of strings, got ${ids === null ? "null" : typeof ids}`);
  checkListLength(ids, field);
  for (let i = 0; i < ids.length; i++) {
    if (typeof ids[i] !== "string") invalidArgument(`${field}[${i}]`, `expected a string, got ${ids[i] === null ? "null" : typeof ids[i]}`);
  }
  return ids;
}

/**
 * The document ids as UTF-8 bytes joined by a zero byte. Ids are almost always ASCII: those are written a character
 * at a time into one buffer, twice as fast as joining them into one string and encoding that (4.3M ids: 76 against
 * 154 ms in Node 20); the first other character (or a U+0000, which the wasm side refuses by count) falls back to
 * the join, whose bytes are the same.
 */
export function joinedIdBytes(ids: unknown, field: string): [Uint8Array, number] {
  const column = idColumn(ids, field);
  let length = column.length;
  for (const id of column) length += id.length;
  const out = new Uint8Array(Math.max(length - 1, 0));
  let at = 0;
  for (let i = 0; i < column.length; i++) {
    const id = column[i];
    if (i > 0) out[at++] = 0;
    for (let j = 0; j < id.length; j++) {
      const c = id.charCodeAt(j);
      if (c >= 0x80 || c === 0) return [encoder.encode(column.join("\0")), column.length];
      out[at++] = c;
    }
  }
  return [out, column.length];
}

const encoder = new TextEncoder();
