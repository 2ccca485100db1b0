//! The padded mailbox: cell codes, square layout, directions and per-piece movement tables.
//!
//! The 9×9 board sits inside an 11-column × 13-row array of cells (files 0 and 10, and two rows
//! above and below, are walls), so every step or knight jump from a board square lands inside
//! the array and a slide stops at the first non-empty cell without any bounds test. The cell
//! index of the square at `file`, `rank` is `file * 13 + rank + 1`.

use crate::{Color, PieceType, Square};

/// Number of cells in the padded board.
pub(crate) const CELLS: usize = 143;
/// An empty cell.
pub(crate) const EMPTY: u8 = 0;
/// A wall cell (outside the board).
pub(crate) const WALL: u8 = 32;
/// "No cell" (e.g. no king).
pub(crate) const NO_CELL: usize = 0;

/// The eight directions, then the two knight jumps of Black and the two of White, as deltas of
/// the cell index. Direction 0 points at White's side (Black's forward); `d` and `(d + 4) % 8`
/// are opposite.
pub(crate) const DIR: [isize; 12] = [-1, 12, 13, 14, 1, -12, -13, -14, 11, -15, 15, -11];

/// The opposite of each direction (knight jumps map to the other colour's jumps).
pub(crate) const OPPOSITE: [usize; 12] = [4, 5, 6, 7, 0, 1, 2, 3, 11, 10, 9, 8];

/// Cell index of a square.
#[inline]
pub(crate) const fn cell(sq: Square) -> usize {
    sq.file() as usize * 13 + sq.rank() as usize + 1
}

/// File (1–9) of a board cell.
#[inline]
pub(crate) const fn cell_file(c: usize) -> u32 {
    (c / 13) as u32
}

/// The square of a board cell (which must be on the board).
#[inline]
pub(crate) fn square(c: usize) -> Square {
    Square::from_index_unchecked(CELL_SQUARE[c])
}

