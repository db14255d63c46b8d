// Rerank in Deno: deno run --allow-read --allow-env examples/deno/rerank.ts [MODEL_DIR]
// In your own project: `import { CrossEncoder } from "npm:rerankit";`. Here an import map points at this checkout.
import { CrossEncoder, Document } from "rerankit";

const dir = Deno.args[0] ?? `${Deno.env.get("RERANKIT_MODELS") ?? `${Deno.env.get("HOME")}/.cache/rerankit/models`}/ce-probe`;
const ranker = await CrossEncoder.load({ model: `${dir}/model_int8.onnx`, tokenizer: `${dir}/tokenizer.json` });
const docs = [
  new Document({ content: "Deno is a JavaScript runtime with secure defaults." }),
  new Document({ content: "Vitamin D with calcium reduced hip fractures in elderly women." }),
];
for (const r of await ranker.rerank("Does vitamin D prevent fractures?", docs, { topK: null })) {
  console.log(r.score.toFixed(4), docs[r.index].content);
}
