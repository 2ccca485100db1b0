//! The run of a match: the loop that plays the games
//! ([`scheduler`]), the rules that end a match early (`stop`), the figures of each pairing
//! as the match goes ([`standings`]) and the match's HTML page ([`report`]).

pub mod report;
pub mod scheduler;
pub mod standings;
pub(crate) mod stop;
