//! Matches between USI engines (`saikoro match`), judged by exact rules: the runner's home.
//!
//! Laid out after fastchess: [`config`] (the settings from the command line), [`book`]
//! (openings), [`timecontrol`] (time controls and the clock), [`engine`] (an engine process of
//! the match), [`game`] (one game, with the rules as the referee) with [`result`] (how it
//! ended) and [`adjudication`] (`--draw`, `--resign`), [`schedule`] (who plays whom, and the
//! score), [`scheduler`] (concurrency, engine processes, stopping), [`output`] (per-game lines
//! and JSON results), [`records`] (CSA and KIF records), [`resume`] (the saved match state) and
//! [`report`] (the score table).

pub mod adjudication;
pub mod book;
pub mod config;
pub mod engine;
pub mod game;
pub mod output;
pub mod records;
pub mod report;
pub mod result;
pub mod resume;
pub mod schedule;
pub mod scheduler;
pub mod timecontrol;
