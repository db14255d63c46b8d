//! How each tool names a measure, and the name sets that stand for several: from a name to the [`Metric`]s
//! it stands for, and from a [`Metric`] to the name it is reported under.
//!
//! | module | what |
//! |---|---|
//! | [`dialect`] | [`Dialect`](dialect::Dialect): whose meaning a colliding name has; reading one name or a caller's list |
//! | [`trec_eval`] | trec_eval's families, parameters, printed names, nicknames and printing order |
//! | [`ranx`] | ranx's names, the `name@k` style, lower-case aliases |
//! | [`ir_measures`] | ir_measures' `Measure(param=value)@cutoff` syntax and registry |
//! | [`profiles`] | a tool's name for a set of measures and settings (`haystack`, `graphrag@k`, `trec_eval`) |
//!
//! [`Metric`]: crate::metrics::measures::metric::Metric

pub mod dialect;
pub mod ir_measures;
pub mod profiles;
pub mod ranx;
pub mod trec_eval;
