//! Reading KIF records: the text KIF and KI2 share is read by [`crate::kifu`]; here
//! are KIF's move lines (`   1 ７六歩(77)   ( 0:01/00:00:01)`, `   4 同　銀(31)`, `   5 ４五角打`,
//! an end word `   6 投了`), each move's piece checked against the board and the move by the
//! rules.

use crate::japanese::{
    digit, ending_of_word, piece_at_start, piece_name, side_mark, square_text, SIDE_MARKS,
};
use crate::kifu::{move_number, read_text, Reader, Syntax};
use crate::{Record, RecordError};
use saikoro_core::{Color, Move, Square};

/// Reads a KIF text (already decoded) into its record: one game a text. A text with only a
/// position (`手合割` or a board diagram) or the moves' heading and no moves is a game of no
/// moves; a text with neither and no move is no record (`RecordError { line: 0, .. }`).
pub fn read_records(text: &str) -> Result<Vec<Record>, RecordError> {
    read_text(text, Syntax::Kif, move_line).map(|r| vec![r])
}

/// A KIF move line.
fn move_line(r: &mut Reader, line: &str) -> Result<(), String> {
    let (number, rest) = move_number(line).ok_or_else(|| format!("'{line}' is not a move line"))?;
    kif_move_line(r, number, rest)
}

/// KIF move line `number` (the text after the number): a move played, or the end word, with
/// its time. The first move after a `変化：N手` line must be numbered N; a number below the
/// next one without that line begins a variation at that number all the same, as tsshogi
/// reads it (ShogiGUI's and hand-made files).
fn kif_move_line(r: &mut Reader, number: usize, rest: &str) -> Result<(), String> {
    let text = rest.trim_matches([' ', '\u{3000}']);
    if let Some(n) = r.variation.take() {
        if number != n {
            return Err(format!(
                "変化：{n}手 but its first move is numbered {number}"
            ));
        }
    } else if number <= r.tree()?.ply() {
        r.tree()?.branch(number)?;
    }
    let tree = r.tree()?;
    let next = tree.ply() + 1;
    if tree.at_end() && number == next {
        return Err(format!("'{number} {text}': a move after the end"));
    }
    if number != next {
        return Err(format!("move number {number} where {next} was expected"));
    }
    let side = tree.position().side_to_move();
    let text = text.trim_start_matches(|c: char| SIDE_MARKS.iter().any(|&(m, _)| m == c));
    let word = text.split([' ', '\u{3000}', '(']).next().unwrap_or("");
    // A `+` (a later alternative follows) may be glued to an end word with no time after it.
    let word = word.trim_end_matches('+');
    let after_word = text[word.len()..].trim_start_matches([' ', '\u{3000}']);
    if ending_of_word(word, side).is_some() {
        let time = kif_time(after_word).map_err(|e| format!("{word}: {e}"))?;
        return r.end_with(word, time).map(|_| ());
    }
    let (mv, shown, after) = kif_move(r, text, side)?;
    let time = kif_time(after).map_err(|e| format!("{shown}: {e}"))?;
    r.tree()?.play(mv, &shown, time)
}

/// The move of a KIF move text (`７六歩(77)`, `同　銀(31)`, `４五角打`, `３三桂不成(45)`),
/// its text with the side mark for errors, and what follows it (the time).
fn kif_move<'t>(
    r: &mut Reader,
    text: &'t str,
    side: Color,
) -> Result<(Move, String, &'t str), String> {
    let word = text.split(' ').next().unwrap_or(text);
    let bad = || format!("'{word}' is not a KIF move");
    let (to, rest) = if let Some(after) = text.strip_prefix('同') {
        let to = r
            .tree()?
            .last_to()
            .ok_or_else(|| format!("'{word}': 同 with no move before it"))?;
        (to, after.trim_start_matches([' ', '\u{3000}']))
    } else {
        let mut cs = text.chars();
        let f = cs.next().and_then(digit).ok_or_else(bad)?;
        let rank = cs.next().and_then(digit).ok_or_else(bad)?;
        (Square::new(f, rank).ok_or_else(bad)?, cs.as_str())
    };
    let (kind, len) = piece_at_start(rest).ok_or_else(bad)?;
    let mut rest = &rest[len..];
    let (mut promote, mut drop) = (false, false);
    if let Some(tail) = rest
        .strip_prefix("不成")
        .or_else(|| rest.strip_prefix('生'))
    {
        rest = tail;
    } else if let Some(tail) = rest.strip_prefix('成') {
        promote = true;
        rest = tail;
    } else if let Some(tail) = rest.strip_prefix('打') {
        drop = true;
        rest = tail;
    }
    let from = match rest.strip_prefix('(') {
        Some(tail) if !drop => {
            let mut cs = tail.chars();
            let f = cs.next().and_then(digit).ok_or_else(bad)?;
            let rk = cs.next().and_then(digit).ok_or_else(bad)?;
            rest = cs.as_str().strip_prefix(')').ok_or_else(bad)?;
            Some(Square::new(f, rk).ok_or_else(bad)?)
        }
        _ => None,
    };
    let shown = format!("{}{}", side_mark(side), &text[..text.len() - rest.len()]);
    let pos = r.tree()?.position();
    let mv = match from {
        None if drop => Move::Drop { kind, to },
        None => return Err(format!("{shown}: no origin square and no 打")),
        Some(from) => {
            match pos.piece_at(from) {
                Some(p) if p.color == side && p.kind == kind => {}
                Some(p) if p.color == side => {
                    return Err(format!(
                        "{shown}: the piece on {} is {}, not {}",
                        square_text(from),
                        piece_name(p.kind),
                        piece_name(kind)
                    ))
                }
                _ => {
                    return Err(format!(
                        "{shown}: no {} of the side to move on {}",
                        piece_name(kind),
                        square_text(from)
                    ))
                }
            }
            Move::Normal { from, to, promote }
        }
    };
    Ok((mv, shown, rest))
}

/// The move's time in what follows a KIF move (`   ( 0:01/00:00:01)`, `+` for a branch):
/// `None` when there is none.
fn kif_time(after: &str) -> Result<Option<u64>, String> {
    let t = after.trim_matches([' ', '\u{3000}', '+']);
    if t.is_empty() {
        return Ok(None);
    }
    let bad = || format!("'{t}' is not a time ( m:ss/hh:mm:ss)");
    let inner = t
        .strip_prefix('(')
        .and_then(|r| r.trim_end_matches([' ', '+']).strip_suffix(')'))
        .ok_or_else(bad)?;
    let (mine, _total) = inner.split_once('/').ok_or_else(bad)?;
    let (m, s) = mine.trim().split_once(':').ok_or_else(bad)?;
    let m: u64 = m.trim().parse().map_err(|_| bad())?;
    let s: u64 = s.trim().parse().map_err(|_| bad())?;
    if s >= 60 || m > 1_000_000 {
        return Err(bad());
    }
    Ok(Some((m * 60 + s) * 1000))
}
