//! KIF game records (棋譜ファイル, the format of Kifu for Windows, 将棋所 and ShogiHome), read
//! ([`read_records`]) and written ([`write()`]) through the one record model
//! ([`crate::Record`]) with the Japanese words that every Japanese form shares
//! ([`crate::japanese`]): the kanji numerals, the piece names, the handicaps (`手合割`)
//! and the end words (終局).
//!
//! A move line is `手数 指し手 (消費時間)`: `   1 ７六歩(77)   ( 0:01/00:00:01)`, `   4 同　銀(31)`,
//! `   5 ４五角打`, `   7 ２二角成(88)`, `   9 ３三桂不成(45)`. The moves end at an end word
//! (`投了`, `中断`, `千日手`, `詰み`, …), at `まで…` or at the first variation (`変化：`).
//!
//! KIF and KI2 share everything but the move lines: one reader and one writer of the rest.
//! What is kept and what is not:
//! - `key：value` lines (full- or half-width colon) are the header, in order; `手合割`, the hands
//!   (`先手の持駒`, `後手の持駒`, `下手の…`, `上手の…`), the board rows and the side to move
//!   (`先手番`, `後手番`, `下手番`, `上手番`) are read into the start position instead. After a
//!   handicap (a `手合割` other than 平手, or a diagram with `上手`/`下手` hands) the side to
//!   move is White unless a line says otherwise.
//! - `*` lines are comments: before the first move the record's, after a move that move's, after
//!   the end the end's. `&` lines (bookmarks) and `#` lines are ignored.
//! - Times `( 0:01/00:00:01)` are read as the move's time (whole seconds); the totals are not
//!   kept (a writer adds them up again).
//! - `変化：N手` starts a variation: the main line is kept and the variations are counted in
//!   [`crate::Record::variations_dropped`], with the first one's move in
//!   [`crate::Record::variations_from`]; `saikoro record` says what was left out.
//! - The end word (`投了`, `詰み`, `反則勝ち`, …) ends the moves; `まで…` lines are read (in KI2
//!   they are the end) and their move count must be the record's.
//! - A text with only a position and no moves is a game of no moves when it has a `手合割` line,
//!   a board diagram or the moves' heading (`手数----指手--`); a text with none of them and no
//!   move is no record. One game a text: a position line after the moves is an error.
//!
//! A text with no `手合割` line, board diagram, moves' heading (`手数----指手--`) or move line
//! holds no game and is refused (`RecordError { line: 0, .. }`), never read as an empty game
//! from the starting position; a text with a `手合割` line or a board diagram and no moves is a
//! game of no moves.

mod read;
mod write;

pub use read::read_records;
pub use write::{move_text, write, write_with_notes};
pub(crate) use write::{write_comments, write_preamble};
