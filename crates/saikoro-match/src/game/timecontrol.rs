//! Time controls as shogi uses them and USI sends them, and the clock the referee keeps.
//!
//! - sudden death `tc=60`, Fischer `tc=60+1`, byoyomi `tc=60 byoyomi=5` (or `tc=0 byoyomi=1`);
//! - a fixed time per move `movetime=MS`;
//! - search limits `nodes=N`, `depth=N`, alone (no clock) or with a clock.
//!
//! The clock follows the rule Floodgate's server and fastchess share: the increment is credited
//! before the move, so a Fischer move may take the time left plus the increment, and a byoyomi
//! move the time left plus the byoyomi. A move that takes longer than that by more than the time
//! margin loses on time; one that is late by less leaves no time on the clock (fastchess's
//! `TimeControl::updateTime`).

use saikoro_core::{ByColor, Color};
use saikoro_usi::Go;
use std::fmt;

/// A side's limits: a clock, a fixed move time, and search limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The clock, if the side plays on one.
    pub clock: Option<ClockRules>,
    /// A fixed time per move in milliseconds (`movetime=`).
    pub movetime_ms: Option<u64>,
    /// `go nodes N`.
    pub nodes: Option<u64>,
    /// `go depth N`.
    pub depth: Option<u32>,
}

/// A clock: main time, then either a Fischer increment or a byoyomi (USI has no way to send
/// both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockRules {
    /// Main time (持ち時間) in milliseconds.
    pub base_ms: u64,
    /// Fischer increment per move in milliseconds.
    pub increment_ms: u64,
    /// Byoyomi (秒読み) per move in milliseconds, once the main time is used up.
    pub byoyomi_ms: u64,
}

/// A time-control word that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TimeControlError {
    /// `tc=` is not `SECONDS`, `SECONDS+INCREMENT` or `M:SS[+INCREMENT]`.
    BadTc(String),
    /// A number that is not one (`byoyomi=`, `movetime=`, `nodes=`, `depth=`).
    BadNumber {
        /// The key.
        key: &'static str,
        /// The text.
        value: String,
    },
    /// An increment and a byoyomi together: USI sends one or the other.
    IncrementAndByoyomi,
    /// `byoyomi=` without `tc=`.
    ByoyomiWithoutTc,
    /// `movetime=` together with `tc=`.
    MovetimeAndTc,
    /// A time control that gives no time at all (`tc=0`, `movetime=0`): every game would be
    /// lost on time at its first move. The words as given.
    NoTime(String),
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlError::BadTc(t) => write!(
                f,
                "tc={t}: expected SECONDS, SECONDS+INCREMENT or MINUTES:SECONDS[+INCREMENT]"
            ),
            TimeControlError::BadNumber { key, value } => {
                write!(f, "{key}={value}: not a valid number")
            }
            TimeControlError::IncrementAndByoyomi => f.write_str(
                "an increment and a byoyomi together: USI sends either binc/winc or byoyomi",
            ),
            TimeControlError::ByoyomiWithoutTc => {
                f.write_str("byoyomi= needs tc= (tc=0 for byoyomi only)")
            }
            TimeControlError::MovetimeAndTc => f.write_str("movetime= and tc= cannot be combined"),
            TimeControlError::NoTime(words) => write!(
                f,
                "{words}: no time at all: every game would be lost on time at its first \
                 move (give a main time, an increment, a byoyomi or a movetime above 0)"
            ),
        }
    }
}

impl std::error::Error for TimeControlError {}

/// Seconds, possibly with a fraction (`0.1`), as milliseconds.
fn seconds_ms(text: &str) -> Option<u64> {
    let secs: f64 = text.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| (secs * 1000.0).round() as u64)
}

/// `SECONDS` or `MINUTES:SECONDS` as milliseconds.
fn base_ms(text: &str) -> Option<u64> {
    match text.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m.parse().ok()?;
            Some(m * 60_000 + seconds_ms(s)?)
        }
        None => seconds_ms(text),
    }
}

