//! The sequential probability ratio test that stops a match once the results favour one of two
//! Elo hypotheses, H0: elo = elo0 against H1: elo = elo1.
//!
//! Sources:
//! - The stopping bounds are Wald's: accept H1 once the log-likelihood ratio reaches
//!   ln((1 − β)/α), accept H0 once it falls to ln(β/(1 − α)) (A. Wald, *Sequential Tests of
//!   Statistical Hypotheses*, 1945; fastchess `app/src/matchmaking/sprt/sprt.cpp`).
//! - The ratio is the generalised one (GSPRT) of fishtest and fastchess: the results are a
//!   multinomial sample (three kinds of game, or five kinds of game pair), and each hypothesis
//!   is replaced by the maximum-likelihood distribution that satisfies it. LLR = Σᵢ nᵢ ln(p₁ᵢ/p₀ᵢ).
//!   Empty bins are first given a count of 10⁻³ (fastchess's and fishtest's `regularize`).
//! - Logistic and BayesElo hypotheses fix the expected score s; the distribution closest to the
//!   observed frequencies p̂ with that expectation is p̂ᵢ/(1 + θ(aᵢ − s)), θ the root of
//!   Σ p̂ᵢ(aᵢ − s)/(1 + θ(aᵢ − s)) = 0 (Michel Van den Bergh, "Comparing the approximations for
//!   the generalized log likelihood ratio of a multinomial distribution", Proposition 1.1).
//! - Normalised-Elo hypotheses fix the t-value (μ − ½)/σ = nElo/(800/ln 10), times √2 for
//!   pairs; the closest distribution solves a fixed point of the same shape (Michel Van den
//!   Bergh, "Comments on normalized Elo", section 4.1). fastchess starts that iteration from
//!   the uniform distribution, which can leave the root's bracket empty in one-sided matches
//!   and give a NaN ratio (fastchess issue #879); here it starts from the closest distribution
//!   with the expected score whose own t-value is the target, a point that satisfies the
//!   constraint, and iterates to convergence.
//! - Both maximisations are solved here to rounding. fastchess stops its root search at a
//!   bracket of 10⁻³ in θ for the logistic model (10⁻⁷, and ten iterations at most, for the
//!   normalised one), so the ratio it prints can differ from this one in the third decimal (by
//!   up to about 10⁻³ in its own test cases).
//! - BayesElo (Rémi Coulom's draw model, as fastchess's `bayesian` model): the draw Elo is
//!   estimated from the observed win and loss rates, 200·log₁₀((1 − L)/L · (1 − W)/W), and the
//!   hypothesis's expected score is P(win) + P(draw)/2 under that model. It needs wins and
//!   losses both (the ratio is 0 until then) and has no pentanomial form.

use crate::stats::elo::{logistic_score, Pentanomial, Tally, Wdl, NELO_PER_T};
use std::fmt;
use std::str::FromStr;

/// Which Elo the hypotheses elo0 and elo1 are in (`model=` of `--sprt`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SprtModel {
    /// Normalised Elo (fastchess's default).
    #[default]
    Normalized,
    /// Logistic Elo, the usual kind.
    Logistic,
    /// BayesElo: logistic Elo with a draw model; trinomial counts only.
    Bayesian,
}

impl SprtModel {
    /// All models, in the order `--help` names them.
    pub const ALL: [SprtModel; 3] = [
        SprtModel::Normalized,
        SprtModel::Logistic,
        SprtModel::Bayesian,
    ];

    /// The name `model=` takes (fastchess's).
    pub const fn name(self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
            SprtModel::Bayesian => "bayesian",
        }
    }

    /// Whether the model has a pentanomial form. fastchess reports trinomial statistics
    /// instead when the model is `bayesian`.
    pub const fn supports_pentanomial(self) -> bool {
        !matches!(self, SprtModel::Bayesian)
    }
}

impl fmt::Display for SprtModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SprtModel {
    type Err = SprtConfigError;
    /// The exact lowercase name, as fastchess takes it.
    fn from_str(s: &str) -> Result<Self, SprtConfigError> {
        SprtModel::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| SprtConfigError::UnknownModel(s.to_string()))
    }
}

/// What the test concludes after the results so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtVerdict {
    /// Neither bound reached: play on.
    Continue,
    /// The ratio fell to the lower bound: H0 (elo = elo0) is accepted.
    AcceptH0,
    /// The ratio reached the upper bound: H1 (elo = elo1) is accepted.
    AcceptH1,
}

