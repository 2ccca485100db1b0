//! KI2 records: the moves of 棋譜 without from-squares (`▲７六歩　△３四歩　▲２二角成　△同　銀`),
//! read ([`read_records`]) and written ([`write()`]) through the one record model by the exact
//! rules ([`notation`]: which piece moved, told by 右・左・直・上・引・寄 and 打 only where the
//! position needs them). The header, the start position (`手合割` or a board diagram), the
//! comments and the `まで…` line are KIF's, read and written by the same code
//! ([`crate::kif`]); in KI2 the `まで…` line is the end (`まで31手で先手の勝ち`: a
//! resignation; `まで5手で詰み`, `まで40手で千日手`, …), and an end word in place of a move
//! (`△投了`) is read too.

pub mod notation;
pub mod read;
mod write;

pub use read::read_records;
pub use write::write;
