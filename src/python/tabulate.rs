//! The three layouts of Python's `tabulate` (0.9/0.10) that rerankit's comparison reports use, cell for cell:
//! `"simple"` (ranx's `print(report)`), `"github"` (Markdown) and `"unsafehtml"` (HTML), with headers.
//!
//! Column rules, as tabulate applies them (no `wcwidth`: widths are code points): a column whose every cell parses
//! as an integer or a float is numeric when `numparse` is on; its floats are re-printed with Python's
//! `format(x, "g")`, its cells aligned on the decimal point and right-justified, its header right-justified. Other
//! columns are left-justified. Every column is at least its header's width plus 2.

/// A tabulate `tablefmt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    Simple,
    Github,
    UnsafeHtml,
}

#[derive(Clone, Copy, PartialEq)]
enum ColumnType {
    Int,
    Float,
    Text,
}

fn is_int(s: &str) -> bool {
    s.trim().parse::<i128>().is_ok()
}

fn is_number(s: &str) -> bool {
    s.trim().parse::<f64>().is_ok()
}

/// Python's `format(x, "g")`: 6 significant digits, fixed notation for exponents −4 to 5, trailing zeros dropped.
pub fn python_g(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let scientific = format!("{x:.5e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if (-4..6).contains(&exponent) {
        trim(&format!("{x:.*}", (5 - exponent) as usize))
    } else {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), exponent.abs())
    }
}

/// Digits after the decimal point (or the exponent mark) of a number, −1 for integers and text (tabulate's
/// `_afterpoint`).
fn after_point(s: &str) -> isize {
    if !is_number(s) || is_int(s) {
        return -1;
    }
    let at = s.rfind('.').or_else(|| s.to_lowercase().rfind('e'));
    at.map_or(-1, |p| (s.chars().count() - s[..p].chars().count()) as isize - 1)
}

fn width(s: &str) -> usize {
    s.chars().count()
}

fn pad_left(s: &str, w: usize) -> String {
    format!("{}{s}", " ".repeat(w.saturating_sub(width(s))))
}

fn pad_right(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

/// The table as `tabulate(rows, headers=headers, tablefmt=format, disable_numparse=not numparse)` prints it.
pub fn tabulate(headers: &[String], rows: &[Vec<String>], format: TableFormat, numparse: bool) -> String {
    let columns = headers.len();
    let mut cells: Vec<Vec<String>> = (0..columns).map(|c| rows.iter().map(|r| r[c].clone()).collect()).collect();
    let mut numeric = vec![false; columns];
    let mut widths = vec![0; columns];
    for (c, column) in cells.iter_mut().enumerate() {
        let kind = if !numparse || column.is_empty() {
            ColumnType::Text
        } else if column.iter().all(|s| is_int(s)) {
            ColumnType::Int
        } else if column.iter().all(|s| is_number(s)) {
            ColumnType::Float
        } else {
            ColumnType::Text
        };
        if kind == ColumnType::Float {
            for cell in column.iter_mut() {
                *cell = python_g(cell.trim().parse().unwrap_or(f64::NAN));
            }
        }
        numeric[c] = kind != ColumnType::Text;
        let min_width = width(&headers[c]) + 2;
        if numeric[c] {
            let decimals: Vec<isize> = column.iter().map(|s| after_point(s)).collect();
            let most = decimals.iter().copied().max().unwrap_or(-1);
            for (cell, d) in column.iter_mut().zip(decimals) {
                cell.push_str(&" ".repeat((most - d) as usize));
            }
        }
        widths[c] = column.iter().map(|s| width(s)).max().unwrap_or(0).max(min_width);
        for cell in column.iter_mut() {
            *cell = if numeric[c] { pad_left(cell, widths[c]) } else { pad_right(cell, widths[c]) };
        }
    }
    let header_cells: Vec<String> = (0..columns)
        .map(|c| if numeric[c] { pad_left(&headers[c], widths[c]) } else { pad_right(&headers[c], widths[c]) })
        .collect();
    let row_cells = |r: usize| -> Vec<&str> { (0..columns).map(|c| cells[c][r].as_str()).collect() };
    let mut lines: Vec<String> = Vec::new();
    match format {
        TableFormat::Simple => {
            lines.push(header_cells.join("  ").trim_end().to_string());
            lines.push(widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("  "));
            for r in 0..rows.len() {
                lines.push(row_cells(r).join("  ").trim_end().to_string());
            }
        }
        TableFormat::Github => {
            let row = |cells: &[&str]| format!("| {} |", cells.join(" | "));
            lines.push(row(&header_cells.iter().map(String::as_str).collect::<Vec<_>>()));
            lines.push(format!("|{}|", widths.iter().map(|w| "-".repeat(w + 2)).collect::<Vec<_>>().join("|")));
            for r in 0..rows.len() {
                lines.push(row(&row_cells(r)));
            }
        }
        TableFormat::UnsafeHtml => {
            let style = |c: usize| if numeric[c] { " style=\"text-align: right;\"" } else { "" };
            let row = |tag: &str, cells: &[&str]| {
                let inner: String = cells.iter().enumerate().map(|(c, v)| format!("<{tag}{}>{v}</{tag}>", style(c))).collect();
                format!("<tr>{}</tr>", inner.trim_end())
            };
            lines.push("<table>\n<thead>".into());
            lines.push(row("th", &header_cells.iter().map(String::as_str).collect::<Vec<_>>()));
            lines.push("</thead>\n<tbody>".into());
            for r in 0..rows.len() {
                lines.push(row("td", &row_cells(r)));
            }
            lines.push("</tbody>\n</table>".into());
        }
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_g_format() {
        for (x, expected) in [(0.105, "0.105"), (0.1, "0.1"), (0.0, "0"), (67.6, "67.6"), (1e-5, "1e-05"), (123456789.0, "1.23457e+08"), (0.0001, "0.0001"), (999999.5, "1e+06")] {
            assert_eq!(python_g(x), expected);
        }
    }

    #[test]
    fn simple_layout_matches_tabulate() {
        // tabulate([["a", "x", "0.100"], ["b", "long name", "0.25"]], headers=["#", "Model", "P@5"])
        let headers: Vec<String> = ["#", "Model", "P@5"].map(String::from).to_vec();
        let rows = vec![vec!["a".into(), "x".into(), "0.100".into()], vec!["b".into(), "long name".into(), "0.25".into()]];
        let expected = "#    Model        P@5\n---  ---------  -----\na    x           0.1\nb    long name   0.25";
        assert_eq!(tabulate(&headers, &rows, TableFormat::Simple, true), expected);
    }
}
