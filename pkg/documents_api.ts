// What every entry exports (eval.ts, pipeline_eval.ts and through them index.ts): the error class, the Haystack
// document schema and the facts of the wasm instance the entry loaded.
export { RerankitError, type ErrorCode } from "./errors.js";
export {
  Document, Label, MultiLabel,
  type Answer, type ContentType, type DocumentDict, type DocumentInit, type FieldMap, type IdHashKey, type LabelDict, type MultiLabelOptions, type Meta, type Span, type TableCell,
} from "./document.js";
export { version, wasmMemoryBytes, wasmRestarts, wasmSimd } from "./runtimes/wasm_instance.js";
export type { WasmSimd } from "./runtimes/wasm_simd.js";
