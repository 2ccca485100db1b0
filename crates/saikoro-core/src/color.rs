//! The two sides.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// A side: Black (先手, sente) moves first, White (後手, gote) second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// 先手 (sente), upper-case letters in SFEN.
    Black = 0,
    /// 後手 (gote), lower-case letters in SFEN.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The English name: `Black` or `White`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }

    /// The SFEN side-to-move letter: `b` or `w`.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl fmt::Display for Color {
    /// The English name (`Black`, `White`), as tools print it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

/// One value per colour, indexed by [`Color`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T>(pub [T; 2]);

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        &self.0[c.index()]
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self.0[c.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flip_is_an_involution() {
        assert_eq!(!Color::Black, Color::White);
        assert_eq!(!!Color::White, Color::White);
    }

    /// The names the match runner and the CSA client print (`Black wins`, `White's move`).
    #[test]
    fn colours_print_their_english_names() {
        assert_eq!(Color::Black.to_string(), "Black");
        assert_eq!(format!("{} to move", Color::White), "White to move");
    }

    #[test]
    fn by_color_indexes_by_side() {
        let mut v = ByColor([1, 2]);
        v[Color::White] += 10;
        assert_eq!(v[Color::Black], 1);
        assert_eq!(v[Color::White], 12);
    }
}
