//! `compute_aggregates`: per_template, micro and macro statistics (graphrag-eval `docs/output.md`
//! § "Aggregate metrics"), with Python's number semantics: integer sums stay integers, `statistics.mean` is
//! the exactly rounded mean (an integer when it divides), `median` of an even count is a float.

use crate::python::values as py;
use serde_json::{Map, Value};

const METRICS: [&str; 9] = [
    "answer_recall",
    "answer_precision",
    "answer_relevance",
    "answer_f1",
    "steps_score",
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "elapsed_sec",
];
const RETRIEVAL_STEP_METRICS: [&str; 6] = [
    "retrieval_answer_precision",
    "retrieval_answer_recall",
    "retrieval_answer_f1",
    "retrieval_context_recall",
    "retrieval_context_precision",
    "retrieval_context_f1",
];
const RETAINED: [&str; 4] = ["input_tokens", "output_tokens", "total_tokens", "elapsed_sec"];

/// A Python `int` or `float`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    fn of(v: &Value) -> Option<Num> {
        match v {
            Value::Bool(b) => Some(Num::Int(*b as i128)),
            Value::Number(n) => n
                .as_i64()
                .map(|i| Num::Int(i as i128))
                .or_else(|| n.as_u64().map(|u| Num::Int(u as i128)))
                .or_else(|| n.as_f64().map(Num::Float)),
            _ => None,
        }
    }
    fn f(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
    fn to_value(self) -> Value {
        match self {
            Num::Int(i) => i64::try_from(i).map(Value::from).unwrap_or_else(|_| Value::from(i as f64)),
            Num::Float(f) => Value::from(f),
        }
    }
}

/// Shewchuk's exact partials (Python's `math.fsum`): the correctly rounded sum.
fn fsum(values: impl Iterator<Item = f64>) -> f64 {
    let mut partials: Vec<f64> = vec![];
    for mut x in values {
        let mut i = 0;
        for j in 0..partials.len() {
            let mut y = partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[i] = lo;
                i += 1;
            }
            x = hi;
        }
        partials.truncate(i);
        partials.push(x);
    }
    partials.iter().rev().fold(0.0, |acc, p| acc + p)
}

/// Python 3.12's built-in `sum()`: exact while the items are ints, then Neumaier-compensated floats.
pub fn py_sum(values: &[Num]) -> Num {
    let mut int_acc: i128 = 0;
    let mut float: Option<(f64, f64)> = None; // (sum, compensation)
    for v in values {
        match (*v, float.as_mut()) {
            (Num::Int(i), None) => int_acc += i,
            (Num::Float(x), None) => float = Some((int_acc as f64 + x, 0.0)),
            (Num::Float(x), Some((s, c))) => {
                let t = *s + x;
                if s.abs() >= x.abs() {
                    *c += (*s - t) + x;
                } else {
                    *c += (x - t) + *s;
                }
                *s = t;
            }
            (Num::Int(i), Some((s, _))) => *s += i as f64,
        }
    }
    match float {
        None => Num::Int(int_acc),
        Some((s, c)) => Num::Float(if c != 0.0 && c.is_finite() { s + c } else { s }),
    }
}

/// `statistics.mean`: exact, rounded once; an int when every item is an int and the mean is whole.
pub fn py_mean(values: &[Num]) -> Num {
    let n = values.len().max(1);
    if values.iter().all(|v| matches!(v, Num::Int(_))) {
        let total: i128 = values.iter().map(|v| if let Num::Int(i) = v { *i } else { 0 }).sum();
        if total % n as i128 == 0 {
            return Num::Int(total / n as i128);
        }
        return Num::Float(total as f64 / n as f64);
    }
    Num::Float(fsum(values.iter().map(|v| v.f())) / n as f64)
}

fn cmp(a: &Num, b: &Num) -> std::cmp::Ordering {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x.cmp(y),
        _ => a.f().partial_cmp(&b.f()).unwrap_or(std::cmp::Ordering::Equal),
    }
}

/// `statistics.median`.
pub fn py_median(values: &[Num]) -> Num {
    let mut sorted = values.to_vec();
    crate::stable_sort::stable_sort_by(&mut sorted, cmp); // stable, like Python's sorted
    let n = sorted.len();
    if n % 2 == 1 {
        return sorted[n / 2];
    }
    match (sorted[n / 2 - 1], sorted[n / 2]) {
        (Num::Int(a), Num::Int(b)) => Num::Float((a + b) as f64 / 2.0),
        (a, b) => Num::Float((a.f() + b.f()) / 2.0),
    }
}

