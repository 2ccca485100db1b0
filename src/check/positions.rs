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
//! | `illegal MOVE REASON` | a move that is not legal there, and the [`IllegalMove`](crate::IllegalMove) variant that says why |
//! | `loses MOVE` | a legal move that loses by perpetual check (連続王手の千日手) |
//! | `mates M…` or `mates -` | every legal move that gives checkmate (none) |
//! | `declare yes\|no` | whether the side to move may declare a win under CSARule27 |
//! | `points N` | the side to move's declaration points (CSA count) |
//! | `resign fail` | resigning here is a failure, not a warning |
//!
//! The checker reads only the start, the moves and `resign`; the other facts are there for the
//! tests, which verify each of them with the rules core.

use crate::{Game, Move, Position};
use std::fmt;

/// The text of `positions/check.txt`, built in.
pub const TEXT: &str = include_str!("../../positions/check.txt");

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
    parse(TEXT).expect("positions/check.txt is readable (tests/check_positions.rs reads it)")
}

/// The built-in record called `id`.
pub fn get(id: &str) -> Option<CheckPosition> {
    all().into_iter().find(|p| p.id == id)
}

impl CheckPosition {
    /// The start position.
    pub fn start(&self) -> Result<Position, String> {
        match &self.sfen {
            None => Ok(Position::startpos()),
            Some(s) => Position::from_sfen(s).map_err(|e| format!("{}: {e}", self.id)),
        }
    }

    /// The game: the start and the moves, each checked by the rules.
    pub fn game(&self) -> Result<Game, String> {
        let mut game = Game::new(self.start()?);
        for (i, text) in self.moves.iter().enumerate() {
            let mv =
                Move::from_usi(text).map_err(|e| format!("{} move {}: {e}", self.id, i + 1))?;
            game.try_play(mv)
                .map_err(|e| format!("{} move {} ({text}): {e}", self.id, i + 1))?;
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
