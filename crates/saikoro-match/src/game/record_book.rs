//! Openings from game records: KIF, KI2, CSA (several games in one file separated by a `/`
//! line, as Floodgate's archive holds them) and JKF, in UTF-8 or Shift_JIS, all read through
//! the one reader of the record forms ([`saikoro_record::form::read`]), with its errors. Each game
//! is one opening: its start position and the moves of its main line (the first move at every
//! branch: the variations a KIF, KI2 or JKF record holds are read and checked, not played), cut
//! at `plies=N`; a file that holds no game, or a game that breaks the rules in any of its
//! lines, is refused with its file, line and reason. A CSA file's games are read one by one, so
//! that every bad game is named, not only the first.

use saikoro_core::{Game, KingRule, Move, Position};
use saikoro_record::{form, Format, Record, RecordError};
use std::path::Path;

/// A game of a record file as an opening: its start position and its moves (cut).
pub(crate) type RecordOpening = (Position, Vec<Move>);

/// What is wrong with a record file, where (`book` words it as one of its bad lines).
#[derive(Debug)]
pub(crate) struct Fault {
    /// 1-based line number; 0 where there is none to name.
    pub line: usize,
    /// The game's number in a file that holds several, from 1.
    pub game: Option<usize>,
    /// What is wrong.
    pub reason: String,
}

