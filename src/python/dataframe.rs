//! `str(pandas.DataFrame)` of a table given as rows (column names first), as Haystack 1.x prints one.
//!
//! Haystack 1.x keeps a table document's content as a DataFrame built by `dataframe_from_list` and hashes
//! `str(content)` into its id; `MultiLabel.contexts` holds the same printout. So the string must be pandas'
//! `DataFrame.__repr__`, byte for byte: each column's dtype inferred from its cells (ints → int64, numbers with
//! or without nulls → float64, bools → bool, anything else → object), every column formatted by its dtype's
//! formatter with the leading space pandas gives when the index is shown, cells cut to `display.max_colwidth`
//! (50) with `...`, values and numeric headers right-justified, the `RangeIndex` left-justified, columns joined
//! by one space.
//!
//! Tables whose printout depends on where Haystack runs or on the pandas version are refused
//! (`UNSUPPORTED`, "give the document an id"): lines wider than 78 characters (pandas wraps them at
//! `display.width`, or cuts columns to the terminal's width when run from a terminal), more than 20 columns or
//! 60 rows (truncated with `...` by `display.max_columns` / `display.max_rows`), a text column with a null
//! (pandas 2 prints `None`, pandas 3 `NaN`), duplicate column names of different kinds (pandas 2 and 3 decide
//! their header's leading space differently), and cells holding lists or objects. The answers were checked
//! against pandas 2.2.3 and 3.1.1 (docs/parity.md §1).

use crate::error::{Error, Result};
use crate::python::repr as python_repr;
use serde_json::{Number, Value};

/// pandas' `display.max_colwidth`.
const MAX_COLWIDTH: usize = 50;
/// The widest line printed the same whether pandas wraps at `display.width` (80) or fits a terminal.
const MAX_LINE: usize = 78;
const MAX_COLUMNS: usize = 20;
const MAX_ROWS: usize = 60;
/// pandas' `display.precision`.
const PRECISION: usize = 6;

/// The dtype pandas infers for a column of cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int,
    Float,
    Bool,
    Object,
}

impl Kind {
    fn is_numeric(self) -> bool {
        !matches!(self, Kind::Object)
    }
}

/// `str(pd.DataFrame(columns=rows[0], data=rows[1:]))`; `field` names the table in errors.
pub fn dataframe_str(field: &str, rows: &[Value]) -> Result<String> {
    let refuse = |why: &str| Err(Error::unsupported(format!("{field}: {why}, so Haystack's id of this table depends on pandas' version or display settings; give the document an id")));
    let Some(Value::Array(header)) = rows.first() else {
        return Err(Error::invalid(field, "a table needs a header row (a list of column names)"));
    };
    let data: Vec<&Vec<Value>> = rows[1..]
        .iter()
        .enumerate()
        .map(|(i, r)| match r {
            Value::Array(cells) if cells.len() == header.len() => Ok(cells),
            Value::Array(cells) => Err(Error::invalid(&format!("{field}[{}]", i + 1), format!("has {} cells, the header {}", cells.len(), header.len()))),
            _ => Err(Error::invalid(&format!("{field}[{}]", i + 1), "a table row must be a list")),
        })
        .collect::<Result<_>>()?;
    if header.len() > MAX_COLUMNS {
        return refuse(&format!("it has {} columns (pandas prints at most {MAX_COLUMNS})", header.len()));
    }
    if data.len() > MAX_ROWS {
        return refuse(&format!("it has {} rows (pandas prints at most {MAX_ROWS})", data.len()));
    }
    if header.iter().chain(data.iter().flat_map(|r| r.iter())).any(|v| v.is_array() || v.is_object()) {
        return refuse("a cell or column name is a list or an object");
    }
    if header.iter().any(|h| !(h.is_string() || is_int(h))) {
        return refuse("a column name is not a string or an integer");
    }
    let columns: Vec<Vec<&Value>> = (0..header.len()).map(|c| data.iter().map(|r| &r[c]).collect()).collect();
    let kinds: Vec<Kind> = columns.iter().map(|c| infer_kind(c)).collect();
    for c in &columns {
        if c.iter().any(|v| v.is_null()) && c.iter().any(|v| v.is_string()) && c.iter().all(|v| v.is_null() || v.is_string()) {
            return refuse("a text column holds a null");
        }
    }
    let names = format_column_labels(header);
    for (i, name) in names.iter().enumerate() {
        if names[..i].iter().zip(&kinds).any(|(other, kind)| other == name && kind.is_numeric() != kinds[i].is_numeric()) {
            return refuse("two columns of different kinds share a name");
        }
    }

    if data.is_empty() {
        // The column list is `pprint_thing` of the Index, which escapes nothing.
        let listed: Vec<String> = header.iter().map(python_repr::str_of).collect();
        return Ok(format!("Empty DataFrame\nColumns: [{}]\nIndex: []", listed.join(", ")));
    }

    let index_width = (data.len() - 1).to_string().len();
    let mut strcols: Vec<Vec<String>> = vec![std::iter::once(String::new()).chain((0..data.len()).map(|i| format!("{i:<index_width$}"))).collect()];
    for ((cells, kind), name) in columns.iter().zip(&kinds).zip(names) {
        let header_cell = if kind.is_numeric() { format!(" {name}") } else { name };
        let header_width = width(&header_cell);
        let (values, _) = fixed_width(format_column(cells, *kind), None);
        let (values, values_width) = fixed_width(values, Some(header_width));
        let column_width = values_width.max(header_width);
        let mut column = vec![rjust(&header_cell, column_width)];
        column.extend(values);
        strcols.push(column);
    }
    let printed = adjoin(&strcols);
    if printed.lines().any(|l| width(l) > MAX_LINE) {
        return refuse(&format!("its printout is wider than {MAX_LINE} characters (pandas wraps or cuts it by the terminal)"));
    }
    Ok(printed)
}

