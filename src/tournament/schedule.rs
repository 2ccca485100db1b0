//! The schedule of a match and its score: who plays whom with which colour and opening, and
//! the results by game number, read back as game pairs for the statistics.

use crate::tournament::game::result::{Decision, Reason};
/// A game's result from one engine's point of view (the statistics' kind).
use crate::{Color, GameResult};
use std::collections::{BTreeMap, HashMap};

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
    /// Black's engine.
    pub black: usize,
    /// White's engine.
    pub white: usize,
    /// Index into the (ordered) openings.
    pub opening: usize,
    /// The other game of its game pair (same round and opening, colours swapped), if it has
    /// one.
    pub partner: Option<u64>,
}

/// The shape of a match's schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Engines in the match.
    pub engines: usize,
    /// The first engine against each other one only.
    pub gauntlet: bool,
    /// Rounds.
    pub rounds: u32,
    /// Games per pairing and round.
    pub games: u32,
    /// Colours fixed (the pairing's first engine Black in every game).
    pub noswap: bool,
    /// Openings to take in turn, one per round.
    pub openings: usize,
}

/// The pairings (every pair, or the first engine against each other one with `gauntlet`) and
/// the games: for each round, for each pairing, `games` games from the round's opening.
///
/// The colours alternate from one game of a pairing to the next, across rounds too (the first
/// engine Black in the pairing's 1st, 3rd, 5th … game), as fastchess and cutechess do; with
/// `noswap` the first engine is Black in every game. Games 2k and 2k + 1 of a round (from one
/// opening, the colours swapped) are a game pair; with an odd `games` the last game of each
/// round has no partner, and with `noswap` no game has one.
pub fn schedule(shape: Shape) -> (Vec<Pairing>, Vec<ScheduledGame>) {
    let mut pairings = Vec::new();
    for first in 0..shape.engines {
        for second in first + 1..shape.engines {
            if !shape.gauntlet || first == 0 {
                pairings.push(Pairing { first, second });
            }
        }
    }
    let mut out = Vec::new();
    let mut number = 0;
    for round in 0..shape.rounds {
        for (p, pairing) in pairings.iter().enumerate() {
            for index in 0..shape.games {
                number += 1;
                // The pairing's game count so far decides the colours.
                let nth = u64::from(round) * u64::from(shape.games) + u64::from(index);
                let (black, white) = if shape.noswap || nth % 2 == 0 {
                    (pairing.first, pairing.second)
                } else {
                    (pairing.second, pairing.first)
                };
                let partner = match index % 2 {
                    _ if shape.noswap => None,
                    0 if index + 1 < shape.games => Some(number + 1),
                    0 => None,
                    _ => Some(number - 1),
                };
                out.push(ScheduledGame {
                    number,
                    round: round + 1,
                    pairing: p,
                    black,
                    white,
                    opening: round as usize % shape.openings.max(1),
                    partner,
                });
            }
        }
    }
    (pairings, out)
}

/// The finished games' results, by game number, and which games repeated an earlier one.
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    results: BTreeMap<u64, (Decision, Reason)>,
    /// Each distinct game's fingerprint, and the game that first played it.
    seen: HashMap<u128, u64>,
    /// The games that repeated an earlier one move for move: number → the earlier game.
    repeats: BTreeMap<u64, u64>,
}

/// A pairing's finished games as the statistics take them, from its first engine's point of
/// view, in schedule order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairingGames {
    /// Game pairs whose two games both finished.
    pub pairs: Vec<(GameResult, GameResult)>,
    /// Finished games that have no partner in the schedule (an odd `--games`, or `--noswap`).
    pub unpaired: Vec<GameResult>,
    /// Finished games whose partner has no result (yet).
    pub waiting: Vec<GameResult>,
    /// Finished games that repeated an earlier game of the match move for move.
    pub repeated: u64,
    /// Of those, the games left out (when each distinct game is counted once).
    pub left_out: u64,
}

impl PairingGames {
    /// Finished games, whether counted or left out.
    pub fn finished(&self) -> u64 {
        (2 * self.pairs.len() + self.unpaired.len() + self.waiting.len()) as u64 + self.left_out
    }
}

