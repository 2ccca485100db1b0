//! Score counts, Elo, normalised Elo and LOS against values that do not come from this code:
//! - fastchess's own test vectors (`app/tests/elo_test.cpp`), to the rounding they state;
//! - high-precision values from `tests/tournament_reference.py` (mpmath at 50 digits: the
//!   Elo figures from their closed forms, LOS from `mpmath.ncdf`);
//! - figures worked by hand, shown in each test.

// The reference values are kept as the script printed them, to 17 significant digits.
#![allow(clippy::excessive_precision)]

use super::support as tournament_support;

use saikoro_core::GameResult;
use saikoro_match::{EloEstimate, Pentanomial, Tally, Wdl};
use tournament_support::{assert_near, assert_precise, penta, tally_of};

/// One row of fastchess `app/tests/elo_test.cpp`: the printed figures it expects (two decimals;
/// the score to three), `None` where that test checks nothing. Our value must round to it.
struct FastchessElo {
    nelo: f64,
    nelo_error: f64,
    elo: Option<f64>,
    elo_error: Option<f64>,
    los: Option<&'static str>,
    score: f64,
}

fn check_fastchess_elo(estimate: EloEstimate, want: FastchessElo) {
    assert_near(estimate.nelo.unwrap(), want.nelo, 0.005);
    assert_near(estimate.nelo_error.unwrap(), want.nelo_error, 0.005);
    if let Some(elo) = want.elo {
        assert_near(estimate.elo, elo, 0.005);
    }
    if let Some(error) = want.elo_error {
        assert_near(estimate.elo_error.unwrap(), error, 0.005);
    }
    if let Some(los) = want.los {
        assert_eq!(format!("{:.2} %", estimate.los.unwrap() * 100.0), los);
    }
    assert_near(estimate.score, want.score, 0.0005);
}

/// fastchess `elo_test.cpp` "EloWDL 1", "EloWDL 2", "EloWDL 3". Its `Stats(w, l, d)` takes
/// wins, losses, draws; `Wdl::new` takes wins, draws, losses.
#[test]
fn trinomial_elo_matches_fastchess_test_vectors() {
    check_fastchess_elo(
        Wdl::new(76, 123, 89).elo().unwrap(),
        FastchessElo {
            nelo: -20.76,
            nelo_error: 40.13,
            elo: None,
            elo_error: None,
            los: Some("15.53 %"),
            score: 0.477,
        },
    );
    check_fastchess_elo(
        Wdl::new(136, 111, 96).elo().unwrap(),
        FastchessElo {
            nelo: 49.77,
            nelo_error: 36.77,
            elo: Some(40.70),
            elo_error: Some(30.43),
            los: Some("99.60 %"),
            score: 0.558,
        },
    );
    check_fastchess_elo(
        Wdl::new(34, 0, 356).elo().unwrap(),
        FastchessElo {
            nelo: -508.44,
            nelo_error: 34.48,
            elo: None,
            elo_error: None,
            los: None,
            score: 0.087,
        },
    );
}

/// fastchess `elo_test.cpp` "EloPentanomial 1" to "3"; `Stats(ll, ld, wl, dd, wd, ww)`.
#[test]
fn pentanomial_elo_matches_fastchess_test_vectors() {
    check_fastchess_elo(
        penta(34, 54, 31, 32, 64, 75).elo().unwrap(),
        FastchessElo {
            nelo: 57.94,
            nelo_error: 28.28,
            elo: Some(55.58),
            elo_error: Some(27.65),
            los: Some("100.00 %"),
            score: 0.579,
        },
    );
    check_fastchess_elo(
        penta(332, 433, 457, 41, 333, 334).elo().unwrap(),
        FastchessElo {
            nelo: -9.17,
            nelo_error: 10.96,
            elo: Some(-8.64),
            elo_error: Some(10.33),
            los: Some("5.05 %"),
            score: 0.488,
        },
    );
    check_fastchess_elo(
        penta(7895, 8757, 5485, 200, 568, 9999).elo().unwrap(),
        FastchessElo {
            nelo: -19.01,
            nelo_error: 2.65,
            elo: Some(-21.04),
            elo_error: Some(2.95),
            los: Some("0.00 %"),
            score: 0.470,
        },
    );
}

