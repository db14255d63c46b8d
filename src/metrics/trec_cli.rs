//! trec_eval's command line (`trec_eval [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-m measure[.params]]... QRELS RUN`),
//! shared by the native `rerankit-eval` binary and the Node `rerankit eval` command.

use super::evaluation::{evaluate, EvalOptions, QueryScope};
use super::formats::trec_eval_output::format_trec_eval;
use super::inputs::intent_qrels::IntentQrels;
use super::inputs::qrels::Qrels;
use super::inputs::run::{DuplicatePolicy, Run};
use super::measures::metric::Metric;
use super::names::dialect::MeasureRequest;
use super::names::trec_eval::{is_trec_family, ALL_TREC, OFFICIAL, SET};
use crate::error::{Error, Result};

/// Parsed command-line options.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrecEvalArgs {
    /// `-q`: per-query lines too.
    pub per_query: bool,
    /// `-n`: no summary lines.
    pub no_summary: bool,
    /// `-m` values in order (empty: `official`).
    pub measures: Vec<String>,
    pub options: EvalOptions,
    /// Keep the first of duplicate documents instead of failing (not a trec_eval option: `--keep-first-duplicate`).
    pub keep_first_duplicate: bool,
    /// The two file operands: qrels, run.
    pub files: Vec<String>,
    /// `--intents FILE`: intent-aware qrels (`qid subtopic docno grade`) for alpha-nDCG, ERR-IA and the other
    /// ndeval measures (not a trec_eval option; [`IntentQrels`]).
    pub intents: Option<String>,
}

/// trec_eval's usage line.
pub const USAGE: &str =
    "Usage: rerankit eval [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [--intents FILE] {-m measure[.params]}* QRELS RUN";

fn number<T: std::str::FromStr>(option: &str, text: &str) -> Result<T> {
    text.trim().parse().map_err(|_| Error::invalid(option, format!("expected an integer, got '{text}'")))
}

