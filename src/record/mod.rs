//! Game records in the text forms of the field, each read and written beside the rules core:
//! KIF ([`kif`]), CSA ([`csa`]: the move notation and whole records) and the board diagram
//! (`diagram`) that `d` and the checker print.

pub mod csa;
pub(crate) mod diagram;
pub mod kif;