/// Why a record file gives no openings; `book` words it as a `BookError`.
#[derive(Debug)]
pub(crate) enum RecordBookError {
    /// The file cannot be read.
    Read {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// Text that is no record of the form (the reader's errors), and games that cannot be
    /// openings: every one, in file order.
    Bad {
        /// The file.
        file: String,
        /// What is wrong, where.
        lines: Vec<Fault>,
    },
}

/// An opening from `start` and the moves `next` reads (given the position it is played in and
/// its index; `None` when there are no more), cut at `plies`: each move is checked by the rules
/// as it is played, and the game must not be over where the opening ends.
fn opening(
    start: Position,
    plies: Option<usize>,
    mut next: impl FnMut(&Position, usize) -> Option<Result<Move, String>>,
) -> Result<RecordOpening, String> {
    let mut game = Game::new(start.clone());
    let mut played = Vec::new();
    while plies.is_none_or(|n| played.len() < n) {
        let i = played.len();
        let Some(mv) = next(game.position(), i) else {
            break;
        };
        let mv = mv.map_err(|e| format!("move {}: {e}", i + 1))?;
        if game.outcome().is_some() {
            return Err(format!("the game is over before move {}", i + 1));
        }
        game.try_play(mv)
            .map_err(|e| format!("move {} ({mv}) is illegal: {e}", i + 1))?;
        played.push(mv);
    }
    if game.outcome().is_some() {
        return Err("the game is already over where the opening ends".into());
    }
    Ok((start, played))
}

/// The opening of one game: its position must be a game's (a record may hold a tsume
/// problem; a game needs both kings), and its moves must leave the game going.
fn game_opening(record: Record, plies: Option<usize>) -> Result<RecordOpening, String> {
    Position::from_setup(&record.start.to_setup(), KingRule::Required)
        .map_err(|e| format!("not a game's position: {e}"))?;
    let moves = record.moves;
    opening(record.start, plies, |_, i| moves.get(i).map(|m| Ok(m.mv)))
}

/// A reader's error as a bad line of the file, its line moved on by `offset` (the lines
/// before the text it read).
fn reader_fault(e: RecordError, offset: usize) -> Fault {
    Fault {
        line: if e.line == 0 { 0 } else { e.line + offset },
        game: None,
        reason: e.reason,
    }
}

/// The games of a CSA file, each with the number of the line before its text: the text
/// between `/` lines (V2.2's separator of games), without the parts that hold no statement
/// (blank lines and `'` comments only). `None` when no part holds one.
fn csa_games(text: &str) -> Option<Vec<(usize, String)>> {
    let mut games = vec![(0, String::new())];
    for (i, line) in text.lines().enumerate() {
        if line.trim() == "/" {
            games.push((i + 1, String::new()));
        } else {
            let game = &mut games.last_mut().expect("one at least").1;
            game.push_str(line);
            game.push('\n');
        }
    }
    games.retain(|(_, g)| g.lines().any(is_statement));
    (!games.is_empty()).then_some(games)
}

/// The games of `text` read as `format`, each as an opening, and every fault: a CSA file's
/// games each read on their own, so that a bad game does not hide those after it. A game that
/// cannot be an opening is named by its number when the file holds several, and in a CSA file
/// by the line of its first statement.
fn read_games(
    text: &str,
    format: Format,
    plies: Option<usize>,
) -> (Vec<RecordOpening>, Vec<Fault>) {
    let csa = match format {
        Format::Csa => csa_games(text),
        _ => None,
    };
    let located = csa.is_some();
    let parts = csa.unwrap_or_else(|| vec![(0, text.to_string())]);
    let mut read = Vec::new();
    let mut faults = Vec::new();
    for (offset, part) in &parts {
        match form::read(part, format) {
            Ok(records) => read.extend(records.into_iter().map(|r| (*offset, part, Some(r)))),
            Err(e) => {
                let mut fault = reader_fault(e, *offset);
                if fault.line == 0 && located {
                    fault.line = offset + first_statement(part);
                }
                faults.push(fault);
                read.push((*offset, part, None));
            }
        }
    }
    let several = read.len() > 1;
    let mut out = Vec::new();
    for (i, (offset, part, record)) in read.into_iter().enumerate() {
        let Some(record) = record else { continue };
        match game_opening(record, plies) {
            Ok(o) => out.push(o),
            Err(reason) => faults.push(Fault {
                line: if located {
                    offset + first_statement(part)
                } else {
                    0
                },
                game: several.then_some(i + 1),
                reason,
            }),
        }
    }
    faults.sort_by_key(|f| f.line);
    (out, faults)
}

/// The line of `part`'s first statement, counted from 1 (0 when it has none).
fn first_statement(part: &str) -> usize {
    part.lines().position(is_statement).map_or(0, |i| i + 1)
}

/// Whether a line of a CSA record states something: not blank, not a `'` comment.
fn is_statement(line: &str) -> bool {
    let l = line.trim();
    !l.is_empty() && !l.starts_with('\'')
}

/// The games of the record file `path` read as `format`, each as an opening, in file order;
/// every bad game named when any is.
pub fn read(
    path: &Path,
    format: Format,
    plies: Option<usize>,
) -> Result<Vec<RecordOpening>, RecordBookError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| RecordBookError::Read {
        file: file.clone(),
        source,
    })?;
    let text = form::decode(&bytes).map_err(|e| RecordBookError::Bad {
        file: file.clone(),
        lines: vec![reader_fault(e, 0)],
    })?;
    match read_games(&text, format, plies) {
        (games, faults) if faults.is_empty() => Ok(games),
        (_, lines) => Err(RecordBookError::Bad { file, lines }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `.kif` file with no game, and a CSA record given as KIF, are refused with the file's
    /// name, the line and the reason: never one opening from the start.
    #[test]
    fn a_file_with_no_game_is_refused() {
        let dir = std::env::temp_dir().join(format!("saikoro-record-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text, format, why) in [
            ("garbage.kif", "garbage\n", Format::Kif, "not a KIF record"),
            (
                "game.kif",
                "V2.2\nPI\n+\n+7776FU\n%TORYO\n",
                Format::Kif,
                "looks like a CSA record",
            ),
            ("garbage.csa", "garbage\n", Format::Csa, "is not a CSA line"),
            (
                "game.csa",
                "手合割：平手\n",
                Format::Csa,
                "is not a CSA line",
            ),
            ("empty.jkf", "", Format::Jkf, "bad JSON"),
            ("nifu.csa", "PI\n+\n+0055FU\n", Format::Csa, "illegal"),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            match read(&path, format, None) {
                Err(RecordBookError::Bad { file, lines }) => {
                    assert!(file.ends_with(name), "{file}");
                    let [Fault { line, game, reason }] = lines.as_slice() else {
                        panic!("{name}: {lines:?}");
                    };
                    assert!(*line <= 3 && game.is_none(), "{name}: {line} {game:?}");
                    assert!(reason.contains(why), "{name}: {reason}");
                }
                other => panic!("{name}: {other:?}"),
            }
        }
        // A tsume problem's position (one king) is no game to open with; the file's one game
        // has no number, nor a line (the reader of positions gives none).
        let path = dir.join("tsume.sfen");
        std::fs::write(&path, "4k4/9/9/9/9/9/9/9/9 b G 1\n").unwrap();
        match read(&path, Format::Sfen, None) {
            Err(RecordBookError::Bad { lines, .. }) => {
                assert_eq!((lines.len(), lines[0].line, lines[0].game), (1, 0, None));
                let reason = &lines[0].reason;
                assert!(reason.starts_with("not a game's position"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A CSA file of three games parted by `/` lines: the first good, the second with an
    /// illegal move on line 9 (White moves from 7g, where nothing of White's stands), the third
    /// a tsume problem (one king) whose first statement is on line 12 after a comment. Both bad
    /// games are named, each with its line, the third with its number too.
    #[test]
    fn every_bad_game_of_a_csa_file_is_named() {
        let text = "V2.2\nPI\n+\n+7776FU\n/\nPI\n+\n+7776FU\n-7776FU\n/\n\
                    'a tsume problem\nP-11OU\nP+00KI\n+\n";
        let (games, faults) = read_games(text, Format::Csa, None);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].1.len(), 1, "the good game's one move");
        let places: Vec<(usize, Option<usize>)> = faults.iter().map(|f| (f.line, f.game)).collect();
        assert_eq!(places, [(9, None), (12, Some(3))], "{faults:?}");
        assert!(
            faults[1].reason.starts_with("not a game's position"),
            "{faults:?}"
        );
    }
}
