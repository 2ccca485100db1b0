//! Entering-king declaration (入玉宣言): the rule variants and the test of their conditions.

use crate::mailbox::{piece, BOARD_CELLS, NO_CELL, REL_RANK, ZONE};
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

/// Why a declaration does not hold: the first CSA condition that fails, in the order the CSA
/// championship rules list them (after the rule itself and the king's presence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeclarationError {
    /// The rule in force allows no declaration (`NoEnteringKing`).
    NotAllowed,
    /// The declarer has no king (an edited position).
    NoKing,
    /// The declarer's king is not in the enemy camp (the opponent's three ranks).
    KingOutsideCamp,
    /// The declarer's king is in check.
    InCheck,
    /// Fewer than 10 of the declarer's pieces besides the king stand in the enemy camp.
    TooFewPieces {
        /// How many do.
        pieces: u32,
    },
    /// The points fall short of the rule's threshold.
    TooFewPoints {
        /// The declarer's points.
        points: u32,
        /// The threshold.
        needed: u32,
    },
}

impl fmt::Display for DeclarationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeclarationError::NotAllowed => f.write_str("the rule allows no declaration"),
            DeclarationError::NoKing => f.write_str("the declarer has no king"),
            DeclarationError::KingOutsideCamp => f.write_str("the king is not in the enemy camp"),
            DeclarationError::InCheck => f.write_str("the king is in check"),
            DeclarationError::TooFewPieces { pieces } => write!(
                f,
                "{pieces} pieces besides the king are in the enemy camp, 10 are needed"
            ),
            DeclarationError::TooFewPoints { points, needed } => {
                write!(f, "{points} points, {needed} are needed")
            }
        }
    }
}

impl std::error::Error for DeclarationError {}

/// What a declaration is counted on: the declarer's points (rook and bishop, promoted or not, 5;
/// every other piece 1; over its pieces in the enemy camp, king excluded, and in hand) and how
/// many of its pieces besides the king stand in the camp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclarationCount {
    /// The points.
    pub points: u32,
    /// Pieces in the enemy camp, king excluded.
    pub pieces_in_camp: u32,
}

impl Position {
    /// `side`'s declaration count, whatever the other conditions.
    pub fn declaration_count(&self, side: Color) -> DeclarationCount {
        let k = self.board.king(side);
        let (mut pieces, mut points) = (0u32, 0u32);
        for &c in &BOARD_CELLS {
            let c = c as usize;
            if !in_promotion_zone(REL_RANK[side.index()][c]) || c == k {
                continue;
            }
            if let Some(p) = piece(self.board.at(c)) {
                if p.color == side {
                    pieces += 1;
                    points += piece_points(p.kind);
                }
            }
        }
        for (kind, n) in self.hand(side).iter() {
            points += piece_points(kind) * n as u32;
        }
        DeclarationCount {
            points,
            pieces_in_camp: pieces,
        }
    }

    /// Judges a declaration by the side to move under `rule` (CSA conditions): its king is in
    /// the enemy camp and not in check, at least 10 of its other pieces are in the camp, and its
    /// points reach the rule's threshold. Time is the clock's business.
    pub fn check_declaration(
        &self,
        rule: EnteringKingRule,
    ) -> Result<DeclarationCount, DeclarationError> {
        let us = self.side_to_move();
        let needed = rule.points_needed(us).ok_or(DeclarationError::NotAllowed)?;
        let k = self.board.king(us);
        if k == NO_CELL {
            return Err(DeclarationError::NoKing);
        }
        if !in_promotion_zone(REL_RANK[us.index()][k]) {
            return Err(DeclarationError::KingOutsideCamp);
        }
        if self.in_check() {
            return Err(DeclarationError::InCheck);
        }
        let count = self.declaration_count(us);
        if count.pieces_in_camp < 10 {
            return Err(DeclarationError::TooFewPieces {
                pieces: count.pieces_in_camp,
            });
        }
        if count.points < needed {
            return Err(DeclarationError::TooFewPoints {
                points: count.points,
                needed,
            });
        }
        Ok(count)
    }

