//! Piece kinds and coloured pieces.

use crate::Color;
use std::fmt;

/// The fourteen kinds of piece (駒の種類), promoted kinds included.
///
/// The declaration order is the canonical order of drops (pawn first, gold last among the hand
/// kinds); the discriminants (1–14) are the kind's part of a board cell's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    /// 歩 (fu), pawn.
    Pawn = 1,
    /// 香 (kyō), lance.
    Lance = 2,
    /// 桂 (kei), knight.
    Knight = 3,
    /// 銀 (gin), silver general.
    Silver = 4,
    /// 角 (kaku), bishop.
    Bishop = 5,
    /// 飛 (hisha), rook.
    Rook = 6,
    /// 金 (kin), gold general.
    Gold = 7,
    /// 玉/王 (gyoku/ō), king.
    King = 8,
    /// と (tokin), promoted pawn.
    ProPawn = 9,
    /// 成香 (narikyō), promoted lance.
    ProLance = 10,
    /// 成桂 (narikei), promoted knight.
    ProKnight = 11,
    /// 成銀 (narigin), promoted silver.
    ProSilver = 12,
    /// 馬 (uma), promoted bishop (horse).
    Horse = 13,
    /// 龍 (ryū), promoted rook (dragon).
    Dragon = 14,
}

impl PieceType {
    /// All fourteen kinds in discriminant order.
    pub const ALL: [PieceType; 14] = [
        PieceType::Pawn,
        PieceType::Lance,
        PieceType::Knight,
        PieceType::Silver,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Gold,
        PieceType::King,
        PieceType::ProPawn,
        PieceType::ProLance,
        PieceType::ProKnight,
        PieceType::ProSilver,
        PieceType::Horse,
        PieceType::Dragon,
    ];

    /// The seven kinds that can be held in hand, in discriminant order (P L N S B R G): the
    /// order of drops in the canonical move order.
    pub const HAND_KINDS: [PieceType; 7] = [
        PieceType::Pawn,
        PieceType::Lance,
        PieceType::Knight,
        PieceType::Silver,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Gold,
    ];

    /// The seven kinds that can be held in hand, in SFEN's canonical order (R B G S N L P).
    pub const HAND_SFEN_ORDER: [PieceType; 7] = [
        PieceType::Rook,
        PieceType::Bishop,
        PieceType::Gold,
        PieceType::Silver,
        PieceType::Knight,
        PieceType::Lance,
        PieceType::Pawn,
    ];

    /// The kind with discriminant `v` (1–14).
    #[inline]
    pub const fn from_u8(v: u8) -> Option<PieceType> {
        if v >= 1 && v <= 14 {
            Some(PieceType::ALL[v as usize - 1])
        } else {
            None
        }
    }

    /// Whether the kind may promote (P, L, N, S, B, R).
    #[inline]
    pub const fn can_promote(self) -> bool {
        self.promote().is_some()
    }

