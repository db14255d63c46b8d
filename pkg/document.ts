import * as wasm from "./wasm/rerankit.js";
import { checkListLength, invalidArgument } from "./errors.js";

export type ContentType = "text" | "table" | "image" | "audio";
export type IdHashKey = "content" | "content_type" | "score" | "meta";
/** `{customKey: standardAttribute}`, as Haystack's `field_map`. */
export type FieldMap = Record<string, "content" | "content_type" | "id" | "score" | "meta" | "embedding" | "id_hash_keys">;
export type Meta = Record<string, unknown>;

export interface DocumentInit {
  /** Text, or for tables a list of rows (column names first). */
  content: string | unknown[][];
  contentType?: ContentType;
  /** Kept as given; otherwise derived as Haystack 1.x does (MurmurHash3 of the content, or of `idHashKeys`). */
  id?: string;
  score?: number | null;
  meta?: Meta;
  embedding?: ArrayLike<number> | null;
  idHashKeys?: IdHashKey[] | null;
}

/** The dict form Haystack's `Document.to_dict()` gives (standard keys). */
export interface DocumentDict {
  content: string | unknown[][];
  content_type: ContentType;
  score: number | null;
  meta: Meta;
  id_hash_keys: IdHashKey[] | null;
  embedding: number[] | null;
  id: string;
}

/** A passage (or table, or media reference) with its score and metadata; ids are Haystack-compatible. */
export class Document {
  content: string | unknown[][];
  contentType: ContentType;
  id: string;
  score: number | null;
  meta: Meta;
  /**
   * The numbers given, bit for bit: a Float32Array stays one, anything else (an array of numbers, a Float64Array,
   * `toDict()`'s list) is kept as a Float64Array, so `1.1` reads back as `1.1`, not float32's `1.100000023841858`.
   */
  embedding: Float32Array | Float64Array | null;
  idHashKeys: IdHashKey[] | null;

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
    }) as DocumentDict;
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
    return Document.fromStandardDict(wasm.documentFromDict(dict, fieldMap, idHashKeys) as DocumentDict);
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
    return wasm.documentToDict(this.standardDict(), fieldMap) as Record<string, unknown>;
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
  start: number;
  end: number;
}

/** An answer of a reader or generator, in Haystack's dict form; `answer: ""` means no answer. */
export interface Answer {
  answer: string;
  type?: "extractive" | "generative" | "other";
  score?: number | null;
  context?: string | unknown[][] | null;
  offsets_in_document?: Span[] | null;
  offsets_in_context?: Span[] | null;
  document_id?: string | null;
  meta?: Meta;
}

/** Haystack's `Label` in dict form. */
export interface LabelDict {
  id?: string;
  query: string;
  document: Record<string, unknown>;
  is_correct_answer?: boolean;
  is_correct_document?: boolean;
  origin?: "gold-label" | "user-feedback";
  answer?: Answer | null;
  no_answer?: boolean | null;
  pipeline_id?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
  meta?: Meta;
  filters?: Record<string, unknown> | null;
}

/** One judged (query, document, answer) triple. Without `id`, the id is derived from its fields. */
export class Label {
  readonly id: string;
  readonly query: string;
  readonly document: Document;
  readonly isCorrectAnswer: boolean;
  readonly isCorrectDocument: boolean;
  readonly origin: "gold-label" | "user-feedback";
  readonly answer: Answer | null;
  readonly noAnswer: boolean | null;
  readonly pipelineId: string | null;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly meta: Meta;
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

  static fromDict(dict: LabelDict): Label {
    return new Label(wasm.labelFromDict(dict) as Required<LabelDict>);
  }

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

/** The labels of one query, aggregated as Haystack's `MultiLabel`. */
export class MultiLabel {
  /** MD5 of the query plus `json.dumps(filters, sort_keys=True)`, as Haystack computes it. */
  readonly id: string;
  readonly query: string;
  readonly filters: Record<string, unknown> | null;
  readonly labels: Label[];
  /** True only when every label is a no-answer label. */
  readonly noAnswer: boolean;
  readonly answers: string[];
  readonly offsetsInDocuments: Span[];
  readonly offsetsInContexts: Span[];
  readonly documentIds: string[];
  readonly contexts: string[];

  constructor(labels: (Label | LabelDict)[], options: { dropNegativeLabels?: boolean; dropNoAnswers?: boolean } = {}) {
    if (!Array.isArray(labels)) invalidArgument("labels", "expected an array of labels");
    checkListLength(labels, "labels");
    const dicts = labels.map((l) => (l instanceof Label ? l.toDict() : l));
    const agg = wasm.multiLabel(dicts, options) as {
      id: string; query: string; filters: Record<string, unknown> | null; labels: LabelDict[]; no_answer: boolean;
      answers: string[]; offsets_in_documents: Span[]; offsets_in_contexts: Span[]; document_ids: string[]; contexts: string[];
    };
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
