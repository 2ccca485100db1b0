//! The one-line forms (USI `position` lines and SFEN) read back what they write, and the
//! dispatcher tells the forms apart by name and by content and decodes both encodings.

use crate::record_support;

use record_support::{random_record, STARTS};
use saikoro_core::Position;
use saikoro_record::{form, usi, Format};
use std::path::Path;

#[test]
fn usi_lines_round_trip() {
    let mut records = Vec::new();
    for (i, sfen) in STARTS.iter().enumerate() {
        let start = Position::from_sfen(sfen).unwrap();
        for seed in 0..300u64 {
            records.push(random_record(&start, seed * 11 + i as u64, 120, true));
        }
    }
    let text: String = records.iter().map(usi::write).collect();
    let back = usi::read_records(&text).unwrap();
    assert_eq!(back.len(), records.len());
    for (a, b) in records.iter().zip(&back) {
        assert_eq!(a.start, b.start);
        let moves = |r: &saikoro_record::Record| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
        assert_eq!(moves(a), moves(b));
    }
    // SFEN: the last position, read back as a game of no moves from there.
    let r = &records[7];
    let back = &usi::read_records(&usi::write_sfen(r)).unwrap()[0];
    assert_eq!(back.start, r.position_at(r.moves.len()));
    assert!(back.moves.is_empty());
}

/// Every line form the match's openings accept, and errors with their line.
#[test]
fn usi_line_forms_and_errors() {
    let text = "# a comment\n\nstartpos\nposition startpos moves 7g7f\nstartpos moves 2g2f 8c8d\n\
                sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d\n\
                4k4/9/9/9/9/9/9/9/4K4 b G 1\n";
    let r = usi::read_records(text).unwrap();
    let n: Vec<usize> = r.iter().map(|r| r.moves.len()).collect();
    assert_eq!(n, [0, 1, 2, 1, 0]);
    assert_eq!(usi::write(&r[3]), "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d\n");
    let e = usi::read_records("startpos\nstartpos moves 7g7f 7g7f\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2: move 2 '7g7f' is illegal: no piece on the origin square"
    );
    let e = usi::read_records("startpos moves 7g7x\n").unwrap_err();
    assert_eq!(e.to_string(), "line 1: move 1 '7g7x' is not a USI move");
    assert!(usi::read_records("garbage\n")
        .unwrap_err()
        .to_string()
        .starts_with("line 1: bad SFEN"));
    assert_eq!(
        usi::read_records("\n# x\n").unwrap_err().to_string(),
        "no position line in the text"
    );
}

#[test]
fn forms_are_told_by_name_then_content() {
    fn p(s: &str) -> Option<&Path> {
        Some(Path::new(s))
    }
    assert_eq!(form::detect(p("a.KIFU"), "{"), Some(Format::Kif));
    assert_eq!(form::detect(p("a.ki2u"), ""), Some(Format::Ki2));
    assert_eq!(form::detect(p("a.json"), ""), Some(Format::Jkf));
    for (text, want) in [
        (
            "# ----  棋譜ファイル  ----\n手合割：平手\n手数----指手---------消費時間--\n",
            Format::Kif,
        ),
        (
            "手合割：平手\n先手：a\n   1 ７六歩(77)   ( 0:01/00:00:01)\n",
            Format::Kif,
        ),
        ("手合割：平手\n先手：a\n\n▲７六歩　△３四歩\n", Format::Ki2),
        ("'CSA encoding=UTF-8\nV3.0\n", Format::Csa),
        ("'a comment\nPI\n+\n", Format::Csa),
        ("+7776FU\n", Format::Csa),
        ("  {\"header\":{}}", Format::Jkf),
        ("position startpos moves 7g7f\n", Format::Usi),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n",
            Format::Sfen,
        ),
    ] {
        assert_eq!(form::detect(p("a.txt"), text), Some(want), "{text}");
    }
    assert_eq!(form::detect(None, "garbage\n"), None);
}

