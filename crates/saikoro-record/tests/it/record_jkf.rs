//! JKF on the record model: the examples of the spec (json-kifu-format's README, Version 1.0,
//! and its test file `same_move_minimal.jkf`) read to the moves worked out by hand, random
//! games written and read back whole, the fields written where the spec wants them, and bad
//! input refused with its line and reason, never a panic.

use crate::record_support;

use record_support::{counts, csa_ending, random_record, STARTS};
use saikoro_core::{Move, Position, RandomMover};
use saikoro_record::tree::MAX_NESTING;
use saikoro_record::{form, jkf, Ending, Format, Record, RecordMove};

fn usi(r: &Record) -> Vec<String> {
    r.moves.iter().map(|m| m.mv.to_string()).collect()
}

fn one(text: &str) -> Record {
    let mut v = jkf::read_records(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(v.len(), 1);
    v.remove(0)
}

/// The README's 「通常」 example: 角 exchanged without promotion (`promote: false`), a capture
/// back with `same`, a drop, and `CHUDAN`.
#[test]
fn spec_example_plain() {
    let text = r#"{
  "header": {"先手": "na2hiro", "後手": "うひょ"},
  "moves": [
    {},
    {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},
    {"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"color":1,"piece":"FU"}},
    {"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"color":0,"piece":"KA","capture":"KA","promote":false}},
    {"move":{"from":{"x":3,"y":1},"to":{"x":2,"y":2},"color":1,"piece":"GI","capture":"KA","same":true}},
    {"move":{"to":{"x":4,"y":5},"color":0,"piece":"KA"}},

    {"special": "CHUDAN"}
  ]
}"#;
    assert_eq!(form::detect(None, text), Some(Format::Jkf));
    let r = one(text);
    assert_eq!(r.header_value("先手"), Some("na2hiro"));
    assert_eq!(r.header_value("後手"), Some("うひょ"));
    assert_eq!(r.start, Position::startpos());
    assert_eq!(usi(&r), ["7g7f", "3c3d", "8h2b", "3a2b", "B*4e"]);
    assert_eq!(r.ending(), Some(Ending::Interrupt));
}

/// The README's 「分岐」 example: comments, a fork (one variation, left out and counted), 角成
/// with `same`, and a knight drop that needs `H` (打: the 2一 knight could also go to 3三).
#[test]
fn spec_example_forks() {
    let text = r#"{
  "header": {},
  "moves": [
    {"comments":["分岐の例"]},
    {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},
    {"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"color":1,"piece":"FU"}, "comments":["次の手で二種類が考えられる：７七桂か２二角成である．","２二角成を選ぶと筋違い角となる．"]},
    {"move":{"from":{"x":8,"y":9},"to":{"x":7,"y":7},"color":0,"piece":"KE"}, "forks":[
      [
        {"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"color":0,"piece":"KA","capture":"KA","promote":false}},
        {"move":{"from":{"x":3,"y":1},"to":{"x":2,"y":2},"color":1,"piece":"GI","capture":"KA","same":true}},
        {"move":{"to":{"x":4,"y":5},"color":0,"piece":"KA"}}
      ]
    ]},
    {"move":{"from":{"x":2,"y":2},"to":{"x":7,"y":7},"color":1,"piece":"KA","capture":"KE","promote":true,"same":true}},
    {"move":{"from":{"x":8,"y":8},"to":{"x":7,"y":7},"color":0,"piece":"KA","capture":"UM","same":true}},
    {"move":{"to":{"x":3,"y":3},"color":1,"piece":"KE","relative":"H"}}
  ]
}"#;
    let r = one(text);
    assert_eq!(r.comments, ["分岐の例"]);
    assert_eq!(usi(&r), ["7g7f", "3c3d", "8i7g", "2b7g+", "8h7g", "N*3c"]);
    assert_eq!(r.moves[1].comments().len(), 2);
    assert_eq!(r.counts().variations, 1);
    assert_eq!(r.ending(), None);
    // Written back, the drop keeps its `H`: by the rules it is needed.
    let out = jkf::write(&r);
    assert!(
        out.contains(r#"{"move":{"to":{"x":3,"y":3},"color":1,"piece":"KE","relative":"H"}}"#),
        "{out}"
    );
}

/// The README's 「駒落ち」 example: preset `6` (六枚落ち), White first.
#[test]
fn spec_example_handicap() {
    let text = r#"{
  "header": {},
  "initial": {"preset": "6"},
  "moves": [
    {},
    {"move":{"from":{"x":5,"y":1},"to":{"x":4,"y":2},"color":1,"piece":"OU"}},
    {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},
    {"move":{"from":{"x":6,"y":1},"to":{"x":7,"y":2},"color":1,"piece":"KI"}}
  ]
}"#;
    let r = one(text);
    assert_eq!(
        r.start.to_sfen(),
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(usi(&r), ["5a4b", "7g7f", "6a7b"]);
    assert!(jkf::write(&r).contains(r#""initial":{"preset":"6"}"#));
}

/// The README's 「初形変則」 example: `OTHER` with the board as `board[x-1][y-1]` (Black's 7七 and
/// 2七 pawns missing, by hand from the columns) and 飛成 capturing on 2三.
#[test]
fn spec_example_other_start() {
    let k = |c: u8, kind: &str| format!(r#"{{"color":{c},"kind":"{kind}"}}"#);
    let col = |top: &str, second: &str, seventh: &str, eighth: &str, bottom: &str| {
        let cell = |s: &str| {
            if s.is_empty() {
                "{}".to_string()
            } else {
                s.to_string()
            }
        };
        format!(
            "[{},{},{},{{}},{{}},{{}},{},{},{}]",
            k(1, top),
            cell(second),
            k(1, "FU"),
            cell(seventh),
            cell(eighth),
            k(0, bottom)
        )
    };
    let fu = k(0, "FU");
    let board = [
        col("KY", "", &fu, "", "KY"),
        col("KE", &k(1, "KA"), "", &k(0, "HI"), "KE"),
        col("GI", "", &fu, "", "GI"),
        col("KI", "", &fu, "", "KI"),
        col("OU", "", &fu, "", "OU"),
        col("KI", "", &fu, "", "KI"),
        col("GI", "", "", "", "GI"),
        col("KE", &k(1, "HI"), &fu, &k(0, "KA"), "KE"),
        col("KY", "", &fu, "", "KY"),
    ]
    .join(",");
    let hand = r#"{"FU":0,"KY":0,"KE":0,"GI":0,"KI":0,"KA":0,"HI":0}"#;
    let text = format!(
        r#"{{"header":{{}},"initial":{{"preset":"OTHER","data":{{"board":[{board}],"color":0,"hands":[{hand},{hand}]}}}},
"moves":[{{"comments":["飛車角先落ち．"]}},
{{"move":{{"from":{{"x":2,"y":8}},"to":{{"x":2,"y":3}},"color":0,"piece":"HI","promote":true,"capture":"FU"}}}}]}}"#
    );
    let r = one(&text);
    assert_eq!(
        r.start.to_sfen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PP1PPPP1P/1B5R1/LNSGKGSNL b - 1"
    );
    assert_eq!(usi(&r), ["2h2c+"]);
    assert_eq!(r.comments, ["飛車角先落ち．"]);
    // Written back as OTHER, read back the same.
    let back = one(&jkf::write(&r));
    assert_eq!(back.start, r.start);
    assert_eq!(back.moves, r.moves);
}

/// The spec's test file `test/files/jkf/same_move_minimal.jkf` (json-kifu-format): `capture`
/// is the piece as it stood (`UM`).
#[test]
fn spec_file_same_move_minimal() {
    let m = |fx, fy, tx, ty, c, p: &str, extra: &str| {
        format!(
            r#"{{"move":{{"from":{{"x":{fx},"y":{fy}}},"to":{{"x":{tx},"y":{ty}}},"color":{c},"piece":"{p}"{extra}}}}}"#
        )
    };
    let text = format!(
        "{{\"header\":{{}},\"moves\":[{{}},{},{},{},{},{}]}}",
        m(7, 7, 7, 6, 0, "FU", ""),
        m(3, 3, 3, 4, 1, "FU", ""),
        m(8, 8, 2, 2, 0, "KA", r#","promote":true,"capture":"KA""#),
        m(3, 1, 2, 2, 1, "GI", r#","same":true,"capture":"UM""#),
        m(2, 7, 2, 6, 0, "FU", ""),
    );
    assert_eq!(usi(&one(&text)), ["7g7f", "3c3d", "8h2b+", "3a2b", "2g2f"]);
}

#[test]
fn random_games_round_trip() {
    let mut all = Vec::new();
    for (i, sfen) in STARTS.iter().enumerate() {
        let start = Position::from_sfen(sfen).unwrap();
        for seed in 0..300u64 {
            let record = random_record(&start, seed * 5 + i as u64, 120, true);
            let text = jkf::write(&record);
            let back = one(&text);
            assert_eq!(back.start, record.start, "{text}");
            assert_eq!(back.moves, record.moves, "{text}");
            assert_eq!(back.ending(), csa_ending(record.ending()), "{text}");
            assert_eq!(back.header, record.header, "{text}");
            assert_eq!(back.comments, record.comments, "{text}");
            all.push(record);
        }
    }
    let (drops, promotions, unpromoted) = counts(&all);
    assert!(drops > 1000 && promotions > 1000 && unpromoted > 100);
}

/// What is written, by hand: ▲５八金右 (4九 and 6九 can both go to 5八: `R`), ▲２二角不成
/// (`promote: false`, `capture`), △同銀 (`same`), times (`now`, and `total` per side).
#[test]
fn fields_written_where_the_spec_wants_them() {
    let mut r = Record::new(Position::startpos());
    for (m, t) in [
        ("4i5h", 3_000),
        ("3c3d", 1_000),
        ("7g7f", 65_000),
        ("8c8d", 0),
    ] {
        let mut rm = RecordMove::new(Move::from_usi(m).unwrap());
        rm.time_ms = Some(t);
        r.moves.push(rm);
    }
    for m in ["8h2b", "3a2b"] {
        r.moves.push(RecordMove::new(Move::from_usi(m).unwrap()));
    }
    r.set_end(Ending::Resign, Vec::new());
    let out = jkf::write(&r);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], r#"{"header":{},"#);
    assert_eq!(
        lines[3],
        r#"{"move":{"from":{"x":4,"y":9},"to":{"x":5,"y":8},"color":0,"piece":"KI","relative":"R"},"time":{"now":{"m":0,"s":3},"total":{"h":0,"m":0,"s":3}}},"#
    );
    assert!(lines[5].contains(r#""time":{"now":{"m":1,"s":5},"total":{"h":0,"m":1,"s":8}}"#));
    assert_eq!(
        lines[7],
        r#"{"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"color":0,"piece":"KA","promote":false,"capture":"KA"}},"#
    );
    assert_eq!(
        lines[8],
        r#"{"move":{"from":{"x":3,"y":1},"to":{"x":2,"y":2},"color":1,"piece":"GI","same":true,"capture":"KA"}},"#
    );
    assert_eq!(lines[9], r#"{"special":"TORYO"}"#);
    let kyo = Record::new(Position::from_sfen(STARTS[1]).unwrap());
    assert!(jkf::write(&kyo).contains(r#""initial":{"preset":"KY"}"#));
}

fn error(text: &str) -> String {
    jkf::read_records(text).unwrap_err().to_string()
}

/// Each field that disagrees with the move, and each move the rules forbid, is refused with
/// the line of its `moves` item.
#[test]
fn bad_records_name_their_line_and_field() {
    let game = |last: &str| {
        format!(
            "{{\"header\":{{}},\n\"moves\":[\n{{}},\n\
             {{\"move\":{{\"from\":{{\"x\":7,\"y\":7}},\"to\":{{\"x\":7,\"y\":6}},\"color\":0,\"piece\":\"FU\"}}}},\n\
             {{\"move\":{{\"from\":{{\"x\":3,\"y\":3}},\"to\":{{\"x\":3,\"y\":4}},\"color\":1,\"piece\":\"FU\"}}}},\n\
             {last}\n]}}"
        )
    };
    let mv = |body: &str| format!("{{\"move\":{{{body}}}}}");
    for (body, want) in [
        (
            r#""from":{"x":8,"y":8},"to":{"x":2,"y":2},"color":0,"piece":"HI""#,
            "moves[3].move.piece is HI but 88 holds KA",
        ),
        (
            r#""from":{"x":8,"y":8},"to":{"x":2,"y":2},"color":0,"piece":"KA","capture":"HI""#,
            "moves[3].move.capture is HI but 22 holds KA",
        ),
        (
            r#""from":{"x":2,"y":7},"to":{"x":2,"y":6},"color":0,"piece":"FU","same":true"#,
            "moves[3].move.same is true but the last move did not go to 26",
        ),
        (
            r#""from":{"x":2,"y":7},"to":{"x":2,"y":6},"color":1,"piece":"FU""#,
            "moves[3].move.color: not that side's turn",
        ),
        (
            r#""from":{"x":7,"y":6},"to":{"x":7,"y":4},"color":0,"piece":"FU""#,
            "moves[3].move (7f7d) is illegal",
        ),
        (
            r#""to":{"x":5,"y":5},"color":0,"piece":"KA""#,
            "moves[3].move (B*5e) is illegal",
        ),
        (
            r#""from":{"x":2,"y":7},"to":{"x":2,"y":6},"color":0,"piece":"FU","relative":"Q""#,
            "moves[3].move.relative 'Q'",
        ),
        (
            r#""from":{"x":2,"y":7},"to":{"x":2,"y":10},"color":0,"piece":"FU""#,
            "moves[3].move.to.y is not a number from 1 to 9",
        ),
    ] {
        let e = jkf::read_records(&game(&mv(body))).unwrap_err();
        assert_eq!(e.line, 6, "{e}");
        assert!(e.reason.starts_with(want), "{e}\nwant {want}");
    }
    let e = error(&game(r#"{"special":"MATTA"}"#));
    assert!(
        e.starts_with("line 6: moves[3].special 'MATTA' is not a JKF special"),
        "{e}"
    );
    assert!(error("{\"moves\":[{},\n{\"special\":\"TORYO\"},\n{}]}")
        .starts_with("line 3: moves[2] comes after the special"));
    // serde_json counts columns from 1 (the old reader said "byte 24", from 0): the end here.
    assert!(error("{\"header\":{},\"moves\":[{}").starts_with("line 1: bad JSON at column 24"));
    assert!(error("[1]").contains("a JKF text is a JSON object"));
    assert!(error(r#"{"moves":[],"initial":{"preset":"9"}}"#)
        .contains("initial.preset '9' is not a JKF preset"));
    assert!(error(r#"{"header":{}}"#).contains("moves is missing"));
    assert!(error("garbage").starts_with("line 1: bad JSON"));
}

/// A value of the wrong JSON type is refused with its line and its path; so is an array where
/// an object is due, and a member given twice. Members the spec does not name are ignored.
#[test]
fn wrong_types_name_their_line_and_path() {
    let game = |second: &str| {
        format!(
            "{{\"header\":{{}},\n\"moves\":[\n{{}},\n\
             {{\"move\":{{\"from\":{{\"x\":7,\"y\":7}},\"to\":{{\"x\":7,\"y\":6}},\"color\":0,\"piece\":\"FU\"}}}},\n\
             {second}\n]}}"
        )
    };
    for (second, want) in [
        (
            r#"{"move":{"from":{"x":3,"y":3},"to":{"x":"3","y":4},"piece":"FU"}}"#,
            "line 5: moves[2].move.to.x: invalid type: string \"3\", expected u64",
        ),
        (
            r#"{"move":{"from":[3,3],"to":{"x":3,"y":4},"piece":"FU"}}"#,
            "line 5: moves[2].move.from: invalid type: sequence, expected a JSON object",
        ),
        (
            r#"{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU","piece":"KY"}}"#,
            "line 5: moves[2].move: duplicate field `piece`",
        ),
        (
            r#"{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"},"time":{"now":{"s":-1}}}"#,
            "line 5: moves[2].time.now.s: invalid value: integer `-1`, expected u64",
        ),
        (
            "{\"comments\":[\"a\",\n2]}",
            "line 6: moves[2].comments[1]: invalid type: integer `2`, expected a string",
        ),
        (
            "7",
            "line 5: moves[2]: invalid type: integer `7`, expected a JSON object",
        ),
    ] {
        assert_eq!(error(&game(second)), want);
    }
    assert_eq!(
        error("{\"header\":{\"先手\":1},\"moves\":[{}]}"),
        "line 1: header.先手: invalid type: integer `1`, expected a string"
    );
    let r = one(&game(
        r#"{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU","note":[1]},"extra":{}}"#,
    ));
    assert_eq!(usi(&r), ["7g7f", "3c3d"]);
}

/// Arrays nested far deeper than any record (the hand reader of before serde overflowed its
/// stack here) are refused with a line; variations within variations are read to the limit of
/// `MAX_NESTING` (32) and refused past it, with their line, far past it too (each fork is read
/// on its own, so serde_json's depth of 128 is never reached).
#[test]
fn deep_nesting_is_refused_not_a_crash() {
    let n = 100_000;
    let deep = format!("{{\"moves\":[{{}},\n{}{}]}}", "[".repeat(n), "]".repeat(n));
    assert_eq!(
        error(&deep),
        "line 2: moves[1]: invalid type: sequence, expected a JSON object"
    );
    // Variations each inside the last, `levels` deep, from 平手, by hand: the variation at
    // move p is the king's step aside (▲5九→4八→5九…, △5一→4二→5一…), and the moves of the
    // lines are the king's step ahead (▲5九→5八 or 4八→3八, △5一→5二 or 4二→3二): at move p
    // the king has stepped aside (p-1)/2 times before, so it is home when that is even. Every
    // step is to an empty square beside the king.
    let step = |ply: usize, aside: bool| {
        let black = ply % 2 == 1;
        let home = ((ply - 1) / 2).is_multiple_of(2);
        let (hx, hy, ay, color) = if black { (5, 9, 8, 0) } else { (5, 1, 2, 1) };
        let from = if home { (hx, hy) } else { (4, ay) };
        let to = match (aside, home) {
            (true, true) => (4, ay),
            (true, false) => (hx, hy),
            (false, true) => (hx, ay),
            (false, false) => (3, ay),
        };
        format!(
            "{{\"move\":{{\"from\":{{\"x\":{},\"y\":{}}},\"to\":{{\"x\":{},\"y\":{}}},\
             \"color\":{color},\"piece\":\"OU\"}}",
            from.0, from.1, to.0, to.1
        )
    };
    let forks = |levels: usize| {
        let mut item = format!("{}}}", step(levels + 1, false));
        for ply in (1..=levels).rev() {
            let aside = format!("{}}}", step(ply, true));
            item = format!("{},\"forks\":[[{aside},{item}]]}}", step(ply, false));
        }
        format!("{{\"moves\":[{{}},{item}]}}")
    };
    let r = one(&forks(MAX_NESTING));
    assert_eq!(r.counts().variations, MAX_NESTING);
    assert_eq!(r.counts().depth, MAX_NESTING);
    assert!(
        error(&forks(MAX_NESTING + 1)).contains("nested more than 32 deep"),
        "{}",
        error(&forks(MAX_NESTING + 1))
    );
    assert!(
        error(&forks(200)).contains("nested more than 32 deep"),
        "{}",
        error(&forks(200))
    );
}

/// The header keeps its order, a key given twice too, and is written back as it was read.
#[test]
fn header_order_and_repeats_are_kept() {
    let text = "{\"header\":{\"後手\":\"b\",\"先手\":\"a\",\"備考\":\"1\",\"備考\":\"2\\n\\u0001\"},\n\"moves\":[\n{}\n]}\n";
    let r = one(text);
    let keys: Vec<(&str, &str)> = r
        .header
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        keys,
        [
            ("後手", "b"),
            ("先手", "a"),
            ("備考", "1"),
            ("備考", "2\n\u{1}")
        ]
    );
    assert_eq!(jkf::write(&r), text);
}

/// Mutated JKF texts (a deterministic seed) are read or refused, never a panic.
#[test]
fn mutated_records_never_panic() {
    let start = Position::from_sfen(STARTS[4]).unwrap();
    let base = jkf::write(&random_record(&start, 9, 60, true)).into_bytes();
    let mut rng = RandomMover::new(27);
    let alphabet = b"{}[]\":,0123456789xytofrom\\ OTHER";
    let mut read = 0;
    for _ in 0..3000 {
        let b = record_support::mutated(&base, alphabet, 3, &mut rng);
        if let Ok(text) = form::decode(&b) {
            if jkf::read_records(&text).is_ok() {
                read += 1;
            }
        }
    }
    assert!(read > 0, "some mutations are still records");
}
