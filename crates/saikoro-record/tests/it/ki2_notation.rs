//! KI2 move text (`saikoro_record::ki2::notation`): the relative words by the convention, the
//! round trip over random games, and bad input.
//!
//! The expected texts of the tables are built by hand from the convention of the Japan Shogi
//! Association's page 「棋譜の表記方法」 (https://www.shogi.or.jp/faq/kihuhyouki.html), as it is
//! described by the Japanese Wikipedia article 「棋譜」 (section 「右」「左」「直」) and by the
//! lessons that work through the JSA page figure by figure (ayu-rairaku.blog.jp, 符号のおはなし
//! ④–⑦); each case names the example it follows. None comes from this code's output.

use saikoro_core::{IllegalMove, Move, Position, SplitMix64, Square};
use saikoro_record::ki2::notation::{
    read_move, relative_of, write_move, Horizontal, MoveTextError, Relative, Vertical,
};

/// A position from pieces written as SFEN letter and USI square (`"K9i k1a G6c"`: upper case
/// Black, lower case White, `+` before a promoted piece), the side to move and the hands.
fn pos(pieces: &str, side: char, hands: &str) -> Position {
    let mut board: [[Option<&str>; 9]; 9] = [[None; 9]; 9];
    for word in pieces.split_whitespace() {
        let (piece, sq) = word.split_at(word.len() - 2);
        let sq = Square::from_usi(sq).unwrap();
        board[sq.rank() as usize - 1][9 - sq.file() as usize] = Some(piece);
    }
    let rows: Vec<String> = board
        .iter()
        .map(|row| {
            let mut s = String::new();
            let mut empty = 0;
            for cell in row {
                match cell {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push_str(p);
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    let sfen = format!("{} {side} {hands} 1", rows.join("/"));
    Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// Each `(usi move, KI2 text)` of `pos`: the text written, and read back to the move.
fn check(pos: &Position, cases: &[(&str, &str)]) {
    for &(usi, text) in cases {
        let mv = Move::from_usi(usi).unwrap();
        assert!(
            pos.is_legal(mv).is_ok(),
            "{usi} is not legal in {pos}",
            pos = pos.to_sfen()
        );
        assert_eq!(
            write_move(pos, mv, None),
            text,
            "{usi} in {}",
            pos.to_sfen()
        );
        assert_eq!(
            read_move(pos, text, None),
            Ok(mv),
            "{text} in {}",
            pos.to_sfen()
        );
    }
}

/// Three golds abreast below 5二 (JSA: ▲5二金左 / ▲5二金直 / ▲5二金右; lesson ⑤, whose
/// 「52金左上 の 上は不要」 says the position word alone is written when it is enough).
#[test]
fn three_golds_abreast_take_left_straight_right() {
    let p = pos("K9i k1a G6c G5c G4c", 'b', "-");
    check(
        &p,
        &[
            ("6c5b", "５二金左"),
            ("5c5b", "５二金直"),
            ("4c5b", "５二金右"),
        ],
    );
}

/// The motion comes first (JSA: 上・寄・引 before 右・左): a gold stepping up against one
/// stepping back is `上`, not `直` (lesson ④: 動き→位置).
#[test]
fn the_motion_comes_first() {
    let p = pos("K9i k1a G5a G5c", 'b', "-");
    check(&p, &[("5a5b", "５二金引"), ("5c5b", "５二金上")]);
    let p = pos("K9i k1a G6b G4b G5c", 'b', "-");
    check(
        &p,
        &[
            ("5c5b", "５二金上"),
            ("6b5b", "５二金左"),
            ("4b5b", "５二金右"),
        ],
    );
}

/// Where neither word alone tells them apart, both, position first (JSA: ▲5二金左上).
#[test]
fn both_words_where_one_is_not_enough() {
    let p = pos("K9i k1a G6c G4c G6b", 'b', "-");
    check(
        &p,
        &[
            ("6c5b", "５二金左上"),
            ("6b5b", "５二金寄"),
            ("4c5b", "５二金右"),
        ],
    );
}

/// Four silvers at the corners of 5五 (the answer on the JSA page quoted at
/// oshiete.goo.ne.jp/qa/6141833: 「左上の銀 → ▲5五銀左引」, 「左下の銀なら ▲5五銀左上」).
#[test]
fn silvers_at_the_corners_need_two_words() {
    let p = pos("K9i k1a S6d S4d S6f S4f", 'b', "-");
    check(
        &p,
        &[
            ("6d5e", "５五銀左引"),
            ("6f5e", "５五銀左上"),
            ("4d5e", "５五銀右引"),
            ("4f5e", "５五銀右上"),
        ],
    );
    let p = pos("K9i k1a S6g S5g S4g", 'b', "-");
    check(
        &p,
        &[
            ("6g5f", "５六銀左"),
            ("5g5f", "５六銀直"),
            ("4g5f", "５六銀右"),
        ],
    );
}

/// Knights only move up: two are told by 右/左 (Wikipedia 「棋譜」: 桂馬は…「右」と「左」).
#[test]
fn knights_take_right_or_left() {
    let p = pos("K9i k1a N6g N4g", 'b', "-");
    check(&p, &[("6g5e", "５五桂左"), ("4g5e", "５五桂右")]);
}

/// Bishops and rooks: 右/左 by where the piece stands as the mover sees it, not by the way it
/// moves (shogiboard.blogspot.com 2012/03: 7七と3七の角 → 「5五角左」「5五角右」).
#[test]
fn bishops_and_rooks_by_where_they_stand() {
    let p = pos("K9i k5a B7g B3g", 'b', "-");
    check(&p, &[("7g5e", "５五角左"), ("3g5e", "５五角右")]);
    let p = pos("K9i k1a R8h R2h", 'b', "-");
    check(&p, &[("8h5h", "５八飛左"), ("2h5h", "５八飛右")]);
}

/// Promoted kinds are kinds of their own (JSA: 同じ駒): a と and a 成銀 need no word; two と do.
#[test]
fn promoted_kinds_are_kinds_of_their_own() {
    let p = pos("K9i k1a +P6b +S4b", 'b', "-");
    check(&p, &[("6b5b", "５二と"), ("4b5b", "５二成銀")]);
    let p = pos("K9i k1a +P6c +P5c G4c", 'b', "-");
    check(
        &p,
        &[
            ("6c5b", "５二と左"),
            ("5c5b", "５二と直"),
            ("4c5b", "５二金"),
        ],
    );
}

/// Two dragons, both moving back: 右/左 (Wikipedia 「棋譜」, its figure: 1三の竜が2四 →
/// ▲2四竜右, 2二の竜 → ▲2四竜左). The motion first for them too (lesson ⑥).
#[test]
fn two_dragons() {
    let p = pos("K9i k9a +R1c +R2b", 'b', "-");
    check(&p, &[("1c2d", "２四龍右"), ("2b2d", "２四龍左")]);
    let p = pos("K9i k9a +R1e +R5i", 'b', "-");
    check(&p, &[("1e5e", "５五龍寄"), ("5i5e", "５五龍上")]);
    // Never 直: the one going straight up is told by where it stands beside the other (Wikipedia:
    // 同種の別の駒から見て左右どちらにあったかで表し、「直」は使わない).
    let p = pos("K9i k9a +R5i +R4f", 'b', "-");
    check(&p, &[("5i5e", "５五龍左"), ("4f5e", "５五龍右")]);
}

/// Two horses both moving back (lesson ⑦: 91の馬が82へ → 82馬左; 直 is not used).
#[test]
fn two_horses() {
    let p = pos("K9i k3a +B9a +B8a", 'b', "-");
    check(&p, &[("9a8b", "８二馬左"), ("8a8b", "８二馬右")]);
}

/// For White every word is mirrored: its forward is down the diagram, its right the higher
/// files (JSA: 指す側から見て). The positions are the Black ones turned round.
#[test]
fn white_sees_the_board_turned_round() {
    let p = pos("k1a K9i g4g g5g g6g", 'w', "-");
    check(
        &p,
        &[
            ("4g5h", "５八金左"),
            ("5g5h", "５八金直"),
            ("6g5h", "５八金右"),
        ],
    );
    let p = pos("k1a K9i g4g g6g g4h", 'w', "-");
    check(
        &p,
        &[
            ("4g5h", "５八金左上"),
            ("4h5h", "５八金寄"),
            ("6g5h", "５八金右"),
        ],
    );
    let p = pos("k1a K9i g5i g5g", 'w', "-");
    check(&p, &[("5i5h", "５八金引"), ("5g5h", "５八金上")]);
    let p = pos("k9a K1a +r9g +r8h", 'w', "-");
    check(&p, &[("9g8f", "８六龍右"), ("8h8f", "８六龍左")]);
    let p = pos("k1a K9i s4f s6f s4d s6d", 'w', "-");
    check(&p, &[("4f5e", "５五銀左引"), ("6d5e", "５五銀右上")]);
}

/// 打 only where a piece of the kind on the board could move there too (JSA: 盤上の駒が動いても
/// 持ち駒を打っても…打); the board move then takes no word.
#[test]
fn drop_only_where_a_board_piece_could_move_there() {
    let p = pos("K9i k1a G6b", 'b', "G");
    check(
        &p,
        &[("G*5b", "５二金打"), ("6b5b", "５二金"), ("G*5e", "５五金")],
    );
    let p = pos("k1a K9i g4h", 'w', "g");
    check(&p, &[("G*5h", "５八金打"), ("4h5h", "５八金")]);
}

/// A pinned piece cannot move to the square, so it needs no word and forces no 打 (the trap of
/// issue 27: tsshogi writes ５八金上 and ４八金打 here).
#[test]
fn a_pinned_piece_does_not_count() {
    let p = pos("K5i G5h G4i l5a k1a", 'b', "G");
    check(&p, &[("4i4h", "４八金"), ("G*6h", "６八金")]);
    let p = pos("K5i G5h l5a k1a", 'b', "G");
    check(&p, &[("G*4h", "４八金")]);
}

/// 成 for a promotion, 不成 only where the move could promote (JSA: 成・不成; 76歩 not
/// 76歩直不成).
#[test]
fn promotion_words() {
    let p = pos("K9i k1a N3e S2d S5e", 'b', "-");
    check(
        &p,
        &[
            ("3e2c", "２三桂不成"),
            ("3e2c+", "２三桂成"),
            ("2d2c", "２三銀不成"),
            ("2d2c+", "２三銀成"),
            ("5e5d", "５四銀"),
        ],
    );
    let start = Position::startpos();
    check(&start, &[("7g7f", "７六歩"), ("2h7h", "７八飛")]);
}

/// 同 when the move lands where the last one did; read with or without the space.
#[test]
fn same_square() {
    let p = pos("K9i k1a S6c b5b", 'b', "-");
    let mv = Move::from_usi("6c5b+").unwrap();
    let last = Square::from_usi("5b");
    assert_eq!(write_move(&p, mv, last), "同　銀成");
    for text in ["同　銀成", "同銀成", "▲同 銀成", "５二銀成"] {
        assert_eq!(read_move(&p, text, last), Ok(mv), "{text}");
    }
    assert!(matches!(
        read_move(&p, "同　銀成", None),
        Err(MoveTextError::NoPreviousMove { .. })
    ));
}

/// Other spellings read: marks, 竜/龍, 王/玉, 生 for 不成, ASCII and kanji digits, redundant
/// words that are true of the move.
#[test]
fn other_spellings_and_redundant_words() {
    let p = pos("K9i k9a +R1c +R2b N3e", 'b', "-");
    let cases = [
        ("▲２四竜右", "1c2d"),
        ("☗2四龍左", "2b2d"),
        ("２四龍右引", "1c2d"),
        ("２三桂生", "3e2c"),
        ("２三桂上成", "3e2c+"),
        ("二四龍左", "2b2d"),
        ("９八王", "9i9h"),
        ("９八玉上", "9i9h"),
    ];
    for (text, usi) in cases {
        assert_eq!(
            read_move(&p, text, None),
            Ok(Move::from_usi(usi).unwrap()),
            "{text}"
        );
    }
    let start = Position::startpos();
    assert_eq!(
        read_move(&start, "７六歩上", None),
        Move::from_usi("7g7f").map_err(|_| unreachable!())
    );
    assert_eq!(
        read_move(&start, "７八金右", None),
        Move::from_usi("6i7h").map_err(|_| unreachable!())
    );
}

#[test]
fn bad_input_is_refused_with_its_reason() {
    let p = pos("K9i k1a G6c G5c G4c P5g", 'b', "PB");
    let err = |text: &str| read_move(&p, text, None).unwrap_err();
    assert!(matches!(err("５二金"), MoveTextError::Ambiguous { fits, .. } if fits.len() == 3));
    assert!(matches!(err("５二金上"), MoveTextError::Ambiguous { .. }));
    assert!(matches!(err("５二金引"), MoveTextError::FalseWords { .. }));
    assert!(matches!(err("５二金寄"), MoveTextError::FalseWords { .. }));
    assert!(matches!(err("５五飛"), MoveTextError::NoPiece { .. }));
    assert!(matches!(err("５五金打"), MoveTextError::NotInHand { .. }));
    assert!(matches!(err("５五と打"), MoveTextError::NotInHand { .. }));
    assert!(matches!(
        err("５五歩打"),
        MoveTextError::Illegal {
            reason: IllegalMove::Nifu,
            ..
        }
    ));
    assert!(matches!(
        err("５五歩"),
        MoveTextError::Illegal {
            reason: IllegalMove::Nifu,
            ..
        }
    ));
    assert!(matches!(
        err("５六歩成"),
        MoveTextError::Illegal {
            reason: IllegalMove::CannotPromote,
            ..
        }
    ));
    assert!(matches!(err("△５六歩"), MoveTextError::WrongSide { .. }));
    for garbage in [
        "",
        "５",
        "５二",
        "５二X",
        "金５二",
        "５二金左打",
        "５二金右右",
        "５二金成成",
        "0五歩",
    ] {
        assert!(
            matches!(err(garbage), MoveTextError::Unreadable { .. }),
            "{garbage}"
        );
    }
    let text = err("５二金").to_string();
    assert!(
        text.contains("５二金左") && text.contains("５二金右") && text.contains("fits 3"),
        "{text}"
    );
    assert!(err("５五飛").to_string().contains("no 飛 can reach ５五"));
    assert!(err("５二金引")
        .to_string()
        .contains("引 is true of no 金 that can move to ５二"));
    assert!(err("５五金打").to_string().contains("no 金 in hand"));
    assert!(err("５五歩").to_string().contains("二歩"));
    let knight = pos("K9i k1a N3e", 'b', "-");
    assert!(matches!(
        read_move(&knight, "２一桂", None),
        Err(MoveTextError::NoPiece { .. })
    ));
    let knight = pos("K9i k1a N3d", 'b', "-");
    assert!(matches!(
        read_move(&knight, "２二桂不成", None),
        Err(MoveTextError::Illegal {
            reason: IllegalMove::MustPromote,
            ..
        })
    ));
}

#[test]
fn relative_words_in_kanji_and_jkf() {
    let cases = [
        (None, None, false, "", ""),
        (
            Some(Horizontal::Left),
            Some(Vertical::Up),
            false,
            "左上",
            "LU",
        ),
        (
            Some(Horizontal::Right),
            Some(Vertical::Down),
            false,
            "右引",
            "RD",
        ),
        (Some(Horizontal::Straight), None, false, "直", "C"),
        (None, Some(Vertical::Sideways), false, "寄", "M"),
        (
            Some(Horizontal::Left),
            Some(Vertical::Sideways),
            false,
            "左寄",
            "LM",
        ),
        (None, None, true, "打", "H"),
    ];
    for (horizontal, vertical, drop, kanji, jkf) in cases {
        let rel = Relative {
            horizontal,
            vertical,
            drop,
        };
        assert_eq!(rel.kanji(), kanji);
        assert_eq!(rel.jkf(), jkf);
        assert_eq!(Relative::from_jkf(jkf), Some(rel));
    }
    for bad in ["X", "UL", "HU", "LL", "l", "LUH"] {
        assert_eq!(Relative::from_jkf(bad), None, "{bad}");
    }
    let p = pos("K9i k1a G6c G4c G6b", 'b', "-");
    let rel = relative_of(&p, Move::from_usi("6c5b").unwrap());
    assert_eq!(rel.jkf(), "LU");
}

/// Seeded random games: in every position, every legal move written and read back is the same
/// move, with and without `同`; and every word turns up somewhere.
#[test]
fn read_inverts_write_over_random_games() {
    let mut rng = SplitMix64::new(27);
    let mut seen = std::collections::BTreeSet::new();
    let mut positions = 0;
    for _ in 0..30 {
        let mut p = Position::startpos();
        let mut last: Option<Square> = None;
        for _ in 0..160 {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            positions += 1;
            for &mv in legal.iter() {
                for last_to in [None, last] {
                    let text = write_move(&p, mv, last_to);
                    assert_eq!(
                        read_move(&p, &text, last_to),
                        Ok(mv),
                        "{text} in {}",
                        p.to_sfen()
                    );
                    seen.insert(relative_of(&p, mv).kanji());
                }
            }
            let mv = legal[rng.below(legal.len() as u64) as usize];
            last = Some(mv.to());
            p.do_move(mv);
        }
    }
    assert!(positions > 3000, "{positions}");
    for word in ["上", "引", "寄", "右", "左", "直", "打"] {
        assert!(
            seen.iter().any(|w| w.contains(word)),
            "no {word} in {seen:?}"
        );
    }
}

/// Mutated move texts (bytes dropped, swapped or replaced by other words) are read or refused,
/// never a panic, and what is read is legal.
#[test]
fn mutated_texts_never_panic() {
    let words = [
        "同", "　", "成", "不", "生", "打", "右", "左", "直", "上", "引", "寄", "龍", "金", "５",
        "二", "▲", "△", "\u{fffd}",
    ];
    let mut rng = SplitMix64::new(7);
    let p = pos("K9i k9e G6c G4c G6b +R1c +R2b N3e S2d", 'b', "GP");
    let legal = p.legal_moves();
    for i in 0..3000 {
        let mv = legal[i % legal.len()];
        let mut chars: Vec<char> = write_move(&p, mv, None).chars().collect();
        for _ in 0..=rng.below(3) {
            let at = rng.below(chars.len() as u64 + 1) as usize;
            match rng.below(3) {
                0 if at < chars.len() => {
                    chars.remove(at);
                }
                1 => {
                    let w = words[rng.below(words.len() as u64) as usize];
                    for (k, c) in w.chars().enumerate() {
                        chars.insert(at + k, c);
                    }
                }
                _ if at + 1 < chars.len() => chars.swap(at, at + 1),
                _ => {}
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(read) = read_move(&p, &text, Square::from_usi("5b")) {
            assert!(legal.contains(&read), "{text} read as {read}");
        }
    }
}
