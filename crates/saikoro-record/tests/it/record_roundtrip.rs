//! Round trips of the record forms: a game written as KIF, KI2 or CSA reads back to the same
//! start position and the same moves, every one checked by the rules as it is read. The games
//! are seeded random playouts (drops, promotions, 不成 and captures back all come up in them)
//! from the starting position, a handicap with White to move and a position with pieces in hand.

use crate::record_support::random_game;
use saikoro_core::{Game, Move, Position};
use saikoro_record::{csa, ki2, kif, Ending, Record, RecordMove};

/// Start positions: 平手, 二枚落ち (上手, White, moves first) and a middle game with hands.
const STARTS: [&str; 3] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "ln1g1g1nl/1r1sk2s1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/7R1/LN1GKGSNL b Bb 1",
];

/// A record of `moves` from `start` (each with `time_ms`), the players named, ended by a
/// resignation.
fn record_of(start: &Position, moves: &[Move], time_ms: Option<u64>) -> Record {
    let mut r = Record::new(start.clone());
    r.set_header("先手", "Sente");
    r.set_header("後手", "Gote");
    r.moves = moves
        .iter()
        .map(|&mv| RecordMove::with_time(mv, time_ms))
        .collect();
    r.set_end(Ending::Resign, Vec::new());
    // A timed KIF writes the end's time too (0:00 when it has none), as tsshogi does: a timed
    // record's end has one.
    r.end.as_mut().unwrap().time_ms = time_ms.map(|_| 0);
    r
}

/// The one record a text read to.
fn one(read: Result<Vec<Record>, saikoro_record::RecordError>, text: &str) -> Record {
    let mut records = read.unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(records.len(), 1, "{text}");
    records.remove(0)
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
            let record = record_of(&start, &moves, Some(1000));
            let text = kif::write(&record);
            let back = one(kif::read_records(&text), &text);
            assert_eq!(back, record, "{text}");
            let text = ki2::write(&record);
            let back = one(ki2::read_records(&text), &text);
            assert_eq!(back.start, start, "{text}");
            assert_eq!(back.moves, record_of(&start, &moves, None).moves, "{text}");
            assert_eq!(back.ending(), Some(Ending::Resign), "{text}");

            // CSA V2.2, as the match, the CSA client and self-play write it.
            let text = csa::write_version(&record, csa::Version::V22);
            let back = one(csa::read_records(&text), &text);
            assert_eq!(back, record, "{text}");
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
    let kif_text = kif::write(&record_of(&start, &moves, Some(0))).into_bytes();
    let ki2_text = ki2::write(&record_of(&start, &moves, None)).into_bytes();
    let csa_text =
        csa::write_version(&record_of(&start, &moves, None), csa::Version::V22).into_bytes();
    let mut rng = saikoro_core::SplitMix64::new(27);
    for original in [&kif_text, &ki2_text, &csa_text] {
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
            let moves_of = |r: Vec<Record>| {
                let r = r.into_iter().next().unwrap();
                (r.start, r.moves.iter().map(|m| m.mv).collect::<Vec<_>>())
            };
            for (start, moves) in [
                kif::read_records(&text).ok().map(moves_of),
                ki2::read_records(&text).ok().map(moves_of),
                csa::read_records(&text).ok().map(moves_of),
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

/// The seed game (positions/records/seed.*, see positions/README.md) in KIF, KI2 and CSA reads
/// to the same 31 moves and the same end: Black wins, White resigns at move 32. The first and
/// last moves by hand from the texts: ▲2六歩 (2g2f), ▲8六角 from 7五 (7e8f). The headers of
/// KIF and KI2 are the same fields (the texts write them alike), and so are the comment lines
/// before the moves where both have them.
#[test]
fn the_seed_game_reads_alike_in_kif_ki2_and_csa() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/records");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let text = read("seed.kif");
    let from_kif = one(kif::read_records(&text), &text);
    let text = read("seed.ki2");
    let from_ki2 = one(ki2::read_records(&text), &text);
    let text = read("seed.csa");
    let from_csa = csa::read_records(&text).unwrap().remove(0);
    let csa_moves: Vec<Move> = from_csa.moves.iter().map(|m| m.mv).collect();
    assert_eq!(from_kif.start, Position::startpos());
    assert_eq!(from_ki2.start, Position::startpos());
    assert_eq!(from_csa.start, Position::startpos());
    let kif_moves: Vec<Move> = from_kif.moves.iter().map(|m| m.mv).collect();
    let ki2_moves: Vec<Move> = from_ki2.moves.iter().map(|m| m.mv).collect();
    assert_eq!(kif_moves.len(), 31);
    assert_eq!(kif_moves, csa_moves);
    assert_eq!(ki2_moves, csa_moves);
    assert_eq!(kif_moves[0].to_string(), "2g2f");
    assert_eq!(kif_moves[30].to_string(), "7e8f");
    assert_eq!(from_kif.ending(), Some(Ending::Resign));
    assert_eq!(from_ki2.ending(), Some(Ending::Resign));
    assert_eq!(from_csa.ending(), Some(Ending::Resign));
    assert_eq!(from_kif.header, from_ki2.header);
    assert_eq!(from_kif.header_value("先手"), Some("hoge1 2級"));
    assert_eq!(from_kif.header_value("棋戦"), Some("将棋ウォーズ(10分)"));
    // KIF's times: ▲2六歩 took 1 second, ▲7八金 (move 5) 2.
    assert_eq!(from_kif.moves[0].time_ms, Some(1000));
    assert_eq!(from_kif.moves[4].time_ms, Some(2000));
    assert_eq!(
        from_kif.comments,
        [
            "http://kif-pona.heroz.jp/games/hoge1-hoge2-20171125_171742?locale=ja",
            ""
        ]
    );
    assert_eq!(from_ki2.comments, [" ----  ぴよ将棋 棋譜ファイル  ----"]);
}
