//! The Japanese words of the record forms (KIF, KI2 and JKF's Japanese fields), one table of each:
//! the kanji numerals, the full-width file digits, the piece names, the sides, the handicaps
//! (`手合割`) and the end words (終局). KIF and KI2 read and write through these tables alone.

use crate::Ending;
use saikoro_core::{Color, Hand, IllegalMove, Move, PieceType, Position};

/// The kanji numerals from 1 to 18: ranks (`一`..`九`) and the counts of a hand (`歩十八`).
pub(crate) const KANJI_NUMBERS: [&str; 18] = [
    "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四",
    "十五", "十六", "十七", "十八",
];

/// The full-width digits of files (`１`..`９`).
pub(crate) const WIDE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// Each kind's name in a move (`成銀`) and its one-character name on a board diagram and in a
/// hand (`全`).
pub(crate) const PIECE_NAMES: [(PieceType, &str, &str); 14] = [
    (PieceType::Pawn, "歩", "歩"),
    (PieceType::Lance, "香", "香"),
    (PieceType::Knight, "桂", "桂"),
    (PieceType::Silver, "銀", "銀"),
    (PieceType::Gold, "金", "金"),
    (PieceType::Bishop, "角", "角"),
    (PieceType::Rook, "飛", "飛"),
    (PieceType::King, "玉", "玉"),
    (PieceType::ProPawn, "と", "と"),
    (PieceType::ProLance, "成香", "杏"),
    (PieceType::ProKnight, "成桂", "圭"),
    (PieceType::ProSilver, "成銀", "全"),
    (PieceType::Horse, "馬", "馬"),
    (PieceType::Dragon, "龍", "龍"),
];

/// Other names read for a kind: `王` (the other king), `竜`, and the older one-character names
/// of the promoted lance and knight, `仝` and `今`.
pub(crate) const OTHER_PIECE_NAMES: [(&str, PieceType); 4] = [
    ("王", PieceType::King),
    ("竜", PieceType::Dragon),
    ("仝", PieceType::ProLance),
    ("今", PieceType::ProKnight),
];

/// The kind's name in a move (`成銀`, `龍`).
pub(crate) fn piece_name(kind: PieceType) -> &'static str {
    PIECE_NAMES
        .iter()
        .find(|&&(k, _, _)| k == kind)
        .map_or("", |&(_, name, _)| name)
}

/// The kind's one-character name on a board diagram and in a hand (`全` for 成銀).
pub(crate) fn board_name(kind: PieceType) -> &'static str {
    PIECE_NAMES
        .iter()
        .find(|&&(k, _, _)| k == kind)
        .map_or("", |&(_, _, name)| name)
}

/// The kind whose name `s` starts with (any of its names: `成銀`, `全`, `王`, `竜`, …) and the
/// name's length in bytes; the longest name wins.
pub(crate) fn piece_at_start(s: &str) -> Option<(PieceType, usize)> {
    PIECE_NAMES
        .iter()
        .flat_map(|&(kind, name, board)| [(name, kind), (board, kind)])
        .chain(OTHER_PIECE_NAMES)
        .filter(|(name, _)| s.starts_with(name))
        .max_by_key(|(name, _)| name.len())
        .map(|(name, kind)| (kind, name.len()))
}

/// A digit from 1 to 9 written as ASCII, full-width (`１`) or kanji (`一`).
pub(crate) fn digit(c: char) -> Option<u8> {
    let mut buf = [0u8; 4];
    let s: &str = c.encode_utf8(&mut buf);
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => WIDE_DIGITS
            .iter()
            .position(|&w| w == c)
            .or_else(|| KANJI_NUMBERS[..9].iter().position(|&k| k == s))
            .map(|i| i as u8 + 1),
    }
}

