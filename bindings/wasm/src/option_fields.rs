//! The JSON field names of every option struct the bindings read, for tests/node/option_types.test.mjs, which
//! checks the TypeScript option types against them (the Rust structs are the source of truth).

use super::convert::to_js;
use super::errors::{js, JsResult};
use rerankit::options::field_names;
use wasm_bindgen::prelude::*;

#[doc(hidden)]
#[wasm_bindgen(js_name = __optionFields)]
pub fn option_fields() -> JsResult<JsValue> {
    use rerankit::eval::haystack::{squad::SquadOptions, ContextMatchingOptions, HaystackMetricsOptions, WrongExamplesOptions};
    use rerankit::document::MultiLabelOptions;
    use rerankit::metrics::comparison::CompareOptions;
    use rerankit::metrics::formats::ranx_report::ReportOptions;
    use rerankit::metrics::inputs::run::RunParseOptions;
    use rerankit::metrics::EvaluateOptions;
    use rerankit::rankers::fusion::optimize::OptimizeFusionOptions;
    use rerankit::rankers::adaptive_weight::{AdaptiveWeightOptions, CombineScoresOptions};
    use rerankit::rankers::diversity::DiversityRankerOptions;
    use rerankit::rankers::fusion::FuseOptions;
    use rerankit::rankers::lost_in_the_middle::LostInTheMiddleRankerOptions;
    use rerankit::rankers::recentness::RecentnessRankerOptions;
    #[cfg_attr(not(feature = "models"), allow(unused_mut))]
    let mut fields: Vec<(&str, &[&str])> = vec![
        ("EvaluateOptions", field_names::<EvaluateOptions>()),
        ("RecentnessRankerOptions", field_names::<RecentnessRankerOptions>()),
        ("LostInTheMiddleRankerOptions", field_names::<LostInTheMiddleRankerOptions>()),
        ("DiversityRankerOptions", field_names::<DiversityRankerOptions>()),
        ("FuseOptions", field_names::<FuseOptions>()),
        ("AdaptiveWeightOptions", field_names::<AdaptiveWeightOptions>()),
        ("CombineScoresOptions", field_names::<CombineScoresOptions>()),
        ("HaystackMetricsOptions", field_names::<HaystackMetricsOptions>()),
        ("WrongExamplesOptions", field_names::<WrongExamplesOptions>()),
        ("ContextMatchingOptions", field_names::<ContextMatchingOptions>()),
        ("SquadOptions", field_names::<SquadOptions>()),
        ("EvaluationBuildOptions", field_names::<rerankit::eval::haystack::EvaluationBuildOptions>()),
        ("CompareOptions", field_names::<CompareOptions>()),
        ("ReportOptions", field_names::<ReportOptions>()),
        ("OptimizeFusionOptions", field_names::<OptimizeFusionOptions>()),
        ("RunParseOptions", field_names::<RunParseOptions>()),
        ("MultiLabelOptions", field_names::<MultiLabelOptions>()),
    ];
    #[cfg(feature = "models")]
    {
        use rerankit::inference::{EmbedOptions, ModelLoadOptions, RerankOptions, ScoreOptions};
        fields.push(("RerankOptions", field_names::<RerankOptions>()));
        fields.push(("ScoreOptions", field_names::<ScoreOptions>()));
        fields.push(("EmbedOptions", field_names::<EmbedOptions>()));
        fields.push(("ModelLoadOptions", field_names::<ModelLoadOptions>()));
    }
    let map: serde_json::Map<String, serde_json::Value> =
        fields.into_iter().map(|(name, f)| (name.to_string(), serde_json::json!(f))).collect();
    js(to_js(&map))
}
