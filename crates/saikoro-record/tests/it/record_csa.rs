//! CSA on the record model: random games written and read back whole (start, moves, times,
//! comments, header fields, end), the records of `positions/records/` read, the V3.0 forms,
//! the `%` end lines both ways, and bad input refused with its line and reason, never a panic.

use crate::record_support;

use record_support::{counts, csa_ending, random_record, STARTS};
use saikoro_core::{Color, Move, Position, RandomMover};
use saikoro_record::{csa, form, kif, Ending, Format, Record};

fn usi(r: &Record) -> Vec<String> {
    r.moves.iter().map(|m| m.mv.to_string()).collect()
}

fn read_file(name: &str) -> String {
    let path = format!("{}/positions/records/{name}", env!("CARGO_MANIFEST_DIR"));
    form::decode(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn random_games_round_trip() {
    let mut all = Vec::new();
    for (i, sfen) in STARTS.iter().enumerate() {
        let start = Position::from_sfen(sfen).unwrap();
        for seed in 0..300u64 {
            let record = random_record(&start, seed * 7 + i as u64, 120, false);
            let text = csa::write(&record);
            let back = csa::read_records(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.len(), 1, "{text}");
            let back = &back[0];
            assert_eq!(back.start, record.start, "{text}");
            assert_eq!(back.moves, record.moves, "moves, times, comments\n{text}");
            assert_eq!(back.ending(), csa_ending(record.ending()), "{text}");
            assert_eq!(back.header, record.header, "{text}");
            assert_eq!(back.comments, record.comments, "{text}");
            all.push(record);
        }
    }
    let (drops, promotions, unpromoted) = counts(&all);
    assert!(
        drops > 1000 && promotions > 1000 && unpromoted > 100,
        "{drops} {promotions} {unpromoted}"
    );
}

#[test]
fn several_games_in_one_text_split_by_slash() {
    let records: Vec<Record> = (0..5u64)
        .map(|s| random_record(&Position::startpos(), s, 40, true))
        .collect();
    let text: Vec<String> = records.iter().map(csa::write).collect();
    let back = csa::read_records(&text.join("/\n")).unwrap();
    assert_eq!(back.len(), 5);
    for (a, b) in records.iter().zip(&back) {
        assert_eq!(a.moves, b.moves);
    }
}

/// positions/records/three_games.csa (Shift_JIS, Floodgate's layout): three games, the third a
/// 二枚落ち with `PI82HI22KA` and White to move.
#[test]
fn the_three_games_file() {
    let text = read_file("three_games.csa");
    assert_eq!(form::detect(None, &text), Some(Format::Csa));
    let games = csa::read_records(&text).unwrap();
    assert_eq!(games.len(), 3);
    let g = &games[0];
    assert_eq!(g.name(Color::Black), Some("alpha"));
    assert_eq!(g.name(Color::White), Some("beta"));
    assert_eq!(
        g.header_value("棋戦"),
        Some("wdoor+floodgate-300-10F+alpha+beta+20261201100000")
    );
    assert_eq!(g.header_value("開始日時"), Some("2026/12/01 10:00:00"));
    assert_eq!(usi(g), ["2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b"]);
    let times: Vec<Option<u64>> = g.moves.iter().map(|m| m.time_ms).collect();
    let s = |n: u64| Some(n * 1000);
    assert_eq!(times, [s(3), s(2), s(1), s(1), s(1), s(1)]);
    assert_eq!(g.ending(), Some(Ending::Resign));
    let g = &games[1];
    assert_eq!(usi(g), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    assert_eq!(g.ending(), Some(Ending::Interrupt));
    let g = &games[2];
    assert_eq!(
        g.start.to_sfen(),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(usi(g)[..2], ["5a4b", "7g7f"]);
}

/// seed.csa and seed.kif are the same game: the same 31 moves.
#[test]
fn seed_csa_and_seed_kif_agree() {
    let csa_game = &csa::read_records(&read_file("seed.csa")).unwrap()[0];
    let kif_game = &kif::read_records(&read_file("seed.kif")).unwrap()[0];
    assert_eq!(csa_game.moves.len(), 31);
    let moves: Vec<Move> = csa_game.moves.iter().map(|m| m.mv).collect();
    let kif_moves: Vec<Move> = kif_game.moves.iter().map(|m| m.mv).collect();
    assert_eq!(moves, kif_moves);
    assert_eq!(csa_game.name(Color::Black), Some("hoge1 2級"));
    assert_eq!(csa_game.header_value("棋戦"), Some("将棋ウォーズ(10分)"));
}

/// V3.0 by hand from the spec's text (CSA 標準棋譜ファイル形式 V3.0, 2024): the encoding line,
/// `V3.0`, `$OPENING`, a `$` key of its own, times with milliseconds, `'*` comments after a
/// move, and `%KACHI`.
#[test]
fn version_3_forms() {
    let text = "'CSA encoding=UTF-8\nV3.0\nN+先手さん\nN-後手さん\n$OPENING:相居飛車\n\
                $NOTE:a note\n'before the position\nPI\n+\n+7776FU\nT12.5\n'** 30 -3334FU\n\
                -3334FU,T0.025\n'*評価値\n%KACHI\n";
    let r = &csa::read_records(text).unwrap()[0];
    assert_eq!(r.header_value("戦型"), Some("相居飛車"));
    assert_eq!(r.header_value("NOTE"), Some("a note"));
    assert_eq!(r.comments, ["before the position"]);
    assert_eq!(r.moves[0].time_ms, Some(12_500));
    assert_eq!(r.moves[0].comments(), ["* 30 -3334FU"]);
    assert_eq!(r.moves[1].time_ms, Some(25));
    assert_eq!(r.moves[1].comments(), ["評価値"]);
    assert_eq!(r.ending(), Some(Ending::Declaration));
    let out = csa::write(r);
    assert!(
        out.starts_with("'CSA encoding=UTF-8\nV3.0\nN+先手さん\nN-後手さん\n"),
        "{out}"
    );
    assert!(out.contains("$OPENING:相居飛車\n$NOTE:a note\n"), "{out}");
    assert!(
        out.contains("+7776FU\nT12.500\n'** 30 -3334FU\n-3334FU\nT0.025\n'*評価値\n%KACHI\n"),
        "{out}"
    );
}

/// Each `%` line reads as its ending and is written back as the same line (`%ILLEGAL_MOVE`
/// names the side to move: after one move, White's foul, written `%-ILLEGAL_ACTION`).
#[test]
fn end_lines_both_ways() {
    for (word, end) in [
        ("TORYO", Ending::Resign),
        ("CHUDAN", Ending::Interrupt),
        ("SENNICHITE", Ending::Repetition),
        ("TIME_UP", Ending::TimeUp),
        ("+ILLEGAL_ACTION", Ending::Foul(Color::Black)),
        ("-ILLEGAL_ACTION", Ending::Foul(Color::White)),
        ("JISHOGI", Ending::Jishogi),
        ("KACHI", Ending::Declaration),
        ("HIKIWAKE", Ending::Draw),
        ("MAX_MOVES", Ending::MaxMoves),
        ("TSUMI", Ending::Mate),
        ("FUZUMI", Ending::NoMate),
        ("ERROR", Ending::Error),
    ] {
        let text = format!("PI\n+\n+7776FU\n%{word}\n");
        let r = &csa::read_records(&text).unwrap()[0];
        assert_eq!(r.ending(), Some(end), "{word}");
        assert!(
            csa::write(r).ends_with(&format!("+7776FU\n%{word}\n")),
            "{word}"
        );
    }
    let r = &csa::read_records("PI\n+\n+7776FU\n%ILLEGAL_MOVE\n").unwrap()[0];
    assert_eq!(r.ending(), Some(Ending::Foul(Color::White)));
    assert!(csa::write(r).ends_with("%-ILLEGAL_ACTION\n"));
}

/// A handicap is written as the `PI` line of the pieces taken off; any other start in full.
#[test]
fn starts_are_written_as_pi_lines_or_boards() {
    let kyo = Position::from_sfen(STARTS[1]).unwrap();
    let text = csa::write(&Record::new(kyo.clone()));
    assert!(text.contains("\nPI11KY\n-\n"), "{text}");
    assert_eq!(csa::read_records(&text).unwrap()[0].start, kyo);
    let other = Position::from_sfen(STARTS[4]).unwrap();
    let text = csa::write(&Record::new(other.clone()));
    assert!(text.contains("P1 *  *  *  * -OU *  *  *  * \n"), "{text}");
    assert!(text.contains("P+00HI00KA00KI00GI00KE00KY00FU\n"), "{text}");
    assert_eq!(csa::read_records(&text).unwrap()[0].start, other);
}

fn error(text: &str) -> String {
    csa::read_records(text).unwrap_err().to_string()
}

/// The first wrong line is named with its number in the whole text and why.
#[test]
fn bad_records_name_their_line() {
    // 二歩 on line 9: Black's pawn (in hand from `P+00FU`, the 1七 one off the board) dropped
    // on file 7, where its 7七 pawn stands.
    let nifu = "V2.2\nN+a\nN-b\nPI17FU\nP+00FU\n+\n+2726FU\n-3334FU\n+0075FU\n";
    let e = csa::read_records(nifu).unwrap_err();
    assert_eq!(e.line, 9, "{e}");
    assert_eq!(
        e.reason,
        "move 3: '+0075FU' is illegal: two unpromoted pawns on one file (nifu)"
    );
    let e = error("PI\n+\n+7776FU\n+3334FU\n");
    assert!(
        e.starts_with("line 4: move 2: '+3334FU': not that side's turn"),
        "{e}"
    );
    assert!(error("PI\n+7776FU\n").starts_with("line 2: '+7776FU' before the turn line"));
    assert!(error("PI\n+\n+7776FU\n%MATTA\n").starts_with("line 4: '%MATTA' is not a CSA end line"));
    assert!(error("PI\n+\nT3\n").starts_with("line 3: time 'T3' before any move"));
    assert!(error("PI\n+\n+7776FU\nTx\n").starts_with("line 4: 'Tx' is not a time"));
    assert!(error("PI\n+\n%TORYO\n+7776FU\n").starts_with("line 4: '+7776FU' after the end line"));
    assert!(error("garbage\n").starts_with("line 1: 'garbage' is not a CSA line"));
    assert!(error("手合割：平手\n").starts_with("line 1: '手合割：平手' is not a CSA line"));
    assert!(
        error("V2.2\nN+a\nPI\n").starts_with("line 1: no turn line"),
        "{}",
        error("V2.2\nN+a\nPI\n")
    );
    assert_eq!(error(""), "no CSA game in the text");
    assert_eq!(
        error("'only a comment\n/\n'another\n"),
        "no CSA game in the text"
    );
    assert!(
        error("PI28KA\n+\n").starts_with("line 1: bad position line"),
        "{}",
        error("PI28KA\n+\n")
    );
    // The second game's error names its line in the whole file.
    let e = csa::read_records("PI\n+\n+7776FU\n/\nPI\n+\n+7775FU\n").unwrap_err();
    assert_eq!(e.line, 7);
}

/// Mutated records (bytes replaced, cut, doubled; a deterministic seed) are read or refused,
/// never a panic.
#[test]
fn mutated_records_never_panic() {
    let base = csa::write(&random_record(
        &Position::from_sfen(STARTS[3]).unwrap(),
        5,
        60,
        false,
    ));
    let base = base.into_bytes();
    let mut rng = RandomMover::new(27);
    let alphabet = b"+-%'PTVN$0123456789FUKYKEGIKIKAHIOUTONYNKNGUMRY*,/\n :.AL";
    let mut read = 0;
    for _ in 0..3000 {
        let b = record_support::mutated(&base, alphabet, 4, &mut rng);
        if let Ok(text) = form::decode(&b) {
            if csa::read_records(&text).is_ok() {
                read += 1;
            }
        }
    }
    assert!(read > 0, "some mutations are still records");
}