/// A count in kanji as hands write it (`二`, `十`, `十八`); empty is one.
pub(crate) fn kanji_count(s: &str) -> Option<u8> {
    let one = |t: &str| -> Option<u8> {
        let mut cs = t.chars();
        let d = digit(cs.next()?)?;
        cs.next().is_none().then_some(d)
    };
    match s.split_once('十') {
        Some((tens, ones)) => {
            let t = if tens.is_empty() { 1 } else { one(tens)? };
            let o = if ones.is_empty() { 0 } else { one(ones)? };
            Some(t * 10 + o)
        }
        None if s.is_empty() => Some(1),
        None => one(s),
    }
}

/// `先手` (Black) or `後手` (White).
/// A player as KIF and KI2 name them: `先手`/`後手`, or in a handicap game (a `手合割` other
/// than 平手) `下手`/`上手`, as Kifu for Windows writes them.
pub(crate) fn player_name(color: Color, handicap: bool) -> &'static str {
    match (color, handicap) {
        (Color::Black, false) => "先手",
        (Color::White, false) => "後手",
        (Color::Black, true) => "下手",
        (Color::White, true) => "上手",
    }
}

/// Whether `pos` is a handicap start of the table other than 平手: its players are 下手 and
/// 上手.
pub fn is_handicap(pos: &Position) -> bool {
    handicap_name(pos).is_some_and(|name| name != "平手")
}

pub(crate) fn side_name(color: Color) -> &'static str {
    match color {
        Color::Black => "先手",
        Color::White => "後手",
    }
}

/// A hand's pieces as a hand line writes them (`飛　金二　歩十八　`), or `なし`.
pub(crate) fn hand_text(hand: &Hand) -> String {
    let mut s = String::new();
    for kind in PieceType::HAND_SFEN_ORDER {
        let n = hand.count(kind) as usize;
        if n >= 1 {
            s.push_str(board_name(kind));
            if n >= 2 {
                s.push_str(KANJI_NUMBERS[n - 1]);
            }
            s.push('\u{3000}');
        }
    }
    if s.is_empty() {
        "なし".to_string()
    } else {
        s
    }
}

/// A hand line's pieces (`飛　角　金二　歩十八`, `なし`); `None` when a part is not a piece of
/// a hand with a count.
pub(crate) fn parse_hand(text: &str) -> Option<Hand> {
    let mut hand = Hand::default();
    let text = text.trim_matches([' ', '\u{3000}']);
    if text == "なし" || text.is_empty() {
        return Some(hand);
    }
    for part in text.split([' ', '\u{3000}']).filter(|p| !p.is_empty()) {
        let (kind, len) = piece_at_start(part)?;
        if !kind.is_hand_kind() {
            return None;
        }
        let n = kanji_count(&part[len..])?;
        let total = hand.count(kind).checked_add(n)?;
        if total > 18 {
            return None;
        }
        hand.set(kind, total);
    }
    Some(hand)
}

/// The handicaps (`手合割`) of Kifu for Windows' list as SFEN, the handicapped side (上手) White
/// and to move. The positions of 平手 to 十枚落ち but 三枚落ち, 五枚落ち, 左五枚落ち and the
/// 七枚落ち are tsshogi's (`InitialPositionSFEN`); those are the sets of MyShogi (YaneuraOu's
/// GUI, `Sfens.cs`) and ShogiBoardQ, which agree: 三枚落ち is 二枚落ち with the 1一 lance
/// gone too, 五枚落ち 四枚落ち with the 8一 knight, 左五枚落ち with the 2一 knight, 左七枚落ち
/// 六枚落ち with the 3一 silver, 右七枚落ち with the 7一 silver. `その他` names no position:
/// a board diagram must follow it.
pub const HANDICAPS: [(&str, &str); 16] = [
    ("平手", saikoro_core::STARTPOS_SFEN),
    (
        "香落ち",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "角落ち",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛車落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛香落ち",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "二枚落ち",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左七枚落ち",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右七枚落ち",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "八枚落ち",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "十枚落ち",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// The position a `手合割` name stands for (`None` for `その他` and unknown names).
pub fn handicap_position(name: &str) -> Option<Position> {
    HANDICAPS
        .iter()
        .find(|(h, _)| *h == name)
        .map(|(_, sfen)| Position::from_sfen(sfen).expect("the handicap table holds legal SFEN"))
}

/// The `手合割` name of `pos` when it is one of the handicaps at its first move (its ply count
/// aside).
pub fn handicap_name(pos: &Position) -> Option<&'static str> {
    let sfen = pos.to_sfen();
    let unnumbered = |s: &str| s.rsplit_once(' ').map(|(a, _)| a.to_string());
    let ours = unnumbered(&sfen)?;
    HANDICAPS
        .iter()
        .find(|(_, s)| unnumbered(s).as_deref() == Some(ours.as_str()))
        .map(|(h, _)| *h)
}

/// What an end word says, before the side to move at the end is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Word {
    /// An end that names no side, or names the side to move as [`Ending`] does.
    Plain(Ending),
    /// `反則勝ち`: the side to move wins by the other side's foul.
    FoulWin,
    /// `反則負け`: the side to move loses by its own foul.
    FoulLoss,
}