/// A `--sprt` setting that does not hold; [`SprtConfigError::key`] names the key at fault.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SprtConfigError {
    /// A word that is not `key=value`.
    NotKeyValue(String),
    /// A key other than `elo0`, `elo1`, `alpha`, `beta` and `model`.
    UnknownKey(String),
    /// A value that is not a finite number.
    BadNumber {
        /// The key.
        key: &'static str,
        /// The text given.
        value: String,
    },
    /// A model other than `normalized`, `logistic` and `bayesian`.
    UnknownModel(String),
    /// `elo0` is not below `elo1`.
    EloOrder {
        /// H0's Elo.
        elo0: f64,
        /// H1's Elo.
        elo1: f64,
    },
    /// `elo0` is not below `elo1` because one of them was not given (and so is 0).
    EloMissing {
        /// The key not given.
        key: &'static str,
        /// H0's Elo.
        elo0: f64,
        /// H1's Elo.
        elo1: f64,
    },
    /// An Elo so far from 0 that its expected score rounds to 0 or 1.
    EloOutOfRange {
        /// `elo0` or `elo1`.
        key: &'static str,
        /// The value.
        value: f64,
    },
    /// `alpha` or `beta` not strictly between 0 and 1.
    ProbabilityOutOfRange {
        /// `alpha` or `beta`.
        key: &'static str,
        /// The value.
        value: f64,
    },
    /// `alpha + beta` is 1 or more.
    AlphaBetaSum {
        /// The type I error.
        alpha: f64,
        /// The type II error.
        beta: f64,
    },
}

impl SprtConfigError {
    /// The key at fault, when the error is about one key (the word itself when it is no
    /// `key=value`).
    pub fn key(&self) -> Option<&str> {
        match self {
            SprtConfigError::NotKeyValue(word) => Some(word),
            SprtConfigError::UnknownKey(key) => Some(key),
            SprtConfigError::BadNumber { key, .. }
            | SprtConfigError::EloOutOfRange { key, .. }
            | SprtConfigError::EloMissing { key, .. }
            | SprtConfigError::ProbabilityOutOfRange { key, .. } => Some(key),
            SprtConfigError::UnknownModel(_) => Some("model"),
            SprtConfigError::EloOrder { .. } | SprtConfigError::AlphaBetaSum { .. } => None,
        }
    }
}

impl fmt::Display for SprtConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtConfigError::NotKeyValue(word) => {
                write!(f, "'{word}' is not key=value")
            }
            SprtConfigError::UnknownKey(key) => write!(
                f,
                "unknown key '{key}' (expected elo0, elo1, alpha, beta or model)"
            ),
            SprtConfigError::BadNumber { key, value } => {
                write!(f, "{key}={value}: not a finite number")
            }
            SprtConfigError::UnknownModel(name) => write!(
                f,
                "model={name}: unknown model (expected normalized, logistic or bayesian)"
            ),
            SprtConfigError::EloOrder { elo0, elo1 } => {
                write!(f, "elo0 ({elo0}) must be less than elo1 ({elo1})")
            }
            SprtConfigError::EloMissing { key, elo0, elo1 } => write!(
                f,
                "no {key}= given (a missing one is 0), and elo0 ({elo0}) must be less than \
                 elo1 ({elo1}): give both, e.g. elo0=0 elo1=5"
            ),
            SprtConfigError::EloOutOfRange { key, value } => write!(
                f,
                "{key}={value}: too far from 0 (its expected score rounds to 0 or 1)"
            ),
            SprtConfigError::ProbabilityOutOfRange { key, value } => {
                write!(f, "{key}={value}: must lie strictly between 0 and 1")
            }
            SprtConfigError::AlphaBetaSum { alpha, beta } => {
                write!(f, "alpha + beta ({alpha} + {beta}) must be less than 1")
            }
        }
    }
}

impl std::error::Error for SprtConfigError {}

/// The test's settings: the hypotheses' Elo, the error rates and the model. Always valid: only
/// [`SprtConfig::new`] and [`SprtConfig::parse`] make one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtConfig {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: SprtModel,
}

impl SprtConfig {
    /// `alpha` when `--sprt` gives none. fastchess has no default (it rejects a test without
    /// one); 0.05 is the value its manual's example and fishtest use.
    pub const DEFAULT_ALPHA: f64 = 0.05;
    /// `beta` when `--sprt` gives none (see [`SprtConfig::DEFAULT_ALPHA`]).
    pub const DEFAULT_BETA: f64 = 0.05;

