//! The report's CSV files: tidy results (`sampler,dim,n,rep,seed,metric,value`) and timings.
//!
//! Floats are written by [`crate::format::exact`] (shortest round-trip: `0.1`, `1e-7`, `NaN`,
//! `inf`), so a file read back gives the same bits and a rerun gives the same bytes.

use crate::format::exact as float;
use std::io::{self, Write};

/// One value of one metric of one realisation.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultRow {
    /// The sampler.
    pub sampler: String,
    /// The dimension.
    pub dim: usize,
    /// The number of points of the realisation.
    pub n: usize,
    /// The realisation, from 0.
    pub rep: usize,
    /// The seed the realisation was sampled with.
    pub seed: u64,
    /// The metric.
    pub metric: String,
    /// Its value.
    pub value: f64,
}

/// One timed sampling run.
#[derive(Debug, Clone, PartialEq)]
pub struct TimingRow {
    /// Which experiment: `comparison`, `scaling`, `variable-density`, `regions` or
    /// `chunked`.
    pub experiment: &'static str,
    /// The sampler.
    pub sampler: String,
    /// The dimension.
    pub dim: usize,
    /// The number of points produced.
    pub n: usize,
    /// The run, from 0.
    pub rep: usize,
    /// The seed.
    pub seed: u64,
    /// Wall-clock time of the sampling call alone, in seconds.
    pub seconds: f64,
}

/// The header of `results.csv`.
pub const RESULTS_HEADER: &str = "sampler,dim,n,rep,seed,metric,value";

/// The header of `timings.csv`.
pub const TIMINGS_HEADER: &str = "experiment,sampler,dim,n,rep,seed,seconds";

/// Writes `rows` in the given order under [`RESULTS_HEADER`].
pub fn write_results<W: Write>(out: W, rows: &[ResultRow]) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    writeln!(out, "{RESULTS_HEADER}")?;
    for row in rows {
        writeln!(
            out,
            "{},{},{},{},{},{},{}",
            field(&row.sampler),
            row.dim,
            row.n,
            row.rep,
            row.seed,
            field(&row.metric),
            float(row.value)
        )?;
    }
    out.flush()
}

/// Writes `rows` in the given order under [`TIMINGS_HEADER`].
pub fn write_timings<W: Write>(out: W, rows: &[TimingRow]) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    writeln!(out, "{TIMINGS_HEADER}")?;
    for row in rows {
        writeln!(
            out,
            "{},{},{},{},{},{},{}",
            row.experiment,
            field(&row.sampler),
            row.dim,
            row.n,
            row.rep,
            row.seed,
            float(row.seconds)
        )?;
    }
    out.flush()
}

/// A CSV document: `header`, then `rows` (text fields quoted only when they must be), each
/// line ended by `\n`. Used for the data files of the figures.
pub fn table_text(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut text = header.iter().map(|h| field(h)).collect::<Vec<_>>().join(",");
    text.push('\n');
    for row in rows {
        text.push_str(&row.iter().map(|cell| field(cell)).collect::<Vec<_>>().join(","));
        text.push('\n');
    }
    text
}

/// A text field, quoted (RFC 4180) only when it must be.
fn field(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_tidy_and_floats_round_trip() {
        let row = |metric: &str, value: f64| ResultRow {
            sampler: "bridson".into(),
            dim: 2,
            n: 10,
            rep: 1,
            seed: 42,
            metric: metric.into(),
            value,
        };
        let rows = [row("a", 0.1 + 0.2), row("b,c", 1e-7), row("d", f64::NAN), row("e", 3.0)];
        let mut out = Vec::new();
        write_results(&mut out, &rows).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "sampler,dim,n,rep,seed,metric,value\n\
             bridson,2,10,1,42,a,0.30000000000000004\n\
             bridson,2,10,1,42,\"b,c\",1e-7\n\
             bridson,2,10,1,42,d,NaN\n\
             bridson,2,10,1,42,e,3.0\n"
        );
        assert_eq!("0.30000000000000004".parse::<f64>().unwrap(), 0.1 + 0.2);
    }

    #[test]
    fn tables_quote_only_what_they_must() {
        let rows = vec![vec!["a,b".to_string(), float(0.5)], vec!["c".to_string(), float(1e-9)]];
        assert_eq!(table_text(&["name", "value"], &rows), "name,value\n\"a,b\",0.5\nc,1e-9\n");
    }

    #[test]
    fn timings_have_their_own_header() {
        let mut out = Vec::new();
        let row = TimingRow {
            experiment: "scaling",
            sampler: "white-noise".into(),
            dim: 2,
            n: 100,
            rep: 0,
            seed: 7,
            seconds: 0.5,
        };
        write_timings(&mut out, &[row]).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("{TIMINGS_HEADER}\nscaling,white-noise,2,100,0,7,0.5\n")
        );
    }
}
