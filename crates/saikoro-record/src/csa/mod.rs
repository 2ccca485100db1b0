//! The CSA notation (`+7776FU`, `%TORYO`) and whole CSA records, as Floodgate's server and
//! the record files of the field write them: [`read_records`] and [`write()`] (or
//! [`write_version`], V2.2 or V3.0) on the record model ([`crate::Record`]), the one
//! CSA reader and writer that `saikoro record`, the match, the CSA client and self-play use.

mod model;
pub mod notation;

pub use model::{format_time, read_records, write, write_version, Version};
pub(crate) use model::{special_ending, special_word};
