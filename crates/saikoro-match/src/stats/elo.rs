//! Score counts and the ratings drawn from them: Elo with its 95 % interval, normalised Elo
//! (nElo) with its interval, the likelihood of superiority (LOS) and the ratios fastchess prints.
//!
//! Every count is from one engine's point of view (the first of the pair being reported), as in
//! fastchess, whose `Stats` keeps wins, draws and losses of the first engine and the six kinds of
//! game pair. The formulas follow fastchess (`app/src/matchmaking/elo/elo_wdl.cpp`,
//! `elo_pentanomial.cpp`, `app/src/matchmaking/stats.hpp`); where fastchess's arithmetic gives
//! NaN (no games, one kind of result only, an interval reaching past a score of 0 or 1) this
//! module gives `None` or the mathematical limit instead, as each item says.

use crate::stats::normal::normal_cdf;
use saikoro_core::GameResult;

/// Φ⁻¹(0.975): the half-width of a two-sided 95 % normal interval in standard deviations (the
/// value fastchess's `CI95ZSCORE` holds).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// 800 / ln 10 ≈ 347.44: normalised Elo per unit of t-value, (score − ½) / σ. Near equality one
/// logistic Elo point is ln 10 / 1600 of score, and with a per-game σ of ½ this makes nElo and
/// Elo agree for engines that never draw (Michel Van den Bergh, "Normalized Elo").
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Trinomial counts: wins, draws and losses of one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts of wins, draws and losses (in that order).
    pub const fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Counts one more game.
    pub fn add(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// The counts seen from the opponent: wins and losses swapped.
    pub const fn flipped(self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Games counted.
    pub const fn games(self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: one for a win, a half for a draw.
    pub fn points(self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Points per game, from 0 to 1; `None` without games.
    pub fn score(self) -> Option<f64> {
        ratio(self.points(), self.games() as f64)
    }

    /// The fraction of games drawn; `None` without games (fastchess's `drawRatio`, as a
    /// fraction rather than a percentage).
    pub fn draw_ratio(self) -> Option<f64> {
        ratio(self.draws as f64, self.games() as f64)
    }

    /// Elo, nElo and LOS from the game results; `None` without games.
    ///
    /// fastchess `elo_wdl.cpp`: the score s is the mean of the per-game scores (1, ½, 0), σ² their
    /// variance (the sample's, dividing by the number of games), and the 95 % interval of s is
    /// s ± z·σ/√games. nElo is (s − ½)/σ · 800/ln 10.
    pub fn elo(self) -> Option<EloEstimate> {
        let n = self.games() as f64;
        let freq = [
            self.losses as f64 / n,
            self.draws as f64 / n,
            self.wins as f64 / n,
        ];
        EloEstimate::from_distribution(&[0.0, 0.5, 1.0], &freq, n, 1.0)
    }
}

/// Pentanomial counts of game pairs: each opening played twice, the colours swapped, and the
/// pair scored by its two games together.
///
/// The five bins of fastchess's `Ptnml(0-2)` are the pair's points: LL (0), LD (½), DD or WL (1),
/// WD (1½) and WW (2). The middle bin's two kinds are kept apart here because fastchess prints
/// their ratio ("WL/DD Ratio"); the order of the two games in a pair does not matter (LD
/// counts a draw and a loss in either order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial {
    /// Pairs with two losses.
    pub ll: u64,
    /// Pairs with a loss and a draw.
    pub ld: u64,
    /// Pairs with a win and a loss.
    pub wl: u64,
    /// Pairs with two draws.
    pub dd: u64,
    /// Pairs with a win and a draw.
    pub wd: u64,
    /// Pairs with two wins.
    pub ww: u64,
}

impl Pentanomial {
    /// Counts one more pair from its two games' results (either order).
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        use GameResult::{Draw, Loss, Win};
        let bin = match (first, second) {
            (Loss, Loss) => &mut self.ll,
            (Loss, Draw) | (Draw, Loss) => &mut self.ld,
            (Win, Loss) | (Loss, Win) => &mut self.wl,
            (Draw, Draw) => &mut self.dd,
            (Win, Draw) | (Draw, Win) => &mut self.wd,
            (Win, Win) => &mut self.ww,
        };
        *bin += 1;
    }

    /// The counts seen from the opponent: LL and WW, LD and WD swapped.
    pub const fn flipped(self) -> Pentanomial {
        Pentanomial {
            ll: self.ww,
            ld: self.wd,
            wl: self.wl,
            dd: self.dd,
            wd: self.ld,
            ww: self.ll,
        }
    }

    /// Pairs counted.
    pub const fn pairs(self) -> u64 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// The five bins by the pair's points 0, ½, 1, 1½, 2: `[LL, LD, DD+WL, WD, WW]`, the order of
    /// fastchess's `Ptnml(0-2)`.
    pub const fn bins(self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// Points per game, from 0 to 1; `None` without pairs.
    pub fn score(self) -> Option<f64> {
        // A pair's points in halves: LL 0, LD 1, DD or WL 2, WD 3, WW 4.
        let half_points = self.ld + 2 * (self.wl + self.dd) + 3 * self.wd + 4 * self.ww;
        ratio(half_points as f64 / 2.0, 2.0 * self.pairs() as f64)
    }

    /// The fraction of pairs that scored one point (DD or WL); `None` without pairs (fastchess's
    /// `drawRatioPenta`, as a fraction).
    pub fn draw_ratio(self) -> Option<f64> {
        ratio((self.wl + self.dd) as f64, self.pairs() as f64)
    }

    /// (WW + WD) / (LD + LL): pairs won over pairs lost (fastchess's `pairsRatio`). Infinite
    /// when no pair was lost; `None` when no pair was won or lost.
    pub fn pairs_ratio(self) -> Option<f64> {
        ratio((self.ww + self.wd) as f64, (self.ld + self.ll) as f64)
    }

    /// WL / DD (fastchess's `wl_dd_Ratio`): above 1 the openings lean to being unbalanced.
    /// Infinite when there is no DD; `None` when there is neither.
    pub fn wl_dd_ratio(self) -> Option<f64> {
        ratio(self.wl as f64, self.dd as f64)
    }

    /// Elo, nElo and LOS from the pair results; `None` without pairs.
    ///
    /// fastchess `elo_pentanomial.cpp`: each pair is one sample whose value is its mean score
    /// per game (0, ¼, ½, ¾, 1); s is their mean and σ² their variance (dividing by the number
    /// of pairs), the 95 % interval of s is s ± z·σ/√pairs, and nElo is (s − ½)/(√2·σ) ·
    /// 800/ln 10, the √2 turning the pair's σ into a per-game one (Van den Bergh,
    /// "Normalized Elo").
    pub fn elo(self) -> Option<EloEstimate> {
        let n = self.pairs() as f64;
        let freq = self.bins().map(|count| count as f64 / n);
        EloEstimate::from_distribution(&[0.0, 0.25, 0.5, 0.75, 1.0], &freq, n, 2.0)
    }
}

/// Game results with their pairs, as a match runner keeps them for one pair of engines.
///
/// fastchess, when it reports pentanomial statistics, adds a pair's two games to the trinomial
/// counts only once the pair is complete, so both views count the same games; [`Tally::add_pair`]
/// does the same. A game that has no partner (a match stopped halfway through a pair, or one
/// run without pairs) goes in with [`Tally::add_unpaired`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Every game counted.
    pub wdl: Wdl,
    /// The completed pairs.
    pub pentanomial: Pentanomial,
}

impl Tally {
    /// Counts a completed pair: both games and the pair.
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        self.wdl.add(first);
        self.wdl.add(second);
        self.pentanomial.add_pair(first, second);
    }

    /// Counts a game that belongs to no completed pair.
    pub fn add_unpaired(&mut self, result: GameResult) {
        self.wdl.add(result);
    }

    /// Adds `other`'s counts (one engine's tallies against several opponents, for its
    /// standing in the field).
    pub fn merge(&mut self, other: Tally) {
        let (w, p) = (&mut self.wdl, &mut self.pentanomial);
        w.wins += other.wdl.wins;
        w.draws += other.wdl.draws;
        w.losses += other.wdl.losses;
        let o = other.pentanomial;
        (p.ll, p.ld, p.wl, p.dd, p.wd, p.ww) = (
            p.ll + o.ll,
            p.ld + o.ld,
            p.wl + o.wl,
            p.dd + o.dd,
            p.wd + o.wd,
            p.ww + o.ww,
        );
    }

    /// The tally seen from the opponent.
    pub const fn flipped(self) -> Tally {
        Tally {
            wdl: self.wdl.flipped(),
            pentanomial: self.pentanomial.flipped(),
        }
    }
}

