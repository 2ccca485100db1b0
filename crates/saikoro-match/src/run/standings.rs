//! The statistics of a match as it runs: each pairing's results from its first engine's point
//! of view, printed as fastchess's block ([`Report`]) with a line for whatever the figures leave
//! out or repeat; with three engines or more, the standings of the field; and the SPRT's
//! conclusion (which `SprtBound` ends the match with).
//!
//! Which games a block counts, so that its Elo never contradicts the W/L/D line under it:
//!
//! - When the games come in colour-swapped pairs (`--games` 2 or more, even, without
//!   `--noswap`), the figures are pentanomial, from the pairs whose two games both finished:
//!   while the match runs, a game whose partner is still being played waits, as in fastchess
//!   (which adds a pair's games to its counts once the pair is complete), and a line says so.
//! - Otherwise every finished game counts on its own (trinomial figures, fastchess's report
//!   with `-games 1`), and a line says how many games have no pair and why: an odd `--games`,
//!   `--noswap`, `--games 1`, the SPRT's `bayesian` model, or, in the last block, pairs whose
//!   other game was never played (a match interrupted; with an SPRT the block stays on the
//!   pairs its verdict was taken from).
//! - A game that repeated an earlier game of its pairing move for move (same opening, same
//!   colours, same moves, same end) is counted, and a line says how many did; with
//!   `--distinct-games` it is left out (a pair only when both its games repeated).

use crate::schedule::{PairingGames, Scoreboard};
use crate::stats::elo::{EloEstimate, Tally};
use crate::stats::report::{Fixed, Report};
use crate::stats::sprt::SprtVerdict;
use crate::types::{Match, Reporter};
use std::fmt::Write as _;
use std::io::{self, Write};

/// One pairing's figures as a block shows them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Count {
    /// The results counted, from the pairing's first engine's point of view.
    pub tally: Tally,
    /// Whether the figures are pentanomial (from the game pairs).
    pub pentanomial: bool,
    /// The lines that say what the figures leave out or repeat.
    pub notes: Vec<String>,
    /// Games left out because the other game of their pair is still being played.
    pub waiting: u64,
    /// Games counted on their own (no colour-swapped partner counted with them).
    pub unpaired: u64,
    /// Games that repeated an earlier game of the pairing move for move.
    pub repeated: u64,
}

/// "1 game", "2 games".
fn games(n: u64) -> String {
    format!("{n} game{}", if n == 1 { "" } else { "s" })
}

/// Why `m`'s games are not in pairs, or `None` when they are.
fn no_pairs(m: &Match) -> Option<String> {
    let c = &m.config;
    if c.noswap {
        Some("--noswap keeps the colours, so no game has a colour-swapped partner".into())
    } else if c.games == 1 {
        Some("--games 1 plays no game pairs".into())
    } else if c
        .sprt
        .as_ref()
        .is_some_and(|s| !s.model().supports_pentanomial())
    {
        Some("the SPRT's bayesian model takes single games".into())
    } else {
        None
    }
}

/// Why games of a match played in pairs have none: an odd `--games` (`g` has games without a
/// partner in the schedule), or `orphans` games whose pair's other game never got a result.
fn why_unpaired(m: &Match, g: &PairingGames, orphans: u64) -> String {
    let mut why = Vec::new();
    if g.unpaired.games() > 0 {
        why.push(format!(
            "--games {} is odd, so the last game of each round has no partner",
            m.config.games
        ));
    }
    match orphans {
        0 => {}
        1 => why.push("the other game of its pair was not played to a result".into()),
        _ => why.push("the other games of their pairs were not played to a result".into()),
    }
    why.join("; ")
}

