//! The move-generator debugger (`saikoro check --movegen`): compares an engine's `go perft`
//! divide (one `move: count` line per legal move, then `Nodes searched: N`, as Stockfish,
//! YaneuraOu and Saikoro print it) with Saikoro's, position by position. Where a count differs
//! it descends into the first differing move, one ply at a time, until the lists of moves
//! themselves differ (at depth 1 at the latest): that position is reported, with the moves the
//! engine is missing and those it has in excess, each with the rule that decides it. Where the
//! engine's count for a move disagrees with its own divide one ply further, the engine
//! miscounts (a bug in its perft, not in its moves), and that is reported instead.

pub(crate) mod report;

use super::move_notes::{excess_rule, missing_rule};
use super::positions::{self, PositionsError};
use saikoro_core::{divide, perft, Game, Move, Position};
use saikoro_driver::client::Stderr;
use saikoro_driver::{EngineCommand, EngineSession, EngineSpec};
use saikoro_driver::{FaultPolicy, UsiClient};
use saikoro_usi::{parse_engine_line, EngineMessage};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The default `--depth`.
pub const DEFAULT_DEPTH: u32 = 3;

/// The default `--max-nodes`: a position whose perft at the depth asked has more leaves is
/// compared at a lower depth (the engine counts them too, and the descent counts them again).
pub const DEFAULT_MAX_NODES: u64 = 2_000_000;

/// What to compare and how.
#[derive(Clone, Debug)]
pub struct MovegenConfig {
    /// The engine's command line.
    pub engine: EngineCommand,
    /// The longest wait for `usiok` and `readyok`, and the base of the wait for a perft.
    pub timeout: Duration,
    /// Options set after the start.
    pub options: Vec<(String, String)>,
    /// The perft depth at each position.
    pub depth: u32,
    /// The most leaves a position's perft may have; past it the depth is lowered.
    pub max_nodes: u64,
    /// The positions.
    pub positions: Vec<PerftPosition>,
}

/// A position to compare: a start and the moves played from it.
#[derive(Clone, Debug)]
pub struct PerftPosition {
    /// Its name: the record's id, or `line N` of a file.
    pub id: String,
    /// The start as `position` takes it: `startpos` or `sfen …`.
    start: String,
    /// The moves from the start.
    moves: Vec<Move>,
    /// The position after them.
    position: Position,
}

impl PerftPosition {
    /// A position from a start (`None`: the start position) and moves, each checked by the
    /// rules.
    pub fn new(id: &str, sfen: Option<&str>, moves: &[String]) -> Result<PerftPosition, String> {
        let start = match sfen {
            None => Position::startpos(),
            Some(s) => Position::from_sfen(s).map_err(|e| format!("bad sfen: {e}"))?,
        };
        let mut game = Game::new(start);
        let mut played = Vec::new();
        for (i, text) in moves.iter().enumerate() {
            let m = Move::from_usi(text).map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
            game.try_play(m)
                .map_err(|e| format!("move {} ({m}) is illegal: {e}", i + 1))?;
            played.push(m);
        }
        Ok(PerftPosition {
            id: id.to_string(),
            start: match sfen {
                None => "startpos".to_string(),
                Some(s) => format!("sfen {s}"),
            },
            moves: played,
            position: game.position().clone(),
        })
    }

    /// The `position` command for the position after `path` more moves.
    pub fn command(&self, path: &[Move]) -> String {
        let mut s = format!("position {}", self.start);
        if !self.moves.is_empty() || !path.is_empty() {
            s.push_str(" moves");
            for m in self.moves.iter().chain(path) {
                s.push(' ');
                s.push_str(&m.to_string());
            }
        }
        s
    }

    /// The position, then `path` played.
    fn after(&self, path: &[Move]) -> Position {
        path.iter().fold(self.position.clone(), |p, &m| p.play(m))
    }
}

