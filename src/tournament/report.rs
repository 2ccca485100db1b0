//! The match's score table, printed every `--ratinginterval` games and at the end.

use super::schedule::{Score, Scoreboard};
use super::scheduler::{Match, Reporter};
use std::io::{self, Write};

/// Prints each pairing's wins, losses and draws from its first engine's point of view.
#[derive(Debug, Default)]
pub struct ScoreReporter;

impl Reporter for ScoreReporter {
    fn report(&mut self, m: &Match, board: &Scoreboard, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "--------------------------------------------------")?;
        for (p, pairing) in m.pairings.iter().enumerate() {
            let (pairs, singles) = board.pairing_results(p, pairing.first, &m.games);
            let all = pairs.iter().flat_map(|&(a, b)| [a, b]).chain(singles);
            let (mut w, mut l, mut d) = (0, 0, 0);
            for s in all {
                match s {
                    Score::Win => w += 1,
                    Score::Loss => l += 1,
                    Score::Draw => d += 1,
                }
            }
            writeln!(
                out,
                "Results of {} vs {}: Games: {}, Wins: {w}, Losses: {l}, Draws: {d}",
                m.names[pairing.first],
                m.names[pairing.second],
                w + l + d
            )?;
        }
        writeln!(out, "--------------------------------------------------")?;
        out.flush()
    }

    fn sprt_done(&mut self, _m: &Match, _board: &Scoreboard) -> Option<String> {
        None
    }
}