/// The figures of pairing `pairing` once `board`'s games are in; `at_end` for the match's
/// last block. From the board's running tallies: its cost does not grow with the games.
pub fn count(m: &Match, board: &Scoreboard, pairing: usize, at_end: bool) -> Count {
    let g: PairingGames = board.pairing_games(pairing);
    let finished = g.finished();
    let mut out = Count {
        tally: g.pairs,
        ..Count::default()
    };
    let no_pairs = no_pairs(m);
    // Games whose pair was never completed, in the last block of a match without an SPRT.
    let orphans = if at_end && m.config.sprt.is_none() {
        g.waiting.games()
    } else {
        0
    };
    out.pentanomial = no_pairs.is_none() && g.unpaired.games() == 0 && orphans == 0;
    if out.pentanomial {
        let n = g.waiting.games();
        out.waiting = n;
        if n > 0 {
            let (its, is) = if n == 1 {
                ("its", "is")
            } else {
                ("their", "are")
            };
            out.notes.push(if at_end {
                format!(
                    "{} not counted: the other game of {its} pair was not played to a result",
                    games(n)
                )
            } else {
                format!(
                    "{} not counted yet: the other game of {its} pair {is} still being played",
                    games(n)
                )
            });
        }
    } else {
        for single in [g.unpaired, g.waiting] {
            out.tally.merge(Tally {
                wdl: single,
                ..Tally::default()
            });
        }
        let single = g.unpaired.games() + g.waiting.games();
        out.unpaired = single;
        let why = no_pairs.unwrap_or_else(|| why_unpaired(m, &g, orphans));
        if single > 0 {
            out.notes.push(format!(
                "{single} of {} unpaired ({why}): figures from single games, not game pairs",
                crate::output::style::count(finished as usize, "game", "games")
            ));
        }
    }
    out.repeated = g.repeated;
    if g.repeated > 0 {
        let mut line = format!(
            "{} of {} repeated an earlier game move for move",
            g.repeated,
            crate::output::style::count(finished as usize, "game", "games")
        );
        if m.config.distinct_games {
            let _ = write!(
                line,
                "; --distinct-games left out {}, each distinct game counts once",
                games(g.left_out)
            );
        } else {
            line.push_str(
                ": use more openings (--openings) or engines that vary (a seed, an option), \
                 or --distinct-games to count each distinct game once",
            );
        }
        out.notes.push(line);
    }
    out
}

/// What the block shows in parentheses after the names: the time controls and the openings
/// file's name.
fn details(m: &Match, first: usize, second: usize) -> String {
    let (a, b) = (
        m.config.engines[first].limits.to_string(),
        m.config.engines[second].limits.to_string(),
    );
    let mut d = if a == b { a } else { format!("{a} vs {b}") };
    if let Some(o) = &m.config.openings {
        if let Some(name) = o.file.file_name() {
            d.push_str(", ");
            d.push_str(&name.to_string_lossy());
        }
    }
    d
}

/// Prints every pairing's block, and with three engines or more the field's standings.
#[derive(Debug, Default)]
pub struct Standings {
    /// The number of games counted when the block was last printed.
    pub printed_at: Option<usize>,
    /// Whether the last block printed left out games still being played.
    waited: bool,
}

impl Standings {
    /// Prints the match's last blocks, unless the interval just printed the same.
    pub fn finish(&mut self, m: &Match, board: &Scoreboard, out: &mut dyn Write) -> io::Result<()> {
        if self.printed_at == Some(board.len()) && !self.waited {
            return Ok(());
        }
        self.print(m, board, true, out)
    }

    fn print(
        &mut self,
        m: &Match,
        board: &Scoreboard,
        at_end: bool,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let counts: Vec<Count> = (0..m.pairings.len())
            .map(|p| count(m, board, p, at_end))
            .collect();
        for (pairing, c) in m.pairings.iter().zip(&counts) {
            let report = Report {
                first: &m.names[pairing.first],
                second: &m.names[pairing.second],
                details: &details(m, pairing.first, pairing.second),
                tally: c.tally,
                pentanomial: c.pentanomial,
                sprt: m.config.sprt.as_ref(),
                notes: &c.notes,
            };
            write!(out, "{report}")?;
        }
        if m.names.len() >= 3 {
            write!(out, "{}", field(m, &counts))?;
        }
        self.printed_at = Some(board.len());
        self.waited = !at_end && counts.iter().any(|c| c.waiting > 0);
        out.flush()
    }
}

