//! How a game ended and what it left: the reason (the `reason` of the results file), the
//! result, the moves with their times and scores.

use crate::game::book::Opening;
use saikoro_core::{ByColor, Color, EnteringKingRule, GameResult, Move};
use saikoro_driver::ClientError;
use saikoro_record::Ending;
use saikoro_usi::Score;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::time::SystemTime;

/// Why a game ended: the `reason` of the results file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move had no legal move.
    Mate,
    /// `bestmove resign`.
    Resign,
    /// A winning `bestmove win`.
    Declaration,
    /// A `bestmove win` whose declaration does not hold.
    IllegalDeclaration,
    /// A `bestmove` that is no legal move.
    IllegalMove,
    /// Fourfold repetition (千日手): a draw.
    Repetition,
    /// Fourfold repetition with one side checking throughout (連続王手の千日手).
    PerpetualCheck,
    /// The ply limit.
    MaxPlies,
    /// A move past the clock and the margin.
    Time,
    /// The engine exited or closed its output.
    Crash,
    /// The engine did not answer `usi`, `isready`, `stop` or an untimed `go` in time.
    NoResponse,
    /// `--draw` or `--resign`.
    Adjudication,
    /// Ctrl-C or the end of the match stopped it; it scores nothing.
    Interrupted,
}

impl Reason {
    /// Every reason, in the order of docs/match.md.
    pub const ALL: [Reason; 13] = [
        Reason::Mate,
        Reason::Resign,
        Reason::Declaration,
        Reason::IllegalDeclaration,
        Reason::IllegalMove,
        Reason::Repetition,
        Reason::PerpetualCheck,
        Reason::MaxPlies,
        Reason::Time,
        Reason::Crash,
        Reason::NoResponse,
        Reason::Adjudication,
        Reason::Interrupted,
    ];

    /// The name in the results file.
    pub const fn name(self) -> &'static str {
        match self {
            Reason::Mate => "mate",
            Reason::Resign => "resign",
            Reason::Declaration => "declaration",
            Reason::IllegalDeclaration => "illegal_declaration",
            Reason::IllegalMove => "illegal_move",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual_check",
            Reason::MaxPlies => "max_plies",
            Reason::Time => "time",
            Reason::Crash => "crash",
            Reason::NoResponse => "no_response",
            Reason::Adjudication => "adjudication",
            Reason::Interrupted => "interrupted",
        }
    }

    /// The reason named `name`.
    pub fn from_name(name: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// In JSON (the match state's game lines) by its [`Reason::name`].
impl Serialize for Reason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Reason::from_name(&name)
            .ok_or_else(|| de::Error::invalid_value(de::Unexpected::Str(&name), &"a reason's name"))
    }
}

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// This side won.
    Win(Color),
    /// A draw.
    Draw,
    /// No result (interrupted).
    None,
}

impl Decision {
    /// `1-0` (Black won), `0-1` (White won), `1/2-1/2`, or `*`.
    pub const fn text(self) -> &'static str {
        match self {
            Decision::Win(Color::Black) => "1-0",
            Decision::Win(Color::White) => "0-1",
            Decision::Draw => "1/2-1/2",
            Decision::None => "*",
        }
    }

    /// The result written as [`Decision::text`].
    pub fn from_text(t: &str) -> Option<Decision> {
        Some(match t {
            "1-0" => Decision::Win(Color::Black),
            "0-1" => Decision::Win(Color::White),
            "1/2-1/2" => Decision::Draw,
            "*" => Decision::None,
            _ => return None,
        })
    }

    /// What `side`'s engine is told with `gameover`.
    pub fn for_side(self, side: Color) -> GameResult {
        match self {
            Decision::Win(c) if c == side => GameResult::Win,
            Decision::Win(_) => GameResult::Loss,
            Decision::Draw | Decision::None => GameResult::Draw,
        }
    }
}

/// In JSON (the match state's game lines) by its [`Decision::text`].
impl Serialize for Decision {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.text())
    }
}

impl<'de> Deserialize<'de> for Decision {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Decision::from_text(&text).ok_or_else(|| {
            de::Error::invalid_value(de::Unexpected::Str(&text), &"1-0, 0-1, 1/2-1/2 or *")
        })
    }
}

