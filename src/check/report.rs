//! The checker's output: a table with a mark and a reason per check, the transcript of each
//! failure and warning, and the final count; or one JSON document for scripts.

use super::{CheckResult, Group, Report, Status};
use std::io::{self, Write};

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
        "{} passed, {} failed, {} warnings",
        report.count(Status::Pass),
        report.count(Status::Fail),
        report.count(Status::Warning)
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

/// `s` as a JSON string.
fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    crate::json::json_string(&mut out, s);
    out
}

fn json_opt(s: &Option<String>) -> String {
    s.as_deref().map_or("null".to_string(), json_str)
}

/// The report as one JSON object: the engine, its `id` lines, every check (`name`, `group`,
/// `status` = `pass`/`warning`/`fail`/`not-run`, `reason`, `transcript`, `ms`), the counts
/// and the duration.
pub fn write_json(out: &mut impl Write, report: &Report) -> io::Result<()> {
    writeln!(out, "{{")?;
    writeln!(out, "  \"engine\": {},", json_str(&report.engine))?;
    writeln!(out, "  \"id_name\": {},", json_opt(&report.name))?;
    writeln!(out, "  \"id_author\": {},", json_opt(&report.author))?;
    writeln!(out, "  \"checks\": [")?;
    for (i, r) in report.results.iter().enumerate() {
        let transcript: Vec<String> = r.transcript.iter().map(|l| json_str(l)).collect();
        writeln!(
            out,
            "    {{\"name\": {}, \"group\": {}, \"status\": \"{}\", \"reason\": {}, \"transcript\": [{}], \"ms\": {}}}{}",
            json_str(&r.name),
            json_str(&r.group.to_string()),
            r.status.word(),
            json_str(&r.reason),
            transcript.join(", "),
            r.elapsed.as_millis(),
            if i + 1 < report.results.len() { "," } else { "" }
        )?;
    }
    writeln!(out, "  ],")?;
    writeln!(out, "  \"passed\": {},", report.count(Status::Pass))?;
    writeln!(out, "  \"failed\": {},", report.count(Status::Fail))?;
    writeln!(out, "  \"warnings\": {},", report.count(Status::Warning))?;
    writeln!(out, "  \"not_run\": {},", report.count(Status::NotRun))?;
    writeln!(out, "  \"seconds\": {:.3}", report.elapsed.as_secs_f64())?;
    writeln!(out, "}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_str("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
        assert_eq!(json_str("王手"), "\"王手\"");
    }
}
