//! The schedule of a match and its score: who plays whom with which colour and opening, and
//! the results by game number, read back as game pairs for the statistics.

use super::result::{Decision, Reason};
/// A game's result from one engine's point of view (the statistics' kind).
use crate::{Color, GameResult};
use std::collections::BTreeMap;

/// Two engines that meet: `first` is the one whose results the report gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The engine reported on.
    pub first: usize,
    /// Its opponent.
    pub second: usize,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// 1-based, in schedule order.
    pub number: u64,
    /// 1-based.
    pub round: u32,
    /// Index into the pairings.
    pub pairing: usize,
    /// Index of the game within its round and pairing (0, 1, …): games 2k and 2k + 1 are a
    /// game pair.
    pub index: u32,
    /// Black's engine.
    pub black: usize,
    /// White's engine.
    pub white: usize,
    /// Index into the (ordered) openings.
    pub opening: usize,
}

/// The pairings (every pair, or the first engine against each other one with `gauntlet`) and
/// the games: for each round, for each pairing, `games` games from the round's opening, the
/// first engine Black in even games and White in odd ones.
pub fn schedule(
    engines: usize,
    gauntlet: bool,
    rounds: u32,
    games: u32,
    openings: usize,
) -> (Vec<Pairing>, Vec<ScheduledGame>) {
    let mut pairings = Vec::new();
    for first in 0..engines {
        for second in first + 1..engines {
            if !gauntlet || first == 0 {
                pairings.push(Pairing { first, second });
            }
        }
    }
    let mut out = Vec::new();
    let mut number = 0;
    for round in 0..rounds {
        for (p, pairing) in pairings.iter().enumerate() {
            for index in 0..games {
                number += 1;
                let (black, white) = if index % 2 == 0 {
                    (pairing.first, pairing.second)
                } else {
                    (pairing.second, pairing.first)
                };
                out.push(ScheduledGame {
                    number,
                    round: round + 1,
                    pairing: p,
                    index,
                    black,
                    white,
                    opening: round as usize % openings.max(1),
                });
            }
        }
    }
    (pairings, out)
}

/// The finished games' results, by game number.
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    results: BTreeMap<u64, (Decision, Reason)>,
}

impl Scoreboard {
    /// Counts a game.
    pub fn add(&mut self, number: u64, result: Decision, reason: Reason) {
        if result != Decision::None {
            self.results.insert(number, (result, reason));
        }
    }

    /// Games counted.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether no game is counted.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Whether game `number` is counted.
    pub fn contains(&self, number: u64) -> bool {
        self.results.contains_key(&number)
    }

    /// The result of `game` for `engine` (which must play in it).
    fn score(&self, game: &ScheduledGame, engine: usize) -> Option<GameResult> {
        let (result, _) = self.results.get(&game.number)?;
        let side = if game.black == engine {
            Color::Black
        } else {
            Color::White
        };
        Some(match result {
            Decision::Win(w) if *w == side => GameResult::Win,
            Decision::Win(_) => GameResult::Loss,
            _ => GameResult::Draw,
        })
    }

    /// The results of `pairing` from its first engine's point of view, in schedule order:
    /// game pairs (both games finished) and single games (the other game of the pair not
    /// finished, or an odd game out).
    pub fn pairing_results(
        &self,
        pairing: usize,
        first: usize,
        games: &[ScheduledGame],
    ) -> (Vec<(GameResult, GameResult)>, Vec<GameResult>) {
        let mut pairs = Vec::new();
        let mut singles = Vec::new();
        let of = |g: &ScheduledGame| self.score(g, first);
        let mine: Vec<&ScheduledGame> = games.iter().filter(|g| g.pairing == pairing).collect();
        let mut i = 0;
        while i < mine.len() {
            let g = mine[i];
            let mate = mine.get(i + 1).filter(|m| {
                m.round == g.round && g.index.is_multiple_of(2) && m.index == g.index + 1
            });
            match (of(g), mate.and_then(|m| of(m))) {
                (Some(a), Some(b)) => pairs.push((a, b)),
                (a, b) => singles.extend(a.into_iter().chain(b)),
            }
            i += if mate.is_some() { 2 } else { 1 };
        }
        (pairs, singles)
    }

    /// Counts by reason, for the summary.
    pub fn reasons(&self) -> BTreeMap<&'static str, u64> {
        let mut m = BTreeMap::new();
        for (_, reason) in self.results.values() {
            *m.entry(reason.name()).or_insert(0) += 1;
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_of_pairs_and_rounds() {
        let (pairings, games) = schedule(3, false, 2, 2, 5);
        assert_eq!(pairings.len(), 3);
        assert_eq!(games.len(), 12);
        assert_eq!(
            games[..4]
                .iter()
                .map(|g| (g.number, g.round, g.black, g.white, g.opening))
                .collect::<Vec<_>>(),
            vec![
                (1, 1, 0, 1, 0),
                (2, 1, 1, 0, 0),
                (3, 1, 0, 2, 0),
                (4, 1, 2, 0, 0)
            ]
        );
        assert_eq!((games[6].round, games[6].opening), (2, 1));
        let (pairings, games) = schedule(3, true, 1, 2, 1);
        assert_eq!(
            pairings,
            vec![
                Pairing {
                    first: 0,
                    second: 1
                },
                Pairing {
                    first: 0,
                    second: 2
                }
            ]
        );
        assert_eq!(games.len(), 4);
        // Openings wrap around.
        let (_, games) = schedule(2, false, 3, 2, 2);
        assert_eq!(
            games.iter().map(|g| g.opening).collect::<Vec<_>>(),
            [0, 0, 1, 1, 0, 0]
        );
    }

    #[test]
    fn game_pairs_from_the_first_engines_view() {
        let (_, games) = schedule(2, false, 2, 3, 1);
        let mut board = Scoreboard::default();
        // Round 1: engine 0 (Black in game 1) wins, then draws as White; game 3 (odd one out).
        board.add(1, Decision::Win(Color::Black), Reason::Mate);
        board.add(2, Decision::Draw, Reason::Repetition);
        board.add(3, Decision::Win(Color::White), Reason::Resign);
        // Round 2: only game 5 (engine 0 White) finished; game 4 did not.
        board.add(5, Decision::Win(Color::White), Reason::Time);
        board.add(6, Decision::None, Reason::Interrupted);
        let (pairs, singles) = board.pairing_results(0, 0, &games);
        assert_eq!(pairs, vec![(GameResult::Win, GameResult::Draw)]);
        assert_eq!(singles, vec![GameResult::Loss, GameResult::Win]);
        assert_eq!(board.len(), 4);
    }
}