    /// Checks the settings as fastchess does (`SPRT::isValid`): elo0 < elo1, α and β in (0, 1),
    /// α + β < 1; and that each Elo's expected score is not rounded to 0 or 1.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: SprtModel,
    ) -> Result<SprtConfig, SprtConfigError> {
        for (key, value) in [("elo0", elo0), ("elo1", elo1)] {
            let score = logistic_score(value);
            if !(score > 0.0 && score < 1.0) {
                return Err(SprtConfigError::EloOutOfRange { key, value });
            }
        }
        if elo0 >= elo1 {
            return Err(SprtConfigError::EloOrder { elo0, elo1 });
        }
        for (key, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtConfigError::ProbabilityOutOfRange { key, value });
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtConfigError::AlphaBetaSum { alpha, beta });
        }
        Ok(SprtConfig {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// Reads the words after `--sprt`, e.g. `elo0=0 elo1=5 alpha=0.05 beta=0.05
    /// model=normalized`. As in fastchess, a missing `elo0` or `elo1` is 0, a missing model is
    /// `normalized` and a repeated key takes its last value; a missing `alpha` or `beta` is 0.05.
    pub fn parse<'a>(
        words: impl IntoIterator<Item = &'a str>,
    ) -> Result<SprtConfig, SprtConfigError> {
        let (mut elo0, mut elo1) = (0.0, 0.0);
        // Whether elo0= and elo1= were given.
        let mut given = (false, false);
        let (mut alpha, mut beta) = (Self::DEFAULT_ALPHA, Self::DEFAULT_BETA);
        let mut model = SprtModel::default();
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SprtConfigError::NotKeyValue(word.to_string()))?;
            let (key, slot) = match key {
                "elo0" => {
                    given.0 = true;
                    ("elo0", &mut elo0)
                }
                "elo1" => {
                    given.1 = true;
                    ("elo1", &mut elo1)
                }
                "alpha" => ("alpha", &mut alpha),
                "beta" => ("beta", &mut beta),
                "model" => {
                    model = value.parse()?;
                    continue;
                }
                _ => return Err(SprtConfigError::UnknownKey(key.to_string())),
            };
            *slot = value
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| SprtConfigError::BadNumber {
                    key,
                    value: value.to_string(),
                })?;
        }
        SprtConfig::new(elo0, elo1, alpha, beta, model).map_err(|e| match e {
            // A missing Elo is 0, as in fastchess: say so, rather than compare a number the
            // user never wrote.
            SprtConfigError::EloOrder { elo0, elo1 } if !given.0 || !given.1 => {
                SprtConfigError::EloMissing {
                    key: if given.0 { "elo1" } else { "elo0" },
                    elo0,
                    elo1,
                }
            }
            e => e,
        })
    }

    /// H0's Elo.
    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    /// H1's Elo.
    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    /// α, the probability of accepting H1 when H0 holds.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// β, the probability of accepting H0 when H1 holds.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// The Elo model of elo0 and elo1.
    pub fn model(&self) -> SprtModel {
        self.model
    }

    /// ln(β/(1 − α)): H0 is accepted when the ratio falls to this.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// ln((1 − β)/α): H1 is accepted when the ratio reaches this.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The verdict for a log-likelihood ratio (a bound reached counts as crossed).
    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        if llr >= self.upper_bound() {
            SprtVerdict::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }

    /// How far the ratio has gone towards the bound on its side, as fastchess prints it: LLR /
    /// upper bound when LLR ≥ 0, otherwise −LLR / lower bound (a negative fraction).
    pub fn fraction(&self, llr: f64) -> f64 {
        if llr >= 0.0 {
            llr / self.upper_bound()
        } else {
            -llr / self.lower_bound()
        }
    }

    /// The line fastchess prints when a bound is crossed, e.g. `SPRT ([0.00, 5.00]) completed -
    /// H1 was accepted`; `None` while the test goes on.
    pub fn conclusion(&self, verdict: SprtVerdict) -> Option<String> {
        let accepted = match verdict {
            SprtVerdict::Continue => return None,
            SprtVerdict::AcceptH0 => "H0",
            SprtVerdict::AcceptH1 => "H1",
        };
        Some(format!(
            "SPRT ([{:.2}, {:.2}]) completed - {accepted} was accepted",
            self.elo0, self.elo1
        ))
    }

    /// The log-likelihood ratio the match stops on, and its report shows: from the pairs when
    /// `pentanomial` (fastchess's `-report penta=true`, its default) unless the model has no
    /// pentanomial form, otherwise from the games.
    pub fn llr(&self, tally: Tally, pentanomial: bool) -> f64 {
        match self.llr_pentanomial(tally.pentanomial) {
            Some(llr) if pentanomial => llr,
            _ => self.llr_trinomial(tally.wdl),
        }
    }

    /// The log-likelihood ratio of H1 against H0 from game results.
    pub fn llr_trinomial(&self, wdl: Wdl) -> f64 {
        let counts = [wdl.losses, wdl.draws, wdl.wins];
        let (n, phat) = regularized(counts);
        let values = [0.0, 0.5, 1.0];
        let (p0, p1) = match self.model {
            SprtModel::Normalized => (
                mle_t_value(&values, &phat, self.elo0 / NELO_PER_T),
                mle_t_value(&values, &phat, self.elo1 / NELO_PER_T),
            ),
            SprtModel::Logistic => (
                mle_expected(&values, &phat, logistic_score(self.elo0)),
                mle_expected(&values, &phat, logistic_score(self.elo1)),
            ),
            SprtModel::Bayesian => {
                if wdl.wins == 0 || wdl.losses == 0 {
                    return 0.0;
                }
                let (loss, win) = (phat[0], phat[2]);
                let draw_elo = 200.0 * ((1.0 - loss) / loss * (1.0 - win) / win).log10();
                (
                    mle_expected(&values, &phat, bayeselo_score(self.elo0, draw_elo)),
                    mle_expected(&values, &phat, bayeselo_score(self.elo1, draw_elo)),
                )
            }
        };
        log_ratio(&n, &p0, &p1)
    }

    /// The log-likelihood ratio of H1 against H0 from game-pair results; `None` for the
    /// `bayesian` model, which has no pentanomial form.
    pub fn llr_pentanomial(&self, pentanomial: Pentanomial) -> Option<f64> {
        let (n, phat) = regularized(pentanomial.bins());
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let (p0, p1) = match self.model {
            SprtModel::Normalized => {
                // A pair's σ is about 1/√2 of a game's, so a per-game t-value is √2 pair t-values.
                let scale = std::f64::consts::SQRT_2 / NELO_PER_T;
                (
                    mle_t_value(&values, &phat, self.elo0 * scale),
                    mle_t_value(&values, &phat, self.elo1 * scale),
                )
            }
            SprtModel::Logistic => (
                mle_expected(&values, &phat, logistic_score(self.elo0)),
                mle_expected(&values, &phat, logistic_score(self.elo1)),
            ),
            SprtModel::Bayesian => return None,
        };
        Some(log_ratio(&n, &p0, &p1))
    }
}

