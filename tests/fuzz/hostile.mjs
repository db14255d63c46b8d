// Hostile values for the API fuzzer (tests/fuzz/api.mjs): a valid argument list with one or two arguments
// replaced, or changed deep inside (one element, one property, one option), by something a caller might pass.
import util from "node:util";

const TAG = Symbol("hostile");

/** What the hostile Proxies and getters throw: the caller's own exception, which may pass through unchanged. */
export class HostileError extends Error {}
const boom = (what) => { throw new HostileError(what); };

/** A value that cannot be printed safely (a Proxy, a cycle…), with the words the report uses for it. */
function special(make, words) {
  return { [TAG]: words, make };
}

const SPECIALS = [
  special(() => new Proxy({}, { get: () => boom("proxy get"), ownKeys: () => boom("proxy ownKeys"), getOwnPropertyDescriptor: () => boom("proxy descriptor") }), "a Proxy that throws on every access"),
  special(() => new Proxy([], { get: (t, k) => (k === "length" ? 3 : boom("proxy get")) }), "a Proxy array that throws on element access"),
  special(() => { const o = { a: 1 }; o.self = o; return o; }, "a cyclic object"),
  special(() => { const a = [1]; a.push(a); return a; }, "a cyclic array"),
  special(() => { let v = []; for (let i = 0; i < 10_000; i++) v = [v]; return v; }, "an array nested 10,000 deep"),
  special(() => { let v = {}; for (let i = 0; i < 10_000; i++) v = { a: v }; return v; }, "an object nested 10,000 deep"),
  special(() => ({ length: 1e9 }), "{length: 1e9}"),
  special(() => { const a = []; a.length = 2 ** 32 - 1; return a; }, "a sparse array of length 2³²−1"),
  special(() => Object.defineProperty({}, "x", { enumerable: true, get: () => boom("getter") }), "an object whose getter throws"),
  special(() => "x".repeat(1e7), "a 10-million-character string"),
  special(() => 2n ** 70n, "a BigInt 2⁷⁰"),
  special(() => Symbol("s"), "a Symbol"),
  special(() => () => 1, "a function"),
  special(() => new Date(NaN), "an invalid Date"),
  special(() => Object.create(null), "an object without prototype"),
  special(() => new Float64Array([NaN, Infinity]), "a Float64Array of NaN and Infinity"),
  special(() => new Uint8Array([0xff, 0xfe, 0x00]), "bytes that are not UTF-8"),
  special(() => new Map([[1, 2]]), "a Map"),
  special(() => Promise.resolve(1), "a Promise"),
];

const NUMBERS = [NaN, Infinity, -Infinity, -1, -0, 0, 0.5, 1.5, 2 ** 31, 2 ** 32, 2 ** 32 + 2, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER];
const STRINGS = ["", " ", "\u200b", "\0", "\ufeff", "\ud800", "a\u0301", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "-1", "1.5", "NaN", "true", "null", "[]", "{}", "\n", "q1 Q0 d1 1 1 r", "x".repeat(100_000)];

/** Arbitrary argument lists: `valid` with one or two arguments made hostile. */
export function hostileArgs(fc, valid) {
  const positions = valid.length + 1; // one past the end: an extra argument
  return fc
    .tuple(fc.nat({ max: positions - 1 }), fc.nat({ max: positions - 1 }), fc.boolean())
    .chain(([i, j, two]) => {
      const slots = valid.map((v, k) => (k === i || (two && k === j) ? mutate(fc, v, 0) : fc.constant(v)));
      if (i === valid.length) slots.push(anything(fc));
      return fc.tuple(...slots);
    })
    .map((args) => args.map(materialise));
}

/** Specials are built fresh for each call (a Proxy or a cycle is not shared between inputs). */
function materialise(v) {
  if (v && typeof v === "object" && v[TAG]) return v.make();
  if (Array.isArray(v)) return v.map(materialise);
  if (v && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, materialise(x)]));
  }
  return v;
}

