//! The game clock as a CSA server keeps it (shogi-server `time_clock.rb`): time rules per side,
//! the remaining time from the `T` values the server echoes, our own deadline, and the USI `go`
//! command an external engine gets.
//!
//! Charge for a move: `T = max(floor(elapsed), Least_Time_Per_Move)` in `Time_Unit`s (rounded
//! up instead with `Time_Roundup:YES`). After it: `remaining = max(0, remaining + Increment − T)`.
//! A move is late when `remaining − T + Byoyomi + Increment ≤ 0`.

use saikoro_core::{ByColor, Color};
use saikoro_usi::Go;
use std::time::Duration;

/// One side's time rules from the Game_Summary's Time block (values in `unit_ms` units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeRules {
    /// Length of one `Time_Unit` in milliseconds (`1sec` = 1000, `1min` = 60000, `1msec` = 1).
    pub unit_ms: u64,
    /// `Total_Time`: main time.
    pub total: u64,
    /// `Byoyomi`: time per move once the main time is gone.
    pub byoyomi: u64,
    /// `Increment`: Fischer time added with every move.
    pub increment: u64,
    /// `Least_Time_Per_Move`: the least a move is charged.
    pub least_time_per_move: u64,
    /// `Delay`: time per move that is not charged (CSA 1.2.1; shogi-server never sends it).
    pub delay: u64,
    /// `Time_Roundup:YES`: sub-unit times are rounded up instead of truncated.
    pub roundup: bool,
}

impl Default for TimeRules {
    /// The CSA defaults: `1sec`, no time at all.
    fn default() -> TimeRules {
        TimeRules {
            unit_ms: 1000,
            total: 0,
            byoyomi: 0,
            increment: 0,
            least_time_per_move: 0,
            delay: 0,
            roundup: false,
        }
    }
}

impl TimeRules {
    /// Whether there is no clock at all (no main time, byoyomi nor increment).
    pub fn is_untimed(&self) -> bool {
        self.total == 0 && self.byoyomi == 0 && self.increment == 0
    }
}

/// Both sides' remaining time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    rules: ByColor<TimeRules>,
    /// Remaining main time in units.
    remaining: ByColor<u64>,
}

impl Clock {
    /// A clock at the start of a game: each side has its `Total_Time`.
    pub fn new(rules: ByColor<TimeRules>) -> Clock {
        Clock {
            remaining: ByColor([rules.0[0].total, rules.0[1].total]),
            rules,
        }
    }

    /// The rules of `side`.
    pub fn rules(&self, side: Color) -> &TimeRules {
        &self.rules[side]
    }

    /// Charges `side` for a move the server echoed with `,T<t>`: `remaining = max(0,
    /// remaining + Increment − max(t, Least_Time_Per_Move))`.
    pub fn charge(&mut self, side: Color, t: u32) {
        let r = &self.rules[side];
        let t = (t as u64).max(r.least_time_per_move);
        self.remaining[side] = (self.remaining[side] + r.increment).saturating_sub(t);
    }

    /// `side`'s remaining main time in milliseconds.
    pub fn remaining_ms(&self, side: Color) -> u64 {
        self.remaining[side] * self.rules[side].unit_ms
    }

    /// How long `side` may think on this move, measured by the server, before the move is
    /// late: with truncation a move is in time while `floor(elapsed) < remaining + Byoyomi +
    /// Increment` (units), with round-up while `ceil(elapsed)` is; `Delay` comes on top.
    /// `None` for an untimed game.
    pub fn budget(&self, side: Color) -> Option<Duration> {
        let r = &self.rules[side];
        if r.is_untimed() {
            return None;
        }
        let mut units = self.remaining[side] + r.byoyomi + r.increment;
        if r.roundup {
            units = units.saturating_sub(1);
        }
        Some(Duration::from_millis((units + r.delay) * r.unit_ms))
    }

    /// Our own deadline on this move: the budget less `margin` (network delay both ways is
    /// charged to us), at least zero. `None` for an untimed game.
    pub fn think_time(&self, side: Color, margin: Duration) -> Option<Duration> {
        self.budget(side).map(|b| b.saturating_sub(margin))
    }