/// The built-in positions: the published perft positions (`saikoro_core::published_perft`),
/// then the rules positions of `positions/check.txt`.
pub fn builtin_positions() -> Vec<PerftPosition> {
    let mut out = Vec::new();
    for case in saikoro_core::published_perft() {
        out.push(
            PerftPosition::new(case.id, Some(case.sfen), &[])
                .expect("the published perft positions are valid (saikoro-core's tests read them)"),
        );
    }
    for p in positions::all().into_iter().filter(|p| p.check == "rules") {
        out.push(
            PerftPosition::new(&format!("rules-{}", p.id), p.sfen.as_deref(), &p.moves)
                .expect("positions/check.txt is valid (the crate's tests/positions.rs reads it)"),
        );
    }
    out
}

/// Reads a positions file: one position a line, `startpos [moves …]`, `sfen SFEN [moves …]`
/// or a bare SFEN `[moves …]`, each optionally after `position ` and after a name and `: `;
/// blank lines and lines starting with `#` are skipped.
pub fn parse_positions(text: &str) -> Result<Vec<PerftPosition>, PositionsError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |message: String| PositionsError {
            line: i + 1,
            message,
        };
        let (id, body) = match line.split_once(": ") {
            Some((name, rest)) if !name.contains(' ') => (name.to_string(), rest),
            _ => (format!("line {}", i + 1), line),
        };
        let body = body.strip_prefix("position ").unwrap_or(body);
        let words: Vec<&str> = body.split_ascii_whitespace().collect();
        let (sfen, rest) = match words.first() {
            Some(&"startpos") => (None, &words[1..]),
            Some(&"sfen") if words.len() >= 5 => (Some(words[1..5].join(" ")), &words[5..]),
            Some(_) if words.len() >= 4 => (Some(words[..4].join(" ")), &words[4..]),
            _ => {
                return Err(err(format!(
                    "'{line}': expected startpos, sfen SFEN or an SFEN"
                )))
            }
        };
        let moves: Vec<String> = match rest.split_first() {
            None => Vec::new(),
            Some((&"moves", ms)) => ms.iter().map(|m| m.to_string()).collect(),
            Some((w, _)) => return Err(err(format!("'{w}' where 'moves' or the end belongs"))),
        };
        out.push(PerftPosition::new(&id, sfen.as_deref(), &moves).map_err(err)?);
    }
    Ok(out)
}

/// What the engine printed for one `go perft`.
#[derive(Clone, Debug, Default)]
struct EngineDivide {
    /// The `move: count` lines, as printed.
    lines: Vec<(String, u64)>,
    /// The `Nodes searched` total.
    total: u64,
}

/// Why a `go perft` gave no divide.
#[derive(Clone, Debug)]
enum QueryError {
    /// The engine has no `go perft` (it searched, or said nothing).
    NoPerft(String),
    /// It started one and did not finish it, or it died.
    Failed(String),
}

/// One move the engine lists and Saikoro does not, or the other way round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNote {
    /// The move as the engine printed it, or Saikoro's USI text.
    pub text: String,
    /// The rule that decides it.
    pub rule: String,
}

/// Where an engine's perft first differs from Saikoro's.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The moves from the compared position to the one reported.
    pub path: Vec<Move>,
    /// The reported position's `position` command, its SFEN and its diagram.
    pub command: String,
    /// The reported position's SFEN.
    pub sfen: String,
    /// The reported position as a board diagram.
    pub diagram: String,
    /// The perft depth there.
    pub depth: u32,
    /// Legal moves the engine does not list.
    pub missing: Vec<MoveNote>,
    /// Moves the engine lists that are not legal (or no moves at all).
    pub excess: Vec<MoveNote>,
    /// Counts the engine gets wrong though its moves are right, one sentence each.
    pub miscounts: Vec<String>,
}

/// How one position ended.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Every count agrees.
    Agree,
    /// A count differs: where and why.
    Differ(Box<Finding>),
    /// The engine could not be asked (no `go perft`, a failure).
    NotCompared(String),
}

/// One position's result.
#[derive(Clone, Debug)]
pub struct PositionResult {
    /// Its name.
    pub id: String,
    /// Its `position` command.
    pub command: String,
    /// The depth compared.
    pub depth: u32,
    /// Saikoro's perft there.
    pub ours: u64,
    /// The engine's total, if it gave one.
    pub theirs: Option<u64>,
    /// Agree, differ, not compared.
    pub outcome: Outcome,
}

