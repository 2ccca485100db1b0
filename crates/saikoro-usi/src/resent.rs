//! A `position` line that resends the game before it with moves added, as GUIs send every
//! turn: read by its new moves only, not parsed (and replayed) from the start again.

use super::{tokenize, PositionCommand, UsiError};
use saikoro_core::Move;

/// The last `position` line accepted, kept when its moves part has begun (`moves`, or a move,
/// after the start): then any text after it can only be more moves, so a line that starts
/// with it, up to a token boundary, is that game with the moves of the rest added.
///
/// ```
/// use saikoro_usi::{parse_line, Command, LastPosition};
///
/// let first = "position startpos moves 7g7f";
/// let Ok(Command::Position(p)) = parse_line(first) else { unreachable!() };
/// let mut last = LastPosition::default();
/// last.remember(first, &p);
/// assert_eq!(last.tail("position startpos moves 7g7f 3c3d"), Some(" 3c3d"));
/// // Not at a token boundary, a shorter line, another start: parsed in full.
/// assert_eq!(last.tail("position startpos moves 7g7f3c3d"), None);
/// assert_eq!(last.tail("position startpos moves"), None);
/// assert_eq!(last.tail("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f"), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LastPosition {
    /// The line, or empty when there is none to extend.
    text: String,
}

impl LastPosition {
    /// Keeps `line`, which parsed as `p` and was accepted, if its moves part has begun;
    /// otherwise forgets the line before it (a line after this one is parsed in full).
    pub fn remember(&mut self, line: &str, p: &PositionCommand) {
        let begun = !p.moves.is_empty() || tokenize(line).last().map(|&(_, t)| t) == Some("moves");
        self.text.clear();
        if begun {
            self.text.push_str(line);
        }
    }

    /// Forgets the line: the next one is parsed in full.
    pub fn forget(&mut self) {
        self.text.clear();
    }

    /// The text `line` adds to the kept line (moves only, possibly none), when it starts with
    /// the kept line and the join is a token boundary; `None` otherwise.
    pub fn tail<'a>(&self, line: &'a str) -> Option<&'a str> {
        if self.text.is_empty() {
            return None;
        }
        let tail = line.strip_prefix(self.text.as_str())?;
        let boundary = tail.is_empty()
            || tail.starts_with(|c: char| c.is_ascii_whitespace())
            || self.text.ends_with(|c: char| c.is_ascii_whitespace());
        boundary.then_some(tail)
    }

    /// The kept line now goes on with `tail` (accepted after [`LastPosition::tail`]).
    pub fn extend(&mut self, tail: &str) {
        self.text.push_str(tail);
    }
}

/// The moves of `tokens` (USI move text), the `before` moves that come before them in the line
/// counted in the index an error names.
pub fn parse_moves<'a>(
    tokens: impl IntoIterator<Item = &'a str>,
    before: usize,
) -> Result<Vec<Move>, UsiError> {
    tokens
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            Move::from_usi(t).map_err(|_| UsiError::MoveSyntax {
                index: before + i + 1,
                text: t.to_string(),
            })
        })
        .collect()
}

/// The moves of a tail that [`LastPosition::tail`] gave, numbered after the `before` moves of
/// the kept line.
pub fn parse_tail(tail: &str, before: usize) -> Result<Vec<Move>, UsiError> {
    parse_moves(tail.split_ascii_whitespace(), before)
}