    /// The USI `go` command for `us` to move: `btime`/`wtime` are the remaining main times;
    /// Fischer games add `binc`/`winc`, byoyomi games `byoyomi` (never both: with both in the
    /// rules the increment is sent and the byoyomi only counts in our deadline). Our own
    /// `margin` is taken off our increment or byoyomi first, then off our main time, so that
    /// an engine using all it is given still answers before our deadline.
    pub fn go_command(&self, us: Color, margin: Duration) -> Go {
        let margin = margin.as_millis() as u64;
        let mut time = ByColor([
            self.remaining_ms(Color::Black),
            self.remaining_ms(Color::White),
        ]);
        let per_move = |c: Color| {
            let r = &self.rules[c];
            if r.increment > 0 {
                r.increment * r.unit_ms
            } else {
                r.byoyomi * r.unit_ms
            }
        };
        let mut extra = ByColor([per_move(Color::Black), per_move(Color::White)]);
        if extra[us] >= margin {
            extra[us] -= margin;
        } else {
            time[us] = time[us].saturating_sub(margin - extra[us]);
            extra[us] = 0;
        }
        let ByColor([btime, wtime]) = time;
        if self.rules[us].increment > 0 {
            Go::fischer(btime, wtime, extra[Color::Black], extra[Color::White])
        } else {
            Go::byoyomi(btime, wtime, extra[us])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(r: TimeRules) -> ByColor<TimeRules> {
        ByColor([r, r])
    }

    const MARGIN: Duration = Duration::from_millis(1500);

    /// Floodgate 300-10F: 300 s + 10 s Fischer, whole seconds truncated.
    #[test]
    fn fischer_floodgate_300_10f() {
        let rules = TimeRules {
            total: 300,
            increment: 10,
            ..TimeRules::default()
        };
        let mut c = Clock::new(both(rules));
        // First move: the increment is credited before the check, so 310 s.
        assert_eq!(c.budget(Color::Black), Some(Duration::from_secs(310)));
        assert_eq!(
            c.think_time(Color::Black, MARGIN),
            Some(Duration::from_millis(308_500))
        );
        assert_eq!(
            c.go_command(Color::Black, MARGIN).to_string(),
            "go btime 300000 wtime 300000 binc 8500 winc 10000"
        );
        // Black takes 12 s: 300 + 10 - 12 = 298. White takes 3 s: 307.
        c.charge(Color::Black, 12);
        c.charge(Color::White, 3);
        assert_eq!(c.remaining_ms(Color::Black), 298_000);
        assert_eq!(c.remaining_ms(Color::White), 307_000);
        assert_eq!(
            c.go_command(Color::White, MARGIN).to_string(),
            "go btime 298000 wtime 307000 binc 10000 winc 8500"
        );
        // A move that overran is floored at zero.
        c.charge(Color::Black, 400);
        assert_eq!(c.remaining_ms(Color::Black), 0);
        assert_eq!(c.budget(Color::Black), Some(Duration::from_secs(10)));
    }

    /// 60 s + 10 s byoyomi, as in the transcript's `local-60-10` games.
    #[test]
    fn byoyomi_60_10() {
        let rules = TimeRules {
            total: 60,
            byoyomi: 10,
            ..TimeRules::default()
        };
        let mut c = Clock::new(both(rules));
        assert_eq!(c.budget(Color::White), Some(Duration::from_secs(70)));
        assert_eq!(
            c.go_command(Color::White, MARGIN).to_string(),
            "go btime 60000 wtime 60000 byoyomi 8500"
        );
        c.charge(Color::White, 45);
        assert_eq!(c.remaining_ms(Color::White), 15_000);
        c.charge(Color::White, 20);
        assert_eq!(c.remaining_ms(Color::White), 0);
        assert_eq!(c.budget(Color::White), Some(Duration::from_secs(10)));
        assert_eq!(
            c.go_command(Color::White, MARGIN).to_string(),
            "go btime 60000 wtime 0 byoyomi 8500"
        );
        // A margin larger than the byoyomi eats into the main time.
        assert_eq!(
            c.go_command(Color::Black, Duration::from_millis(12_000))
                .to_string(),
            "go btime 58000 wtime 0 byoyomi 0"
        );
    }

    #[test]
    fn least_time_roundup_units_and_delay() {
        let rules = TimeRules {
            unit_ms: 60_000,
            total: 10,
            least_time_per_move: 1,
            roundup: true,
            delay: 0,
            ..TimeRules::default()
        };
        let mut c = Clock::new(both(rules));
        // Rounding up: ceil(elapsed) < 10 min, so 9 min of thinking.
        assert_eq!(c.budget(Color::Black), Some(Duration::from_secs(540)));
        c.charge(Color::Black, 0); // charged the least time: 1 min
        assert_eq!(c.remaining_ms(Color::Black), 540_000);
        let ms = TimeRules {
            unit_ms: 1,
            total: 5000,
            delay: 2000,
            ..TimeRules::default()
        };
        let c = Clock::new(both(ms));
        assert_eq!(c.budget(Color::Black), Some(Duration::from_millis(7000)));
        assert_eq!(
            c.think_time(Color::Black, Duration::from_secs(9)),
            Some(Duration::ZERO)
        );
    }

    #[test]
    fn untimed_games_have_no_deadline() {
        let c = Clock::new(both(TimeRules::default()));
        assert_eq!(c.budget(Color::Black), None);
    }

    #[test]
    fn each_side_keeps_its_own_rules() {
        let black = TimeRules {
            total: 600,
            ..TimeRules::default()
        };
        let white = TimeRules {
            total: 60,
            increment: 5,
            ..TimeRules::default()
        };
        let mut c = Clock::new(ByColor([black, white]));
        c.charge(Color::Black, 100);
        c.charge(Color::White, 1);
        assert_eq!(c.remaining_ms(Color::Black), 500_000);
        assert_eq!(c.remaining_ms(Color::White), 64_000);
        assert_eq!(c.budget(Color::White), Some(Duration::from_secs(69)));
        assert_eq!(
            (c.rules(Color::Black), c.rules(Color::White)),
            (&black, &white)
        );
        let untimed = Clock::new(ByColor([TimeRules::default(), white]));
        assert!(untimed.rules(Color::Black).is_untimed());
        assert!(!untimed.rules(Color::White).is_untimed());
    }
}