impl Scoreboard {
    /// Counts a game.
    pub fn add(&mut self, number: u64, result: Decision, reason: Reason) {
        if result != Decision::None {
            self.results.insert(number, (result, reason));
        }
    }

    /// Notes game `number`'s fingerprint (see `output::fingerprint`): returns the earlier game
    /// it repeats, if one had the same.
    pub fn fingerprint(&mut self, number: u64, fingerprint: u128) -> Option<u64> {
        let first = *self.seen.entry(fingerprint).or_insert(number);
        (first != number).then(|| {
            self.repeats.insert(number, first);
            first
        })
    }

    /// The earlier game that game `number` repeated, if it did.
    pub fn repeats(&self, number: u64) -> Option<u64> {
        self.repeats.get(&number).copied()
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

    /// The finished games of `pairing` from its first engine's point of view (`games` is the
    /// whole schedule, game n at index n − 1). With `distinct`, a game that repeated an
    /// earlier one is left out, and a pair only when both its games did.
    pub fn pairing_games(
        &self,
        pairing: usize,
        first: usize,
        games: &[ScheduledGame],
        distinct: bool,
    ) -> PairingGames {
        let mut out = PairingGames::default();
        let of = |g: &ScheduledGame| self.score(g, first);
        let repeat = |g: &ScheduledGame| self.repeats.contains_key(&g.number);
        for g in games.iter().filter(|g| g.pairing == pairing) {
            let Some(result) = of(g) else { continue };
            out.repeated += u64::from(repeat(g));
            let partner = g.partner.and_then(|n| games.get(n as usize - 1));
            match partner.map(|p| (p, of(p))) {
                Some((p, Some(other))) => {
                    // The pair, once: at its first game.
                    if g.number < p.number {
                        if distinct && repeat(g) && repeat(p) {
                            out.left_out += 2;
                        } else {
                            out.pairs.push((result, other));
                        }
                    }
                }
                _ if distinct && repeat(g) => out.left_out += 1,
                Some((_, None)) => out.waiting.push(result),
                None => out.unpaired.push(result),
            }
        }
        out
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

    fn shape(engines: usize, rounds: u32, games: u32, openings: usize) -> Shape {
        Shape {
            engines,
            gauntlet: false,
            rounds,
            games,
            noswap: false,
            openings,
        }
    }

    /// (number, round, black, white, opening, partner) of each game.
    fn rows(games: &[ScheduledGame]) -> Vec<(u64, u32, usize, usize, usize, Option<u64>)> {
        games
            .iter()
            .map(|g| (g.number, g.round, g.black, g.white, g.opening, g.partner))
            .collect()
    }

    #[test]
    fn schedule_of_pairs_and_rounds() {
        let (pairings, games) = schedule(shape(3, 2, 2, 5));
        assert_eq!(pairings.len(), 3);
        assert_eq!(games.len(), 12);
        assert_eq!(
            rows(&games[..4]),
            vec![
                (1, 1, 0, 1, 0, Some(2)),
                (2, 1, 1, 0, 0, Some(1)),
                (3, 1, 0, 2, 0, Some(4)),
                (4, 1, 2, 0, 0, Some(3))
            ]
        );
        assert_eq!((games[6].round, games[6].opening), (2, 1));
        let (pairings, games) = schedule(Shape {
            gauntlet: true,
            ..shape(3, 1, 2, 1)
        });
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
        let (_, games) = schedule(shape(2, 3, 2, 2));
        assert_eq!(
            games.iter().map(|g| g.opening).collect::<Vec<_>>(),
            [0, 0, 1, 1, 0, 0]
        );
    }

    #[test]
    fn colours_alternate_across_rounds_whatever_the_games_per_round() {
        // One game per round: engine 0 Black, White, Black, White (cutechess's and fastchess's
        // alternation by game), and no game has a partner.
        let (_, games) = schedule(shape(2, 4, 1, 1));
        assert_eq!(
            rows(&games),
            vec![
                (1, 1, 0, 1, 0, None),
                (2, 2, 1, 0, 0, None),
                (3, 3, 0, 1, 0, None),
                (4, 4, 1, 0, 0, None)
            ]
        );
        // Three per round: B W B, then W B W; games 1-2 and 4-5 are pairs, 3 and 6 have none.
        let (_, games) = schedule(shape(2, 2, 3, 1));
        assert_eq!(
            rows(&games),
            vec![
                (1, 1, 0, 1, 0, Some(2)),
                (2, 1, 1, 0, 0, Some(1)),
                (3, 1, 0, 1, 0, None),
                (4, 2, 1, 0, 0, Some(5)),
                (5, 2, 0, 1, 0, Some(4)),
                (6, 2, 1, 0, 0, None)
            ]
        );
        // Per pairing, not per game number: with two pairings of one game per round, each
        // pairing still alternates (a global alternation would keep both fixed).
        let (_, games) = schedule(Shape {
            gauntlet: true,
            ..shape(3, 2, 1, 1)
        });
        assert_eq!(
            games.iter().map(|g| (g.black, g.white)).collect::<Vec<_>>(),
            [(0, 1), (0, 2), (1, 0), (2, 0)]
        );
        // --noswap: the first engine Black in every game, no pairs.
        let (_, games) = schedule(Shape {
            noswap: true,
            ..shape(2, 2, 2, 1)
        });
        assert!(games
            .iter()
            .all(|g| (g.black, g.white, g.partner) == (0, 1, None)));
    }

    #[test]
    fn game_pairs_from_the_first_engines_view() {
        let (_, games) = schedule(shape(2, 2, 3, 1));
        let mut board = Scoreboard::default();
        // Round 1: engine 0 (Black in game 1) wins, then draws as White; game 3 (no partner):
        // engine 0 is Black and White wins.
        board.add(1, Decision::Win(Color::Black), Reason::Mate);
        board.add(2, Decision::Draw, Reason::Repetition);
        board.add(3, Decision::Win(Color::White), Reason::Resign);
        // Round 2: only game 5 (engine 0 Black) finished, a win for White; game 4 did not,
        // game 6 was interrupted (not counted).
        board.add(5, Decision::Win(Color::White), Reason::Time);
        board.add(6, Decision::None, Reason::Interrupted);
        let g = board.pairing_games(0, 0, &games, false);
        assert_eq!(g.pairs, vec![(GameResult::Win, GameResult::Draw)]);
        assert_eq!(g.unpaired, vec![GameResult::Loss]);
        assert_eq!(g.waiting, vec![GameResult::Loss]);
        assert_eq!((g.repeated, g.left_out, g.finished()), (0, 0, 4));
        assert_eq!(board.len(), 4);
    }

    #[test]
    fn repeated_games_are_noted_and_can_be_left_out() {
        let (_, games) = schedule(shape(2, 3, 2, 1));
        let mut board = Scoreboard::default();
        // Games 3-4 repeat 1-2 (both), game 5 repeats game 1's fingerprint, 6 is new.
        for (n, fp) in [(1, 10), (2, 20), (4, 20), (3, 10), (5, 10), (6, 60)] {
            let earlier = board.fingerprint(n, fp);
            assert_eq!(
                earlier,
                match n {
                    3 | 5 => Some(1),
                    4 => Some(2),
                    _ => None,
                },
                "game {n}"
            );
            board.add(n, Decision::Draw, Reason::Repetition);
        }
        assert_eq!(board.repeats(4), Some(2));
        assert_eq!(board.repeats(6), None);
        let all = board.pairing_games(0, 0, &games, false);
        assert_eq!((all.pairs.len(), all.repeated, all.left_out), (3, 3, 0));
        // Distinct: pair 3-4 (both repeats) left out; pair 5-6 stays (6 is new).
        let distinct = board.pairing_games(0, 0, &games, true);
        assert_eq!((distinct.pairs.len(), distinct.repeated), (2, 3));
        assert_eq!((distinct.left_out, distinct.finished()), (2, 6));
    }
}
