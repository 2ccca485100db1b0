//! The integration tests, in one crate: a module per topic (the file of the same name), the
//! support modules beside them, compiled once. Most drive the real `saikoro` binary
//! (`usi_support::BIN`: cargo's build, or the binary `SAIKORO_TEST_BIN` names) or other processes; each test's scratch files live in a
//! directory of its own.
//!
//! Select with a filter on the module path: `cargo test --test it match::` runs
//! `tests/it/match.rs` (`match` is a keyword: the module is `r#match`, and its tests print as
//! `r#match::…`). A filter matches anywhere in a test's name (`csa::` takes `record_csa::` too;
//! `--skip` leaves a module out).
//!
//! The tests of each library crate are in its folder (`crates/*/tests/`, and its unit tests);
//! these are the binary's, and the layers' and the docs' links. The tools' modules need the
//! `tools` feature (the default); the engine's run against the engine-only build too
//! (`cargo test -p saikoro --no-default-features`).

#[cfg(feature = "tools")]
mod match_support;
mod usi_support;

#[cfg(feature = "tools")]
mod check;
#[cfg(feature = "tools")]
mod check_movegen;
#[cfg(feature = "tools")]
mod cli;
#[cfg(feature = "tools")]
mod csa;
#[cfg(feature = "tools")]
mod csa_password;
#[cfg(feature = "tools")]
mod engine_faults;
mod layers;
mod links;
#[cfg(feature = "tools")]
mod r#match;
#[cfg(feature = "tools")]
mod match_farm;
#[cfg(feature = "tools")]
mod match_files;
#[cfg(feature = "tools")]
mod match_stats;
#[cfg(feature = "tools")]
mod match_worker;
mod modes;
mod perft_example;
#[cfg(feature = "tools")]
mod record_cli;
#[cfg(feature = "tools")]
mod report;
#[cfg(feature = "tools")]
mod report_figures;
#[cfg(feature = "tools")]
mod report_page;
#[cfg(feature = "tools")]
mod selfplay;
mod usi;
mod usi_bench;
#[cfg(feature = "tools")]
mod usi_client;
mod usi_garbage;
mod usi_golden;
mod usi_perft;
mod usi_selfplay;
