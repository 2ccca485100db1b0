//! Game records of a match (`--records DIR`): CSA V2.2 through the writer the CSA client and
//! self-play use, or KIF (`--records-format kif`).
//!
//! KIF is written as `.kifu`: UTF-8 with the `#KIF version=2.0 encoding=UTF-8` header line.
//! Classic `.kif` files are Shift_JIS, which cannot hold every engine name (and would need an
//! encoding table); `.kifu` is the UTF-8 form that Kifu for Windows defined and that ShogiHome,
//! ShogiGUI and Kifu for Windows read. The layout follows ShogiHome's (tsshogi's) KIF export:
//! `手合割：平手` or a board diagram, move lines `   1 ７六歩(77)   ( 0:01/00:00:01)`, `同　`
//! for a capture back on the last square, the end as a special move (`投了`, `詰み`, `千日手`,
//! `反則負け`, …), and a `まで…` summary line as Kifu for Windows writes it.

use crate::record::csa::record::{format_time, write_record, RecordInfo};
use crate::tournament::config::RecordFormat;
use crate::tournament::game::result::{Decision, GameRecord, Reason};
use crate::tournament::game::timecontrol::Limits;
use crate::tournament::output::atomic::write_atomically;
use crate::tournament::output::lines::{opening_text, GameInfo};
use crate::{ByColor, Color, Move, PieceType, Position, STARTPOS_SFEN};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The file a game's record goes to: `DIR/game-00017.csa` or `.kifu`.
pub fn record_path(dir: &Path, number: u64, format: RecordFormat) -> PathBuf {
    dir.join(format!("game-{number:05}{}", format.extension()))
}

/// Writes one game's record into `dir`.
pub fn write(
    dir: &Path,
    format: RecordFormat,
    info: &GameInfo,
    record: &GameRecord,
    limits: &ByColor<Limits>,
) -> io::Result<PathBuf> {
    let path = record_path(dir, info.number, format);
    let mut out = Vec::with_capacity(4096);
    match format {
        RecordFormat::Csa => write_csa(&mut out, info, record, limits)?,
        RecordFormat::Kif => write_kif(&mut out, info, record, limits)?,
    }
    // Whole or not at all: a crash or a full disk leaves no half record.
    write_atomically(&path, &out)?;
    Ok(path)
}

fn time_comment(limits: &ByColor<Limits>) -> String {
    if limits[Color::Black] == limits[Color::White] {
        format!("time control: {}", limits[Color::Black])
    } else {
        format!(
            "time control: black {}, white {}",
            limits[Color::Black],
            limits[Color::White]
        )
    }
}

/// The side that lost, for the reasons where one side lost.
fn loser(record: &GameRecord) -> Option<Color> {
    match record.end.result {
        Decision::Win(w) => Some(!w),
        _ => None,
    }
}

/// The CSA end line of a game.
fn csa_end(record: &GameRecord) -> &'static str {
    let foul = |c: Option<Color>| match c {
        Some(Color::Black) => "%+ILLEGAL_ACTION",
        Some(Color::White) => "%-ILLEGAL_ACTION",
        None => "%CHUDAN",
    };
    match record.end.reason {
        Reason::Mate => "%TSUMI",
        Reason::Resign => "%TORYO",
        Reason::Declaration => "%KACHI",
        Reason::Repetition => "%SENNICHITE",
        Reason::MaxPlies => "%HIKIWAKE",
        Reason::Time => "%TIME_UP",
        Reason::Adjudication => match record.end.result {
            Decision::Win(_) => "%TORYO",
            _ => "%HIKIWAKE",
        },
        Reason::Interrupted => "%CHUDAN",
        Reason::IllegalDeclaration
        | Reason::IllegalMove
        | Reason::PerpetualCheck
        | Reason::Crash
        | Reason::NoResponse => foul(loser(record)),
    }
}

/// A CSA V2.2 record: names, the start position, each move with its time (whole seconds,
/// rounded down as Floodgate does), the end line, and the result as a comment.
pub fn write_csa(
    w: &mut impl Write,
    info: &GameInfo,
    record: &GameRecord,
    limits: &ByColor<Limits>,
) -> io::Result<()> {
    let time_limit = match (limits[Color::Black].clock, limits[Color::White].clock) {
        (Some(b), Some(wc)) if b == wc => b.csa_time_limit(),
        _ => None,
    };
    let mut comments = vec![
        format!("game {}, round {}", info.number, info.round),
        format!("opening: {}", opening_text(record)),
        time_comment(limits),
    ];
    if record.opening.line > 0 {
        comments.insert(1, format!("opening line {}", record.opening.line));
    }
    let mut trailer = Vec::new();
    if let Some(t) = &record.end.illegal_move {
        trailer.push(format!("illegal move: {t}"));
    }
    trailer.push(format!(
        "result: {} {{{}}} ({})",
        record.end.result.text(),
        record.end.detail,
        record.end.reason
    ));
    let meta = RecordInfo {
        names: ByColor([info.black.clone(), info.white.clone()]),
        event: Some("saikoro match".to_string()),
        start_time: Some(format_time(record.started)),
        end_time: Some(format_time(record.ended)),
        time_limit,
        comments,
        trailer,
        ..RecordInfo::default()
    };
    let moves: Vec<(Move, Option<u32>)> = record
        .opening
        .moves
        .iter()
        .map(|&m| (m, None))
        .chain(
            record
                .moves
                .iter()
                .map(|m| (m.mv, Some((m.time_ms / 1000) as u32))),
        )
        .collect();
    write_record(w, &meta, &record.opening.start, &moves, csa_end(record))
}

