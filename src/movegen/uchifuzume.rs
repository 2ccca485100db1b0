//! 打ち歩詰め: a pawn drop that checkmates is illegal.

use crate::mailbox::{square, NO_CELL};
use crate::{Move, PieceType, Position};

impl Position {
    /// Whether dropping a pawn of the side to move on cell `to`, directly in front of the enemy
    /// king, would checkmate; the drop must be legal in every other respect. The drop is played
    /// on a copy, and the opponent's legal moves are looked for there. The pawn gives a contact
    /// check, which no drop can answer, so the search does not recurse.
    pub(super) fn pawn_drop_mates(&self, to: usize) -> bool {
        // An undefended pawn is simply taken by the king: the pawn adds no attack on its own
        // square, and the king leaving its square cannot expose that square.
        if !self.board.attacked_by(to, self.side_to_move(), NO_CELL) {
            return false;
        }
        let mut after = self.clone();
        after.do_move(Move::Drop {
            kind: PieceType::Pawn,
            to: square(to),
        });
        !after.has_legal_move()
    }
}
