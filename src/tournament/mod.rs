//! The match runner (`saikoro match`): engines playing each other over many games, judged by
//! exact rules, and the statistics that say what the results mean.
//!
//! Laid out after fastchess: [`config`] (the settings from the command line), [`book`]
//! (openings), [`timecontrol`] (time controls and the clock), [`engine`] (an engine process of
//! the match), [`game`] (one game, with the rules as the referee) with [`result`] (how it
//! ended) and [`adjudication`] (`--draw`, `--resign`), [`schedule`] (who plays whom, and the
//! score), [`scheduler`] (concurrency, engine processes, the main loop), [`sink`] (the outputs
//! each finished game is handed to) and [`stop`] (the rules that end a match early),
//! [`output`] (per-game lines and JSON results), [`records`] (CSA and KIF records), [`resume`]
//! (the saved match state), and [`standings`] (the statistics of each pairing, printed with
//! [`report`]).
//!
//! The statistics are pure functions of the counts:
//!
//! - [`stats`]: win/draw/loss and game-pair counts; Elo, normalised Elo and LOS from them.
//! - [`sprt`]: the sequential probability ratio test that stops a match at a verdict.
//! - [`report`]: the statistics block printed during and after a match, in fastchess's layout.
//!
//! They follow fastchess (its `app/src/matchmaking/elo/`, `sprt/` and `output/` sources), whose
//! output engine developers know, and the notes by Michel Van den Bergh behind fastchess's and
//! fishtest's formulas; each item names its source.

pub mod adjudication;
pub mod book;
pub mod config;
pub mod engine;
pub mod game;
mod normal;
pub mod output;
pub mod records;
pub mod report;
pub mod result;
pub mod resume;
pub mod schedule;
pub mod scheduler;
pub mod sink;
pub mod sprt;
pub mod standings;
pub mod stats;
pub mod stop;
pub mod timecontrol;

pub use report::Report;
pub use sprt::{SprtConfig, SprtConfigError, SprtModel, SprtVerdict};
pub use stats::{EloEstimate, Pentanomial, Tally, Wdl};
