//! Numbers read from text come back as the double JavaScript's `JSON.parse` and Python's `float()` give: the
//! correctly rounded one (issue #41). Every reader rerankit parses numbers with is checked: serde_json (agent
//! datasets, responses JSONL, Python's `json.loads`, ranx-shaped JSON), serde_yaml_ng (agent datasets), the TREC
//! run reader, Haystack's CSV tables and literals, and documents' embeddings (kept as doubles, not floats).

use rerankit::document::Document;
use rerankit::eval::agent::input::parse_document;
use rerankit::eval::agent::Responses;
use rerankit::eval::haystack::table::{parse_literal, NodeTable};
use rerankit::eval::haystack::Cell;
use rerankit::metrics::formats::ranx_json::run_from_json;
use rerankit::metrics::{DuplicatePolicy, Run};
use rerankit::python::values::json_loads;
use serde_json::{Map, Value};

/// `(text, bits)`: the bits are what Node 20's `JSON.parse(text)` and CPython 3.11's `float(text)` give
/// (`DataView.getBigUint64` / `struct.pack(">d", …)`), not computed here.
const KNOWN: [(&str, u64); 2] = [
    // serde_json without `float_roundtrip` read this one ulp off (issue #41)
    ("12.084330081939697", 0x4028_2b2d_5000_0000),
    // an embedding value that came back as 1.100000023841858 when documents stored f32
    ("1.1", 0x3ff1_9999_9999_999a),
];

fn number(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Every reader's reading of `text` as a number, named.
fn readings(text: &str) -> Vec<(&'static str, f64)> {
    let mut out = Vec::new();
    out.push(("json_loads", number(&json_loads(text).unwrap())));
    let doc = parse_document(&format!("{{\"x\": {text}}}"), "dataset").unwrap();
    out.push(("agent JSON", number(&doc["x"])));
    let doc = parse_document(&format!("x: {text}\ny: [a]"), "dataset").unwrap();
    out.push(("agent YAML", number(&doc["x"])));
    let responses = Responses::parse(&format!("{{\"question_id\": \"a\", \"x\": {text}}}\n{{\"question_id\": \"b\"}}\n")).unwrap();
    let a = responses.by_id.get("a").unwrap_or_else(|| panic!("responses: {:?}", responses.problems));
    out.push(("responses JSONL", number(&a["x"])));
    let run = Run::parse(&format!("q1 Q0 d1 1 {text} tag\n"), DuplicatePolicy::Error).unwrap();
    out.push(("TREC run", run.queries()[0].entries[0].score));
    let run = run_from_json(&json_loads(&format!("{{\"q1\": {{\"d1\": {text}}}}}")).unwrap()).unwrap();
    out.push(("ranx JSON run", run.queries()[0].entries[0].score));
    let table = NodeTable::from_csv("eval.csv", &format!("\"query\",\"score\"\n\"q\",{text}\n")).unwrap();
    out.push(("Haystack CSV", table.get(0, "score").as_f64().unwrap()));
    match parse_literal(&format!("[{text}]")).unwrap() {
        Cell::Lit(Value::Array(items)) => out.push(("Python literal", number(&items[0]))),
        other => panic!("literal: {other:?}"),
    }
    let dict: Map<String, Value> = json_loads(&format!("{{\"content\": \"t\", \"embedding\": [{text}]}}")).unwrap().as_object().unwrap().clone();
    let doc = Document::from_dict(&dict, &Map::new(), None).unwrap();
    out.push(("Document.embedding", f64::from(doc.embedding.as_ref().unwrap()[0])));
    out.push(("Document.to_dict", number(&doc.to_dict(&Map::new())["embedding"][0])));
    out
}

fn check(text: &str, bits: u64) {
    for (reader, x) in readings(text) {
        assert_eq!(x.to_bits(), bits, "{reader} read {text} as {x:?} ({:#x}), not {:?}", x.to_bits(), f64::from_bits(bits));
    }
}

#[test]
fn known_values_read_as_javascript_and_python_read_them() {
    for (text, bits) in KNOWN {
        check(text, bits);
    }
}

/// splitmix64: a fixed sequence of 64-bit patterns, the same on every machine.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Random doubles (every exponent, and scores-like values in [0, 100)) written in their shortest round-trip form
/// (`{:?}`, what `JSON.stringify` and Python's `repr` write, up to the exponent's spelling) and in exponent form
/// come back bit for bit through every reader.
#[test]
fn random_doubles_round_trip_through_every_reader() {
    let mut state = 41;
    for i in 0..4000 {
        let bits = splitmix64(&mut state);
        let x = if i % 2 == 0 { f64::from_bits(bits) } else { (bits >> 11) as f64 / (1u64 << 53) as f64 * 100.0 };
        if !x.is_finite() {
            continue;
        }
        check(&format!("{x:?}"), x.to_bits());
        check(&format!("{x:e}"), x.to_bits());
    }
}
