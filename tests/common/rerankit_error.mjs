// Asserting a typed rerankit error: the class of the entry point under test (`rerankit` and `rerankit/eval` each
// export their own RerankitError), its stable `code`, and optionally a pattern its message must match.
import assert from "node:assert/strict";

export function assertThrowsCode(ErrorClass, fn, code, message) {
  assert.throws(fn, (err) => {
    assert.ok(err instanceof ErrorClass, `expected ${ErrorClass.name}, got ${err}`);
    assert.equal(err.code, code);
    if (message) assert.match(err.message, message);
    return true;
  });
}
