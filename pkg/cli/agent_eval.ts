// `rerankit agent-eval REFERENCE RESPONSES [--aggregates] [--format json|yaml] [--config FILE] [--judge-command CMD]`:
// graphrag-eval's evaluation of agent steps, printed in graphrag-eval's output shape. LLM metrics run only with
// --judge-command: a shell command that reads one prompt on stdin and prints the judge's answer (any local or
// remote model the user wires up; rerankit itself calls no vendor).
import { readFile } from "node:fs/promises";
import { spawn } from "node:child_process";
import { RerankitError, aggregateAgent, agentToYaml, evaluateAgent } from "../runtimes/node.js";

/** A judge that runs `command` in a shell once per prompt (prompt on stdin, answer on stdout). */
function commandJudge(command: string): (prompt: string) => Promise<string> {
  return (prompt) =>
    new Promise((resolve, reject) => {
      const child = spawn(command, { shell: true, stdio: ["pipe", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(out.replace(/\n$/, "")) : reject(new Error(`judge command exited with ${code}: ${err.trim()}`))));
      child.stdin.end(prompt);
    });
}

const USAGE = `usage: rerankit agent-eval REFERENCE RESPONSES [--aggregates] [--format json|yaml] [--config FILE]
                          [--judge-command CMD] [--concurrency N]

  REFERENCE    reference dataset (YAML or JSON): templates with questions, reference steps and answers
  RESPONSES    responses to evaluate (JSONL, JSON object keyed by question id, JSON list, or YAML)
  --aggregates print the aggregates (per_template, micro, macro) instead of the per-question results
  --format     json (default) or yaml
  --config     graphrag-eval configuration (answer_correctness, custom_evaluations, ...)
  --judge-command CMD
               enables the LLM metrics: CMD runs in a shell once per prompt, reads the prompt on stdin and
               prints the judge's answer on stdout
  --concurrency N
               judge commands run at once (default 4)
`;

export async function main(args: string[]): Promise<number> {
  const positional: string[] = [];
  let aggregates = false;
  let format = "json";
  let config: string | undefined;
  let judgeCommand: string | undefined;
  let concurrency = 4;
  const read = async (p: string) => {
    try {
      return await readFile(p, "utf8");
    } catch (err) {
      throw new RerankitError(`${p}: ${(err as Error).message}`, "INVALID_ARGUMENT");
    }
  };
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
      config = await read(file);
    } else if (a === "--judge-command" || a.startsWith("--judge-command=")) {
      judgeCommand = a.includes("=") ? a.slice(a.indexOf("=") + 1) : args[++i];
      if (!judgeCommand) throw new RerankitError("--judge-command: expected a command", "INVALID_ARGUMENT");
    } else if (a === "--concurrency" || a.startsWith("--concurrency=")) {
      concurrency = Number(a.includes("=") ? a.slice(a.indexOf("=") + 1) : args[++i]);
      if (!Number.isInteger(concurrency) || concurrency < 1) throw new RerankitError("--concurrency: expected an integer ≥ 1", "INVALID_ARGUMENT");
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
  const reference = await read(referencePath);
  const responses = await read(responsesPath);
  const results = judgeCommand
    ? await evaluateAgent(reference, responses, { judge: commandJudge(judgeCommand), config, concurrency })
    : evaluateAgent(reference, responses);
  const out = aggregates ? aggregateAgent(results, { config }) : results;
  process.stdout.write(format === "yaml" ? agentToYaml(out) : JSON.stringify(out, null, 2) + "\n");
  return 0;
}
