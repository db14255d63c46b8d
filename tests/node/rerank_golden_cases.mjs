// The answers the model path must keep bit for bit across refactors (tests/node/rerank_golden.test.mjs): every
// model kind and export form the path treats differently (fp32, int8 per tensor and per channel, uint8, q4, fp16;
// BERT and XLM-R tokenizers; ce-probe, a real-size BERT), through rerank with long documents cut into chunks,
// rerankBatch, score and embed, inline and in a pool. Each float is kept as its float32 bits.
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CrossEncoder, Embedder } from "rerankit";

const hub = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/hub/rerankit-test");
const models = process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models");
const files = (dir, graph) => ({ model: path.join(dir, graph), tokenizer: path.join(dir, "tokenizer.json"), config: path.join(dir, "config.json") });

const words = "retrieval ranking passage query document evidence model score batch token window chunk vitamin fracture".split(" ");
const documents = Array.from({ length: 24 }, (_, i) => Array.from({ length: 3 + ((i * 11) % 70) }, (_, j) => words[(i * 5 + j * 3) % words.length]).join(" "));

const bits = (x) => {
  const f = new Float32Array([x]);
  return new Uint32Array(f.buffer)[0].toString(16).padStart(8, "0");
};
const ranked = (list) => list.map((r) => [r.index, bits(r.score)]);

/** The cases: name → a function of nothing giving the answer in a JSON-comparable form. */
function cases() {
  const out = {};
  const tinyGraphs = ["model.onnx", "model_quantized.onnx", "model_int8_per_channel.onnx", "model_uint8.onnx", "model_q4.onnx", "model_fp16.onnx"];
  for (const graph of tinyGraphs) {
    for (const workers of graph === "model.onnx" || graph === "model_quantized.onnx" ? [0, 2] : [0]) {
      out[`tiny-bert-reranker/${graph}/workers=${workers}`] = async () => {
        const m = await CrossEncoder.load({ ...files(path.join(hub, "tiny-bert-reranker"), `onnx/${graph}`), maxLength: 48, workers });
        try {
          return {
            rerank: ranked(await m.rerank("vitamin ranking query", documents, { topK: null, batchSize: 5, maxChunksPerDoc: 3, chunkOverlap: 4 })),
            rerankBatch: (await m.rerankBatch(["query", "passage"], [documents.slice(0, 9), documents.slice(9)], { topK: 5, batchSize: 3 })).map(ranked),
            score: Array.from(await m.score(documents.map((d, i) => [words[i % words.length], d]), { batchSize: 7 }), bits),
          };
        } finally {
          m.free();
        }
      };
    }
  }
  out["tiny-xlm-roberta-reranker/model_quantized.onnx/workers=0"] = async () => {
    const m = await CrossEncoder.load(files(path.join(hub, "tiny-xlm-roberta-reranker"), "onnx/model_quantized.onnx"));
    try {
      return ranked(await m.rerank("fracture évidence", documents, { topK: null, batchSize: 4 }));
    } finally {
      m.free();
    }
  };
  for (const graph of ["model.onnx", "model_int8.onnx"]) {
    out[`ce-probe/${graph}/workers=0`] = async () => {
      const m = await CrossEncoder.load({ ...files(path.join(models, "ce-probe"), graph), maxLength: 96 });
      try {
        return ranked(await m.rerank("does vitamin d prevent fractures", documents.slice(0, 10), { topK: null, batchSize: 4, maxChunksPerDoc: 2 }));
      } finally {
        m.free();
      }
    };
  }
  out["tiny-bert-embedder/model.onnx/workers=0"] = async () => {
    const m = await Embedder.load(files(path.join(hub, "tiny-bert-embedder"), "onnx/model.onnx"));
    try {
      const vectors = await m.embed(documents.slice(0, 8), { normalize: true, batchSize: 3 });
      return vectors.map((v) => Array.from(v, bits));
    } finally {
      m.free();
    }
  };
  return out;
}

/** Every case's answer, by name. */
export async function goldenAnswers() {
  const answers = {};
  for (const [name, run] of Object.entries(cases())) answers[name] = await run();
  return answers;
}

export { cases };