impl Reporter for Standings {
    fn report(&mut self, m: &Match, board: &Scoreboard, out: &mut dyn Write) -> io::Result<()> {
        self.print(m, board, false, out)
    }
}

/// The standings of the field (fastchess's table for three engines or more): each engine's
/// results against all its opponents, ranked by the Elo they give against the field, with
/// the 95 % intervals; pentanomial when every pairing's block is.
fn field(m: &Match, counts: &[Count]) -> String {
    let penta = counts.iter().all(|c| c.pentanomial);
    let rows = field_rows(m, counts, penta);
    let width = rows
        .iter()
        .map(|r| m.names[r.0].chars().count())
        .max()
        .unwrap_or(0)
        .max(25);
    let mut s = String::new();
    let _ = writeln!(s, "{}", crate::stats::report::RULE);
    let _ = writeln!(
        s,
        "Standings ({}, Elo against the field):",
        if penta {
            "from game pairs"
        } else {
            "from single games"
        }
    );
    let _ = write!(
        s,
        "{:<4} {:<width$} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "Rank", "Name", "Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw"
    );
    if penta {
        let _ = write!(s, " {:>20}", "Ptnml(0-2)");
    }
    s.push('\n');
    for (rank, (i, t, e)) in rows.iter().enumerate() {
        let name = &m.names[*i];
        let f = |v: Option<f64>| Fixed(v, 2).to_string();
        let pct = |v: Option<f64>| v.map_or("n/a".to_string(), |v| format!("{:.1}%", 100.0 * v));
        let draw = if penta {
            t.pentanomial.draw_ratio()
        } else {
            t.wdl.draw_ratio()
        };
        let _ = write!(
            s,
            "{:>4} {:<width$} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
            rank + 1,
            name,
            f(e.map(|e| e.elo)),
            f(e.and_then(|e| e.elo_error)),
            f(e.and_then(|e| e.nelo)),
            f(e.and_then(|e| e.nelo_error)),
            t.wdl.games(),
            pct(t.wdl.score()),
            pct(draw),
        );
        if penta {
            let [a, b, c, d, e] = t.pentanomial.bins();
            let _ = write!(s, " {:>20}", format!("[{a}, {b}, {c}, {d}, {e}]"));
        }
        s.push('\n');
    }
    let _ = writeln!(s, "{}", crate::stats::report::RULE);
    s
}

/// Each engine (its index) with its games against the field, as one tally (its side of each
/// pairing's), and its Elo from game pairs (`penta`) or single games: highest Elo first,
/// engines without games last.
pub(crate) fn field_rows(
    m: &Match,
    counts: &[Count],
    penta: bool,
) -> Vec<(usize, Tally, Option<EloEstimate>)> {
    let mut rows: Vec<(usize, Tally)> = (0..m.names.len()).map(|i| (i, Tally::default())).collect();
    for (pairing, c) in m.pairings.iter().zip(counts) {
        rows[pairing.first].1.merge(c.tally);
        rows[pairing.second].1.merge(c.tally.flipped());
    }
    let elo = |t: &Tally| {
        if penta {
            t.pentanomial.elo()
        } else {
            t.wdl.elo()
        }
    };
    let mut rows: Vec<_> = rows.into_iter().map(|(n, t)| (n, t, elo(&t))).collect();
    // Highest Elo first; engines without games last.
    rows.sort_by(|a, b| {
        let key = |e: &Option<EloEstimate>| e.map_or(f64::NEG_INFINITY, |e| e.elo);
        key(&b.2).total_cmp(&key(&a.2))
    });
    rows
}

