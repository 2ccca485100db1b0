//! The statistics of a match as it runs: each pairing's results from its first engine's point
//! of view (game pairs counted as pentanomial bins, games whose pair is not complete as single
//! games), printed as fastchess's block ([`Report`]), and the SPRT's conclusion (which
//! `SprtBound` ends the match with).

use super::report::Report;
use super::schedule::{ScheduledGame, Scoreboard};
use super::scheduler::{Match, Reporter};
use super::sprt::SprtVerdict;
use super::stats::Tally;
use std::io::{self, Write};

/// The counts of pairing `pairing` (whose first engine is `first`).
pub fn tally(board: &Scoreboard, pairing: usize, first: usize, games: &[ScheduledGame]) -> Tally {
    let (pairs, singles) = board.pairing_results(pairing, first, games);
    let mut t = Tally::default();
    for (a, b) in pairs {
        t.add_pair(a, b);
    }
    for s in singles {
        t.add_unpaired(s);
    }
    t
}

/// Whether the statistics come from game pairs: with `--games 2` or more (fastchess's
/// default report); with one game per round there are no pairs, and the games count alone.
fn pentanomial(m: &Match) -> bool {
    m.config.games >= 2
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

/// Prints every pairing's block.
#[derive(Debug, Default)]
pub struct Standings {
    /// The number of games counted when the block was last printed.
    pub printed_at: Option<usize>,
}

impl Reporter for Standings {
    fn report(&mut self, m: &Match, board: &Scoreboard, out: &mut dyn Write) -> io::Result<()> {
        for (p, pairing) in m.pairings.iter().enumerate() {
            let report = Report {
                first: &m.names[pairing.first],
                second: &m.names[pairing.second],
                details: &details(m, pairing.first, pairing.second),
                tally: tally(board, p, pairing.first, &m.games),
                pentanomial: pentanomial(m),
                sprt: m.config.sprt.as_ref(),
            };
            write!(out, "{report}")?;
        }
        self.printed_at = Some(board.len());
        out.flush()
    }
}

/// The SPRT's conclusion once it has crossed a bound, or `None` (also without `--sprt`). The
/// SPRT is that of the first pairing: `--sprt` needs two engines.
pub(crate) fn sprt_conclusion(m: &Match, board: &Scoreboard) -> Option<String> {
    let sprt = m.config.sprt.as_ref()?;
    let pairing = m.pairings.first()?;
    let t = tally(board, 0, pairing.first, &m.games);
    match sprt.verdict(sprt.llr(t, pentanomial(m))) {
        SprtVerdict::Continue => None,
        v => sprt.conclusion(v),
    }
}
