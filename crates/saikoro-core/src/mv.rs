//! Moves (指し手) and their USI text.

use crate::{PieceType, Square};
use std::fmt;

/// A move: a board move, optionally promoting, or a drop from hand.
///
/// The derived order (board moves before drops, then by squares and kind) is the canonical order
/// in which the random player sorts the legal moves, so that a given seed picks the same move
/// whatever the generator's internal order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C, u8)]
pub enum Move {
    /// A piece moves on the board (`7g7f`, `8h2b+`).
    Normal {
        /// Origin square.
        from: Square,
        /// Destination square.
        to: Square,
        /// Whether the piece promotes (成り).
        promote: bool,
    },
    /// A piece from hand is dropped on an empty square (打ち, `P*5e`).
    Drop {
        /// The kind dropped (always an unpromoted, droppable kind).
        kind: PieceType,
        /// Destination square.
        to: Square,
    },
}

/// A move text that is not USI move syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSyntaxError {
    /// The offending text.
    pub text: String,
}

impl fmt::Display for MoveSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a USI move", self.text)
    }
}

impl std::error::Error for MoveSyntaxError {}

impl Move {
    /// The destination square.
    #[inline]
    pub fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// Parses USI move text (`7g7f`, `8h2b+`, `P*5e`). Syntax only: says nothing of legality.
    pub fn from_usi(s: &str) -> Result<Move, MoveSyntaxError> {
        let err = || MoveSyntaxError {
            text: s.to_string(),
        };
        let b = s.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let kind = PieceType::from_sfen_letter(b[0] as char)
                .filter(|k| b[0].is_ascii_uppercase() && k.is_hand_kind())
                .ok_or_else(err)?;
            let to = Square::from_usi(&s[2..4]).ok_or_else(err)?;
            return Ok(Move::Drop { kind, to });
        }
        let promote = match b.len() {
            4 => false,
            5 if b[4] == b'+' => true,
            _ => return Err(err()),
        };
        let from = s.get(0..2).and_then(Square::from_usi).ok_or_else(err)?;
        let to = s.get(2..4).and_then(Square::from_usi).ok_or_else(err)?;
        Ok(Move::Normal { from, to, promote })
    }
}

/// A move's USI text (`7g7f`, `8h2b+`, `P*5e`), held on the stack: [`Move::usi`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UsiText {
    bytes: [u8; 5],
    len: u8,
}

impl UsiText {
    /// The text.
    pub fn as_str(&self) -> &str {
        // Every byte is ASCII (a digit, a letter, `*` or `+`).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl Move {
    /// The USI text of the move, what `Display` writes, made from its squares without `fmt`:
    /// a results file, a record and the engine's `bestmove` are mostly moves, and formatting
    /// each square through `fmt::write` cost some 900 instructions a move.
    pub fn usi(self) -> UsiText {
        let square = |s: Square| [b'0' + s.file(), b'a' + s.rank() - 1];
        let (bytes, len) = match self {
            Move::Normal { from, to, promote } => {
                let ([a, b], [c, d]) = (square(from), square(to));
                ([a, b, c, d, b'+'], if promote { 5 } else { 4 })
            }
            Move::Drop { kind, to } => {
                let [c, d] = square(to);
                // A hand kind's letter is ASCII.
                let letter = u8::try_from(kind.sfen_letter()).unwrap_or(b'?');
                ([letter, b'*', c, d, 0], 4)
            }
        };
        UsiText { bytes, len }
    }
}

impl fmt::Display for Move {
    /// USI move text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.usi().as_str())
    }
}

/// The most moves a list holds: more than the most legal moves of any position (593), and a
/// power of two, so that a masked index needs no bounds check.
const CAPACITY: usize = 1024;

/// A list of moves, with room for more than the largest number of legal moves in any position
/// (593).
/// It lives inline (no allocation); it reads as a slice of moves.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; CAPACITY],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::Drop {
                kind: PieceType::Pawn,
                to: Square::from_index_unchecked(0),
            }; CAPACITY],
            len: 0,
        }
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// A writer that appends to this list.
    #[inline]
    pub(crate) fn writer(&mut self) -> MoveWriter<'_> {
        MoveWriter {
            len: self.len,
            moves: &mut self.moves,
            list_len: &mut self.len,
        }
    }

    /// Keeps only the moves for which `f` is true, in order.
    pub fn retain(&mut self, mut f: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if f(&m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }
}

/// Appends moves to a [`MoveList`]. It keeps the length apart from the list (the compiler can
/// then hold it in a register) and stores it back when dropped.
pub(crate) struct MoveWriter<'a> {
    moves: &'a mut [Move; CAPACITY],
    len: usize,
    list_len: &'a mut usize,
}

