// The document schema through the built package, imported by name exactly as users do.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Document, Label, MultiLabel, RerankitError, version } from "rerankit";

test("ids equal Haystack 1.x's (docs/parity.md §1)", () => {
  assert.equal(new Document({ content: "hello world" }).id, "ab97467d60eb63b1533f6046eb7f610e");
  assert.equal(new Document({ content: "" }).id, "00");
  assert.equal(new Document({ content: "Ünïcödé text — ✓ 🚀" }).id, "feaa2e0c675a9e88eeec037e16f38649");
  const withMeta = new Document({ content: "same text", meta: { source: "b.pdf", page: 1 }, idHashKeys: ["content", "meta"] });
  assert.equal(withMeta.id, "c5bfd03e64ef56211f273c1f2865ff5");
  const mixed = new Document({ content: "x", meta: { n: 1.5, ok: true, tags: ["a", "b"], none: null }, idHashKeys: ["content", "meta"] });
  assert.equal(mixed.id, "16a3002ded4448f48311a17d7b138115");
  assert.equal(new Document({ content: "t", id: "mine" }).id, "mine");
});

test("fromDict/toDict round-trip with a field map; unknown fields go to meta", () => {
  const stored = { text: "hello world", url: "https://example.org/a", meta: { lang: "en" }, emb: [0.5, 0.25] };
  const doc = Document.fromDict(stored, { text: "content", emb: "embedding" });
  assert.equal(doc.content, "hello world");
  assert.equal(doc.id, "ab97467d60eb63b1533f6046eb7f610e");
  assert.deepEqual(doc.meta, { lang: "en", url: "https://example.org/a" });
  assert.deepEqual(Array.from(doc.embedding), [0.5, 0.25]);
  const dict = doc.toDict({ text: "content", emb: "embedding" });
  assert.deepEqual(Object.keys(dict), ["text", "content_type", "score", "meta", "id_hash_keys", "emb", "id"]);
  assert.equal(dict.text, "hello world");
  const again = Document.fromDict(dict, { text: "content", emb: "embedding" });
  assert.deepEqual(again.toDict(), doc.toDict());
  const keyed = Document.fromDict({ content: "same text", meta: { source: "a.pdf", page: 1 } }, {}, ["content", "meta"]);
  assert.equal(keyed.id, "c752396ef48f7d390149628665954ab5");
});

test("bad input gives a RerankitError with a stable code naming the field", () => {
  const cases = [
    [() => new Document({ content: 42 }), "INVALID_ARGUMENT", /^content/],
    [() => new Document({ content: "t", score: NaN }), "INVALID_ARGUMENT", /\bscore\b/],
    [() => new Document({ content: "t", meta: { when: Infinity } }), "INVALID_ARGUMENT", /meta\.when/],
    [() => new Document({ content: "t", idHashKeys: [] }), "INVALID_ARGUMENT", /^id_hash_keys/],
    [() => new Document({ content: "t", idHashKeys: ["embedding"] }), "UNSUPPORTED", /embedding/],
    [() => Document.fromDict({ content: "t", content_type: "video" }), "INVALID_ARGUMENT", /^content_type/],
    [() => Document.fromDict("not an object"), "INVALID_ARGUMENT", /^dict/],
    [() => Document.fromDict({ content: "t" }, { c: "nope" }), "INVALID_ARGUMENT", /^fieldMap\.c/],
    [() => new MultiLabel([]), "INVALID_ARGUMENT", /^labels/],
  ];
  for (const [fn, code, message] of cases) {
    assert.throws(fn, (err) => {
      assert.ok(err instanceof RerankitError, `expected RerankitError, got ${err}`);
      assert.ok(err instanceof Error);
      assert.equal(err.code, code);
      assert.match(err.message, message);
      return true;
    });
  }
});

