//! The checker's output: a table with a mark and a reason per check, the transcript of each
//! failure and warning, and the final count; or one JSON document for scripts.

use super::{CheckResult, Group, Report, Status};
use serde::{Deserialize, Serialize};
use std::io::{self, Write};
use std::time::Duration;

/// Width of the name column.
const NAME_WIDTH: usize = 24;

/// The table, written row by row as the results come: a group heading before the first check
/// of each group, one line per check, and one line for a run of checks not run for the same
/// reason (an engine that cannot start costs one line, not one per check).
#[derive(Debug, Default)]
pub struct Table {
    /// The group of the last heading written.
    group: Option<Group>,
    /// Checks not run for the same reason, not yet written.
    not_run: Vec<CheckResult>,
}

impl Table {
    /// An empty table.
    pub fn new() -> Table {
        Table::default()
    }

    /// Takes one result; writes what can be written.
    pub fn row(&mut self, out: &mut impl Write, r: &CheckResult) -> io::Result<()> {
        if r.status == Status::NotRun {
            if self.not_run.first().is_some_and(|p| p.reason != r.reason) {
                self.flush(out)?;
            }
            self.not_run.push(r.clone());
            return Ok(());
        }
        self.flush(out)?;
        self.line(out, r.group, r.status.symbol(), &r.name, &r.reason)
    }

    /// Writes what is held back: call after the last result.
    pub fn flush(&mut self, out: &mut impl Write) -> io::Result<()> {
        let held = std::mem::take(&mut self.not_run);
        match held.as_slice() {
            [] => Ok(()),
            [r] => self.line(out, r.group, r.status.symbol(), &r.name, &r.reason),
            [first, .., last] => {
                let name = format!("{} checks", held.len());
                let reason = format!("{} ({} … {})", first.reason, first.name, last.name);
                self.line(out, first.group, Status::NotRun.symbol(), &name, &reason)
            }
        }
    }

    fn line(
        &mut self,
        out: &mut impl Write,
        group: Group,
        symbol: &str,
        name: &str,
        reason: &str,
    ) -> io::Result<()> {
        if self.group != Some(group) {
            writeln!(out, "{group}")?;
            self.group = Some(group);
        }
        writeln!(out, "  {symbol} {name:<NAME_WIDTH$} {reason}")
    }
}

/// The transcript of every failure and warning, and the final lines.
pub fn write_details(out: &mut impl Write, report: &Report) -> io::Result<()> {
    for r in &report.results {
        if matches!(r.status, Status::Fail | Status::Warning) && !r.transcript.is_empty() {
            writeln!(out)?;
            writeln!(out, "{} {}: {}", r.status.symbol(), r.name, r.reason)?;
            for l in &r.transcript {
                writeln!(out, "    {l}")?;
            }
        }
    }
    writeln!(out)?;
    let who = match (&report.name, &report.author) {
        (Some(n), Some(a)) => format!("{n} by {a}"),
        (Some(n), None) => n.clone(),
        _ => report.engine.clone(),
    };
    let n = report.results.len();
    writeln!(
        out,
        "{n} check{} of {who} in {:.1} s",
        if n == 1 { "" } else { "s" },
        report.elapsed.as_secs_f64()
    )?;
    write!(
        out,
        "{} passed, {} failed, {} warning{}",
        report.count(Status::Pass),
        report.count(Status::Fail),
        report.count(Status::Warning),
        if report.count(Status::Warning) == 1 {
            ""
        } else {
            "s"
        }
    )?;
    match report.count(Status::NotRun) {
        0 => writeln!(out),
        n => writeln!(out, ", {n} not run"),
    }
}

/// The whole report as a table.
pub fn write_table(out: &mut impl Write, report: &Report) -> io::Result<()> {
    let mut table = Table::new();
    for r in &report.results {
        table.row(out, r)?;
    }
    table.flush(out)?;
    write_details(out, report)
}

/// `saikoro check --json`: the report as one JSON object (docs/check.md), written by
/// [`write_json`] and read back with the same type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonReport {
    /// The engine's command line.
    pub engine: String,
    /// Its `id name`, or null.
    pub id_name: Option<String>,
    /// Its `id author`, or null.
    pub id_author: Option<String>,
    /// Every check, in the order run.
    pub checks: Vec<JsonCheck>,
    /// How many passed.
    pub passed: usize,
    /// How many failed.
    pub failed: usize,
    /// How many ended with a warning.
    pub warnings: usize,
    /// How many were not run.
    pub not_run: usize,
    /// How long the run took.
    pub seconds: f64,
}

/// One check of a [`JsonReport`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonCheck {
    /// The check's name.
    pub name: String,
    /// Its group, as the table heads it (`start-up`, `game flow`, …).
    pub group: String,
    /// `pass`, `warning`, `fail` or `not-run`.
    pub status: Status,
    /// Why, in one line.
    pub reason: String,
    /// The lines that show it.
    pub transcript: Vec<String>,
    /// How long it took, in milliseconds.
    pub ms: u64,
}

impl JsonReport {
    /// The JSON object of `report`.
    pub fn new(report: &Report) -> JsonReport {
        let checks = report
            .results
            .iter()
            .map(|r| JsonCheck {
                name: r.name.clone(),
                group: r.group.to_string(),
                status: r.status,
                reason: r.reason.clone(),
                transcript: r.transcript.clone(),
                ms: millis(r.elapsed),
            })
            .collect();
        JsonReport {
            engine: report.engine.clone(),
            id_name: report.name.clone(),
            id_author: report.author.clone(),
            checks,
            passed: report.count(Status::Pass),
            failed: report.count(Status::Fail),
            warnings: report.count(Status::Warning),
            not_run: report.count(Status::NotRun),
            seconds: report.elapsed.as_secs_f64(),
        }
    }
}

