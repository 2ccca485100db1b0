//! The rules of movement and promotion, each stated once. Every table the generator uses is
//! derived from these at compile time (see `mailbox.rs`).
//!
//! Offsets are `(file, rank)` steps seen from Black: Black moves toward rank 1, so "forward" is
//! a rank step of −1. A White piece moves by the opposite offsets (its pieces point the other
//! way).

use crate::PieceType;

/// How many ranks deep the promotion zone (敵陣) is: the far three.
pub(crate) const PROMOTION_ZONE_RANKS: u8 = 3;

/// Whether a square on `relative_rank` (1 = the mover's last rank) is in its promotion zone.
#[inline]
pub(crate) const fn in_promotion_zone(relative_rank: u8) -> bool {
    relative_rank <= PROMOTION_ZONE_RANKS
}

/// On how many of its last ranks a piece of `kind` could never move again (行き所のない駒):
/// a pawn or lance on the last rank, a knight on the last two. Such a piece may not be dropped
/// there, and a move there must promote.
#[inline]
pub(crate) const fn dead_ranks(kind: PieceType) -> u8 {
    match kind {
        PieceType::Pawn | PieceType::Lance => 1,
        PieceType::Knight => 2,
        _ => 0,
    }
}

/// Whether a piece of `kind` standing on `relative_rank` could never move again.
#[inline]
pub(crate) const fn is_dead(kind: PieceType, relative_rank: u8) -> bool {
    relative_rank <= dead_ranks(kind)
}

/// The knight's two jumps: two ranks forward and one file to either side.
pub(crate) const KNIGHT_JUMPS: [(i8, i8); 2] = [(-1, -2), (1, -2)];

/// The one-square steps of each kind (the knight's jumps included), seen from Black.
pub(crate) const fn steps(kind: PieceType) -> &'static [(i8, i8)] {
    const GOLD: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
    const DIAGONALS: &[(i8, i8)] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
    const ORTHOGONALS: &[(i8, i8)] = &[(0, -1), (-1, 0), (1, 0), (0, 1)];
    match kind {
        PieceType::Pawn => &[(0, -1)],
        PieceType::Knight => &KNIGHT_JUMPS,
        PieceType::Silver => &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)],
        PieceType::Gold
        | PieceType::ProPawn
        | PieceType::ProLance
        | PieceType::ProKnight
        | PieceType::ProSilver => GOLD,
        PieceType::King => &[
            (-1, -1),
            (0, -1),
            (1, -1),
            (-1, 0),
            (1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
        ],
        PieceType::Horse => ORTHOGONALS,
        PieceType::Dragon => DIAGONALS,
        PieceType::Lance | PieceType::Bishop | PieceType::Rook => &[],
    }
}

/// The directions in which each kind slides any distance, seen from Black.
pub(crate) const fn slides(kind: PieceType) -> &'static [(i8, i8)] {
    const DIAGONALS: &[(i8, i8)] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
    const ORTHOGONALS: &[(i8, i8)] = &[(0, -1), (-1, 0), (1, 0), (0, 1)];
    match kind {
        PieceType::Lance => &[(0, -1)],
        PieceType::Bishop | PieceType::Horse => DIAGONALS,
        PieceType::Rook | PieceType::Dragon => ORTHOGONALS,
        _ => &[],
    }
}

/// Which of a board move's two versions the rules allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Promotion {
    /// Only the plain move: the piece cannot promote, or the move neither starts nor ends in
    /// the zone.
    Never,
    /// Both the plain move and the promotion.
    Optional,
    /// Only the promotion: the plain move would leave a dead piece.
    Forced,
}

/// The promotion rule (成り): a piece that can promote may do so when its move starts or ends in
/// the promotion zone, and must when it would otherwise stand dead. Ranks are relative to the
/// mover.
pub(crate) const fn promotion(kind: PieceType, from_rank: u8, to_rank: u8) -> Promotion {
    if !kind.can_promote() || !(in_promotion_zone(from_rank) || in_promotion_zone(to_rank)) {
        Promotion::Never
    } else if is_dead(kind, to_rank) {
        Promotion::Forced
    } else {
        Promotion::Optional
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dead_squares() {
        assert!(is_dead(PieceType::Pawn, 1) && !is_dead(PieceType::Pawn, 2));
        assert!(is_dead(PieceType::Lance, 1) && !is_dead(PieceType::Lance, 2));
        assert!(is_dead(PieceType::Knight, 2) && !is_dead(PieceType::Knight, 3));
        assert!(!is_dead(PieceType::Silver, 1) && !is_dead(PieceType::ProPawn, 1));
    }

    #[test]
    fn promotion_choices() {
        use Promotion::*;
        assert_eq!(promotion(PieceType::Pawn, 5, 4), Never);
        assert_eq!(promotion(PieceType::Pawn, 4, 3), Optional);
        assert_eq!(promotion(PieceType::Pawn, 2, 1), Forced);
        assert_eq!(promotion(PieceType::Knight, 4, 2), Forced);
        assert_eq!(promotion(PieceType::Silver, 3, 4), Optional);
        assert_eq!(promotion(PieceType::Rook, 2, 7), Optional);
        assert_eq!(promotion(PieceType::Gold, 2, 1), Never);
        assert_eq!(promotion(PieceType::Dragon, 2, 1), Never);
    }
}
