//! The JSON field names of every option struct the bindings read, for tests/node/option_types.test.mjs, which
//! checks the TypeScript option types against them (the Rust structs are the source of truth).

use super::convert::to_js;
use super::errors::{js, JsResult};
use rerankit::options::field_names;
use wasm_bindgen::prelude::*;

#[doc(hidden)]
#[wasm_bindgen(js_name = __optionFields)]
pub fn option_fields() -> JsResult<JsValue> {
    use rerankit::eval::haystack::{squad::SquadOptions, ContextMatching, MetricsOptions, WrongExamplesOptions};
    use rerankit::metrics::EvaluateOptions;
    use rerankit::rankers::adaptive_weight::{AdaptiveWeightOptions, CombineScoresOptions};
    use rerankit::rankers::diversity::DiversityOptions;
    use rerankit::rankers::fusion::FusionOptions;
    use rerankit::rankers::lost_in_the_middle::LostInTheMiddleOptions;
    use rerankit::rankers::recentness::RecentnessOptions;
    #[cfg_attr(not(feature = "models"), allow(unused_mut))]
    let mut fields: Vec<(&str, &[&str])> = vec![
        ("EvaluateOptions", field_names::<EvaluateOptions>()),
        ("RecentnessOptions", field_names::<RecentnessOptions>()),
        ("LostInTheMiddleOptions", field_names::<LostInTheMiddleOptions>()),
        ("DiversityOptions", field_names::<DiversityOptions>()),
        ("FusionOptions", field_names::<FusionOptions>()),
        ("AdaptiveWeightOptions", field_names::<AdaptiveWeightOptions>()),
        ("CombineScoresOptions", field_names::<CombineScoresOptions>()),
        ("MetricsOptions", field_names::<MetricsOptions>()),
        ("WrongExamplesOptions", field_names::<WrongExamplesOptions>()),
        ("ContextMatching", field_names::<ContextMatching>()),
        ("SquadOptions", field_names::<SquadOptions>()),
    ];
    #[cfg(feature = "models")]
    {
        use rerankit::inference::{EmbedOptions, LoadOptions, RerankOptions, ScoreOptions};
        fields.push(("RerankOptions", field_names::<RerankOptions>()));
        fields.push(("ScoreOptions", field_names::<ScoreOptions>()));
        fields.push(("EmbedOptions", field_names::<EmbedOptions>()));
        fields.push(("LoadOptions", field_names::<LoadOptions>()));
    }
    let map: serde_json::Map<String, serde_json::Value> =
        fields.into_iter().map(|(name, f)| (name.to_string(), serde_json::json!(f))).collect();
    js(to_js(&map))
}