fn is_int(v: &Value) -> bool {
    matches!(v, Value::Number(n) if !n.is_f64())
}

/// `lib.maybe_convert_objects` on one column, for the cells JSON can hold.
fn infer_kind(cells: &[&Value]) -> Kind {
    let all = |f: fn(&Value) -> bool| !cells.is_empty() && cells.iter().all(|v| f(v));
    if all(is_int) && !(cells.iter().any(|v| v.as_u64().is_some_and(|u| u > i64::MAX as u64)) && cells.iter().any(|v| v.as_i64().is_some_and(|i| i < 0))) {
        Kind::Int
    } else if all(Value::is_boolean) {
        Kind::Bool
    } else if all(|v| v.is_number() || v.is_null()) && cells.iter().any(|v| v.is_number()) {
        Kind::Float
    } else {
        Kind::Object
    }
}

/// `columns._format_flat()`: names as printed above their columns, before the numeric columns' leading space.
fn format_column_labels(header: &[Value]) -> Vec<String> {
    let labels: Vec<String> = if header.iter().all(is_int) {
        // An int64 Index: `{x: d}`, left-justified to a common width.
        let formatted: Vec<String> = header.iter().map(|v| format_int(v.as_number().expect("an integer"))).collect();
        let w = formatted.iter().map(|s| width(s)).max().unwrap_or(0);
        formatted.iter().map(|s| format!("{s:<w$}")).collect()
    } else {
        // An object Index: each name after one space, not justified.
        header.iter().map(|v| format!(" {}", label_str(v))).collect()
    };
    trim_front(labels)
}

/// A column name as `pprint_thing` prints it.
fn label_str(v: &Value) -> String {
    match v {
        Value::String(s) => escape(s),
        other => other.to_string(),
    }
}

/// Strips the leading spaces every string has (pandas' `trim_front`).
fn trim_front(mut strings: Vec<String>) -> Vec<String> {
    while !strings.is_empty() && strings.iter().all(|s| s.starts_with(' ')) {
        for s in &mut strings {
            s.remove(0);
        }
    }
    strings
}

/// `pprint_thing(x, escape_chars=("\t", "\r", "\n"))`.
fn escape(s: &str) -> String {
    s.replace('\t', "\\t").replace('\r', "\\r").replace('\n', "\\n")
}

/// `f"{x: d}"`.
fn format_int(n: &Number) -> String {
    let s = n.to_string();
    if s.starts_with('-') {
        s
    } else {
        format!(" {s}")
    }
}

