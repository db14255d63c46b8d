//! Step matching, match scores and `steps_score` (graphrag-eval `docs/steps.md`).

use super::{sparql, timeseries};
use crate::python::values as py;
use serde_json::{Map, Value};

/// One match: (reference group, step index in the group, actual step index, score).
pub type Match = (usize, usize, usize, f64);

fn name_is(step: &Map<String, Value>, name: &str) -> bool {
    step.get("name").is_some_and(|n| n.as_str() == Some(name))
}

fn field<'a>(step: &'a Map<String, Value>, key: &str, which: &str) -> Result<&'a Value, String> {
    step.get(key).ok_or_else(|| format!("the {which} step has no '{key}'"))
}

fn loads(v: &Value, what: &str) -> Result<Result<Value, String>, String> {
    match v {
        Value::String(s) => Ok(py::json_loads(s)),
        other => Err(format!("{what} must be a string, not {}", py::type_name(other))),
    }
}

/// Python's `list[:k]` for an integer `k` (negative `k` counts from the end).
fn slice_upto<T>(items: &[T], k: i64) -> &[T] {
    let n = items.len() as i64;
    let end = if k < 0 { (n + k).max(0) } else { k.min(n) };
    &items[..end as usize]
}

fn context_ids(output: &Value, which: &str) -> Result<Vec<Value>, String> {
    let parsed = loads(output, &format!("the {which} retrieval output"))?
        .map_err(|e| format!("the {which} retrieval output is not JSON: {e}"))?;
    let Value::Array(items) = parsed else {
        return Err(format!("the {which} retrieval output is not a JSON list"));
    };
    items
        .iter()
        .map(|c| match c {
            Value::Object(m) => m.get("id").cloned().ok_or_else(|| format!("a {which} retrieved context has no 'id'")),
            _ => Err(format!("a {which} retrieved context is not an object")),
        })
        .collect()
}

/// `recall_at_k`: |set(first k relevant) ∩ set(first k retrieved)| / len(first k relevant) (0 when there are none).
pub fn recall_at_k(relevant: &[Value], retrieved: &[Value], k: i64) -> Result<f64, String> {
    let key = |v: &Value| py::hash_key(v).ok_or_else(|| format!("unhashable type: '{}'", py::type_name(v)));
    let relevant_at_k = slice_upto(relevant, k);
    let rel: std::collections::HashSet<String> = relevant_at_k.iter().map(key).collect::<Result<_, _>>()?;
    let ret: std::collections::HashSet<String> = slice_upto(retrieved, k).iter().map(key).collect::<Result<_, _>>()?;
    if relevant_at_k.is_empty() {
        return Ok(0.0);
    }
    // graphrag-eval divides by the length of the list, duplicates included
    Ok(rel.intersection(&ret).count() as f64 / relevant_at_k.len() as f64)
}

fn iri_discovered(reference: &Map<String, Value>, actual: &Map<String, Value>) -> Result<bool, String> {
    if name_is(actual, "autocomplete_search") {
        let iri = field(reference, "output", "reference")?;
        let out = loads(field(actual, "output", "actual")?, "the actual autocomplete_search output")?
            .map_err(|e| format!("the actual autocomplete_search output is not JSON: {e}"))?;
        let bindings = out
            .get("results")
            .and_then(|r| r.get("bindings"))
            .and_then(Value::as_array)
            .ok_or("the actual autocomplete_search output has no results.bindings list")?;
        for b in bindings {
            let Value::Object(b) = b else { return Err("an autocomplete_search binding is not an object".into()) };
            for tv in b.values() {
                let ty = tv.get("type").ok_or("an autocomplete_search term has no 'type'")?;
                if ty.as_str() == Some("uri") && tv.get("value").ok_or("an autocomplete_search term has no 'value'").map(|v| py::eq(v, iri))? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    } else if name_is(actual, "sparql_query") {
        let iri = field(reference, "output", "reference")?;
        match (iri, field(actual, "output", "actual")?) {
            (Value::String(i), Value::String(o)) => Ok(o.contains(i.as_str())),
            _ => Err("iri_discovery needs string outputs".into()),
        }
    } else {
        Ok(false)
    }
}

/// The match score of a reference step against an actual step (`docs/steps.md` § "Match score"): the first
/// rule that applies. `Err` where graphrag-eval raises (missing keys, malformed outputs it must parse).
pub fn match_score(reference: &Map<String, Value>, actual: &Map<String, Value>) -> Result<f64, String> {
    let ref_name = field(reference, "name", "reference")?;
    let act_name = field(actual, "name", "actual")?;
    let actual_output = field(actual, "output", "actual")?;
    let reference_output = reference.get("output");
    let media = reference.get("output_media_type").and_then(Value::as_str);
    let same = |n: &str| ref_name.as_str() == Some(n) && act_name.as_str() == Some(n);

    if same("sparql_query") && media == Some("application/sparql-results+json") {
        let Ok(actual_result) = loads(actual_output, "the actual sparql_query output")? else {
            return Ok(0.0);
        };
        let Ok(reference_result) = loads(reference_output.unwrap_or(&Value::Null), "the reference sparql_query output")? else {
            return Ok(0.0);
        };
        let required = field(reference, "required_columns", "reference sparql_query")?;
        let ordered = reference.get("ordered").is_some_and(py::truthy);
        let ignore_duplicates = reference.get("ignore_duplicates").is_none_or(py::truthy);
        return sparql::compare_results(&reference_result, &actual_result, required, ordered, ignore_duplicates);
    }
    if same("retrieval") && reference_output.is_some_and(py::truthy) {
        let relevant = context_ids(reference_output.unwrap_or(&Value::Null), "reference")?;
        let retrieved = context_ids(actual_output, "actual")?;
        let k = actual
            .get("args")
            .and_then(|a| a.get("k"))
            .ok_or("the actual retrieval step has no args.k")?;
        let k = match k {
            Value::Bool(b) => *b as i64,
            Value::Number(n) if n.is_i64() => n.as_i64().unwrap_or(0),
            Value::Number(n) if n.is_u64() => i64::MAX,
            other => return Err(format!("slice indices must be integers, not {}", py::type_name(other))),
        };
        return recall_at_k(&relevant, &retrieved, k);
    }
    if same("retrieve_time_series") {
        return Ok(timeseries::time_series_equal(reference, actual)? as i32 as f64);
    }
    if same("retrieve_data_points") {
        return Ok(timeseries::data_points_equal(reference, actual)? as i32 as f64);
    }
    if ref_name.as_str() == Some("iri_discovery") {
        return Ok(iri_discovered(reference, actual)? as i32 as f64);
    }
    if py::eq(ref_name, act_name) && media == Some("application/json") {
        let r = loads(reference_output.unwrap_or(&Value::Null), "the reference output")?
            .map_err(|e| format!("the reference output is not JSON: {e}"))?;
        let a = loads(actual_output, "the actual output")?.map_err(|e| format!("the actual output is not JSON: {e}"))?;
        return Ok(py::eq(&r, &a) as i32 as f64);
    }
    Ok(py::eq(reference_output.unwrap_or(&Value::Null), actual_output) as i32 as f64)
}

fn as_step<'a>(v: &'a Value, which: &str) -> Result<&'a Map<String, Value>, String> {
    v.as_object().ok_or_else(|| format!("a {which} step is a {}, not an object", py::type_name(v)))
}