#[test]
fn both_encodings_and_bad_bytes() {
    // 「７六歩」 in Shift_JIS: 0x82 0x56, 0x98 0x5A, 0x95 0xE0.
    assert_eq!(
        form::decode(&[0x82, 0x56, 0x98, 0x5a, 0x95, 0xe0]).unwrap(),
        "７六歩"
    );
    assert_eq!(form::decode("７六歩".as_bytes()).unwrap(), "７六歩");
    assert_eq!(form::decode(b"\xef\xbb\xbfab").unwrap(), "ab");
    // 0x82 0xFF is neither UTF-8 nor a Shift_JIS character, on line 2.
    let e = form::decode(b"ok\n\x82\xff\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2: the text is neither UTF-8 nor Shift_JIS"
    );
}

/// The endings KIF and KI2 have a word for (the others are written as the nearest word).
fn japanese_word(end: Option<saikoro_record::Ending>) -> bool {
    use saikoro_record::Ending::*;
    !matches!(end, Some(MaxMoves | Draw | Error))
}

/// KIF and KI2 through the dispatcher: random games written and read back whole. Needs the KIF
/// and KI2 modules on the record model (`kif::read_records`, `ki2::read_records`).
#[test]
fn kif_and_ki2_round_trip_through_the_dispatcher() {
    for format in [Format::Kif, Format::Ki2] {
        for (i, sfen) in STARTS.iter().enumerate() {
            let start = Position::from_sfen(sfen).unwrap();
            for seed in 0..100u64 {
                let record = random_record(&start, seed * 13 + i as u64, 120, true);
                let text = form::write(&record, format);
                let back = form::read(&text, format).unwrap_or_else(|e| panic!("{e}\n{text}"));
                let back = &back[0];
                assert_eq!(back.start, record.start, "{format}\n{text}");
                let moves =
                    |r: &saikoro_record::Record| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
                assert_eq!(moves(back), moves(&record), "{format}\n{text}");
                if format == Format::Kif {
                    // KIF has a time on every move line once any move has one: an unknown
                    // time is written, and read back, as 0:00.
                    let timed = record.moves.iter().any(|m| m.time_ms.is_some());
                    let times = |r: &saikoro_record::Record| {
                        r.moves
                            .iter()
                            .map(|m| m.time_ms.or(timed.then_some(0)))
                            .collect::<Vec<_>>()
                    };
                    assert_eq!(times(back), times(&record), "times\n{text}");
                    let comments = |r: &saikoro_record::Record| {
                        r.moves
                            .iter()
                            .map(|m| m.comments().to_vec())
                            .collect::<Vec<_>>()
                    };
                    assert_eq!(comments(back), comments(&record), "comments\n{text}");
                }
                if japanese_word(record.ending()) {
                    assert_eq!(back.ending(), record.ending(), "{format}\n{text}");
                }
                for (k, v) in &record.header {
                    assert_eq!(
                        back.header_value(k),
                        Some(v.as_str()),
                        "{format} {k}\n{text}"
                    );
                }
            }
        }
    }
}

/// The seed's game in KIF and CSA: the same 31 moves and names through the dispatcher; and KI2
/// too once it is read.
#[test]
fn the_seed_in_kif_and_csa_through_the_dispatcher() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/records");
    let read = |name: &str| {
        let path = dir.join(name);
        let text = form::decode(&std::fs::read(&path).unwrap()).unwrap();
        let format = form::detect(Some(&path), &text).unwrap();
        form::read(&text, format).unwrap().remove(0)
    };
    let (kif, csa) = (read("seed.kif"), read("seed.csa"));
    assert_eq!(kif.moves.len(), 31);
    let moves = |r: &saikoro_record::Record| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(moves(&kif), moves(&csa));
    assert_eq!(kif.ending(), csa.ending());
    assert_eq!(
        kif.name(saikoro_core::Color::Black),
        csa.name(saikoro_core::Color::Black)
    );
}

#[test]
fn the_seed_in_ki2_through_the_dispatcher() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/records/seed.ki2");
    let text = form::decode(&std::fs::read(&path).unwrap()).unwrap();
    let ki2 = form::read(&text, Format::Ki2).unwrap().remove(0);
    let csa_path = path.with_extension("csa");
    let csa_text = form::decode(&std::fs::read(csa_path).unwrap()).unwrap();
    let csa = form::read(&csa_text, Format::Csa).unwrap().remove(0);
    let moves = |r: &saikoro_record::Record| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(moves(&ki2), moves(&csa));
}

