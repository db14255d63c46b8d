// `rerankit agent-eval REFERENCE RESPONSES [--aggregates] [--format json|yaml] [--config FILE]`: graphrag-eval's
// evaluation of agent steps (no LLM metrics: the CLI has no judge), printed in graphrag-eval's output shape.
import { readFile } from "node:fs/promises";
import { RerankitError, aggregateAgent, agentToYaml, evaluateAgent } from "./node.js";

const USAGE = `usage: rerankit agent-eval REFERENCE RESPONSES [--aggregates] [--format json|yaml] [--config FILE]

  REFERENCE    reference dataset (YAML or JSON): templates with questions, reference steps and answers
  RESPONSES    responses to evaluate (JSONL, JSON object keyed by question id, JSON list, or YAML)
  --aggregates print the aggregates (per_template, micro, macro) instead of the per-question results
  --format     json (default) or yaml
  --config     graphrag-eval configuration, used to aggregate custom metrics
`;

export async function main(args: string[]): Promise<number> {
  const positional: string[] = [];
  let aggregates = false;
  let format = "json";
  let config: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-h" || a === "--help") {
      process.stdout.write(USAGE);
      return 0;
    } else if (a === "--aggregates") aggregates = true;
    else if (a === "--format" || a.startsWith("--format=")) {
      format = a.includes("=") ? a.slice(a.indexOf("=") + 1) : (args[++i] ?? "");
    } else if (a === "--config" || a.startsWith("--config=")) {
      const file = a.includes("=") ? a.slice(a.indexOf("=") + 1) : args[++i];
      if (!file) throw new RerankitError("--config: expected a file", "INVALID_ARGUMENT");
      config = await readFile(file, "utf8");
    } else if (a.startsWith("-")) {
      process.stderr.write(`rerankit agent-eval: unknown option ${a}\n${USAGE}`);
      return 2;
    } else positional.push(a);
  }
  if (positional.length !== 2 || (format !== "json" && format !== "yaml")) {
    process.stderr.write(USAGE);
    return 2;
  }
  const [referencePath, responsesPath] = positional as [string, string];
  const read = async (p: string) => {
    try {
      return await readFile(p, "utf8");
    } catch (err) {
      throw new RerankitError(`${p}: ${(err as Error).message}`, "INVALID_ARGUMENT");
    }
  };
  const results = evaluateAgent(await read(referencePath), await read(responsesPath));
  const out = aggregates ? aggregateAgent(results, { config }) : results;
  process.stdout.write(format === "yaml" ? agentToYaml(out) : JSON.stringify(out, null, 2) + "\n");
  return 0;
}
