//! `rerankit-eval`: trec_eval's command line on the native build (`rerankit-eval [-q] [-c] [-l N] [-M N]
//! [-m MEASURE]... QRELS RUN`), printing exactly what trec_eval prints.
//!
//! `--timings` (first argument) also prints, to stderr, one JSON line of timings for the benchmark: reading the
//! files, parsing, evaluating, and the in-memory path (building qrels and run from `(qid, docno, value)` triples
//! already in memory, then evaluating).

use std::io::{Read, Write};
use std::time::Instant;

use rerankit::metrics::IntentQrels;
use rerankit::metrics::trec_cli::TrecEvalArgs;
use rerankit::metrics::{evaluate, format_trec_eval, DuplicatePolicy, Qrels, Run};

fn fail(message: &str) -> ! {
    eprintln!("rerankit-eval: {message}");
    std::process::exit(1);
}

fn read(path: &str) -> String {
    let mut bytes = Vec::new();
    if path == "-" {
        std::io::stdin().read_to_end(&mut bytes).unwrap_or_else(|e| fail(&format!("stdin: {e}")));
    } else {
        bytes = std::fs::read(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    }
    match rerankit::metrics::formats::trec_text::utf8_text(path, &bytes) {
        Ok(text) => text.to_string(),
        Err(e) => fail(&e.to_string()),
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let timings = args.first().map(|a| a == "--timings").unwrap_or(false);
    if timings {
        args.remove(0);
    }
    let parsed = TrecEvalArgs::parse(&args).unwrap_or_else(|e| fail(&e.to_string()));
    let requests = parsed.measure_requests().unwrap_or_else(|e| fail(&e.to_string()));
    let duplicates = DuplicatePolicy::keeping_first(parsed.keep_first_duplicate);

    let t0 = Instant::now();
    let qrels_text = read(&parsed.files[0]);
    let run_text = read(&parsed.files[1]);
    let t_read = t0.elapsed();
    let t1 = Instant::now();
    let qrels = Qrels::parse(&qrels_text).unwrap_or_else(|e| fail(&e.to_string()));
    let qrels = match &parsed.intents {
        Some(path) => qrels.with_intents(IntentQrels::parse(&read(path)).unwrap_or_else(|e| fail(&format!("{path}: {e}")))),
        None => qrels,
    };
    let run = Run::parse(&run_text, duplicates).unwrap_or_else(|e| fail(&e.to_string()));
    let t_parse = t1.elapsed();
    let t2 = Instant::now();
    let evaluation = evaluate(&qrels, &run, &requests, &parsed.options).unwrap_or_else(|e| fail(&e.to_string()));
    let t_evaluate = t2.elapsed();
    if evaluation.per_query.is_empty() {
        fail("no queries with both results and relevance info");
    }
    let report = format_trec_eval(&evaluation, parsed.per_query);
    let total = t0.elapsed();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if !parsed.no_summary {
        let _ = out.write_all(report.as_bytes());
    } else {
        for line in report.lines().filter(|l| l.split('\t').nth(1) != Some("all")) {
            let _ = writeln!(out, "{line}");
        }
    }
    if timings {
        // In memory: the same data as owned triples (as a caller holding dicts would have), then build + evaluate.
        let qrels_triples: Vec<(String, String, i64)> = qrels
            .queries()
            .iter()
            .flat_map(|q| q.judgements.iter().map(|j| (q.qid.clone(), qrels.docno(j).to_string(), j.grade)))
            .collect();
        let run_triples: Vec<(String, String, f64)> = run
            .queries()
            .iter()
            .flat_map(|q| q.entries.iter().map(|e| (q.qid.clone(), run.docno(e).to_string(), e.score)))
            .collect();
        let t3 = Instant::now();
        let q2 = Qrels::from_triples(qrels_triples.iter().map(|(q, d, g)| (q.as_str(), d.as_str(), *g))).unwrap();
        let r2 = Run::from_triples(run_triples.iter().map(|(q, d, s)| (q.as_str(), d.as_str(), *s)), duplicates).unwrap();
        let e2 = evaluate(&q2, &r2, &requests, &parsed.options).unwrap();
        let t_memory = t3.elapsed();
        assert_eq!(e2.aggregate, evaluation.aggregate);
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
        eprintln!(
            "{{\"read_ms\":{:.3},\"parse_ms\":{:.3},\"evaluate_ms\":{:.3},\"end_to_end_ms\":{:.3},\"in_memory_ms\":{:.3},\"queries\":{},\"entries\":{}}}",
            ms(t_read),
            ms(t_parse),
            ms(t_evaluate),
            ms(total),
            ms(t_memory),
            evaluation.per_query.len(),
            run.len()
        );
    }
}