impl TrecEvalArgs {
    /// Parses arguments (without the program name), getopt style: `-l2` and `-l 2`, `-qc`, long forms.
    pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<TrecEvalArgs> {
        let mut parsed = TrecEvalArgs::default();
        let mut i = 0;
        let args: Vec<&str> = args.iter().map(|a| a.as_ref()).collect();
        while i < args.len() {
            let arg = args[i];
            i += 1;
            if let Some(long) = arg.strip_prefix("--") {
                let (name, inline) = match long.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (long, None),
                };
                let short = match name {
                    "query_eval_wanted" => 'q',
                    "complete_rel_info_wanted" => 'c',
                    "nosummary" => 'n',
                    "Judged_docs_only" => 'J',
                    "measure" => 'm',
                    "level_for_rel" => 'l',
                    "Max_retrieved_per_topic" => 'M',
                    "Number_docs_in_coll" => 'N',
                    "keep-first-duplicate" => {
                        parsed.keep_first_duplicate = true;
                        continue;
                    }
                    "trec-eval-9-rounding" => {
                        parsed.options.recall_rounding = super::measures::interpolated_precision::RecallRounding::TrecEval9;
                        continue;
                    }
                    "input-order" => {
                        parsed.options.ranking.ties = super::evaluation::ranking::TiePolicy::Input;
                        continue;
                    }
                    "intents" => {
                        let file = match inline {
                            Some(v) => v,
                            None if i < args.len() => {
                                i += 1;
                                args[i - 1].to_string()
                            }
                            None => return Err(Error::invalid("arguments", "option '--intents' needs a file")),
                        };
                        parsed.intents = Some(file);
                        continue;
                    }
                    _ => return Err(Error::invalid("arguments", format!("unknown option '--{name}'\n{USAGE}"))),
                };
                let value = if "mlMN".contains(short) {
                    match inline {
                        Some(v) => Some(v),
                        None if i < args.len() => {
                            i += 1;
                            Some(args[i - 1].to_string())
                        }
                        None => return Err(Error::invalid("arguments", format!("option '--{name}' needs a value"))),
                    }
                } else {
                    None
                };
                parsed.apply(short, value.as_deref())?;
                continue;
            }
            if arg.len() > 1 && arg.starts_with('-') {
                let mut chars = arg[1..].char_indices();
                while let Some((at, flag)) = chars.next() {
                    if "mlMNDRTZ".contains(flag) {
                        let rest = &arg[1 + at + flag.len_utf8()..];
                        let value = if !rest.is_empty() {
                            rest.to_string()
                        } else if i < args.len() {
                            i += 1;
                            args[i - 1].to_string()
                        } else {
                            return Err(Error::invalid("arguments", format!("option '-{flag}' needs a value\n{USAGE}")));
                        };
                        parsed.apply(flag, Some(&value))?;
                        break;
                    }
                    parsed.apply(flag, None)?;
                }
                continue;
            }
            parsed.files.push(arg.to_string());
        }
        if parsed.files.len() != 2 {
            return Err(Error::invalid("arguments", format!("expected QRELS and RUN files\n{USAGE}")));
        }
        Ok(parsed)
    }

    fn apply(&mut self, flag: char, value: Option<&str>) -> Result<()> {
        match (flag, value) {
            ('q', None) => self.per_query = true,
            ('c', None) => self.options.scope = QueryScope::AllQrels,
            ('n', None) => self.no_summary = true,
            ('J', None) => self.options.ranking.judged_only = true,
            ('m', Some(v)) => self.measures.push(v.to_string()),
            ('l', Some(v)) => self.options.ranking.relevance_level = number("-l", v)?,
            ('M', Some(v)) => {
                let max: i64 = number("-M", v)?;
                self.options.ranking.max_results = Some(max.max(0) as usize);
            }
            ('N', Some(v)) => self.options.collection_size = number("-N", v)?,
            ('D' | 'R' | 'T' | 'Z' | 'o' | 'h' | 'v', _) => {
                return Err(Error::unsupported(format!("trec_eval option '-{flag}' is not supported by rerankit")))
            }
            _ => return Err(Error::invalid("arguments", format!("unknown option '-{flag}'\n{USAGE}"))),
        }
        Ok(())
    }

    /// The measures asked for with `-m`, or `official`, as trec_eval marks them: a family named by a
    /// nickname or by itself is computed once, with the parameters of the first `-m family.params` given
    /// (so `-m all_trec -m relstring.20` gives `relstring_20` only).
    pub fn measure_requests(&self) -> Result<Vec<MeasureRequest>> {
        let names: Vec<&str> =
            if self.measures.is_empty() { OFFICIAL.to_vec() } else { self.measures.iter().map(|s| s.as_str()).collect() };
        // Family → its parameter text, in first-mention order.
        let mut families: Vec<(String, Option<String>)> = Vec::new();
        let mut extra: Vec<Metric> = Vec::new();
        for name in names {
            let (family, params) = match name.split_once('.') {
                Some((f, p)) => (f, Some(p.to_string())),
                None => (name, None),
            };
            let members: Vec<&str> = match family {
                "official" => OFFICIAL.to_vec(),
                "all_trec" => ALL_TREC.to_vec(),
                "set" => SET.to_vec(),
                _ => vec![],
            };
            if !members.is_empty() {
                for member in members {
                    if !families.iter().any(|(f, _)| f == member) {
                        families.push((member.to_string(), None));
                    }
                }
                continue;
            }
            if is_trec_family(family) {
                match families.iter_mut().find(|(f, _)| f == family) {
                    Some((_, existing)) => {
                        if existing.is_none() {
                            *existing = params;
                        }
                    }
                    None => families.push((family.to_string(), params)),
                }
            } else {
                // Other spellings (`P_5`, `ndcg@10`): taken as they are.
                for metric in Metric::parse_all(name)? {
                    if !extra.contains(&metric) {
                        extra.push(metric);
                    }
                }
            }
        }
        let mut requests: Vec<MeasureRequest> = Vec::new();
        for (family, params) in families {
            let name = match params {
                Some(p) => format!("{family}.{p}"),
                None => family,
            };
            for metric in Metric::parse_all(&name)? {
                requests.push(MeasureRequest { key: metric.name(), metric });
            }
        }
        for metric in extra {
            if !requests.iter().any(|r| r.metric == metric) {
                requests.push(MeasureRequest { key: metric.name(), metric });
            }
        }
        Ok(requests)
    }
}

/// Runs trec_eval on the texts of the two files (and of the `--intents` file, when given): the report, exactly
/// as trec_eval prints it.
pub fn run_trec_eval(args: &TrecEvalArgs, qrels_text: &str, run_text: &str, intents_text: Option<&str>) -> Result<String> {
    let qrels = Qrels::parse(qrels_text)?;
    let qrels = match intents_text {
        Some(text) => qrels.with_intents(IntentQrels::parse(text).map_err(|e| e.at("intents"))?),
        None if args.intents.is_some() => return Err(Error::invalid("intents", "the --intents file was not read")),
        None => qrels,
    };
    let run = Run::parse(run_text, DuplicatePolicy::keeping_first(args.keep_first_duplicate))?;
    let evaluation = evaluate(&qrels, &run, &args.measure_requests()?, &args.options)?;
    if evaluation.per_query.is_empty() {
        return Err(Error::invalid("run", "no queries with both results and relevance info"));
    }
    let report = format_trec_eval(&evaluation, args.per_query);
    if args.no_summary {
        let per_query_only: String =
            report.lines().filter(|l| l.split('\t').nth(1) != Some("all")).map(|l| format!("{l}\n")).collect();
        return Ok(per_query_only);
    }
    Ok(report)
}
