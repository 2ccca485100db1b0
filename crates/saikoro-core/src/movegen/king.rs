//! King moves: steps onto squares that no enemy piece attacks once the king has left its own
//! (so it cannot step back along a checking line).
//!
//! The eight squares are tested together: the enemy's stepping pieces near the king mark the
//! squares they reach (one table lookup each); only the enemy sliders whose lines come near
//! the king are looked at, each against the neighbours on its lines, walked square by square.

use super::sink::Sink;
use crate::mailbox::{
    opposite, BOARD_CELLS, CELL_SQUARE, CODES, DIR, LINE, NO_CELL, NO_LINE, SLIDE, STEP,
};
use crate::Position;

/// How far from the king (in files, and in ranks) a piece can stand and still step onto one of
/// the king's neighbours: a knight's jump onto a neighbour is the longest.
const FILES: i32 = 2;
const RANKS: i32 = 3;
/// Cell difference between a nearby piece and the king, offset to index [`STEPS_ONTO`].
const SPAN: isize = FILES as isize * 13 + RANKS as isize;

/// `STEPS_ONTO[code][cell difference + SPAN]`: the king's neighbours (bits over the eight
/// directions) that a piece with that code, standing at that cell difference from the king,
/// reaches in one step (knight jumps included; slides are followed separately).
static STEPS_ONTO: [[u8; 2 * SPAN as usize + 1]; CODES] = {
    let mut t = [[0u8; 2 * SPAN as usize + 1]; CODES];
    let mut code = 0;
    while code < CODES {
        let mut df = -FILES;
        while df <= FILES {
            let mut dr = -RANKS;
            while dr <= RANKS {
                let diff = df as isize * 13 + dr as isize;
                let mut mask = 0u8;
                let mut s = 0;
                while s < 12 {
                    if STEP[code] & (1 << s) != 0 {
                        let target = diff + DIR[s];
                        let mut d = 0;
                        while d < 8 {
                            if DIR[d] == target {
                                mask |= 1 << d;
                            }
                            d += 1;
                        }
                    }
                    s += 1;
                }
                t[code][(diff + SPAN) as usize] = mask;
                dr += 1;
            }
            df += 1;
        }
        code += 1;
    }
    t
};

/// Per king square, three square sets: the squares within [`FILES`] files and [`RANKS`] ranks
/// (where a stepping piece can reach a neighbour of the king), those within one file or one rank
/// (where a file or rank slider's line can cross the king's 3×3 block), and those within one
/// diagonal of the king's diagonals (where a diagonal slider's line can).
static ZONES: [[u128; 3]; 81] = {
    let mut t = [[0u128; 3]; 81];
    let mut k = 0;
    while k < 81 {
        let mut s: i32 = 0;
        while s < 81 {
            let (df, dr) = (s / 9 - k as i32 / 9, s % 9 - k as i32 % 9);
            if df.abs() <= FILES && dr.abs() <= RANKS {
                t[k][0] |= 1 << s;
            }
            if df.abs() <= 1 || dr.abs() <= 1 {
                t[k][1] |= 1 << s;
            }
            if (df - dr).abs() <= 2 || (df + dr).abs() <= 2 {
                t[k][2] |= 1 << s;
            }
            s += 1;
        }
        k += 1;
    }
    t
};

/// `NEAR_LINES[king square][square]`: the king's neighbours (bits over the eight directions)
/// that share a file, rank or diagonal with the square (and are not the square).
static NEAR_LINES: [[u8; 81]; 81] = {
    let mut t = [[0u8; 81]; 81];
    let mut k = 0;
    while k < 81 {
        let mut d = 0;
        while d < 8 {
            let c = (BOARD_CELLS[k] as isize + DIR[d]) as usize;
            let n = CELL_SQUARE[c];
            if n != 255 {
                let mut s = 0;
                while s < 81 {
                    if LINE[n as usize][s] != NO_LINE {
                        t[k][s] |= 1 << d;
                    }
                    s += 1;
                }
            }
            d += 1;
        }
        k += 1;
    }
    t
};

impl Position {
    /// Emits the legal moves of the side to move's king, standing on cell `k`, in ascending
    /// order of destination (the directions are in ascending order of their step).
    pub(super) fn king_moves<S: Sink>(&self, sink: &mut S, k: usize) {
        let us = self.side_to_move();
        let them = !us;
        // Neighbours the king could go to: empty or the enemy's.
        let mut open = !self.board.blocked_steps(us, k) as u8;
        if open == 0 {
            return;
        }
        let zones = &ZONES[CELL_SQUARE[k] as usize];
        let mut near = self.board.occupied(them) & zones[0];
        while near != 0 && open != 0 {
            let s = BOARD_CELLS[near.trailing_zeros() as usize] as isize;
            near &= near - 1;
            let code = self.board.at(s as usize) as usize;
            open &= !STEPS_ONTO[code][(s - k as isize + SPAN) as usize];
        }
        // Each enemy slider near the king, against the neighbours on its lines only: it takes
        // a neighbour when it slides toward it and nothing stands between (the king's own
        // square counts as empty).
        let [orthogonal, diagonal] = self.board.sliders_by_line(them);
        let mut sliders = (orthogonal & zones[1]) | (diagonal & zones[2]);
        let near_lines = &NEAR_LINES[CELL_SQUARE[k] as usize];
        while sliders != 0 && open != 0 {
            let s = sliders.trailing_zeros() as usize;
            sliders &= sliders - 1;
            let mut aligned = near_lines[s] & open;
            if aligned == 0 {
                continue;
            }
            let c = BOARD_CELLS[s] as usize;
            let slides = SLIDE[self.board.at(c) as usize];
            while aligned != 0 {
                let d = aligned.trailing_zeros() as usize;
                aligned &= aligned - 1;
                let t = (k as isize + DIR[d]) as usize;
                // The direction from `t` toward the slider, which slides the opposite way.
                let toward = LINE[CELL_SQUARE[t] as usize][s] as usize;
                if slides & (1 << opposite(toward)) != 0
                    && self.board.clear_between(t, c, DIR[toward], k, NO_CELL)
                {
                    open &= !(1 << d);
                }
            }
        }
        while open != 0 {
            let d = open.trailing_zeros() as usize;
            open &= open - 1;
            sink.normal(k, (k as isize + DIR[d]) as usize, false);
        }
    }
}
