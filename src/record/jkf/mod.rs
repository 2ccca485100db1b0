//! JKF, the JSON Kifu Format of na2hiro's json-kifu-format (Version 1.0), which Kifu for JS and
//! ShogiHome read and write: [`read_records`] and [`write()`] on the record model
//! ([`crate::record::Record`]).
//!
//! A JKF text is one game: `header` (the Japanese keys of KIF, `先手`, `棋戦`, …, kept as they
//! are), `initial` (absent or `null` for 平手; a `preset`, [`PRESETS`], or `OTHER` with `data`:
//! `color`, `board[x-1][y-1]`, `hands`), and `moves`: the 0th entry holds the comments before
//! the first move, each later one a `move` (`color`, `from`, `to`, `piece` before the move,
//! `same`, `promote`, `capture`, `relative`), its `time` (`now`, `total`) and `comments`, or a
//! `special` (the CSA end words, `TORYO`, …) that ends the game. `forks` (変化) are counted into
//! [`crate::record::Record::variations_dropped`] and not kept.

mod read;
mod write;

pub use read::read_records;
pub use write::write;

/// JKF's `initial.preset` names and their SFEN (the handicapped side, 上手, is White and moves
/// first). The spec (json-kifu-format's README, `InitialPresetString`) names them; the
/// positions are those of KIF's 手合割 of the same names (三枚落ち: 二枚落ち less 上手's left
/// lance, on 1一; 五枚落ち: 四枚落ち less the right knight, 8一; 左五枚落ち: less the left knight,
/// 2一; 左七枚落ち: 六枚落ち less the left silver, 3一; 右七枚落ち: less the right one, 7一), as
/// ShogiGUI, Kifu for Windows and shogi-server tables give them.
pub const PRESETS: [(&str, &str); 16] = [
    ("HIRATE", crate::STARTPOS_SFEN),
    (
        "KY",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "KY_R",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "KA",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "HI",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "HIKY",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "2",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "3",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "4",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "5",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "5_L",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "6",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "7_L",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "7_R",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "8",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "10",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];