/// Any bytes, read as every form after the dispatcher's decoding and sniffing: read or
/// refused, never a panic (mutations of a record of each form, a deterministic seed).
#[test]
fn every_reader_survives_mutated_input() {
    let start = Position::from_sfen(STARTS[3]).unwrap();
    let record = random_record(&start, 3, 40, true);
    let mut rng = saikoro_core::RandomMover::new(2027);
    for format in Format::ALL {
        let base = form::write(&record, format).into_bytes();
        for _ in 0..400 {
            let mut b = base.clone();
            for _ in 0..=rng.below(3) {
                let at = rng.below(b.len() as u64) as usize;
                match rng.below(3) {
                    0 => b[at] = rng.below(256) as u8,
                    1 => {
                        b.remove(at);
                    }
                    _ => b.truncate(at.max(1)),
                }
            }
            let Ok(text) = form::decode(&b) else {
                continue;
            };
            let _ = form::detect(None, &text);
            for f in Format::ALL {
                let _ = form::read(&text, f);
            }
        }
    }
}

/// One start-position rule for every form (`record::START_KINGS`): each kind of start —
/// handicaps, a bare board, a tsume problem with no Black king (and one with no White king),
/// hands only, a start played into (move 23, pieces in hand) — written in every form and read
/// back is the same position, with a few random moves after it. The positions are set by
/// hand: the handicaps as Kifu for Windows lays them, the rest counted piece by piece.
#[test]
fn every_kind_of_start_through_every_form() {
    let starts = [
        // 香落ち and 二枚落ち: White (上手) moves first.
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        // Two kings alone.
        "4k4/9/9/9/9/9/9/9/4K4 b - 1",
        // Tsume: no Black king; a pawn on 5c, a gold in Black's hand. And the other way.
        "4k4/9/4P4/9/9/9/9/9/9 b G 1",
        "9/9/9/9/9/9/4p4/9/4K4 w g 1",
        // Kings and the rest in hand only.
        "4k4/9/9/9/9/9/9/9/4K4 b R2Pbg 1",
        // Played into: move 23, a bishop in each hand.
        "ln1g1g1nl/1r1sk2s1/p1pppp1pp/6p2/1p7/2P6/PP1PPPPPP/1SGK3R1/LN3GSNL b Bb 23",
    ];
    let forms = [
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Jkf,
        Format::Usi,
        Format::Sfen,
    ];
    // Board, hands and side: the move number is the record's own count in most forms.
    let placed = |p: &Position| {
        let sfen = p.to_sfen();
        sfen.rsplit_once(' ').unwrap().0.to_string()
    };
    for sfen in starts {
        let start = Position::from_sfen_lenient(sfen).unwrap();
        for format in forms {
            let plies = if format == Format::Sfen { 0 } else { 6 };
            for seed in 0..4u64 {
                let record = random_record(&start, seed, plies, true);
                let text = form::write(&record, format);
                let back = form::read(&text, format)
                    .unwrap_or_else(|e| panic!("{format} of {sfen}: {e}\n{text}"));
                assert_eq!(back.len(), 1, "{format} of {sfen}\n{text}");
                assert_eq!(
                    placed(&back[0].start),
                    placed(&start),
                    "{format} of {sfen}\n{text}"
                );
                let moves =
                    |r: &saikoro_record::Record| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
                if format != Format::Sfen {
                    assert_eq!(
                        moves(&back[0]),
                        moves(&record),
                        "{format} of {sfen}\n{text}"
                    );
                }
            }
        }
    }
}

/// A Shift_JIS record whose bad byte is on a later line is refused at that line, not at the
/// first Japanese character (the first byte that is not UTF-8).
#[test]
fn bad_bytes_are_named_by_their_line() {
    // Line 1 「７六歩」 in Shift_JIS, line 2 plain, line 3 0x82 0xFF: no Shift_JIS character.
    let mut bytes = vec![0x82, 0x56, 0x98, 0x5a, 0x95, 0xe0, b'\n'];
    bytes.extend_from_slice(b"ok\n\x82\xff\n");
    let e = form::decode(&bytes).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 3: the text is neither UTF-8 nor Shift_JIS"
    );
    // A lone lead byte at the very end.
    let mut bytes = vec![0x82, 0x56, b'\n', b'\n'];
    bytes.push(0x82);
    assert_eq!(form::decode(&bytes).unwrap_err().line, 3);
}