/// One column's cells as pandas' formatter for its dtype prints them (index shown: leading space on).
fn format_column(cells: &[&Value], kind: Kind) -> Vec<String> {
    match kind {
        Kind::Int => cells.iter().map(|v| format_int(v.as_number().expect("an integer"))).collect(),
        Kind::Bool => cells.iter().map(|v| format!(" {}", if v.as_bool() == Some(true) { "True" } else { "False" })).collect(),
        Kind::Float => format_float_column(&cells.iter().map(|v| v.as_f64()).collect::<Vec<_>>()),
        Kind::Object => cells
            .iter()
            .map(|v| match v {
                Value::Number(n) if n.is_f64() => trim_zeros_single(&fixed(n.as_f64().expect("a float"))),
                Value::Null => " None".into(),
                Value::Bool(b) => if *b { " True" } else { " False" }.into(),
                Value::String(s) => format!(" {}", escape(s)),
                other => format!(" {other}"),
            })
            .collect(),
    }
}

/// `f"{x: .6f}"`.
fn fixed(x: f64) -> String {
    let s = format!("{:.*}", PRECISION, x.abs());
    if x.is_sign_negative() {
        format!("-{s}")
    } else {
        format!(" {s}")
    }
}

/// `f"{x: .6e}"`: Python writes the exponent with a sign and at least two digits.
fn scientific(x: f64) -> String {
    let s = format!("{:.*e}", PRECISION, x.abs());
    let (mantissa, exponent) = s.split_once('e').expect("`{:e}` always has an exponent");
    let exponent: i32 = exponent.parse().expect("`{:e}` exponent is an integer");
    let sign = if x.is_sign_negative() { '-' } else { ' ' };
    format!("{sign}{mantissa}e{}{:02}", if exponent < 0 { '-' } else { '+' }, exponent.abs())
}

fn trim_zeros_single(s: &str) -> String {
    let mut t = s.trim_end_matches('0').to_string();
    if t.ends_with('.') {
        t.push('0');
    }
    t
}

/// `FloatArrayFormatter` with `display.precision` 6: fixed notation with the trailing zeros every value shares
/// trimmed, or scientific when a value would print as zero or large values make the column too wide.
fn format_float_column(values: &[Option<f64>]) -> Vec<String> {
    let with = |format: fn(f64) -> String| trim_zeros(values.iter().map(|v| v.map(format).unwrap_or_else(|| "NaN".into())).collect());
    let formatted = with(fixed);
    let too_long = formatted.iter().map(|s| width(s)).max().unwrap_or(0) > PRECISION + 6;
    let has_large = values.iter().flatten().any(|v| v.abs() > 1e6);
    let has_small = values.iter().flatten().any(|v| v.abs() < 1e-6 && v.abs() > 0.0);
    if has_small || (too_long && has_large) {
        with(scientific)
    } else {
        formatted
    }
}

/// `_trim_zeros_float`: trims trailing zeros equally from every number with a decimal point, keeping one.
fn trim_zeros(mut strings: Vec<String>) -> Vec<String> {
    let is_number = |s: &str| {
        let t = s.trim_start();
        let t = t.strip_prefix(['+', '-']).unwrap_or(t);
        match t.split_once('.') {
            Some((int, frac)) => !int.is_empty() && int.bytes().all(|b| b.is_ascii_digit()) && frac.bytes().all(|b| b.is_ascii_digit()),
            None => false,
        }
    };
    let numbers: Vec<bool> = strings.iter().map(|s| is_number(s)).collect();
    if !numbers.contains(&true) {
        return strings;
    }
    while strings.iter().zip(&numbers).filter(|(_, &n)| n).all(|(s, _)| s.ends_with('0')) {
        for (s, _) in strings.iter_mut().zip(&numbers).filter(|(_, &n)| n) {
            s.pop();
        }
    }
    for (s, _) in strings.iter_mut().zip(&numbers).filter(|(_, &n)| n) {
        if s.ends_with('.') {
            s.push('0');
        }
    }
    strings
}

/// Python's `len`: code points (pandas' default `display.unicode.east_asian_width` is off).
fn width(s: &str) -> usize {
    s.chars().count()
}

fn rjust(s: &str, w: usize) -> String {
    format!("{}{s}", " ".repeat(w.saturating_sub(width(s))))
}

/// `_make_fixed_width(strings, "right", minimum)`: cut to `display.max_colwidth` with `...`, right-justify.
fn fixed_width(strings: Vec<String>, minimum: Option<usize>) -> (Vec<String>, usize) {
    let longest = strings.iter().map(|s| width(s)).max().unwrap_or(0);
    let max_len = longest.max(minimum.unwrap_or(0)).min(MAX_COLWIDTH);
    let keep = max_len.saturating_sub(3);
    let cut: Vec<String> = strings
        .into_iter()
        .map(|s| if width(&s) > max_len { s.chars().take(keep).chain("...".chars().take(max_len - keep)).collect() } else { s })
        .collect();
    (cut.iter().map(|s| rjust(s, max_len)).collect(), max_len)
}