/// The same inputs at full precision (tests/tournament_reference.py).
/// (the counts' estimate, [score, elo, elo error, nElo, nElo error, LOS]) of
/// tests/tournament_reference.py.
fn reference_rows() -> Vec<(Option<EloEstimate>, [f64; 6])> {
    vec![
        (
            Wdl::new(76, 123, 89).elo(),
            [
                0.47743055555555556,
                -15.693520705432283,
                30.458000716980446,
                -20.756449777395399,
                40.126025557578576,
                0.15532643492749805,
            ],
        ),
        (
            Wdl::new(136, 111, 96).elo(),
            [
                0.55830903790087464,
                40.702458186527092,
                30.427217943600979,
                49.768415381022218,
                36.768450594953593,
                0.99601023573349725,
            ],
        ),
        (
            Wdl::new(34, 0, 356).elo(),
            [
                0.087179487179487179,
                -407.98843237224802,
                63.16451473581919,
                -508.43532503968606,
                34.481812485442136,
                6.0171718735422151e-184,
            ],
        ),
        (
            penta(34, 54, 31, 32, 64, 75).elo(),
            [
                0.57931034482758621,
                55.57978042044585,
                27.653429506393468,
                57.935599938124285,
                28.275376243408672,
                0.99997039300843129,
            ],
        ),
        (
            penta(332, 433, 457, 41, 333, 334).elo(),
            [
                0.48756476683937824,
                -8.6426672679689988,
                10.334194424393028,
                -9.1729142700471603,
                10.960458877511141,
                0.05047006698252964,
            ],
        ),
        (
            penta(7895, 8757, 5485, 200, 568, 9999).elo(),
            [
                0.46975291757840992,
                -21.043520578172826,
                2.9452808685278249,
                -19.012834278884019,
                2.6545019165024751,
                4.5487210491015743e-45,
            ],
        ),
    ]
}

#[test]
fn elo_matches_high_precision_values() {
    for (estimate, [score, elo, elo_error, nelo, nelo_error, los]) in reference_rows() {
        let e = estimate.unwrap();
        assert_precise(e.score, score);
        assert_precise(e.elo, elo);
        assert_precise(e.elo_error.unwrap(), elo_error);
        assert_precise(e.nelo.unwrap(), nelo);
        assert_precise(e.nelo_error.unwrap(), nelo_error);
        // LOS far in a tail: relative precision where it is not negligible.
        let got = e.los.unwrap();
        assert!(
            (got - los).abs() <= 1e-12 + 1e-9 * los,
            "LOS {got} vs {los}"
        );
    }
}

/// Two wins and two losses, by hand: s = ½, σ = ½ per game, so Elo = nElo = 0, LOS = ½. With
/// z = 1.959964 the score interval is ½ ± z·½/√4 = [0.010009, 0.989991], so the Elo error is
/// 400·log₁₀(0.989991/0.010009) ≈ 798.10, and the nElo error is z·(800/ln 10)/√4 =
/// 1.959964 · 347.4356 / 2 ≈ 340.48.
#[test]
fn two_wins_two_losses_by_hand() {
    let e = Wdl::new(2, 0, 2).elo().unwrap();
    assert_eq!(e.score, 0.5);
    assert_eq!(e.elo, 0.0);
    assert!(e.elo.is_sign_positive());
    assert_near(e.elo_error.unwrap(), 798.10, 0.01);
    assert_eq!(e.nelo, Some(0.0));
    assert_near(e.nelo_error.unwrap(), 340.48, 0.01);
    assert_eq!(e.los, Some(0.5));
    // From the reference script: 798.09615511970466 and 340.48061728594233.
    assert_precise(e.elo_error.unwrap(), 798.09615511970466);
    assert_precise(e.nelo_error.unwrap(), 340.48061728594233);
}

