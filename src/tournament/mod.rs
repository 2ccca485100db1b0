//! The code of `saikoro match`: engines playing each other over many games, judged by exact
//! rules, and the statistics that say what the results mean. The module is called
//! `tournament`, fastchess's word for what the command runs; its command line is
//! `src/cli/tournament.rs` in the binary.
//!
//! Laid out after fastchess. What a library user drives a match with: [`config`] (the settings
//! from the command line), [`book`] (openings), [`scheduler`] (concurrency, engine processes,
//! the main loop, [`scheduler::run`]), [`resume`] (the saved match state) and [`standings`]
//! (the statistics of each pairing, printed as a [`Report`]). Behind them, private to the
//! crate: `timecontrol` (time controls and the clock; its vocabulary re-exported here as
//! [`Limits`] and [`ClockRules`]), `engine` (an engine process of the match), `game` (one game,
//! with the rules as the referee) with `result` (how it ended: [`Decision`], [`Reason`]) and
//! `adjudication` (`--draw`, `--resign`), `schedule` (who plays whom, and the score), `sink`
//! (the outputs each finished game is handed to), `stop` (the rules that end a match early),
//! `output` (per-game lines and JSON results), `records` (CSA and KIF records), [`pgn`] (all
//! games in one PGN file), [`style`] (the words of the lines and the PGN file: Saikoro's or
//! shogitest's) and `record_book` (openings read from CSA and KIF records).
//!
//! The statistics are pure functions of the counts, re-exported here:
//!
//! - [`Wdl`], [`Pentanomial`], [`Tally`], [`EloEstimate`]: win/draw/loss and game-pair
//!   counts; Elo, normalised Elo and LOS from them.
//! - [`SprtConfig`], [`SprtVerdict`]: the sequential probability ratio test that stops a match
//!   at a verdict.
//! - [`Report`]: the statistics block printed during and after a match, in fastchess's layout.
//!
//! They follow fastchess (its `app/src/matchmaking/elo/`, `sprt/` and `output/` sources), whose
//! output engine developers know, and the notes by Michel Van den Bergh behind fastchess's and
//! fishtest's formulas; each item names its source.

pub(crate) mod adjudication;
pub mod book;
pub mod config;
pub(crate) mod engine;
pub(crate) mod files;
pub(crate) mod game;
mod normal;
pub(crate) mod output;
pub mod pgn;
pub(crate) mod record_book;
pub(crate) mod records;
pub(crate) mod report;
pub(crate) mod result;
pub mod resume;
pub(crate) mod schedule;
pub mod scheduler;
pub(crate) mod sink;
pub(crate) mod sprt;
pub mod standings;
pub(crate) mod stats;
pub(crate) mod stop;
pub mod style;
pub(crate) mod timecontrol;

pub use report::Report;
pub use result::{Decision, Reason};
pub use sprt::{SprtConfig, SprtConfigError, SprtModel, SprtVerdict};
pub use stats::{EloEstimate, Pentanomial, Tally, Wdl};
pub use timecontrol::{ClockRules, Limits, TimeControlError};
