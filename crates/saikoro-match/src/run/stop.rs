//! What ends a match before its last game: the stop rules the match loop asks before the first
//! game, after each counted game, and once the games are over. [`SprtBound`]: the SPRT crossed
//! a bound (`--sprt`); [`FailureLimit`]: an engine failed in too many games in a row
//! (`--max-failures`, after fastchess's `timeout_tracker`); [`Interrupt`]: Ctrl-C.
//!
//! A rule only says how the match should end; the loop logs it, stops the workers and keeps
//! the first ending it is told.

use crate::output::sink::Finished;
use crate::output::style::count;
use crate::run::standings;
use crate::schedule::Scoreboard;
use crate::types::{Control, Ending, Match};
use saikoro_core::Color;
use std::sync::atomic::Ordering;

/// A reason to end the match early. Each hook returns the ending it calls for.
pub trait StopRule {
    /// Before the first game (`board` holds the games of a resumed match).
    fn before_start(&mut self, _m: &Match, _board: &Scoreboard) -> Option<Ending> {
        None
    }

    /// After a counted game: `board` holds it with the earlier ones.
    fn after_game(&mut self, _game: &Finished<'_>, _board: &Scoreboard) -> Option<Ending> {
        None
    }

    /// Once every worker has stopped, if nothing else ended the match.
    fn at_end(&mut self) -> Option<Ending> {
        None
    }
}

/// The SPRT of the first pairing (`--sprt` needs two engines) at a bound.
#[derive(Debug, Default)]
pub struct SprtBound;

impl StopRule for SprtBound {
    fn before_start(&mut self, m: &Match, board: &Scoreboard) -> Option<Ending> {
        standings::sprt_conclusion(m, board).map(Ending::Sprt)
    }

    fn after_game(&mut self, game: &Finished<'_>, board: &Scoreboard) -> Option<Ending> {
        standings::sprt_conclusion(game.m, board).map(Ending::Sprt)
    }
}

/// An engine that failed (crashed or did not answer) in `limit` of its games in a row; a game
/// it did not fail starts its count again. A limit of 0 never ends the match.
#[derive(Debug)]
pub struct FailureLimit {
    limit: u32,
    /// Each engine's failures in a row.
    in_a_row: Vec<u32>,
}

impl FailureLimit {
    /// Counts the failures of `engines` engines against `limit`.
    pub fn new(limit: u32, engines: usize) -> FailureLimit {
        FailureLimit {
            limit,
            in_a_row: vec![0; engines],
        }
    }

    /// Counts a game of engines `black` and `white` in which `failed`'s engine failed;
    /// returns the engine that has reached the limit, with its count.
    fn count(&mut self, black: usize, white: usize, failed: Option<Color>) -> Option<(usize, u32)> {
        let mut reached = None;
        for (side, engine) in [(Color::Black, black), (Color::White, white)] {
            if failed == Some(side) {
                self.in_a_row[engine] += 1;
                if self.limit > 0 && self.in_a_row[engine] >= self.limit {
                    reached = Some((engine, self.in_a_row[engine]));
                }
            } else {
                self.in_a_row[engine] = 0;
            }
        }
        reached
    }
}

impl StopRule for FailureLimit {
    fn after_game(&mut self, game: &Finished<'_>, _: &Scoreboard) -> Option<Ending> {
        let end = &game.record.end;
        let (engine, n) = self.count(game.game.black, game.game.white, end.failed)?;
        Some(Ending::EngineFailed(format!(
            "engine {} failed in {} in a row (last: {}): ending the match",
            game.m.names[engine],
            count(n as usize, "game", "games"),
            end.detail
        )))
    }
}

/// Ctrl-C: a match whose new games were stopped, and that nothing else ended, was interrupted.
#[derive(Debug)]
pub struct Interrupt<'a> {
    control: &'a Control,
}

impl<'a> Interrupt<'a> {
    /// Watches the flags the Ctrl-C handler sets.
    pub fn new(control: &'a Control) -> Interrupt<'a> {
        Interrupt { control }
    }
}

impl StopRule for Interrupt<'_> {
    fn at_end(&mut self) -> Option<Ending> {
        self.control
            .stop_new
            .load(Ordering::SeqCst)
            .then_some(Ending::Interrupted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_stop_at_the_limit() {
        // Engine 0 plays Black against engine 1, limit 3.
        let mut f = FailureLimit::new(3, 2);
        assert_eq!(f.count(0, 1, Some(Color::Black)), None); // 1 in a row
        assert_eq!(f.count(1, 0, Some(Color::White)), None); // 2: colours do not matter
        assert_eq!(f.count(0, 1, Some(Color::Black)), Some((0, 3)));
        // Still failing: the limit holds on.
        assert_eq!(f.count(0, 1, Some(Color::Black)), Some((0, 4)));
    }

    #[test]
    fn a_game_not_failed_starts_the_count_again() {
        let mut f = FailureLimit::new(2, 3);
        assert_eq!(f.count(0, 1, Some(Color::Black)), None); // engine 0: 1
        assert_eq!(f.count(2, 0, None), None); // engine 0 played and did not fail: 0
        assert_eq!(f.count(0, 1, Some(Color::Black)), None); // engine 0: 1 again
        assert_eq!(f.count(1, 2, Some(Color::White)), None); // engine 2: 1; engine 0 idle
        assert_eq!(f.count(1, 0, Some(Color::White)), Some((0, 2)));
        // Engine 1 failed in none of its four games.
        assert_eq!(f.in_a_row, [2, 0, 1]);
    }

    #[test]
    fn limit_zero_never_stops() {
        let mut f = FailureLimit::new(0, 2);
        for _ in 0..100 {
            assert_eq!(f.count(0, 1, Some(Color::White)), None);
        }
        assert_eq!(f.in_a_row, [0, 100]);
    }

    #[test]
    fn interrupt_only_after_ctrl_c() {
        let control = Control::default();
        assert_eq!(Interrupt::new(&control).at_end(), None);
        control.interrupt();
        assert_eq!(Interrupt::new(&control).at_end(), Some(Ending::Interrupted));
    }
}