/// The nElo error depends on the number of games only: z·(800/ln 10)/√n, and /√(2n) for n
/// pairs (the closed form of fastchess's (nElo(s⁺) − nElo(s⁻))/2).
#[test]
fn nelo_error_is_the_closed_form() {
    let z_nelo = 1.959963984540054 * 800.0 / std::f64::consts::LN_10;
    for wdl in [Wdl::new(1, 0, 1), Wdl::new(30, 40, 30), Wdl::new(99, 3, 7)] {
        let n = wdl.games() as f64;
        assert_precise(wdl.elo().unwrap().nelo_error.unwrap(), z_nelo / n.sqrt());
    }
    for p in [penta(1, 2, 3, 4, 5, 6), penta(0, 1, 0, 0, 1, 0)] {
        let n = p.pairs() as f64;
        assert_precise(
            p.elo().unwrap().nelo_error.unwrap(),
            z_nelo / (2.0 * n).sqrt(),
        );
    }
}

/// Nothing counted: nothing to estimate.
#[test]
fn no_games_no_estimate() {
    assert_eq!(Wdl::default().elo(), None);
    assert_eq!(Pentanomial::default().elo(), None);
    assert_eq!(Wdl::default().score(), None);
    assert_eq!(Wdl::default().draw_ratio(), None);
    assert_eq!(Pentanomial::default().score(), None);
    assert_eq!(Pentanomial::default().draw_ratio(), None);
    assert_eq!(Pentanomial::default().pairs_ratio(), None);
    assert_eq!(Pentanomial::default().wl_dd_ratio(), None);
}

/// Every game won (fastchess prints `inf +/- nan`): Elo and nElo +∞, their errors undefined,
/// LOS 1. Every game lost, the mirror image.
#[test]
fn all_wins_and_all_losses() {
    let e = Wdl::new(5, 0, 0).elo().unwrap();
    assert_eq!((e.score, e.elo), (1.0, f64::INFINITY));
    assert_eq!(
        (e.elo_error, e.nelo, e.nelo_error),
        (None, Some(f64::INFINITY), None)
    );
    assert_eq!(e.los, Some(1.0));
    let e = Wdl::new(0, 0, 3).elo().unwrap();
    assert_eq!((e.score, e.elo), (0.0, f64::NEG_INFINITY));
    assert_eq!(
        (e.elo_error, e.nelo, e.nelo_error),
        (None, Some(f64::NEG_INFINITY), None)
    );
    assert_eq!(e.los, Some(0.0));
    let e = penta(0, 0, 0, 0, 0, 3).elo().unwrap();
    assert_eq!(
        (e.elo, e.elo_error, e.los),
        (f64::INFINITY, None, Some(1.0))
    );
}

/// Every game drawn: Elo 0 ± 0 as fastchess prints it; nElo and LOS are 0/0, so undefined.
#[test]
fn all_draws() {
    for e in [
        Wdl::new(0, 7, 0).elo().unwrap(),
        penta(0, 0, 0, 4, 0, 0).elo().unwrap(),
        penta(0, 0, 2, 1, 0, 0).elo().unwrap(),
    ] {
        assert_eq!((e.score, e.elo, e.elo_error), (0.5, 0.0, Some(0.0)));
        assert_eq!((e.nelo, e.nelo_error, e.los), (None, None, None));
    }
}

/// Every pair in one bin other than the middle: a finite Elo with no spread (the sample shows
/// none), an infinite nElo. Four WD pairs: s = ¾, Elo = 400·log₁₀ 3 ≈ 190.85.
#[test]
fn one_pentanomial_bin_only() {
    let e = penta(0, 0, 0, 0, 4, 0).elo().unwrap();
    assert_eq!(e.score, 0.75);
    assert_precise(e.elo, 190.84850188786497);
    assert_eq!(e.elo_error, Some(0.0));
    assert_eq!(
        (e.nelo, e.nelo_error, e.los),
        (Some(f64::INFINITY), None, Some(1.0))
    );
    let e = penta(0, 2, 0, 0, 0, 0).elo().unwrap();
    assert_precise(e.elo, -190.84850188786497);
    assert_eq!((e.nelo, e.los), (Some(f64::NEG_INFINITY), Some(0.0)));
}

