//! The checker's output: a table with a mark and a reason per check, the transcript of each
//! failure and warning, and the final count; or one JSON document for scripts.

use super::{CheckResult, Group, Report, Status};
use std::io::{self, Write};

/// Width of the name column.
const NAME_WIDTH: usize = 24;

/// One table row, after a group heading when `r` starts a new group (`prev` is the group of
/// the row before, if any).
pub fn write_table_row(
    out: &mut impl Write,
    r: &CheckResult,
    prev: Option<Group>,
) -> io::Result<()> {
    if prev != Some(r.group) {
        writeln!(out, "{}", r.group)?;
    }
    writeln!(
        out,
        "  {} {:<NAME_WIDTH$} {}",
        r.status.symbol(),
        r.name,
        r.reason
    )
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
    writeln!(
        out,
        "{} checks of {who} in {:.1} s",
        report.results.len(),
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
    let mut prev = None;
    for r in &report.results {
        write_table_row(out, r, prev)?;
        prev = Some(r.group);
    }
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
