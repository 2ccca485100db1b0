//! Writing KIF records as `.kifu` text (UTF-8, the `#KIF version=2.0 encoding=UTF-8` line
//! first), in the layout of ShogiHome's (tsshogi's) KIF export: the header, `手合割：平手` (or
//! another handicap's name) or a board diagram, move lines `   1 ７六歩(77)   ( 0:01/00:00:01)`,
//! `同　` for a capture back on the last square, the end as its word (`投了`, `詰み`, `千日手`,
//! `反則負け`, …), and a `まで…` summary line as Kifu for Windows writes it. The header and
//! position parts are KI2's too.

use crate::japanese::square_text;
use crate::japanese::{
    board_name, hand_text, handicap_name, is_handicap, piece_name, player_name, side_name,
    summary_of_ending, word_of_ending, KANJI_NUMBERS,
};
use crate::Record;
use saikoro_core::{ByColor, Color, Move, PieceType, Position, Square};
use std::fmt::Write as _;

/// A move in KIF: `７六歩(77)`, `同　角成(88)`, `５五角打`. `prev_to` is the last move's
/// destination. The piece is the one before the move; `不成` is not written (KIF's origin
/// square tells the move).
pub fn move_text(pos: &Position, mv: Move, prev_to: Option<Square>) -> String {
    let to = mv.to();
    let mut s = if prev_to == Some(to) {
        "同\u{3000}".to_string()
    } else {
        square_text(to)
    };
    match mv {
        Move::Normal { from, promote, .. } => {
            let kind = pos.piece_at(from).map_or(PieceType::Pawn, |p| p.kind);
            s.push_str(piece_name(kind));
            if promote {
                s.push('成');
            }
            let _ = write!(s, "({}{})", from.file(), from.rank());
        }
        Move::Drop { kind, .. } => {
            s.push_str(piece_name(kind));
            s.push('打');
        }
    }
    s
}

/// A move's time, `m:ss` (whole seconds, rounded down).
fn mss(ms: u64) -> String {
    let s = ms / 1000;
    format!("{:>2}:{:02}", s / 60, s % 60)
}

/// A side's total time, `hh:mm:ss` (rounded down).
fn hhmmss(ms: u64) -> String {
    let s = ms / 1000;
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The header keys that name the players: the position is written before the first of them,
/// as Kifu for Windows does.
const PLAYER_KEYS: [&str; 4] = ["先手", "後手", "下手", "上手"];

/// The header and the start position, as KIF and KI2 write them: the header lines up to the
/// players' names, the `手合割` line (a handicap of the table) or a board diagram, then the
/// names and the other lines.
pub(crate) fn write_preamble(out: &mut String, record: &Record) {
    let split = record
        .header
        .iter()
        .position(|(k, _)| PLAYER_KEYS.contains(&k.as_str()))
        .unwrap_or(record.header.len());
    // In a handicap game the players are 下手 and 上手, as Kifu for Windows writes them.
    let handicap = is_handicap(&record.start);
    let line = |out: &mut String, (k, v): &(String, String)| {
        let k = match k.as_str() {
            "先手" | "下手" => player_name(Color::Black, handicap),
            "後手" | "上手" => player_name(Color::White, handicap),
            other => other,
        };
        let _ = writeln!(out, "{k}：{v}");
    };
    for entry in &record.header[..split] {
        line(out, entry);
    }
    match handicap_name(&record.start) {
        Some(name) => {
            let _ = writeln!(out, "手合割：{name}");
        }
        None => write_board(out, &record.start),
    }
    for entry in &record.header[split..] {
        line(out, entry);
    }
}

/// The board diagram (BOD) of a position: hands, the nine rows, the side to move.
fn write_board(out: &mut String, pos: &Position) {
    let _ = writeln!(out, "後手の持駒：{}", hand_text(pos.hand(Color::White)));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            let sq = Square::new(file, rank).expect("on the board");
            match pos.piece_at(sq) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color == Color::Black { ' ' } else { 'v' });
                    out.push_str(board_name(p.kind));
                }
            }
        }
        let _ = writeln!(out, "|{}", KANJI_NUMBERS[rank as usize - 1]);
    }
    out.push_str("+---------------------------+\n");
    let _ = writeln!(out, "先手の持駒：{}", hand_text(pos.hand(Color::Black)));
    let _ = writeln!(out, "{}番", side_name(pos.side_to_move()));
}

/// `*` comment lines.
pub(crate) fn write_comments(out: &mut String, comments: &[String]) {
    for c in comments {
        let _ = writeln!(out, "*{c}");
    }
}

/// The width of `s` in columns, full-width characters counting two.
fn columns(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// Writes a whole KIF record: the version line, the header and start, the record's comments,
/// one line per move with its comments, the end word with its comments, and the `まで…` line.
/// Times (the move's and the mover's total) are written on every line when any move has one
/// (a move without is written as 0:00) or there is no move (the end line then says 0:00, as
/// tsshogi writes it), else on none.
pub fn write(record: &Record) -> String {
    write_with_notes(record, &[])
}

/// [`write()`] with `#` lines after the version line (notes that readers skip).
pub fn write_with_notes(record: &Record, notes: &[String]) -> String {
    let mut out = String::with_capacity(64 * (record.moves.len() + 20));
    out.push_str("#KIF version=2.0 encoding=UTF-8\n");
    for n in notes {
        let _ = writeln!(out, "#{n}");
    }
    write_preamble(&mut out, record);
    out.push_str("手数----指手---------消費時間--\n");
    write_comments(&mut out, &record.comments);
    let timed = record.moves.is_empty() || record.moves.iter().any(|m| m.time_ms.is_some());
    let mut pos = record.start.clone();
    let mut total = ByColor([0u64; 2]);
    let mut prev_to = None;
    let mut time_column = |out: &mut String, side: Color, ms: u64| {
        if timed {
            total[side] += ms;
            let _ = write!(out, " ({}/{})", mss(ms), hhmmss(total[side]));
        }
    };
    for (i, m) in record.moves.iter().enumerate() {
        let side = pos.side_to_move();
        let text = move_text(&pos, m.mv, prev_to);
        let _ = write!(out, "{:>4} {text}", i + 1);
        if timed {
            out.push_str(&" ".repeat(12usize.saturating_sub(columns(&text))));
        }
        time_column(&mut out, side, m.time_ms.unwrap_or(0));
        out.push('\n');
        write_comments(&mut out, &m.comments);
        prev_to = Some(m.mv.to());
        pos.do_move(m.mv);
    }
    if let Some(end) = record.end {
        let next = pos.side_to_move();
        let word = word_of_ending(end, next);
        let _ = write!(out, "{:>4} {word}", record.moves.len() + 1);
        if timed {
            out.push_str(&" ".repeat(12usize.saturating_sub(columns(word))));
        }
        time_column(&mut out, next, 0);
        out.push('\n');
        write_comments(&mut out, &record.end_comments);
        let _ = writeln!(
            out,
            "まで{}手で{}",
            record.moves.len(),
            summary_of_ending(end, next, false, is_handicap(&record.start))
        );
    }
    out
}