/// A whole comparison.
#[derive(Clone, Debug, Default)]
pub struct MovegenReport {
    /// The engine's command line.
    pub engine: String,
    /// Its `id name`.
    pub name: Option<String>,
    /// Why nothing more could be compared: it could not start, it has no `go perft`, or it
    /// failed during one.
    pub no_perft: Option<String>,
    /// Whether that was the engine's failure (it could not be started, or it died or hung
    /// in a perft), not the want of a `go perft`.
    pub engine_failed: bool,
    /// The positions asked for (those after a stop are not compared).
    pub positions: usize,
    /// Each position, in order.
    pub results: Vec<PositionResult>,
    /// How long it took.
    pub elapsed: Duration,
}

impl MovegenReport {
    /// How many positions agree, differ, and could not be compared (those not reached after
    /// a stop included).
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut c = (0, 0, 0);
        for r in &self.results {
            match r.outcome {
                Outcome::Agree => c.0 += 1,
                Outcome::Differ(_) => c.1 += 1,
                Outcome::NotCompared(_) => c.2 += 1,
            }
        }
        c.2 += self.positions.saturating_sub(self.results.len());
        c
    }

    /// The exit status (docs/exit-status.md): 0 when every position agrees; 1 when one
    /// differs, or the engine could not be started or failed in a perft (as `check` fails
    /// it); 3 when nothing differs but something could not be compared (an engine without
    /// `go perft`); 2 stays the usage errors'.
    pub fn exit_code(&self) -> u8 {
        match self.counts() {
            (_, d, _) if d > 0 || self.engine_failed => 1,
            (_, _, n) if n > 0 || self.no_perft.is_some() => 3,
            _ => 0,
        }
    }
}

/// The engine, started on demand and again after a failure.
struct Driver<'c> {
    cfg: &'c MovegenConfig,
    client: Option<UsiClient>,
    name: Option<String>,
}

impl Driver<'_> {
    fn policy(&self) -> FaultPolicy {
        FaultPolicy {
            startup: self.cfg.timeout,
            ready: self.cfg.timeout,
            ..FaultPolicy::CHECK
        }
    }

    /// The running engine: started (`usi`, options, `isready`) if it is not.
    fn engine(&mut self) -> Result<&mut UsiClient, String> {
        if !self.client.as_mut().is_some_and(|c| c.is_running()) {
            let spec = EngineSpec {
                command: self.cfg.engine.clone(),
                label: "engine".to_string(),
                options: self.cfg.options.clone(),
                stderr: Stderr::Log,
                transcript: false,
            };
            let s = EngineSession::start(&spec, &self.policy(), true)
                .map_err(|e| format!("the engine could not be started: {e}"))?;
            self.name = self.name.take().or(s.info.name.clone());
            self.client = Some(s.client);
        }
        Ok(self.client.as_mut().expect("started"))
    }

    /// `position …` and `go perft depth`, read until its total. `expect` is how long
    /// Saikoro took for the same count: the engine gets the timeout plus fifty times that.
    fn query(
        &mut self,
        command: &str,
        depth: u32,
        expect: Duration,
    ) -> Result<EngineDivide, QueryError> {
        let timeout = self.cfg.timeout;
        let grace = self.policy().stop_grace;
        let failed = |e: String| QueryError::Failed(e);
        let e = self.engine().map_err(failed)?;
        let go = format!("go perft {depth}");
        e.send(command)
            .and_then(|_| e.send(&go))
            .map_err(|err| failed(format!("the engine went away: {err}")))?;
        let limit = timeout + expect * 50;
        let mut deadline = Instant::now() + limit;
        let mut out = EngineDivide::default();
        let mut stopped = false;
        loop {
            let line = match e.recv(deadline) {
                Ok(Some(l)) => l.text,
                Ok(None) if stopped => {
                    e.kill();
                    return Err(if out.lines.is_empty() {
                        QueryError::NoPerft(format!(
                            "no answer to '{go}' within {} ms, nor after stop",
                            limit.as_millis()
                        ))
                    } else {
                        failed(format!(
                            "'{go}' gave {} moves but no 'Nodes searched' total within {} ms (killed, restarted)",
                            out.lines.len(),
                            limit.as_millis()
                        ))
                    });
                }
                Ok(None) => {
                    let _ = e.send("stop");
                    stopped = true;
                    deadline = Instant::now() + grace;
                    continue;
                }
                Err(err) => {
                    return Err(failed(format!("the engine went away during '{go}': {err}")))
                }
            };
            if let EngineMessage::BestMove { .. } = parse_engine_line(&line) {
                return Err(QueryError::NoPerft(format!(
                    "'{go}' was answered with a search ('{line}'): the engine has no go perft"
                )));
            }
            if let Some(total) = total_line(&line) {
                out.total = total;
                return Ok(out);
            }
            if let Some(entry) = divide_line(&line) {
                out.lines.push(entry);
            }
        }
    }
}