/// The end words (終局) as KIF writes them on the last move line (`  61 投了`), first the ones
/// written. `詰` and `宣言勝ち` are read too.
const END_WORDS: [(&str, Word); 15] = [
    ("投了", Word::Plain(Ending::Resign)),
    ("中断", Word::Plain(Ending::Interrupt)),
    ("千日手", Word::Plain(Ending::Repetition)),
    ("詰み", Word::Plain(Ending::Mate)),
    ("持将棋", Word::Plain(Ending::Jishogi)),
    ("切れ負け", Word::Plain(Ending::TimeUp)),
    ("反則勝ち", Word::FoulWin),
    ("反則負け", Word::FoulLoss),
    ("入玉勝ち", Word::Plain(Ending::Declaration)),
    ("不戦勝", Word::Plain(Ending::DefaultWin)),
    ("不戦敗", Word::Plain(Ending::DefaultLoss)),
    ("封じ手", Word::Plain(Ending::Sealed)),
    ("不詰", Word::Plain(Ending::NoMate)),
    ("宣言勝ち", Word::Plain(Ending::Declaration)),
    ("詰", Word::Plain(Ending::Mate)),
];

/// The end an end word means with `next` to move at the end; the word must be the whole text
/// (spaces aside).
pub(crate) fn ending_of_word(word: &str, next: Color) -> Option<Ending> {
    let word = word.trim_matches([' ', '\u{3000}']);
    END_WORDS
        .iter()
        .find(|(w, _)| *w == word)
        .map(|&(_, e)| match e {
            Word::Plain(e) => e,
            Word::FoulWin => Ending::Foul(!next),
            Word::FoulLoss => Ending::Foul(next),
        })
}

/// The end word KIF writes for `end` with `next` to move at the end. The ends KIF has no word
/// for are written as the nearest: `MaxMoves` and `Draw` as `持将棋`, `Error` as `中断`.
pub(crate) fn word_of_ending(end: Ending, next: Color) -> &'static str {
    let want = match end {
        Ending::Foul(c) if c == next => Word::FoulLoss,
        Ending::Foul(_) => Word::FoulWin,
        Ending::MaxMoves | Ending::Draw => Word::Plain(Ending::Jishogi),
        Ending::Error => Word::Plain(Ending::Interrupt),
        e => Word::Plain(e),
    };
    crate::word_of(&END_WORDS, want)
}

/// The tail of the `まで…` line for `end` with `next` to move at the end (`先手の勝ち`,
/// `時間切れにより後手の勝ち`, `先手の反則負け`, `千日手`), as Kifu for Windows and tsshogi
/// write it. A mate is `…の勝ち` in KIF (whose last move line says `詰み`) and `詰み` in KI2
/// (`mate_word`), where the `まで` line is all that tells the end. In a `handicap` game the
/// sides are 下手 and 上手 (`まで64手で下手の勝ち`).
pub(crate) fn summary_of_ending(
    end: Ending,
    next: Color,
    mate_word: bool,
    handicap: bool,
) -> String {
    let (next_name, last_name) = (player_name(next, handicap), player_name(!next, handicap));
    match end {
        Ending::Mate if mate_word => word_of_ending(end, next).to_string(),
        Ending::Resign | Ending::Mate => format!("{last_name}の勝ち"),
        Ending::TimeUp => format!("時間切れにより{last_name}の勝ち"),
        Ending::Declaration => format!("{next_name}の入玉勝ち"),
        Ending::Foul(c) if c == next => format!("{next_name}の反則負け"),
        Ending::Foul(_) => format!("{next_name}の反則勝ち"),
        other => word_of_ending(other, next).to_string(),
    }
}

