//! Checkers and pins: what attacks the king of the side to move, and which of its pieces may
//! only move along the line between the king and an enemy slider.

use crate::board::ADJACENT_ATTACK;
use crate::mailbox::{
    cell_bit, code, opposite, BOARD_CELLS, CELL_SQUARE, DIR, KNIGHT_STEPS, LINE, NO_CELL, OWNER,
};
use crate::{Color, Piece, PieceType, Position};

/// Per square, the squares on its file or rank, those on its diagonals, and those next to it.
static AROUND: [[u128; 3]; 81] = {
    let mut t = [[0u128; 3]; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            let (df, dr) = (
                (b / 9) as i32 - (a / 9) as i32,
                (b % 9) as i32 - (a % 9) as i32,
            );
            if a != b && (df == 0 || dr == 0) {
                t[a][0] |= 1 << b;
            }
            if a != b && (df == dr || df == -dr) {
                t[a][1] |= 1 << b;
            }
            if a != b && df.abs() <= 1 && dr.abs() <= 1 {
                t[a][2] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// The direction of a knight's check (it cannot be blocked).
pub(super) const KNIGHT_CHECK: u8 = 255;

/// Checkers and pins of the side to move.
pub(super) struct Threats {
    /// How many pieces give check (capped at 2).
    pub(super) n_checkers: u8,
    /// The first checker's cell and its direction from the king (0–7), or [`KNIGHT_CHECK`].
    pub(super) checker: (usize, u8),
    /// The pinned pieces, as a square set.
    pinned: u128,
    /// Each pinned piece's cell and the line it is pinned on (a direction 0–7; the opposite
    /// direction is the same line).
    pins: [(u8, u8); 8],
    n_pins: usize,
}

impl Threats {
    /// Whether the piece on cell `c` may move along direction `d` (0–7).
    #[inline]
    pub(super) fn may_move(&self, c: usize, d: usize) -> bool {
        self.allowed_directions(c) & (1 << d) != 0
    }

    /// Whether the piece on cell `c` is pinned.
    #[inline]
    pub(super) fn is_pinned(&self, c: usize) -> bool {
        self.pinned & cell_bit(c) != 0
    }

    /// Whether any piece is pinned.
    #[inline]
    pub(super) fn any_pin(&self) -> bool {
        self.pinned != 0
    }

    /// The directions (bits over the first eight) a piece on cell `c` may still move in: all,
    /// or the two along its pin line.
    #[inline]
    pub(super) fn allowed_directions(&self, c: usize) -> u16 {
        if self.pinned & cell_bit(c) == 0 {
            return 0xfff;
        }
        let d = self.pins[..self.n_pins]
            .iter()
            .find(|&&(p, _)| p as usize == c)
            .map_or(0, |&(_, d)| d as usize);
        (1 << d) | (1 << opposite(d))
    }

    fn add_checker(&mut self, c: usize, d: u8) {
        if self.n_checkers == 0 {
            self.checker = (c, d);
        }
        self.n_checkers = (self.n_checkers + 1).min(2);
    }
}

impl Position {
    /// The checkers and pins of the side to move.
    #[inline]
    pub(super) fn threats(&self) -> Threats {
        self.threats_to(self.side_to_move())
    }

    /// The checkers of `us`'s king and the pins of `us`'s pieces.
    pub(super) fn threats_to(&self, us: Color) -> Threats {
        let them = !us;
        let mut t = Threats {
            n_checkers: 0,
            checker: (NO_CELL, 0),
            pinned: 0,
            pins: [(0, 0); 8],
            n_pins: 0,
        };
        let k = self.board.king(us);
        if k == NO_CELL {
            return t;
        }
        // Next to the king: any enemy piece that moves toward it.
        let ks = CELL_SQUARE[k] as usize;
        let around = &AROUND[ks];
        let mut adjacent = self.board.occupied(them) & around[2];
        while adjacent != 0 {
            let s = adjacent.trailing_zeros() as usize;
            adjacent &= adjacent - 1;
            let d = LINE[ks][s] as usize;
            let c = BOARD_CELLS[s] as usize;
            if ADJACENT_ATTACK[them.index()][d & 7][self.board.at(c) as usize] {
                t.add_checker(c, d as u8);
            }
        }
        let knight = code(Piece::new(them, PieceType::Knight));
        for j in KNIGHT_STEPS[them.index()] {
            let s = (k as isize - j) as usize;
            if self.board.at(s) == knight {
                t.add_checker(s, KNIGHT_CHECK);
            }
        }
        // Further away: each enemy slider on a line with the king, sliding toward it.
        let [orthogonal, diagonal] = self.board.sliders_by_line(them);
        let candidates = (orthogonal & around[0]) | (diagonal & around[1]);
        for (sc, d) in self.board.aimed_at(k, candidates) {
            let d = d as u8;
            let delta = DIR[d as usize];
            let x = self.board.first_piece(k, delta);
            if x == sc {
                // A slider next to the king was counted above.
                if x as isize != k as isize + delta {
                    t.add_checker(x, d);
                }
            } else if OWNER[self.board.at(x) as usize] == us as u8
                && self.board.first_piece(x, delta) == sc
            {
                t.pinned |= cell_bit(x);
                t.pins[t.n_pins] = (x as u8, d);
                t.n_pins += 1;
            }
        }
        t
    }
}
