//! One game: the referee (`referee`: the rules judge every move), the engine in a game
//! (`engine`), `--draw` and `--resign` (`adjudication`), the clock (`timecontrol`), how
//! a game ended (`result`) and where it starts ([`book`], with `record_book` for openings
//! read from records).

pub(crate) mod adjudication;
pub mod book;
pub(crate) mod engine;
pub(crate) mod record_book;
pub(crate) mod referee;
pub(crate) mod result;
pub(crate) mod timecontrol;
