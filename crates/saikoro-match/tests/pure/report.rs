//! The report block against the lines fastchess printed (as quoted in its public issue threads)
//! and against figures computed apart from this code (`tests/tournament_reference.py`, and by
//! hand where a test says so).

// The reference values are kept as the script printed them, to 17 significant digits.
#![allow(clippy::excessive_precision)]

use super::support as tournament_support;

use saikoro_match::{Pentanomial, Report, SprtConfig, SprtModel, Tally, Wdl};
use tournament_support::{assert_precise, penta, tally_of};

fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> SprtConfig {
    SprtConfig::new(elo0, elo1, 0.05, 0.05, model).unwrap()
}

fn report(tally: Tally, pentanomial: bool, sprt: Option<&SprtConfig>, details: &str) -> String {
    Report {
        first: "A",
        second: "B",
        details,
        tally,
        pentanomial,
        sprt,
        notes: &[],
    }
    .to_string()
}

const RULE: &str = "--------------------------------------------------\n";

/// The block fastchess printed in its pull request #515 thread (ten games of two random
/// movers), every line but the header equal.
#[test]
fn report_as_fastchess_printed_it() {
    let got = report(
        tally_of(penta(0, 1, 1, 3, 0, 0)),
        true,
        None,
        "2+0.02, NULL, NULL, openings.pgn",
    );
    let want = [
        RULE,
        "Results of A vs B (2+0.02, NULL, NULL, openings.pgn):\n",
        "Elo: -34.86 +/- 62.20, nElo: -122.84 +/- 215.34\n",
        "LOS: 13.18 %, DrawRatio: 80.00 %, PairsRatio: 0.00\n",
        "Games: 10, Wins: 1, Losses: 2, Draws: 7, Points: 4.5 (45.00 %)\n",
        "Ptnml(0-2): [0, 1, 4, 0, 0], WL/DD Ratio: 0.33\n",
        RULE,
    ]
    .concat();
    assert_eq!(got, want);
}

/// fastchess issue #807 (120 games against a capped Stockfish) and the first block of pull
/// request #881 (1274 games; its LLR line is left out, that pull request changed the LLR).
#[test]
fn report_as_fastchess_printed_it_lopsided() {
    let got = report(tally_of(penta(30, 6, 18, 0, 0, 6)), true, None, "");
    assert!(got.contains(
        "Elo: -168.40 +/- 73.37, nElo: -170.08 +/- 62.16\n\
         LOS: 0.00 %, DrawRatio: 30.00 %, PairsRatio: 0.17\n\
         Games: 120, Wins: 30, Losses: 84, Draws: 6, Points: 33.0 (27.50 %)\n\
         Ptnml(0-2): [30, 6, 18, 0, 6], WL/DD Ratio: inf\n"
    ));
    let got = report(tally_of(penta(549, 54, 31, 2, 1, 0)), true, None, "");
    assert!(got.contains(
        "Elo: -517.92 +/- 38.60, nElo: -856.15 +/- 19.08\n\
         LOS: 0.00 %, DrawRatio: 5.18 %, PairsRatio: 0.00\n\
         Games: 1274, Wins: 32, Losses: 1183, Draws: 59, Points: 61.5 (4.83 %)\n\
         Ptnml(0-2): [549, 54, 33, 1, 0], WL/DD Ratio: 15.50\n"
    ));
}

/// Where fastchess printed NaN. Six games all won (its pull request #556 thread: `Elo: inf +/-
/// nan, nElo: inf +/- nan`, `WL/DD Ratio: -nan`), and issue #879 (`Elo: -827.87 +/- nan`,
/// `LLR: -nan (nan%)`): here `n/a` for what is undefined, `inf` for the Elo interval that runs
/// past a score of 0, and the LLR from the reference script, −6.7213 = −228.3 % of ln(0.05/0.95).
#[test]
fn report_where_fastchess_printed_nan() {
    let got = report(tally_of(penta(0, 0, 0, 0, 0, 3)), true, None, "");
    assert!(got.contains(
        "Elo: inf +/- n/a, nElo: inf +/- n/a\n\
         LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf\n\
         Games: 6, Wins: 6, Losses: 0, Draws: 0, Points: 6.0 (100.00 %)\n\
         Ptnml(0-2): [0, 0, 0, 0, 3], WL/DD Ratio: n/a\n"
    ));
    let s = sprt(-1500.0, -500.0, SprtModel::Normalized);
    let got = report(tally_of(penta(144, 3, 1, 0, 0, 0)), true, Some(&s), "");
    assert!(got.contains(
        "Elo: -827.87 +/- inf, nElo: -2248.42 +/- 39.58\n\
         LOS: 0.00 %, DrawRatio: 0.68 %, PairsRatio: 0.00\n\
         Games: 296, Wins: 1, Losses: 292, Draws: 3, Points: 2.5 (0.84 %)\n\
         Ptnml(0-2): [144, 3, 1, 0, 0], WL/DD Ratio: inf\n\
         LLR: -6.72 (-228.3%) (-2.94, 2.94) [-1500.00, -500.00]\n"
    ));
}

