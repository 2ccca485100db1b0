//! Saikoro (サイコロ): exact shogi rules, a uniformly random legal-move player, and the USI and
//! CSA protocols on top of them.
//!
//! The rules core ([`Position`], [`Move`], SFEN) knows nothing of any protocol.
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

mod board;
pub mod check;
mod color;
pub mod csa;
mod declaration;
mod game;
mod hand;
mod json;
pub mod kif;
mod mailbox;
mod movegen;
mod mover;
mod mv;
mod perft;
mod piece;
mod position;
mod rules;
pub mod selfplay;
pub mod sfen;
mod splitmix;
mod square;
pub mod tournament;
pub mod usi;
mod zobrist;

pub use color::{ByColor, Color};
pub use declaration::{DeclarationCount, DeclarationError, EnteringKingRule, UnknownRule};
pub use game::{Game, GameResult, Outcome, Repetition};
pub use hand::Hand;
pub use movegen::IllegalMove;
pub use mover::{Choice, RandomMover};
pub use mv::{Move, MoveList, MoveSyntaxError};
pub use perft::{divide, divide_until, perft, Divide};
pub use piece::{Piece, PieceType};
pub use position::{KingRule, Position, PositionError, Setup, Undo, STARTPOS_SFEN};
pub use sfen::{InvalidSfen, SfenError};
pub use splitmix::SplitMix64;
pub use square::Square;
