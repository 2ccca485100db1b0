//! The tests that call the library in-process and start no process: the rules, SFEN, perft,
//! the differential oracle and the match runner's statistics, a module each, through the
//! public API (`saikoro::…`).
//!
//! Compiled into the library's unit-test harness (`src/lib.rs`: `mod pure`, with the crate
//! named `saikoro` to itself), not as a binary of their own: these are the tests that judge
//! the files `cargo mutants` mutates (`.cargo/mutants.toml`), and with the unit tests in one
//! crate a mutant builds that crate once (about 6 s of CPU) instead of the library's harness
//! and the library again for a test binary (about 11 s). `cargo test --lib pure::` runs them
//! alone.

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
