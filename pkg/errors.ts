/** Stable error codes: switch on `err.code`, never on the message. */
export type ErrorCode = "INVALID_ARGUMENT" | "MODEL_LOAD" | "TOKENIZER" | "UNSUPPORTED" | "PARSE" | "INTERNAL" | "ABORTED";

/** Every error rerankit throws. `message` names the offending field (`documents[2].meta.date: …`). */
export class RerankitError extends Error {
  readonly code: ErrorCode;

  constructor(message: string, code: ErrorCode) {
    super(message);
    this.name = "RerankitError";
    this.code = code;
  }
}

/** Throws an INVALID_ARGUMENT error for `field`. */
export function invalidArgument(field: string, problem: string): never {
  throw new RerankitError(`${field}: ${problem}`, "INVALID_ARGUMENT");
}
