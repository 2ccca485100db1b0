//! Writing KI2 records in the layout of ShogiHome's (tsshogi's) KI2 export: the header and start
//! as KIF writes them, then the moves six a line (`▲７六歩    △３四歩    ▲２二角成  △同　銀`,
//! each padded to twelve columns), a comment on lines of its own after its move, and the end as
//! the `まで…` line.

use crate::japanese::side_mark;
use crate::japanese::{is_handicap, summary_of_ending};
use crate::kif::{write_comments, write_preamble};
use crate::Record;
use std::fmt::Write as _;

/// How many moves a line holds.
const MOVES_PER_LINE: usize = 6;

/// Writes a whole KI2 record: the header and start, the record's comments, the moves with their
/// comments (times are not written: KI2 has none), and the `まで…` line with the end's comments.
pub fn write(record: &Record) -> String {
    let mut out = String::with_capacity(16 * (record.moves.len() + 40));
    write_preamble(&mut out, record);
    write_comments(&mut out, &record.comments);
    let mut pos = record.start.clone();
    let mut last_to = None;
    let (mut in_line, mut last_len) = (0, 0);
    for m in &record.moves {
        let legal = pos.legal_moves();
        let text = format!(
            "{}{}",
            side_mark(pos.side_to_move()),
            super::notation::write_with(&pos, &legal, m.mv, last_to)
        );
        if out.ends_with('\n') {
            in_line = 0;
        } else {
            out.push_str(&" ".repeat(12usize.saturating_sub(last_len * 2)));
        }
        out.push_str(&text);
        last_len = text.chars().count();
        in_line += 1;
        if in_line >= MOVES_PER_LINE {
            out.push('\n');
        }
        if !m.comments.is_empty() {
            end_line(&mut out);
            write_comments(&mut out, &m.comments);
        }
        last_to = Some(m.mv.to());
        pos.do_move(m.mv);
    }
    end_line(&mut out);
    if let Some(end) = record.end {
        let _ = writeln!(
            out,
            "まで{}手で{}",
            record.moves.len(),
            summary_of_ending(end, pos.side_to_move(), true, is_handicap(&record.start))
        );
        write_comments(&mut out, &record.end_comments);
    }
    out
}

/// Ends the line of moves, if one is open.
fn end_line(out: &mut String) {
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
}