/// Whole milliseconds.
pub(crate) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The report as one JSON object, [`JsonReport`]: the engine, its `id` lines, every check
/// (`name`, `group`, `status` = `pass`/`warning`/`fail`/`not-run`, `reason`, `transcript`,
/// `ms`), the counts and the duration; laid out one member, one check a line.
pub fn write_json(out: &mut impl Write, report: &Report) -> io::Result<()> {
    write_laid_out(out, &JsonReport::new(report))
}

/// `value` as JSON laid out by [`Layout`], and a newline.
pub(crate) fn write_laid_out(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    let mut text = Vec::new();
    value.serialize(&mut serde_json::Serializer::with_formatter(
        &mut text,
        Layout::default(),
    ))?;
    text.push(b'\n');
    out.write_all(&text)
}

/// The layout of the checker's JSON documents (`check --json`, `check --movegen --json`): the
/// top object's members one a line, two spaces in; the items of an array among them one a
/// line, four spaces in; anything deeper on its item's line, with `", "` and `": "`; a number
/// with a fraction (the seconds) with three decimals, the milliseconds the report counts.
#[derive(Debug, Default)]
pub(crate) struct Layout {
    /// How many objects and arrays are open.
    depth: usize,
}

impl serde_json::ser::Formatter for Layout {
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        w.write_all(if self.depth == 0 { "\n}" } else { "}" }.as_bytes())
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        w.write_all(
            match (self.depth, first) {
                (1, true) => "\n  ",
                (1, false) => ",\n  ",
                (_, true) => "",
                (_, false) => ", ",
            }
            .as_bytes(),
        )
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        w.write_all(if self.depth == 1 { "\n  ]" } else { "]" }.as_bytes())
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        w.write_all(
            match (self.depth, first) {
                (2, true) => "\n    ",
                (2, false) => ",\n    ",
                (_, true) => "",
                (_, false) => ", ",
            }
            .as_bytes(),
        )
    }

    fn write_f64<W: ?Sized + Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        write!(w, "{value:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(name: &str, status: Status, transcript: &[&str], ms: u64) -> CheckResult {
        CheckResult {
            name: name.to_string(),
            group: Group::GameFlow,
            status,
            reason: format!("{name} reason"),
            transcript: transcript.iter().map(|l| l.to_string()).collect(),
            elapsed: Duration::from_millis(ms),
        }
    }

    fn json(report: &Report) -> String {
        let mut out = Vec::new();
        write_json(&mut out, report).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn json_strings_are_escaped() {
        let report = Report {
            engine: "a\"b\\c\nd\u{1}".to_string(),
            name: Some("王手".to_string()),
            author: None,
            results: Vec::new(),
            elapsed: Duration::ZERO,
        };
        let text = json(&report);
        assert!(
            text.contains("\"engine\": \"a\\\"b\\\\c\\nd\\u0001\",\n"),
            "{text}"
        );
        assert!(text.contains("\"id_name\": \"王手\",\n"), "{text}");
    }

    /// The layout, by hand from docs/check.md and the writer of before serde (one member a
    /// line, one check a line, the seconds with three decimals), and the text read back.
    #[test]
    fn json_is_laid_out_one_check_a_line_and_read_back() {
        let report = Report {
            engine: "./engine --x".to_string(),
            name: Some("E".to_string()),
            author: None,
            results: vec![
                result("usiok", Status::Pass, &[], 12),
                result(
                    "go-infinite",
                    Status::Fail,
                    &["> go infinite", "< bestmove 7g7f"],
                    500,
                ),
                result("quit", Status::NotRun, &[], 0),
            ],
            elapsed: Duration::from_millis(2500),
        };
        let text = json(&report);
        let want = r#"{
  "engine": "./engine --x",
  "id_name": "E",
  "id_author": null,
  "checks": [
    {"name": "usiok", "group": "game flow", "status": "pass", "reason": "usiok reason", "transcript": [], "ms": 12},
    {"name": "go-infinite", "group": "game flow", "status": "fail", "reason": "go-infinite reason", "transcript": ["> go infinite", "< bestmove 7g7f"], "ms": 500},
    {"name": "quit", "group": "game flow", "status": "not-run", "reason": "quit reason", "transcript": [], "ms": 0}
  ],
  "passed": 1,
  "failed": 1,
  "warnings": 0,
  "not_run": 1,
  "seconds": 2.500
}
"#;
        assert_eq!(text, want);
        let back: JsonReport = serde_json::from_str(&text).unwrap();
        assert_eq!(back, JsonReport::new(&report));
        assert_eq!(back.checks[1].status, Status::Fail);
        assert_eq!(back.seconds, 2.5);
    }

    #[test]
    fn no_checks_is_an_empty_list() {
        let report = Report {
            engine: "e".to_string(),
            name: None,
            author: None,
            results: Vec::new(),
            elapsed: Duration::from_micros(1234),
        };
        let text = json(&report);
        assert!(text.contains("  \"checks\": [\n  ],\n"), "{text}");
        assert!(text.ends_with("  \"seconds\": 0.001\n}\n"), "{text}");
        let back: JsonReport = serde_json::from_str(&text).unwrap();
        assert!(back.checks.is_empty());
    }
}