    /// Whether the side to move may declare a win under `rule`: [`Position::check_declaration`]
    /// finds every condition met. (Asked at every ply of a game: the king's place and the
    /// number of pieces in the camp, read from square sets, rule most positions out first.)
    pub fn can_declare_win(&self, rule: EnteringKingRule) -> bool {
        let us = self.side_to_move();
        let k = self.board.king(us);
        if rule.points_needed(us).is_none()
            || k == NO_CELL
            || !in_promotion_zone(REL_RANK[us.index()][k])
        {
            return false;
        }
        // The king is in the camp too: at least 11 of the side's pieces.
        let in_camp = self.board.occupied(us) & ZONE[us.index()];
        in_camp.count_ones() >= 11 && self.check_declaration(rule).is_ok()
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
    use crate::Game;

    #[test]
    fn rule_names_parse_case_insensitively() {
        assert_eq!("csarule27".parse(), Ok(EnteringKingRule::CsaRule27));
        assert_eq!("CSARule24".parse(), Ok(EnteringKingRule::CsaRule24));
        assert!("TryRule".parse::<EnteringKingRule>().is_err());
        // Printed as the option value that selects it (YaneuraOu's spelling).
        for rule in EnteringKingRule::ALL {
            assert_eq!(rule.to_string().parse(), Ok(rule));
        }
        assert_eq!(EnteringKingRule::CsaRule24.to_string(), "CSARule24");
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
        assert_eq!(
            pos.check_declaration(EnteringKingRule::CsaRule27),
            Err(DeclarationError::TooFewPieces { pieces: 9 })
        );
    }

    /// Exactly ten pieces besides the king in the camp suffice; nine do not. Black king on 5b;
    /// in the camp +R +B G G G S S on rank a and pawns on 9c, 8c, 7c: 10 pieces and 5 + 5 + 8
    /// = 18 points, with a rook and a bishop in hand 28, Black's threshold. With the pawn on 7c
    /// in hand instead, the points are the same and the pieces nine.
    #[test]
    fn ten_pieces_in_the_camp_are_enough() {
        let ten = Position::from_sfen("+R+BGGGSS2/4K4/PPP6/9/9/9/9/9/k8 b RB 1").unwrap();
        assert_eq!(
            ten.check_declaration(EnteringKingRule::CsaRule27),
            Ok(DeclarationCount {
                points: 28,
                pieces_in_camp: 10
            })
        );
        let nine = Position::from_sfen("+R+BGGGSS2/4K4/PP7/9/9/9/9/9/k8 b RBP 1").unwrap();
        assert_eq!(
            nine.check_declaration(EnteringKingRule::CsaRule27),
            Err(DeclarationError::TooFewPieces { pieces: 9 })
        );
    }

    /// White needs 27 points under the 27-point rule, one fewer than Black. The first diagram
    /// of [`ten_pieces_in_the_camp_are_enough`] turned round: White king on 5h, +r +b g g g s s
    /// on rank i, pawns on 9g, 8g, 7g (18 points); with a bishop and four pawns in hand, 27.
    /// With three pawns in hand, 26 are one short.
    #[test]
    fn white_declares_with_27_points() {
        let pos = Position::from_sfen("8K/9/9/9/9/9/ppp6/4k4/+r+bgggss2 w b4p 1").unwrap();
        assert_eq!(
            pos.check_declaration(EnteringKingRule::CsaRule27),
            Ok(DeclarationCount {
                points: 27,
                pieces_in_camp: 10
            })
        );
        assert!(Game::new(pos.clone()).can_declare_win(EnteringKingRule::CsaRule27));
        assert_eq!(
            pos.check_declaration(EnteringKingRule::CsaRule24),
            Err(DeclarationError::TooFewPoints {
                points: 27,
                needed: 31
            })
        );
        let short = Position::from_sfen("8K/9/9/9/9/9/ppp6/4k4/+r+bgggss2 w b3p 1").unwrap();
        assert_eq!(
            short.check_declaration(EnteringKingRule::CsaRule27),
            Err(DeclarationError::TooFewPoints {
                points: 26,
                needed: 27
            })
        );
        assert!(!Game::new(short).can_declare_win(EnteringKingRule::CsaRule27));
    }

    /// The 24-point rule asks 31 points of either side. Black as in
    /// [`ten_pieces_in_the_camp_are_enough`] with rook, bishop and three pawns in hand: 18 + 13
    /// = 31; with two pawns, 30. White likewise, the board turned round.
    #[test]
    fn the_24_point_rule_needs_31_points() {
        for (sfen, points) in [
            ("+R+BGGGSS2/4K4/PPP6/9/9/9/9/9/k8 b RB3P 1", 31),
            ("+R+BGGGSS2/4K4/PPP6/9/9/9/9/9/k8 b RB2P 1", 30),
            ("8K/9/9/9/9/9/ppp6/4k4/+r+bgggss2 w rb3p 1", 31),
            ("8K/9/9/9/9/9/ppp6/4k4/+r+bgggss2 w rb2p 1", 30),
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let got = pos.check_declaration(EnteringKingRule::CsaRule24);
            if points >= 31 {
                assert_eq!(
                    got,
                    Ok(DeclarationCount {
                        points,
                        pieces_in_camp: 10
                    }),
                    "{sfen}"
                );
            } else {
                assert_eq!(
                    got,
                    Err(DeclarationError::TooFewPoints { points, needed: 31 }),
                    "{sfen}"
                );
            }
        }
    }

    /// The first test's position, counted: 19 points on the board (the king left out) and 9
    /// pawns in hand; one pawn fewer is one point short of Black's 28.
    #[test]
    fn shortfalls_say_which_condition_fails() {
        let pos = Position::from_sfen("+R+BGGG+P+PSS/4K3+N/G8/9/9/9/9/9/k8 b 9P 1").unwrap();
        assert_eq!(
            pos.check_declaration(EnteringKingRule::CsaRule27),
            Ok(DeclarationCount {
                points: 28,
                pieces_in_camp: 11
            })
        );
        assert_eq!(
            pos.check_declaration(EnteringKingRule::CsaRule24),
            Err(DeclarationError::TooFewPoints {
                points: 28,
                needed: 31
            })
        );
        assert_eq!(
            pos.check_declaration(EnteringKingRule::NoEnteringKing),
            Err(DeclarationError::NotAllowed)
        );
        // The same pieces with the king on 5d, outside the camp.
        let outside = Position::from_sfen("+R+BGGG+P+PSS/8+N/G8/4K4/9/9/9/9/k8 b 9P 1").unwrap();
        assert_eq!(
            outside.check_declaration(EnteringKingRule::CsaRule27),
            Err(DeclarationError::KingOutsideCamp)
        );
        // A white rook on 5i gives check along the file.
        let checked = Position::from_sfen("+R+BGGG+P+PSS/4K3+N/G8/9/9/9/9/9/k3r4 b 9P 1").unwrap();
        assert_eq!(
            checked.check_declaration(EnteringKingRule::CsaRule27),
            Err(DeclarationError::InCheck)
        );
        let kingless =
            Position::from_sfen_lenient("+R+BGGG+P+PSS/8+N/G8/9/9/9/9/9/k8 b 9P 1").unwrap();
        assert_eq!(
            kingless.check_declaration(EnteringKingRule::CsaRule27),
            Err(DeclarationError::NoKing)
        );
    }
}
