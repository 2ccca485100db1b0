//! The random player's move is uniform over the legal moves: a chi-square test of its draws
//! in fixed positions, from fixed seeds, both ways it draws (`choose`, the engine's, a place of
//! the canonical order; `choose_quickly`, self-play's, by rejection); and
//! `Position::pick_legal` (what `choose` draws with) finds the same move as the list at every
//! place of the canonical order.
//!
//! The positions, each with the reason it is here and its count of legal moves (hand-counted,
//! or from shunsai's generator, which shares no code with ours):
//!
//! - the start position: 30 moves (perft 1, published everywhere);
//! - a pawn-drop mate (打ち歩詰め): the pawn drop that would mate is the one drop left out;
//! - pinned pieces: a silver and a bishop that may only move along their pin lines;
//! - a position from a random game (`positions/random-games.sfen`) with promotions, drops of
//!   two kinds and nifu files: 125 moves, as shunsai counts them.

use saikoro_core::{Choice, EnteringKingRule, Game, Move, Position, RandomMover};
use shogi_usi_parser::FromUsi;
use shunsai::shogi_core::PartialPosition;
use std::collections::BTreeMap;

/// White king 1a; Black gold 2c, knight 3c, king 9i, a pawn in hand. P*1b would check the
/// king, which cannot take it (the gold guards 1b) nor step aside (2a is the knight's, 2b the
/// gold's): mate by a pawn drop, so illegal. Legal, counted by hand: king 9h 8h 8i (3); gold
/// 2b 1b 3b 1c 2d (5; 3c is its own knight); knight 2a+ 4a+ (2, both must promote); pawn drops
/// on the 77 empty squares but not the 8 of rank a (dead) nor 1b: 68. 78 in all.
const PAWN_DROP_MATE: &str = "8k/9/6NG1/9/9/9/9/9/K8 b P 1";

/// Black king 5i; its silver 5h pinned on the file by the White rook 5a, its bishop 4h pinned
/// on the diagonal by the White bishop 1e; a free gold 6h; White king 9a. Legal, counted by
/// hand: king 4i 6i (2); silver only 5g (1; 4g 6g 4i 6i leave the file); bishop 3g 2f 1e
/// (3, along the diagonal, none in the zone); gold 6g 7g 5g 7h 6i (5). 11 in all.
const PINS: &str = "k3r4/9/9/9/8b/9/9/3GSB3/4K4 b - 1";

/// White to move, mated: the Black gold on 1b, guarded by the pawn on 1c, takes 1a's every
/// way out (2a, 2b, 1b). No legal move: nothing to pick.
const MATED: &str = "8k/8G/8P/9/9/9/9/9/K8 w - 1";

/// The 36th position of `positions/random-games.sfen` (ply 211 of its game).
const RANDOM_GAME: &str =
    "Rsk4p1/p3+N3p/1pnpGb+B1+P/6s2/1RSP1pp2/l1g2PP2/L1N3LS1/P7g/2+p1K2NG b L5P 211";

/// The number of legal moves, as shunsai counts them.
fn shunsai_count(sfen: &str) -> usize {
    let p = PartialPosition::from_usi(&format!("sfen {sfen}")).expect("shogi_usi_parser reads it");
    shunsai::Position::new(p).legal_moves().len()
}

/// The upper `1 - 1e-6` quantile of the chi-square distribution with `df` degrees of freedom,
/// by the Wilson–Hilferty approximation (E. B. Wilson and M. M. Hilferty, "The distribution of
/// chi-square", PNAS 17(12), 684–688, 1931): (χ²/df)^(1/3) is nearly normal with mean
/// 1 − 2/(9 df) and variance 2/(9 df). z = 4.753424 is the standard normal's upper 1e-6
/// quantile (Abramowitz and Stegun's tables; 1 − Φ(4.7534) = 1.000e-6).
fn chi_square_critical(df: f64) -> f64 {
    const Z: f64 = 4.753_424;
    let v = 2.0 / (9.0 * df);
    df * (1.0 - v + Z * v.sqrt()).powi(3)
}

