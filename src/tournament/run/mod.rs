//! The run of a match: the loop that plays the games
//! ([`scheduler`]), the rules that end a match early (`stop`) and the figures of each pairing
//! as the match goes ([`standings`]).

pub mod scheduler;
pub mod standings;
pub(crate) mod stop;
