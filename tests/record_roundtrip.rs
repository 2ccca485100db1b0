//! Round trips of the record forms: a game written as KIF or CSA reads back to the same start
//! position and the same moves, every one checked by the rules as it is read. The games are
//! seeded random playouts (drops, promotions, 不成 and captures back all come up in them) from
//! the starting position, a handicap with White to move and a position with pieces in hand.

use saikoro::record::{csa, kif};
use saikoro::{ByColor, Choice, Color, EnteringKingRule, Game, Move, Position, RandomMover};
use std::time::Duration;

/// Start positions: 平手, 二枚落ち (上手, White, moves first) and a middle game with hands.
const STARTS: [&str; 3] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "ln1g1g1nl/1r1sk2s1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/7R1/LN1GKGSNL b Bb 1",
];

/// A seeded random game of at most `plies` moves from `start`.
fn random_game(start: &Position, seed: u64, plies: usize) -> Vec<Move> {
    let mut mover = RandomMover::new(seed);
    let mut game = Game::new(start.clone());
    let mut moves = Vec::new();
    while moves.len() < plies && game.outcome().is_none() {
        match mover.choose(&mut game, EnteringKingRule::default()) {
            Choice::Move(mv) => {
                game.play(mv);
                moves.push(mv);
            }
            Choice::Resign | Choice::DeclareWin => break,
        }
    }
    moves
}

fn names() -> ByColor<String> {
    ByColor(["Sente".to_string(), "Gote".to_string()])
}

#[test]
fn random_games_round_trip_through_kif_and_csa() {
    let mut drops = 0;
    let mut promotions = 0;
    for (i, sfen) in STARTS.iter().enumerate() {
        let start = Position::from_sfen(sfen).unwrap();
        for seed in 0..120u64 {
            let moves = random_game(&start, seed * 3 + i as u64, 160);
            drops += moves
                .iter()
                .filter(|m| matches!(m, Move::Drop { .. }))
                .count();
            promotions += moves
                .iter()
                .filter(|m| matches!(m, Move::Normal { promote: true, .. }))
                .count();
            let timed: Vec<(Move, Duration)> =
                moves.iter().map(|&m| (m, Duration::from_secs(1))).collect();
            let info = kif::KifInfo {
                names: names(),
                ..Default::default()
            };
            let mut out = Vec::new();
            kif::write_record(
                &mut out,
                &info,
                &start,
                &timed,
                kif::End::Resign,
                Some(Color::White),
            )
            .unwrap();
            let text = String::from_utf8(out).unwrap();
            let back = kif::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.start, start, "{text}");
            assert_eq!(back.moves, moves, "{text}");
            assert_eq!(back.end, Some(kif::End::Resign), "{text}");

            let info = csa::RecordInfo {
                names: names(),
                ..Default::default()
            };
            let timed: Vec<(Move, Option<u32>)> = moves.iter().map(|&m| (m, Some(1))).collect();
            let mut out = Vec::new();
            csa::write_record(&mut out, &info, &start, &timed, "%TORYO").unwrap();
            let text = String::from_utf8(out).unwrap();
            let back = csa::read_record(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.start, start, "{text}");
            assert_eq!(back.moves, moves, "{text}");
        }
    }
    // The games exercise what the forms write differently: drops and promotions.
    assert!(
        drops > 1000 && promotions > 1000,
        "{drops} drops, {promotions} promotions"
    );
}

/// A fuzz-style test, deterministic and cheap: records with bytes changed, inserted, deleted or
/// cut, decoded as the match decodes files (UTF-8, else Shift_JIS), are read or refused with an
/// error, never a panic; and whatever is read is legal by the rules (each move is checked again).
#[test]
fn mutated_records_are_read_or_refused_without_a_panic() {
    let start = Position::startpos();
    let moves = random_game(&start, 7, 90);
    let timed: Vec<(Move, Duration)> = moves.iter().map(|&m| (m, Duration::ZERO)).collect();
    let info = kif::KifInfo {
        names: names(),
        ..Default::default()
    };
    let mut kif_text = Vec::new();
    kif::write_record(&mut kif_text, &info, &start, &timed, kif::End::Resign, None).unwrap();
    let info = csa::RecordInfo {
        names: names(),
        ..Default::default()
    };
    let untimed: Vec<(Move, Option<u32>)> = moves.iter().map(|&m| (m, None)).collect();
    let mut csa_text = Vec::new();
    csa::write_record(&mut csa_text, &info, &start, &untimed, "%TORYO").unwrap();
    let mut rng = saikoro::SplitMix64::new(27);
    for original in [&kif_text, &csa_text] {
        for _ in 0..400 {
            let mut bytes = original.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len() as u64) as usize;
                match rng.below(4) {
                    0 => bytes[at] = rng.next_u64() as u8,
                    1 => bytes.insert(at, rng.next_u64() as u8),
                    2 => drop(bytes.remove(at)),
                    _ => bytes.truncate(at.max(1)),
                }
            }
            let text = match std::str::from_utf8(&bytes) {
                Ok(t) => t.to_string(),
                Err(_) => encoding_rs::SHIFT_JIS.decode(&bytes).0.into_owned(),
            };
            for (start, moves) in [
                kif::parse(&text).ok().map(|r| (r.start, r.moves)),
                csa::read_record(&text).ok().map(|r| (r.start, r.moves)),
            ]
            .into_iter()
            .flatten()
            {
                let mut game = Game::new(start);
                for mv in moves {
                    game.try_play(mv).unwrap();
                }
            }
        }
    }
}

/// The seed game (positions/records/seed.*, see positions/README.md) in KIF and CSA reads to the
/// same 31 moves and the same end: Black wins, White resigns at move 32. The first and last
/// moves by hand from the texts: ▲2六歩 (2g2f), ▲8六角 from 7五 (7e8f).
#[test]
fn the_seed_game_reads_alike_in_kif_and_csa() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/records");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let from_kif = kif::parse(&read("seed.kif")).unwrap();
    let from_csa = csa::read_record(&read("seed.csa")).unwrap();
    assert_eq!(from_kif.start, Position::startpos());
    assert_eq!(from_csa.start, Position::startpos());
    assert_eq!(from_kif.moves.len(), 31);
    assert_eq!(from_kif.moves, from_csa.moves);
    assert_eq!(from_kif.moves[0].to_string(), "2g2f");
    assert_eq!(from_kif.moves[30].to_string(), "7e8f");
    assert_eq!(from_kif.end, Some(kif::End::Resign));
    assert_eq!(from_csa.end, Some(csa::End::Resign));
}
