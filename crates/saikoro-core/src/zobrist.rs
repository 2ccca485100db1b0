//! Zobrist keys: one per (cell code, cell), one per (colour, hand kind, count), one for White to
//! move. Drawn from [`SplitMix64`] at compile time, so keys are the same on every platform.

use crate::mailbox::CELLS;
use crate::{Color, PieceType, SplitMix64};

pub(crate) struct Zobrist {
    board: [[u64; CELLS]; 32],
    hand: [[[u64; 19]; 8]; 2],
    white_to_move: u64,
}

impl Zobrist {
    /// The key of the piece with cell code `code` on cell `c`.
    #[inline]
    pub(crate) fn piece(&self, code: u8, c: usize) -> u64 {
        self.board[code as usize & 31][crate::mailbox::ix(c)]
    }

    /// The key of `color` holding `n` pieces of `kind` (0 for none).
    #[inline]
    pub(crate) fn hand(&self, color: Color, kind: PieceType, n: u8) -> u64 {
        self.hand[color.index()][kind as usize][n as usize]
    }

    /// The key of the side to move.
    #[inline]
    pub(crate) fn side(&self, side: Color) -> u64 {
        match side {
            Color::Black => 0,
            Color::White => self.white_to_move,
        }
    }
}

pub(crate) static ZOBRIST: Zobrist = {
    let mut z = Zobrist {
        board: [[0; CELLS]; 32],
        hand: [[[0; 19]; 8]; 2],
        white_to_move: 0,
    };
    let mut rng = SplitMix64::new(0x5a1c_0e0d_1ce5_0001);
    let mut p = 0;
    while p < 32 {
        let mut c = 0;
        while c < CELLS {
            z.board[p][c] = rng.next_u64();
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
                z.hand[col][k][n] = rng.next_u64();
                n += 1;
            }
            k += 1;
        }
        col += 1;
    }
    z.white_to_move = rng.next_u64();
    z
};
