//! The positions of the checker (`positions/check.txt`) and their reader.
//!
//! A record is a group of `key value` lines; records are separated by blank lines; `#` starts a
//! comment line. Keys:
//!
//! | key | meaning |
//! |---|---|
//! | `id NAME` | the record's name; a rules position becomes the check `rules-NAME` |
//! | `check rules\|long-history\|go-mate` | which check uses it |
//! | `about TEXT` | what it is for |
//! | `startpos` or `sfen SFEN` | the start |
//! | `moves M…` | moves played from the start (the history sent with `position`) |
//! | `legal N` | the number of legal moves at the end |
//! | `allows MOVE` | a move that is legal there |
//! | `illegal MOVE REASON` | a move that is not legal there, and the [`IllegalMove`] variant that says why |
//! | `loses MOVE` | a legal move that loses by perpetual check (連続王手の千日手) |
//! | `mates M…` or `mates -` | every legal move that gives checkmate (none) |
//! | `declare yes\|no` | whether the side to move may declare a win under CSARule27 |
//! | `points N` | the side to move's declaration points (CSA count) |
//! | `resign fail` | resigning here is a failure, not a warning |
//!
//! The checker reads only the start, the moves and `resign`; the other facts are there for the
//! tests, which verify each of them with the rules core.

use saikoro_core::{Game, IllegalMove, InvalidSfen, Move, MoveSyntaxError, Position};
use std::fmt;

/// The text of `positions/check.txt`, built in.
pub(crate) const TEXT: &str = include_str!("../positions/check.txt");

/// One record of `positions/check.txt`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckPosition {
    /// `id`.
    pub id: String,
    /// `check`: `rules`, `long-history` or `go-mate`.
    pub check: String,
    /// `about`.
    pub about: String,
    /// The SFEN of the start; `None` for `startpos`.
    pub sfen: Option<String>,
    /// `moves`, as text.
    pub moves: Vec<String>,
    /// `legal`.
    pub legal: Option<usize>,
    /// `allows` lines.
    pub allows: Vec<String>,
    /// `illegal` lines: the move and the reason's variant name.
    pub illegal: Vec<(String, String)>,
    /// `loses`.
    pub loses: Vec<String>,
    /// `mates` (an empty list for `mates -`).
    pub mates: Option<Vec<String>>,
    /// `declare`.
    pub declare: Option<bool>,
    /// `points`.
    pub points: Option<u32>,
    /// `resign fail`.
    pub resign_fails: bool,
}

/// A line of `positions/check.txt` that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionsError {
    /// The line number (from 1).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PositionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PositionsError {}

/// Reads records in the format above.
pub fn parse(text: &str) -> Result<Vec<CheckPosition>, PositionsError> {
    let mut out = Vec::new();
    let mut cur: Option<CheckPosition> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let err = |message: String| PositionsError {
            line: i + 1,
            message,
        };
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            out.extend(cur.take());
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim();
        if key == "id" {
            out.extend(cur.take());
            cur = Some(CheckPosition {
                id: value.to_string(),
                ..CheckPosition::default()
            });
            continue;
        }
        let Some(p) = cur.as_mut() else {
            return Err(err(format!("'{key}' before any 'id'")));
        };
        let number = |v: &str| {
            v.parse::<usize>()
                .map_err(|_| err(format!("'{key}' needs a number, not '{v}'")))
        };
        let words = || value.split_whitespace().map(str::to_string).collect();
        match key {
            "check" => p.check = value.to_string(),
            "about" => p.about = value.to_string(),
            "startpos" => p.sfen = None,
            "sfen" => p.sfen = Some(value.to_string()),
            "moves" => p.moves = words(),
            "legal" => p.legal = Some(number(value)?),
            "points" => p.points = Some(number(value)? as u32),
            "illegal" => match value.split_once(' ') {
                Some((m, why)) => p.illegal.push((m.to_string(), why.trim().to_string())),
                None => return Err(err("'illegal MOVE REASON'".to_string())),
            },
            "loses" => p.loses.push(value.to_string()),
            "allows" => p.allows.push(value.to_string()),
            "mates" if value == "-" => p.mates = Some(Vec::new()),
            "mates" => p.mates = Some(words()),
            "declare" => {
                p.declare = Some(match value {
                    "yes" => true,
                    "no" => false,
                    _ => return Err(err(format!("'declare yes|no', not '{value}'"))),
                })
            }
            "resign" if value == "fail" => p.resign_fails = true,
            _ => return Err(err(format!("unknown key '{key}'"))),
        }
    }
    out.extend(cur);
    Ok(out)
}

/// The built-in records.
pub fn all() -> Vec<CheckPosition> {
    parse(TEXT).expect("positions/check.txt is readable (the crate's tests/positions.rs reads it)")
}