const KANJI_NUMBERS: [&str; 18] = [
    "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四",
    "十五", "十六", "十七", "十八",
];
const WIDE_DIGITS: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];

/// The piece's name in a KIF move (`成銀`, `龍`).
fn kif_piece(kind: PieceType) -> &'static str {
    match kind {
        PieceType::Pawn => "歩",
        PieceType::Lance => "香",
        PieceType::Knight => "桂",
        PieceType::Silver => "銀",
        PieceType::Gold => "金",
        PieceType::Bishop => "角",
        PieceType::Rook => "飛",
        PieceType::King => "玉",
        PieceType::ProPawn => "と",
        PieceType::ProLance => "成香",
        PieceType::ProKnight => "成桂",
        PieceType::ProSilver => "成銀",
        PieceType::Horse => "馬",
        PieceType::Dragon => "龍",
    }
}

/// The piece's one-character name on a KIF board diagram (`全` for 成銀).
fn kif_board_piece(kind: PieceType) -> &'static str {
    match kind {
        PieceType::ProLance => "杏",
        PieceType::ProKnight => "圭",
        PieceType::ProSilver => "全",
        k => kif_piece(k),
    }
}

/// A move in KIF: `７六歩(77)`, `同　角成(88)`, `５五角打`. `prev_to` is the last move's
/// destination. The piece is the one before the move.
pub fn kif_move(pos: &Position, mv: Move, prev_to: Option<crate::Square>) -> String {
    let to = mv.to();
    let mut s = if prev_to == Some(to) {
        "同\u{3000}".to_string()
    } else {
        format!(
            "{}{}",
            WIDE_DIGITS[to.file() as usize - 1],
            KANJI_NUMBERS[to.rank() as usize - 1]
        )
    };
    match mv {
        Move::Normal { from, promote, .. } => {
            let kind = pos.piece_at(from).map_or(PieceType::Pawn, |p| p.kind);
            s.push_str(kif_piece(kind));
            if promote {
                s.push('成');
            }
            s.push_str(&format!("({}{})", from.file(), from.rank()));
        }
        Move::Drop { kind, .. } => {
            s.push_str(kif_piece(kind));
            s.push('打');
        }
    }
    s
}

fn mss(ms: u64) -> String {
    let s = ms / 1000;
    format!("{:>2}:{:02}", s / 60, s % 60)
}

