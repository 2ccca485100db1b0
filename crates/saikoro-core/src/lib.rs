//! The rules of shogi (将棋), exact: squares, pieces, moves, positions, SFEN, fully legal move
//! generation — drops (打), 二歩 (two unpromoted pawns on a file), dead pieces (行き所のない駒),
//! promotion (成り), pins, check evasions and 打ち歩詰め (the pawn-drop mate) —, the game with
//! its repetitions (千日手, 連続王手の千日手 included) and the entering-king declaration
//! (入玉宣言, by the 24- and 27-point rules), perft, and a uniformly random legal-move player.
//! It does no I/O.
//!
//! ```
//! use saikoro_core::{Move, Position};
//!
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 30);
//! assert_eq!(saikoro_core::perft(&mut pos, 2), 900);
//! let mv = Move::from_usi("7g7f").unwrap();
//! assert!(pos.is_legal(mv).is_ok());
//! pos.do_move(mv);
//! assert_eq!(pos.to_sfen(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
//! ```
//!
//! Every move the generator gives is legal, and every legal move is given, so callers never
//! filter. A move given as USI text (`7g7f`, `P*5e`, `8h2b+`) is parsed by [`Move::from_usi`]
//! and judged by [`Position::is_legal`], which names the rule it breaks ([`IllegalMove`]).
//!
//! # Features
//!
//! - `rand` (default): [`RandomMover`], the player that picks a uniformly random legal move
//!   from a portable, seeded generator. Without it the crate depends on nothing.

#![warn(missing_docs)]

mod board;
mod color;
mod declaration;
mod diagram;
mod game;
mod hand;
mod mailbox;
mod movegen;
mod mover;
mod mv;
mod perft;
mod perft_table;
mod piece;
mod position;
mod rules;
pub mod sfen;
mod splitmix;
mod square;
mod zobrist;

pub use color::{ByColor, Color};
pub use declaration::{DeclarationCount, DeclarationError, EnteringKingRule, UnknownRule};
pub use diagram::diagram;
pub use game::{Game, GameResult, Outcome, Repetition};
pub use hand::Hand;
pub use movegen::IllegalMove;
pub use mover::Choice;
#[cfg(feature = "rand")]
pub use mover::RandomMover;
pub use mv::{Move, MoveList, MoveSyntaxError, UsiText};
pub use perft::{divide, divide_until, perft, Divide};
pub use perft_table::{published_perft, PerftCase};
pub use piece::{Piece, PieceType};
pub use position::{KingRule, Position, PositionError, Setup, Undo, STARTPOS_SFEN};
pub use sfen::{InvalidSfen, SfenError};
pub use splitmix::SplitMix64;
pub use square::Square;

// The tests of `tests/pure/` (the rules, SFEN, perft and the differential oracle, through the
// public API as `saikoro_core::…`), compiled into the crate's own test harness: `cargo
// mutants` builds one crate for every mutant, the library with its tests, instead of that and
// the library again for a test binary of their own.
#[cfg(test)]
extern crate self as saikoro_core;
#[cfg(test)]
#[path = "../tests/pure/mod.rs"]
mod pure;

// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
