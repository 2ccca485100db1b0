//! The match runner (`saikoro match`): engines playing each other over many games, and the
//! statistics that say what the results mean.
//!
//! - [`stats`]: win/draw/loss and game-pair counts; Elo, normalised Elo and LOS from them.
//! - [`sprt`]: the sequential probability ratio test that stops a match at a verdict.
//! - [`report`]: the statistics block printed during and after a match, in fastchess's layout.
//!
//! The statistics are pure functions of the counts. They follow fastchess (its
//! `app/src/matchmaking/elo/`, `sprt/` and `output/` sources), whose output engine developers
//! know, and the notes by Michel Van den Bergh behind fastchess's and fishtest's formulas; each
//! item names its source.

mod normal;
pub mod report;
pub mod sprt;
pub mod stats;

pub use report::Report;
pub use sprt::{SprtConfig, SprtConfigError, SprtModel, SprtVerdict};
pub use stats::{EloEstimate, GameResult, Pentanomial, Tally, Wdl};