/// Ratings estimated from a sample of results (see [`Wdl::elo`] and [`Pentanomial::elo`]).
///
/// Values that the sample leaves undefined are `None`, never NaN; infinite ones are `±∞`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Points per game, from 0 to 1.
    pub score: f64,
    /// Logistic Elo, 400·log₁₀(s/(1 − s)): +∞ when every game was won, −∞ when every game was
    /// lost.
    pub elo: f64,
    /// Half the width of the 95 % interval of [`elo`](Self::elo): (Elo(s⁺) − Elo(s⁻))/2 for
    /// the score's interval [s⁻, s⁺], a bound past 0 or 1 counting as ∓∞ Elo (so the error is
    /// +∞ where fastchess shows NaN). `None` when both ends are the same infinity (every game
    /// won, or every game lost). Zero when every sample has the same finite score, as fastchess
    /// reports it: the sample then shows no spread.
    pub elo_error: Option<f64>,
    /// Normalised Elo, (s − ½)/σ · 800/ln 10 (σ per game). ±∞ when every sample has the same
    /// score other than ½; `None` when every sample scored exactly ½.
    pub nelo: Option<f64>,
    /// Half the width of the 95 % interval of [`nelo`](Self::nelo), which is z·800/(ln 10·√n)
    /// for n games (or z·800/(ln 10·√(2n)) for n pairs) whatever the results; `None` when σ = 0.
    pub nelo_error: Option<f64>,
    /// The likelihood of superiority, Φ((s − ½)/(σ/√n)): the probability, under a normal
    /// approximation, that the engine is the stronger. With σ = 0 it is 1 for s > ½, 0 for s < ½
    /// and `None` for s = ½.
    pub los: Option<f64>,
}