/// `stats_for_series`: sum, mean, median, min, max (all 0 for no values).
pub fn stats(values: &[Num]) -> Value {
    let mut m = Map::new();
    if values.is_empty() {
        for k in ["sum", "mean", "median", "min", "max"] {
            m.insert(k.into(), Value::from(0));
        }
        return Value::Object(m);
    }
    let mut min = values[0];
    let mut max = values[0];
    for v in &values[1..] {
        if cmp(v, &min).is_lt() {
            min = *v;
        }
        if cmp(v, &max).is_gt() {
            max = *v;
        }
    }
    m.insert("sum".into(), py_sum(values).to_value());
    m.insert("mean".into(), py_mean(values).to_value());
    m.insert("median".into(), py_median(values).to_value());
    m.insert("min".into(), min.to_value());
    m.insert("max".into(), max.to_value());
    Value::Object(m)
}

/// An insertion-ordered map of name → list (Python's `defaultdict(list)`).
#[derive(Default, Clone)]
struct Series(Vec<(String, Vec<Num>)>);

impl Series {
    fn entry(&mut self, k: &str) -> &mut Vec<Num> {
        if let Some(i) = self.0.iter().position(|(n, _)| n == k) {
            return &mut self.0[i].1;
        }
        self.0.push((k.to_string(), vec![]));
        &mut self.0.last_mut().expect("just pushed").1
    }
    fn get(&self, k: &str) -> Option<&Vec<Num>> {
        self.0.iter().find(|(n, _)| n == k).map(|(_, v)| v)
    }
}

/// `defaultdict(lambda: defaultdict(int))` of step summaries, insertion-ordered.
#[derive(Default, Clone)]
struct Counts(Vec<(String, Vec<(String, i64)>)>);

impl Counts {
    fn bump(&mut self, table: &str, name: &str, by: i64) {
        let i = match self.0.iter().position(|(t, _)| t == table) {
            Some(i) => i,
            None => {
                self.0.push((table.to_string(), vec![]));
                self.0.len() - 1
            }
        };
        let row = &mut self.0[i].1;
        match row.iter_mut().find(|(n, _)| n == name) {
            Some((_, c)) => *c += by,
            None => row.push((name.to_string(), by)),
        }
    }
    fn to_value(&self) -> Map<String, Value> {
        self.0
            .iter()
            .map(|(t, row)| (t.clone(), Value::Object(row.iter().map(|(n, c)| (n.clone(), Value::from(*c))).collect())))
            .collect()
    }
}

#[derive(Default)]
struct Template {
    id: String,
    errors: i64,
    successes: i64,
    stats: Series,
    steps: Counts,
    step_metrics: Series,
}

fn parsed_output_is_empty_bindings(output: &Value) -> bool {
    let Some(text) = output.as_str() else { return false };
    let Ok(Value::Object(res)) = serde_json::from_str::<Value>(text) else { return false };
    match res.get("results") {
        Some(Value::Object(r)) => r.get("bindings").is_some_and(|b| !py::truthy(b)),
        _ => false,
    }
}

