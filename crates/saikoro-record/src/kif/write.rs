//! Writing KIF records (the `#KIF version=2.0 encoding=…` line first, naming the encoding the
//! text will be written in), in the layout of ShogiHome's (tsshogi's) KIF export: the file's
//! `#` comments, the header, `手合割：平手` (or another handicap's name) or a board diagram,
//! move lines `   1 ７六歩(77)   ( 0:01/00:00:01)`, `同　` for a capture back on the last
//! square, `+` on a move that has a later alternative, the end as its word (`投了`, `詰み`,
//! `千日手`, `反則負け`, …) and a `まで…` summary line after it as Kifu for Windows writes it;
//! then the variations, each a block `変化：N手`, depth-first (after a line, the variations
//! that branch from it, the deepest branch point first; a variation's own right after it).
//! The header and position parts are KI2's too.

use crate::encoding::Encoding;
use crate::japanese::square_text;
use crate::japanese::{
    board_name, hand_text, handicap_name, is_handicap, piece_name, player_name, side_name,
    summary_of_ending, word_of_ending, KANJI_NUMBERS,
};
use crate::tree::{LineView, Node};
use crate::Record;
use saikoro_core::{ByColor, Color, Move, PieceType, Position, Square, Undo};
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

/// Writes a whole KIF record as UTF-8 text ([`write_in`] with [`Encoding::Utf8`]).
pub fn write(record: &Record) -> String {
    write_in(record, Encoding::Utf8)
}

/// Writes a whole KIF record, its version line naming `encoding` (the text is still a
/// `String`: [`crate::encoding::encode`] makes the bytes): the file's `#` comments, the header
/// and start, the start's comment and bookmark, the main line (a line per move with its
/// comment and bookmark, the end word, the `まで…` line), then the variations. Times (the
/// move's and the mover's total along the line) are written on every line when any node has
/// one (a node without is written as 0:00) or there is no move (the end line then says 0:00,
/// as tsshogi writes it), else on none; then a `+` (a later alternative follows) goes after a
/// space, for an end word with `+` glued to it would read as another word.
pub fn write_in(record: &Record, encoding: Encoding) -> String {
    let mut out = String::with_capacity(64 * (record.moves.len() + 20));
    let _ = writeln!(out, "#KIF version=2.0 encoding={}", encoding.name());
    for c in &record.file_comments {
        let _ = writeln!(out, "#{c}");
    }
    write_preamble(&mut out, record);
    out.push_str("手数----指手---------消費時間--\n");
    write_comments(&mut out, &record.comments);
    write_bookmark(&mut out, record.bookmark.as_deref());
    let mut w = Lines {
        out,
        timed: record.moves.is_empty() || record.counts().times > 0,
        handicap: is_handicap(&record.start),
    };
    let mut pos = record.start.clone();
    let at = Branch {
        ply: 1,
        prev_to: None,
        totals: ByColor([0; 2]),
    };
    w.line(record.main_line(), &mut pos, at, false);
    w.out
}

/// A `&` bookmark line.
pub(crate) fn write_bookmark(out: &mut String, bookmark: Option<&str>) {
    if let Some(b) = bookmark {
        let _ = writeln!(out, "&{b}");
    }
}

/// Where a line starts: its first node's move number, the last move's destination (for `同`)
/// and each side's time so far.
#[derive(Clone, Copy)]
struct Branch {
    ply: usize,
    prev_to: Option<Square>,
    totals: ByColor<u64>,
}

/// The move lines being written.
struct Lines {
    out: String,
    timed: bool,
    handicap: bool,
}

impl Lines {
    /// The time column of a node of `side` taking `ms`, added to the side's total.
    fn time(&mut self, side: Color, ms: u64, totals: &mut ByColor<u64>) {
        if self.timed {
            totals[side] += ms;
            let _ = write!(self.out, " ({}/{})", mss(ms), hhmmss(totals[side]));
        }
    }

    /// One node's line, `later` when it has a later alternative (`+`), with its comment and
    /// bookmark; an end's with the `まで…` line.
    fn node(&mut self, node: Node<'_>, pos: &Position, at: &mut Branch, later: bool) {
        let side = pos.side_to_move();
        let text = match node {
            Node::Move(m) => move_text(pos, m.mv, at.prev_to),
            Node::End(e) => word_of_ending(e.ending, side).to_string(),
        };
        let _ = write!(self.out, "{:>4} {text}", at.ply);
        if self.timed {
            self.out
                .push_str(&" ".repeat(12usize.saturating_sub(columns(&text))));
        }
        self.time(side, node.time_ms().unwrap_or(0), &mut at.totals);
        match (later, self.timed) {
            (true, true) => self.out.push('+'),
            (true, false) => self.out.push_str(" +"),
            (false, _) => {}
        }
        self.out.push('\n');
        write_comments(&mut self.out, node.comments());
        write_bookmark(&mut self.out, node.bookmark());
        if let Node::End(e) = node {
            let summary = summary_of_ending(e.ending, side, false, self.handicap);
            let _ = writeln!(self.out, "まで{}手で{summary}", at.ply - 1);
        }
    }

    /// A line from `pos` (at its branch point, where it is left): its nodes, then the
    /// variations that branch from them, the last node's first. `first_later` when the line's
    /// first node has a later alternative beside it.
    fn line(&mut self, line: LineView<'_>, pos: &mut Position, start: Branch, first_later: bool) {
        let mut at = start;
        let mut before: Vec<Branch> = Vec::with_capacity(line.len());
        let mut played: Vec<(Move, Undo)> = Vec::with_capacity(line.moves.len());
        for (i, node) in line.nodes().enumerate() {
            before.push(at);
            let later = !node.alternatives().is_empty() || (i == 0 && first_later);
            self.node(node, pos, &mut at, later);
            if let Node::Move(m) = node {
                played.push((m.mv, pos.do_move(m.mv)));
                at.prev_to = Some(m.mv.to());
            }
            at.ply += 1;
        }
        for (i, node) in line.nodes_back() {
            if i < line.moves.len() {
                let (mv, undo) = played.pop().expect("a move played for each");
                pos.undo_move(mv, undo);
            }
            let alts = node.alternatives();
            for (k, alt) in alts.iter().enumerate() {
                let _ = write!(self.out, "\n変化：{}手\n", before[i].ply);
                self.line(alt.view(), pos, before[i], k + 1 < alts.len());
            }
        }
    }
}