impl MoveWriter<'_> {
    /// Writes `m` after the moves so far, and keeps it when `keep` is true. No branch: the
    /// list has room for more moves than any position has, so the mask that spares the bounds
    /// check never changes the index.
    #[inline]
    pub(crate) fn push_if(&mut self, m: Move, keep: bool) {
        self.moves[self.len & (CAPACITY - 1)] = m;
        self.len += usize::from(keep);
    }

    /// Appends drops of `kind` on each square of the square set `squares`, in ascending order.
    #[inline]
    pub(crate) fn push_drops(&mut self, kind: PieceType, squares: u128) {
        for (half, base) in [(squares as u64, 0), ((squares >> 64) as u64, 64)] {
            let mut bits = half;
            while bits != 0 {
                let to = Square::from_index_unchecked(bits.trailing_zeros() as u8 + base);
                bits &= bits - 1;
                self.moves[self.len & (CAPACITY - 1)] = Move::Drop { kind, to };
                self.len += 1;
            }
        }
    }
}

impl Drop for MoveWriter<'_> {
    fn drop(&mut self) {
        *self.list_len = self.len;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &MoveList) -> bool {
        **self == **other
    }
}

impl Eq for MoveList {}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Every legal move of each position of 20 seeded random games of up to 200 plies: moves from
/// and to every square, drops of every kind, promotions. For the tests of a move's text.
#[cfg(test)]
fn moves_of_random_games() -> Vec<Move> {
    let mut rng = crate::SplitMix64::new(5);
    let mut moves = Vec::new();
    for _ in 0..20 {
        let mut pos = crate::Position::startpos();
        for _ in 0..200 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            moves.extend(legal.iter());
            pos.do_move(legal[rng.next_u64() as usize % legal.len()]);
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move's text is its squares' USI text (`Square`'s own `Display`), with `+` for a
    /// promotion, and `P*` before the square for a drop: every legal move of random games
    /// (every square, drops of every kind, promotions), read back to the same move.
    #[test]
    fn usi_text_of_every_kind_of_move() {
        let (mut drops, mut promotions) = (0, 0);
        for mv in moves_of_random_games() {
            let expected = match mv {
                Move::Normal { from, to, promote } => {
                    format!("{from}{to}{}", if promote { "+" } else { "" })
                }
                Move::Drop { kind, to } => {
                    drops += 1;
                    format!("{}*{to}", kind.sfen_letter())
                }
            };
            promotions += usize::from(expected.ends_with('+'));
            assert_eq!(mv.usi().as_str(), expected);
            assert_eq!(mv.to_string(), expected);
            assert_eq!(Move::from_usi(&expected), Ok(mv));
        }
        assert!(drops > 1000 && promotions > 1000, "{drops} {promotions}");
    }

    /// Lists are equal when they hold the same moves in the same order.
    #[test]
    fn lists_compare_by_their_moves() {
        let (mut a, mut b) = (MoveList::new(), MoveList::new());
        crate::Position::startpos().generate_legal(&mut a);
        assert_ne!(a, b);
        crate::Position::startpos().generate_legal(&mut b);
        assert_eq!(a, b);
        b.retain(|m| m.to_string() != "7g7f");
        assert_ne!(a, b);
    }

    /// A list's moves can be reordered in place, as a slice: reversed, the start position's
    /// first move (1g1f, the first in canonical order) is last.
    #[test]
    fn a_list_reorders_in_place() {
        let mut list = MoveList::new();
        crate::Position::startpos().generate_legal(&mut list);
        let first = list[0];
        assert_eq!(first.to_string(), "1g1f");
        list.reverse();
        assert_eq!(list[29], first);
        assert_ne!(list[0], first);
    }

    #[test]
    fn usi_text_round_trips() {
        for s in ["7g7f", "8h2b+", "P*5e", "R*1a", "1a9i"] {
            assert_eq!(Move::from_usi(s).unwrap().to_string(), s);
        }
    }

    /// `for m in &list` visits the moves of the list, in its order.
    #[test]
    fn a_list_iterates_by_reference() {
        let mut list = MoveList::new();
        crate::Position::startpos().generate_legal(&mut list);
        let mut seen = Vec::new();
        for &m in &list {
            seen.push(m);
        }
        assert_eq!(seen.len(), 30);
        assert_eq!(&seen[..], &list[..]);
    }

    #[test]
    fn bad_usi_text_is_rejected() {
        for s in [
            "", "7g7", "7g7f=", "7g7f++", "p*5e", "K*5e", "+P*5e", "P*5j", "0g7f", "7g7f ", "P*",
            "7g7f+ ", "７g7f",
        ] {
            assert!(Move::from_usi(s).is_err(), "{s:?} should be rejected");
        }
    }

    #[test]
    fn move_is_small() {
        assert!(std::mem::size_of::<Move>() <= 4);
    }
}
