//! The move-generator debugger's output: one line per position as it is compared, then for
//! each difference the position (its `position` command, SFEN and diagram) with the missing and
//! excess moves and their rules, and the final count; or one JSON document.

use crate::check::movegen::{Finding, MovegenReport, Outcome, PositionResult};
use crate::json::json_string;
use std::io::{self, Write};

/// Width of the position-name column.
const ID_WIDTH: usize = 24;

/// The line for one position.
pub fn write_position_row(out: &mut impl Write, r: &PositionResult) -> io::Result<()> {
    let theirs = r
        .theirs
        .map_or("no total".to_string(), |n| format!("engine {n}"));
    let (mark, text) = match &r.outcome {
        Outcome::Agree => ("✔", format!("perft {} = {}", r.depth, r.ours)),
        Outcome::Differ(f) => (
            "✘",
            format!(
                "perft {}: Saikoro {}, {theirs}; {}",
                r.depth,
                r.ours,
                summary(f)
            ),
        ),
        Outcome::NotCompared(why) => ("-", format!("perft {}: not compared: {why}", r.depth)),
    };
    writeln!(out, "  {mark} {:<ID_WIDTH$} {text}", r.id)
}

/// `after 7g7f 3c3d (perft 1): 2 missing, 1 excess`.
fn summary(f: &Finding) -> String {
    let at = if f.path.is_empty() {
        "here".to_string()
    } else {
        let moves: Vec<String> = f.path.iter().map(|m| m.to_string()).collect();
        format!("after {}", moves.join(" "))
    };
    let mut parts = Vec::new();
    if !f.missing.is_empty() {
        parts.push(format!("{} missing", f.missing.len()));
    }
    if !f.excess.is_empty() {
        parts.push(format!("{} excess", f.excess.len()));
    }
    if !f.miscounts.is_empty() {
        parts.push("miscounted".to_string());
    }
    format!("{at} (perft {}): {}", f.depth, parts.join(", "))
}

/// The details of every difference, and the final lines.
pub fn write_movegen_details(out: &mut impl Write, report: &MovegenReport) -> io::Result<()> {
    for r in &report.results {
        let Outcome::Differ(f) = &r.outcome else {
            continue;
        };
        writeln!(out)?;
        writeln!(out, "✘ {}: {}", r.id, summary(f))?;
        writeln!(out, "    {}", f.command)?;
        if f.command != format!("position sfen {}", f.sfen) {
            writeln!(out, "    sfen {}", f.sfen)?;
        }
        for l in f.diagram.lines() {
            writeln!(out, "    {l}")?;
        }
        if !f.missing.is_empty() {
            writeln!(out, "    missing (legal, not listed by the engine):")?;
            for n in &f.missing {
                writeln!(out, "      {:<7} {}", n.text, n.rule)?;
            }
        }
        if !f.excess.is_empty() {
            writeln!(out, "    excess (listed by the engine, not legal):")?;
            for n in &f.excess {
                writeln!(out, "      {:<7} {}", n.text, n.rule)?;
            }
        }
        for m in &f.miscounts {
            writeln!(out, "    miscount: {m}")?;
        }
    }
    writeln!(out)?;
    if let Some(why) = &report.no_perft {
        writeln!(out, "not compared: {why}")?;
    }
    let (agree, differ, not) = report.counts();
    let who = report.name.clone().unwrap_or_else(|| report.engine.clone());
    let n = report.positions.max(report.results.len());
    writeln!(
        out,
        "{n} position{} of {who} in {:.1} s: {agree} agree, {differ} differ, {not} not compared",
        if n == 1 { "" } else { "s" },
        report.elapsed.as_secs_f64()
    )
}

fn json(s: &str) -> String {
    let mut out = String::new();
    json_string(&mut out, s);
    out
}

fn json_notes(notes: &[crate::check::movegen::MoveNote]) -> String {
    let items: Vec<String> = notes
        .iter()
        .map(|n| {
            format!(
                "{{\"move\": {}, \"rule\": {}}}",
                json(&n.text),
                json(&n.rule)
            )
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// The report as one JSON object: the engine, `no_perft` (why nothing was compared, or null),
/// each position (`id`, `position`, `depth`, `saikoro`, `engine`, `status` = `agree`/`differ`/
/// `not-compared`, and for a difference `path`, `at` (its `position` command), `sfen`,
/// `missing` and `excess` (`move`, `rule`), `miscounts`), and the counts.
pub fn write_movegen_json(out: &mut impl Write, report: &MovegenReport) -> io::Result<()> {
    writeln!(out, "{{")?;
    writeln!(out, "  \"engine\": {},", json(&report.engine))?;
    let opt = |s: &Option<String>| s.as_deref().map_or("null".to_string(), json);
    writeln!(out, "  \"id_name\": {},", opt(&report.name))?;
    writeln!(out, "  \"no_perft\": {},", opt(&report.no_perft))?;
    writeln!(out, "  \"positions\": [")?;
    for (i, r) in report.results.iter().enumerate() {
        let (status, extra) = match &r.outcome {
            Outcome::Agree => ("agree", String::new()),
            Outcome::NotCompared(why) => ("not-compared", format!(", \"reason\": {}", json(why))),
            Outcome::Differ(f) => {
                let path: Vec<String> = f.path.iter().map(|m| json(&m.to_string())).collect();
                let miscounts: Vec<String> = f.miscounts.iter().map(|m| json(m)).collect();
                (
                    "differ",
                    format!(
                        ", \"path\": [{}], \"at\": {}, \"sfen\": {}, \"at_depth\": {}, \"missing\": {}, \"excess\": {}, \"miscounts\": [{}]",
                        path.join(", "),
                        json(&f.command),
                        json(&f.sfen),
                        f.depth,
                        json_notes(&f.missing),
                        json_notes(&f.excess),
                        miscounts.join(", ")
                    ),
                )
            }
        };
        writeln!(
            out,
            "    {{\"id\": {}, \"position\": {}, \"depth\": {}, \"saikoro\": {}, \"engine\": {}, \"status\": \"{status}\"{extra}}}{}",
            json(&r.id),
            json(&r.command),
            r.depth,
            r.ours,
            r.theirs.map_or("null".to_string(), |n| n.to_string()),
            if i + 1 < report.results.len() { "," } else { "" }
        )?;
    }
    writeln!(out, "  ],")?;
    let (agree, differ, not) = report.counts();
    writeln!(out, "  \"agree\": {agree},")?;
    writeln!(out, "  \"differ\": {differ},")?;
    writeln!(out, "  \"not_compared\": {not},")?;
    writeln!(out, "  \"seconds\": {:.3}", report.elapsed.as_secs_f64())?;
    writeln!(out, "}}")
}