/// The SPRT's conclusion once it has crossed a bound, or `None` (also without `--sprt`). The
/// SPRT is that of the first pairing: `--sprt` needs two engines. Asked after every game, it
/// reads the scoreboard's running tallies (no game is counted again), so it costs the same
/// whatever the number of games played.
pub(crate) fn sprt_conclusion(m: &Match, board: &Scoreboard) -> Option<String> {
    let sprt = m.config.sprt.as_ref()?;
    let c = count(m, board, 0, false);
    match sprt.verdict(sprt.llr(c.tally, c.pentanomial)) {
        SprtVerdict::Continue => None,
        v => sprt.conclusion(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::MatchConfig;
    use crate::game::result::{Decision, Reason};
    use crate::schedule::{schedule, Shape};
    use crate::stats::sprt::{SprtConfig, SprtModel};
    use saikoro_core::Color;

    /// A two-engine match of `rounds` × `games` with `config`'s other settings.
    fn a_match(rounds: u32, games: u32, config: MatchConfig) -> Match {
        let mut m = Match::bare(
            MatchConfig {
                rounds,
                games,
                ..config
            },
            &["a", "b"],
        );
        let (pairings, all) = schedule(Shape {
            engines: 2,
            gauntlet: false,
            rounds,
            games,
            noswap: m.config.noswap,
            openings: 1,
        });
        (m.pairings, m.games) = (pairings, all);
        m
    }

    /// Games 1 and 2 (a pair) and game 3 of `m` finished: Black won each.
    fn three_black_wins(m: &Match) -> Scoreboard {
        let mut board = Scoreboard::new(&m.pairings, m.config.distinct_games);
        for g in &m.games[..3] {
            board.add(g, Decision::Win(Color::Black), Reason::Mate, false);
        }
        board
    }

    #[test]
    fn a_pair_waits_for_its_second_game_while_the_match_runs() {
        let m = a_match(2, 2, MatchConfig::default());
        let board = three_black_wins(&m);
        // While running: the pair (1, 2) counted, game 3 waits; the W/L/D line is the pair's.
        let c = count(&m, &board, 0, false);
        assert!(c.pentanomial);
        assert_eq!((c.tally.wdl.games(), c.tally.pentanomial.wl), (2, 1));
        assert_eq!(c.waiting, 1);
        assert_eq!(
            c.notes,
            ["1 game not counted yet: the other game of its pair is still being played"]
        );
        // The last block (the match was interrupted): every game counts, trinomial.
        let c = count(&m, &board, 0, true);
        assert!(!c.pentanomial);
        assert_eq!(c.tally.wdl, crate::Wdl::new(2, 0, 1));
        assert_eq!(
            c.notes,
            [
                "1 of 3 games unpaired (the other game of its pair was not played to a result): \
              figures from single games, not game pairs"
            ]
        );
    }

    #[test]
    fn with_an_sprt_the_last_block_stays_on_the_pairs() {
        let sprt = SprtConfig::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        let m = a_match(
            2,
            2,
            MatchConfig {
                sprt: Some(sprt),
                ..MatchConfig::default()
            },
        );
        let c = count(&m, &three_black_wins(&m), 0, true);
        assert!(c.pentanomial);
        assert_eq!(c.tally.wdl.games(), 2);
        assert_eq!(
            c.notes,
            ["1 game not counted: the other game of its pair was not played to a result"]
        );
        // The bayesian model takes single games, and says so.
        let bayes = SprtConfig::new(0.0, 5.0, 0.05, 0.05, SprtModel::Bayesian).unwrap();
        let m = a_match(
            2,
            2,
            MatchConfig {
                sprt: Some(bayes),
                ..MatchConfig::default()
            },
        );
        let c = count(&m, &three_black_wins(&m), 0, false);
        assert!(!c.pentanomial);
        assert_eq!(c.tally.wdl.games(), 3);
        assert!(c.notes[0].contains("the SPRT's bayesian model takes single games"));
    }

    #[test]
    fn complete_pairs_need_no_line() {
        let m = a_match(2, 2, MatchConfig::default());
        let mut board = three_black_wins(&m);
        board.add(&m.games[3], Decision::Draw, Reason::Repetition, false);
        let c = count(&m, &board, 0, true);
        assert!(c.pentanomial && c.notes.is_empty());
    }
}
