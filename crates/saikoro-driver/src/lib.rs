//! The driver of other USI engines: the program's command line ([`EngineCommand`]), its
//! process and pipes ([`process`]), the guard that ends its process group with ours
//! ([`guard`]), the transcript of what was said ([`transcript`]), the protocol client
//! ([`UsiClient`]) and one engine's whole session under a fault policy ([`EngineSession`]).
//!
//! It knows no tool: `csa`, `match` and `check` all start and drive engines through it.

#![warn(missing_docs)]

pub mod client;
pub mod guard;
mod pipe;
pub mod process;
mod program;
pub mod session;
pub mod transcript;

pub use client::{ClientError, EngineInfo, SearchResult, UsiClient};
pub use program::{split_command, CommandLineError, EngineCommand};
pub use session::{EngineSession, EngineSpec, FaultPolicy, OptionRule, StartError, StartFailure};
