//! Openings from game records: CSA files (V2.2; Floodgate's archive, several games in one file
//! separated by a `/` line) and KIF files (Kifu for Windows, 将棋所, ShogiHome), in UTF-8 or
//! Shift_JIS. Each game is one opening: its start position and its moves, cut at `plies=N`, every
//! move checked by the rules; a game that breaks them is reported with its file and number.

use crate::record::csa::notation::parse_move;
use crate::record::csa::record::{read_game, split_games};
use crate::{Game, KingRule, Move, Position};
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
    /// A game that cannot be an opening.
    Record {
        /// The file.
        file: String,
        /// The game's number in the file, from 1.
        game: usize,
        /// What is wrong.
        reason: String,
    },
    /// The file holds no game.
    Empty(String),
}

/// The text of a record file: UTF-8 (a BOM is dropped) when it is valid UTF-8, else Shift_JIS
/// (what Windows programs write in `.kif` and older `.csa` files).
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(t) => t.to_string(),
        Err(_) => encoding_rs::SHIFT_JIS
            .decode_without_bom_handling(bytes)
            .0
            .into_owned(),
    }
}

fn read(path: &Path) -> Result<String, RecordBookError> {
    let bytes = std::fs::read(path).map_err(|source| RecordBookError::Read {
        file: path.display().to_string(),
        source,
    })?;
    Ok(decode(&bytes))
}

/// The error for game `game` of `path`.
fn record_error(path: &Path, game: usize, reason: String) -> RecordBookError {
    RecordBookError::Record {
        file: path.display().to_string(),
        game,
        reason,
    }
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

/// The games of a CSA file, each as an opening, in file order.
pub fn read_csa(path: &Path, plies: Option<usize>) -> Result<Vec<RecordOpening>, RecordBookError> {
    let text = read(path)?;
    let mut out = Vec::new();
    for (i, game_text) in split_games(&text).into_iter().enumerate() {
        let n = i + 1;
        let err = |reason: String| record_error(path, n, reason);
        let block = read_game(&game_text).map_err(|e| err(e.to_string()))?.block;
        let setup = block.setup().map_err(|e| err(e.to_string()))?;
        let start = Position::from_setup(&setup, KingRule::Required)
            .map_err(|e| err(format!("illegal position: {e}")))?;
        // A CSA move names the piece after the move: it is read in its position.
        let texts = block.moves();
        let o = opening(start, plies, |pos, i| {
            let (text, _) = texts.get(i)?;
            Some(parse_move(pos, text).map_err(|e| e.to_string()))
        });
        out.push(o.map_err(err)?);
    }
    if out.is_empty() {
        return Err(RecordBookError::Empty(path.display().to_string()));
    }
    Ok(out)
}

/// A KIF file's game as an opening (game number 1).
pub fn read_kif(path: &Path, plies: Option<usize>) -> Result<Vec<RecordOpening>, RecordBookError> {
    let text = read(path)?;
    let record =
        crate::record::kif::parse(&text).map_err(|e| record_error(path, 1, e.to_string()))?;
    let moves = record.moves;
    let o = opening(record.start, plies, |_, i| moves.get(i).copied().map(Ok))
        .map_err(|e| record_error(path, 1, e))?;
    Ok(vec![o])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `.kif` file with no game, and a CSA record given as KIF, are refused with the file's
    /// name and the reason: never one opening from the start.
    #[test]
    fn a_file_with_no_kif_game_is_refused() {
        let dir = std::env::temp_dir().join(format!("saikoro-record-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text, why) in [
            ("garbage.kif", "garbage\n", "no KIF game"),
            (
                "game.kif",
                "V2.2\nPI\n+\n+7776FU\n%TORYO\n",
                "looks like a CSA record",
            ),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            match read_kif(&path, None) {
                Err(RecordBookError::Record { file, game, reason }) => {
                    assert!(file.ends_with(name) && game == 1, "{file} {game}");
                    assert!(reason.contains(why), "{reason}");
                }
                other => panic!("{name}: {other:?}"),
            }
        }
        // A CSA file of garbage, or of a KIF record, is no CSA game either.
        for (name, text) in [("garbage.csa", "garbage\n"), ("game.csa", "手合割：平手\n")] {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            let e = read_csa(&path, None).unwrap_err();
            assert!(matches!(e, RecordBookError::Record { .. }), "{name}: {e:?}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shift_jis_and_utf8() {
        // 「７六歩」 in Shift_JIS: 0x82 0x56, 0x98 0x5A, 0x95 0xE0.
        assert_eq!(decode(&[0x82, 0x56, 0x98, 0x5a, 0x95, 0xe0]), "７六歩");
        assert_eq!(decode("７六歩".as_bytes()), "７六歩");
        assert_eq!(decode(b"\xef\xbb\xbfab"), "ab");
    }
}
