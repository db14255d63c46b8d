import * as wasm from "./wasm/rerankit.js";
import { checkListLength, invalidArgument } from "./errors.js";
import type * as rust from "./rust_types.js";

/** What a document holds, as Haystack's `content_type`. */
export type ContentType = "text" | "table" | "image" | "audio";
/** The fields a document id may be hashed from (Haystack's `id_hash_keys`); `"meta.<key>"` is one meta value. */
export type IdHashKey = "content" | "content_type" | "score" | "meta" | `meta.${string}`;
/** `{customKey: standardAttribute}`, as Haystack's `field_map`. */
export type FieldMap = Record<string, "content" | "content_type" | "id" | "score" | "meta" | "embedding" | "id_hash_keys">;
/** A document's or label's metadata: any JSON-like values. */
export type Meta = Record<string, unknown>;

/** What `new Document(…)` takes; only `content` is required. */
export interface DocumentInit {
  /** Text, or for tables a list of rows (column names first). */
  content: string | unknown[][];
  /** What `content` is (default `"text"`). */
  contentType?: ContentType;
  /**
   * Kept as given; otherwise derived as Haystack 1.x does: the MurmurHash3 of the content (for a table, of
   * pandas' printout of it; a table pandas prints differently by version or terminal is refused with
   * `UNSUPPORTED`), or of `idHashKeys`.
   */
  id?: string;
  /** A retriever's or ranker's score, if any. */
  score?: number | null;
  /** Metadata (default `{}`). */
  meta?: Meta;
  /** The document's embedding, if it has one. */
  embedding?: ArrayLike<number> | null;
  /** The fields the id is hashed from when no `id` is given (default: the content alone). */
  idHashKeys?: IdHashKey[] | null;
}

/** The dict form Haystack's `Document.to_dict()` gives (standard keys). */
export interface DocumentDict {
  /** Text, or for tables a list of rows. */
  content: string | unknown[][];
  /** What `content` is. */
  content_type: ContentType;
  /** A retriever's or ranker's score, or null. */
  score: number | null;
  /** Metadata. */
  meta: Meta;
  /** The fields the id was hashed from, `["content"]` by default (Haystack's). */
  id_hash_keys: IdHashKey[];
  /** The embedding as a plain array, or null. */
  embedding: number[] | null;
  /** The document's id. */
  id: string;
}

/** A passage (or table, or media reference) with its score and metadata; ids are Haystack-compatible. */
export class Document {
  /** Text, or for tables a list of rows (column names first). */
  content: string | unknown[][];
  /** What `content` is. */
  contentType: ContentType;
  /** The id: as given, or derived as Haystack 1.x derives it. */
  id: string;
  /** A retriever's or ranker's score, or null. */
  score: number | null;
  /** Metadata. */
  meta: Meta;
  /**
   * The embedding, or null: the numbers given, bit for bit. A Float32Array stays one, anything else (an array of
   * numbers, a Float64Array, `toDict()`'s list) is kept as a Float64Array, so `1.1` reads back as `1.1`, not
   * float32's `1.100000023841858`.
   */
  embedding: Float32Array | Float64Array | null;
  /** The fields the id was hashed from, `["content"]` by default (Haystack's). */
  idHashKeys: IdHashKey[];

  constructor(init: DocumentInit) {
    if (init === null || typeof init !== "object") invalidArgument("document", "expected an object like {content}");
    const dict = wasm.documentNormalize({
      content: init.content,
      content_type: init.contentType ?? "text",
      id: init.id,
      score: init.score,
      meta: init.meta ?? {},
      embedding: init.embedding ?? null,
      id_hash_keys: init.idHashKeys ?? null,
    });
    this.content = dict.content;
    this.contentType = dict.content_type;
    this.id = dict.id;
    this.score = dict.score;
    this.meta = dict.meta;
    this.embedding = dict.embedding ? (init.embedding instanceof Float32Array ? Float32Array : Float64Array).from(dict.embedding) : null;
    this.idHashKeys = dict.id_hash_keys;
  }

  /**
   * Haystack's `Document.from_dict`: keys named in `fieldMap` are renamed, standard keys kept, every other
   * key moves into `meta`. `idHashKeys` applies when the dict has no id.
   */
  static fromDict(dict: Record<string, unknown>, fieldMap: FieldMap = {}, idHashKeys: IdHashKey[] | null = null): Document {
    return Document.fromStandardDict(wasm.documentFromDict(dict, fieldMap, idHashKeys));
  }