/// The total of a `Nodes searched: N` line (any case, with or without the colon).
fn total_line(line: &str) -> Option<u64> {
    let rest = line.trim().to_ascii_lowercase();
    let rest = rest.strip_prefix("nodes searched")?;
    rest.trim_start_matches([' ', ':']).trim().parse().ok()
}

/// A `move: count` line (also `move : count` and `move count`) whose first word reads as a
/// USI move.
fn divide_line(line: &str) -> Option<(String, u64)> {
    let line = line.trim();
    let (mv, count) = line
        .split_once(':')
        .or_else(|| line.split_once(' '))
        .map(|(m, c)| (m.trim(), c.trim()))?;
    Move::from_usi(mv).ok()?;
    Some((mv.to_string(), count.parse().ok()?))
}

/// The differences at one node.
struct NodeDiff {
    missing: Vec<MoveNote>,
    excess: Vec<MoveNote>,
    /// Moves listed more than once: their text.
    duplicated: Vec<String>,
    /// Moves on both lists with different counts, in Saikoro's order: (move, ours, theirs).
    counts: Vec<(Move, u64, u64)>,
}

fn compare(pos: &Position, ours: &[(Move, u64)], theirs: &EngineDivide) -> NodeDiff {
    let mut listed: BTreeMap<Move, u64> = BTreeMap::new();
    let mut diff = NodeDiff {
        missing: Vec::new(),
        excess: Vec::new(),
        duplicated: Vec::new(),
        counts: Vec::new(),
    };
    for (text, n) in &theirs.lines {
        let m = Move::from_usi(text).expect("divide_line reads only moves");
        if listed.insert(m, *n).is_some() {
            diff.duplicated.push(text.clone());
        } else if !ours.iter().any(|(o, _)| *o == m) {
            diff.excess.push(MoveNote {
                text: text.clone(),
                rule: excess_rule(pos, m),
            });
        }
    }
    for &(m, n) in ours {
        match listed.get(&m) {
            None => diff.missing.push(MoveNote {
                text: m.to_string(),
                rule: missing_rule(pos, m),
            }),
            Some(&t) if t != n => diff.counts.push((m, n, t)),
            Some(_) => {}
        }
    }
    diff
}

/// The depth to compare `pos` at: `want`, or less where the perft would pass `max_nodes`
/// leaves (at least 1). Also Saikoro's count and how long it took.
fn choose_depth(pos: &Position, want: u32, max_nodes: u64) -> (u32, u64, Duration) {
    let t = Instant::now();
    let branching = pos.count_legal();
    let mut best = (1, branching, t.elapsed());
    for d in 2..=want {
        // The next count is about the last one times the branching factor: not counted at all
        // when that is far over the limit.
        if best.1.saturating_mul(branching.max(1)) > max_nodes.saturating_mul(10) {
            break;
        }
        let t = Instant::now();
        let n = perft(&mut pos.clone(), d);
        if n > max_nodes {
            break;
        }
        best = (d, n, t.elapsed());
    }
    best
}

