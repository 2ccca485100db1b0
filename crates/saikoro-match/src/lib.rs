//! The code of `saikoro match`: engines playing each other over many games, judged by exact
//! rules, and the statistics that say what the results mean. Its command line is the saikoro
//! binary's (`src/cli/tournament.rs`: `tournament`, fastchess's word for what the command
//! runs).
//!
//! Laid out after fastchess: the vocabulary every part shares — the settings ([`config`]),
//! who plays whom and the scoreboard (`schedule`), the match ready to run and its errors
//! ([`types`]) — and four folders that import it, never the driver of the match:
//!
//! - [`game`]: one game — the referee, the engine in a game, adjudication, the clock
//!   ([`Limits`], [`ClockRules`]), how it ended ([`Decision`], [`Reason`]) and the openings
//!   ([`game::book`]);
//! - [`run`]: the run — the main loop ([`run::scheduler::run`]), the stop
//!   rules and the figures of each pairing ([`run::standings`]);
//! - [`output`]: what a match writes — per-game lines, JSON results, the PGN file, CSA and KIF
//!   records, the saved state for `--resume` ([`output::state`]) and the files' safety rules;
//! - [`stats`]: the statistics.
//!
//! The flags' `key=value` words are read as the system gives them ([`words`]): a path in them
//! is kept as given, whether or not it is UTF-8.
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

#![warn(missing_docs)]

pub mod config;
pub mod game;
pub mod output;
pub mod run;
pub(crate) mod schedule;
pub mod stats;
pub mod types;
pub mod words;

pub use game::result::{Decision, Reason};
pub use game::timecontrol::{ClockRules, Limits, TimeControlError};
pub use stats::elo::{EloEstimate, Pentanomial, Tally, Wdl};
pub use stats::report::Report;
pub use stats::sprt::{SprtConfig, SprtConfigError, SprtModel, SprtVerdict};

/// The word that a table of this crate (`(word, value)` pairs, each value once) gives `value`;
/// empty when the table has none.
pub(crate) fn word_of<T: PartialEq + Copy>(table: &[(&'static str, T)], value: T) -> &'static str {
    table
        .iter()
        .find(|&&(_, v)| v == value)
        .map_or("", |&(w, _)| w)
}

// The statistics' tests against their published figures (`tests/pure/`, through the public API
// as `saikoro_match::…`), compiled into the crate's own test harness, as the rules core's are:
// `cargo mutants` then builds one crate for every mutant.
#[cfg(test)]
extern crate self as saikoro_match;
#[cfg(test)]
#[path = "../tests/pure/mod.rs"]
mod pure;
