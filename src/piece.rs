//! Piece kinds and coloured pieces.

use crate::Color;
use std::fmt;

/// The fourteen kinds of piece (駒の種類), promoted kinds included.
///
/// The discriminants are part of the board encoding: a promoted kind is its base kind + 8.
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
        (self as u8) <= 6
    }

    /// Whether the kind is a promoted one.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 9
    }

    /// The promoted kind, if the kind can promote.
    #[inline]
    pub const fn promote(self) -> Option<PieceType> {
        if self.can_promote() {
            PieceType::from_u8(self as u8 + 8)
        } else {
            None
        }
    }

    /// The base kind: promoted kinds lose their promotion, others are unchanged.
    #[inline]
    pub const fn unpromote(self) -> PieceType {
        if self.is_promoted() {
            PieceType::ALL[self as usize - 9]
        } else {
            self
        }
    }

    /// Whether a piece of this kind can be held in hand and dropped.
    #[inline]
    pub const fn is_hand_kind(self) -> bool {
        (self as u8) <= 7
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

    /// The two-letter CSA name (`FU`, `KY`, …, `TO`, `UM`, `RY`).
    pub const fn csa_name(self) -> &'static str {
        match self {
            PieceType::Pawn => "FU",
            PieceType::Lance => "KY",
            PieceType::Knight => "KE",
            PieceType::Silver => "GI",
            PieceType::Bishop => "KA",
            PieceType::Rook => "HI",
            PieceType::Gold => "KI",
            PieceType::King => "OU",
            PieceType::ProPawn => "TO",
            PieceType::ProLance => "NY",
            PieceType::ProKnight => "NK",
            PieceType::ProSilver => "NG",
            PieceType::Horse => "UM",
            PieceType::Dragon => "RY",
        }
    }

    /// The kind named by a CSA two-letter name.
    pub fn from_csa_name(s: &str) -> Option<PieceType> {
        PieceType::ALL.into_iter().find(|k| k.csa_name() == s)
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

    /// The board-cell code: the kind's discriminant, plus 16 for White.
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        self.kind as u8 | ((self.color as u8) << 4)
    }

    /// The piece with board-cell code `c`, if `c` holds a piece.
    #[inline]
    pub(crate) const fn from_code(c: u8) -> Option<Piece> {
        let color = if c & 16 != 0 {
            Color::White
        } else {
            Color::Black
        };
        match PieceType::from_u8(c & 15) {
            Some(kind) if c < 32 => Some(Piece { color, kind }),
            _ => None,
        }
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
    fn codes_round_trip() {
        for c in Color::ALL {
            for k in PieceType::ALL {
                let p = Piece::new(c, k);
                assert_eq!(Piece::from_code(p.code()), Some(p));
            }
        }
        assert_eq!(Piece::from_code(0), None);
        assert_eq!(Piece::from_code(32), None);
    }

    #[test]
    fn letters_and_csa_names() {
        assert_eq!(Piece::new(Color::White, PieceType::Horse).to_string(), "+b");
        assert_eq!(Piece::new(Color::Black, PieceType::Knight).to_string(), "N");
        assert_eq!(PieceType::from_csa_name("NK"), Some(PieceType::ProKnight));
        assert_eq!(PieceType::from_csa_name("XX"), None);
        assert_eq!(PieceType::Pawn.set_count(), 18);
        assert_eq!(PieceType::Dragon.set_count(), 2);
    }
}
