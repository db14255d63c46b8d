//! ranx's `Report` tables of a [`Comparison`]: one row per run (lettered a, b, c…), one column per measure, each
//! mean followed by the letters of the runs it beats significantly (p ≤ max_p and a higher mean).
//!
//! | format | what |
//! |---|---|
//! | `text` | ranx's `print(report)` / `Report.to_table()`: tabulate's `simple` layout, Unicode superscript letters |
//! | `latex` | ranx's `Report.to_latex()`, byte for byte: best mean per measure in bold, `$^{letters}$`, phantoms |
//! | `markdown` | the `text` rows with the best mean in bold (`**…**`), tabulate's `github` layout |
//! | `html` | the same with `<b>` and `<sup>letters</sup>`, tabulate's HTML layout |
//!
//! ranx has no Markdown or HTML export; those two put `to_latex`'s content in tabulate's layouts. Unlike
//! tabulate's `unsafehtml`, run names and measure labels are HTML-escaped, and `|` in Markdown cells is written
//! `\|`. The best mean is `to_latex`'s: the first run whose mean, rounded to `digits`, exceeds every earlier
//! one and 0 (so no bold when every mean rounds to 0).

use crate::error::{Error, Result};
use crate::metrics::comparison::{Comparison, StatTest};
use crate::python::repr::{repr_float, round};
use crate::python::tabulate::{tabulate, TableFormat};

/// The run letters ranx uses in its tables.
const LETTERS: &str = "abcdefghijklmnopqrstuvwxyz";
/// ranx's superscript letters (its `q` is U+06F9, as ranx has it).
const SUPERSCRIPTS: &str = "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖ۹ʳˢᵗᵘᵛʷˣʸᶻ";

/// A report format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReportFormat {
    Text,
    Markdown,
    Latex,
    Html,
}

impl ReportFormat {
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "text" => Ok(ReportFormat::Text),
            "markdown" => Ok(ReportFormat::Markdown),
            "latex" => Ok(ReportFormat::Latex),
            "html" => Ok(ReportFormat::Html),
            other => Err(Error::invalid("format", format!("expected \"text\", \"markdown\", \"latex\" or \"html\", got {other:?}"))),
        }
    }
}

/// How means are printed (ranx's `rounding_digits` and `show_percentages`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportStyle {
    /// Decimal places (default 3); with percentages, 2 fewer.
    pub digits: u32,
    /// Means × 100.
    pub percentages: bool,
}

impl Default for ReportStyle {
    fn default() -> Self {
        ReportStyle { digits: 3, percentages: false }
    }
}

/// How `RunComparison.report` prints the means (ranx's `rounding_digits` and `show_percentages`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ReportOptions {
    /// Decimals of the means (ranx's `rounding_digits`; default 3, at most 15; 2 fewer with percentages).
    pub digits: Option<u32>,
    /// Means × 100 (ranx's `show_percentages`; default false).
    pub percentages: Option<bool>,
}

impl ReportOptions {
    pub fn style(&self) -> Result<ReportStyle> {
        if self.digits.is_some_and(|d| d > 15) {
            return Err(Error::invalid("options.digits", "at most 15"));
        }
        let defaults = ReportStyle::default();
        Ok(ReportStyle { digits: self.digits.unwrap_or(defaults.digits), percentages: self.percentages.unwrap_or(defaults.percentages) })
    }
}

