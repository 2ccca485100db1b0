//! The integration tests, in one crate: a module per topic (the file of the same name), the
//! support modules beside them, compiled once. Most drive the real `saikoro` binary
//! (`env!("CARGO_BIN_EXE_saikoro")`) or other processes; each test's scratch files live in a
//! directory of its own.
//!
//! Select with a filter on the module path: `cargo test --test it match::` runs
//! `tests/it/match.rs` (`match` is a keyword: the module is `r#match`, and its tests print as
//! `r#match::…`). A filter matches anywhere in a test's name (`csa::` takes `record_csa::` too;
//! `--skip` leaves a module out).
//!
//! The tests of each library crate are in its folder (`crates/*/tests/`, and its unit tests);
//! these are the binary's, and the layers' and the docs' links.

mod match_support;
mod usi_support;

mod check;
mod check_movegen;
mod cli;
mod csa;
mod engine_faults;
mod layers;
mod links;
mod r#match;
mod match_farm;
mod match_files;
mod match_stats;
mod match_worker;
mod perft_example;
mod record_cli;
mod report;
mod report_page;
mod selfplay;
mod usi;
mod usi_bench;
mod usi_client;
mod usi_garbage;
mod usi_golden;
mod usi_perft;
mod usi_selfplay;