/// How a game of the match ends in its record, in every form (the record model's [`Ending`],
/// which each form's module writes in its own words): the one place that says it, for the
/// records the match writes, `saikoro record convert` of a results file, and the report page.
/// `next` is the side to move at the end.
///
/// A win without a move of the winner's is the loser's foul ([`Ending::Foul`]: 反則負け or
/// 反則勝ち, `%+ILLEGAL_ACTION` or `%-ILLEGAL_ACTION`) for an illegal move or declaration, a
/// perpetual check, an engine that crashed or gave no answer: the side that broke the rules of
/// the match loses, and the record says which. A win by adjudication is a resignation (投了,
/// `%TORYO`) when the loser is to move, and else the game stopped (中断, `%CHUDAN`): neither form
/// has a word for the resignation of the side not to move. A draw by adjudication is a draw
/// (`%HIKIWAKE`), the ply limit the move limit (`%MAX_MOVES`). A reason whose result is not the
/// one it must have (a mate with no winner) is a game stopped.
pub fn ending(result: Decision, reason: Reason, next: Color) -> Ending {
    let loser = match result {
        Decision::Win(w) => Some(!w),
        _ => None,
    };
    match (reason, loser) {
        (Reason::Mate, Some(_)) => Ending::Mate,
        (Reason::Resign, Some(_)) => Ending::Resign,
        (Reason::Declaration, Some(_)) => Ending::Declaration,
        (Reason::Time, Some(_)) => Ending::TimeUp,
        (
            Reason::IllegalDeclaration
            | Reason::IllegalMove
            | Reason::PerpetualCheck
            | Reason::Crash
            | Reason::NoResponse,
            Some(l),
        ) => Ending::Foul(l),
        (Reason::Repetition, None) => Ending::Repetition,
        (Reason::MaxPlies, None) => Ending::MaxMoves,
        (Reason::Adjudication, Some(l)) if l == next => Ending::Resign,
        (Reason::Adjudication, None) if result == Decision::Draw => Ending::Draw,
        _ => Ending::Interrupt,
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// The result.
    pub result: Decision,
    /// Why.
    pub reason: Reason,
    /// The words of the `Finished game` line, e.g. `White's illegal move 5e5d+`.
    pub detail: String,
    /// The text of an illegal `bestmove` (or of a `win` that did not hold).
    pub illegal_move: Option<String>,
    /// The side whose engine failed (crashed or did not answer), to be restarted.
    pub failed: Option<Color>,
    /// The last lines the failed engine wrote to its stderr (a crash's last words).
    pub stderr: Vec<String>,
    /// A loss on time whose `bestmove` came: how late, and whether the engine sent it by
    /// itself or only after the runner's `stop`.
    pub late: Option<Late>,
}

/// How late the `bestmove` of a game lost on time came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Late {
    /// The engine sent it by itself, this many microseconds past the time given (without the
    /// margin): a margin of that much would have covered it.
    Unprompted(u64),
    /// The engine was still searching when the runner sent `stop`, past its time, the margin
    /// and a short wait for an answer of its own; it answered this many microseconds past the
    /// time given. No margin is known to cover it: the engine takes more time than it has, or
    /// the machine is too busy for it to stop in time.
    AfterStop(u64),
}

impl End {
    /// An end with no illegal move and no failed engine.
    pub fn new(result: Decision, reason: Reason, detail: String) -> End {
        End {
            result,
            reason,
            detail,
            illegal_move: None,
            failed: None,
            stderr: Vec::new(),
            late: None,
        }
    }

    /// A loss for `side`.
    pub fn loss(side: Color, reason: Reason, detail: String) -> End {
        End::new(Decision::Win(!side), reason, detail)
    }

    /// A loss for `side` whose engine failed with `e`: `crash` or `no_response`.
    pub fn failure(side: Color, e: &ClientError) -> End {
        let who = format!("{}'s engine", side.name());
        let (reason, detail) = match e {
            ClientError::Exited(Some(status)) => {
                (Reason::Crash, format!("{who} exited ({status})"))
            }
            ClientError::Exited(None) => (Reason::Crash, format!("{who} closed its output")),
            ClientError::Write(_) => (Reason::Crash, format!("{who} stopped reading its input")),
            ClientError::Spawn { .. } => (Reason::Crash, format!("{who} could not be started")),
            ClientError::Timeout { waiting_for, after } => (
                Reason::NoResponse,
                format!(
                    "{who} gave no {waiting_for} within {} ms",
                    after.as_millis()
                ),
            ),
        };
        End {
            failed: Some(side),
            ..End::loss(side, reason, detail)
        }
    }

    /// A loss for `side`, whose `bestmove` was `text`: no legal move.
    pub fn illegal_move(side: Color, text: &str) -> End {
        let who = side.name();
        let detail = if text.is_empty() {
            format!("{who}'s illegal move (empty)")
        } else {
            format!("{who}'s illegal move {text}")
        };
        End {
            illegal_move: Some(text.to_string()),
            ..End::loss(side, Reason::IllegalMove, detail)
        }
    }