impl ClockRules {
    /// Reads `tc=` (`60`, `60+1`, `10+0.1`, `1:30+2`: seconds) and an optional `byoyomi=`
    /// (seconds).
    pub fn parse(tc: &str, byoyomi: Option<&str>) -> Result<ClockRules, TimeControlError> {
        let bad = || TimeControlError::BadTc(tc.to_string());
        let (base, inc) = match tc.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (tc, None),
        };
        let base_ms = base_ms(base).ok_or_else(bad)?;
        let increment_ms = match inc {
            Some(i) => seconds_ms(i).ok_or_else(bad)?,
            None => 0,
        };
        let byoyomi_ms = match byoyomi {
            Some(b) => seconds_ms(b).ok_or_else(|| TimeControlError::BadNumber {
                key: "byoyomi",
                value: b.to_string(),
            })?,
            None => 0,
        };
        if increment_ms > 0 && byoyomi_ms > 0 {
            return Err(TimeControlError::IncrementAndByoyomi);
        }
        if base_ms + increment_ms + byoyomi_ms == 0 {
            let words = match byoyomi {
                Some(b) => format!("tc={tc} byoyomi={b}"),
                None => format!("tc={tc}"),
            };
            return Err(TimeControlError::NoTime(words));
        }
        Ok(ClockRules {
            base_ms,
            increment_ms,
            byoyomi_ms,
        })
    }

    /// `HH:MM+SS` for a CSA record's `$TIME_LIMIT`: main time and byoyomi. `None` when that
    /// cannot say it: main time not in whole minutes, byoyomi not in whole seconds, or a
    /// Fischer increment (V2.2 has no field for one).
    pub fn csa_time_limit(&self) -> Option<String> {
        if self.increment_ms > 0
            || !self.base_ms.is_multiple_of(60_000)
            || !self.byoyomi_ms.is_multiple_of(1000)
        {
            return None;
        }
        let m = self.base_ms / 60_000;
        Some(format!(
            "{:02}:{:02}+{:02}",
            m / 60,
            m % 60,
            self.byoyomi_ms / 1000
        ))
    }
}

fn secs(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        format!("{}", ms as f64 / 1000.0)
    }
}

impl fmt::Display for ClockRules {
    /// As the flags write it: `60`, `10+0.1`, `60 byoyomi=5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", secs(self.base_ms))?;
        if self.increment_ms > 0 {
            write!(f, "+{}", secs(self.increment_ms))?;
        }
        if self.byoyomi_ms > 0 {
            write!(f, " byoyomi={}", secs(self.byoyomi_ms))?;
        }
        Ok(())
    }
}

impl Limits {
    /// Builds limits from the words' values (each `None` when not given).
    pub fn from_words(
        tc: Option<&str>,
        byoyomi: Option<&str>,
        movetime: Option<&str>,
        nodes: Option<&str>,
        depth: Option<&str>,
    ) -> Result<Limits, TimeControlError> {
        fn num<T: std::str::FromStr>(
            key: &'static str,
            v: Option<&str>,
        ) -> Result<Option<T>, TimeControlError> {
            v.map(|t| {
                t.parse().map_err(|_| TimeControlError::BadNumber {
                    key,
                    value: t.to_string(),
                })
            })
            .transpose()
        }
        let clock = match (tc, byoyomi) {
            (Some(tc), b) => Some(ClockRules::parse(tc, b)?),
            (None, Some(_)) => return Err(TimeControlError::ByoyomiWithoutTc),
            (None, None) => None,
        };
        let movetime_ms = num("movetime", movetime)?;
        if movetime_ms.is_some() && clock.is_some() {
            return Err(TimeControlError::MovetimeAndTc);
        }
        if movetime_ms == Some(0) {
            return Err(TimeControlError::NoTime("movetime=0".into()));
        }
        Ok(Limits {
            clock,
            movetime_ms,
            nodes: num("nodes", nodes)?,
            depth: num("depth", depth)?,
        })
    }

    /// Whether nothing limits the search: `go` would never end.
    pub fn is_unlimited(&self) -> bool {
        self.clock.is_none()
            && self.movetime_ms.is_none()
            && self.nodes.is_none()
            && self.depth.is_none()
    }
}

impl fmt::Display for Limits {
    /// As the flags write them: `tc=10+0.1`, `movetime=500 nodes=1000`, …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words = Vec::new();
        if let Some(c) = &self.clock {
            words.push(format!("tc={c}"));
        }
        if let Some(m) = self.movetime_ms {
            words.push(format!("movetime={m}"));
        }
        if let Some(n) = self.nodes {
            words.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            words.push(format!("depth={d}"));
        }
        f.write_str(&words.join(" "))
    }
}

/// A move that came too late: by how much it overran the time it had (margin not counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrun {
    /// Milliseconds past the time available.
    pub ms: u64,
}

/// Both sides' clocks during a game.
#[derive(Clone, Debug)]
pub struct GameClock {
    limits: ByColor<Limits>,
    /// Main time left (ms), per side.
    remaining: ByColor<u64>,
    /// Time used so far (ms), per side.
    used: ByColor<u64>,
}

impl GameClock {
    /// Fresh clocks for a game where Black plays under `black` and White under `white`.
    pub fn new(black: Limits, white: Limits) -> GameClock {
        let base = |l: &Limits| l.clock.map_or(0, |c| c.base_ms);
        GameClock {
            remaining: ByColor([base(&black), base(&white)]),
            limits: ByColor([black, white]),
            used: ByColor([0, 0]),
        }
    }

