//! 打ち歩詰め: a pawn drop that checkmates is illegal.

use crate::mailbox::{code, opposite, DIR, KNIGHT_STEPS, NO_CELL, OWNER, SLIDE, STEP};
use crate::{Piece, PieceType, Position};

impl Position {
    /// Whether dropping a pawn of the side to move on cell `to`, directly in front of the enemy
    /// king, would checkmate; the drop must be legal in every other respect. A query on this
    /// position, reasoning about the one after the drop: the pawn gives a contact check, which
    /// no drop can answer, so the defender can only move the king to a safe square or capture
    /// the pawn with another piece that may leave its square.
    pub(super) fn pawn_drop_mates(&self, to: usize) -> bool {
        let us = self.side_to_move();
        let them = !us;
        let k = self.board.king(them);
        // An undefended pawn is simply taken by the king: the pawn adds no attack on its own
        // square, and no line of ours runs through the king (it is not in check).
        if !self.board.attacked_by(to, us, NO_CELL) {
            return false;
        }
        // King escapes, with the king off its square and the pawn standing on `to`: the pawn
        // attacks only the king's square, but it blocks our own lines through `to`.
        for &delta in &DIR[..8] {
            let t = (k as isize + delta) as usize;
            let owner = OWNER[self.board.at(t) as usize];
            if t != to
                && (owner == 2 || owner == us as u8)
                && !self.board.attacked_by_near(t, us, k)
                && !self
                    .board
                    .attacked_by_one_of(t, self.board.sliders(us), k, to)
            {
                return false;
            }
        }
        // Captures of the pawn by another defender that is free to leave its square (the drop
        // pins nothing: it only adds one of our pieces).
        let pins = self.threats_to(them);
        for (d, &delta) in DIR[..8].iter().enumerate() {
            let first = (to as isize + delta) as usize;
            let s = self.board.first_piece(to, delta);
            let p = self.board.at(s) as usize;
            let steps = if s == first { STEP[p] } else { 0 };
            if OWNER[p] == them as u8
                && s != k
                && (steps | SLIDE[p] as u16) & (1 << opposite(d)) != 0
                && pins.may_move(s, opposite(d))
            {
                return false;
            }
        }
        let knight = code(Piece::new(them, PieceType::Knight));
        !KNIGHT_STEPS[them.index()].iter().any(|&j| {
            let s = (to as isize - j) as usize;
            self.board.at(s) == knight && !pins.is_pinned(s)
        })
    }
}
