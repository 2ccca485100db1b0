//! The words of the match's output: Saikoro's own (`Finished game 3 (a vs b): 1-0 {White's
//! illegal move 5e5d+}`, Black and White), or shogitest's, which the ShogiBench worker reads
//! (`Finished game 3 (a-dev vs a-base): 1-0 {Gote makes an illegal move}`, Sente and Gote;
//! shogitest's `src/shogi.rs`, `GameOutcome::to_string` and `to_pgn_termination_string`).
//!
//! The worker counts a game as a crash when its reason says `disconnect` or `stalls`, as a time
//! loss for `on time`, as an illegal move for `illegal`; in the PGN file it reports
//! `Termination`s that say `abandoned`, `stalled` or `illegal`. shogitest itself says only
//! `abandoned` for a lost engine (which the worker's line count misses); here a crash is
//! `abandoned: Sente disconnects` and an engine that stops answering `abandoned: Sente's
//! connection stalls` (fastchess's words), so both counts see them.

use crate::game::result::{Decision, End, Reason};
use saikoro_core::Color;
use std::fmt;
use std::str::FromStr;

/// Whose words the game lines and the PGN file use (`--output-style`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputStyle {
    /// Saikoro's: Black and White, the referee's detail.
    #[default]
    Saikoro,
    /// shogitest's: Sente and Gote, its fixed reasons and PGN layout.
    Shogitest,
}

impl FromStr for OutputStyle {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "saikoro" => Ok(OutputStyle::Saikoro),
            "shogitest" => Ok(OutputStyle::Shogitest),
            _ => Err(format!("{s:?}: expected saikoro or shogitest")),
        }
    }
}

impl fmt::Display for OutputStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutputStyle::Saikoro => "saikoro",
            OutputStyle::Shogitest => "shogitest",
        })
    }
}

/// `n` and the noun, singular or plural as `n` wants: `1 game`, `12 games`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// shogitest's name of a side.
pub fn sente_gote(c: Color) -> &'static str {
    match c {
        Color::Black => "Sente",
        Color::White => "Gote",
    }
}

/// The result word of a game line or PGN file in shogitest's words: `1-0` (Sente won), `0-1`,
/// `1/2-1/2`, or `undetermined`.
pub fn shogitest_result(result: Decision) -> &'static str {
    match result {
        Decision::None => "undetermined",
        other => other.text(),
    }
}

/// The reason of a game line in shogitest's words (see the module's doc for crashes).
pub fn shogitest_reason(end: &End) -> String {
    let (winner, loser) = match end.result {
        Decision::Win(w) => (sente_gote(w), sente_gote(!w)),
        _ => ("", ""),
    };
    match (end.reason, end.result) {
        (Reason::Mate, _) => format!("{winner} mates"),
        (Reason::Resign, _) => format!("{loser} resigns"),
        (Reason::Declaration, _) => format!("{winner} wins by impasse"),
        (Reason::IllegalDeclaration | Reason::IllegalMove, _) => {
            format!("{loser} makes an illegal move")
        }
        (Reason::PerpetualCheck, _) => format!("{loser} makes an illegal perpetual check"),
        (Reason::Repetition, _) => "Draw by 4-fold repetition".into(),
        (Reason::MaxPlies, _) => "Draw by adjudication: Reached move limit".into(),
        (Reason::Time, _) => format!("{loser} loses on time"),
        (Reason::Crash, _) => format!("abandoned: {loser} disconnects"),
        (Reason::NoResponse, _) => format!("abandoned: {loser}'s connection stalls"),
        (Reason::Adjudication, Decision::Win(_)) => format!("{winner} wins by adjudication"),
        (Reason::Adjudication, _) => "Draw by adjudication".into(),
        (Reason::Interrupted, _) => "Undetermined (Game is still in play)".into(),
    }
}

/// The PGN `Termination` of a game: shogitest's words (`normal`, `illegal move`, `time
/// forfeit`, `abandoned`, `adjudication`, `unterminated`), and fastchess's `stalled
/// connection` for an engine that stopped answering.
pub fn termination(reason: Reason) -> &'static str {
    match reason {
        Reason::Mate | Reason::Resign | Reason::Declaration | Reason::Repetition => "normal",
        Reason::IllegalDeclaration | Reason::IllegalMove | Reason::PerpetualCheck => "illegal move",
        Reason::Time => "time forfeit",
        Reason::Crash => "abandoned",
        Reason::NoResponse => "stalled connection",
        Reason::MaxPlies | Reason::Adjudication => "adjudication",
        Reason::Interrupted => "unterminated",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(result: Decision, reason: Reason) -> String {
        shogitest_reason(&End::new(result, reason, String::new()))
    }

    #[test]
    fn shogitests_words() {
        use Color::{Black, White};
        use Decision::{Draw, Win};
        assert_eq!(reason(Win(Black), Reason::Mate), "Sente mates");
        assert_eq!(reason(Win(White), Reason::Mate), "Gote mates");
        assert_eq!(reason(Win(Black), Reason::Resign), "Gote resigns");
        assert_eq!(
            reason(Win(Black), Reason::Declaration),
            "Sente wins by impasse"
        );
        assert_eq!(
            reason(Win(White), Reason::IllegalMove),
            "Sente makes an illegal move"
        );
        assert_eq!(
            reason(Win(Black), Reason::IllegalDeclaration),
            "Gote makes an illegal move"
        );
        assert_eq!(reason(Win(Black), Reason::Time), "Gote loses on time");
        assert_eq!(
            reason(Draw, Reason::Repetition),
            "Draw by 4-fold repetition"
        );
        assert_eq!(
            reason(Draw, Reason::MaxPlies),
            "Draw by adjudication: Reached move limit"
        );
        assert_eq!(
            reason(Win(White), Reason::Crash),
            "abandoned: Sente disconnects"
        );
        assert_eq!(
            reason(Win(Black), Reason::NoResponse),
            "abandoned: Gote's connection stalls"
        );
    }

    #[test]
    fn what_the_worker_counts() {
        // Client/worker.py: crashes, time losses, illegal moves by words in the reason.
        let r = reason(Decision::Win(Color::White), Reason::Crash);
        assert!(r.contains("disconnect") && r.contains("abandoned"));
        assert!(reason(Decision::Win(Color::White), Reason::NoResponse).contains("stalls"));
        assert!(reason(Decision::Win(Color::White), Reason::Time).contains("on time"));
        assert!(reason(Decision::Win(Color::White), Reason::PerpetualCheck).contains("illegal"));
        assert!(termination(Reason::NoResponse).contains("stalled"));
        assert!(termination(Reason::IllegalDeclaration).contains("illegal"));
        assert_eq!(termination(Reason::Crash), "abandoned");
    }
}
