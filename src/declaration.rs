//! Entering-king declaration (入玉宣言): the rule variants and the test of their conditions.

use crate::mailbox::{piece, BOARD_CELLS, NO_CELL, REL_RANK};
use crate::rules::in_promotion_zone;
use crate::{Color, PieceType, Position};
use std::fmt;
use std::str::FromStr;

/// Which entering-king declaration rule is in force (YaneuraOu's `EnteringKingRule` names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EnteringKingRule {
    /// No declaration: declaring never wins.
    NoEnteringKing,
    /// The 24-point rule: a declaration wins with 31 points or more.
    CsaRule24,
    /// The CSA 27-point rule (Floodgate's `Jishogi 1.1`): 28 points for Black, 27 for White.
    #[default]
    CsaRule27,
}

impl EnteringKingRule {
    /// All rules, in the order an option lists them.
    pub const ALL: [EnteringKingRule; 3] = [
        EnteringKingRule::NoEnteringKing,
        EnteringKingRule::CsaRule24,
        EnteringKingRule::CsaRule27,
    ];

    /// The option value naming this rule.
    pub const fn name(self) -> &'static str {
        match self {
            EnteringKingRule::NoEnteringKing => "NoEnteringKing",
            EnteringKingRule::CsaRule24 => "CSARule24",
            EnteringKingRule::CsaRule27 => "CSARule27",
        }
    }

    /// Points the declarer needs, or `None` when declaring never wins.
    pub const fn points_needed(self, declarer: Color) -> Option<u32> {
        match (self, declarer) {
            (EnteringKingRule::NoEnteringKing, _) => None,
            (EnteringKingRule::CsaRule24, _) => Some(31),
            (EnteringKingRule::CsaRule27, Color::Black) => Some(28),
            (EnteringKingRule::CsaRule27, Color::White) => Some(27),
        }
    }
}

impl fmt::Display for EnteringKingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`EnteringKingRule`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRule(pub String);

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown entering-king rule '{}' (expected NoEnteringKing, CSARule24 or CSARule27)",
            self.0
        )
    }
}

impl std::error::Error for UnknownRule {}

impl FromStr for EnteringKingRule {
    type Err = UnknownRule;
    /// Case-insensitive.
    fn from_str(s: &str) -> Result<Self, UnknownRule> {
        EnteringKingRule::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownRule(s.to_string()))
    }
}

impl Position {
    /// Whether the side to move may declare a win under `rule` (CSA conditions): its king is in
    /// the enemy camp and not in check, at least 10 of its other pieces are in the camp, and its
    /// points (rook and bishop, promoted or not, 5; every other piece 1; counting its pieces in
    /// the camp, king excluded, and in hand) reach the rule's threshold. Time is the clock's
    /// business.
    pub fn can_declare_win(&self, rule: EnteringKingRule) -> bool {
        let us = self.side_to_move();
        let Some(needed) = rule.points_needed(us) else {
            return false;
        };
        let k = self.board.king(us);
        if k == NO_CELL || !in_promotion_zone(REL_RANK[us.index()][k]) {
            return false;
        }
        let (mut pieces, mut points) = (0u32, 0u32);
        for &c in &BOARD_CELLS {
            let c = c as usize;
            if !in_promotion_zone(REL_RANK[us.index()][c]) || c == k {
                continue;
            }
            if let Some(p) = piece(self.board.at(c)) {
                if p.color == us {
                    pieces += 1;
                    points += piece_points(p.kind);
                }
            }
        }
        if pieces < 10 {
            return false;
        }
        for (kind, n) in self.hand(us).iter() {
            points += piece_points(kind) * n as u32;
        }
        points >= needed && !self.in_check()
    }
}

fn piece_points(kind: PieceType) -> u32 {
    match kind.unpromote() {
        PieceType::Bishop | PieceType::Rook => 5,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_names_parse_case_insensitively() {
        assert_eq!("csarule27".parse(), Ok(EnteringKingRule::CsaRule27));
        assert_eq!("CSARule24".parse(), Ok(EnteringKingRule::CsaRule24));
        assert!("TryRule".parse::<EnteringKingRule>().is_err());
    }

    /// Black king on 5b. In the camp (ranks a-c), besides the king: +R +B G G G +P +P S S on
    /// rank a, +N on 1b, G on 9c: 11 pieces, 5 + 5 + 9 = 19 points. With 9 pawns in hand that is
    /// 28 points, exactly what the 27-point rule asks of Black; with 8 it is 27, one short.
    #[test]
    fn black_declares_with_28_points_and_10_pieces() {
        let pos = Position::from_sfen("+R+BGGG+P+PSS/4K3+N/G8/9/9/9/9/9/k8 b 9P 1").unwrap();
        assert!(pos.can_declare_win(EnteringKingRule::CsaRule27));
        assert!(!pos.can_declare_win(EnteringKingRule::CsaRule24));
        assert!(!pos.can_declare_win(EnteringKingRule::NoEnteringKing));
        let pos = Position::from_sfen("+R+BGGG+P+PSS/4K3+N/G8/9/9/9/9/9/k8 b 8P 1").unwrap();
        assert!(!pos.can_declare_win(EnteringKingRule::CsaRule27));
    }

    /// Nine pieces in the camp are not enough, whatever the points.
    #[test]
    fn ten_pieces_are_needed() {
        let pos = Position::from_sfen("+R+BGGG+P+PS1/4K4/G8/9/9/9/9/9/k8 b RS16P 1").unwrap();
        assert!(!pos.can_declare_win(EnteringKingRule::CsaRule27));
    }
}
