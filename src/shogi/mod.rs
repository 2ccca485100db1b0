//! The rules core: the board, positions, fully legal move generation, SFEN, the game with its
//! repetitions (千日手) and the entering-king declaration (入玉宣言), perft, and the random
//! mover. It does no I/O and imports nothing from outside this folder; the crate root
//! re-exports its vocabulary ([`crate::Position`], [`crate::Move`], …).

pub(crate) mod board;
pub(crate) mod color;
pub(crate) mod declaration;
pub(crate) mod game;
pub(crate) mod hand;
pub(crate) mod mailbox;
pub(crate) mod movegen;
pub(crate) mod mover;
pub(crate) mod mv;
pub(crate) mod perft;
pub(crate) mod piece;
pub(crate) mod position;
pub(crate) mod rules;
pub mod sfen;
pub(crate) mod splitmix;
pub(crate) mod square;
pub(crate) mod zobrist;
