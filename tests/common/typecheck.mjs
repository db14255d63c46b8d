// Type-checks a TypeScript snippet against the built package's declarations, as a user's project would
// (strict, bundler resolution): the tests of the public types (the Ranker interface, the integrations' fit with
// their frameworks) assert that the returned list of compiler messages is empty.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** The compiler's messages for `source` written as `check.ts` in a fresh folder under `parent`. */
export function typeErrors(source, parent) {
  const dir = mkdtempSync(path.join(parent, "rerankit-types-"));
  try {
    const file = path.join(dir, "check.ts");
    writeFileSync(file, source);
    const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ["lib.es2022.d.ts", "lib.dom.d.ts"], types: [] });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
