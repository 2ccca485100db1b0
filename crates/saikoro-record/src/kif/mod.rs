//! KIF game records (棋譜ファイル, the format of Kifu for Windows, 将棋所 and ShogiHome), read
//! ([`read_records`]) and written ([`write()`]) through the one record model
//! ([`crate::Record`]) with the Japanese words that every Japanese form shares
//! ([`crate::japanese`]): the kanji numerals, the piece names, the handicaps (`手合割`)
//! and the end words (終局).
//!
//! A move line is `手数 指し手 (消費時間)`: `   1 ７六歩(77)   ( 0:01/00:00:01)`, `   4 同　銀(31)`,
//! `   5 ４五角打`, `   7 ２二角成(88)`, `   9 ３三桂不成(45)`, a `+` after it on a move that has a
//! later alternative (meaningless to a reader: ShogiGUI writes none). A line ends at an end word
//! (`投了`, `中断`, `千日手`, `詰み`, …) or at a `まで…` line.
//!
//! KIF and KI2 share everything but the move lines: one reader and one writer of the rest.
//! What is kept and what is not:
//! - `key：value` lines (full- or half-width colon) are the header, in order; `手合割`, the hands
//!   (`先手の持駒`, `後手の持駒`, `下手の…`, `上手の…`), the board rows and the side to move
//!   (`先手番`, `後手番`, `下手番`, `上手番`) are read into the start position instead. After a
//!   handicap (a `手合割` other than 平手, or a diagram with `上手`/`下手` hands) the side to
//!   move is White unless a line says otherwise.
//! - `*` lines are comments and `&` lines bookmarks, of the node read last: the start's before
//!   the first move, a move's after it, an end's after the end; a later `&` takes the place of
//!   an earlier. `#` lines are the file's comments ([`crate::Record::file_comments`]), but the
//!   `#KIF version=…` line, which the writer makes anew for the encoding it writes.
//! - Times `( 0:01/00:00:01)` are read as the node's time (whole seconds; an end's too); the
//!   totals are not kept (a writer adds them up again along each line).
//! - `変化：N手` (full- or half-width colon, ASCII or full-width digits, spaces allowed) begins
//!   a variation: it branches from the line read last that reaches move N−1, and is played
//!   instead of that line's move N (or end), after the alternatives it already has. No line
//!   reaching N−1, or one that ends at N−1 (nothing to be an alternative to), is an error, and
//!   so is a first move not numbered N. In KIF a move numbered below the next one without a
//!   `変化` line begins a variation all the same (as tsshogi reads such files). A variation
//!   that repeats the move it branches beside is merged into it (tsshogi's reading).
//! - The end word (`投了`, `詰み`, `反則勝ち`, …) ends a line; `まで…` lines are read (in KI2
//!   they are the end) and their move count must be the line's.
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
pub use write::{move_text, write, write_in};
pub(crate) use write::{write_bookmark, write_comments, write_preamble};
