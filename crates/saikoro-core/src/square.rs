//! Squares of the 9×9 board and their USI names.

use crate::Color;
use std::fmt;

/// A square of the board (升目), numbered file-major: `(file - 1) * 9 + (rank - 1)`.
///
/// Files run 1–9 from Black's right to left; ranks run 1–9 (`a`–`i` in USI) from White's side
/// (the top of the diagram) to Black's side. `1a` is index 0, `9i` is index 80.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const NUM: usize = 81;

    /// The square at `file` and `rank`, both 1–9.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((file - 1) * 9 + rank - 1))
        } else {
            None
        }
    }

    /// The square with file-major index `i` (0–80).
    #[inline]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 81 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The square with index `i`, which the caller guarantees is below 81.
    #[inline]
    pub(crate) const fn from_index_unchecked(i: u8) -> Square {
        debug_assert!(i < 81);
        Square(i)
    }

    /// All 81 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// File-major index, 0–80.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 1–9.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// Rank, 1–9 (1 = `a`, the top row from Black's view).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// Rank counted from `color`'s far side: 1 is the last rank for that side.
    #[inline]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Black => self.rank(),
            Color::White => 10 - self.rank(),
        }
    }

    /// Whether the square lies in `color`'s promotion zone (敵陣, the far three ranks).
    #[inline]
    pub const fn in_promotion_zone(self, color: Color) -> bool {
        crate::rules::in_promotion_zone(self.relative_rank(color))
    }

    /// Parses a USI square such as `7g`.
    pub fn from_usi(s: &str) -> Option<Square> {
        match s.as_bytes() {
            [f @ b'1'..=b'9', r @ b'a'..=b'i'] => Square::new(f - b'0', r - b'a' + 1),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    /// USI text: file digit and rank letter, e.g. `7g`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Indices are file-major: 0 is 1a, 8 is 1i, 9 is 2a, 80 is 9i; 81 is no square.
    #[test]
    fn squares_from_their_indices() {
        for (i, usi) in [(0, "1a"), (8, "1i"), (9, "2a"), (80, "9i")] {
            assert_eq!(Square::from_index(i).unwrap().to_string(), usi);
        }
        assert_eq!(Square::from_index(81), None);
    }

    #[test]
    fn usi_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::from_usi(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::new(1, 1).unwrap().to_string(), "1a");
        assert_eq!(Square::new(9, 9).unwrap().to_string(), "9i");
        assert_eq!(Square::from_usi("7g").unwrap().index(), 6 * 9 + 6);
        assert_eq!(Square::from_usi("0a"), None);
        assert_eq!(Square::from_usi("1j"), None);
        assert_eq!(Square::from_usi("1"), None);
    }

    #[test]
    fn promotion_zone_is_the_far_three_ranks() {
        let c3 = Square::from_usi("5c").unwrap();
        let d = Square::from_usi("5d").unwrap();
        let g = Square::from_usi("5g").unwrap();
        assert!(c3.in_promotion_zone(Color::Black));
        assert!(!d.in_promotion_zone(Color::Black));
        assert!(g.in_promotion_zone(Color::White));
        assert!(!c3.in_promotion_zone(Color::White));
        assert_eq!(
            Square::from_usi("5i").unwrap().relative_rank(Color::White),
            1
        );
    }
}
