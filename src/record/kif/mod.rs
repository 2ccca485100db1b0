//! KIF game records (棋譜ファイル, the format of Kifu for Windows, 将棋所 and ShogiHome), read
//! ([`parse`]) and written ([`write_record`]) with the Japanese words that every Japanese form
//! shares ([`crate::record::japanese`]): the kanji numerals, the piece names, the handicaps
//! (`手合割`) and the end words (終局, [`End`]).
//!
//! A move line is `手数 指し手 (消費時間)`: `   1 ７六歩(77)   ( 0:01/00:00:01)`, `   4 同　銀(31)`,
//! `   5 ４五角打`, `   7 ２二角成(88)`, `   9 ３三桂不成(45)`. The moves end at an end word
//! (`投了`, `中断`, `千日手`, `詰み`, …), at `まで…` or at the first variation (`変化：`).
//!
//! A text with no `手合割` line, board diagram, moves' heading (`手数----指手--`) or move line
//! holds no game and is refused, never read as an empty game from the starting position.

mod read;
mod write;

pub use read::{parse, KifError, KifRecord};
pub use write::{move_text, write_record, KifInfo};

pub use crate::record::japanese::End;
