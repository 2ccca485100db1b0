//! The schedule of a match and its score: who plays whom with which colour and opening, and
//! the finished games as running tallies per pairing (game pairs, single games, repeats),
//! which the statistics read without going over the games again.

use crate::game::result::{Decision, Reason};
use crate::stats::elo::{Tally, Wdl};
/// A game's result from one engine's point of view (the statistics' kind).
use saikoro_core::{Color, GameResult};
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

/// The finished games as running tallies, each game added once as it ends: how many are
/// counted and why they ended, which repeated an earlier game, and each pairing's figures.
/// Nothing here is recounted from the schedule or the list of games, so that the statistics
/// after every game (the SPRT's stop, the block every `--ratinginterval` games) cost the same
/// in the 100,000th game as in the first.
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    /// Which games are counted: bit `n − 1` for game `n`.
    counted: Vec<u64>,
    /// Games counted.
    len: usize,
    /// Games counted by reason.
    reasons: BTreeMap<&'static str, u64>,
    /// Each distinct game's fingerprint, and the game that first played it.
    seen: HashMap<u128, u64>,
    /// Each pairing's tally.
    pairings: Vec<PairingTally>,
    /// `--distinct-games`: a game that repeated an earlier one is left out of the figures.
    distinct: bool,
}

/// One pairing's finished games, from its first engine's point of view.
#[derive(Clone, Debug, Default)]
struct PairingTally {
    /// The engine whose results are counted.
    first: usize,
    /// Game pairs whose two games both finished.
    pairs: Tally,
    /// Finished games that have no partner in the schedule.
    unpaired: Wdl,
    /// Finished games whose partner has no result yet: number → (result, repeated). Only the
    /// pairs in progress, so a handful: a pair leaves it when its second game ends.
    pending: HashMap<u64, (GameResult, bool)>,
    /// Finished games that repeated an earlier one.
    repeated: u64,
    /// Games left out (with `distinct`), but for those in `pending`.
    left_out: u64,
}

/// A pairing's finished games as the statistics take them, from its first engine's point of
/// view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairingGames {
    /// Game pairs whose two games both finished (both games and the pair).
    pub pairs: Tally,
    /// Finished games that have no partner in the schedule (an odd `--games`, or `--noswap`).
    pub unpaired: Wdl,
    /// Finished games whose partner has no result (yet).
    pub waiting: Wdl,
    /// Finished games that repeated an earlier game of the match move for move.
    pub repeated: u64,
    /// Of those, the games left out (when each distinct game is counted once).
    pub left_out: u64,
}

impl PairingGames {
    /// Finished games, whether counted or left out.
    pub fn finished(&self) -> u64 {
        self.pairs.wdl.games() + self.unpaired.games() + self.waiting.games() + self.left_out
    }
}

/// The result of `game` for `engine` (which plays in it).
fn result_for(game: &ScheduledGame, engine: usize, result: Decision) -> GameResult {
    let side = if game.black == engine {
        Color::Black
    } else {
        Color::White
    };
    match result {
        Decision::Win(w) if w == side => GameResult::Win,
        Decision::Win(_) => GameResult::Loss,
        _ => GameResult::Draw,
    }
}

impl PairingTally {
    /// Counts a finished game: on its own, as the first game of a pair (it waits for its
    /// partner), or as the second (the pair is complete). With `distinct`, a game that
    /// repeated an earlier one is left out, and a pair only when both its games did.
    fn add(&mut self, game: &ScheduledGame, result: GameResult, repeated: bool, distinct: bool) {
        self.repeated += u64::from(repeated);
        let Some(partner) = game.partner else {
            if distinct && repeated {
                self.left_out += 1;
            } else {
                self.unpaired.add(result);
            }
            return;
        };
        let Some((other, other_repeated)) = self.pending.remove(&partner) else {
            self.pending.insert(game.number, (result, repeated));
            return;
        };
        if distinct && repeated && other_repeated {
            self.left_out += 2;
        } else if game.number < partner {
            self.pairs.add_pair(result, other);
        } else {
            self.pairs.add_pair(other, result);
        }
    }

    /// The figures as they stand.
    fn games(&self, distinct: bool) -> PairingGames {
        let mut out = PairingGames {
            pairs: self.pairs,
            unpaired: self.unpaired,
            waiting: Wdl::default(),
            repeated: self.repeated,
            left_out: self.left_out,
        };
        for &(result, repeated) in self.pending.values() {
            if distinct && repeated {
                out.left_out += 1;
            } else {
                out.waiting.add(result);
            }
        }
        out
    }
}

