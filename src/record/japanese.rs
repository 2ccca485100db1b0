//! The Japanese words of the record forms (KIF, KI2 and JKF's Japanese fields), one table of each:
//! the kanji numerals, the full-width file digits, the piece names, the sides, the handicaps
//! (`手合割`) and the end words (終局, [`End`]).

use crate::{Color, PieceType};

/// The kanji numerals from 1 to 18: ranks (`一`..`九`) and the counts of a hand (`歩十八`).
pub(crate) const KANJI_NUMBERS: [&str; 18] = [
    "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四",
    "十五", "十六", "十七", "十八",
];

/// The full-width digits of files (`１`..`９`).
pub(crate) const WIDE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// Each kind's name in a move (`成銀`) and its one-character name on a board diagram and in a
/// hand (`全`).
pub(crate) const PIECE_NAMES: [(PieceType, &str, &str); 14] = [
    (PieceType::Pawn, "歩", "歩"),
    (PieceType::Lance, "香", "香"),
    (PieceType::Knight, "桂", "桂"),
    (PieceType::Silver, "銀", "銀"),
    (PieceType::Gold, "金", "金"),
    (PieceType::Bishop, "角", "角"),
    (PieceType::Rook, "飛", "飛"),
    (PieceType::King, "玉", "玉"),
    (PieceType::ProPawn, "と", "と"),
    (PieceType::ProLance, "成香", "杏"),
    (PieceType::ProKnight, "成桂", "圭"),
    (PieceType::ProSilver, "成銀", "全"),
    (PieceType::Horse, "馬", "馬"),
    (PieceType::Dragon, "龍", "龍"),
];

/// Other names read for a kind: `王` (the other king) and `竜`.
pub(crate) const OTHER_PIECE_NAMES: [(&str, PieceType); 2] =
    [("王", PieceType::King), ("竜", PieceType::Dragon)];

/// The kind's name in a move (`成銀`, `龍`).
pub(crate) fn piece_name(kind: PieceType) -> &'static str {
    PIECE_NAMES
        .iter()
        .find(|&&(k, _, _)| k == kind)
        .map_or("", |&(_, name, _)| name)
}

/// The kind's one-character name on a board diagram and in a hand (`全` for 成銀).
pub(crate) fn board_name(kind: PieceType) -> &'static str {
    PIECE_NAMES
        .iter()
        .find(|&&(k, _, _)| k == kind)
        .map_or("", |&(_, _, name)| name)
}

/// `先手` (Black) or `後手` (White).
pub(crate) fn side_name(color: Color) -> &'static str {
    match color {
        Color::Black => "先手",
        Color::White => "後手",
    }
}

/// The standard handicaps (`手合割`) as SFEN: the handicapped side (上手) is White and moves
/// first.
pub(crate) const HANDICAPS: [(&str, &str); 9] = [
    ("平手", crate::STARTPOS_SFEN),
    (
        "香落ち",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "角落ち",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛車落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛香落ち",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "二枚落ち",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// How the moves end: KIF's end words (終局), written as the last move line (`  61 投了`).
/// Where a word names a winner it is relative to the side to move at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// `投了`: the side to move resigns.
    Resign,
    /// `中断`: the game was stopped.
    Interrupt,
    /// `千日手`: fourfold repetition.
    Repetition,
    /// `詰み`: the side to move is mated.
    Mate,
    /// `持将棋`: an impasse, or the move limit.
    Jishogi,
    /// `切れ負け`: the side to move lost on time.
    TimeUp,
    /// `反則勝ち`: the side to move wins by the other side's foul.
    FoulWin,
    /// `反則負け`: the side to move loses by its own foul.
    FoulLoss,
    /// `入玉勝ち`: the side to move wins by declaring (入玉宣言).
    EnteringKing,
    /// `不戦勝`: a win by default.
    DefaultWin,
    /// `不戦敗`: a loss by default.
    DefaultLoss,
    /// `封じ手`: a sealed move.
    Sealed,
    /// `不詰`: no mate (a problem's end).
    NoMate,
}

/// The end words.
pub(crate) const END_WORDS: [(&str, End); 13] = [
    ("投了", End::Resign),
    ("中断", End::Interrupt),
    ("千日手", End::Repetition),
    ("詰み", End::Mate),
    ("持将棋", End::Jishogi),
    ("切れ負け", End::TimeUp),
    ("反則勝ち", End::FoulWin),
    ("反則負け", End::FoulLoss),
    ("入玉勝ち", End::EnteringKing),
    ("不戦勝", End::DefaultWin),
    ("不戦敗", End::DefaultLoss),
    ("封じ手", End::Sealed),
    ("不詰", End::NoMate),
];

impl End {
    /// The word (`投了`).
    pub fn word(self) -> &'static str {
        crate::record::word_of(&END_WORDS, self)
    }

    /// The end whose word `text` starts with.
    pub(crate) fn at_start(text: &str) -> Option<End> {
        END_WORDS
            .iter()
            .find(|(w, _)| text.starts_with(w))
            .map(|&(_, e)| e)
    }
}
