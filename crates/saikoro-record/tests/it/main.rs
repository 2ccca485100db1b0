//! The records' tests, in one crate: a module per form (the file of the same name), the
//! support module beside them, compiled once. They read and write records in-process through
//! the crate's public API; the command line's `saikoro record` is tested with the binary, in
//! the root package's `tests/it/record_cli.rs`.

mod record_support;

mod ki2_notation;
mod record_csa;
mod record_forms;
mod record_jkf;
mod record_ki2;
mod record_kif;
mod record_roundtrip;
mod record_trees;