    /// The thinking time a side has used in this game.
    pub fn used_ms(&self, side: Color) -> u64 {
        self.used[side]
    }

    /// How long `side` may think on its next move, margin not included; `None` when it has no
    /// clock and no fixed move time.
    pub fn available_ms(&self, side: Color) -> Option<u64> {
        let l = &self.limits[side];
        if let Some(m) = l.movetime_ms {
            return Some(m);
        }
        let c = l.clock?;
        Some(self.remaining[side] + c.increment_ms + c.byoyomi_ms)
    }

    /// The `go` command for `side`'s move, as GUIs send it: `btime`/`wtime` with both clocks,
    /// then `byoyomi` (also `byoyomi 0` in sudden death, as ShogiHome does) or `binc`/`winc`;
    /// a fixed move time as `btime 0 wtime 0 byoyomi MS` (the USI way: every USI engine knows
    /// byoyomi); `nodes` and `depth` as given. With `ponder`, `go ponder` with the same clock.
    pub fn go(&self, side: Color, ponder: bool) -> Go {
        let l = &self.limits[side];
        let increment = |c: Color| self.limits[c].clock.map_or(0, |c| c.increment_ms);
        let ByColor([btime, wtime]) = self.remaining;
        let mut go = if let Some(ms) = l.movetime_ms {
            Go::byoyomi(0, 0, ms)
        } else if let Some(ours) = l.clock {
            if ours.increment_ms > 0 {
                Go::fischer(
                    btime,
                    wtime,
                    increment(Color::Black),
                    increment(Color::White),
                )
            } else {
                Go::byoyomi(btime, wtime, ours.byoyomi_ms)
            }
        } else {
            Go::default()
        };
        go.ponder = ponder;
        if let Some(n) = l.nodes {
            go.limits.push(("nodes".to_string(), n));
        }
        if let Some(d) = l.depth {
            go.limits.push(("depth".to_string(), u64::from(d)));
        }
        go
    }

