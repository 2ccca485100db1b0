//! The SPRT against values that do not come from this code:
//! - fastchess's own test vectors (`app/tests/sprt_test.cpp`), with the tolerance its tests use;
//! - high-precision values from `tests/tournament_reference.py` (mpmath at 50 digits: each
//!   log-likelihood ratio from the constrained maximum-likelihood problem solved as its
//!   Karush-Kuhn-Tucker system by Newton's method, not by the fixed point the library
//!   iterates; the bounds from their closed forms);
//! - figures worked by hand, shown in each test.

// The reference values are kept as the script printed them, to 17 significant digits.
#![allow(clippy::excessive_precision)]

use super::support as tournament_support;

use saikoro_match::{SprtConfig, SprtConfigError, SprtModel, SprtVerdict, Wdl};
use tournament_support::{assert_precise, penta};

/// doctest's `Approx(expected).epsilon(0.01)`, the check fastchess's tests make:
/// |actual − expected| < 0.01 · (1 + max(|actual|, |expected|)).
#[track_caller]
fn assert_doctest_approx(actual: f64, expected: f64) {
    let tolerance = 0.01 * (1.0 + actual.abs().max(expected.abs()));
    assert!(
        (actual - expected).abs() < tolerance,
        "{actual} is not Approx({expected}).epsilon(0.01)"
    );
}

fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> SprtConfig {
    SprtConfig::new(elo0, elo1, 0.05, 0.05, model).unwrap()
}

/// Wald's bounds: ln(0.05/0.95) = −2.9444389791664405 and its negative for α = β = 0.05
/// (fastchess prints `(-2.94, 2.94)`); α = 0.1, β = 0.2 gives ln(0.2/0.9) and ln(0.8/0.1) =
/// ln 8 = 3 ln 2.
#[test]
fn bounds() {
    let s = sprt(0.0, 5.0, SprtModel::Normalized);
    assert_precise(s.lower_bound(), -2.9444389791664405);
    assert_precise(s.upper_bound(), 2.9444389791664405);
    let s = SprtConfig::new(0.0, 5.0, 0.1, 0.2, SprtModel::Logistic).unwrap();
    assert_precise(s.lower_bound(), -1.5040773967762741);
    assert_precise(s.upper_bound(), 3.0 * std::f64::consts::LN_2);
}

#[test]
fn verdict_and_fraction() {
    let s = sprt(0.0, 5.0, SprtModel::Normalized);
    let upper = s.upper_bound();
    assert_eq!(s.verdict(0.0), SprtVerdict::Continue);
    assert_eq!(s.verdict(2.9), SprtVerdict::Continue);
    assert_eq!(s.verdict(upper), SprtVerdict::AcceptH1);
    assert_eq!(s.verdict(3.0), SprtVerdict::AcceptH1);
    assert_eq!(s.verdict(-upper), SprtVerdict::AcceptH0);
    assert_eq!(s.verdict(-40.0), SprtVerdict::AcceptH0);
    // fastchess prints LLR/upper, or −LLR/lower (negative) below zero.
    assert_precise(s.fraction(upper / 2.0), 0.5);
    assert_precise(s.fraction(-upper / 4.0), -0.25);
    // With α ≠ β the bounds differ, and each side of zero is measured against its own:
    // ln 8 above, ln(0.2/0.9) below (the bounds of the test above).
    let s = SprtConfig::new(0.0, 5.0, 0.1, 0.2, SprtModel::Logistic).unwrap();
    assert_precise(s.fraction(1.0), 1.0 / (3.0 * std::f64::consts::LN_2));
    assert_precise(s.fraction(-1.0), 1.0 / (0.2f64 / 0.9).ln());
    let s = sprt(0.0, 5.0, SprtModel::Normalized);
    assert_eq!(s.conclusion(SprtVerdict::Continue), None);
    assert_eq!(
        s.conclusion(SprtVerdict::AcceptH1).unwrap(),
        "SPRT ([0.00, 5.00]) completed - H1 was accepted"
    );
    assert_eq!(
        s.conclusion(SprtVerdict::AcceptH0).unwrap(),
        "SPRT ([0.00, 5.00]) completed - H0 was accepted"
    );
}