function anything(fc) {
  return fc.oneof(
    { weight: 3, arbitrary: fc.anything({ maxDepth: 2, withBigInt: true, withBoxedValues: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true, withDate: true }) },
    { weight: 2, arbitrary: fc.constantFrom(...SPECIALS) },
    { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) },
    { weight: 2, arbitrary: fc.constantFrom(...STRINGS) },
    { weight: 1, arbitrary: fc.constantFrom(null, undefined, true, false, [], {}) },
  );
}

/** A change of `v`: replaced outright, or (for lists and objects) changed inside, one level per step. */
function mutate(fc, v, depth) {
  const replace = { weight: 3, arbitrary: anything(fc) };
  if (depth > 3) return anything(fc);
  if (typeof v === "number") return fc.oneof(replace, { weight: 3, arbitrary: fc.constantFrom(...NUMBERS) });
  if (typeof v === "string") return fc.oneof(replace, { weight: 3, arbitrary: fc.constantFrom(...STRINGS, v + "\u200b", v.toUpperCase(), v.slice(1)) });
  if (Array.isArray(v)) {
    const inside = v.length
      ? [
          { weight: 4, arbitrary: fc.nat({ max: v.length - 1 }).chain((k) => mutate(fc, v[k], depth + 1).map((x) => v.map((y, m) => (m === k ? x : y)))) },
          { weight: 1, arbitrary: fc.nat({ max: v.length - 1 }).map((k) => v.filter((_, m) => m !== k)) },
          { weight: 1, arbitrary: fc.constant([...v, ...v]) },
        ]
      : [];
    return fc.oneof(replace, { weight: 1, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: anything(fc).map((x) => [...v, x]) }, ...inside);
  }
  if (v && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    const keys = Object.keys(v);
    const inside = keys.length
      ? [
          { weight: 4, arbitrary: fc.constantFrom(...keys).chain((k) => mutate(fc, v[k], depth + 1).map((x) => ({ ...v, [k]: x }))) },
          { weight: 1, arbitrary: fc.constantFrom(...keys).map((k) => { const o = { ...v }; delete o[k]; return o; }) },
          // a misspelt key: another case, an underscore, a letter dropped
          { weight: 2, arbitrary: fc.constantFrom(...keys).map((k) => ({ ...v, [k.toLowerCase() === k ? k.toUpperCase() : k.toLowerCase()]: v[k] })) },
        ]
      : [];
    return fc.oneof(replace, { weight: 2, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), anything(fc)).map(([k, x]) => ({ ...v, [k || "unknownOption"]: x })) }, ...inside);
  }
  return anything(fc);
}

/** A one-line description of an argument list, safe for Proxies, cycles and huge values. */
export function describe(args) {
  const seen = new Set();
  const one = (v, depth) => {
    try {
      if (v && typeof v === "object" && v[TAG]) return `<${v[TAG]}>`;
      if (typeof v === "string") return v.length > 60 ? `"${v.slice(0, 20)}…" (${v.length} chars)` : JSON.stringify(v);
      if (typeof v === "bigint") return `${v}n`;
      if (typeof v === "symbol" || typeof v === "function") return `<${typeof v}>`;
      if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
      if (v === null || typeof v !== "object") return String(v);
      if (seen.has(v)) return "<cycle>";
      if (depth > 3) return "…";
      if (util.types.isProxy(v)) return "<Proxy>";
      seen.add(v);
      if (Array.isArray(v)) return v.length > 8 ? `[${v.slice(0, 8).map((x) => one(x, depth + 1)).join(", ")}, … (${v.length})]` : `[${v.map((x) => one(x, depth + 1)).join(", ")}]`;
      if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length})`;
      const entries = Object.entries(v).slice(0, 8).map(([k, x]) => `${k}: ${one(x, depth + 1)}`);
      return `${v.constructor?.name && v.constructor.name !== "Object" ? v.constructor.name + " " : ""}{${entries.join(", ")}}`;
    } catch {
      return "<unreadable>";
    }
  };
  return `(${args.map((a) => one(a, 0)).join(", ")})`.slice(0, 600);
}

