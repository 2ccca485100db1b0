//! The tests that call the library in-process and start no process: the rules, SFEN, perft,
//! the differential oracle and the match runner's statistics, a module each.
//!
//! A binary of its own, apart from `tests/it/`, for `cargo mutants` (`.cargo/mutants.toml`):
//! these are the tests that judge the files it mutates, and it builds and runs them for every
//! mutant. Its options go to every cargo command (`cargo build` as well as `cargo test`), and a
//! test-name filter would reach the unit tests too, so only a test target of their own lets a
//! mutant build these few thousand lines and run them in seconds, not the whole integration
//! suite with its processes.

#[path = "../common/mod.rs"]
mod common;
mod tournament_support;

mod differential;
mod perft;
mod rules;
mod sfen;
mod tournament_elo;
mod tournament_report;
mod tournament_sprt;
