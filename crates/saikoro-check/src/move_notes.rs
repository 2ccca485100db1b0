//! The rule behind each move on which an engine's generator and Saikoro's disagree: for a move
//! the engine lists that is not legal, the rule it breaks (the core's [`IllegalMove`] reasons,
//! with the Japanese term: 打ち歩詰め, 二歩, 行き所のない駒, 自殺手); for a legal move the engine
//! does not list, what makes it legal (不成, a pawn drop that checks without mating, …).

use saikoro_core::{IllegalMove, Move, Piece, PieceType, Position, Square};

/// The English name of a piece kind.
fn name(kind: PieceType) -> &'static str {
    match kind {
        PieceType::Pawn => "pawn",
        PieceType::Lance => "lance",
        PieceType::Knight => "knight",
        PieceType::Silver => "silver",
        PieceType::Gold => "gold",
        PieceType::Bishop => "bishop",
        PieceType::Rook => "rook",
        PieceType::King => "king",
        PieceType::ProPawn => "tokin",
        PieceType::ProLance => "promoted lance",
        PieceType::ProKnight => "promoted knight",
        PieceType::ProSilver => "promoted silver",
        PieceType::Horse => "horse",
        PieceType::Dragon => "dragon",
    }
}

/// Why `m`, which the engine lists in `pos`, is not legal there.
pub(crate) fn excess_rule(pos: &Position, m: Move) -> String {
    let Err(why) = pos.is_legal(m) else {
        return "legal by Saikoro's rules core, yet not in its move list: a bug in Saikoro"
            .to_string();
    };
    let term = match why {
        IllegalMove::PawnDropMate => "打ち歩詰め",
        IllegalMove::Nifu => "二歩",
        IllegalMove::DeadDrop | IllegalMove::MustPromote => "行き所のない駒 (a piece with no move)",
        IllegalMove::KingInCheck if pos.in_check() => "王手放置 (the check is not answered)",
        IllegalMove::KingInCheck => "自殺手 (self-check)",
        IllegalMove::CannotPromote => "promotion",
        _ => return why.to_string(),
    };
    format!("{term}: {why}")
}

/// Why `m`, which the engine does not list in `pos`, is legal there.
pub(crate) fn missing_rule(pos: &Position, m: Move) -> String {
    let us = pos.side_to_move();
    let evasion = if pos.in_check() {
        ", answering the check"
    } else {
        ""
    };
    match m {
        Move::Normal { from, to, promote } => {
            let Some(piece) = pos.piece_at(from) else {
                return "legal".to_string();
            };
            let kind = name(piece.kind);
            let other = Move::Normal {
                from,
                to,
                promote: !promote,
            };
            let both = pos.is_legal(other).is_ok();
            if !promote && both {
                format!(
                    "不成 (non-promotion): a {kind} may stay unpromoted; only a pawn, lance or knight left with no move must promote{evasion}"
                )
            } else if promote {
                let zone = if from.in_promotion_zone(us) && to.in_promotion_zone(us) {
                    "within"
                } else if from.in_promotion_zone(us) {
                    "out of"
                } else {
                    "into"
                };
                format!("成 (promotion) of a {kind}, moving {zone} the promotion zone{evasion}")
            } else if piece.kind == PieceType::King {
                format!("a king move to a square no enemy piece attacks{evasion}")
            } else {
                format!("a {kind} move that leaves the own king safe{evasion}")
            }
        }
        Move::Drop { kind, to } => {
            let rank = to.relative_rank(us);
            if kind == PieceType::Pawn {
                if pos.play(m).in_check() {
                    format!("a pawn drop that gives check but not mate: not 打ち歩詰め{evasion}")
                } else if tokin_on_file(pos, to) {
                    format!(
                        "a pawn drop on a file whose own pawn is promoted: a tokin does not count for 二歩{evasion}"
                    )
                } else {
                    format!("a pawn drop on a file without an own unpromoted pawn{evasion}")
                }
            } else if (kind == PieceType::Lance && rank == 2)
                || (kind == PieceType::Knight && rank == 3)
            {
                format!(
                    "a {} drop on the last rank it can still move from: not 行き所のない駒{evasion}",
                    name(kind)
                )
            } else if pos.in_check() {
                format!(
                    "a {} drop between the king and the checking piece",
                    name(kind)
                )
            } else {
                format!("a {} drop", name(kind))
            }
        }
    }
}

/// Whether the side to move has a tokin on `to`'s file.
fn tokin_on_file(pos: &Position, to: Square) -> bool {
    let tokin = Piece::new(pos.side_to_move(), PieceType::ProPawn);
    (1..=9).any(|rank| Square::new(to.file(), rank).and_then(|sq| pos.piece_at(sq)) == Some(tokin))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap()
    }

    fn mv(s: &str) -> Move {
        Move::from_usi(s).unwrap()
    }

    /// The rules positions of positions/check.txt: the mating pawn drop P*1b and a nifu drop.
    #[test]
    fn excess_moves_name_their_rule() {
        let uchifuzume = pos("kn7/9/1G7/9/9/9/9/9/8K b P 1");
        assert!(excess_rule(&uchifuzume, mv("P*9b")).starts_with("打ち歩詰め"));
        let nifu = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
        assert!(excess_rule(&nifu, mv("P*5b")).starts_with("二歩"));
        let start = Position::startpos();
        assert!(excess_rule(&start, mv("5i4i")).contains("own piece"));
    }

    /// After 7g7f 3c3d, 8h2b (bishop takes bishop, unpromoted) is legal: 不成.
    #[test]
    fn missing_moves_say_why_they_are_legal() {
        let p = Position::startpos().play(mv("7g7f")).play(mv("3c3d"));
        assert!(missing_rule(&p, mv("8h2b")).starts_with("不成"));
        assert!(missing_rule(&p, mv("8h2b+")).starts_with("成 (promotion) of a bishop"));
        let drop = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
        assert!(missing_rule(&drop, mv("P*5b")).contains("gives check but not mate"));
    }
}
