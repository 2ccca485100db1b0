//! Pieces in hand (持ち駒).

use crate::PieceType;
use std::fmt;

/// The pieces one side holds in hand: a count for each of the seven droppable kinds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand {
    /// Indexed by the kind's discriminant (1 = pawn … 7 = gold); index 0 is unused.
    counts: [u8; 8],
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { counts: [0; 8] };

    /// How many pieces of `kind` are held (0 for kinds that cannot be held).
    #[inline]
    pub fn count(&self, kind: PieceType) -> u8 {
        if kind.is_hand_kind() {
            self.counts[kind as usize]
        } else {
            0
        }
    }

    /// Sets the count of `kind`. Panics if `kind` cannot be held in hand.
    #[inline]
    pub fn set(&mut self, kind: PieceType, n: u8) {
        assert!(kind.is_hand_kind(), "{kind:?} cannot be held in hand");
        self.counts[kind as usize] = n;
    }

    /// Adds one piece of `kind` (its base kind: a captured dragon goes to hand as a rook).
    #[inline]
    pub fn add(&mut self, kind: PieceType) {
        self.counts[kind.unpromote() as usize] += 1;
    }

    /// Removes one piece of `kind`; returns false (and changes nothing) if none is held.
    #[inline]
    pub fn take(&mut self, kind: PieceType) -> bool {
        let k = kind.unpromote() as usize;
        if k <= 7 && self.counts[k] > 0 {
            self.counts[k] -= 1;
            true
        } else {
            false
        }
    }

    /// Whether no piece is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 8]
    }

    /// Total number of pieces held.
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&n| n as u32).sum()
    }

    /// The held kinds with their counts, in SFEN order (R B G S N L P), zero counts skipped.
    pub fn iter(&self) -> impl Iterator<Item = (PieceType, u8)> + '_ {
        PieceType::HAND_SFEN_ORDER
            .into_iter()
            .map(|k| (k, self.count(k)))
            .filter(|&(_, n)| n > 0)
    }
}

impl fmt::Display for Hand {
    /// The SFEN text of this hand in upper case (`R2P`), empty when the hand is empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, n) in self.iter() {
            if n > 1 {
                write!(f, "{n}")?;
            }
            write!(f, "{}", k.sfen_letter())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_and_take() {
        let mut h = Hand::EMPTY;
        assert!(h.is_empty());
        h.add(PieceType::Dragon);
        h.add(PieceType::ProPawn);
        h.add(PieceType::Pawn);
        assert_eq!(h.count(PieceType::Rook), 1);
        assert_eq!(h.count(PieceType::Pawn), 2);
        assert_eq!(h.total(), 3);
        assert!(h.take(PieceType::Rook));
        assert!(!h.take(PieceType::Rook));
        assert_eq!(h.to_string(), "2P");
    }

    #[test]
    fn display_is_canonical_order() {
        let mut h = Hand::EMPTY;
        h.set(PieceType::Pawn, 3);
        h.set(PieceType::Gold, 1);
        h.set(PieceType::Rook, 2);
        assert_eq!(h.to_string(), "2RG3P");
    }
}
