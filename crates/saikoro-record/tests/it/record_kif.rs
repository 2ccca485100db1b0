//! KIF records through the one record model (`saikoro_record::kif`): handicaps and board
//! diagrams both ways, comments, times, variations and end words, and bad input refused with
//! its line and reason. The expected texts and positions are written by hand from the KIF
//! convention (Kifu for Windows' format as tsshogi reads and writes it), not from this code.

use saikoro_core::{Color, Move, Position, SplitMix64, Square};
use saikoro_record::{ki2, kif, Ending, Record, RecordMove};

fn one(text: &str) -> Record {
    let mut r = kif::read_records(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(r.len(), 1);
    r.remove(0)
}

fn err(text: &str) -> saikoro_record::RecordError {
    kif::read_records(text).expect_err(text)
}

fn usi(r: &Record) -> Vec<String> {
    r.moves.iter().map(|m| m.mv.to_string()).collect()
}

/// The start position without the pieces on `gone` (USI squares), White (上手) to move.
fn handicap(gone: &[&str]) -> Position {
    let mut setup = Position::startpos().to_setup();
    for sq in gone {
        setup.board[Square::from_usi(sq).unwrap().index()] = None;
    }
    setup.side = Color::White;
    Position::from_setup(&setup, saikoro_core::KingRule::Required).unwrap()
}

/// Each 手合割 of Kifu for Windows' list and the pieces 上手 (White) takes off: the lances at 1一
/// (its left) and 9一, the bishop 2二, the rook 8二, the knights 2一 and 8一, the silvers 3一 and
/// 7一, the golds 4一 and 6一. Read, the name is its position with White to move; written, the
/// position is its name and no diagram.
#[test]
fn every_handicap_name_both_ways() {
    let four = ["8b", "2b", "1a", "9a"];
    let six = ["8b", "2b", "1a", "9a", "2a", "8a"];
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("香落ち", vec!["1a"]),
        ("右香落ち", vec!["9a"]),
        ("角落ち", vec!["2b"]),
        ("飛車落ち", vec!["8b"]),
        ("飛香落ち", vec!["8b", "1a"]),
        ("二枚落ち", vec!["8b", "2b"]),
        ("三枚落ち", vec!["8b", "2b", "1a"]),
        ("四枚落ち", four.to_vec()),
        ("五枚落ち", [&four[..], &["8a"]].concat()),
        ("左五枚落ち", [&four[..], &["2a"]].concat()),
        ("六枚落ち", six.to_vec()),
        ("左七枚落ち", [&six[..], &["3a"]].concat()),
        ("右七枚落ち", [&six[..], &["7a"]].concat()),
        ("八枚落ち", [&six[..], &["3a", "7a"]].concat()),
        ("十枚落ち", [&six[..], &["3a", "7a", "4a", "6a"]].concat()),
    ];
    for (name, gone) in cases {
        let r = one(&format!("手合割：{name}\n"));
        assert_eq!(r.start, handicap(&gone), "{name}");
        assert!(r.moves.is_empty());
        let text = kif::write(&Record::new(r.start.clone()));
        assert!(text.contains(&format!("\n手合割：{name}\n")), "{text}");
        assert!(!text.contains("後手の持駒"), "{text}");
        // KI2 shares the header code.
        let back = ki2::read_records(&ki2::write(&Record::new(r.start.clone()))).unwrap();
        assert_eq!(back[0].start, r.start, "{name}");
    }
    let r = one("手合割：平手\n");
    assert_eq!(r.start, Position::startpos());
    assert!(kif::write(&r).contains("\n手合割：平手\n"));
    // The first move of a handicap is White's (上手).
    let r = one("手合割：香落ち\n   1 ５二玉(51)\n");
    assert_eq!(usi(&r), ["5a5b"]);
    // その他 names no position: it needs a diagram.
    let e = err("手合割：その他\n   1 ７六歩(77)\n");
    assert_eq!(
        (e.line, e.reason.as_str()),
        (2, "手合割 'その他' needs a board diagram")
    );
}