/// What is wrong with the engine's perft `d` at `pos` (after `path`): the moves it misses or
/// adds, the moves it lists twice, and a total that is not the sum of its lines. Also the
/// moves whose counts differ from Saikoro's (`ours`), to descend into.
fn finding_at(
    pos: &Position,
    path: &[Move],
    command: String,
    d: u32,
    ours: &[(Move, u64)],
    theirs: &EngineDivide,
) -> (Finding, Vec<(Move, u64, u64)>) {
    let diff = compare(pos, ours, theirs);
    let sum: u64 = theirs.lines.iter().map(|(_, n)| n).sum();
    let mut finding = Finding {
        path: path.to_vec(),
        command,
        sfen: pos.to_sfen(),
        diagram: saikoro_core::diagram(pos),
        depth: d,
        missing: diff.missing,
        excess: diff.excess,
        miscounts: Vec::new(),
    };
    for text in &diff.duplicated {
        finding
            .miscounts
            .push(format!("{text} is listed more than once"));
    }
    if sum != theirs.total {
        finding.miscounts.push(format!(
            "the engine's lines add up to {sum}, but it says 'Nodes searched: {}'",
            theirs.total
        ));
    }
    (finding, diff.counts)
}

/// Compares one position: descends into the first differing move until the moves differ.
fn compare_position(driver: &mut Driver, p: &PerftPosition) -> Result<PositionResult, QueryError> {
    let (depth, ours_total, took) =
        choose_depth(&p.position, driver.cfg.depth, driver.cfg.max_nodes);
    let mut result = PositionResult {
        id: p.id.clone(),
        command: p.command(&[]),
        depth,
        ours: ours_total,
        theirs: None,
        outcome: Outcome::Agree,
    };
    let mut path: Vec<Move> = Vec::new();
    let mut d = depth;
    let mut expect = took;
    // The engine's count for the move descended into, and Saikoro's.
    let mut parent: Option<(Move, u64, u64)> = None;
    loop {
        let pos = p.after(&path);
        let command = p.command(&path);
        let theirs = match driver.query(&command, d, expect) {
            Ok(t) => t,
            Err(QueryError::NoPerft(why)) if path.is_empty() => {
                return Err(QueryError::NoPerft(why))
            }
            Err(QueryError::NoPerft(why) | QueryError::Failed(why)) => {
                result.outcome = Outcome::NotCompared(why);
                return Ok(result);
            }
        };
        if path.is_empty() {
            result.theirs = Some(theirs.total);
        }
        let t = Instant::now();
        let ours = divide(&mut pos.clone(), d);
        expect = t.elapsed();
        let sum: u64 = theirs.lines.iter().map(|(_, n)| n).sum();
        let (mut finding, counts) = finding_at(&pos, &path, command, d, &ours, &theirs);
        let settled = !finding.missing.is_empty()
            || !finding.excess.is_empty()
            || !finding.miscounts.is_empty();
        if !settled {
            match counts.first().copied() {
                None if path.is_empty() => return Ok(result),
                None => {
                    // Every count here agrees with Saikoro's, yet one ply up the engine's
                    // did not: its counts disagree with each other.
                    let (m, said, ours_n) = parent.expect("descended");
                    finding.miscounts.push(format!(
                        "one ply up the engine counts {said} for {m} where Saikoro counts {ours_n}, but its own perft {d} after {m} lists the same {} moves as Saikoro with the same counts, {sum} in all: a miscounted subtree, not a move-generation error",
                        ours.len()
                    ));
                }
                Some((m, o, t)) if d == 1 => finding.miscounts.push(format!(
                    "at depth 1 the engine counts {t} for {m}, where a move counts {o}"
                )),
                Some((m, o, t)) => {
                    parent = Some((m, t, o));
                    path.push(m);
                    d -= 1;
                    continue;
                }
            }
        }
        result.outcome = Outcome::Differ(Box::new(finding));
        return Ok(result);
    }
}

