//! The CSA notation (`+7776FU`, `%TORYO`) and whole CSA records, as Floodgate's server and
//! the record files of the field write them.

pub mod notation;
pub mod record;

pub use record::{read_record, write_record, CsaRecord, End, RecordInfo};
