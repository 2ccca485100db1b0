//! The statistics block the runner prints every `--ratinginterval` games and at the end, in
//! fastchess's layout (`app/src/matchmaking/output/output_fastchess.hpp`, `printInterval`
//! for two engines), so that its users read it at a glance:
//!
//! ```text
//! --------------------------------------------------
//! Results of new vs old (10+0.1, openings.sfen):
//! Elo: 55.58 +/- 27.65, nElo: 57.94 +/- 28.28
//! LOS: 100.00 %, DrawRatio: 21.72 %, PairsRatio: 1.58
//! Games: 580, Wins: 245, Losses: 153, Draws: 182, Points: 336.0 (57.93 %)
//! Ptnml(0-2): [34, 54, 63, 64, 75], WL/DD Ratio: 0.97
//! LLR: 1.30 (44.2%) (-2.94, 2.94) [0.00, 5.00]
//! --------------------------------------------------
//! ```
//!
//! (290 pairs, LL 34, LD 54, WL 31, DD 32, WD 64, WW 75, with `--sprt elo0=0 elo1=5`; the
//! tests check these figures against values computed apart from this code.)
//!
//! Where fastchess would print `nan` (a value the results leave undefined, such as the Elo
//! error after all wins or the draw ratio of no games) this prints `n/a`; infinite values print
//! as `inf` and `-inf`, as in fastchess. fastchess prints the Elo of an even score as `-0.00`
//! (a negative zero); here it is `0.00`.

use crate::stats::elo::{EloEstimate, Tally};
use crate::stats::sprt::SprtConfig;
use std::fmt;

/// The dashed line that opens and closes the block (50 dashes, as fastchess).
pub(crate) const RULE: &str = "--------------------------------------------------";

/// One statistics block for a pair of engines; [`fmt::Display`] writes it, each line ending
/// in a newline.
#[derive(Clone, Copy, Debug)]
pub struct Report<'a> {
    /// The first engine's name: every figure is from its point of view.
    pub first: &'a str,
    /// The second engine's name.
    pub second: &'a str,
    /// What fastchess puts in parentheses after the names (its time control, threads, hash
    /// and opening book), made by the runner; the parentheses are left out when empty.
    pub details: &'a str,
    /// The first engine's results against the second.
    pub tally: Tally,
    /// Report from the game pairs (fastchess's `-report penta=true`, its default) rather than
    /// from the single games. With the `bayesian` SPRT model, which has no pentanomial form,
    /// the block is trinomial all the same, as in fastchess.
    pub pentanomial: bool,
    /// The SPRT, when one runs: adds the `LLR:` line.
    pub sprt: Option<&'a SprtConfig>,
    /// Lines printed at the end of the block, before the closing rule: what the figures leave
    /// out or count twice (see `standings`).
    pub notes: &'a [String],
}

impl Report<'_> {
    fn uses_pentanomial(&self) -> bool {
        self.pentanomial && self.sprt.is_none_or(|s| s.model().supports_pentanomial())
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let penta = self.uses_pentanomial();
        let wdl = self.tally.wdl;
        let pairs = self.tally.pentanomial;
        writeln!(f, "{RULE}")?;
        if self.details.is_empty() {
            writeln!(f, "Results of {} vs {}:", self.first, self.second)?;
        } else {
            writeln!(
                f,
                "Results of {} vs {} ({}):",
                self.first, self.second, self.details
            )?;
        }
        let elo: Option<EloEstimate> = if penta { pairs.elo() } else { wdl.elo() };
        let field = |get: fn(&EloEstimate) -> Option<f64>| elo.as_ref().and_then(get);
        writeln!(
            f,
            "Elo: {} +/- {}, nElo: {} +/- {}",
            Fixed(field(|e| Some(e.elo)), 2),
            Fixed(field(|e| e.elo_error), 2),
            Fixed(field(|e| e.nelo), 2),
            Fixed(field(|e| e.nelo_error), 2),
        )?;
        let draw_ratio = if penta {
            pairs.draw_ratio()
        } else {
            wdl.draw_ratio()
        };
        write!(
            f,
            "LOS: {}, DrawRatio: {}",
            Percent(field(|e| e.los), 2),
            Percent(draw_ratio, 2)
        )?;
        if penta {
            write!(f, ", PairsRatio: {}", Fixed(pairs.pairs_ratio(), 2))?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({})",
            wdl.games(),
            wdl.wins,
            wdl.losses,
            wdl.draws,
            wdl.points(),
            Percent(wdl.score(), 2)
        )?;
        if penta {
            let [ll, ld, mid, wd, ww] = pairs.bins();
            writeln!(
                f,
                "Ptnml(0-2): [{ll}, {ld}, {mid}, {wd}, {ww}], WL/DD Ratio: {}",
                Fixed(pairs.wl_dd_ratio(), 2)
            )?;
        }
        if let Some(sprt) = self.sprt {
            let llr = sprt.llr(self.tally, self.pentanomial);
            writeln!(
                f,
                "LLR: {} ({}%) ({:.2}, {:.2}) [{:.2}, {:.2}]",
                Fixed(Some(llr), 2),
                Fixed(Some(sprt.fraction(llr) * 100.0), 1),
                sprt.lower_bound(),
                sprt.upper_bound(),
                sprt.elo0(),
                sprt.elo1()
            )?;
        }
        for note in self.notes {
            writeln!(f, "{note}")?;
        }
        writeln!(f, "{RULE}")
    }
}

/// A value with a fixed number of decimals; `n/a` when undefined, `inf`/`-inf` when infinite.
/// Negative zero prints as `0.00` (a small negative value still rounds to `-0.00`, as in
/// fastchess).
pub(crate) struct Fixed(pub Option<f64>, pub usize);

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            None => f.write_str("n/a"),
            Some(x) => write!(f, "{:.*}", self.1, if x == 0.0 { 0.0 } else { x }),
        }
    }
}

/// A fraction as a percentage with a space before the sign, fastchess's `12.34 %`; `n/a` when
/// undefined.
struct Percent(Option<f64>, usize);

impl fmt::Display for Percent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            None => f.write_str("n/a"),
            Some(x) => write!(f, "{} %", Fixed(Some(100.0 * x), self.1)),
        }
    }
}