/// `adjoin(1, *strcols)`: every column but the last padded on the right to its width plus one.
fn adjoin(strcols: &[Vec<String>]) -> String {
    let widths: Vec<usize> = strcols.iter().map(|c| c.iter().map(|s| width(s)).max().unwrap_or(0)).collect();
    let last = strcols.len() - 1;
    (0..strcols[0].len())
        .map(|row| {
            strcols
                .iter()
                .enumerate()
                .map(|(c, col)| {
                    let w = if c == last { widths[c] } else { widths[c] + 1 };
                    format!("{}{}", col[row], " ".repeat(w - width(&col[row])))
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn show(rows: Value) -> Result<String> {
        dataframe_str("content", rows.as_array().unwrap())
    }

    /// Printouts of pandas 3.1.1 (and 2.2.3), `str(pd.DataFrame(columns=rows[0], data=rows[1:]))`.
    #[test]
    fn prints_as_pandas() {
        let cases = [
            (json!([["a", "b"], [1, 2], [3, 4]]), "   a  b\n0  1  2\n1  3  4"),
            (json!([["a", "b"], [1, null], [3, 4]]), "   a    b\n0  1  NaN\n1  3  4.0"),
            (json!([["a", "b"], [1.5, 2], [3, 4.25]]), "     a     b\n0  1.5  2.00\n1  3.0  4.25"),
            (json!([["a", "b"], [true, false], [false, true]]), "       a      b\n0   True  False\n1  False   True"),
            (json!([["a", "b"], [true, null], [false, true]]), "       a     b\n0   True  None\n1  False  True"),
            (json!([["a", "b"], [null, null], [null, null]]), "      a     b\n0  None  None\n1  None  None"),
            (json!([["a", "b"], ["x", 1], [2.5, true]]), "     a     b\n0    x     1\n1  2.5  True"),
            (json!([["a", "b"]]), "Empty DataFrame\nColumns: [a, b]\nIndex: []"),
            (json!([[1, 2], ["x", 1]]), "   1  2\n0  x  1"),
            (json!([["a", "b"], [1e-7, 1e7], [1.0, 2.0]]), "              a           b\n0  1.000000e-07  10000000.0\n1  1.000000e+00         2.0"),
            (json!([["a", "b"], [123456789.123, 1.0], [2.0, 3.0]]), "              a    b\n0  1.234568e+08  1.0\n1  2.000000e+00  3.0"),
            (json!([["a", "b"], [9223372036854775808u64, 1], [1, 2]]), "                     a  b\n0  9223372036854775808  1\n1                    1  2"),
            (json!([["é", "日本"], ["ü", "語"], ["x", "y"]]), "   é 日本\n0  ü  語\n1  x  y"),
        ];
        for (rows, want) in cases {
            assert_eq!(show(rows.clone()).unwrap(), want, "{rows}");
        }
        let long = json!([["a", "b"], ["x\ty", 1], ["a".repeat(60), 2]]);
        assert_eq!(
            show(long).unwrap(),
            format!("{}a  b\n0{}x\\ty  1\n1  {}...  2", " ".repeat(51), " ".repeat(47), "a".repeat(46))
        );
    }

    #[test]
    fn refuses_what_pandas_prints_by_version_or_terminal() {
        for rows in [
            json!([["a", "b"], ["x", null], ["y", "z"]]),
            json!([["a", "b"], [[1, 2], {"k": "v"}], ["s", 2]]),
            json!([["a", "b", "c"], ["x".repeat(30), "y".repeat(30), "z".repeat(30)]]),
            json!([(0..21).collect::<Vec<_>>()]),
        ] {
            assert_eq!(show(rows.clone()).unwrap_err().code, crate::error::ErrorCode::Unsupported, "{rows}");
        }
        let e = show(json!([["a", "b"], [1, "x"], [2]])).unwrap_err();
        assert_eq!(e.message, "content[2]: has 1 cells, the header 2");
        assert!(show(json!([])).unwrap_err().message.starts_with("content"));
    }
}