/// The expected score of a BayesElo difference with the given draw Elo: P(win) + P(draw)/2,
/// P(win) = 1/(1 + 10^((drawelo − elo)/400)), P(loss) = 1/(1 + 10^((drawelo + elo)/400))
/// (fastchess's `bayeseloToScore`).
fn bayeselo_score(elo: f64, draw_elo: f64) -> f64 {
    let win = 1.0 / (1.0 + 10f64.powf((draw_elo - elo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + elo) / 400.0));
    win + (1.0 - win - loss) / 2.0
}

/// The counts with each empty bin given 10⁻³, and the frequencies they make.
fn regularized<const N: usize>(counts: [u64; N]) -> ([f64; N], [f64; N]) {
    let n = counts.map(|c| if c == 0 { 1e-3 } else { c as f64 });
    let total: f64 = n.iter().sum();
    (n, n.map(|x| x / total))
}

/// Σ nᵢ ln(p₁ᵢ/p₀ᵢ).
fn log_ratio<const N: usize>(n: &[f64; N], p0: &[f64; N], p1: &[f64; N]) -> f64 {
    (0..N).map(|i| n[i] * (p1[i].ln() - p0[i].ln())).sum()
}

fn mean_and_variance<const N: usize>(values: &[f64; N], p: &[f64; N]) -> (f64, f64) {
    let mean: f64 = (0..N).map(|i| p[i] * values[i]).sum();
    let variance = (0..N).map(|i| p[i] * (values[i] - mean).powi(2)).sum();
    (mean, variance)
}