/// A board diagram (BOD) as Kifu for Windows and tsshogi write one: Black's king on 5九, a knight
/// on 4五, White's king on 5一, Black holding two golds and eighteen pawns; then the knight goes
/// to 3三 without promoting.
const DIAGRAM: &str = "後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・v玉 ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ 桂 ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九
+---------------------------+
先手の持駒：金二　歩十八　
先手番
";

#[test]
fn a_board_diagram_both_ways() {
    let text = format!("{DIAGRAM}手数----指手---------消費時間--\n   1 ３三桂(45)\n");
    let r = one(&text);
    assert_eq!(r.start.to_sfen(), "4k4/9/9/9/5N3/9/9/9/4K4 b 2G18P 1");
    assert_eq!(usi(&r), ["4e3c"]);
    let written = kif::write(&Record::new(r.start.clone()));
    assert_eq!(
        written,
        format!("#KIF version=2.0 encoding=UTF-8\n{DIAGRAM}手数----指手---------消費時間--\n")
    );
    // 上手/下手 hands and no side line: a handicap, White to move; a 手番 line decides.
    let handicapped = DIAGRAM
        .replace("後手の持駒", "上手の持駒")
        .replace("先手の持駒", "下手の持駒")
        .replace("先手番\n", "");
    assert_eq!(one(&handicapped).start.side_to_move(), Color::White);
    let plain = DIAGRAM.replace("先手番\n", "");
    assert_eq!(one(&plain).start.side_to_move(), Color::Black);
    // Promoted pieces by their one-character names, and the older 仝 (成香) and 今 (成桂).
    let promoted = DIAGRAM
        .replace(
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七",
            "| ・ 全 圭 杏 と 馬 龍v竜 ・|七",
        )
        .replace(
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八",
            "| ・ 仝 今 ・ ・ ・ ・ ・ ・|八",
        )
        .replace("金二\u{3000}歩十八\u{3000}", "なし");
    assert_eq!(
        one(&promoted).start.to_sfen(),
        "4k4/9/9/9/5N3/9/1+S+N+L+P+B+R+r1/1+L+N6/4K4 b - 1"
    );
    // A diagram cut short is refused, naming the rows that are missing.
    let cut: String = DIAGRAM.lines().take(8).map(|l| format!("{l}\n")).collect();
    let e = err(&cut);
    assert_eq!(
        e.reason, "the board diagram has no row 六, 七, 八, 九",
        "{e}"
    );
}

