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
//! Apart from it: `tests/pure/` (the in-process tests that `cargo mutants` runs for every
//! mutant, compiled into the library's unit tests) and `tests/usi_guard.rs` (a binary of its
//! own: a test that ends every engine of its process).

#[path = "../common/mod.rs"]
mod common;
mod match_support;
mod record_support;
mod usi_support;

mod check;
mod check_movegen;
mod check_positions;
mod cli;
mod csa;
mod engine_faults;
mod ki2_notation;
mod layers;
mod links;
mod r#match;
mod match_farm;
mod match_files;
mod match_stats;
mod match_worker;
mod perft_example;
mod record_cli;
mod record_csa;
mod record_forms;
mod record_jkf;
mod record_ki2;
mod record_kif;
mod record_roundtrip;
mod report;
mod report_page;
mod selfplay;
mod uniform;
mod usi;
mod usi_bench;
mod usi_client;
mod usi_garbage;
mod usi_golden;
mod usi_perft;
mod usi_process;
mod usi_selfplay;
