//! KI2 records through the one record model (`saikoro_record::ki2`): round trips of random games
//! in which every relative word and combination of the convention comes up (counted), the
//! layout as tsshogi writes it, and bad input refused with its line and reason.

use crate::record_support::random_game;
use saikoro_core::{Move, Position};
use saikoro_record::ki2::notation::relative_of;
use saikoro_record::{ki2, kif, Ending, Record, RecordMove};
use std::collections::BTreeMap;

fn one(text: &str) -> Record {
    let mut r = ki2::read_records(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(r.len(), 1);
    r.remove(0)
}

fn err(text: &str) -> saikoro_record::RecordError {
    ki2::read_records(text).expect_err(text)
}

/// Starts for the random games: 平手, boards with every piece in hand (so that drops meet board
/// moves to the same square), and one where Black's golds, silvers and promoted pawns stand in
/// blocks of three beside two dragons and two horses (so that three of a kind reach one square
/// and need two words), and one where Black's first move may need 右寄 (golds 4二 6二 4三 to
/// 5二), 左寄 (と 6八 4八 6九 to 5八), or 右上 左上 右引 左引 (silvers at the corners of 5五).
const STARTS: [&str; 5] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    "4k4/9/9/9/9/9/9/9/4K4 w RB2G2S2N2L9Prb2g2s2n2l9p 1",
    "4k4/3+p+p+p3/3g1s3/2GGG4/2+P+P+P2+R1/2SSS4/7+R1/6+B1+B/4K4 b 2N2L6P2n2l6p 1",
    "8k/3G1G3/5G3/3S1S3/9/3S1S3/9/3+P1+P3/K2+P5 b P2r2b8p 1",
];

/// Thousands of random games written as KI2 and KIF read back to the same record: start, moves,
/// end, header, comments (and KIF's times); the relative words the moves needed are counted, and each word and combination of
/// the convention (右 左 直 上 引 寄, 右上 右引 右寄 左上 左引 左寄) and 打 came up.
#[test]
fn random_games_round_trip_and_need_every_relative_word() {
    let mut words: BTreeMap<String, usize> = BTreeMap::new();
    let mut non_promotions = 0;
    let mut games = 0;
    for (i, sfen) in STARTS.iter().enumerate() {
        let start = Position::from_sfen(sfen).unwrap();
        for seed in 0..700u64 {
            let plies = [120, 120, 120, 30, 10][i];
            let moves = random_game(&start, seed * 7 + i as u64, plies);
            let mut record = Record::new(start.clone());
            record.set_header("先手", format!("black {seed}"));
            record.set_header("後手", "白");
            record.set_header("棋戦", "random");
            let mut pos = start.clone();
            for &mv in &moves {
                let w = relative_of(&pos, mv).kanji();
                if !w.is_empty() {
                    *words.entry(w).or_default() += 1;
                }
                pos.do_move(mv);
            }
            record.moves = moves.iter().map(|&mv| RecordMove::new(mv)).collect();
            record.set_end(
                match seed % 4 {
                    0 => Ending::Resign,
                    1 => Ending::Interrupt,
                    2 => Ending::Foul(pos.side_to_move()),
                    _ => Ending::TimeUp,
                },
                Vec::new(),
            );
            // Comments before the moves, on some moves and after the end.
            if seed % 3 == 0 {
                record.comments.push(format!("game {seed}"));
                for (k, m) in record
                    .moves
                    .iter_mut()
                    .enumerate()
                    .filter(|(k, _)| k % 17 == 5)
                {
                    m.comments_mut().push(format!("move {}", k + 1));
                }
                record
                    .end
                    .as_mut()
                    .unwrap()
                    .comments_mut()
                    .push("the end".into());
            }
            let text = ki2::write(&record);
            non_promotions += text.matches("不成").count();
            let back = one(&text);
            assert_eq!(back, record, "{text}");
            // KIF keeps times too (whole seconds).
            for (k, m) in record.moves.iter_mut().enumerate() {
                m.time_ms = Some(1000 * (k as u64 % 7));
            }
            record.end.as_mut().unwrap().time_ms = Some(0);
            let text = kif::write(&record);
            let back = kif::read_records(&text).unwrap().remove(0);
            assert_eq!(back, record, "{text}");
            games += 1;
        }
    }
    // The tallies, for the record (`cargo test --test record_ki2 -- --nocapture`).
    println!("relative words over {games} games: {words:?}");
    for w in [
        "右", "左", "直", "上", "引", "寄", "右上", "右引", "右寄", "左上", "左引", "左寄", "打",
    ] {
        assert!(
            words.get(w).is_some_and(|&n| n > 0),
            "{w} never came up: {words:?}"
        );
    }
    // Nothing else: 直 stands alone, and 打 never goes with another word.
    assert_eq!(words.len(), 13, "{words:?}");
    assert!(non_promotions > 100, "{non_promotions}");
    assert_eq!(games, 3500);
}