/// ranx's label of a measure name (`ndcg@10` → `NDCG@10`, `map@100-l2` → `MAP@100-l2`); other names as given.
pub fn measure_label(name: &str) -> String {
    let label = |m: &str| -> String {
        let known = match m {
            "hits" => "Hits",
            "hit_rate" => "Hit Rate",
            "precision" => "P",
            "recall" => "Recall",
            "f1" => "F1",
            "r-precision" => "R-Prec",
            "mrr" => "MRR",
            "map" => "MAP",
            "dcg" => "DCG",
            "dcg_burges" => "DCG Burges",
            "ndcg" => "NDCG",
            "ndcg_burges" => "NDCG Burges",
            "bpref" => "BPref",
            _ => match m.strip_prefix("rbp.").and_then(|p| p.parse::<u32>().ok()) {
                Some(p) if (1..100).contains(&p) => return format!("RBP.{p}"),
                _ => m,
            },
        };
        known.to_string()
    };
    let (measure, level) = match name.split_once("-l") {
        Some((m, l)) => (m, Some(l)),
        None => (name, None),
    };
    let base = match measure.split_once('@') {
        Some((m, cutoff)) => format!("{}@{cutoff}", label(m)),
        None => label(measure),
    };
    match level {
        Some(l) => format!("{base}-l{l}"),
        None => base,
    }
}

/// The table's data: headers, and per run its letter, name, formatted means, beaten letters, and bold flags.
struct Cells {
    headers: Vec<String>,
    scores: Vec<Vec<String>>,
    /// `beaten[run][measure]`: indices of the runs it beats significantly.
    beaten: Vec<Vec<Vec<usize>>>,
    best: Vec<Option<usize>>,
}

fn cells(c: &Comparison, style: ReportStyle) -> Result<Cells> {
    if style.percentages && style.digits < 2 {
        return Err(Error::invalid("digits", "with percentages, give at least 2 digits (ranx prints digits − 2 decimals)"));
    }
    let digits = style.digits as usize;
    let runs = c.run_names.len();
    let format_score = |x: f64| {
        if style.percentages {
            format!("{:.*}", digits - 2, x * 100.0)
        } else {
            format!("{x:.digits$}")
        }
    };
    let scores = (0..runs).map(|i| c.measures.iter().map(|m| format_score(m.means[i])).collect()).collect();
    let beaten = (0..runs)
        .map(|i| {
            (0..c.measures.len())
                .map(|m| (0..runs).filter(|&j| j != i && c.significant(m, i, j) && c.measures[m].means[i] > c.measures[m].means[j]).collect())
                .collect()
        })
        .collect();
    let best = c
        .measures
        .iter()
        .map(|m| {
            let mut best: (Option<usize>, f64) = (None, 0.0);
            for (i, mean) in m.means.iter().enumerate() {
                if best.1 < round(*mean, digits) {
                    best = (Some(i), round(*mean, digits));
                }
            }
            best.0
        })
        .collect();
    let mut headers = vec!["#".to_string(), "Model".to_string()];
    headers.extend(c.measures.iter().map(|m| measure_label(&m.key)));
    Ok(Cells { headers, scores, beaten, best })
}

fn letters(indices: &[usize], alphabet: &str) -> String {
    indices.iter().filter_map(|&j| alphabet.chars().nth(j)).collect()
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#x27;")
}

/// The comparison as a table in `format` (see the module docs).
pub fn report(c: &Comparison, format: ReportFormat, style: ReportStyle) -> Result<String> {
    let t = cells(c, style)?;
    let letter = |i: usize| LETTERS.chars().nth(i).unwrap_or('?').to_string();
    let rows = |cell: &dyn Fn(usize, usize) -> String, name: &dyn Fn(&str) -> String| -> Vec<Vec<String>> {
        (0..c.run_names.len())
            .map(|i| {
                let mut row = vec![letter(i), name(&c.run_names[i])];
                row.extend((0..c.measures.len()).map(|m| cell(i, m)));
                row
            })
            .collect()
    };
    Ok(match format {
        ReportFormat::Text => {
            let data = rows(&|i, m| format!("{}{}", t.scores[i][m], letters(&t.beaten[i][m], SUPERSCRIPTS)), &|n| n.to_string());
            tabulate(&t.headers, &data, TableFormat::Simple, true)
        }
        ReportFormat::Markdown => {
            let bold = |i: usize, m: usize| if t.best[m] == Some(i) { format!("**{}**", t.scores[i][m]) } else { t.scores[i][m].clone() };
            let data = rows(&|i, m| format!("{}{}", bold(i, m), letters(&t.beaten[i][m], SUPERSCRIPTS)), &|n| n.replace('|', "\\|"));
            let headers: Vec<String> = t.headers.iter().map(|h| h.replace('|', "\\|")).collect();
            tabulate(&headers, &data, TableFormat::Github, false)
        }
        ReportFormat::Html => {
            let cell = |i: usize, m: usize| {
                let score = if t.best[m] == Some(i) { format!("<b>{}</b>", t.scores[i][m]) } else { t.scores[i][m].clone() };
                let beaten = letters(&t.beaten[i][m], LETTERS);
                if beaten.is_empty() {
                    score
                } else {
                    format!("{score}<sup>{beaten}</sup>")
                }
            };
            let headers: Vec<String> = t.headers.iter().map(|h| html_escape(h)).collect();
            tabulate(&headers, &rows(&cell, &html_escape), TableFormat::UnsafeHtml, false)
        }
        ReportFormat::Latex => latex(c, &t),
    })
}

