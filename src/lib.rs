//! Saikoro (サイコロ): exact shogi rules, a uniformly random legal-move player, and the USI and
//! CSA protocols on top of them.
//!
//! The rules core ([`shogi`]: [`Position`], [`Move`], SFEN) knows nothing of any protocol; the
//! layers above it are laid out in `docs/architecture.md`.
//!
//! ```
//! use saikoro::{Move, Position};
//!
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 30);
//! assert_eq!(saikoro::perft(&mut pos, 2), 900);
//! let mv = Move::from_usi("7g7f").unwrap();
//! assert!(pos.is_legal(mv).is_ok());
//! pos.do_move(mv);
//! assert_eq!(pos.to_sfen(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
//! ```

#![warn(missing_docs)]

pub mod check;
pub mod csa;
pub mod driver;
pub mod engine;
pub mod outfile;
pub mod record;
pub mod selfplay;
pub mod shogi;
pub mod tournament;
pub mod usi;

pub use shogi::color::{ByColor, Color};
pub use shogi::declaration::{DeclarationCount, DeclarationError, EnteringKingRule, UnknownRule};
pub use shogi::game::{Game, GameResult, Outcome, Repetition};
pub use shogi::hand::Hand;
pub use shogi::movegen::IllegalMove;
pub use shogi::mover::{Choice, RandomMover};
pub use shogi::mv::{Move, MoveList, MoveSyntaxError, UsiText};
pub use shogi::perft::{divide, divide_until, perft, Divide};
pub use shogi::piece::{Piece, PieceType};
pub use shogi::position::{KingRule, Position, PositionError, Setup, Undo, STARTPOS_SFEN};
pub use shogi::sfen::{InvalidSfen, SfenError};
pub use shogi::splitmix::SplitMix64;
pub use shogi::square::Square;

// The tests of `tests/pure/` (the rules, SFEN, perft, the differential oracle and the match
// runner's statistics, through the public API as `saikoro::…`), compiled into the library's
// own test harness: `cargo mutants` builds one crate for every mutant, the library with its
// tests, instead of that and the library again for a test binary of their own.
#[cfg(test)]
extern crate self as saikoro;
#[cfg(test)]
#[path = "../tests/pure/mod.rs"]
mod pure;
