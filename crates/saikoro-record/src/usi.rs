//! The one-line forms: a USI `position` command (`position startpos moves 7g7f 3c3d`,
//! `position sfen <SFEN> moves …`, with or without the word `position`) or a bare SFEN, one
//! game a line, read into [`Record`]s and written from them.
//!
//! Writing [`Format::Usi`](crate::Format::Usi) gives the `position` command of the whole
//! game (what an engine is sent to reach its last position); writing
//! [`Format::Sfen`](crate::Format::Sfen) gives the SFEN of the position at the end of the
//! game, with no moves: the position, not the game (the moves are lost).

use crate::{Record, RecordError, RecordMove};
use saikoro_core::{Move, Position};

/// One line's game; `n` is its number, for errors.
fn read_line(line: &str, n: usize) -> Result<Record, RecordError> {
    let err = |reason: String| RecordError::at(n, reason);
    let body = line.strip_prefix("position").map_or(line, str::trim_start);
    let (start_text, moves_text) = match body.split_once(" moves") {
        Some((s, m)) if m.is_empty() || m.starts_with(' ') => (s.trim(), Some(m.trim())),
        _ if body == "moves" || body.starts_with("moves ") => ("", Some(&body[5..])),
        _ => (body.trim(), None),
    };
    let start = if start_text == "startpos" {
        Position::startpos()
    } else {
        let sfen = start_text
            .strip_prefix("sfen")
            .map_or(start_text, str::trim);
        if sfen.is_empty() {
            return Err(err(format!(
                "'{line}' is neither startpos, sfen <SFEN> nor an SFEN"
            )));
        }
        Position::from_sfen_lenient(sfen).map_err(|e| err(format!("bad SFEN '{sfen}': {e}")))?
    };
    let mut record = Record::new(start);
    let mut pos = record.start.clone();
    for (i, m) in moves_text
        .unwrap_or("")
        .split_ascii_whitespace()
        .enumerate()
    {
        let mv = Move::from_usi(m)
            .map_err(|_| err(format!("move {} '{m}' is not a USI move", i + 1)))?;
        pos.is_legal(mv)
            .map_err(|e| err(format!("move {} '{m}' is illegal: {e}", i + 1)))?;
        pos.do_move(mv);
        record.moves.push(RecordMove::new(mv));
    }
    Ok(record)
}

/// Every game of a text of USI `position` lines or SFEN lines, one a line (blank lines and
/// lines starting with `#` are skipped), every move checked by the rules. A text with no line
/// is an error.
pub fn read_records(text: &str) -> Result<Vec<Record>, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        out.push(read_line(t, i + 1)?);
    }
    if out.is_empty() {
        return Err(RecordError::at(0, "no position line in the text"));
    }
    Ok(out)
}

/// The game as one USI `position` command line: `position startpos moves 7g7f 3c3d`, or
/// `position sfen <SFEN> moves …` for another start.
pub fn write(record: &Record) -> String {
    let mut out = if record.start == Position::startpos() {
        "position startpos".to_string()
    } else {
        format!("position sfen {}", record.start.to_sfen())
    };
    if !record.moves.is_empty() {
        out.push_str(" moves");
        for m in &record.moves {
            out.push(' ');
            out.push_str(m.mv.usi().as_str());
        }
    }
    out.push('\n');
    out
}

/// The SFEN of the position at the end of the game, as one line.
pub fn write_sfen(record: &Record) -> String {
    format!("{}\n", record.position_at(record.moves.len()).to_sfen())
}