/// Header lines with either colon, comments before the first move and after moves, the start's
/// `&` bookmark and a `#` line kept (the file's comment, written back after the version line),
/// times, `同歩` without the space, `不成` and `生`, and the end with its time, comments and
/// `まで` line.
#[test]
fn header_comments_times_and_the_end() {
    let text = "\u{feff}# ---- written by hand ----
開始日時：2026/12/01 10:00:00
棋戦:テスト
手合割：平手
先手：A
後手：B
手数----指手---------消費時間--
*before the first move
&bookmark
   1 ７六歩(77)   ( 0:01/00:00:01)
*after ▲７六歩
*second line
   2 ３四歩(33)   ( 1:02/00:01:02)
   3 ２二角成(88) ( 0:03/00:00:04)
   4 同銀(31)     ( 0:00/00:01:02)
   5 ４五角打     ( 0:10/00:00:14)
   6 投了         ( 0:00/00:01:02)
*White resigns
まで5手で先手の勝ち
";
    let r = one(text);
    assert_eq!(
        r.header,
        [
            ("開始日時".to_string(), "2026/12/01 10:00:00".to_string()),
            ("棋戦".to_string(), "テスト".to_string()),
            ("先手".to_string(), "A".to_string()),
            ("後手".to_string(), "B".to_string()),
        ]
    );
    assert_eq!(r.comments, ["before the first move"]);
    assert_eq!(r.bookmark.as_deref(), Some("bookmark"));
    assert_eq!(r.file_comments, [" ---- written by hand ----"]);
    assert_eq!(usi(&r), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    let times: Vec<Option<u64>> = r.moves.iter().map(|m| m.time_ms).collect();
    assert_eq!(
        times,
        [Some(1000), Some(62_000), Some(3000), Some(0), Some(10_000)]
    );
    assert_eq!(r.moves[0].comments(), ["after ▲７六歩", "second line"]);
    assert_eq!(r.ending(), Some(Ending::Resign));
    assert_eq!(r.end.as_ref().unwrap().comments(), ["White resigns"]);
    // Written back: the layout of the match's records (the totals added up again).
    let written = kif::write(&r);
    assert_eq!(
        written,
        "#KIF version=2.0 encoding=UTF-8
# ---- written by hand ----
開始日時：2026/12/01 10:00:00
棋戦：テスト
手合割：平手
先手：A
後手：B
手数----指手---------消費時間--
*before the first move
&bookmark
   1 ７六歩(77)   ( 0:01/00:00:01)
*after ▲７六歩
*second line
   2 ３四歩(33)   ( 1:02/00:01:02)
   3 ２二角成(88) ( 0:03/00:00:04)
   4 同\u{3000}銀(31)   ( 0:00/00:01:02)
   5 ４五角打     ( 0:10/00:00:14)
   6 投了         ( 0:00/00:01:02)
*White resigns
まで5手で先手の勝ち
"
    );
    assert_eq!(one(&written), r);
    // 不成 and 生 are a move that does not promote.
    let text = format!("{DIAGRAM}   1 ３三桂不成(45)\n");
    assert_eq!(usi(&one(&text)), ["4e3c"]);
    let text = format!("{DIAGRAM}   1 ３三桂生(45)\n");
    assert_eq!(usi(&one(&text)), ["4e3c"]);
    // Without times, none are written.
    let mut untimed = r.clone();
    for m in &mut untimed.moves {
        m.time_ms = None;
    }
    untimed.end.as_mut().unwrap().time_ms = None;
    let written = kif::write(&untimed);
    assert!(written.contains("\n   1 ７六歩(77)\n"), "{written}");
    assert!(written.contains("\n   6 投了\n"), "{written}");
}

/// 変化 blocks make the tree: `変化：3手` is played instead of ▲２六歩; `変化：4手`, read after
/// it, branches from the line read last that reaches move 3 (that variation, not the main
/// line), so △３二金 is played instead of its △８四歩: a variation of a variation. By hand.
#[test]
fn variations_branch_from_the_line_read_last() {
    let text = "手合割：平手
   1 ７六歩(77)
   2 ３四歩(33)
   3 ２六歩(27)+
   4 投了

変化：3手
   3 ６六歩(67)
   4 ８四歩(83)+

変化：4手
   4 ３二金(41)
";
    let r = one(text);
    assert_eq!(usi(&r), ["7g7f", "3c3d", "2g2f"]);
    assert_eq!(r.ending(), Some(Ending::Resign));
    let alt = &r.moves[2].alternatives();
    assert_eq!(alt.len(), 1);
    let line: Vec<String> = alt[0].moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(line, ["6g6f", "8c8d"]);
    let nested = &alt[0].moves[1].alternatives();
    assert_eq!(nested.len(), 1);
    assert_eq!(nested[0].moves[0].mv.to_string(), "4a3b");
    assert_eq!(r.counts().variations, 2);
    assert_eq!(r.counts().depth, 2);
}

/// Each end word with the side to move after the last move: 反則勝ち is the win of the side to
/// move (the other side's last move was the foul), 反則負け its loss (tsshogi: `${next}の反則勝ち`),
/// and every end written reads back the same.
#[test]
fn end_words_and_who_they_name() {
    let cases = [
        ("投了", Ending::Resign),
        ("中断", Ending::Interrupt),
        ("千日手", Ending::Repetition),
        ("詰み", Ending::Mate),
        ("持将棋", Ending::Jishogi),
        ("切れ負け", Ending::TimeUp),
        ("反則勝ち", Ending::Foul(Color::Black)),
        ("反則負け", Ending::Foul(Color::White)),
        ("入玉勝ち", Ending::Declaration),
        ("不戦勝", Ending::DefaultWin),
        ("不戦敗", Ending::DefaultLoss),
        ("封じ手", Ending::Sealed),
        ("不詰", Ending::NoMate),
        ("宣言勝ち", Ending::Declaration),
    ];
    for (word, end) in cases {
        // After ▲７六歩 White is to move.
        let r = one(&format!("   1 ７六歩(77)\n   2 {word}\n"));
        assert_eq!(r.ending(), Some(end), "{word}");
        let back = one(&kif::write(&r));
        assert_eq!(back.ending(), Some(end), "{word}");
        let back = ki2::read_records(&ki2::write(&r)).unwrap();
        assert_eq!(back[0].ending(), Some(end), "{word} in KI2");
    }
    // The まで lines as Kifu for Windows writes them.
    let r = one("   1 ７六歩(77)\n   2 反則勝ち\n");
    assert!(kif::write(&r).ends_with("   2 反則勝ち\nまで1手で後手の反則勝ち\n"));
    let r = one("   1 ７六歩(77)\n   2 切れ負け\n");
    assert!(kif::write(&r).ends_with("まで1手で時間切れにより先手の勝ち\n"));
    // In KI2 the まで line is the end: a foul is the side it names (Kifu for Windows writes the
    // side to move; another side named is taken at its word).
    let r = ki2::read_records("▲７六歩\nまで1手で先手の反則負け\n").unwrap();
    assert_eq!(r[0].ending(), Some(Ending::Foul(Color::Black)));
    let r = ki2::read_records("▲７六歩\nまで1手で後手の反則負け\n").unwrap();
    assert_eq!(r[0].ending(), Some(Ending::Foul(Color::White)));
    let r = ki2::read_records("▲７六歩\nまで1手で後手の反則勝ち\n").unwrap();
    assert_eq!(r[0].ending(), Some(Ending::Foul(Color::Black)));
    // A まで line alone ends a KIF record too.
    let r = one("   1 ７六歩(77)\nまで1手で先手の勝ち\n");
    assert_eq!(r.ending(), Some(Ending::Resign));
}

/// A text with no game: refused as a whole (line 0), with what it looks like.
#[test]
fn a_text_with_no_game_is_refused() {
    for text in ["garbage\n", "", "先手：A\n後手：B\n", "\u{feff}\n\n"] {
        let e = err(text);
        assert_eq!(e.line, 0, "{text:?}");
        assert_eq!(
            e.reason, "no moves and no position: not a KIF record",
            "{text:?}"
        );
    }
    let e = err("V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n");
    assert_eq!(
        e.to_string(),
        "no moves and no position: not a KIF record (it looks like a CSA record: read it as CSA)"
    );
    // A position alone is a game of no moves; so is the moves' heading.
    assert!(one("手合割：平手\n").moves.is_empty());
    assert!(one("手数----指手---------消費時間--\n").moves.is_empty());
}

/// Moves the rules refuse, each with its line and why, as the rules core says.
#[test]
fn bad_moves_name_their_line_and_reason() {
    let cases: [(&str, usize, &str); 10] = [
        (
            "手合割：平手\n   1 ７六歩(77)\n   2 ７六歩(77)\n",
            3,
            "△７六歩(77): no 歩 of the side to move on ７七",
        ),
        (
            "   1 ７五歩(77)\n",
            1,
            "▲７五歩(77): the piece cannot move to that square",
        ),
        (
            "   1 ７六歩(77)\n   3 ３四歩(33)\n",
            2,
            "move number 3 where 2 was expected",
        ),
        (
            "   1 ７六金(77)\n",
            1,
            "▲７六金(77): the piece on ７七 is 歩, not 金",
        ),
        ("   1 ５五角打\n", 1, "▲５五角打: no 角 in black's hand"),
        (
            "   1 同　歩(77)\n",
            1,
            "'同　歩(77)': 同 with no move before it",
        ),
        (
            "   1 ７六歩(77)\n   2 ３四歩(33)\n まで3手で先手の勝ち\n",
            3,
            "まで3手: the line has 2 moves",
        ),
        (
            "   1 ７六歩(77)\n   2 投了\n   3 ３四歩(33)\n",
            3,
            "'3 ３四歩(33)': a move after the end",
        ),
        (
            "   1 ７六歩(77)\n▲２六歩\n",
            2,
            "'▲２六歩': a KI2 move line in a KIF record",
        ),
        (
            "   1 ７六歩(77)\nthis is not a move\n",
            2,
            "'this is not a move' is not a move, a comment or an end of a KIF record",
        ),
    ];
    for (text, line, reason) in cases {
        let e = err(text);
        assert_eq!((e.line, e.reason.as_str()), (line, reason), "{text}");
    }
}

/// 二歩, 打ち歩詰め and a king left in check, from diagrams built by hand.
#[test]
fn the_rules_refuse_nifu_uchifuzume_and_a_king_left_in_check() {
    // A diagram of the nine rows given, Black to move with `hand`.
    let board = |rows: [&str; 9], hand: &str| {
        let mut s = String::from("後手の持駒：なし\n");
        for (i, row) in rows.iter().enumerate() {
            s.push_str(&format!(
                "|{row}|{}\n",
                ["一", "二", "三", "四", "五", "六", "七", "八", "九"][i]
            ));
        }
        s.push_str(&format!("先手の持駒：{hand}\n先手番\n"));
        s
    };
    let empty = " ・ ・ ・ ・ ・ ・ ・ ・ ・";
    // 二歩: a pawn on 2七, a pawn dropped on 2四.
    let mut rows = [empty; 9];
    rows[0] = " ・ ・ ・ ・ ・ ・ ・ ・v玉";
    rows[6] = " ・ ・ ・ ・ ・ ・ ・ 歩 ・";
    rows[8] = " ・ ・ ・ ・ 玉 ・ ・ ・ ・";
    let text = format!("{}   1 ２四歩打\n", board(rows, "歩"));
    let e = err(&text);
    assert_eq!(e.line, 13);
    assert_eq!(e.reason, "▲２四歩打: 二歩 (a pawn of black's is on file 2)");
    // 打ち歩詰め: White's king 1一 boxed in by its own lance 2一 and pawn 2二, Black's gold on
    // 2三 guarding 1二: a pawn dropped on 1二 mates, and is refused.
    let mut rows = [empty; 9];
    rows[0] = " ・ ・ ・ ・ ・ ・ ・v香v玉";
    rows[1] = " ・ ・ ・ ・ ・ ・ ・v歩 ・";
    rows[2] = " ・ ・ ・ ・ ・ ・ ・ 金 ・";
    rows[8] = " ・ ・ ・ ・ 玉 ・ ・ ・ ・";
    let text = format!("{}   1 １二歩打\n", board(rows, "歩"));
    let e = err(&text);
    assert_eq!(
        e.reason, "▲１二歩打: 打ち歩詰め (the pawn drop mates)",
        "{text}"
    );
    // A king left in check: White's rook on 5一 checks Black's king on 5九; a gold move that
    // does not answer it.
    let mut rows = [empty; 9];
    rows[0] = " ・ ・ ・ ・v飛 ・ ・ ・v玉";
    rows[7] = " ・ ・ ・ ・ ・ ・ ・ 金 ・";
    rows[8] = " ・ ・ ・ ・ 玉 ・ ・ ・ ・";
    let text = format!("{}   1 ２七金(28)\n", board(rows, "なし"));
    let e = err(&text);
    assert_eq!(
        e.reason,
        "▲２七金(28): the king is left in check (a king of black's is attacked after it)"
    );
}

/// A KIF text in Shift_JIS (the classic `.kif`), decoded as the match decodes record files
/// (UTF-8 if valid, else Shift_JIS), reads the same as the UTF-8 text.
#[test]
fn a_shift_jis_kif_reads_the_same_after_decoding() {
    let text = "開始日時：2026/12/01 10:00:00\n手合割：香落ち\n上手：甲\n下手：乙\n\
                手数----指手---------消費時間--\n   1 ３四歩(33)\n   2 ７六歩(77)\n\
                *下手の一手\n   3 ８八角成(22)\n   4 同　銀(79)\n   5 投了\nまで4手で下手の勝ち\n";
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(text);
    assert!(!unmappable);
    assert!(std::str::from_utf8(&bytes).is_err(), "really Shift_JIS");
    let decoded = match std::str::from_utf8(&bytes) {
        Ok(t) => t.to_string(),
        Err(_) => encoding_rs::SHIFT_JIS
            .decode_without_bom_handling(&bytes)
            .0
            .into_owned(),
    };
    let r = one(&decoded);
    assert_eq!(r, one(text));
    assert_eq!(usi(&r), ["3c3d", "7g7f", "2b8h+", "7i8h"]);
    assert_eq!(r.name(Color::White), Some("甲"));
    assert_eq!(r.moves[1].comments(), ["下手の一手"]);
}

/// `positions/records/game.kif`, a Shift_JIS file in Kifu for Windows' layout (see
/// positions/README.md), decoded from Shift_JIS: its header, its comment on move 3 and its 7
/// moves (read by hand from the file), and the resignation.
#[test]
fn the_shift_jis_game_file_reads() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/records/game.kif");
    let bytes = std::fs::read(path).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err());
    let text = encoding_rs::SHIFT_JIS.decode_without_bom_handling(&bytes).0;
    let r = one(&text);
    assert_eq!(r.header_value("棋戦"), Some("テスト"));
    assert_eq!(r.name(Color::Black), Some("先手の人"));
    assert_eq!(
        usi(&r),
        ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "4a5b", "4e6c+"]
    );
    assert_eq!(r.moves[2].comments(), ["角を交換"]);
    assert_eq!(r.moves[1].time_ms, Some(2000));
    assert_eq!(r.ending(), Some(Ending::Resign));
}