/// The end a `まで…` line's tail says (`31手で先手の勝ち` after `まで`), with `next` to move
/// at the end; `None` when it says none that KIF knows. `…の勝ち` is a resignation, as tsshogi
/// reads it.
pub(crate) fn ending_of_summary(tail: &str, next: Color) -> Option<Ending> {
    let t: String = tail.chars().filter(|c| !c.is_whitespace()).collect();
    let t = t.trim_start_matches('、');
    let t = match t.find("手で") {
        Some(i) if t[..i].chars().all(|c| c.is_ascii_digit()) => &t[i + "手で".len()..],
        _ => t,
    };
    // The side a foul word names (`先手の反則負け`), else the side to move, as tsshogi reads it.
    let named = [
        ("先手の", Color::Black),
        ("下手の", Color::Black),
        ("後手の", Color::White),
        ("上手の", Color::White),
    ]
    .iter()
    .find(|(w, _)| t.starts_with(w))
    .map_or(next, |&(_, c)| c);
    if t.starts_with("時間切れ") {
        Some(Ending::TimeUp)
    } else if t.ends_with("反則勝ち") {
        Some(Ending::Foul(!named))
    } else if t.ends_with("反則負け") {
        Some(Ending::Foul(named))
    } else if t.ends_with("入玉勝ち") {
        Some(Ending::Declaration)
    } else if t.ends_with("勝ち") {
        Some(Ending::Resign)
    } else {
        ending_of_word(t, next)
    }
}

/// Why the rules refuse `mv` of `side` (`e`), in the words of the field where it has one:
/// `二歩 (a pawn of black's is on file 2)`, `打ち歩詰め (…)`.
pub(crate) fn rule_reason(side: Color, mv: Move, e: IllegalMove) -> String {
    let who = match side {
        Color::Black => "black's",
        Color::White => "white's",
    };
    match (e, mv) {
        (IllegalMove::Nifu, _) => format!("二歩 (a pawn of {who} is on file {})", mv.to().file()),
        (IllegalMove::PawnDropMate, _) => "打ち歩詰め (the pawn drop mates)".to_string(),
        (IllegalMove::KingInCheck, _) => {
            format!("the king is left in check (a king of {who} is attacked after it)")
        }
        (IllegalMove::NotInHand, Move::Drop { kind, .. }) => {
            format!("no {} in {who} hand", piece_name(kind))
        }
        (IllegalMove::MustPromote, _) => {
            "行き所のない駒 (the piece must promote there)".to_string()
        }
        (e, _) => e.to_string(),
    }
}

/// The side marks of KI2 moves (and of KIF moves, where some writers put them).
pub(crate) const SIDE_MARKS: [(char, Color); 6] = [
    ('▲', Color::Black),
    ('☗', Color::Black),
    ('▼', Color::Black),
    ('△', Color::White),
    ('☖', Color::White),
    ('▽', Color::White),
];

/// The mark of a side in the texts Saikoro writes (`▲`, `△`).
pub(crate) fn side_mark(color: Color) -> char {
    match color {
        Color::Black => '▲',
        Color::White => '△',
    }
}

/// `５二`: a square as the forms write it, full-width file and kanji rank.
pub(crate) fn square_text(sq: saikoro_core::Square) -> String {
    let mut s = String::new();
    s.push(WIDE_DIGITS[sq.file() as usize - 1]);
    s.push_str(KANJI_NUMBERS[sq.rank() as usize - 1]);
    s
}
