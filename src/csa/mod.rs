//! The CSA server protocol (as Floodgate's shogi-server speaks it): notation, the
//! Game_Summary, the clock, records, the client state machine and the external USI engine it
//! can drive.

pub mod client;
pub mod clock;
pub mod engine_player;
pub mod notation;
pub mod record;
pub mod summary;

pub use client::{ClientConfig, GameReport, Player, ServerResult, SessionEnd, SessionError};
pub use clock::{Clock, TimeRules};
pub use record::{write_record, RecordInfo};
pub use summary::GameSummary;
