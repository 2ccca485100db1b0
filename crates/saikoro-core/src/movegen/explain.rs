//! Why a move is illegal: the first rule it breaks, found without playing it.

use super::threats::KNIGHT_CHECK;
use super::IllegalMove;
use crate::mailbox::{cell, DIR, EMPTY, SLIDE, STEP};
use crate::rules;
use crate::rules::Promotion;
use crate::{Move, PieceType, Position};

impl Position {
    /// Diagnoses a move known not to be legal.
    pub(super) fn explain_illegal(&self, mv: Move) -> IllegalMove {
        let us = self.side_to_move();
        match mv {
            Move::Drop { kind, to } => {
                if self.hand(us).count(kind) == 0 {
                    IllegalMove::NotInHand
                } else if self.piece_at(to).is_some() {
                    IllegalMove::SquareOccupied
                } else if rules::is_dead(kind, to.relative_rank(us)) {
                    IllegalMove::DeadDrop
                } else if kind == PieceType::Pawn
                    && self.board.pawn_files(us) & (1 << to.file()) != 0
                {
                    IllegalMove::Nifu
                } else if !self.interposes(cell(to)) {
                    IllegalMove::KingInCheck
                } else {
                    // Shaped right and safe for the own king, yet not in the list: only the
                    // pawn-drop-mate rule is left.
                    IllegalMove::PawnDropMate
                }
            }
            Move::Normal { from, to, .. } if from == to => IllegalMove::NullMove,
            Move::Normal { from, to, promote } => {
                let Some(piece) = self.piece_at(from) else {
                    return IllegalMove::NoPiece;
                };
                if piece.color != us {
                    return IllegalMove::NotOwnPiece;
                }
                if self.piece_at(to).is_some_and(|p| p.color == us) {
                    return IllegalMove::OwnPieceOnTarget;
                }
                if !self.reaches(cell(from), cell(to)) {
                    return IllegalMove::CannotReach;
                }
                match rules::promotion(piece.kind, from.relative_rank(us), to.relative_rank(us)) {
                    Promotion::Never if promote => IllegalMove::CannotPromote,
                    Promotion::Forced if !promote => IllegalMove::MustPromote,
                    _ => IllegalMove::KingInCheck,
                }
            }
        }
    }

    /// Whether a drop on the empty cell `c` leaves the own king safe: it is not in check, or in
    /// single check by a distant piece with `c` between them.
    fn interposes(&self, c: usize) -> bool {
        let th = self.threats();
        match th.n_checkers {
            0 => true,
            1 if th.checker.1 != KNIGHT_CHECK => {
                let delta = DIR[th.checker.1 as usize];
                let mut s = (self.board.king(self.side_to_move()) as isize + delta) as usize;
                while s != th.checker.0 {
                    if s == c {
                        return true;
                    }
                    s = (s as isize + delta) as usize;
                }
                false
            }
            _ => false,
        }
    }

    /// Whether the piece on cell `from` could move to cell `to` by its move pattern, with the
    /// squares in between empty.
    pub(crate) fn reaches(&self, from: usize, to: usize) -> bool {
        let p = self.board.at(from) as usize;
        for (d, &delta) in DIR.iter().enumerate() {
            if STEP[p] & (1 << d) != 0 && (from as isize + delta) as usize == to {
                return true;
            }
        }
        for (d, &delta) in DIR.iter().enumerate().take(8) {
            if SLIDE[p] & (1 << d) == 0 {
                continue;
            }
            let mut s = (from as isize + delta) as usize;
            loop {
                if s == to {
                    return true;
                }
                if self.board.at(s) != EMPTY {
                    break;
                }
                s = (s as isize + delta) as usize;
            }
        }
        false
    }
}
