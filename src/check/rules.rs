//! Rules: one check per position of `positions/check.txt` marked `check rules`. Each is sent as
//! a new game (`usinewgame`, `position …`, `go btime 0 wtime 0 byoyomi 1000`) and the answer
//! judged by the rules core: a legal move passes, an illegal one fails with the rule it breaks;
//! a move that loses by perpetual check fails; `win` passes only when the declaration holds
//! under CSARule27; `resign` passes in a mated position and is otherwise a warning (it tests
//! nothing), or a failure where the record says so (the position with one legal move).

use super::positions::{self, CheckPosition};
use super::session::{Ctx, Step, Verdict};
use super::{Check, Group, MOVE_TIME};
use crate::usi::{BestMove, Go};
use crate::{Color, EnteringKingRule, Game, Move, PieceType, Position, Square};

pub(super) fn checks() -> Vec<Check> {
    positions::all()
        .into_iter()
        .filter(|p| p.check == "rules")
        .map(|p| {
            Check::new(format!("rules-{}", p.id), Group::Rules, move |ctx| {
                check_position(ctx, &p)
            })
        })
        .collect()
}

/// `go btime 0 wtime 0 byoyomi <ms>`, ShogiHome's form for a clock with byoyomi only.
pub(super) fn go_byoyomi(ms: u64) -> Go {
    Go {
        btime: Some(0),
        wtime: Some(0),
        byoyomi: Some(ms),
        ..Go::default()
    }
}

/// A judged `bestmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Judged {
    /// A legal move that does not lose by perpetual check.
    Move(Move),
    /// `resign`.
    Resign,
    /// `win`, and the declaration holds.
    Win,
}

/// Judges `best` as the answer in `game`'s current position; `Err` says why a GUI or server
/// would forfeit the engine.
pub(super) fn judge(game: &mut Game, best: &BestMove) -> Result<Judged, String> {
    match best {
        BestMove::Move(m) => {
            if let Err(why) = game.position().is_legal(*m) {
                return Err(format!("illegal move {m}: {why}"));
            }
            if game.loses_by_perpetual_check(*m) {
                return Err(format!(
                    "{m} repeats the position a fourth time with check after check: \
                     the checking side loses (連続王手の千日手)"
                ));
            }
            Ok(Judged::Move(*m))
        }
        BestMove::Resign => Ok(Judged::Resign),
        BestMove::Win if game.can_declare_win(EnteringKingRule::CsaRule27) => Ok(Judged::Win),
        BestMove::Win => Err(format!(
            "bestmove win, but the declaration does not hold under CSARule27: {}",
            declaration_shortfall(game.position())
        )),
        BestMove::Unparsable(t) if t.is_empty() => Err("'bestmove' without a move".to_string()),
        BestMove::Unparsable(t) => Err(format!("'{t}' is no USI move")),
    }
}

/// A side's declaration points under the CSA count: 5 for each rook and bishop (promoted or
/// not), 1 for every other piece, counting its pieces in the enemy camp (king excluded) and in
/// hand; and how many of its pieces stand in the camp.
pub fn declaration_points(pos: &Position, side: Color) -> (u32, u32) {
    let value = |k: PieceType| match k.unpromote() {
        PieceType::Rook | PieceType::Bishop => 5,
        PieceType::King => 0,
        _ => 1,
    };
    let (mut pieces, mut points) = (0, 0);
    for sq in Square::all() {
        match pos.piece_at(sq) {
            Some(p) if p.color == side && sq.in_promotion_zone(side) => {
                pieces += u32::from(p.kind != PieceType::King);
                points += value(p.kind);
            }
            _ => {}
        }
    }
    for (kind, n) in pos.hand(side).iter() {
        points += value(kind) * n as u32;
    }
    (points, pieces)
}

/// Why the side to move may not declare under CSARule27 (the first condition that fails).
fn declaration_shortfall(pos: &Position) -> String {
    let us = pos.side_to_move();
    let side = match us {
        Color::Black => "Black",
        Color::White => "White",
    };
    let needed = EnteringKingRule::CsaRule27
        .points_needed(us)
        .unwrap_or(u32::MAX);
    let (points, pieces) = declaration_points(pos, us);
    match pos.king_square(us) {
        None => format!("{side} has no king"),
        Some(k) if !k.in_promotion_zone(us) => format!("{side}'s king is not in the enemy camp"),
        _ if pos.in_check() => format!("{side}'s king is in check"),
        _ if pieces < 10 => {
            format!("{side} has {pieces} pieces in the enemy camp besides the king, needs 10")
        }
        _ if points < needed => format!("{side} has {points} points, needs {needed}"),
        _ => "the conditions are not met".to_string(),
    }
}

fn check_position(ctx: &mut Ctx, p: &CheckPosition) -> Step {
    let mut game = p
        .game()
        .map_err(|e| Verdict::fail(format!("bad built-in position {}: {e}", p.id)))?;
    ctx.send("usinewgame")?;
    ctx.send(&p.command())?;
    let ms = MOVE_TIME.as_millis() as u64;
    let s = ctx.search(&go_byoyomi(ms), Some(MOVE_TIME))?;
    let legal = game.position().legal_moves();
    match judge(&mut game, &s.answer.best).map_err(Verdict::fail)? {
        Judged::Move(m) => Ok(Verdict::pass(format!(
            "legal move {m} (one of {})",
            legal.len()
        ))),
        Judged::Win => {
            let (points, _) = declaration_points(game.position(), game.position().side_to_move());
            Ok(Verdict::pass(format!(
                "declared a win, which holds under CSARule27 ({points} points)"
            )))
        }
        Judged::Resign if legal.is_empty() => Ok(Verdict::pass("bestmove resign: no legal move")),
        Judged::Resign if p.resign_fails => {
            let moves: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
            Err(Verdict::fail(format!(
                "resigned, but the position is not lost: {} is legal",
                moves.join(", ")
            )))
        }
        Judged::Resign => Ok(Verdict::warn(format!(
            "resigned with {} legal moves: the position tested nothing",
            legal.len()
        ))),
    }
}