/// The built-in record called `id`.
pub fn get(id: &str) -> Option<CheckPosition> {
    all().into_iter().find(|p| p.id == id)
}

/// Why a record's position cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordError {
    /// The SFEN is not a position.
    Sfen(InvalidSfen),
    /// Move `index` (from 1) is no USI move text.
    MoveSyntax {
        /// Which move.
        index: usize,
        /// Why.
        error: MoveSyntaxError,
    },
    /// Move `index` (from 1) is not legal where it is played.
    IllegalMove {
        /// Which move.
        index: usize,
        /// The move.
        mv: Move,
        /// Why.
        error: IllegalMove,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Sfen(e) => write!(f, "bad sfen: {e}"),
            RecordError::MoveSyntax { index, error } => write!(f, "move {index}: {error}"),
            RecordError::IllegalMove { index, mv, error } => {
                write!(f, "move {index} ({mv}): {error}")
            }
        }
    }
}

impl std::error::Error for RecordError {}

impl CheckPosition {
    /// The start position.
    pub fn start(&self) -> Result<Position, RecordError> {
        match &self.sfen {
            None => Ok(Position::startpos()),
            Some(s) => Position::from_sfen(s).map_err(RecordError::Sfen),
        }
    }

    /// The game: the start and the moves, each checked by the rules.
    pub fn game(&self) -> Result<Game, RecordError> {
        let mut game = Game::new(self.start()?);
        for (i, text) in self.moves.iter().enumerate() {
            let index = i + 1;
            let mv =
                Move::from_usi(text).map_err(|error| RecordError::MoveSyntax { index, error })?;
            game.try_play(mv)
                .map_err(|error| RecordError::IllegalMove { index, mv, error })?;
        }
        Ok(game)
    }

    /// The `position` command a GUI sends for it.
    pub fn command(&self) -> String {
        let mut s = match &self.sfen {
            None => "position startpos".to_string(),
            Some(sfen) => format!("position sfen {sfen}"),
        };
        if !self.moves.is_empty() {
            s.push_str(" moves ");
            s.push_str(&self.moves.join(" "));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_their_facts() {
        let text = "# comment\nid a\ncheck rules\nstartpos\nmoves 7g7f 3c3d\nlegal 30\n\
                    illegal 7g7f NoPiece\nallows 8h2b+\nmates -\nresign fail\n\n\
                    id b\nsfen 8k/9/9/9/9/9/9/9/K8 b G 1\ndeclare no\npoints 1\nmates G*1b G*2b\n";
        let v = parse(text).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].id, "a");
        assert_eq!(v[0].sfen, None);
        assert_eq!(v[0].moves, ["7g7f", "3c3d"]);
        assert_eq!(v[0].legal, Some(30));
        assert_eq!(v[0].illegal, [("7g7f".to_string(), "NoPiece".to_string())]);
        assert_eq!(v[0].allows, ["8h2b+"]);
        assert_eq!(v[0].mates, Some(Vec::new()));
        assert!(v[0].resign_fails);
        assert_eq!(v[0].command(), "position startpos moves 7g7f 3c3d");
        assert_eq!(v[0].game().unwrap().len(), 2);
        assert_eq!(v[1].declare, Some(false));
        assert_eq!(v[1].points, Some(1));
        assert_eq!(
            v[1].mates.as_deref(),
            Some(&["G*1b".to_string(), "G*2b".to_string()][..])
        );
        assert_eq!(v[1].command(), "position sfen 8k/9/9/9/9/9/9/9/K8 b G 1");
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("legal 3\n").unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse("id a\n\nlegal x\n").unwrap_err();
        assert_eq!((e.line, e.message.contains("before any 'id'")), (3, true));
        let e = parse("id a\nlegal x\n").unwrap_err();
        assert_eq!((e.line, e.message.contains("number")), (2, true));
        assert_eq!(parse("id a\ncolour red\n").unwrap_err().line, 2);
        assert_eq!(parse("id a\ndeclare maybe\n").unwrap_err().line, 2);
    }

    #[test]
    fn bad_histories_are_typed_errors() {
        let p = |moves: &str| CheckPosition {
            moves: moves.split_whitespace().map(String::from).collect(),
            ..CheckPosition::default()
        };
        assert!(matches!(
            p("7g7f 7g7f").game(),
            Err(RecordError::IllegalMove { index: 2, .. })
        ));
        assert!(matches!(
            p("7g7z").game(),
            Err(RecordError::MoveSyntax { index: 1, .. })
        ));
        let bad = CheckPosition {
            sfen: Some("9/9 b - 1".to_string()),
            ..CheckPosition::default()
        };
        assert!(matches!(bad.game(), Err(RecordError::Sfen(_))));
    }
}
