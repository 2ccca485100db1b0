//! The `position` line a GUI sends, kept up to date move by move.

use saikoro_core::{Game, Move, Position, STARTPOS_SFEN};

/// A `position` command that grows with the game: `position startpos` or `position sfen …`,
/// then ` moves` and each move as it is played. GUIs send the whole game every turn; keeping
/// the line makes that one append per ply instead of a rewrite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionLine {
    text: String,
    /// The length of the text without any move (and without ` moves`).
    base: usize,
    /// Where each move's ` <move>` starts.
    ends: Vec<usize>,
}

impl PositionLine {
    /// The line for a game starting at `start` (written `startpos` when it is the standard
    /// start position with move number 1).
    pub fn new(start: &Position) -> PositionLine {
        let sfen = start.to_sfen();
        let text = if sfen == STARTPOS_SFEN {
            "position startpos".to_string()
        } else {
            format!("position sfen {sfen}")
        };
        PositionLine {
            base: text.len(),
            text,
            ends: Vec::new(),
        }
    }

    /// The line for `game`'s start and every move played.
    pub fn from_game(game: &Game) -> PositionLine {
        let mut line = PositionLine::new(game.start());
        game.moves().for_each(|m| line.push(m));
        line
    }

    /// Appends a move.
    pub fn push(&mut self, mv: Move) {
        use std::fmt::Write as _;
        if self.ends.is_empty() {
            self.text.push_str(" moves");
        }
        self.ends.push(self.text.len());
        let _ = write!(self.text, " {mv}");
    }

    /// Takes the last move back.
    pub fn pop(&mut self) {
        if let Some(at) = self.ends.pop() {
            self.text
                .truncate(if self.ends.is_empty() { self.base } else { at });
        }
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The command.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_lines_as_guis_send_them() {
        let mut line = PositionLine::new(&Position::startpos());
        assert_eq!(line.as_str(), "position startpos");
        line.push(Move::from_usi("7g7f").unwrap());
        line.push(Move::from_usi("3c3d").unwrap());
        assert_eq!(line.as_str(), "position startpos moves 7g7f 3c3d");
        assert_eq!(line.len(), 2);
        line.pop();
        assert_eq!(line.as_str(), "position startpos moves 7g7f");
        line.pop();
        assert_eq!(line.as_str(), "position startpos");
        assert!(line.is_empty());
        line.pop();
        assert_eq!(line.as_str(), "position startpos");

        let mut game = Game::new(Position::from_sfen("8k/9/9/9/9/9/9/9/K8 w G 1").unwrap());
        game.play(Move::from_usi("1a2a").unwrap());
        assert_eq!(
            PositionLine::from_game(&game).as_str(),
            "position sfen 8k/9/9/9/9/9/9/9/K8 w G 1 moves 1a2a"
        );
        // The standard start later in a game (move number 5) is not `startpos`.
        let later = Position::from_sfen(&STARTPOS_SFEN.replace(" 1", " 5")).unwrap();
        assert!(PositionLine::new(&later)
            .as_str()
            .starts_with("position sfen "));
    }
}