/// The θ with Σ p̂ᵢcᵢ/(1 + θcᵢ) = 0 and every 1 + θcᵢ > 0. The sum falls strictly from +∞ to −∞
/// across (−1/max c, −1/min c), so bisection finds the one root; it needs min c < 0 < max c and
/// every p̂ᵢ > 0, which regularised frequencies have.
fn secular_root<const N: usize>(phat: &[f64; N], c: &[f64; N]) -> f64 {
    let max = c.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = c.iter().copied().fold(f64::INFINITY, f64::min);
    debug_assert!(min < 0.0 && max > 0.0);
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    // 200 halvings take any bracket here below 10⁻⁵⁰; most stop earlier at full precision.
    for _ in 0..200 {
        let mid = lo + (hi - lo) / 2.0;
        if mid <= lo || mid >= hi || hi - lo <= f64::EPSILON * lo.abs().max(hi.abs()) {
            break;
        }
        let sum: f64 = (0..N).map(|i| phat[i] * c[i] / (1.0 + mid * c[i])).sum();
        if sum > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo + (hi - lo) / 2.0
}

/// The distribution on `values` with expectation `s` that is most likely to give the observed
/// frequencies `phat` (Van den Bergh, Proposition 1.1). `s` must lie strictly between the
/// first and last value.
fn mle_expected<const N: usize>(values: &[f64; N], phat: &[f64; N], s: f64) -> [f64; N] {
    let c = values.map(|a| a - s);
    let theta = secular_root(phat, &c);
    std::array::from_fn(|i| phat[i] / (1.0 + theta * c[i]))
}

/// The distribution on `values` with t-value (μ − ½)/σ = `t` that is most likely to give the
/// observed frequencies `phat` (Van den Bergh, "Comments on normalized Elo", section 4.1).
///
/// At the optimum p = p̂/(1 + θφ) with φᵢ = aᵢ − ½ − (tσ/2)(1 + ((aᵢ − μ)/σ)²), μ and σ being
/// p's own, and θ the root of Σ p̂ᵢφᵢ/(1 + θφᵢ) = 0; this is iterated from a starting p. A start
/// that satisfies the constraint has Σ pᵢφᵢ = μ − ½ − tσ = 0, so φ takes both signs and θ
/// exists: the start is the distribution of [`mle_expected`] whose t-value is `t`, its
/// expectation found by bisection (its t-value runs from −∞ to +∞ as the expectation runs
/// across the values).
fn mle_t_value<const N: usize>(values: &[f64; N], phat: &[f64; N], t: f64) -> [f64; N] {
    let t_value = |p: &[f64; N]| {
        let (mean, variance) = mean_and_variance(values, p);
        (mean - 0.5) / variance.sqrt()
    };
    let (mut lo, mut hi) = (values[0], values[N - 1]);
    for _ in 0..200 {
        let mid = lo + (hi - lo) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        if t_value(&mle_expected(values, phat, mid)) < t {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let mut p = mle_expected(values, phat, lo + (hi - lo) / 2.0);
    // The iteration converges in a few steps from this start (two or three in the tests).
    for _ in 0..100 {
        let (mean, variance) = mean_and_variance(values, &p);
        let sigma = variance.sqrt();
        let phi = values.map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mean) / sigma).powi(2)));
        let min = phi.iter().copied().fold(f64::INFINITY, f64::min);
        let max = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !(min < 0.0 && max > 0.0) {
            break;
        }
        let theta = secular_root(phat, &phi);
        let next: [f64; N] = std::array::from_fn(|i| phat[i] / (1.0 + theta * phi[i]));
        let change = (0..N)
            .map(|i| ((next[i] - p[i]) / p[i]).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-14 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The constrained optimum satisfies its constraint: expectation for the logistic form,
    /// t-value for the normalised one, and sums to 1 (checked from the definitions).
    #[test]
    fn maximum_likelihood_distributions_meet_their_constraints() {
        let (_, phat) = regularized([127, 4883, 10311 + 401, 5150, 104]);
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        for s in [0.3, 0.5, 0.52, 0.9] {
            let p = mle_expected(&values, &phat, s);
            let (mean, _) = mean_and_variance(&values, &p);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!((mean - s).abs() < 1e-12, "{mean} vs {s}");
        }
        for t in [-6.0, -0.01, 0.0, 0.02, 3.0] {
            let p = mle_t_value(&values, &phat, t);
            let (mean, variance) = mean_and_variance(&values, &p);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(((mean - 0.5) / variance.sqrt() - t).abs() < 1e-9);
        }
    }
}