/// ranx's `Report.to_latex()`.
fn latex(c: &Comparison, t: &Cells) -> String {
    let test = match c.settings.stat_test {
        StatTest::Fisher => "Fisher's randomization test",
        StatTest::Student => "paired Student's t-test",
        StatTest::Tukey => "Tukey's HSD test",
    };
    let mut out = String::from(
        "========================\n% Add in preamble\n\\usepackage{graphicx}\n\\usepackage{booktabs}\n========================\n\n\n",
    );
    out.push_str("% To change the table size, act on the resizebox argument `0.8`.\n\\begin{table*}[ht]\n\\centering\n\\caption{\n");
    out.push_str("Overall effectiveness of the models.\nThe best results are highlighted in boldface.\n");
    out.push_str(&format!("Superscripts denote significant differences in {test} with $p \\le {}$.\n}}\n", repr_float(c.settings.max_p)));
    out.push_str("\\resizebox{0.8\\textwidth}{!}{\n\\begin{tabular}{c|l");
    out.push_str(&"|c".repeat(c.measures.len()));
    out.push_str("}\n\\toprule\n\\textbf{\\#}\n& \\textbf{Model}");
    for h in &t.headers[2..] {
        out.push_str(&format!("\n& \\textbf{{{h}}}"));
    }
    out.push_str(" \\\\ \n\\midrule\n");
    let runs = c.run_names.len();
    let rows: Vec<String> = (0..runs)
        .map(|i| {
            let cells: Vec<String> = (0..c.measures.len())
                .map(|m| {
                    let score = if t.best[m] == Some(i) { format!("\\textbf{{{}}}", t.scores[i][m]) } else { t.scores[i][m].clone() };
                    let phantoms: Vec<usize> = (0..runs).filter(|j| *j != i && !t.beaten[i][m].contains(j)).collect();
                    format!("{score}$^{{{}}}$\\hphantom{{$^{{{}}}$}} &", letters(&t.beaten[i][m], LETTERS), letters(&phantoms, LETTERS))
                })
                .collect();
            let mut body = cells.join("\n");
            body.pop(); // the last cell's "&"
            format!("{} &\n{} &\n{body}\\\\", LETTERS.chars().nth(i).unwrap_or('?'), c.run_names[i])
        })
        .collect();
    out.push_str(&rows.join("\n").replace('_', "\\_").replace("$^{}$", ""));
    out.push_str("\n\\bottomrule\n\\end{tabular}\n}\n\\label{tab:results}\n\\end{table*}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_as_ranx() {
        assert_eq!(measure_label("ndcg@10"), "NDCG@10");
        assert_eq!(measure_label("map@100-l2"), "MAP@100-l2");
        assert_eq!(measure_label("mrr"), "MRR");
        assert_eq!(measure_label("rbp.80"), "RBP.80");
        assert_eq!(measure_label("ndcg_cut_10"), "ndcg_cut_10");
    }
}