/// Pearson's statistic of `counts` against equal expected counts.
fn chi_square(counts: &[u64]) -> f64 {
    let n: u64 = counts.iter().sum();
    let expected = n as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// Draws the random player's move `draws` times in `sfen` (one player, one seed; with
/// `choose_quickly` when `quick`), and returns how often each legal move came, in canonical
/// order; fails on a move not in the legal list.
fn draw_counts(sfen: &str, seed: u64, draws: usize, quick: bool) -> Vec<u64> {
    let pos = Position::from_sfen(sfen).unwrap();
    let legal = pos.legal_moves();
    let place: BTreeMap<Move, usize> = legal.iter().enumerate().map(|(i, &m)| (m, i)).collect();
    let mut counts = vec![0u64; legal.len()];
    let mut player = RandomMover::new(seed);
    let mut game = Game::new(pos);
    for _ in 0..draws {
        let choice = match quick {
            true => player.choose_quickly(&mut game, EnteringKingRule::CsaRule27),
            false => player.choose(&mut game, EnteringKingRule::CsaRule27),
        };
        match choice {
            Choice::Move(m) => match place.get(&m) {
                Some(&i) => counts[i] += 1,
                None => panic!("{m} drawn in {sfen} is not legal"),
            },
            c => panic!("{c:?} in {sfen}"),
        }
    }
    counts
}

/// Every legal move is drawn, and the counts pass the chi-square test at the 1e-6 level: a
/// uniform player fails it once in a million runs (the seeds are fixed, so never), while one
/// move left out or drawn twice as often as the others fails it for sure (see the next test).
#[test]
fn draws_are_uniform_over_the_legal_moves() {
    let cases = [
        (saikoro_core::STARTPOS_SFEN, 30),
        (PAWN_DROP_MATE, 78),
        (PINS, 11),
        (RANDOM_GAME, shunsai_count(RANDOM_GAME)),
    ];
    assert_eq!(cases[3].1, 125);
    for (seed, (sfen, moves)) in cases.into_iter().enumerate() {
        assert_eq!(shunsai_count(sfen), moves, "{sfen}");
        for quick in [false, true] {
            // 200 expected draws per move.
            let counts = draw_counts(sfen, seed as u64 + 1, 200 * moves, quick);
            assert_eq!(counts.len(), moves, "{sfen}");
            assert!(
                counts.iter().all(|&c| c > 0),
                "a move never drawn in {sfen}"
            );
            let (stat, critical) = (chi_square(&counts), chi_square_critical(moves as f64 - 1.0));
            assert!(
                stat < critical,
                "{sfen} ({quick}): chi-square {stat:.1} ≥ {critical:.1}"
            );
        }
    }
}

/// The test can fail: counts from a player that never draws one move (its share going to
/// another), or draws one move twice as often, are far above the critical value. The critical
/// values themselves: Wilson–Hilferty gives 81.0 for 29 degrees of freedom and 151.3 for 77,
/// where the exact quantiles (bisection on the regularized incomplete gamma function) are
/// 80.44 and 150.95.
#[test]
fn a_biased_picker_fails_the_test() {
    assert!((chi_square_critical(29.0) - 80.44).abs() < 1.0);
    assert!((chi_square_critical(77.0) - 150.95).abs() < 1.0);
    let mut never = vec![200u64; 30];
    never[0] = 0;
    never[1] = 400;
    assert!(chi_square(&never) > chi_square_critical(29.0));
    let mut twice = vec![200u64; 78];
    twice[5] = 400;
    assert!(chi_square(&twice) > chi_square_critical(77.0));
    // Uniform counts pass, of course.
    assert!(chi_square(&[200; 30]) < chi_square_critical(29.0));
}

/// The pawn drop that would mate is never drawn, nor the pinned pieces' moves off their lines.
#[test]
fn illegal_moves_of_the_special_positions_are_never_drawn() {
    let pos = Position::from_sfen(PAWN_DROP_MATE).unwrap();
    let legal = pos.legal_moves();
    assert!(!legal.contains(&Move::from_usi("P*1b").unwrap()));
    assert!(legal.contains(&Move::from_usi("P*1c").unwrap()));
    let pos = Position::from_sfen(PINS).unwrap();
    let legal = pos.legal_moves();
    for m in ["5h4g", "5h6g", "5h4i", "5h6i", "4h5g", "4h3i"] {
        assert!(!legal.contains(&Move::from_usi(m).unwrap()), "{m}");
    }
    for m in ["5h5g", "4h3g", "4h2f", "4h1e"] {
        assert!(legal.contains(&Move::from_usi(m).unwrap()), "{m}");
    }
}

/// `pick_legal` gives the move the list holds at the place asked, at every place, in every
/// position of the random-game sample and of the test positions above.
#[test]
fn pick_legal_finds_the_listed_move_at_every_place() {
    let sample = include_str!("../../positions/random-games.sfen");
    let sfens = sample
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .chain([
            saikoro_core::STARTPOS_SFEN,
            PAWN_DROP_MATE,
            PINS,
            RANDOM_GAME,
            MATED,
        ]);
    let mut checked = 0;
    for sfen in sfens {
        let pos = Position::from_sfen(sfen).unwrap();
        let legal = pos.legal_moves();
        for (i, &m) in legal.iter().enumerate() {
            let mut asked = 0;
            let got = pos.pick_legal(|n| {
                asked = n;
                i
            });
            assert_eq!(got, Some(m), "place {i} in {sfen}");
            assert_eq!(asked, legal.len(), "{sfen}");
            checked += 1;
        }
        if legal.is_empty() {
            assert_eq!(pos.pick_legal(|_| panic!("nothing to pick from")), None);
        }
    }
    assert!(checked > 50_000, "{checked}");
    assert!(Position::from_sfen(MATED).unwrap().is_checkmate());
}