/// One win in eleven games: the score's interval, 1/11 ± z·σ/√11 with σ = √(1/11 · 10/11),
/// reaches below 0, where Elo is −∞, so the error is +∞ (fastchess: NaN). By hand the Elo
/// is 400·log₁₀(1/10) = −400.
#[test]
fn interval_past_a_score_of_zero() {
    let e = Wdl::new(1, 0, 10).elo().unwrap();
    assert_precise(e.elo, -400.0);
    assert_eq!(e.elo_error, Some(f64::INFINITY));
    assert_precise(e.nelo.unwrap(), -494.40950570053935);
    assert_precise(e.nelo_error.unwrap(), 205.31753744110284);
    assert_precise(e.los.unwrap(), 1.1813130403309848e-6);
}

// Counting

#[test]
fn pairs_fall_in_their_bins_in_either_order() {
    use GameResult::{Draw, Loss, Win};
    let mut p = Pentanomial::default();
    for (a, b) in [
        (Loss, Loss),
        (Loss, Draw),
        (Draw, Loss),
        (Win, Loss),
        (Loss, Win),
        (Draw, Draw),
        (Win, Draw),
        (Draw, Win),
        (Win, Win),
    ] {
        p.add_pair(a, b);
    }
    assert_eq!(p, penta(1, 2, 2, 1, 2, 1));
    assert_eq!(p.bins(), [1, 2, 3, 2, 1]);
    assert_eq!(p.pairs(), 9);
    assert_eq!(p.flipped(), penta(1, 2, 2, 1, 2, 1));
    assert_eq!(penta(1, 2, 3, 4, 5, 6).flipped(), penta(6, 5, 3, 4, 2, 1));
}

/// fastchess's `Stats` ratios (`stats.hpp`), by hand for LL 34, LD 54, WL 31, DD 32, WD 64,
/// WW 75: 290 pairs; draw ratio (31 + 32)/290; pairs ratio (75 + 64)/(54 + 34) = 139/88;
/// WL/DD = 31/32; the games are 2·75 + 64 + 31 = 245 wins, 54 + 2·32 + 64 = 182 draws and
/// 2·34 + 54 + 31 = 153 losses, 336 points out of 580.
#[test]
fn ratios_and_tally_by_hand() {
    let p = penta(34, 54, 31, 32, 64, 75);
    assert_eq!(p.draw_ratio(), Some(63.0 / 290.0));
    assert_eq!(p.pairs_ratio(), Some(139.0 / 88.0));
    assert_eq!(p.wl_dd_ratio(), Some(31.0 / 32.0));
    assert_eq!(p.score(), Some(336.0 / 580.0));
    let tally = tally_of(p);
    assert_eq!(tally.wdl, Wdl::new(245, 182, 153));
    assert_eq!(tally.pentanomial, p);
    assert_eq!(tally.wdl.points(), 336.0);
    assert_eq!(tally.wdl.score(), Some(336.0 / 580.0));
    assert_eq!(tally.wdl.draw_ratio(), Some(182.0 / 580.0));
    assert_eq!(tally.flipped().wdl, Wdl::new(153, 182, 245));
    // No pair lost: an infinite pairs ratio; no DD: an infinite WL/DD.
    assert_eq!(penta(0, 0, 1, 0, 1, 0).pairs_ratio(), Some(f64::INFINITY));
    assert_eq!(penta(0, 0, 1, 0, 1, 0).wl_dd_ratio(), Some(f64::INFINITY));
    let mut t = Tally::default();
    t.add_unpaired(GameResult::Draw);
    assert_eq!((t.wdl, t.pentanomial.pairs()), (Wdl::new(0, 1, 0), 0));
}