impl Scoreboard {
    /// No game yet, for a match of `pairings`; `distinct` for `--distinct-games`.
    pub fn new(pairings: &[Pairing], distinct: bool) -> Scoreboard {
        Scoreboard {
            pairings: pairings
                .iter()
                .map(|p| PairingTally {
                    first: p.first,
                    ..PairingTally::default()
                })
                .collect(),
            distinct,
            ..Scoreboard::default()
        }
    }

    /// Counts `game` (once: a game already counted is not counted again); `repeated`: it
    /// repeated an earlier game (see [`Scoreboard::fingerprint`]). A game without a result
    /// (interrupted) counts nothing.
    pub fn add(&mut self, game: &ScheduledGame, result: Decision, reason: Reason, repeated: bool) {
        if result == Decision::None || self.contains(game.number) {
            return;
        }
        let i = (game.number - 1) as usize;
        if self.counted.len() <= i / 64 {
            self.counted.resize(i / 64 + 1, 0);
        }
        self.counted[i / 64] |= 1 << (i % 64);
        self.len += 1;
        *self.reasons.entry(reason.name()).or_insert(0) += 1;
        if let Some(t) = self.pairings.get_mut(game.pairing) {
            let r = result_for(game, t.first, result);
            t.add(game, r, repeated, self.distinct);
        }
    }

    /// Notes game `number`'s fingerprint (see `output::fingerprint`): returns the earlier game
    /// it repeats, if one had the same.
    pub fn fingerprint(&mut self, number: u64, fingerprint: u128) -> Option<u64> {
        let first = *self.seen.entry(fingerprint).or_insert(number);
        (first != number).then_some(first)
    }