/// fastchess `app/tests/sprt_test.cpp`, every case (α = β = 0.05): the value it expects,
/// checked with its tolerance (doctest `Approx`, epsilon 0.01), and the value at full
/// precision (tests/tournament_reference.py). Its `Stats(w, l, d)` takes wins, losses, draws.
#[test]
fn llr_matches_fastchess_test_vectors() {
    use SprtModel::{Bayesian, Logistic, Normalized};
    // (Stats(w, l, d), model, elo0, elo1, fastchess's value, reference value)
    #[rustfmt::skip]
    let trinomial = [
        ((36433, 36027, 68692), Normalized, 0.0, 2.0, 0.92, 0.92329345094952647),
        ((10871, 10650, 20431), Normalized, -1.75, 0.25, 2.30, 2.2975004071032179),
        ((4250, 0, 0), Normalized, 0.0, 10.0, 120.56, 120.54826774120332),
        ((21404, 21184, 40708), Logistic, 0.5, 2.5, -1.57, -1.5718887926921762),
        ((57433, 57030, 106593), Logistic, 0.0, 2.0, -2.59, -2.5930241635240584),
        ((68965, 68526, 128429), Bayesian, 0.0, 2.0, -1.26, -1.2621558892133727),
        ((21629, 21484, 41111), Bayesian, 0.5, 2.5, -1.13, -1.1306424589265403),
    ];
    for ((w, l, d), model, elo0, elo1, fastchess, reference) in trinomial {
        let llr = sprt(elo0, elo1, model).llr_trinomial(Wdl::new(w, d, l));
        assert_doctest_approx(llr, fastchess);
        assert_precise(llr, reference);
    }
    // Stats(ll, ld, wl, dd, wd, ww).
    #[rustfmt::skip]
    let pentanomial = [
        ([365, 16618, 36029, 200, 16974, 390], Normalized, 0.0, 2.0, 2.25, 2.2503677035469757),
        ([127, 4883, 10311, 401, 5150, 104], Normalized, -1.75, 0.25, 3.01, 3.0101541966036906),
        ([0, 0, 0, 0, 0, 5550], Normalized, 0.0, 5.0, 111.82, 111.79755508671416),
        ([223, 9863, 20279, 1000, 10037, 246], Logistic, 0.5, 2.5, -3.07, -3.0741264395891714),
        ([871, 26175, 55003, 980, 26678, 821], Logistic, 0.0, 2.0, -4.98, -4.9786728634490071),
    ];
    for ([ll, ld, wl, dd, wd, ww], model, elo0, elo1, fastchess, reference) in pentanomial {
        let p = penta(ll, ld, wl, dd, wd, ww);
        let llr = sprt(elo0, elo1, model).llr_pentanomial(p).unwrap();
        assert_doctest_approx(llr, fastchess);
        assert_precise(llr, reference);
    }
}

