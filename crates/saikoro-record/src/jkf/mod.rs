//! JKF, the JSON Kifu Format of na2hiro's json-kifu-format (Version 1.0), which Kifu for JS and
//! ShogiHome read and write: [`read_records`] and [`write()`] on the record model
//! ([`crate::Record`]).
//!
//! A JKF text is one game: `header` (the Japanese keys of KIF, `先手`, `棋戦`, …, kept as they
//! are), `initial` (absent or `null` for 平手; a `preset`, [`PRESETS`], or `OTHER` with `data`:
//! `color`, `board[x-1][y-1]`, `hands`), and `moves`: the 0th entry holds the comments before
//! the first move, each later one a `move` (`color`, `from`, `to`, `piece` before the move,
//! `same`, `promote`, `capture`, `relative`), its `time` (`now`, `total`) and `comments`, or a
//! `special` (the CSA end words, `TORYO`, …) that ends a line. `forks` (変化) sit on the item
//! that they are played instead of: each fork an array of items, its first at that item's move
//! number, nested the same way; they are read into the tree ([`crate::tree`]) and written from
//! it. JKF has no bookmarks.
//!
//! Where tsshogi departs from the spec, Saikoro follows the spec: a `move` with `same` and no
//! `to` moves to the square of the last move (tsshogi takes the square of the move before it),
//! and an end with no CSA name (不戦勝, 不戦敗, 封じ手) is written `CHUDAN`, its line and the
//! forks after it kept (tsshogi cuts the line there, and a fork that starts with such an end
//! becomes `[]`).
//!
//! Both directions go through the serde types of `format.rs`, one per kind of JSON object.

mod format;
mod read;
mod write;

pub use read::read_records;
pub use write::write;

/// JKF's `initial.preset` names (json-kifu-format's README, `InitialPresetString`) and the
/// `手合割` each stands for: the positions are the one handicap table of
/// [`crate::japanese`] (the handicapped side, 上手, is White and moves first).
pub const PRESETS: [(&str, &str); 16] = [
    ("HIRATE", "平手"),
    ("KY", "香落ち"),
    ("KY_R", "右香落ち"),
    ("KA", "角落ち"),
    ("HI", "飛車落ち"),
    ("HIKY", "飛香落ち"),
    ("2", "二枚落ち"),
    ("3", "三枚落ち"),
    ("4", "四枚落ち"),
    ("5", "五枚落ち"),
    ("5_L", "左五枚落ち"),
    ("6", "六枚落ち"),
    ("7_L", "左七枚落ち"),
    ("7_R", "右七枚落ち"),
    ("8", "八枚落ち"),
    ("10", "十枚落ち"),
];
