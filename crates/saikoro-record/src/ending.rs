//! How a line of a record ends: the union of what the forms can say (KIF's 終局 words, CSA's `%`
//! lines, JKF's `special`), each form's words in that form's own table.

use saikoro_core::{Color, Outcome};

/// How a record's moves end: the union of what the forms can say (KIF's 終局 words, CSA's `%`
/// lines, JKF's `special`). A form without a word for one writes the nearest it has (see
/// docs/records.md). Where an end names a winner it is relative to the side to move after the
/// last move, but for [`Ending::Foul`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// 投了, `%TORYO`: the side to move resigns.
    Resign,
    /// 中断, `%CHUDAN`: the game was stopped.
    Interrupt,
    /// 千日手, `%SENNICHITE`: fourfold repetition.
    Repetition,
    /// 詰み, `%TSUMI`: the side to move is mated.
    Mate,
    /// 持将棋, `%JISHOGI`: an impasse.
    Jishogi,
    /// `%MAX_MOVES`: the move limit (KIF writes 持将棋).
    MaxMoves,
    /// 切れ負け, `%TIME_UP`: the side to move lost on time.
    TimeUp,
    /// 反則負け/反則勝ち, `%ILLEGAL_MOVE`, `%+ILLEGAL_ACTION`, `%-ILLEGAL_ACTION`: this side broke
    /// the rules and loses.
    Foul(Color),
    /// 入玉勝ち, `%KACHI`: the side to move declares a win (入玉宣言).
    Declaration,
    /// `%HIKIWAKE`: a draw agreed.
    Draw,
    /// 不戦勝: the side to move wins by default.
    DefaultWin,
    /// 不戦敗: the side to move loses by default.
    DefaultLoss,
    /// 封じ手: a sealed move.
    Sealed,
    /// 不詰, `%FUZUMI`: no mate (a problem's end).
    NoMate,
    /// `%ERROR`: an error.
    Error,
}

impl Ending {
    /// The ending in English words, for messages: `resignation`, `move limit`, `win by
    /// default (不戦勝)`.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Resign => "resignation (投了)",
            Ending::Interrupt => "stop (中断)",
            Ending::Repetition => "repetition (千日手)",
            Ending::Mate => "mate (詰み)",
            Ending::Jishogi => "impasse (持将棋)",
            Ending::MaxMoves => "move limit (MAX_MOVES)",
            Ending::TimeUp => "time up (切れ負け)",
            Ending::Foul(_) => "foul (反則)",
            Ending::Declaration => "declaration (入玉勝ち)",
            Ending::Draw => "draw (HIKIWAKE)",
            Ending::DefaultWin => "win by default (不戦勝)",
            Ending::DefaultLoss => "loss by default (不戦敗)",
            Ending::Sealed => "sealed move (封じ手)",
            Ending::NoMate => "no mate (不詰)",
            Ending::Error => "error (ERROR)",
        }
    }

    /// How a game that the rules core ended ends in a record: 詰み, 千日手, the checking side's
    /// foul for a perpetual check (連続王手の千日手), the declaration (入玉宣言) of the side to
    /// move, and the move limit.
    pub fn of_outcome(outcome: Outcome) -> Ending {
        match outcome {
            Outcome::Checkmate { .. } => Ending::Mate,
            Outcome::Repetition => Ending::Repetition,
            Outcome::PerpetualCheck { winner } => Ending::Foul(!winner),
            Outcome::Declaration { .. } => Ending::Declaration,
            Outcome::MaxMoves => Ending::MaxMoves,
        }
    }
}
