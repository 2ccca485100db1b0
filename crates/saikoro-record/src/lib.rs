//! Shogi game records (棋譜) in the text forms of the field, each read and written beside the
//! rules core, every move checked by the rules: KIF ([`kif`], with the Japanese words of
//! [`japanese`]), KI2 ([`ki2`]), CSA ([`csa`]: the move notation and whole records), JKF
//! ([`jkf`]), and the USI and SFEN lines ([`usi`]). [`game`] is the one record model they read
//! into and write from, a tree ([`tree`]: every variation, comment, bookmark and time) whose
//! nodes an [`Address`] names; [`form`] tells the forms apart, dispatches to them, says what
//! each keeps ([`form::left_out`]) and encodes the text ([`encoding`]). The rules core it was
//! built with is re-exported as [`saikoro_core`], and its board diagram as [`diagram`].
//!
//! ```
//! use saikoro_record::{form, Format};
//!
//! let kif = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n\
//!            1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
//! let records = form::read(kif, Format::Kif).unwrap();
//! let game = &records[0];
//! assert_eq!(game.moves.len(), 2);
//! assert_eq!(game.moves[1].mv.to_string(), "3c3d");
//! // The same game as CSA, and back.
//! let csa = form::write(game, Format::Csa);
//! assert!(csa.contains("+7776FU") && csa.contains("%TORYO"));
//! assert_eq!(form::read(&csa, Format::Csa).unwrap()[0].moves, game.moves);
//! ```

#![warn(missing_docs)]

pub use saikoro_core;
pub use saikoro_core::diagram;

mod address;
pub(crate) mod build;
pub mod csa;
pub mod encoding;
mod ending;
pub mod form;
pub mod game;
pub mod japanese;
pub mod jkf;
mod keeps;
pub mod ki2;
pub mod kif;
pub(crate) mod kifu;
pub mod tree;
pub mod usi;

/// The word that a form's table (`(word, value)` pairs, each value once) gives `value`; empty
/// when the table has none.
pub(crate) fn word_of<T: PartialEq + Copy>(table: &[(&'static str, T)], value: T) -> &'static str {
    table
        .iter()
        .find(|&&(_, v)| v == value)
        .map_or("", |&(w, _)| w)
}

pub use address::{Address, AddressError, Located, Target};
pub use game::{Ending, Format, Record, RecordError};
pub use tree::{Line, LineView, Node, RecordEnd, RecordMove};

// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
