//! The run of a match: who plays whom (`schedule`), the loop that plays the games
//! ([`scheduler`]), the rules that end a match early (`stop`) and the figures of each pairing
//! as the match goes ([`standings`]).

pub(crate) mod schedule;
pub mod scheduler;
pub mod standings;
pub(crate) mod stop;
