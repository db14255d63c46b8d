//! pkg/rust_types.ts: the TypeScript declarations of the Rust types that JavaScript hands to the crate (the
//! option structs and the names their fields take) and of the error codes, rendered from the Rust types by
//! ts-rs (their serde attributes and doc comments). The public interfaces of pkg/ extend these with the keys
//! the wrapper itself consumes (callbacks, signals, files), so an option is declared once: as a Rust field.
//!
//! `cargo test --lib typescript` fails when the checked-in file is not what the Rust types render;
//! `RERANKIT_WRITE_TYPES=1 cargo test --lib typescript` writes it.

use crate::error::ErrorCode;
use crate::eval::haystack::node_metrics::WrongExamplesFields;
use crate::eval::haystack::squad::SquadOptions;
use crate::document::MultiLabelOptions;
use crate::eval::haystack::{AnswerScope, ContextMatchingOptions, DocumentScope, EvalMode, EvaluationBuildOptions, HaystackMetricsOptions};
use crate::inference::{EmbedOptions, ModelLoadOptions, RerankOptions, ScoreOptions};
use crate::metrics::comparison::{CompareOptions, StatTest};
use crate::metrics::evaluation::ranking::TiePolicy;
use crate::metrics::evaluation::QueryScope;
use crate::metrics::measures::interpolated_precision::RecallRounding;
use crate::metrics::names::dialect::Dialect;
use crate::metrics::formats::ranx_report::ReportOptions;
use crate::metrics::inputs::run::RunParseOptions;
use crate::metrics::EvaluateOptions;
use crate::rankers::adaptive_weight::{AdaptiveWeightOptions, CombineScoresOptions, PositionError};
use crate::rankers::diversity::{DiversityRankerOptions, Similarity, StrategyName};
use crate::rankers::fusion::normalization::{self, Normalization};
use crate::rankers::fusion::optimize::{self, OptimizeFusionOptions};
use crate::rankers::fusion::{method, FuseOptions};
use crate::rankers::lost_in_the_middle::LostInTheMiddleRankerOptions;
use crate::rankers::recentness::{RankingMode, RecentnessRankerOptions};
use serde::de::DeserializeOwned;
use ts_rs::{Config, TS};

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/pkg/rust_types.ts");

const HEADER: &str = "// Rendered from the Rust types by src/typescript.rs (`RERANKIT_WRITE_TYPES=1 cargo test --lib typescript`): \
edit the Rust\n// types and their doc comments, not this file.\n";

/// Integers cross the seam as JavaScript numbers (ts-rs would make 64-bit ones `bigint`).
fn config() -> Config {
    Config::default().with_large_int("number")
}

/// A string-literal union: `"a" | "b"`.
fn union<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    names.into_iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(" | ")
}

fn jsdoc(text: &str) -> String {
    format!("/**\n * {text}\n */\n")
}

/// Normalisations are read by [`Normalization::parse`], which takes several spellings of one normalisation: the
/// TypeScript type lists every name it takes, under the name the package has always given it.
impl TS for Normalization {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;
    fn name(_: &Config) -> String {
        "FusionNorm".into()
    }
    fn inline(_: &Config) -> String {
        union(normalization::NAMES.iter().copied())
    }
    fn decl(cfg: &Config) -> String {
        format!("type FusionNorm = {};", Self::inline(cfg))
    }
    fn docs() -> Option<String> {
        Some(jsdoc("A normalisation by ranx's name; `\"none\"` or `null` for none."))
    }
}

/// One declaration of the file, exported.
fn declaration<T: TS + ?Sized>(cfg: &Config) -> String {
    format!("{}export {}\n", T::docs().unwrap_or_default(), T::decl(cfg))
}