    /// Charges `elapsed_ms` to `side`'s move. Past the time available by more than
    /// `margin_ms`, the move lost on time: `Err` says by how much it overran.
    pub fn charge(&mut self, side: Color, elapsed_ms: u64, margin_ms: u64) -> Result<(), Overrun> {
        self.used[side] += elapsed_ms;
        let Some(available) = self.available_ms(side) else {
            return Ok(());
        };
        if elapsed_ms > available.saturating_add(margin_ms) {
            return Err(Overrun {
                ms: elapsed_ms - available,
            });
        }
        if let Some(c) = self.limits[side].clock {
            // Fischer: the increment comes with the move; byoyomi only when main time is gone.
            self.remaining[side] =
                (self.remaining[side] + c.increment_ms).saturating_sub(elapsed_ms);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(tc: &str, byoyomi: Option<&str>) -> Limits {
        Limits::from_words(Some(tc), byoyomi, None, None, None).unwrap()
    }

    #[test]
    fn time_controls_as_written() {
        assert_eq!(
            ClockRules::parse("60", None),
            Ok(ClockRules {
                base_ms: 60_000,
                increment_ms: 0,
                byoyomi_ms: 0
            })
        );
        assert_eq!(ClockRules::parse("10+0.1", None).unwrap().increment_ms, 100);
        assert_eq!(ClockRules::parse("1:30+2", None).unwrap().base_ms, 90_000);
        let byo = ClockRules::parse("0", Some("1")).unwrap();
        assert_eq!((byo.base_ms, byo.byoyomi_ms), (0, 1000));
        assert_eq!(
            ClockRules::parse("60+1", Some("5")),
            Err(TimeControlError::IncrementAndByoyomi)
        );
        assert!(ClockRules::parse("x", None).is_err());
        assert!(ClockRules::parse("-5", None).is_err());
        // No time at all: refused, with the words given.
        for (tc, byo) in [("0", None), ("0+0", None), ("0:00", None), ("0", Some("0"))] {
            assert!(
                matches!(ClockRules::parse(tc, byo), Err(TimeControlError::NoTime(_))),
                "{tc} {byo:?}"
            );
        }
        assert_eq!(
            ClockRules::parse("0+0", None).unwrap_err().to_string(),
            "tc=0+0: no time at all: every game would be lost on time at its first move \
             (give a main time, an increment, a byoyomi or a movetime above 0)"
        );
        assert!(ClockRules::parse("0+0.1", None).is_ok());
        assert_eq!(
            Limits::from_words(None, None, Some("0"), None, None),
            Err(TimeControlError::NoTime("movetime=0".into()))
        );
        assert!(Limits::from_words(None, None, Some("-1"), None, None).is_err());
        assert_eq!(
            Limits::from_words(None, Some("5"), None, None, None),
            Err(TimeControlError::ByoyomiWithoutTc)
        );
        assert_eq!(
            Limits::from_words(Some("5"), None, Some("100"), None, None),
            Err(TimeControlError::MovetimeAndTc)
        );
        assert!(Limits::from_words(None, None, None, None, None)
            .unwrap()
            .is_unlimited());
        assert_eq!(
            limits("60", Some("5")).to_string(),
            "tc=60 byoyomi=5".to_string()
        );
        assert_eq!(limits("10+0.1", None).to_string(), "tc=10+0.1");
        let csa = |tc, byo| limits(tc, byo).clock.unwrap().csa_time_limit();
        assert_eq!(csa("600", Some("10")).as_deref(), Some("00:10+10"));
        assert_eq!(csa("5400", None).as_deref(), Some("01:30+00"));
        assert_eq!(csa("10+0.1", None), None);
        // Whole minutes, but a Fischer increment, which V2.2 cannot say.
        assert_eq!(csa("60+1", None), None);
        assert_eq!(csa("90", Some("5")), None);
    }

    /// `go` lines as ShogiHome sends them (docs: btime/wtime, then byoyomi or binc/winc).
    #[test]
    fn go_lines() {
        let c = GameClock::new(limits("60", Some("5")), limits("60", Some("5")));
        assert_eq!(
            c.go(Color::Black, false).to_string(),
            "go btime 60000 wtime 60000 byoyomi 5000"
        );
        let c = GameClock::new(limits("60+1", None), limits("60+1", None));
        assert_eq!(
            c.go(Color::White, false).to_string(),
            "go btime 60000 wtime 60000 binc 1000 winc 1000"
        );
        let c = GameClock::new(limits("60", None), limits("60", None));
        assert_eq!(
            c.go(Color::White, true).to_string(),
            "go ponder btime 60000 wtime 60000 byoyomi 0"
        );
        let fixed = Limits::from_words(None, None, Some("250"), None, None).unwrap();
        let nodes = Limits::from_words(None, None, None, Some("1000"), Some("3")).unwrap();
        let c = GameClock::new(fixed, nodes);
        assert_eq!(
            c.go(Color::Black, false).to_string(),
            "go btime 0 wtime 0 byoyomi 250"
        );
        assert_eq!(
            c.go(Color::White, false).to_string(),
            "go nodes 1000 depth 3"
        );
    }

    /// Worked by hand: 60 s + 1 s Fischer; the first move may use 61 s.
    #[test]
    fn fischer_clock() {
        let mut c = GameClock::new(limits("60+1", None), limits("60+1", None));
        assert_eq!(c.available_ms(Color::Black), Some(61_000));
        c.charge(Color::Black, 11_000, 0).unwrap();
        assert_eq!(c.remaining[Color::Black], 50_000);
        assert_eq!(c.used_ms(Color::Black), 11_000);
        // 51 s available: 51.5 s overruns by 500 ms; with a 1 s margin it stands, leaving 0.
        assert_eq!(
            c.clone().charge(Color::Black, 51_500, 0),
            Err(Overrun { ms: 500 })
        );
        c.charge(Color::Black, 51_500, 1000).unwrap();
        assert_eq!(c.remaining[Color::Black], 0);
        assert_eq!(c.available_ms(Color::Black), Some(1000));
    }

    /// Worked by hand: 10 s + 5 s byoyomi.
    #[test]
    fn byoyomi_clock() {
        let mut c = GameClock::new(limits("10", Some("5")), limits("10", Some("5")));
        c.charge(Color::White, 12_000, 0).unwrap();
        assert_eq!(c.remaining[Color::White], 0);
        assert_eq!(c.available_ms(Color::White), Some(5000));
        c.charge(Color::White, 5000, 0).unwrap();
        assert_eq!(c.charge(Color::White, 5001, 0), Err(Overrun { ms: 1 }));
        // Sudden death: nothing after the main time.
        let mut c = GameClock::new(limits("1", None), limits("1", None));
        assert_eq!(c.charge(Color::Black, 1001, 0), Err(Overrun { ms: 1 }));
        // No clock: never late.
        let depth = Limits::from_words(None, None, None, None, Some("1")).unwrap();
        let mut c = GameClock::new(depth, depth);
        assert_eq!(c.charge(Color::Black, 1_000_000, 0), Ok(()));
        assert_eq!(c.available_ms(Color::Black), None);
    }
}