fn groups_of(reference_steps: &Value) -> Result<Vec<&Vec<Value>>, String> {
    let Value::Array(groups) = reference_steps else {
        return Err("reference_steps must be a list of groups (lists of steps)".into());
    };
    groups
        .iter()
        .map(|g| g.as_array().ok_or_else(|| "reference_steps must be a list of groups (lists of steps)".to_string()))
        .collect()
}

fn match_group(group: &[Value], group_idx: usize, actual: &[&Map<String, Value>], upto: usize) -> Result<Vec<Match>, String> {
    let mut used = vec![false; actual.len()];
    let mut matches = vec![];
    for (ref_idx, reference) in group.iter().enumerate().rev() {
        let reference = as_step(reference, "reference")?;
        for act_idx in (0..upto).rev() {
            if used[act_idx] {
                continue;
            }
            let status = actual[act_idx].get("status").ok_or("an actual step has no 'status'")?;
            if status.as_str() != Some("success") {
                continue;
            }
            let score = match_score(reference, actual[act_idx])?;
            if score > 0.0 {
                matches.push((group_idx, ref_idx, act_idx, score));
                used[act_idx] = true;
                break;
            }
        }
    }
    Ok(matches)
}

/// `match_groups`: groups from last to first; each group's steps matched (last first) to the latest unused
/// successful actual step before the earliest step matched by the later groups; stops at the first group
/// with an unmatched step.
pub fn match_groups(reference_steps: &Value, actual_steps: &[Value]) -> Result<Vec<Match>, String> {
    let groups = groups_of(reference_steps)?;
    let actual: Vec<&Map<String, Value>> = actual_steps.iter().map(|s| as_step(s, "actual")).collect::<Result<_, _>>()?;
    let mut matches = vec![];
    let mut upto = actual.len();
    for (group_idx, group) in groups.iter().enumerate().rev() {
        let matched = match_group(group, group_idx, &actual, upto)?;
        let complete = matched.len() == group.len();
        if complete {
            upto = matched.iter().map(|m| m.2).min().ok_or("min() arg is an empty sequence (an empty reference group)")?;
        }
        matches.extend(matched);
        if !complete {
            break;
        }
    }
    Ok(matches)
}

/// `calculate_steps_score`: annotates matched reference steps with `matches: <actual step id>` and returns the
/// mean over groups of (sum of the group's match scores / group size).
pub fn steps_score(reference_steps: &mut Value, actual_steps: &[Value], matches: &[Match]) -> Result<f64, String> {
    let n_groups = groups_of(reference_steps)?.len();
    let mut by_group = vec![0.0f64; n_groups];
    let mut annotations = vec![];
    for &(g, r, a, score) in matches {
        by_group[g] += score;
        let id = actual_steps[a].get("id").ok_or("a matched actual step has no 'id'")?;
        annotations.push((g, r, id.clone()));
    }
    let sizes: Vec<usize> = groups_of(reference_steps)?.iter().map(|g| g.len()).collect();
    if n_groups == 0 || sizes.contains(&0) {
        return Err("division by zero (empty reference_steps or an empty group)".into());
    }
    for (g, r, id) in annotations {
        if let Some(Value::Object(step)) = reference_steps.get_mut(g).and_then(|grp| grp.get_mut(r)) {
            step.insert("matches".into(), id);
        }
    }
    let mut total = 0.0f64;
    for (g, size) in sizes.iter().enumerate() {
        total += by_group[g] / *size as f64;
    }
    Ok(total / n_groups as f64)
}
