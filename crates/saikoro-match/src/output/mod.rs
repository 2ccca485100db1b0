//! What a match writes: the outputs each finished game is handed to (`sink`), the per-game
//! lines and JSON results (`lines`), the PGN file ([`pgn`]), CSA and KIF records
//! (`records`), the saved state for `--resume` ([`state`]), the files' safety rules
//! (`files`) and the words of the lines ([`style`]).

pub(crate) mod files;
pub(crate) mod lines;
pub mod pgn;
pub(crate) mod records;
pub mod report;
pub(crate) mod sink;
pub mod state;
pub mod style;

pub use files::{results_owner, state_of_results};
