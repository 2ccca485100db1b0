//! Game records in the text forms of the field, each read and written beside the rules core:
//! KIF ([`kif`], with the Japanese words of [`japanese`]), CSA ([`csa`]: the move notation and whole records) and the board diagram
//! (`diagram`) that `d` and the checker print. [`game`] is the one record model they read into
//! and write from.

pub mod csa;
pub(crate) mod diagram;
pub mod game;
pub mod japanese;
pub mod ki2;
pub mod kif;
pub(crate) mod kifu;

/// The word that a form's table (`(word, value)` pairs, each value once) gives `value`; empty
/// when the table has none.
pub(crate) fn word_of<T: PartialEq + Copy>(table: &[(&'static str, T)], value: T) -> &'static str {
    table
        .iter()
        .find(|&&(_, v)| v == value)
        .map_or("", |&(w, _)| w)
}

pub use game::{Ending, Format, Record, RecordError, RecordMove};