    /// A loss for `side`, whose `bestmove win` does not hold under `rule`: recorded as the
    /// illegal move `win`.
    pub fn illegal_declaration(side: Color, rule: EnteringKingRule) -> End {
        End {
            illegal_move: Some("win".to_string()),
            ..End::loss(
                side,
                Reason::IllegalDeclaration,
                format!("{}'s illegal declaration ({rule})", side.name()),
            )
        }
    }

    /// A game stopped before its end: no result.
    pub fn interrupted() -> End {
        End::new(
            Decision::None,
            Reason::Interrupted,
            "Game interrupted".into(),
        )
    }
}

/// A move of the game with what came with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// Thinking time in milliseconds (from `go` or `ponderhit` to `bestmove`).
    pub time_ms: u64,
    /// The last exact score the engine gave.
    pub score: Option<Score>,
    /// The last depth it gave.
    pub depth: Option<u32>,
    /// The last node count it gave.
    pub nodes: Option<u64>,
    /// Where the move stands among the legal moves of its position, in the rules core's
    /// canonical order, and how many there are (`(index, count)`), when the referee knew it
    /// (it lists them to judge the move): the report page stores a move as that index.
    pub place: Option<(u16, u16)>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The opening it started from.
    pub opening: Opening,
    /// The engines' moves after the opening.
    pub moves: Vec<PlayedMove>,
    /// How it ended.
    pub end: End,
    /// Thinking time per side in milliseconds.
    pub time_used: ByColor<u64>,
    /// When it started (wall clock).
    pub started: SystemTime,
    /// When it ended.
    pub ended: SystemTime,
}

impl GameRecord {
    /// The plies from the start position to the end: the opening's and the engines'.
    pub fn total_plies(&self) -> usize {
        self.opening.moves.len() + self.moves.len()
    }

    /// The side to move where the game ended.
    pub fn next(&self) -> Color {
        let start = self.opening.start.side_to_move();
        if self.total_plies().is_multiple_of(2) {
            start
        } else {
            !start
        }
    }

    /// Every move from the start position.
    pub fn all_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.opening
            .moves
            .iter()
            .copied()
            .chain(self.moves.iter().map(|m| m.mv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_results() {
        for r in Reason::ALL {
            assert_eq!(Reason::from_name(r.name()), Some(r));
        }
        for t in ["1-0", "0-1", "1/2-1/2", "*"] {
            assert_eq!(Decision::from_text(t).unwrap().text(), t);
        }
        assert_eq!(
            Decision::Win(Color::White).for_side(Color::Black),
            GameResult::Loss
        );
        assert_eq!(
            Decision::Win(Color::White).for_side(Color::White),
            GameResult::Win
        );
        assert_eq!(Decision::Draw.for_side(Color::Black), GameResult::Draw);
        assert_eq!(Decision::None.for_side(Color::White), GameResult::Draw);
    }

    /// Losses that the results file explains: the illegal move's text (`win` for a
    /// declaration that does not hold), and which engine failed, so that it is restarted.
    #[test]
    fn losses_keep_the_move_and_the_failed_engine() {
        let end = End::illegal_move(Color::White, "5e5d+");
        assert_eq!(
            (end.result, end.reason, end.detail.as_str()),
            (
                Decision::Win(Color::Black),
                Reason::IllegalMove,
                "White's illegal move 5e5d+"
            )
        );
        assert_eq!(
            (end.illegal_move.as_deref(), end.failed),
            (Some("5e5d+"), None)
        );
        assert_eq!(
            End::illegal_move(Color::Black, "").detail,
            "Black's illegal move (empty)"
        );

        let end = End::illegal_declaration(Color::Black, EnteringKingRule::CsaRule27);
        assert_eq!(
            (end.result, end.reason, end.illegal_move.as_deref()),
            (
                Decision::Win(Color::White),
                Reason::IllegalDeclaration,
                Some("win")
            )
        );
        assert_eq!(end.detail, "Black's illegal declaration (CSARule27)");

        let end = End::failure(Color::Black, &ClientError::Exited(None));
        assert_eq!(
            (end.result, end.reason, end.failed),
            (
                Decision::Win(Color::White),
                Reason::Crash,
                Some(Color::Black)
            )
        );
        assert_eq!(end.detail, "Black's engine closed its output");
        let timeout = ClientError::Timeout {
            waiting_for: "bestmove",
            after: std::time::Duration::from_millis(1500),
        };
        let end = End::failure(Color::White, &timeout);
        assert_eq!(
            (end.reason, end.failed, end.detail.as_str()),
            (
                Reason::NoResponse,
                Some(Color::White),
                "White's engine gave no bestmove within 1500 ms"
            )
        );
        assert_eq!(end.illegal_move, None);
    }
}