/// More cases at full precision (tests/tournament_reference.py): one-sided matches for which
/// fastchess prints `LLR: -nan` (its issue #879: pentanomial [144, 3, 1, 0, 0] with elo0 =
/// −1500, elo1 = −500 never stopped), no results at all (every bin regularised to 10⁻³), one
/// bin only, and a small spread sample.
#[test]
fn llr_matches_high_precision_values() {
    use SprtModel::{Logistic, Normalized};
    #[rustfmt::skip]
    let trinomial = [
        (Wdl::new(0, 0, 0), Logistic, 0.0, 5.0, -4.659589953689943e-7),
        (Wdl::new(0, 3, 0), Normalized, 0.0, 5.0, -3.3468885648647999e-4),
        (Wdl::new(136, 111, 96), Logistic, 0.0, 10.0, 1.4937155437162847),
        (Wdl::new(245, 182, 153), Normalized, 0.0, 5.0, 1.5384453274920449),
    ];
    for (wdl, model, elo0, elo1, want) in trinomial {
        assert_precise(sprt(elo0, elo1, model).llr_trinomial(wdl), want);
    }
    #[rustfmt::skip]
    let pentanomial = [
        ([144, 3, 1, 0, 0, 0], Normalized, -1500.0, -500.0, -6.721260399622268),
        ([77, 1, 0, 0, 0, 0], Normalized, -1000.0, -500.0, -2.9524264009599584),
        ([72, 10, 0, 0, 0, 0], Normalized, -1000.0, -500.0, -2.9657551880165486),
        ([144, 3, 1, 0, 0, 0], Logistic, -1500.0, -500.0, 4.8677994774455556),
        ([0, 0, 0, 0, 0, 0], Normalized, 0.0, 5.0, -1.0353876017313719e-6),
        ([0, 0, 3, 4, 0, 0], Normalized, 0.0, 5.0, -0.0017791129731450786),
        ([3, 4, 5, 0, 6, 7], Normalized, -20.0, 20.0, 1.1504926515735672),
        ([3, 4, 2, 3, 6, 7], Logistic, -20.0, 20.0, 1.1490785266116314),
        ([34, 54, 31, 32, 64, 75], Normalized, 0.0, 5.0, 1.3014363770275193),
    ];
    for ([ll, ld, wl, dd, wd, ww], model, elo0, elo1, want) in pentanomial {
        let llr = sprt(elo0, elo1, model).llr_pentanomial(penta(ll, ld, wl, dd, wd, ww));
        assert_precise(llr.unwrap(), want);
    }
}

/// BayesElo has no pentanomial form (fastchess falls back to trinomial reports), and gives 0
/// until there is both a win and a loss (fastchess's convention: its draw Elo needs both).
#[test]
fn bayesian_conventions() {
    let s = sprt(0.0, 5.0, SprtModel::Bayesian);
    assert_eq!(s.llr_pentanomial(penta(1, 2, 3, 4, 5, 6)), None);
    assert_eq!(s.llr_trinomial(Wdl::new(10, 5, 0)), 0.0);
    assert_eq!(s.llr_trinomial(Wdl::new(0, 5, 10)), 0.0);
}

/// Lopsided and empty results give a finite ratio in every model (never NaN).
#[test]
fn llr_is_finite_at_the_extremes() {
    let wdls = [
        Wdl::new(0, 0, 0),
        Wdl::new(100_000, 0, 0),
        Wdl::new(0, 0, 100_000),
        Wdl::new(0, 100_000, 0),
        Wdl::new(1, 0, 100_000),
    ];
    let pentas = [
        penta(0, 0, 0, 0, 0, 0),
        penta(100_000, 0, 0, 0, 0, 0),
        penta(0, 0, 0, 0, 0, 100_000),
        penta(0, 0, 50_000, 50_000, 0, 0),
        penta(0, 1, 0, 0, 0, 0),
    ];
    for model in SprtModel::ALL {
        for (elo0, elo1) in [
            (-3000.0, 3000.0),
            (0.0, 5.0),
            (-1500.0, -500.0),
            (500.0, 1500.0),
        ] {
            let s = sprt(elo0, elo1, model);
            for wdl in wdls {
                assert!(
                    s.llr_trinomial(wdl).is_finite(),
                    "{model} {elo0} {elo1} {wdl:?}"
                );
            }
            for p in pentas {
                if let Some(llr) = s.llr_pentanomial(p) {
                    assert!(llr.is_finite(), "{model} {elo0} {elo1} {p:?}");
                }
            }
        }
    }
}

