//! Random self-play: the random player against itself, each game ended by the rules.

use crate::{Choice, Color, EnteringKingRule, Game, Outcome, Position, RandomMover, Repetition};
use std::fmt;
use std::time::Duration;

/// Plays one game from `start` until it ends by the rules (mate, fourfold repetition,
/// perpetual check, a winning declaration under `rule`) or `max_plies` moves have been played.
pub fn play_game(
    player: &mut RandomMover,
    start: &Position,
    max_plies: u32,
    rule: EnteringKingRule,
) -> (Game, Outcome) {
    let mut game = Game::new(start.clone());
    loop {
        match game.repetition() {
            Repetition::None => {}
            Repetition::Draw => return (game, Outcome::Repetition),
            Repetition::PerpetualCheck { loser } => {
                return (game, Outcome::PerpetualCheck { winner: !loser })
            }
        }
        if game.len() >= max_plies as usize {
            return (game, Outcome::MaxMoves);
        }
        let side = game.position().side_to_move();
        match player.choose(&mut game, rule) {
            Choice::Move(m) => game.play(m),
            Choice::Resign => return (game, Outcome::Checkmate { winner: !side }),
            Choice::DeclareWin => return (game, Outcome::Declaration { winner: side }),
        }
    }
}

/// Counts and lengths over a series of games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Plies over all games.
    pub total_plies: u64,
    /// Shortest game, in plies.
    pub min_plies: u64,
    /// Longest game, in plies.
    pub max_plies: u64,
    /// Games won by mate, by winner (Black, White).
    pub checkmates: [u64; 2],
    /// Fourfold repetitions (draws).
    pub repetitions: u64,
    /// Perpetual-check losses, by winner.
    pub perpetual_checks: [u64; 2],
    /// Winning declarations, by winner.
    pub declarations: [u64; 2],
    /// Games stopped at the ply limit.
    pub max_moves: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl Summary {
    /// Adds one finished game.
    pub fn add(&mut self, plies: u64, outcome: Outcome) {
        if self.games == 0 || plies < self.min_plies {
            self.min_plies = plies;
        }
        self.max_plies = self.max_plies.max(plies);
        self.games += 1;
        self.total_plies += plies;
        let side = |c: Color| c.index();
        match outcome {
            Outcome::Checkmate { winner } => self.checkmates[side(winner)] += 1,
            Outcome::Repetition => self.repetitions += 1,
            Outcome::PerpetualCheck { winner } => self.perpetual_checks[side(winner)] += 1,
            Outcome::Declaration { winner } => self.declarations[side(winner)] += 1,
            Outcome::MaxMoves => self.max_moves += 1,
        }
    }

    /// Games per second of wall time.
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mean = self.total_plies as f64 / (self.games.max(1)) as f64;
        let pair = |v: [u64; 2]| format!("{} (black {}, white {})", v[0] + v[1], v[0], v[1]);
        writeln!(f, "games: {}", self.games)?;
        writeln!(
            f,
            "plies: mean {mean:.1}, min {}, max {}, total {}",
            self.min_plies, self.max_plies, self.total_plies
        )?;
        writeln!(f, "checkmate: {}", pair(self.checkmates))?;
        writeln!(f, "repetition: {}", self.repetitions)?;
        writeln!(f, "perpetual check: {}", pair(self.perpetual_checks))?;
        writeln!(f, "declaration: {}", pair(self.declarations))?;
        writeln!(f, "max plies: {}", self.max_moves)?;
        write!(
            f,
            "time: {:.3} s, {:.1} games/s, {:.0} plies/s",
            self.elapsed.as_secs_f64(),
            self.games_per_second(),
            self.total_plies as f64 / self.elapsed.as_secs_f64().max(1e-9)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_end_by_the_rules_and_replay_from_the_seed() {
        let start = Position::startpos();
        let mut a = RandomMover::new(7);
        let mut b = RandomMover::new(7);
        for _ in 0..3 {
            let (ga, oa) = play_game(&mut a, &start, 4000, EnteringKingRule::CsaRule27);
            let (gb, ob) = play_game(&mut b, &start, 4000, EnteringKingRule::CsaRule27);
            assert_eq!(oa, ob);
            assert!(ga.moves().eq(gb.moves()));
            match oa {
                Outcome::Checkmate { winner } => {
                    assert!(ga.position().is_checkmate() || !ga.position().has_legal_move());
                    assert_eq!(winner, !ga.position().side_to_move());
                }
                Outcome::MaxMoves => assert_eq!(ga.len(), 4000),
                Outcome::Repetition | Outcome::PerpetualCheck { .. } => {
                    assert_eq!(ga.occurrences(), 4)
                }
                Outcome::Declaration { .. } => {
                    assert!(ga.can_declare_win(EnteringKingRule::CsaRule27))
                }
            }
        }
    }

    #[test]
    fn ply_cap_ends_the_game() {
        let mut p = RandomMover::new(1);
        let (g, o) = play_game(
            &mut p,
            &Position::startpos(),
            10,
            EnteringKingRule::CsaRule27,
        );
        assert_eq!(o, Outcome::MaxMoves);
        assert_eq!(g.len(), 10);
    }
}
