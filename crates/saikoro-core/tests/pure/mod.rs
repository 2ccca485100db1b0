//! The tests that call the crate in-process through its public API (`saikoro_core::…`): the
//! rules, SFEN, perft and the differential oracle, a module each.
//!
//! Compiled into the crate's unit-test harness (`src/lib.rs`: `mod pure`, with the crate named
//! `saikoro_core` to itself), not as a binary of their own: these are the tests that judge the
//! files `cargo mutants` mutates (`.cargo/mutants.toml`), and with the unit tests in one crate a
//! mutant builds that crate once instead of the library's harness and the library again for a
//! test binary. `cargo test -p saikoro-core --lib pure::` runs them alone.

mod differential;
mod perft;
mod rules;
mod sfen;
mod uniform;

/// The text of the crate's `positions/<name>`.
fn read_positions_file(name: &str) -> String {
    let path: std::path::PathBuf = [env!("CARGO_MANIFEST_DIR"), "positions", name]
        .iter()
        .collect();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