/// The square index of every cell; 255 on walls.
const CELL_SQUARE: [u8; CELLS] = {
    let mut t = [255u8; CELLS];
    let mut i = 0;
    while i < 81 {
        t[BOARD_CELLS[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// The bit of a square in an occupancy set (bit `i` = square index `i`).
#[inline]
pub(crate) const fn bit(sq: Square) -> u128 {
    1 << sq.index()
}

/// The 81 board cells in square-index order.
pub(crate) const BOARD_CELLS: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = ((i / 9 + 1) * 13 + i % 9 + 2) as u8;
        i += 1;
    }
    t
};

/// Relative rank (1 = last rank for that colour) of every cell, per colour; 0 on walls.
pub(crate) const REL_RANK: [[u8; CELLS]; 2] = {
    let mut t = [[0u8; CELLS]; 2];
    let mut i = 0;
    while i < 81 {
        let c = BOARD_CELLS[i] as usize;
        let rank = (i % 9 + 1) as u8;
        t[0][c] = rank;
        t[1][c] = 10 - rank;
        i += 1;
    }
    t
};

/// Owner of a cell code: 0 Black, 1 White, 2 empty, 3 wall (or any non-piece code).
pub(crate) const OWNER: [u8; 64] = {
    let mut t = [3u8; 64];
    t[0] = 2;
    let mut k = 1;
    while k <= 14 {
        t[k] = 0;
        t[k + 16] = 1;
        k += 1;
    }
    t
};

const fn black_steps(kind: u8) -> (u16, u8) {
    // (step mask over DIR indices, slide mask over the eight directions)
    const GOLD: u16 = 0b1100_0111; // 0, 1, 2, 6, 7 and 4 added below
    match kind {
        1 => (1 << 0, 0),
        2 => (0, 1 << 0),
        3 => ((1 << 8) | (1 << 9), 0),
        4 => ((1 << 0) | (1 << 1) | (1 << 7) | (1 << 3) | (1 << 5), 0),
        5 => (0, (1 << 1) | (1 << 3) | (1 << 5) | (1 << 7)),
        6 => (0, (1 << 0) | (1 << 2) | (1 << 4) | (1 << 6)),
        7 | 9 | 10 | 11 | 12 => (GOLD | (1 << 4), 0),
        8 => (0xff, 0),
        13 => (
            (1 << 0) | (1 << 2) | (1 << 4) | (1 << 6),
            (1 << 1) | (1 << 3) | (1 << 5) | (1 << 7),
        ),
        14 => (
            (1 << 1) | (1 << 3) | (1 << 5) | (1 << 7),
            (1 << 0) | (1 << 2) | (1 << 4) | (1 << 6),
        ),
        _ => (0, 0),
    }
}

const fn flip_mask(m: u16) -> u16 {
    let mut r = 0u16;
    let mut d = 0;
    while d < 12 {
        if m & (1 << d) != 0 {
            r |= 1 << OPPOSITE[d];
        }
        d += 1;
    }
    r
}

/// Step directions (bits over [`DIR`]) of every cell code.
pub(crate) const STEP: [u16; 64] = {
    let mut t = [0u16; 64];
    let mut k = 1;
    while k <= 14 {
        let (s, _) = black_steps(k as u8);
        t[k] = s;
        t[k + 16] = flip_mask(s);
        k += 1;
    }
    t
};

/// Slide directions (bits over the first eight [`DIR`]s) of every cell code.
pub(crate) const SLIDE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 1;
    while k <= 14 {
        let (_, s) = black_steps(k as u8);
        t[k] = s;
        t[k + 16] = flip_mask(s as u16) as u8;
        k += 1;
    }
    t
};

/// The cell code of a piece of `color` and `kind`.
#[inline]
pub(crate) const fn code(color: Color, kind: PieceType) -> u8 {
    kind as u8 | ((color as u8) << 4)
}

/// The kind part of a cell code (1–14).
#[inline]
pub(crate) const fn kind_of(code: u8) -> u8 {
    code & 15
}

/// Zobrist keys: one per (cell code, cell), one per (colour, hand kind, count), one for White to
/// move. Built from SplitMix64 at compile time so keys are the same on every platform.
pub(crate) struct Zobrist {
    pub(crate) board: [[u64; CELLS]; 32],
    pub(crate) hand: [[[u64; 19]; 8]; 2],
    pub(crate) white_to_move: u64,
}

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

pub(crate) static ZOBRIST: Zobrist = {
    let mut z = Zobrist {
        board: [[0; CELLS]; 32],
        hand: [[[0; 19]; 8]; 2],
        white_to_move: 0,
    };
    let mut st = 0x5a1c_0e0d_1ce5_0001u64;
    let mut p = 0;
    while p < 32 {
        let mut c = 0;
        while c < CELLS {
            let (s, v) = splitmix(st);
            st = s;
            z.board[p][c] = v;
            c += 1;
        }
        p += 1;
    }
    let mut col = 0;
    while col < 2 {
        let mut k = 0;
        while k < 8 {
            let mut n = 1; // a count of zero keys as 0
            while n < 19 {
                let (s, v) = splitmix(st);
                st = s;
                z.hand[col][k][n] = v;
                n += 1;
            }
            k += 1;
        }
        col += 1;
    }
    let (_, v) = splitmix(st);
    z.white_to_move = v;
    z
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        for sq in Square::all() {
            let c = cell(sq);
            assert_eq!(BOARD_CELLS[sq.index()] as usize, c);
            assert_eq!(square(c), sq);
            assert_eq!(cell_file(c), sq.file() as u32);
        }
    }

    #[test]
    fn directions_are_opposite_pairs() {
        for d in 0..12 {
            assert_eq!(DIR[d], -DIR[OPPOSITE[d]]);
            assert_eq!(OPPOSITE[OPPOSITE[d]], d);
        }
    }

    #[test]
    fn black_gold_and_silver_steps() {
        let from = cell(Square::from_usi("5e").unwrap());
        let names = |mask: u16| {
            let mut v: Vec<String> = (0..12)
                .filter(|d| mask & (1 << d) != 0)
                .map(|d| square((from as isize + DIR[d]) as usize).to_string())
                .collect();
            v.sort();
            v
        };
        assert_eq!(
            names(STEP[code(Color::Black, PieceType::Gold) as usize]),
            ["4d", "4e", "5d", "5f", "6d", "6e"]
        );
        assert_eq!(
            names(STEP[code(Color::Black, PieceType::Silver) as usize]),
            ["4d", "4f", "5d", "6d", "6f"]
        );
        assert_eq!(
            names(STEP[code(Color::White, PieceType::Silver) as usize]),
            ["4d", "4f", "5f", "6d", "6f"]
        );
        assert_eq!(
            names(STEP[code(Color::Black, PieceType::Knight) as usize]),
            ["4c", "6c"]
        );
        assert_eq!(
            names(STEP[code(Color::White, PieceType::Knight) as usize]),
            ["4g", "6g"]
        );
    }
}
