//! Openings from game records: KIF, KI2, CSA (several games in one file separated by a `/`
//! line, as Floodgate's archive holds them) and JKF, in UTF-8 or Shift_JIS, all read through
//! the one reader of the record forms ([`saikoro_record::form::read`]), with its errors. Each game
//! is one opening: its start position and the moves of its main line (the first move at every
//! branch: the variations a KIF, KI2 or JKF record holds are read and checked, not played), cut
//! at `plies=N`; a file that holds no game, or a game that breaks the rules in any of its
//! lines, is refused with its file, line and reason.

use saikoro_core::{Game, KingRule, Move, Position};
use saikoro_record::{form, Format};
use std::path::Path;

/// A game of a record file as an opening: its start position and its moves (cut).
pub(crate) type RecordOpening = (Position, Vec<Move>);

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
    /// The text is not a record of the form: the reader's error.
    Line {
        /// The file.
        file: String,
        /// The 1-based line; 0 for the file as a whole.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A game that cannot be an opening.
    Record {
        /// The file.
        file: String,
        /// The game's number in the file, from 1.
        game: usize,
        /// What is wrong.
        reason: String,
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

/// The games of the record file `path` read as `format`, each as an opening, in file order.
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
    let line_error = |e: saikoro_record::RecordError| RecordBookError::Line {
        file: file.clone(),
        line: e.line,
        reason: e.reason,
    };
    let text = form::decode(&bytes).map_err(line_error)?;
    let records = form::read(&text, format).map_err(line_error)?;
    let mut out = Vec::new();
    for (i, record) in records.into_iter().enumerate() {
        let err = |reason: String| RecordBookError::Record {
            file: file.clone(),
            game: i + 1,
            reason,
        };
        // A record may hold a tsume problem; a game needs both kings.
        Position::from_setup(&record.start.to_setup(), KingRule::Required)
            .map_err(|e| err(format!("not a game's position: {e}")))?;
        let moves = record.moves;
        let o = opening(record.start, plies, |_, i| moves.get(i).map(|m| Ok(m.mv)));
        out.push(o.map_err(err)?);
    }
    Ok(out)
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
                Err(RecordBookError::Line { file, line, reason }) => {
                    assert!(file.ends_with(name) && line <= 3, "{file} {line}");
                    assert!(reason.contains(why), "{name}: {reason}");
                }
                other => panic!("{name}: {other:?}"),
            }
        }
        // A tsume problem's position (one king) is no game to open with.
        let path = dir.join("tsume.sfen");
        std::fs::write(&path, "4k4/9/9/9/9/9/9/9/9 b G 1\n").unwrap();
        match read(&path, Format::Sfen, None) {
            Err(RecordBookError::Record {
                game: 1, reason, ..
            }) => {
                assert!(reason.starts_with("not a game's position"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