    /// Whether the kind is a promoted one.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        matches!(
            self,
            PieceType::ProPawn
                | PieceType::ProLance
                | PieceType::ProKnight
                | PieceType::ProSilver
                | PieceType::Horse
                | PieceType::Dragon
        )
    }

    /// The promoted kind, if the kind can promote.
    #[inline]
    pub const fn promote(self) -> Option<PieceType> {
        match self {
            PieceType::Pawn => Some(PieceType::ProPawn),
            PieceType::Lance => Some(PieceType::ProLance),
            PieceType::Knight => Some(PieceType::ProKnight),
            PieceType::Silver => Some(PieceType::ProSilver),
            PieceType::Bishop => Some(PieceType::Horse),
            PieceType::Rook => Some(PieceType::Dragon),
            _ => None,
        }
    }

    /// The base kind: promoted kinds lose their promotion, others are unchanged.
    #[inline]
    pub const fn unpromote(self) -> PieceType {
        match self {
            PieceType::ProPawn => PieceType::Pawn,
            PieceType::ProLance => PieceType::Lance,
            PieceType::ProKnight => PieceType::Knight,
            PieceType::ProSilver => PieceType::Silver,
            PieceType::Horse => PieceType::Bishop,
            PieceType::Dragon => PieceType::Rook,
            k => k,
        }
    }

    /// Whether a piece of this kind can be held in hand and dropped.
    #[inline]
    pub const fn is_hand_kind(self) -> bool {
        !matches!(self, PieceType::King) && !self.is_promoted()
    }

    /// How many pieces of this base kind a full set has (both sides together).
    pub const fn set_count(self) -> u8 {
        match self.unpromote() {
            PieceType::Pawn => 18,
            PieceType::Lance | PieceType::Knight | PieceType::Silver | PieceType::Gold => 4,
            PieceType::Bishop | PieceType::Rook | PieceType::King => 2,
            _ => 0,
        }
    }

    /// The upper-case SFEN letter of the base kind (`P L N S B R G K`).
    pub const fn sfen_letter(self) -> char {
        match self.unpromote() {
            PieceType::Pawn => 'P',
            PieceType::Lance => 'L',
            PieceType::Knight => 'N',
            PieceType::Silver => 'S',
            PieceType::Bishop => 'B',
            PieceType::Rook => 'R',
            PieceType::Gold => 'G',
            _ => 'K',
        }
    }

    /// The unpromoted kind named by an SFEN letter (either case).
    pub const fn from_sfen_letter(c: char) -> Option<PieceType> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceType::Pawn),
            'L' => Some(PieceType::Lance),
            'N' => Some(PieceType::Knight),
            'S' => Some(PieceType::Silver),
            'B' => Some(PieceType::Bishop),
            'R' => Some(PieceType::Rook),
            'G' => Some(PieceType::Gold),
            'K' => Some(PieceType::King),
            _ => None,
        }
    }
}

/// A piece of one side: its colour and kind (駒).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// The owner.
    pub color: Color,
    /// The kind.
    pub kind: PieceType,
}

impl Piece {
    /// A piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece { color, kind }
    }
}

impl fmt::Display for Piece {
    /// SFEN text: `+` for promoted kinds, upper case for Black, lower case for White.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind.is_promoted() {
            f.write_str("+")?;
        }
        let l = self.kind.sfen_letter();
        let l = match self.color {
            Color::Black => l,
            Color::White => l.to_ascii_lowercase(),
        };
        write!(f, "{l}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The discriminants run from 1 (pawn) to 14 (dragon); 0 and 15 are no kind.
    #[test]
    fn kinds_from_their_numbers() {
        assert_eq!(PieceType::from_u8(1), Some(PieceType::Pawn));
        assert_eq!(PieceType::from_u8(8), Some(PieceType::King));
        assert_eq!(PieceType::from_u8(14), Some(PieceType::Dragon));
        assert_eq!(
            (PieceType::from_u8(0), PieceType::from_u8(15)),
            (None, None)
        );
    }

    #[test]
    fn promotion_table() {
        for k in PieceType::ALL {
            match k.promote() {
                Some(p) => {
                    assert!(k.can_promote());
                    assert!(p.is_promoted());
                    assert_eq!(p.unpromote(), k);
                }
                None => assert!(!k.can_promote()),
            }
        }
        assert_eq!(PieceType::Gold.promote(), None);
        assert_eq!(PieceType::King.promote(), None);
        assert_eq!(PieceType::Horse.unpromote(), PieceType::Bishop);
        assert_eq!(PieceType::Dragon.unpromote(), PieceType::Rook);
    }

    #[test]
    fn letters_and_set_counts() {
        assert_eq!(Piece::new(Color::White, PieceType::Horse).to_string(), "+b");
        assert_eq!(Piece::new(Color::Black, PieceType::Knight).to_string(), "N");
        assert_eq!(PieceType::Pawn.set_count(), 18);
        assert_eq!(PieceType::Dragon.set_count(), 2);
    }
}
