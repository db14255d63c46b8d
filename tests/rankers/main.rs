//! The rankers that need no model: recentness, lost in the middle, diversity, fusion, adaptive weight, and their value on SciFact.
//! One test binary per area (cargo builds and links each once); `cargo test --test rankers` runs them.

mod haystack_fixture;
mod recentness;
mod lenient_dates;
mod lost_in_the_middle;
mod lost_in_the_middle_haystack_tests;
mod diversity;
mod diversity_haystack_tests;
mod ranker_haystack_tests;
mod fusion;
mod fusion_ranx_tests;
mod adaptive_weight;
mod options;
mod pipeline_value;
