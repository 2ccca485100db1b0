//! Writing KIF records as `.kifu` (UTF-8 with the `#KIF version=2.0 encoding=UTF-8` line), in
//! the layout of ShogiHome's (tsshogi's) KIF export: `手合割：平手` or a board diagram, move
//! lines `   1 ７六歩(77)   ( 0:01/00:00:01)`, `同　` for a capture back on the last square,
//! the end as its word (`投了`, `詰み`, `千日手`, `反則負け`, …), and a `まで…` summary line as
//! Kifu for Windows writes it.

use crate::record::japanese::{board_name, piece_name, side_name, End, KANJI_NUMBERS, WIDE_DIGITS};
use crate::{ByColor, Color, Move, PieceType, Position, Square, STARTPOS_SFEN};
use std::io::{self, Write};
use std::time::Duration;

/// Header data of a KIF record. Every field but the names is optional.
#[derive(Clone, Debug, Default)]
pub struct KifInfo {
    /// Comment lines after the version line (without the leading `#`).
    pub comments: Vec<String>,
    /// `開始日時`, as `YYYY/MM/DD HH:MM:SS`.
    pub start_time: Option<String>,
    /// `終了日時`.
    pub end_time: Option<String>,
    /// `棋戦`.
    pub event: Option<String>,
    /// `先手` and `後手`.
    pub names: ByColor<String>,
    /// Comment lines after the end word (without the leading `*`).
    pub trailer: Vec<String>,
}

/// A move in KIF: `７六歩(77)`, `同　角成(88)`, `５五角打`. `prev_to` is the last move's
/// destination. The piece is the one before the move.
pub fn move_text(pos: &Position, mv: Move, prev_to: Option<Square>) -> String {
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
            s.push_str(piece_name(kind));
            if promote {
                s.push('成');
            }
            s.push_str(&format!("({}{})", from.file(), from.rank()));
        }
        Move::Drop { kind, .. } => {
            s.push_str(piece_name(kind));
            s.push('打');
        }
    }
    s
}

/// A move's time, `m:ss` (whole seconds, rounded down).
fn mss(t: Duration) -> String {
    let s = t.as_secs();
    format!("{:>2}:{:02}", s / 60, s % 60)
}

/// A side's total time, `hh:mm:ss`.
fn hhmmss(t: Duration) -> String {
    let s = t.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// A hand line's pieces (`飛　金二　歩十八　`), or `なし`.
fn hand_text(pos: &Position, color: Color) -> String {
    let hand = pos.hand(color);
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

/// The board diagram (BOD) of a start position: hands, the nine rows, the side to move.
fn write_board(w: &mut impl Write, pos: &Position) -> io::Result<()> {
    writeln!(w, "後手の持駒：{}", hand_text(pos, Color::White))?;
    writeln!(w, "  ９ ８ ７ ６ ５ ４ ３ ２ １")?;
    writeln!(w, "+---------------------------+")?;
    for rank in 1..=9u8 {
        let mut row = String::from("|");
        for file in (1..=9u8).rev() {
            let sq = Square::new(file, rank).expect("on the board");
            match pos.piece_at(sq) {
                None => row.push_str(" ・"),
                Some(p) => {
                    row.push(if p.color == Color::Black { ' ' } else { 'v' });
                    row.push_str(board_name(p.kind));
                }
            }
        }
        writeln!(w, "{row}|{}", KANJI_NUMBERS[rank as usize - 1])?;
    }
    writeln!(w, "+---------------------------+")?;
    writeln!(w, "先手の持駒：{}", hand_text(pos, Color::Black))?;
    writeln!(w, "{}番", side_name(pos.side_to_move()))
}

/// The tail of the `まで…` line for `end` with `next` to move at the end: who won and how.
/// `winner` names the winner where the word does not (`投了`, `詰み`, `切れ負け`, `入玉勝ち`);
/// without it, the side the word makes the winner.
fn summary(end: End, winner: Option<Color>, next: Color) -> String {
    let won = winner.unwrap_or(match end {
        End::EnteringKing | End::FoulWin | End::DefaultWin => next,
        _ => !next,
    });
    match end {
        End::Mate | End::Resign => format!("{}の勝ち", side_name(won)),
        End::EnteringKing => format!("{}の入玉勝ち", side_name(won)),
        End::TimeUp => format!("時間切れにより{}の勝ち", side_name(won)),
        End::FoulLoss => format!("{}の反則負け", side_name(next)),
        End::FoulWin => format!("{}の反則勝ち", side_name(next)),
        other => other.word().to_string(),
    }
}

/// Writes a whole KIF record (UTF-8, `.kifu`): the BOM and version line, the header, the start
/// (`手合割：平手`, or a board diagram), one line per move with its time (`moves`: each with
/// the time it took), the end word with the trailer comments, and the `まで…` line (`winner`:
/// see `summary`). The moves must be legal from `start`.
pub fn write_record(
    w: &mut impl Write,
    info: &KifInfo,
    start: &Position,
    moves: &[(Move, Duration)],
    end: End,
    winner: Option<Color>,
) -> io::Result<()> {
    write_header(w, info, start)?;
    let mut pos = start.clone();
    let mut total = ByColor([Duration::ZERO; 2]);
    let mut prev_to = None;
    for (i, &(mv, t)) in moves.iter().enumerate() {
        let side = pos.side_to_move();
        total[side] += t;
        let text = move_text(&pos, mv, prev_to);
        let width: usize = text.chars().count();
        let pad = match mv {
            Move::Normal { .. } if width == 7 => "  ",
            Move::Normal { .. } => "",
            Move::Drop { .. } => "    ",
        };
        let (t, sum) = (mss(t), hhmmss(total[side]));
        writeln!(w, "{:>4} {text}{pad} ({t}/{sum})", i + 1)?;
        prev_to = Some(mv.to());
        pos.do_move(mv);
    }
    let n = moves.len();
    let next = pos.side_to_move();
    let word = end.word();
    let pad = " ".repeat(12usize.saturating_sub(word.chars().count() * 2));
    let (t, sum) = (mss(Duration::ZERO), hhmmss(total[next]));
    writeln!(w, "{:>4} {word}{pad} ({t}/{sum})", n + 1)?;
    for c in &info.trailer {
        writeln!(w, "*{c}")?;
    }
    writeln!(w, "まで{n}手で{}", summary(end, winner, next))
}

/// Everything before the first move line.
fn write_header(w: &mut impl Write, info: &KifInfo, start: &Position) -> io::Result<()> {
    write!(w, "\u{feff}")?;
    writeln!(w, "#KIF version=2.0 encoding=UTF-8")?;
    for c in &info.comments {
        writeln!(w, "#{c}")?;
    }
    for (key, value) in [
        ("開始日時", &info.start_time),
        ("終了日時", &info.end_time),
        ("棋戦", &info.event),
    ] {
        if let Some(v) = value {
            writeln!(w, "{key}：{v}")?;
        }
    }
    if start.to_sfen() == STARTPOS_SFEN {
        writeln!(w, "手合割：平手")?;
    } else {
        write_board(w, start)?;
    }
    writeln!(w, "先手：{}", info.names[Color::Black])?;
    writeln!(w, "後手：{}", info.names[Color::White])?;
    writeln!(w, "手数----指手---------消費時間--")
}