fn render() -> String {
    let cfg = config();
    let mut out = vec![HEADER.to_string()];
    let mut add = |text: String| out.push(text);
    add(declaration::<ErrorCode>(&cfg));
    // evaluate, compareRuns
    add(declaration::<EvaluateOptions>(&cfg));
    add(declaration::<QueryScope>(&cfg));
    add(declaration::<TiePolicy>(&cfg));
    add(declaration::<Dialect>(&cfg));
    add(declaration::<RecallRounding>(&cfg));
    add(declaration::<RunParseOptions>(&cfg));
    add(declaration::<CompareOptions>(&cfg));
    add(declaration::<StatTest>(&cfg));
    add(declaration::<ReportOptions>(&cfg));
    // the Haystack rankers
    add(declaration::<RecentnessRankerOptions>(&cfg));
    add(declaration::<RankingMode>(&cfg));
    add(declaration::<LostInTheMiddleRankerOptions>(&cfg));
    add(declaration::<DiversityRankerOptions>(&cfg));
    add(declaration::<Similarity>(&cfg));
    add(declaration::<StrategyName>(&cfg));
    // fusion
    add(declaration::<FuseOptions>(&cfg));
    // `method` is a string read by `FusionMethod::from_options`: the names it takes
    add(format!(
        "{}export type FusionMethodName = {};\n",
        jsdoc("A fusion method by ranx's name (`sum`, `mnz`… also spelt `combsum`, `combmnz`…)."),
        union(method::NAMES.iter().copied())
    ));
    add(declaration::<Normalization>(&cfg));
    add(declaration::<OptimizeFusionOptions>(&cfg));
    // `method` is one of the methods ranx's `optimize_fusion` searches or trains
    add(format!(
        "{}export type OptimizableFusionMethod = {};\n",
        jsdoc("A fusion method `optimizeFusion` searches the parameters of, or trains."),
        union(optimize::METHODS.iter().copied())
    ));
    add(declaration::<AdaptiveWeightOptions>(&cfg));
    add(declaration::<PositionError>(&cfg));
    add(declaration::<CombineScoresOptions>(&cfg));
    // Haystack's schema, EvaluationResult and SQuAD
    add(declaration::<MultiLabelOptions>(&cfg));
    add(declaration::<HaystackMetricsOptions>(&cfg));
    add(declaration::<DocumentScope>(&cfg));
    add(declaration::<AnswerScope>(&cfg));
    add(declaration::<EvalMode>(&cfg));
    add(declaration::<WrongExamplesFields>(&cfg));
    add(declaration::<EvaluationBuildOptions>(&cfg));
    add(declaration::<ContextMatchingOptions>(&cfg));
    add(declaration::<SquadOptions>(&cfg));
    // the models
    add(declaration::<ModelLoadOptions>(&cfg));
    add(declaration::<RerankOptions>(&cfg));
    add(declaration::<ScoreOptions>(&cfg));
    add(declaration::<EmbedOptions>(&cfg));
    // ts-rs ends some lines with a space
    out.join("\n").lines().map(str::trim_end).collect::<Vec<_>>().join("\n") + "\n"
}

#[test]
fn pkg_rust_types_ts_is_what_the_rust_types_render() {
    let rendered = render();
    if std::env::var_os("RERANKIT_WRITE_TYPES").is_some() {
        std::fs::write(PATH, &rendered).unwrap();
        return;
    }
    let checked_in = std::fs::read_to_string(PATH).unwrap_or_default();
    assert!(
        checked_in == rendered,
        "pkg/rust_types.ts is not what the Rust types render: run `RERANKIT_WRITE_TYPES=1 cargo test --lib typescript` and commit it"
    );
}

/// Every member of a declared union, read the way an option is read.
fn members_are_read<T: TS + DeserializeOwned + std::fmt::Debug>() {
    let inline = T::inline(&config());
    for member in inline.split(" | ") {
        let name: String = serde_json::from_str(member).unwrap_or_else(|_| panic!("{} member {member} is a string", T::name(&config())));
        let read: Result<T, _> = serde_json::from_value(serde_json::Value::String(name.clone()));
        assert!(read.is_ok(), "{}: Rust does not read {name:?}", T::name(&config()));
    }
}

#[test]
fn every_name_a_declared_union_lists_is_read_by_rust() {
    members_are_read::<QueryScope>();
    members_are_read::<TiePolicy>();
    members_are_read::<Dialect>();
    members_are_read::<RecallRounding>();
    members_are_read::<StatTest>();
    members_are_read::<RankingMode>();
    members_are_read::<Similarity>();
    members_are_read::<StrategyName>();
    members_are_read::<Normalization>();
    members_are_read::<PositionError>();
    members_are_read::<DocumentScope>();
    members_are_read::<AnswerScope>();
    members_are_read::<EvalMode>();
}

#[test]
fn the_error_codes_are_every_code() {
    let declared = ErrorCode::inline(&config());
    assert_eq!(declared, union(ErrorCode::ALL.iter().map(|c| c.as_str())));
}
