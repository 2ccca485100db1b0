//! The statistics of a match, pure functions of the counts: Elo, normalised Elo and LOS
//! (`elo`), the normal distribution behind them (`normal`), the SPRT (`sprt`) and the
//! block printed during and after a match (`report`).

pub(crate) mod elo;
mod normal;
pub(crate) mod report;
pub(crate) mod sprt;