/// Compares the engine's perft with Saikoro's on every position of `cfg`; `on_result` sees
/// each result as it comes.
pub fn run(cfg: &MovegenConfig, on_result: &mut dyn FnMut(&PositionResult)) -> MovegenReport {
    let t0 = Instant::now();
    let mut driver = Driver {
        cfg,
        client: None,
        name: None,
    };
    let mut report = MovegenReport {
        engine: cfg.engine.to_string(),
        positions: cfg.positions.len(),
        ..MovegenReport::default()
    };
    if let Err(why) = driver.engine() {
        report.no_perft = Some(why);
        report.engine_failed = true;
    }
    for p in &cfg.positions {
        if report.no_perft.is_some() {
            break;
        }
        match compare_position(&mut driver, p) {
            Ok(r) => {
                on_result(&r);
                report.results.push(r);
            }
            Err(QueryError::NoPerft(why)) => report.no_perft = Some(why),
            Err(QueryError::Failed(why)) => {
                report.no_perft = Some(why);
                report.engine_failed = true;
            }
        }
    }
    report.name = driver.name.clone();
    if let Some(mut c) = driver.client.take() {
        c.quit(Duration::from_secs(2));
    }
    report.elapsed = t0.elapsed();
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The divide lines of Stockfish-like engines (YaneuraOu, Fairy-Stockfish, Saikoro).
    #[test]
    fn divide_and_total_lines() {
        assert_eq!(divide_line("7g7f: 30"), Some(("7g7f".to_string(), 30)));
        assert_eq!(divide_line("P*5e : 2"), Some(("P*5e".to_string(), 2)));
        assert_eq!(divide_line("8h2b+ 1"), Some(("8h2b+".to_string(), 1)));
        assert_eq!(divide_line("Nodes searched: 900"), None);
        assert_eq!(divide_line("info string perft 2 nodes 900"), None);
        assert_eq!(total_line("Nodes searched: 900"), Some(900));
        assert_eq!(total_line("nodes searched 12"), Some(12));
        assert_eq!(total_line("Elapsed Time = 1 [ms]"), None);
    }

    #[test]
    fn position_files() {
        let v = parse_positions(
            "# mine\nstartpos\nopening: position startpos moves 7g7f 3c3d\n\
             8k/9/9/9/9/9/9/9/K8 b G 1\nsfen 8k/9/9/9/9/9/9/9/K8 b G 1 moves G*1b\n",
        )
        .unwrap();
        assert_eq!(v.len(), 4);
        assert_eq!(v[0].command(&[]), "position startpos");
        assert_eq!(v[1].id, "opening");
        assert_eq!(
            v[1].command(&[Move::from_usi("8h2b+").unwrap()]),
            "position startpos moves 7g7f 3c3d 8h2b+"
        );
        assert_eq!(v[2].id, "line 4");
        assert_eq!(v[3].position.side_to_move(), saikoro_core::Color::White);
        assert_eq!(
            parse_positions("startpos moves 7g7f 7g7f")
                .unwrap_err()
                .line,
            1
        );
        assert_eq!(parse_positions("\nfoo bar").unwrap_err().line, 2);
        assert_eq!(parse_positions("startpos 7g7f").unwrap_err().line, 1);
    }

    /// Every built-in position reads, and the depth is lowered where the count would be large:
    /// the max-moves position has 53,393,368 leaves at depth 3 (positions/perft.txt).
    #[test]
    fn builtin_positions_and_depths() {
        let all = builtin_positions();
        assert!(all.iter().any(|p| p.id == "startpos"));
        assert!(all.iter().any(|p| p.id == "rules-uchifuzume"));
        let max = all.iter().find(|p| p.id == "max-moves").unwrap();
        assert_eq!(choose_depth(&max.position, 3, 1_000_000).0, 2);
        assert_eq!(choose_depth(&max.position, 3, 1_000_000).1, 105_677);
        let start = all.iter().find(|p| p.id == "startpos").unwrap();
        assert_eq!(choose_depth(&start.position, 3, 1_000_000).1, 25_470);
        assert_eq!(choose_depth(&start.position, 1, 10).1, 30);
    }
}
