//! Drops (打ち): a piece from hand onto an empty square where it could still move; no second
//! unpromoted pawn on a file (二歩); no pawn drop that mates (打ち歩詰め, see `uchifuzume`).

use super::sink::Sink;
use crate::mailbox::{cell_bit, live_squares, DIR, FILE_SQUARES, NO_CELL, REL_RANK};
use crate::{Color, PieceType, Position};

/// `LIVE[colour][kind]`: the squares where a dropped piece could still move (by
/// [`PieceType::HAND_KINDS`] index).
const LIVE: [[u128; 7]; 2] = {
    let mut t = [[0u128; 7]; 2];
    let mut k = 0;
    while k < 7 {
        t[0][k] = live_squares(Color::Black, PieceType::HAND_KINDS[k]);
        t[1][k] = live_squares(Color::White, PieceType::HAND_KINDS[k]);
        k += 1;
    }
    t
};

/// `LOW_FILES[f]`: the squares of files 1–5 whose bit is set in `f` (bit 0 = file 1), as a
/// square set; `HIGH_FILES[f]` the same for files 6–9 (bit 0 = file 6).
const LOW_FILES: [u128; 32] = files_table(0);
const HIGH_FILES: [u128; 32] = files_table(5);

const fn files_table(first: usize) -> [u128; 32] {
    let mut t = [0u128; 32];
    let mut f = 0;
    while f < 32 {
        let mut b = 0;
        while b < 5 {
            if f & (1 << b) != 0 && first + b < 9 {
                t[f] |= FILE_SQUARES[first + b + 1];
            }
            b += 1;
        }
        f += 1;
    }
    t
}

impl Position {
    /// Emits the legal drops onto the square set `targets` (the empty squares, or in check those
    /// between checker and king), by kind, then square.
    pub(super) fn drops<S: Sink>(&self, sink: &mut S, targets: u128) {
        let us = self.side_to_move();
        let hand = self.hand(us);
        if hand.is_empty() || targets == 0 {
            return;
        }
        for (i, kind) in PieceType::HAND_KINDS.into_iter().enumerate() {
            if hand.count(kind) == 0 {
                continue;
            }
            let mut allowed = targets & LIVE[us.index()][i];
            if kind == PieceType::Pawn {
                allowed = self.pawn_drop_squares(allowed);
            }
            sink.drops(kind, allowed);
        }
    }

    /// Of the square set `allowed`, the squares where the side to move may drop a pawn: not on a
    /// file with its own unpromoted pawn, and not in front of the enemy king if that mates.
    fn pawn_drop_squares(&self, mut allowed: u128) -> u128 {
        let us = self.side_to_move();
        let files = (self.board.pawn_files(us) >> 1) as usize;
        allowed &= !(LOW_FILES[files & 31] | HIGH_FILES[files >> 5]);
        let their_king = self.board.king(!us);
        if their_king != NO_CELL {
            // The square in front of the enemy king, seen from the dropping side.
            let forward = match us {
                Color::Black => DIR[4],
                Color::White => DIR[3],
            };
            let c = (their_king as isize + forward) as usize;
            if REL_RANK[0][c] != 0 && allowed & cell_bit(c) != 0 && self.pawn_drop_mates(c) {
                allowed &= !cell_bit(c);
            }
        }
        allowed
    }
}
