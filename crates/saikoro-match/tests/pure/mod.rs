//! The match runner's statistics against their published figures (fastchess's test vectors,
//! Van den Bergh's notes), through the crate's public API (`saikoro_match::…`), a module each.
//!
//! Compiled into the crate's unit-test harness (`src/lib.rs`: `mod pure`), as the rules core's
//! are: these tests judge the files `cargo mutants` mutates (`.cargo/mutants.toml`).

mod support;

mod elo;
mod report;
mod sprt;
