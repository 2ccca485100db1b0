//! The CSA server protocol (as Floodgate's shogi-server speaks it): notation, the
//! Game_Summary, the clock, records, the client state machine and the external USI engine it
//! can drive.

#![warn(missing_docs)]

pub mod client;
pub mod clock;
pub mod engine_player;
mod mask;
pub mod summary;

pub use client::{ClientConfig, GameReport, Player, ServerResult, SessionEnd, SessionError};
pub use clock::{Clock, TimeRules};
pub use summary::GameSummary;