/// The layout of tsshogi's KI2 export: six moves a line, each padded to twelve columns (a move of
/// n characters takes 12 − 2n spaces after it), `同　`, a comment on its own line after its
/// move, the `まで` line.
#[test]
fn the_layout_of_a_written_record() {
    let mut r = Record::new(Position::startpos());
    r.set_header("先手", "A");
    r.set_header("後手", "B");
    for usi in [
        "7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8c8d", "4e3d", "2b3c",
    ] {
        r.moves.push(RecordMove::new(Move::from_usi(usi).unwrap()));
    }
    r.moves[6].comments_mut().push("歩を取る".into());
    r.set_end(Ending::Resign, Vec::new());
    let text = ki2::write(&r);
    assert_eq!(
        text,
        "手合割：平手\n先手：A\n後手：B\n\
         ▲７六歩    △３四歩    ▲２二角成  △同　銀    ▲４五角    △８四歩\n\
         ▲３四角\n*歩を取る\n△３三銀\n\
         まで8手で後手の勝ち\n"
    );
    assert_eq!(one(&text), r);
}

/// The seed's KI2 (ぴよ将棋's: ASCII digits, 打 on every drop, `△投了` as a move) reads, and
/// written again reads to the same record.
#[test]
fn the_seed_record_reads_and_round_trips() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/records/seed.ki2");
    let r = one(&std::fs::read_to_string(path).unwrap());
    assert_eq!(r.moves.len(), 31);
    assert_eq!(r.ending(), Some(Ending::Resign));
    let text = ki2::write(&r);
    // Written by the rules: no 打 where no board piece could reach the square.
    assert!(text.contains("▲８七歩    △８四飛"), "{text}");
    assert_eq!(one(&text), r);
}

/// Two golds abreast (for Black, 4三 on its right, 6三 on its left) and one below on the right
/// (4四), all able to reach 5三: the gold on 4三 is 右寄 (寄 is true of 6三 too, 右 of 4四
/// too), 6三 is 左 alone, 4四 上 alone (JSA: the motion first, then the position, both where
/// neither alone tells). Mirrored, 左寄.
#[test]
fn sideways_with_position_words() {
    let text = "後手の持駒：なし
|v玉 ・ ・ ・ ・ ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ 金 ・ 金 ・ ・ ・|三
| ・ ・ ・ ・ ・ 金 ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ 玉|九
先手の持駒：なし
先手番
";
    let start = one(text).start;
    for (usi, words) in [
        ("4c5c", "５三金右寄"),
        ("6c5c", "５三金左"),
        ("4d5c", "５三金上"),
    ] {
        let mut r = Record::new(start.clone());
        r.moves.push(RecordMove::new(Move::from_usi(usi).unwrap()));
        let written = ki2::write(&r);
        assert!(
            written.ends_with(&format!("先手番\n▲{words}\n")),
            "{written}"
        );
        assert_eq!(one(&format!("{text}▲{words}\n")).moves, r.moves, "{words}");
    }
    let mirrored = text.replace(
        "| ・ ・ ・ ・ ・ 金 ・ ・ ・|四",
        "| ・ ・ ・ 金 ・ ・ ・ ・ ・|四",
    );
    let start = one(&mirrored).start;
    let mut r = Record::new(start);
    r.moves
        .push(RecordMove::new(Move::from_usi("6c5c").unwrap()));
    assert!(ki2::write(&r).ends_with("▲５三金左寄\n"));
}

