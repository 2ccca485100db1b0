//! Writing KI2 records in the layout of ShogiHome's (tsshogi's) KI2 export: the header and start
//! as KIF writes them, then the moves six a line (`▲７六歩    △３四歩    ▲２二角成  △同　銀`,
//! each padded to twelve columns), a comment or bookmark on lines of its own after its move,
//! the end as the `まで…` line; then the variations as KIF writes them, each a block
//! `変化：N手` after a blank line (no `+`, no times: KI2 has neither).

use crate::japanese::side_mark;
use crate::japanese::{is_handicap, summary_of_ending};
use crate::kif::{write_bookmark, write_comments, write_preamble};
use crate::tree::{LineView, Node};
use crate::Record;
use saikoro_core::{Move, Position, Square, Undo};
use std::fmt::Write as _;

/// How many moves a line holds.
const MOVES_PER_LINE: usize = 6;

/// Writes a whole KI2 record: the file's `#` comments, the header and start, the start's comment
/// and bookmark, the main line (its moves with their comments and bookmarks, and the `まで…`
/// line of its end with the end's), then the variations (times are not written: KI2 has none).
pub fn write(record: &Record) -> String {
    let mut w = Moves {
        out: String::with_capacity(16 * (record.moves.len() + 40)),
        in_line: 0,
        last_len: 0,
        handicap: is_handicap(&record.start),
    };
    for c in &record.file_comments {
        let _ = writeln!(w.out, "#{c}");
    }
    write_preamble(&mut w.out, record);
    write_comments(&mut w.out, &record.comments);
    write_bookmark(&mut w.out, record.bookmark.as_deref());
    let mut pos = record.start.clone();
    w.line(record.main_line(), &mut pos, 1, None);
    w.end_line();
    w.out
}

/// The moves being written, six a line.
struct Moves {
    out: String,
    /// How many moves the open line holds.
    in_line: usize,
    /// The length in characters of the last move written.
    last_len: usize,
    handicap: bool,
}

impl Moves {
    /// Ends the line of moves, if one is open.
    fn end_line(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
        self.in_line = 0;
    }

    /// A move's text, after the last one on its line or on a new line.
    fn push(&mut self, text: &str) {
        if self.out.ends_with('\n') || self.out.is_empty() {
            self.in_line = 0;
        } else {
            self.out
                .push_str(&" ".repeat(12usize.saturating_sub(self.last_len * 2)));
        }
        self.out.push_str(text);
        self.last_len = text.chars().count();
        self.in_line += 1;
        if self.in_line >= MOVES_PER_LINE {
            self.end_line();
        }
    }

    /// A node's comment and bookmark, on lines of their own.
    fn notes(&mut self, node: Node<'_>) {
        if !node.comments().is_empty() || node.bookmark().is_some() {
            self.end_line();
            write_comments(&mut self.out, node.comments());
            write_bookmark(&mut self.out, node.bookmark());
        }
    }

    /// A line from `pos` (at its branch point, where it is left), its first node at move `ply`
    /// after a move to `last_to`: its nodes, then the variations that branch from them, the
    /// last node's first.
    fn line(
        &mut self,
        line: LineView<'_>,
        pos: &mut Position,
        ply: usize,
        last_to: Option<Square>,
    ) {
        let mut to = last_to;
        let mut before = Vec::with_capacity(line.len());
        let mut played: Vec<(Move, Undo)> = Vec::with_capacity(line.moves.len());
        for node in line.nodes() {
            before.push(to);
            match node {
                Node::Move(m) => {
                    let legal = pos.legal_moves();
                    let text = super::notation::write_with(pos, &legal, m.mv, to);
                    self.push(&format!("{}{text}", side_mark(pos.side_to_move())));
                    played.push((m.mv, pos.do_move(m.mv)));
                    to = Some(m.mv.to());
                }
                Node::End(e) => {
                    self.end_line();
                    let next = pos.side_to_move();
                    let summary = summary_of_ending(e.ending, next, true, self.handicap);
                    let _ = writeln!(self.out, "まで{}手で{summary}", ply + played.len() - 1);
                }
            }
            self.notes(node);
        }
        for (i, node) in line.nodes_back() {
            if i < line.moves.len() {
                let (mv, undo) = played.pop().expect("a move played for each");
                pos.undo_move(mv, undo);
            }
            for alt in node.alternatives() {
                self.end_line();
                let _ = write!(self.out, "\n変化：{}手\n", ply + i);
                self.line(alt.view(), pos, ply + i, before[i]);
            }
        }
    }
}