impl EloEstimate {
    /// From `samples` observations taking the `values` with relative frequencies `freq`;
    /// `per_game` is how many games one sample stands for (1 or 2), which scales σ to a game's.
    fn from_distribution(
        values: &[f64],
        freq: &[f64],
        samples: f64,
        per_game: f64,
    ) -> Option<EloEstimate> {
        if samples == 0.0 {
            return None;
        }
        let score: f64 = values.iter().zip(freq).map(|(v, p)| v * p).sum();
        let variance: f64 = values
            .iter()
            .zip(freq)
            .map(|(v, p)| p * (v - score) * (v - score))
            .sum();
        let half_width = Z_95 * (variance / samples).sqrt();
        let (lower, upper) = (score - half_width, score + half_width);
        let sigma_per_game = (per_game * variance).sqrt();
        let nelo = |s: f64| (s - 0.5) / sigma_per_game * NELO_PER_T;
        Some(EloEstimate {
            score,
            elo: logistic_elo(score),
            elo_error: defined((logistic_elo(upper) - logistic_elo(lower)) / 2.0),
            nelo: defined(nelo(score)),
            nelo_error: defined((nelo(upper) - nelo(lower)) / 2.0),
            los: if variance > 0.0 {
                Some(normal_cdf((score - 0.5) / (variance / samples).sqrt()))
            } else if score == 0.5 {
                None
            } else {
                Some(if score > 0.5 { 1.0 } else { 0.0 })
            },
        })
    }
}

/// Logistic Elo of a score: 400·log₁₀(s/(1 − s)) (fastchess's `scoreToEloDiff`, written so that
/// s = ½ gives +0 rather than −0); scores at or past 1 are +∞, at or past 0 are −∞.
pub fn logistic_elo(score: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        400.0 * (score / (1.0 - score)).log10()
    }
}

/// The expected score of a logistic Elo difference: 1/(1 + 10^(−elo/400)) (fastchess's
/// `leloToScore`).
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// `numerator / denominator`, with x/0 = ∞ for x > 0 and 0/0 undefined.
fn ratio(numerator: f64, denominator: f64) -> Option<f64> {
    defined(numerator / denominator)
}

fn defined(x: f64) -> Option<f64> {
    (!x.is_nan()).then_some(x)
}