#[test]
fn parse_reads_fastchess_words() {
    let s =
        SprtConfig::parse("elo0=0 elo1=5 alpha=0.05 beta=0.1 model=logistic".split(' ')).unwrap();
    assert_eq!(
        (s.elo0(), s.elo1(), s.alpha(), s.beta()),
        (0.0, 5.0, 0.05, 0.1)
    );
    assert_eq!(s.model(), SprtModel::Logistic);
    // The example: alpha, beta and model left out.
    let s = SprtConfig::parse(["elo0=0", "elo1=5"]).unwrap();
    assert_eq!(
        (s.alpha(), s.beta(), s.model()),
        (0.05, 0.05, SprtModel::Normalized)
    );
    // fastchess: a missing elo0 is 0; the last of a repeated key counts.
    let s = SprtConfig::parse(["elo1=3", "elo1=2.5", "model=bayesian"]).unwrap();
    assert_eq!(
        (s.elo0(), s.elo1(), s.model()),
        (0.0, 2.5, SprtModel::Bayesian)
    );
    let s = SprtConfig::parse(["elo0=-1.75", "elo1=0.25", "model=normalized"]).unwrap();
    assert_eq!((s.elo0(), s.elo1()), (-1.75, 0.25));
}

#[test]
fn parse_names_the_wrong_key() {
    let err = |words: &str| SprtConfig::parse(words.split(' ')).unwrap_err();
    let e = err("elo0=0 elo1=5 alfa=0.05");
    assert_eq!(e, SprtConfigError::UnknownKey("alfa".into()));
    assert_eq!(e.key(), Some("alfa"));
    let e = err("elo0=0 elo1=five");
    assert_eq!(
        e,
        SprtConfigError::BadNumber {
            key: "elo1",
            value: "five".into()
        }
    );
    assert_eq!(e.to_string(), "elo1=five: not a finite number");
    assert_eq!(err("elo0= elo1=5").key(), Some("elo0"));
    assert_eq!(err("elo0=0 elo1=nan").key(), Some("elo1"));
    assert_eq!(err("elo0=0 elo1=inf").key(), Some("elo1"));
    assert_eq!(
        err("elo0=0 elo1=5 model=normalised"),
        SprtConfigError::UnknownModel("normalised".into())
    );
    assert_eq!(err("elo0=0 elo1=5 model=Logistic").key(), Some("model"));
    assert_eq!(
        err("elo0=0 elo1"),
        SprtConfigError::NotKeyValue("elo1".into())
    );
    assert_eq!(
        err("elo0=5 elo1=0"),
        SprtConfigError::EloOrder {
            elo0: 5.0,
            elo1: 0.0
        }
    );
    // A missing elo1 is 0 (fastchess): the message says it was missing.
    let e = err("elo0=0");
    assert_eq!(
        e,
        SprtConfigError::EloMissing {
            key: "elo1",
            elo0: 0.0,
            elo1: 0.0
        }
    );
    assert_eq!(
        e.to_string(),
        "no elo1= given (a missing one is 0), and elo0 (0) must be less than elo1 (0): give \
         both, e.g. elo0=0 elo1=5"
    );
    assert_eq!(err("elo1=-3").key(), Some("elo0"));
    assert_eq!(
        err("elo0=0 elo1=5 alpha=0"),
        SprtConfigError::ProbabilityOutOfRange {
            key: "alpha",
            value: 0.0
        }
    );
    assert_eq!(err("elo0=0 elo1=5 beta=1").key(), Some("beta"));
    assert_eq!(
        err("elo0=0 elo1=5 alpha=0.6 beta=0.4"),
        SprtConfigError::AlphaBetaSum {
            alpha: 0.6,
            beta: 0.4
        }
    );
    assert_eq!(err("elo0=0 elo1=100000").key(), Some("elo1"));
    assert_eq!(
        err("elo0=0 elo1=5 alpha=1.5").to_string(),
        "alpha=1.5: must lie strictly between 0 and 1"
    );
}

/// The models print under the names `model=` takes, fastchess's: `normalized`, `logistic`,
/// `bayesian`; and each name reads back as its model.
#[test]
fn models_print_and_parse_by_fastchess_names() {
    let names: Vec<String> = SprtModel::ALL.iter().map(|m| m.to_string()).collect();
    assert_eq!(names, ["normalized", "logistic", "bayesian"]);
    for m in SprtModel::ALL {
        assert_eq!(m.to_string().parse::<SprtModel>(), Ok(m));
    }
    assert!("Normalized".parse::<SprtModel>().is_err());
}