  /** A document from a dict with the standard keys, as `toDict()` returns it. */
  static fromStandardDict(dict: DocumentDict): Document {
    if (dict === null || typeof dict !== "object") invalidArgument("dict", "expected a document dict {content, content_type, …}");
    return new Document({
      content: dict.content,
      contentType: dict.content_type,
      id: dict.id,
      score: dict.score,
      meta: dict.meta,
      embedding: dict.embedding,
      idHashKeys: dict.id_hash_keys,
    });
  }

  /** Haystack's `Document.to_dict(field_map)`: standard keys renamed by `fieldMap` (`{custom: standard}`). */
  toDict(fieldMap: FieldMap = {}): Record<string, unknown> {
    return wasm.documentToDict(this.standardDict(), fieldMap);
  }

  /** The text of a text document (throws for tables and media). */
  get text(): string {
    if (this.contentType !== "text" || typeof this.content !== "string") {
      invalidArgument(`document ${this.id}`, `has ${this.contentType} content, not text`);
    }
    return this.content as string;
  }

  /** @internal The standard dict as it is, unchecked: for wrappers that hand it to Rust, which reads it strictly. */
  standardDict(): DocumentDict {
    return {
      content: this.content,
      content_type: this.contentType,
      score: this.score,
      meta: this.meta,
      id_hash_keys: this.idHashKeys,
      embedding: this.embedding === null || this.embedding === undefined ? null : embeddingList(this.embedding),
      id: this.id,
    };
  }

  /** The standard dict, read as strictly as `toDict` (so `JSON.stringify` never meets a BigInt or a cycle). */
  toJSON(): DocumentDict {
    return this.toDict() as unknown as DocumentDict;
  }
}

/** A document's embedding as a plain array (what `toDict`/`toJSON` give), after checking what was assigned to it. */
function embeddingList(embedding: unknown): number[] {
  if (!(Array.isArray(embedding) || (ArrayBuffer.isView(embedding) && !(embedding instanceof DataView)))) {
    invalidArgument("embedding", "expected a Float32Array, an array of numbers or null");
  }
  checkListLength(embedding as ArrayLike<number>, "embedding");
  return Array.from(embedding as ArrayLike<number>);
}

/** A character range (text) or cell range (tables) of an answer. */
export interface Span {
  /** First position. */
  start: number;
  /** Position after the last. */
  end: number;
}

/** A table answer's cell (Haystack's `TableCell`): row (without the header row) and column. */
export interface TableCell {
  /** Row, counted from the first data row. */
  row: number;
  /** Column. */
  col: number;
}

/** An answer of a reader or generator, in Haystack's dict form; `answer: ""` means no answer. */
export interface Answer {
  /** The answer text (`""`: no answer). */
  answer: string;
  /** How the answer was produced. */
  type?: "extractive" | "generative" | "other";
  /** The reader's or generator's score. */
  score?: number | null;
  /** The text (or table) around the answer. */
  context?: string | unknown[][] | null;
  /** Where the answer is in the document: character spans, or cells for a table. */
  offsets_in_document?: (Span | TableCell)[] | null;
  /** Where the answer is in `context`. */
  offsets_in_context?: (Span | TableCell)[] | null;
  /** The ids of the documents the answer comes from (one for extractive answers). */
  document_ids?: string[] | null;
  /** Older dicts' single id (before Haystack 1.12): read as `document_ids: [id]`. */
  document_id?: string | null;
  /** Metadata. */
  meta?: Meta;
}

/** Haystack's `Label` in dict form. */
export interface LabelDict {
  /** The label's id (derived from the other fields when absent). */
  id?: string;
  /** The question. */
  query: string;
  /** The judged document, as a document dict. */
  document: Record<string, unknown>;
  /** Whether the answer is correct for the query. */
  is_correct_answer?: boolean;
  /** Whether the document is relevant to the query. */
  is_correct_document?: boolean;
  /** Where the judgement comes from. */
  origin?: "gold-label" | "user-feedback";
  /** The gold answer, if any. */
  answer?: Answer | null;
  /** True when the query has no answer in the document. */
  no_answer?: boolean | null;
  /** The pipeline that produced the labelled result, if any. */
  pipeline_id?: string | null;
  /** Creation time, as Haystack writes it. */
  created_at?: string | null;
  /** Last update time, as Haystack writes it. */
  updated_at?: string | null;
  /** Metadata. */
  meta?: Meta;
  /** The retrieval filters the label applies to. */
  filters?: Record<string, unknown> | null;
}