/// Bad input, each with its line and reason: a move that fits two pieces or none, a drop not in
/// hand, 二歩, 打ち歩詰め, a king left in check, the wrong side's mark, a move after the end,
/// garbage, and a text with no game.
#[test]
fn bad_input_names_its_line_and_reason() {
    let cases: [(&str, usize, &str); 8] = [
        (
            "手合割：平手\n▲７六歩　△３四歩\n▲５八金\n",
            3,
            "▲５八金 fits 2 moves (５八金右, ５八金左): add 右, 左, 直, 上, 引 or 寄 to tell which",
        ),
        ("▲７六歩\n△５五角\n", 2, "△５五角: no 角 can reach ５五"),
        ("▲５五角打\n", 1, "▲５五角打: no 角 in hand to drop"),
        (
            "▲７六歩　▲３四歩\n",
            1,
            "▲３四歩: the side mark is not that of the side to move (White)",
        ),
        (
            "▲７六歩　△投了\n▲２六歩\n",
            2,
            "▲２六歩: a move after the end",
        ),
        (
            "▲７六歩\nこれは指し手ではない\n",
            2,
            "'これは指し手ではない' is not a move, a comment or an end of a KI2 record",
        ),
        (
            "▲７六歩\n   2 ３四歩(33)\n",
            2,
            "'2 ３四歩(33)': a KIF move line in a KI2 record",
        ),
        (
            "▲７六歩　△３四歩\nまで3手で先手の勝ち\n",
            2,
            "まで3手: the line has 2 moves",
        ),
    ];
    for (text, line, reason) in cases {
        let e = err(text);
        assert_eq!((e.line, e.reason.as_str()), (line, reason), "{text}");
    }
    let e = err("garbage\n");
    assert_eq!(
        (e.line, e.reason.as_str()),
        (0, "no moves and no position: not a KI2 record")
    );
    moves_the_rules_refuse_name_the_rule();
}

/// The rules' part of [`bad_input_names_its_line_and_reason`].
fn moves_the_rules_refuse_name_the_rule() {
    // The rules: 二歩 (a pawn on 2七, another dropped on 2四), 打ち歩詰め (the king on 1一 held
    // in by its lance and pawn, 1二 guarded by the gold on 2三), a king left in check (the rook
    // on 5一 checks the king on 5九).
    let diagram = |rows: [(usize, &str); 3], hand: &str| {
        let mut s = String::from("後手の持駒：なし\n");
        for rank in 1..=9 {
            let row = rows
                .iter()
                .find(|(r, _)| *r == rank)
                .map_or(" ・ ・ ・ ・ ・ ・ ・ ・ ・", |(_, row)| *row);
            let kanji = ["一", "二", "三", "四", "五", "六", "七", "八", "九"][rank - 1];
            s.push_str(&format!("|{row}|{kanji}\n"));
        }
        s.push_str(&format!("先手の持駒：{hand}\n先手番\n"));
        s
    };
    let king = (9, " ・ ・ ・ ・ 玉 ・ ・ ・ ・");
    let text = diagram(
        [
            (1, " ・ ・ ・ ・ ・ ・ ・ ・v玉"),
            (7, " ・ ・ ・ ・ ・ ・ ・ 歩 ・"),
            king,
        ],
        "歩",
    );
    let e = err(&format!("{text}▲２四歩\n"));
    assert_eq!(
        (e.line, e.reason.as_str()),
        (13, "▲２四歩: 二歩 (a pawn of black's is on file 2)")
    );
    let text = diagram(
        [
            (1, " ・ ・ ・ ・ ・ ・ ・v香v玉"),
            (2, " ・ ・ ・ ・ ・ ・ ・v歩 ・"),
            (3, " ・ ・ ・ ・ 玉 ・ ・ 金 ・"),
        ],
        "歩",
    );
    let e = err(&format!("{text}▲１二歩\n"));
    assert_eq!(e.reason, "▲１二歩: 打ち歩詰め (the pawn drop mates)");
    let text = diagram(
        [
            (1, " ・ ・ ・ ・v飛 ・ ・ ・v玉"),
            (8, " ・ ・ ・ ・ ・ ・ ・ 金 ・"),
            king,
        ],
        "なし",
    );
    let e = err(&format!("{text}▲２七金\n"));
    assert_eq!(
        e.reason,
        "▲２七金: the king is left in check (a king of black's is attacked after it)"
    );
}

/// Every cut of a record is read or refused, never a panic; what is read is a prefix of the
/// game but for its last move (a cut after `▲２二角` of `▲２二角成` is a move too).
#[test]
fn truncated_records_are_read_or_refused() {
    let start = Position::from_sfen(STARTS[1]).unwrap();
    let moves = random_game(&start, 5, 60);
    let mut record = Record::new(start);
    record.moves = moves.iter().map(|&mv| RecordMove::new(mv)).collect();
    record.set_end(Ending::Resign, Vec::new());
    let text = ki2::write(&record);
    for (i, _) in text.char_indices() {
        if let Ok(r) = ki2::read_records(&text[..i]) {
            let n = r[0].moves.len().saturating_sub(1);
            assert_eq!(r[0].moves[..n], record.moves[..n]);
        }
    }
}