/// Before any game: every figure undefined, the counts zero. The LLR of no results is the
/// regularised one, −1.04·10⁻⁶ (reference script), so it prints as fastchess would, `-0.00`.
#[test]
fn report_before_any_game() {
    let s = sprt(0.0, 5.0, SprtModel::Normalized);
    let got = report(Tally::default(), true, Some(&s), "");
    let want = [
        RULE,
        "Results of A vs B:\n",
        "Elo: n/a +/- n/a, nElo: n/a +/- n/a\n",
        "LOS: n/a, DrawRatio: n/a, PairsRatio: n/a\n",
        "Games: 0, Wins: 0, Losses: 0, Draws: 0, Points: 0.0 (n/a)\n",
        "Ptnml(0-2): [0, 0, 0, 0, 0], WL/DD Ratio: n/a\n",
        "LLR: -0.00 (-0.0%) (-2.94, 2.94) [0.00, 5.00]\n",
        RULE,
    ]
    .concat();
    assert_eq!(got, want);
}

/// A pentanomial block with an SPRT; the figures from the reference script (see
/// `elo_matches_high_precision_values`), the counts and ratios from
/// `ratios_and_tally_by_hand`, the LLR 1.3014 = 44.2 % of 2.9444.
#[test]
fn report_pentanomial_with_sprt() {
    let s = sprt(0.0, 5.0, SprtModel::Normalized);
    let r = Report {
        first: "new",
        second: "old",
        details: "10+0.1, openings.sfen",
        tally: tally_of(penta(34, 54, 31, 32, 64, 75)),
        pentanomial: true,
        sprt: Some(&s),
        notes: &[],
    };
    let want = [
        RULE,
        "Results of new vs old (10+0.1, openings.sfen):\n",
        "Elo: 55.58 +/- 27.65, nElo: 57.94 +/- 28.28\n",
        "LOS: 100.00 %, DrawRatio: 21.72 %, PairsRatio: 1.58\n",
        "Games: 580, Wins: 245, Losses: 153, Draws: 182, Points: 336.0 (57.93 %)\n",
        "Ptnml(0-2): [34, 54, 63, 64, 75], WL/DD Ratio: 0.97\n",
        "LLR: 1.30 (44.2%) (-2.94, 2.94) [0.00, 5.00]\n",
        RULE,
    ]
    .concat();
    assert_eq!(r.to_string(), want);
    assert_precise(s.llr(r.tally, true), 1.3014363770275193);
    // Without pairs, the games' ratio: W 245, D 182, L 153 (reference script).
    assert_precise(s.llr(r.tally, false), 1.5384453274920449);
}

/// A trinomial block (fastchess `-report penta=false`): no pairs ratio, no Ptnml line, the
/// draw ratio of games. Figures: fastchess "EloWDL 2"; 111/343 = 32.36 % draws; 191.5/343 =
/// 55.83 %; LLR 1.4937 = 50.7 % of 2.9444 (reference script).
#[test]
fn report_trinomial_with_sprt() {
    let s = sprt(0.0, 10.0, SprtModel::Logistic);
    let tally = Tally {
        wdl: Wdl::new(136, 111, 96),
        pentanomial: Pentanomial::default(),
    };
    let want = [
        RULE,
        "Results of A vs B:\n",
        "Elo: 40.70 +/- 30.43, nElo: 49.77 +/- 36.77\n",
        "LOS: 99.60 %, DrawRatio: 32.36 %\n",
        "Games: 343, Wins: 136, Losses: 96, Draws: 111, Points: 191.5 (55.83 %)\n",
        "LLR: 1.49 (50.7%) (-2.94, 2.94) [0.00, 10.00]\n",
        RULE,
    ]
    .concat();
    assert_eq!(report(tally, false, Some(&s), ""), want);
}

/// The `bayesian` model has no pentanomial form: the block is trinomial, as fastchess makes
/// it. The pairs LL 1, LD 2, WL 3, DD 4, WD 5, WW 6 hold W 20, D 15, L 7; their BayesElo LLR
/// for [0, 10] is 0.4704 (reference script), 16.0 % of 2.9444.
#[test]
fn report_bayesian_is_trinomial() {
    let s = sprt(0.0, 10.0, SprtModel::Bayesian);
    let tally = tally_of(penta(1, 2, 3, 4, 5, 6));
    assert_eq!(tally.wdl, Wdl::new(20, 15, 7));
    let got = report(tally, true, Some(&s), "");
    assert!(!got.contains("Ptnml"));
    assert!(!got.contains("PairsRatio"));
    assert!(got.contains("\nLLR: 0.47 (16.0%) (-2.94, 2.94) [0.00, 10.00]\n"));
    assert_precise(s.llr(tally, true), 0.47041788749445525);
}