/** One judged (query, document, answer) triple. Without `id`, the id is derived from its fields. */
export class Label {
  /** The label's id. */
  readonly id: string;
  /** The question. */
  readonly query: string;
  /** The judged document. */
  readonly document: Document;
  /** Whether the answer is correct for the query. */
  readonly isCorrectAnswer: boolean;
  /** Whether the document is relevant to the query. */
  readonly isCorrectDocument: boolean;
  /** Where the judgement comes from. */
  readonly origin: "gold-label" | "user-feedback";
  /** The gold answer, or null. */
  readonly answer: Answer | null;
  /** True when the query has no answer in the document. */
  readonly noAnswer: boolean | null;
  /** The pipeline that produced the labelled result, or null. */
  readonly pipelineId: string | null;
  /** Creation time, as Haystack writes it. */
  readonly createdAt: string | null;
  /** Last update time, as Haystack writes it. */
  readonly updatedAt: string | null;
  /** Metadata. */
  readonly meta: Meta;
  /** The retrieval filters the label applies to, or null. */
  readonly filters: Record<string, unknown> | null;

  private constructor(dict: Required<LabelDict>) {
    this.id = dict.id;
    this.query = dict.query;
    this.document = Document.fromStandardDict(dict.document as unknown as DocumentDict);
    this.isCorrectAnswer = dict.is_correct_answer;
    this.isCorrectDocument = dict.is_correct_document;
    this.origin = dict.origin;
    this.answer = dict.answer;
    this.noAnswer = dict.no_answer;
    this.pipelineId = dict.pipeline_id;
    this.createdAt = dict.created_at;
    this.updatedAt = dict.updated_at;
    this.meta = dict.meta;
    this.filters = dict.filters;
  }

  /** A label from its dict form, with its id derived as Haystack derives it when absent. */
  static fromDict(dict: LabelDict): Label {
    return new Label(wasm.labelFromDict(dict));
  }

  /** The dict form (every key present), as Haystack's `Label.to_dict()`. */
  toDict(): Required<LabelDict> {
    return {
      id: this.id,
      query: this.query,
      document: this.document.toDict(),
      is_correct_answer: this.isCorrectAnswer,
      is_correct_document: this.isCorrectDocument,
      origin: this.origin,
      answer: this.answer,
      no_answer: this.noAnswer,
      pipeline_id: this.pipelineId,
      created_at: this.createdAt,
      updated_at: this.updatedAt,
      meta: this.meta,
      filters: this.filters,
    };
  }
}

/** Options of `new MultiLabel` (Haystack's `drop_negative_labels`, `drop_no_answers`). */
export interface MultiLabelOptions extends Partial<rust.MultiLabelOptions> {}

/** The labels of one query, aggregated as Haystack's `MultiLabel`. */
export class MultiLabel {
  /** MD5 of the query plus `json.dumps(filters, sort_keys=True)`, as Haystack computes it. */
  readonly id: string;
  /** The question the labels share. */
  readonly query: string;
  /** The retrieval filters the labels share, or null. */
  readonly filters: Record<string, unknown> | null;
  /** The labels kept (after the `dropNegativeLabels` / `dropNoAnswers` options). */
  readonly labels: Label[];
  /** True only when every label is a no-answer label. */
  readonly noAnswer: boolean;
  /** The labels' answer texts. */
  readonly answers: string[];
  /** Where each answer is in its document. */
  readonly offsetsInDocuments: (Span | TableCell)[];
  /** Where each answer is in its context. */
  readonly offsetsInContexts: (Span | TableCell)[];
  /** The ids of the labels' documents. */
  readonly documentIds: string[];
  /** `str(content)` of the answered labels' documents (a table's pandas printout). */
  readonly contexts: string[];

  constructor(labels: (Label | LabelDict)[], options: MultiLabelOptions = {}) {
    if (!Array.isArray(labels)) invalidArgument("labels", "expected an array of labels");
    checkListLength(labels, "labels");
    const dicts = labels.map((l) => (l instanceof Label ? l.toDict() : l));
    const agg = wasm.multiLabel(dicts, options);
    this.id = agg.id;
    this.query = agg.query;
    this.filters = agg.filters;
    this.labels = agg.labels.map((l) => Label.fromDict(l));
    this.noAnswer = agg.no_answer;
    this.answers = agg.answers;
    this.offsetsInDocuments = agg.offsets_in_documents;
    this.offsetsInContexts = agg.offsets_in_contexts;
    this.documentIds = agg.document_ids;
    this.contexts = agg.contexts;
  }
}