test("labels and multilabels aggregate as Haystack does", () => {
  const label = (answer, content) => ({ query: "who wrote it?", document: { content }, answer: { answer }, origin: "gold-label" });
  const ml = new MultiLabel([label("Alice", "Alice wrote it"), label("Alice", "Alice wrote it"), label("Bob", "Bob helped")]);
  assert.equal(ml.labels.length, 2);
  assert.deepEqual(ml.answers, ["Alice", "Bob"]);
  assert.equal(ml.noAnswer, false);
  assert.match(ml.id, /^[0-9a-f]{32}$/);
  const l = Label.fromDict(label("", "nothing here"));
  assert.equal(l.noAnswer, true);
  assert.deepEqual(Label.fromDict(l.toDict()).toDict(), l.toDict());
  assert.match(version(), /^\d+\.\d+\.\d+/);
});

test("an embedding's numbers come back bit for bit (doubles, not float32; issue #41)", () => {
  const doc = new Document({ content: "t", embedding: [1.1, 12.084330081939697, 1e-300, -0.1] });
  assert.ok(doc.embedding instanceof Float64Array);
  assert.deepEqual(Array.from(doc.embedding), [1.1, 12.084330081939697, 1e-300, -0.1]);
  assert.deepEqual(doc.toDict().embedding, [1.1, 12.084330081939697, 1e-300, -0.1]);
  assert.deepEqual(JSON.parse(JSON.stringify(doc)).embedding, [1.1, 12.084330081939697, 1e-300, -0.1]);
  const again = Document.fromDict(JSON.parse(JSON.stringify(doc.toDict())));
  assert.deepEqual(Array.from(again.embedding), [1.1, 12.084330081939697, 1e-300, -0.1]);
  // a Float32Array stays one: its values are float32 already
  const f32 = new Document({ content: "t", embedding: new Float32Array([1.1, 0.5]) });
  assert.ok(f32.embedding instanceof Float32Array);
  assert.deepEqual(Array.from(f32.embedding), Array.from(new Float32Array([1.1, 0.5])));
});

test("Haystack 1.26's schema: table ids, meta.<key> keys, default id_hash_keys, document_ids (issue #41)", () => {
  // Values from farm-haystack 1.26.4 (test/others/test_schema.py and tests/fixtures/haystack/schema.json).
  const table = new Document({ content: [["col1", "col2"], ["text_1", 1], ["text_2", 2]], contentType: "table" });
  assert.equal(table.id, "fe5cb68f8226776914781f6bd40ad718");
  assert.deepEqual(table.idHashKeys, ["content"]);
  assert.deepEqual(new Document({ content: "hello world" }).toDict().id_hash_keys, ["content"]);
  assert.equal(new Document({ content: "hello world", idHashKeys: ["content"] }).id, "891b4fc71d8c64da698ad91ae9f8b02c");
  const meta = { name: "doc1", url: "https://deepset.ai" };
  assert.equal(new Document({ content: "text1", meta, idHashKeys: ["content", "meta.url"] }).id, "cdc6d8d0b585869f59264c9383174866");
  assert.throws(
    () => new Document({ content: [["a", "b"], ["x", null], ["y", "z"]], contentType: "table" }),
    (err) => err instanceof RerankitError && err.code === "UNSUPPORTED" && /^content/.test(err.message),
  );
  const legacy = Label.fromDict({ query: "q", document: { content: "Some content" }, answer: { answer: "Adobe Systems", document_id: "fc18c987a8312e72a47fb1524f230bb0" } });
  assert.deepEqual(legacy.answer.document_ids, ["fc18c987a8312e72a47fb1524f230bb0"]);
  const ml = new MultiLabel([{
    query: "A question",
    document: { content: [["col1", "col2"], [1, 3], [2, 4]], content_type: "table", id: "table1" },
    answer: { answer: "1", offsets_in_document: [{ row: 0, col: 0 }], document_ids: ["table1"] },
  }]);
  assert.deepEqual(ml.contexts, ["   col1  col2\n0     1     3\n1     2     4"]);
  assert.deepEqual(ml.offsetsInDocuments, [{ row: 0, col: 0 }]);
  assert.deepEqual(ml.documentIds, ["table1"]);
});