fn hhmmss(ms: u64) -> String {
    let s = ms / 1000;
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

fn kif_hand(pos: &Position, color: Color) -> String {
    let hand = pos.hand(color);
    let mut s = String::new();
    for kind in PieceType::HAND_SFEN_ORDER {
        let n = hand.count(kind) as usize;
        if n >= 1 {
            s.push_str(kif_board_piece(kind));
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

/// The board diagram (BOD) of a start position other than the standard one.
fn kif_board(w: &mut impl Write, pos: &Position) -> io::Result<()> {
    writeln!(w, "後手の持駒：{}", kif_hand(pos, Color::White))?;
    writeln!(w, "  ９ ８ ７ ６ ５ ４ ３ ２ １")?;
    writeln!(w, "+---------------------------+")?;
    for rank in 1..=9u8 {
        let mut row = String::from("|");
        for file in (1..=9u8).rev() {
            let sq = crate::Square::new(file, rank).expect("on the board");
            match pos.piece_at(sq) {
                None => row.push_str(" ・"),
                Some(p) => {
                    row.push(if p.color == Color::Black { ' ' } else { 'v' });
                    row.push_str(kif_board_piece(p.kind));
                }
            }
        }
        writeln!(w, "{row}|{}", KANJI_NUMBERS[rank as usize - 1])?;
    }
    writeln!(w, "+---------------------------+")?;
    writeln!(w, "先手の持駒：{}", kif_hand(pos, Color::Black))?;
    writeln!(
        w,
        "{}",
        if pos.side_to_move() == Color::Black {
            "先手番"
        } else {
            "後手番"
        }
    )
}

fn kif_side(c: Color) -> &'static str {
    match c {
        Color::Black => "先手",
        Color::White => "後手",
    }
}

/// The KIF special move ending the game and the `まで…` line's tail, with `next` the side to
/// move at the end.
fn kif_end(record: &GameRecord, next: Color) -> (&'static str, String) {
    let winner = match record.end.result {
        Decision::Win(w) => Some(w),
        _ => None,
    };
    let wins = |c: Color| format!("{}の勝ち", kif_side(c));
    // A foul of `l`: the KIF word is relative to the side to move.
    let foul = |l: Color| {
        if l == next {
            ("反則負け", format!("{}の反則負け", kif_side(l)))
        } else {
            ("反則勝ち", format!("{}の反則勝ち", kif_side(next)))
        }
    };
    match (record.end.reason, winner) {
        (Reason::Mate, Some(w)) => ("詰み", wins(w)),
        (Reason::Resign, Some(w)) => ("投了", wins(w)),
        (Reason::Declaration, Some(w)) => ("入玉勝ち", format!("{}の入玉勝ち", kif_side(w))),
        (Reason::Repetition, _) => ("千日手", "千日手".to_string()),
        (Reason::MaxPlies, _) => ("持将棋", "持将棋".to_string()),
        (Reason::Time, Some(w)) => ("切れ負け", format!("時間切れにより{}の勝ち", kif_side(w))),
        (
            Reason::IllegalDeclaration
            | Reason::IllegalMove
            | Reason::PerpetualCheck
            | Reason::Crash
            | Reason::NoResponse,
            Some(w),
        ) => foul(!w),
        _ => ("中断", "中断".to_string()),
    }
}

/// A KIF record (UTF-8, `.kifu`).
pub fn write_kif(
    w: &mut impl Write,
    info: &GameInfo,
    record: &GameRecord,
    limits: &ByColor<Limits>,
) -> io::Result<()> {
    write!(w, "\u{feff}")?;
    writeln!(w, "#KIF version=2.0 encoding=UTF-8")?;
    writeln!(
        w,
        "#saikoro match, game {}, round {}",
        info.number, info.round
    )?;
    writeln!(w, "#opening: {}", opening_text(record))?;
    writeln!(w, "#{}", time_comment(limits))?;
    writeln!(w, "開始日時：{}", format_time(record.started))?;
    writeln!(w, "終了日時：{}", format_time(record.ended))?;
    writeln!(w, "棋戦：saikoro match")?;
    let start = &record.opening.start;
    if start.to_sfen() == STARTPOS_SFEN {
        writeln!(w, "手合割：平手")?;
    } else {
        kif_board(w, start)?;
    }
    writeln!(w, "先手：{}", info.black)?;
    writeln!(w, "後手：{}", info.white)?;
    writeln!(w, "手数----指手---------消費時間--")?;
    let mut pos = start.clone();
    let mut total: ByColor<u64> = ByColor([0, 0]);
    let mut prev_to = None;
    let times = std::iter::repeat_n(0, record.opening.moves.len())
        .chain(record.moves.iter().map(|m| m.time_ms));
    for (i, (mv, t)) in record.all_moves().zip(times).enumerate() {
        let side = pos.side_to_move();
        total[side] += t;
        let text = kif_move(&pos, mv, prev_to);
        let width: usize = text.chars().count();
        let pad = match mv {
            Move::Normal { .. } if width == 7 => "  ",
            Move::Normal { .. } => "",
            Move::Drop { .. } => "    ",
        };
        writeln!(
            w,
            "{:>4} {text}{pad} ({}/{})",
            i + 1,
            mss(t),
            hhmmss(total[side])
        )?;
        prev_to = Some(mv.to());
        pos.do_move(mv);
    }
    let n = record.total_plies();
    let next = pos.side_to_move();
    let (special, summary) = kif_end(record, next);
    let pad = " ".repeat(12usize.saturating_sub(special.chars().count() * 2));
    writeln!(
        w,
        "{:>4} {special}{pad} ({}/{})",
        n + 1,
        mss(0),
        hhmmss(total[next])
    )?;
    match &record.end.illegal_move {
        Some(t) => writeln!(w, "*{} (illegal move: {t})", record.end.detail)?,
        None => writeln!(w, "*{}", record.end.detail)?,
    }
    writeln!(w, "まで{n}手で{summary}")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::game::book::Opening;
    use crate::tournament::game::result::{End, PlayedMove};
    use std::time::{Duration, UNIX_EPOCH};

    fn game(start: Position, moves: &[&str], end: End) -> GameRecord {
        let t = UNIX_EPOCH + Duration::from_secs(1_764_500_000);
        GameRecord {
            opening: Opening {
                line: 0,
                start,
                moves: Vec::new(),
            },
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, m)| PlayedMove {
                    mv: Move::from_usi(m).unwrap(),
                    time_ms: 1500 * i as u64,
                    score: None,
                    depth: None,
                    nodes: None,
                })
                .collect(),
            end,
            time_used: ByColor([0, 0]),
            started: t,
            ended: t,
        }
    }

    fn info() -> GameInfo {
        GameInfo {
            number: 3,
            round: 2,
            black: "new".into(),
            white: "old".into(),
            repeats: None,
        }
    }

    fn end(result: Decision, reason: Reason, detail: &str) -> End {
        End {
            result,
            reason,
            detail: detail.into(),
            illegal_move: None,
            failed: None,
            stderr: Vec::new(),
        }
    }

    fn depth1() -> ByColor<Limits> {
        let l = Limits::from_words(None, None, None, None, Some("1")).unwrap();
        ByColor([l, l])
    }

    /// Checked by hand against ShogiHome's KIF export (tsshogi `exportKIF`): the 角 exchange
    /// with `同　`, a promotion, a drop, and the resignation.
    #[test]
    fn kif_of_a_short_game() {
        let g = game(
            Position::startpos(),
            &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"],
            end(Decision::Win(Color::Black), Reason::Resign, "White resigns"),
        );
        let mut out = Vec::new();
        write_kif(&mut out, &info(), &g, &depth1()).unwrap();
        let text = String::from_utf8(out).unwrap();
        let body = text.split_once("棋戦：saikoro match\n").unwrap().1;
        assert_eq!(
            body,
            "手合割：平手\n先手：new\n後手：old\n手数----指手---------消費時間--\n\
             \u{20}  1 ７六歩(77)   ( 0:00/00:00:00)\n\
             \u{20}  2 ３四歩(33)   ( 0:01/00:00:01)\n\
             \u{20}  3 ２二角成(88) ( 0:03/00:00:03)\n\
             \u{20}  4 同\u{3000}銀(31)   ( 0:04/00:00:06)\n\
             \u{20}  5 ４五角打     ( 0:06/00:00:09)\n\
             \u{20}  6 投了         ( 0:00/00:00:06)\n\
             *White resigns\n\
             まで5手で先手の勝ち\n"
        );
        assert!(text.starts_with("\u{feff}#KIF version=2.0 encoding=UTF-8\n"));
        assert!(text.contains("開始日時：2025/11/30 10:53:20\n"), "{text}");
    }

    #[test]
    fn kif_board_for_other_starts_and_fouls() {
        let start = Position::from_sfen("8k/9/9/9/9/9/9/9/K8 w G2P 1").unwrap();
        let mut g = game(
            start,
            &[],
            end(
                Decision::Win(Color::Black),
                Reason::IllegalMove,
                "White's illegal move 1a1b",
            ),
        );
        g.end.illegal_move = Some("1a1b".into());
        let mut out = Vec::new();
        write_kif(&mut out, &info(), &g, &depth1()).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("後手の持駒：なし\n"), "{text}");
        assert!(text.contains("| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n"), "{text}");
        assert!(
            text.contains("先手の持駒：金\u{3000}歩二\u{3000}\n後手番\n"),
            "{text}"
        );
        assert!(
            text.contains("   1 反則負け     ( 0:00/00:00:00)\n"),
            "{text}"
        );
        assert!(text.ends_with("まで0手で後手の反則負け\n"), "{text}");
    }

    #[test]
    fn csa_end_lines() {
        let cases = [
            (Decision::Win(Color::White), Reason::Mate, "%TSUMI"),
            (
                Decision::Win(Color::Black),
                Reason::IllegalMove,
                "%-ILLEGAL_ACTION",
            ),
            (
                Decision::Win(Color::White),
                Reason::PerpetualCheck,
                "%+ILLEGAL_ACTION",
            ),
            (Decision::Draw, Reason::Repetition, "%SENNICHITE"),
            (Decision::Draw, Reason::MaxPlies, "%HIKIWAKE"),
            (Decision::Win(Color::Black), Reason::Time, "%TIME_UP"),
            (Decision::None, Reason::Interrupted, "%CHUDAN"),
        ];
        for (result, reason, line) in cases {
            let g = game(Position::startpos(), &[], end(result, reason, "x"));
            assert_eq!(csa_end(&g), line, "{reason}");
        }
        let g = game(
            Position::startpos(),
            &["7g7f", "3c3d"],
            end(Decision::Win(Color::White), Reason::Resign, "Black resigns"),
        );
        let mut out = Vec::new();
        write_csa(&mut out, &info(), &g, &depth1()).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(
                "PI\n+\n+7776FU\nT0\n-3334FU\nT1\n%TORYO\n'result: 0-1 {Black resigns} (resign)\n"
            ),
            "{text}"
        );
        assert!(text.starts_with("V2.2\nN+new\nN-old\n$EVENT:saikoro match\n"));
    }
}
