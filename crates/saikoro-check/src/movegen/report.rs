//! The move-generator debugger's output: one line per position as it is compared, then for
//! each difference the position (its `position` command, SFEN and diagram) with the missing and
//! excess moves and their rules, and the final count; or one JSON document.

use crate::movegen::{Finding, MoveNote, MovegenReport, Outcome, PositionResult};
use crate::report::write_laid_out;
use serde::{Deserialize, Serialize};
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

/// `saikoro check --movegen --json`: the comparison as one JSON object (docs/check.md),
/// written by [`write_movegen_json`] and read back with the same type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonMovegenReport {
    /// The engine's command line.
    pub engine: String,
    /// Its `id name`, or null.
    pub id_name: Option<String>,
    /// Why nothing more was compared, or null.
    pub no_perft: Option<String>,
    /// Each position, in order.
    pub positions: Vec<JsonPosition>,
    /// How many positions agree.
    pub agree: usize,
    /// How many differ.
    pub differ: usize,
    /// How many could not be compared.
    pub not_compared: usize,
    /// How long it took.
    pub seconds: f64,
}

/// One position of a [`JsonMovegenReport`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonPosition {
    /// Its name.
    pub id: String,
    /// Its `position` command.
    pub position: String,
    /// The depth compared.
    pub depth: u32,
    /// Saikoro's perft.
    pub saikoro: u64,
    /// The engine's total, or null.
    pub engine: Option<u64>,
    /// `status` and what goes with it.
    #[serde(flatten)]
    pub outcome: JsonOutcome,
}

/// A position's `status` (`agree`, `differ`, `not-compared`) and the members that go with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum JsonOutcome {
    /// Every count agrees.
    Agree,
    /// A count differs.
    Differ {
        /// The moves descended, in USI.
        path: Vec<String>,
        /// The `position` command of the position reported.
        at: String,
        /// Its SFEN.
        sfen: String,
        /// The perft depth there.
        at_depth: u32,
        /// Legal moves the engine does not list.
        missing: Vec<JsonMoveNote>,
        /// Moves the engine lists that are not legal.
        excess: Vec<JsonMoveNote>,
        /// Counts the engine gets wrong, one sentence each.
        miscounts: Vec<String>,
    },
    /// Not compared, and why.
    NotCompared {
        /// Why.
        reason: String,
    },
}

/// A move missing or in excess, and the rule that decides it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonMoveNote {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// The rule.
    pub rule: String,
}

impl JsonMovegenReport {
    /// The JSON object of `report`.
    pub fn new(report: &MovegenReport) -> JsonMovegenReport {
        let (agree, differ, not_compared) = report.counts();
        JsonMovegenReport {
            engine: report.engine.clone(),
            id_name: report.name.clone(),
            no_perft: report.no_perft.clone(),
            positions: report.results.iter().map(JsonPosition::new).collect(),
            agree,
            differ,
            not_compared,
            seconds: report.elapsed.as_secs_f64(),
        }
    }
}

impl JsonPosition {
    fn new(r: &PositionResult) -> JsonPosition {
        let notes = |notes: &[MoveNote]| {
            notes
                .iter()
                .map(|n| JsonMoveNote {
                    mv: n.text.clone(),
                    rule: n.rule.clone(),
                })
                .collect()
        };
        let outcome = match &r.outcome {
            Outcome::Agree => JsonOutcome::Agree,
            Outcome::NotCompared(why) => JsonOutcome::NotCompared {
                reason: why.clone(),
            },
            Outcome::Differ(f) => JsonOutcome::Differ {
                path: f.path.iter().map(|m| m.to_string()).collect(),
                at: f.command.clone(),
                sfen: f.sfen.clone(),
                at_depth: f.depth,
                missing: notes(&f.missing),
                excess: notes(&f.excess),
                miscounts: f.miscounts.clone(),
            },
        };
        JsonPosition {
            id: r.id.clone(),
            position: r.command.clone(),
            depth: r.depth,
            saikoro: r.ours,
            engine: r.theirs,
            outcome,
        }
    }
}

/// The report as one JSON object, [`JsonMovegenReport`]: the engine, `no_perft` (why nothing
/// was compared, or null), each position (`id`, `position`, `depth`, `saikoro`, `engine`,
/// `status` = `agree`/`differ`/`not-compared`, and for a difference `path`, `at` (its
/// `position` command), `sfen`, `at_depth`, `missing` and `excess` (`move`, `rule`),
/// `miscounts`; for a position not compared its `reason`), and the counts; laid out as
/// `check --json` is.
pub fn write_movegen_json(out: &mut impl Write, report: &MovegenReport) -> io::Result<()> {
    write_laid_out(out, &JsonMovegenReport::new(report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::Finding;
    use saikoro_core::Move;
    use std::time::Duration;

    fn position(id: &str, theirs: Option<u64>, outcome: Outcome) -> PositionResult {
        PositionResult {
            id: id.to_string(),
            command: "position startpos".to_string(),
            depth: 2,
            ours: 900,
            theirs,
            outcome,
        }
    }

    /// Each status with its members, laid out by hand from docs/check.md and the writer of
    /// before serde (one position a line, the notes inline), and read back.
    #[test]
    fn json_has_each_status_with_its_members() {
        let finding = Finding {
            path: vec![Move::from_usi("7g7f").unwrap()],
            command: "position startpos moves 7g7f".to_string(),
            sfen: "S".to_string(),
            diagram: "D".to_string(),
            depth: 1,
            missing: vec![MoveNote {
                text: "8c8d".to_string(),
                rule: "a \"pawn\" move".to_string(),
            }],
            excess: Vec::new(),
            miscounts: vec!["m".to_string()],
        };
        let report = MovegenReport {
            engine: "e".to_string(),
            name: None,
            no_perft: None,
            engine_failed: false,
            positions: 4,
            results: vec![
                position("a", Some(900), Outcome::Agree),
                position("b", Some(899), Outcome::Differ(Box::new(finding))),
                position("c", None, Outcome::NotCompared("no perft".to_string())),
            ],
            elapsed: Duration::from_millis(250),
        };
        let mut out = Vec::new();
        write_movegen_json(&mut out, &report).unwrap();
        let text = String::from_utf8(out).unwrap();
        let want = r#"{
  "engine": "e",
  "id_name": null,
  "no_perft": null,
  "positions": [
    {"id": "a", "position": "position startpos", "depth": 2, "saikoro": 900, "engine": 900, "status": "agree"},
    {"id": "b", "position": "position startpos", "depth": 2, "saikoro": 900, "engine": 899, "status": "differ", "path": ["7g7f"], "at": "position startpos moves 7g7f", "sfen": "S", "at_depth": 1, "missing": [{"move": "8c8d", "rule": "a \"pawn\" move"}], "excess": [], "miscounts": ["m"]},
    {"id": "c", "position": "position startpos", "depth": 2, "saikoro": 900, "engine": null, "status": "not-compared", "reason": "no perft"}
  ],
  "agree": 1,
  "differ": 1,
  "not_compared": 2,
  "seconds": 0.250
}
"#;
        assert_eq!(text, want);
        let back: JsonMovegenReport = serde_json::from_str(&text).unwrap();
        assert_eq!(back, JsonMovegenReport::new(&report));
        assert_eq!(
            back.positions[2].outcome,
            JsonOutcome::NotCompared {
                reason: "no perft".to_string()
            }
        );
    }
}