    /// Games counted.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no game is counted.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether game `number` is counted.
    pub fn contains(&self, number: u64) -> bool {
        let Some(i) = number.checked_sub(1).map(|i| i as usize) else {
            return false;
        };
        self.counted
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// The finished games of `pairing` from its first engine's point of view.
    pub fn pairing_games(&self, pairing: usize) -> PairingGames {
        self.pairings
            .get(pairing)
            .map(|t| t.games(self.distinct))
            .unwrap_or_default()
    }

    /// Counts by reason, for the summary.
    pub fn reasons(&self) -> BTreeMap<&'static str, u64> {
        self.reasons.clone()
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

    /// A scoreboard of `games`'s match (two engines, one pairing).
    fn board_of(games: &[ScheduledGame], distinct: bool) -> Scoreboard {
        let first = games
            .iter()
            .map(|g| g.black.min(g.white))
            .min()
            .unwrap_or(0);
        let pairings = [Pairing {
            first,
            second: first + 1,
        }];
        Scoreboard::new(&pairings, distinct)
    }

    #[test]
    fn game_pairs_from_the_first_engines_view() {
        use GameResult::{Draw, Loss, Win};
        let (_, games) = schedule(shape(2, 2, 3, 1));
        let mut board = board_of(&games, false);
        let mut add = |n: usize, d, r| board.add(&games[n - 1], d, r, false);
        // Round 1: engine 0 (Black in game 1) wins, then draws as White; game 3 (no partner):
        // engine 0 is Black and White wins.
        add(1, Decision::Win(Color::Black), Reason::Mate);
        add(2, Decision::Draw, Reason::Repetition);
        add(3, Decision::Win(Color::White), Reason::Resign);
        // Round 2: only game 5 (engine 0 Black) finished, a win for White; game 4 did not,
        // game 6 was interrupted (not counted).
        add(5, Decision::Win(Color::White), Reason::Time);
        add(6, Decision::None, Reason::Interrupted);
        let g = board.pairing_games(0);
        let mut pair = Tally::default();
        pair.add_pair(Win, Draw);
        assert_eq!(g.pairs, pair);
        assert_eq!(g.unpaired, Wdl::new(0, 0, 1));
        assert_eq!(g.waiting, Wdl::new(0, 0, 1));
        assert_eq!((g.repeated, g.left_out, g.finished()), (0, 0, 4));
        assert_eq!(board.len(), 4);
        assert!(board.contains(5) && !board.contains(4) && !board.contains(6));
        // Game 4 (engine 0 White) ends in a loss for White: pair (4, 5) is complete, LL.
        board.add(&games[3], Decision::Win(Color::Black), Reason::Mate, false);
        let g = board.pairing_games(0);
        pair.add_pair(Loss, Loss);
        assert_eq!((g.pairs, g.waiting), (pair, Wdl::default()));
        assert_eq!(board.reasons().get("mate"), Some(&2));
    }

    #[test]
    fn repeated_games_are_noted_and_can_be_left_out() {
        let (_, games) = schedule(shape(2, 3, 2, 1));
        let mut all = board_of(&games, false);
        let mut distinct = board_of(&games, true);
        // Games 3-4 repeat 1-2 (both), game 5 repeats game 1's fingerprint, 6 is new.
        for (n, fp) in [(1, 10), (2, 20), (4, 20), (3, 10), (5, 10), (6, 60)] {
            let earlier = all.fingerprint(n, fp);
            assert_eq!(
                earlier,
                match n {
                    3 | 5 => Some(1),
                    4 => Some(2),
                    _ => None,
                },
                "game {n}"
            );
            let g = &games[n as usize - 1];
            all.add(g, Decision::Draw, Reason::Repetition, earlier.is_some());
            distinct.add(g, Decision::Draw, Reason::Repetition, earlier.is_some());
        }
        let all = all.pairing_games(0);
        assert_eq!(
            (all.pairs.pentanomial.pairs(), all.repeated, all.left_out),
            (3, 3, 0)
        );
        // Distinct: pair 3-4 (both repeats) left out; pair 5-6 stays (6 is new).
        let distinct = distinct.pairing_games(0);
        assert_eq!(
            (distinct.pairs.pentanomial.pairs(), distinct.repeated),
            (2, 3)
        );
        assert_eq!((distinct.left_out, distinct.finished()), (2, 6));
    }

    /// The figures of `pairing` recounted from every finished game over the whole schedule,
    /// as the statistics were once taken: the reference the running tallies must equal.
    fn recount(
        games: &[ScheduledGame],
        first: usize,
        pairing: usize,
        results: &BTreeMap<u64, (Decision, bool)>,
        distinct: bool,
    ) -> PairingGames {
        let mut out = PairingGames::default();
        let of = |g: &ScheduledGame| {
            let &(d, _) = results.get(&g.number)?;
            Some(result_for(g, first, d))
        };
        let repeat = |g: &ScheduledGame| results.get(&g.number).is_some_and(|r| r.1);
        for g in games.iter().filter(|g| g.pairing == pairing) {
            let Some(result) = of(g) else { continue };
            out.repeated += u64::from(repeat(g));
            let partner = g.partner.and_then(|n| games.get(n as usize - 1));
            match partner.map(|p| (p, of(p))) {
                Some((p, Some(other))) => {
                    if g.number < p.number {
                        if distinct && repeat(g) && repeat(p) {
                            out.left_out += 2;
                        } else {
                            out.pairs.add_pair(result, other);
                        }
                    }
                }
                _ if distinct && repeat(g) => out.left_out += 1,
                Some((_, None)) => out.waiting.add(result),
                None => out.unpaired.add(result),
            }
        }
        out
    }

    /// Games finishing in a random order (as with several at once, or a resumed match with
    /// holes), with random results and repeats, in matches of every shape: after each game the
    /// running tallies equal a recount over the whole schedule.
    #[test]
    fn running_tallies_equal_a_recount_after_every_game() {
        let mut rng = saikoro_core::RandomMover::new(28);
        let shapes = [
            shape(2, 12, 2, 1),
            shape(2, 9, 3, 1),
            shape(2, 20, 1, 1),
            shape(3, 5, 4, 1),
            Shape {
                noswap: true,
                ..shape(2, 8, 2, 1)
            },
            Shape {
                gauntlet: true,
                ..shape(4, 4, 2, 1)
            },
        ];
        for (k, shape) in shapes.into_iter().enumerate() {
            let (pairings, games) = schedule(shape);
            for distinct in [false, true] {
                let mut order: Vec<u64> = (1..=games.len() as u64).collect();
                // Mostly in order, some games late: swap neighbours now and then.
                for i in 1..order.len() {
                    if rng.below(3) == 0 {
                        let j = i - rng.below(i.min(4) as u64 + 1) as usize;
                        order.swap(i, j);
                    }
                }
                let mut board = Scoreboard::new(&pairings, distinct);
                let mut results = BTreeMap::new();
                for &n in &order {
                    let g = &games[n as usize - 1];
                    let decision = match rng.below(5) {
                        0 => Decision::None,
                        1 => Decision::Draw,
                        2 => Decision::Win(Color::Black),
                        _ => Decision::Win(Color::White),
                    };
                    let repeated = rng.below(3) == 0;
                    board.add(g, decision, Reason::Mate, repeated);
                    if decision != Decision::None {
                        results.insert(n, (decision, repeated));
                    }
                    assert_eq!(board.len(), results.len());
                    for (p, pairing) in pairings.iter().enumerate() {
                        let want = recount(&games, pairing.first, p, &results, distinct);
                        assert_eq!(board.pairing_games(p), want, "shape {k}, game {n}");
                    }
                }
            }
        }
    }
}
