/**
 * Any rerankit `Ranker` as a LlamaIndex.TS node postprocessor.
 * @module rerankit/llamaindex
 */
// `rerankit/llamaindex`: any rerankit Ranker as a LlamaIndex.TS node postprocessor, the step a
// `RetrieverQueryEngine` runs between its retriever and its response synthesizer: `postprocessNodes(nodes,
// query)` → the best nodes for the query, best first, with the ranker's score.
//
// The package is @llamaindex/core, not the `llamaindex` umbrella: `BaseNodePostprocessor`, the node types,
// `RetrieverQueryEngine`, `BaseRetriever` and a mock LLM all live there, and `llamaindex` re-exports them (an
// application using the umbrella has @llamaindex/core installed as its dependency). The umbrella adds the
// workflow engine, node parsers and lodash (58 MB installed against core's 40 MB) that neither this module nor
// its test needs. Runtime imports here are the `MetadataMode` values and `extractText` (the query engine's own
// reading of a query).
import type { MessageContent } from "@llamaindex/core/llms";
import type { BaseNodePostprocessor } from "@llamaindex/core/postprocessor";
import { MetadataMode, type NodeWithScore } from "@llamaindex/core/schema";
import { extractText } from "@llamaindex/core/utils";
import { checkListLength, describeValue, invalidArgument, optionsObject } from "../errors.js";
import { checkRanker } from "../rankers/hosted/fallback.js";
import { topKOption } from "../rankers/hosted/hosted_ranker.js";
import { checkedRanking, type RankOptions, type Ranker } from "../rankers/ranker.js";

/** Options of `RerankPostprocessor`. */
export interface RerankPostprocessorOptions {
  /** Keep this many best nodes; `null` keeps all. Default: the ranker's own (10 for a CrossEncoder). */
  topK?: number | null;
  /**
   * Which metadata each node's text carries to the ranker (`node.getContent(metadataMode)`). Default
   * `MetadataMode.NONE`: a cross-encoder is trained on passage text, and metadata lines in front of it (file
   * paths, ids) change its scores.
   */
  metadataMode?: MetadataMode;
}

/**
 * `new RerankPostprocessor(await CrossEncoder.load(...), {topK: 5})` in a query engine's `nodePostprocessors`:
 * each node keeps its object (metadata, id, relationships) and gets the ranker's score as `score` (the local
 * model's sigmoid, or the service's relevance score), replacing the retriever's.
 */
export class RerankPostprocessor implements BaseNodePostprocessor {
  /** The ranker that orders the retrieved nodes. */
  readonly ranker: Ranker<any>;
  /** `undefined`: the ranker's default. */
  readonly topK: number | null | undefined;
  /** Which metadata each node's text carries to the ranker. */
  readonly metadataMode: MetadataMode;

  constructor(ranker: Ranker<any>, options?: RerankPostprocessorOptions) {
    checkRanker(ranker, "ranker");
    const o = optionsObject(options, ["topK", "metadataMode"]);
    this.ranker = ranker;
    this.topK = o.topK === undefined ? undefined : topKOption(o.topK, "topK");
    const modes = Object.values(MetadataMode) as unknown[];
    if (o.metadataMode !== undefined && !modes.includes(o.metadataMode)) {
      invalidArgument("metadataMode", `expected one of LlamaIndex's MetadataMode values (${modes.join(", ")}), got ${describeValue(o.metadataMode)}`);
    }
    this.metadataMode = o.metadataMode ?? MetadataMode.NONE;
  }

  // LlamaIndex passes no AbortSignal to a postprocessor, so there is none to pass on.
  async postprocessNodes(nodes: NodeWithScore[], query?: MessageContent): Promise<NodeWithScore[]> {
    // The query is optional in LlamaIndex's interface (a postprocessor that filters by score needs none); a
    // reranker does, and ranking against an empty string would return an order that means nothing.
    if (query === undefined) invalidArgument("query", "a reranking postprocessor needs the query (LlamaIndex's query engines pass it)");
    if (!Array.isArray(nodes)) invalidArgument("nodes", `expected an array of NodeWithScore, got ${describeValue(nodes)}`);
    checkListLength(nodes, "nodes");
    const texts = nodes.map((n, i) => {
      const node = (n as Partial<NodeWithScore> | null)?.node;
      if (typeof node?.getContent !== "function") invalidArgument(`nodes[${i}].node`, `expected a LlamaIndex node (with getContent), got ${describeValue(node)}`);
      return node.getContent(this.metadataMode);
    });
    const call: RankOptions = this.topK === undefined ? {} : { topK: this.topK };
    const ranked = checkedRanking(await this.ranker.rerank(extractText(query), texts, call), texts.length, "ranker");
    return ranked.map(({ index, score }) => ({ node: nodes[index].node, score }));
  }
}
