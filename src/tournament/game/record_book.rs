//! Openings from game records: CSA files (V2.2; Floodgate's archive, several games in one file
//! separated by a `/` line) and KIF files (Kifu for Windows, 将棋所, ShogiHome), in UTF-8 or
//! Shift_JIS. Each game is one opening: its start position and its moves, cut at `plies=N`, every
//! move checked by the rules; a game that breaks them is reported with its file and number.

use crate::record::csa::notation::{parse_move, PositionBlock};
use crate::tournament::game::book::{BookError, Opening};
use crate::{Game, KingRule, Move, Position};
use std::path::Path;

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

fn read(path: &Path) -> Result<String, BookError> {
    let bytes = std::fs::read(path).map_err(|source| BookError::Read {
        file: path.display().to_string(),
        source,
    })?;
    Ok(decode(&bytes))
}

/// The error for game `game` of `path`.
fn record_error(path: &Path, game: usize, reason: String) -> BookError {
    BookError::Record {
        file: path.display().to_string(),
        game,
        reason,
    }
}

/// An opening from `start` and the moves `next` reads (given the position it is played in and
/// its index; `None` when there are no more), cut at `plies`: each move is checked by the rules
/// as it is played, and the game must not be over where the opening ends.
fn opening(
    game_number: usize,
    start: Position,
    plies: Option<usize>,
    mut next: impl FnMut(&Position, usize) -> Option<Result<Move, String>>,
) -> Result<Opening, String> {
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
    Ok(Opening {
        line: game_number,
        start,
        moves: played,
    })
}

/// The games of a CSA file, each as an opening (`line` is the game's number in the file).
pub fn read_csa(path: &Path, plies: Option<usize>) -> Result<Vec<Opening>, BookError> {
    let text = read(path)?;
    let mut out = Vec::new();
    for (i, game_text) in split_games(&text).into_iter().enumerate() {
        let n = i + 1;
        let err = |reason: String| record_error(path, n, reason);
        let block = csa_block(&game_text).map_err(err)?;
        let setup = block.setup().map_err(|e| err(e.to_string()))?;
        let start = Position::from_setup(&setup, KingRule::Required)
            .map_err(|e| err(format!("illegal position: {e}")))?;
        // A CSA move names the piece after the move: it is read in its position.
        let texts = block.moves();
        let o = opening(n, start, plies, |pos, i| {
            let (text, _) = texts.get(i)?;
            Some(parse_move(pos, text).map_err(|e| e.to_string()))
        });
        out.push(o.map_err(err)?);
    }
    if out.is_empty() {
        return Err(BookError::Empty(path.display().to_string()));
    }
    Ok(out)
}

/// The games of a CSA text: the parts between `/` lines that hold anything but comments.
fn split_games(text: &str) -> Vec<Vec<&str>> {
    let mut games = vec![Vec::new()];
    for line in text.lines() {
        let t = line.trim_end_matches('\r').trim();
        if t == "/" {
            games.push(Vec::new());
        } else if let Some(g) = games.last_mut() {
            g.push(t);
        }
    }
    games.retain(|g| g.iter().any(|l| !l.is_empty() && !l.starts_with('\'')));
    games
}

/// One CSA game's position block: statements (several on a line, separated by commas) up to
/// the end line (`%TORYO`, …); time lines (`T12`) skipped.
fn csa_block(lines: &[&str]) -> Result<PositionBlock, String> {
    let mut block = PositionBlock::new();
    for line in lines {
        if line.starts_with('\'') {
            continue;
        }
        // A move and its time on one line (`+7776FU,T12`) is a statement pair.
        for st in line.split(',') {
            let st = st.trim();
            if st.starts_with('%') {
                return Ok(block);
            }
            if st.is_empty() || (st.starts_with('T') && st[1..].parse::<f64>().is_ok()) {
                continue;
            }
            block.feed(st).map_err(|e| e.to_string())?;
        }
    }
    Ok(block)
}

/// A KIF file's game as an opening (game number 1).
pub fn read_kif(path: &Path, plies: Option<usize>) -> Result<Vec<Opening>, BookError> {
    let text = read(path)?;
    let record =
        crate::record::kif::parse(&text).map_err(|e| record_error(path, 1, e.to_string()))?;
    let moves = record.moves;
    let o = opening(1, record.start, plies, |_, i| moves.get(i).copied().map(Ok))
        .map_err(|e| record_error(path, 1, e))?;
    Ok(vec![o])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_jis_and_utf8() {
        // 「７六歩」 in Shift_JIS: 0x82 0x56, 0x98 0x5A, 0x95 0xE0.
        assert_eq!(decode(&[0x82, 0x56, 0x98, 0x5a, 0x95, 0xe0]), "７六歩");
        assert_eq!(decode("７六歩".as_bytes()), "７六歩");
        assert_eq!(decode(b"\xef\xbb\xbfab"), "ab");
    }

    #[test]
    fn any_cut_of_a_csa_game_is_read_or_refused_without_a_panic() {
        let text =
            "V2.2\nN+a\n$EVENT:x\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n\
                    P+00KA00AL\nPI82HI\n+\n+7776FU,T1\n-3334FU\nT2\n+8822UM\n%TORYO\n/\nPI\n-\n";
        for i in 0..text.len() {
            for part in [&text[..i], &text[i..]] {
                for game in split_games(part) {
                    if let Ok(b) = csa_block(&game) {
                        let _ = b.setup();
                    }
                }
            }
        }
    }

    #[test]
    fn csa_games_and_their_statements() {
        let text = "V2.2\nN+a\nN-b\nPI\n+\n+7776FU,T1\n-3334FU\nT2\n%TORYO\n/\n'c\n/\nPI\n-\n";
        let games = split_games(text);
        assert_eq!(games.len(), 2, "the comment-only part is no game");
        let b = csa_block(&games[0]).unwrap();
        let moves: Vec<&str> = b.moves().iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(moves, ["+7776FU", "-3334FU"]);
        assert!(csa_block(&["PI", "+", "+7776FU,T1,-3334FU"]).is_ok());
    }
}
