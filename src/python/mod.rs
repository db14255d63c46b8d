//! Python's semantics where the numbers rerankit reproduces depend on them: the tools it matches (Haystack,
//! graphrag-eval, pandas) hash, print, compare and sort values the Python way, so the same must happen here.
//!
//! - [`repr`]: `str()` / `repr()` of JSON values (Haystack ids hash `str(meta)`; tables print cells).
//! - [`dataframe`]: `str(pandas.DataFrame)` of a table, which Haystack 1.x hashes into a table document's id.
//! - [`json`]: `json.dumps` (with `sort_keys`, or `indent=2`), as Haystack writes ids and filters and graphrag-eval
//!   writes its prompts.
//! - [`text`]: `str.format` and `str.capitalize`, as graphrag-eval builds its prompts.
//! - [`values`]: `==` (`1 == 1.0 == True`), truthiness and `str()` as graphrag-eval applies them to JSON.
//! - [`numpy_sum`]: numpy's pairwise float sum, mean and variance; [`mt19937`]: numpy's legacy seeded generator
//!   (ranx's Fisher test draws from both).
//! - [`tabulate`]: the `tabulate` package's simple, GitHub and HTML tables (ranx prints its reports with it).
//! - [`numpy_argsort`]: numpy's unstable quicksort order, which pandas' `sort_values` gives Haystack's
//!   `wrong_examples`.

pub mod dataframe;
pub mod json;
pub mod mt19937;
pub mod numpy_argsort;
pub mod numpy_sum;
pub mod repr;
pub mod tabulate;
pub mod text;
pub mod values;