/// `compute_aggregates(samples)`; `custom_metrics` are the output names of the custom evaluations.
pub fn aggregate(samples: &[Value], custom_metrics: &[String]) -> Value {
    let metrics: Vec<String> = METRICS.iter().map(|s| s.to_string()).chain(custom_metrics.iter().cloned()).collect();
    let mut templates: Vec<Template> = vec![];
    for sample in samples {
        let Some(sample) = sample.as_object() else { continue };
        let tid = match sample.get("template_id") {
            Some(v) => py::str_of(v),
            None => continue,
        };
        let t = match templates.iter().position(|t| t.id == tid) {
            Some(i) => &mut templates[i],
            None => {
                templates.push(Template { id: tid, ..Default::default() });
                templates.last_mut().expect("just pushed")
            }
        };
        if sample.contains_key("error") {
            t.errors += 1;
        } else {
            t.successes += 1;
        }
        for metric in &metrics {
            if let Some(n) = sample.get(metric).and_then(Num::of) {
                t.stats.entry(metric).push(n);
            }
        }
        let steps: &[Value] = sample.get("actual_steps").and_then(Value::as_array).map(|v| v.as_slice()).unwrap_or(&[]);
        let mut seen: Vec<String> = vec![];
        for step in steps {
            let Some(step) = step.as_object() else { continue };
            let Some(name) = step.get("name").map(py::str_of) else { continue };
            t.steps.bump("total", &name, 1);
            let is_error = step.get("status").and_then(Value::as_str) == Some("error");
            if is_error {
                t.steps.bump("errors", &name, 1);
            }
            if !seen.contains(&name) {
                seen.push(name.clone());
                t.steps.bump("once_per_sample", &name, 1);
            }
            if !is_error && step.get("output").is_some_and(parsed_output_is_empty_bindings) {
                t.steps.bump("empty_results", &name, 1);
            }
        }
        for step in steps {
            let Some(step) = step.as_object() else { continue };
            if step.get("name").and_then(Value::as_str) != Some("retrieval") {
                continue;
            }
            for metric in RETRIEVAL_STEP_METRICS {
                if let Some(n) = step.get(metric).and_then(Num::of) {
                    t.step_metrics.entry(metric).push(n);
                }
            }
        }
    }

    // per_template
    let mut per_template = Map::new();
    for t in &templates {
        let mut s = Map::new();
        s.insert("number_of_error_samples".into(), Value::from(t.errors));
        s.insert("number_of_success_samples".into(), Value::from(t.successes));
        for metric in &metrics {
            let series = t.stats.get(metric).cloned().unwrap_or_default();
            if !series.is_empty() || RETAINED.contains(&metric.as_str()) {
                s.insert(metric.clone(), stats(&series));
            }
        }
        let mut steps = t.steps.to_value();
        for (metric, values) in &t.step_metrics.0 {
            steps.insert(metric.clone(), stats(values));
        }
        if !steps.is_empty() {
            s.insert("steps".into(), Value::Object(steps));
        }
        per_template.insert(t.id.clone(), Value::Object(s));
    }

    // micro
    let mut micro = Map::new();
    micro.insert("number_of_error_samples".into(), Value::from(templates.iter().map(|t| t.errors).sum::<i64>()));
    micro.insert("number_of_success_samples".into(), Value::from(templates.iter().map(|t| t.successes).sum::<i64>()));
    for metric in &metrics {
        let series: Vec<Num> = templates.iter().flat_map(|t| t.stats.get(metric).cloned().unwrap_or_default()).collect();
        if !series.is_empty() || RETAINED.contains(&metric.as_str()) {
            micro.insert(metric.clone(), stats(&series));
        }
    }
    let mut micro_step_metrics = Series::default();
    for t in &templates {
        for (metric, values) in &t.step_metrics.0 {
            micro_step_metrics.entry(metric).extend(values.iter().copied());
        }
    }
    for (metric, values) in &micro_step_metrics.0 {
        micro.insert(metric.clone(), stats(values));
    }
    let mut merged = Counts::default();
    for t in &templates {
        for (table, row) in &t.steps.0 {
            for (name, c) in row {
                merged.bump(table, name, *c);
            }
        }
    }
    if !merged.0.is_empty() {
        micro.insert("steps".into(), Value::Object(merged.to_value()));
    }

    // macro: means of the per-template means
    let mut macro_ = Map::new();
    let mean_of = |v: &Value| v.get("mean").and_then(Num::of);
    for metric in &metrics {
        let means: Vec<Num> = per_template.values().filter_map(|s| s.get(metric.as_str())).filter_map(mean_of).collect();
        if !means.is_empty() || RETAINED.contains(&metric.as_str()) {
            let m = if means.is_empty() { Num::Int(0) } else { py_mean(&means) };
            let mut o = Map::new();
            o.insert("mean".into(), m.to_value());
            macro_.insert(metric.clone(), Value::Object(o));
        }
    }
    let mut macro_steps = Series::default();
    for s in per_template.values() {
        if let Some(Value::Object(steps)) = s.get("steps") {
            for (metric, st) in steps {
                if let Some(m) = st.as_object().and_then(|o| o.get("mean")).and_then(Num::of) {
                    macro_steps.entry(metric).push(m);
                }
            }
        }
    }
    for (metric, values) in &macro_steps.0 {
        let mut o = Map::new();
        o.insert("mean".into(), py_mean(values).to_value());
        macro_.insert(metric.clone(), Value::Object(o));
    }

    let mut out = Map::new();
    out.insert("per_template".into(), Value::Object(per_template));
    out.insert("micro".into(), Value::Object(micro));
    out.insert("macro".into(), Value::Object(macro_));
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stats_like_python() {
        assert_eq!(stats(&[]), json!({"sum": 0, "mean": 0, "median": 0, "min": 0, "max": 0}));
        let ints = |v: &[i128]| v.iter().map(|i| Num::Int(*i)).collect::<Vec<_>>();
        assert_eq!(stats(&ints(&[1, 2])), json!({"sum": 3, "mean": 1.5, "median": 1.5, "min": 1, "max": 2}));
        assert_eq!(stats(&ints(&(0..10).rev().collect::<Vec<_>>())), json!({"sum": 45, "mean": 4.5, "median": 4.5, "min": 0, "max": 9}));
        assert_eq!(stats(&[Num::Float(1.5)]), json!({"sum": 1.5, "mean": 1.5, "median": 1.5, "min": 1.5, "max": 1.5}));
        assert_eq!(stats(&ints(&[2, 4])), json!({"sum": 6, "mean": 3, "median": 3.0, "min": 2, "max": 4}));
    }
}
