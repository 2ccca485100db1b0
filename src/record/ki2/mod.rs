//! KI2 records: the moves of 棋譜 without from-squares.

pub mod notation;