/// A fuzz-style test, deterministic: a record with bytes flipped, lines swapped, dropped or
/// doubled, or cut, is read or refused, never a panic; and whatever is read is legal by the
/// rules (each move is played again).
#[test]
fn mutated_records_are_read_or_refused_without_a_panic() {
    let mut base = one(&format!(
        "{DIAGRAM}   1 ３三桂成(45)\n*c\n   2 ４一玉(51)\n   3 ３二金打\n"
    ));
    base.moves
        .push(RecordMove::new(Move::from_usi("4a5a").unwrap()));
    base.set_end(Ending::Interrupt, Vec::new());
    let texts = [
        kif::write(&base),
        ki2::write(&base),
        kif::write(&one(
            "手合割：平手\n   1 ７六歩(77) ( 0:01/00:00:01)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   \
             4 同　銀(31)\n   5 ４五角打\n*x\n   6 中断\n変化：3手\n   3 ６六歩(67)\n",
        )),
    ];
    let mut rng = SplitMix64::new(2027);
    let mut read = 0;
    for original in &texts {
        for _ in 0..1500 {
            let mut lines: Vec<String> = original.lines().map(str::to_string).collect();
            for _ in 0..1 + rng.below(3) {
                let n = lines.len() as u64;
                let at = rng.below(n) as usize;
                match rng.below(5) {
                    0 => lines.swap(at, rng.below(n) as usize),
                    1 => drop(lines.remove(at)),
                    2 => lines.insert(at, lines[rng.below(n) as usize].clone()),
                    3 => {
                        let mut bytes = lines[at].clone().into_bytes();
                        if !bytes.is_empty() {
                            let i = rng.below(bytes.len() as u64) as usize;
                            bytes[i] ^= 1 << rng.below(8);
                        }
                        lines[at] = String::from_utf8_lossy(&bytes).into_owned();
                    }
                    _ => lines.truncate(at),
                }
                if lines.is_empty() {
                    break;
                }
            }
            let text = lines.join("\n");
            for records in [kif::read_records(&text), ki2::read_records(&text)]
                .into_iter()
                .flatten()
            {
                read += 1;
                let mut pos = records[0].start.clone();
                for m in &records[0].moves {
                    assert!(pos.is_legal(m.mv).is_ok(), "{text}");
                    pos.do_move(m.mv);
                }
            }
        }
    }
    // Some mutations leave a record that reads (a comment changed, a line doubled).
    assert!(read > 100, "{read}");
}
