//! Bindings for comparing N runs like ranx (`compare`, its report tables) and for ranx's `optimize_fusion`
//! (wrapped by pkg/metrics/comparison.ts). Runs are gathered in a `MetricsRunList` (each parsed run copied in once), and
//! the result stays here as a `MetricsComparison` handle, so that its tables print without recomputing.

use super::convert::{read_options, to_js, to_json};
use super::errors::{js, JsResult};
use super::metrics::{requests_and_options, MetricsQrels, MetricsRun};
use rerankit::metrics::comparison::{compare, CompareOptions, Comparison};
use rerankit::metrics::EvaluateOptions;
use rerankit::options::split_off;
use rerankit::metrics::formats::ranx_report::{report, ReportFormat, ReportOptions};
use rerankit::metrics::Run;
use rerankit::rankers::fusion::optimize::{optimize_fusion, OptimizeFusionOptions};
use rerankit::rankers::fusion::Run as FusionRun;
use rerankit::{Error, Result};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// Runs to compare, with their names.
#[wasm_bindgen]
#[derive(Default)]
pub struct MetricsRunList {
    runs: Vec<Run>,
    names: Vec<String>,
}

#[wasm_bindgen]
impl MetricsRunList {
    #[wasm_bindgen(constructor)]
    pub fn new() -> MetricsRunList {
        MetricsRunList::default()
    }

    /// Adds a copy of `run` under `name`.
    pub fn push(&mut self, run: &MetricsRun, name: String) {
        self.runs.push(run.run().clone());
        self.names.push(name);
    }
}

/// A comparison of N runs (ranx's `Report`).
#[wasm_bindgen]
pub struct MetricsComparison {
    inner: Comparison,
}

/// Compares the runs of `list` on `measures`: `options` are `evaluate`'s with `{statTest, nPermutations, maxP,
/// randomSeed}` ([`CompareOptions`]).
#[wasm_bindgen(js_name = metricsCompareMany)]
pub fn metrics_compare_many(qrels: &MetricsQrels, list: &MetricsRunList, measures: JsValue, options: JsValue) -> JsResult<MetricsComparison> {
    js((|| {
        let (compare_options, eval_options) = split_off::<CompareOptions, EvaluateOptions>("options", to_json("options", &options)?)?;
        let settings = compare_options.settings()?;
        let (requests, eval, _) = requests_and_options(&measures, eval_options)?;
        let runs: Vec<&Run> = list.runs.iter().collect();
        Ok(MetricsComparison { inner: compare(qrels.qrels(), &runs, &list.names, &requests, &eval, settings)? })
    })())
}

#[wasm_bindgen(typescript_custom_section)]
const COMPARISON_DATA: &'static str = r#"
/** `MetricsComparison.data()`: N runs compared on each measure (pkg/metrics/comparison.ts's `RunComparison` holds it). */
export interface ComparisonData {
  runNames: string[];
  qids: string[];
  statTest: import('../metrics/comparison.js').StatTest;
  maxP: number;
  nPermutations: number;
  randomSeed: number;
  measures: { key: string; means: number[]; pValues: (number | null)[]; winTieLoss: [number, number, number][]; values: number[][] }[];
}
"#;

#[wasm_bindgen]
impl MetricsComparison {
    /// `{runNames, qids, statTest, maxP, nPermutations, randomSeed, measures: [{key, means, pValues (row-major k×k,
    /// NaN on the diagonal), winTieLoss ([[W, T, L]] row-major), values (run-major)}]}`.
    #[wasm_bindgen(unchecked_return_type = "ComparisonData")]
    pub fn data(&self) -> JsResult<JsValue> {
        js((|| {
            let c = &self.inner;
            let measures: Vec<Value> = c
                .measures
                .iter()
                .map(|m| {
                    json!({
                        "key": m.key,
                        "means": m.means,
                        "pValues": m.p_values.iter().flatten().map(|p| if p.is_nan() { Value::Null } else { json!(p) }).collect::<Vec<_>>(),
                        "winTieLoss": m.win_tie_loss.iter().flatten().map(|w| [w.win, w.tie, w.loss]).collect::<Vec<_>>(),
                        "values": m.values,
                    })
                })
                .collect();
            to_js(&json!({
                "runNames": c.run_names,
                "qids": c.qids,
                "statTest": c.settings.stat_test.name(),
                "maxP": c.settings.max_p,
                "nPermutations": c.settings.permutation.n_permutations,
                "randomSeed": c.settings.permutation.random_seed,
                "measures": measures,
            }))
        })())
    }

    /// The table in `format` (`text`, `markdown`, `latex`, `html`), means printed with `{digits, percentages}`.
    pub fn report(&self, format: &str, options: JsValue) -> JsResult<String> {
        js((|| {
            let style = read_options::<ReportOptions>("options", &options)?.style()?;
            report(&self.inner, ReportFormat::parse(format)?, style)
        })())
    }
}

/// ranx's `optimize_fusion`: `{params, score, trials: [{params, score}]}` (`params` as `fuse` takes them; `score`
/// null and no trials for the methods that are only trained).
#[wasm_bindgen(js_name = fusionOptimize, unchecked_return_type = "import('../metrics/comparison.js').FusionOptimization")]
pub fn fusion_optimize(qrels: &MetricsQrels, runs: JsValue, options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let options: OptimizeFusionOptions = read_options("options", &options)?;
        let Value::Array(items) = to_json("runs", &runs)? else {
            return Err(Error::invalid("runs", "expected an array of runs {queryId: {docId: score}}"));
        };
        let runs: Vec<FusionRun> = items.iter().enumerate().map(|(i, r)| FusionRun::from_json(&format!("runs[{i}]"), r)).collect::<Result<_>>()?;
        let result = optimize_fusion(qrels.qrels(), &runs, &options)?;
        to_js(&json!({
            "params": result.best.to_json(),
            "score": result.best_score,
            "trials": result.trials.iter().map(|(p, s)| json!({ "params": p.to_json(), "score": s })).collect::<Vec<_>>(),
        }))
    })())
}
