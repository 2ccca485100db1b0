//! Matches between USI engines (`saikoro match`), judged by exact rules: the runner's home.

pub mod adjudication;
pub mod book;
pub mod config;
pub mod output;
pub mod records;
pub mod result;
pub mod resume;
pub mod timecontrol;
