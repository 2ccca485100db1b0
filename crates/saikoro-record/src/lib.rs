//! Game records in the text forms of the field, each read and written beside the rules core:
//! KIF ([`kif`], with the Japanese words of [`japanese`]), KI2 ([`ki2`]), CSA ([`csa`]: the
//! move notation and whole records), JKF ([`jkf`]), the USI and SFEN lines ([`usi`]) and the
//! board diagram ([`diagram`]) that `d` and the checker print. [`game`] is the one record model
//! they read into and write from; [`form`] tells the forms apart and dispatches to them.

pub mod csa;
pub mod form;
pub mod game;
pub mod japanese;
pub mod jkf;
pub mod ki2;
pub mod kif;
pub(crate) mod kifu;
pub mod usi;

/// The word that a form's table (`(word, value)` pairs, each value once) gives `value`; empty
/// when the table has none.
pub(crate) fn word_of<T: PartialEq + Copy>(table: &[(&'static str, T)], value: T) -> &'static str {
    table
        .iter()
        .find(|&&(_, v)| v == value)
        .map_or("", |&(w, _)| w)
}

pub use game::{Ending, Format, Record, RecordError, RecordMove};
