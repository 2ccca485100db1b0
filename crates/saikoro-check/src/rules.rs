//! Rules: one check per position of `positions/check.txt` marked `check rules`. Each is sent as
//! a new game (`usinewgame`, `position …`, `go btime 0 wtime 0 byoyomi 1000`) and the answer
//! judged by the rules core: a legal move passes, an illegal one fails with the rule it breaks;
//! a move that loses by perpetual check fails; `win` passes only when the declaration holds
//! under CSARule27; `resign` passes in a mated position and is otherwise a warning (it tests
//! nothing), or a failure where the record says so (the position with one legal move).

use super::positions::{self, CheckPosition};
use super::session::{Ctx, Step, Verdict};
use super::{Check, Group, MOVE_TIME};
use saikoro_core::{EnteringKingRule, Game, Move};
use saikoro_usi::{BestMove, Go};

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
    Go::byoyomi(0, 0, ms)
}

/// A judged `bestmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Judged {
    /// A legal move that does not lose by perpetual check.
    Move(Move),
    /// `resign`.
    Resign,
    /// `win`, and the declaration holds: the declarer's points.
    Win(u32),
}

/// Judges `best` as the answer in `game`'s current position; `Err` says why a GUI or server
/// would forfeit the engine.
pub(super) fn judge(game: &mut Game, best: &BestMove) -> Result<Judged, String> {
    match best {
        BestMove::Move(m) => {
            if let Err(why) = game.position().is_legal(*m) {
                return Err(format!(
                    "illegal move {m}: {why} (a loss by foul in ShogiHome and on shogi-server)"
                ));
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
        BestMove::Win => match game
            .position()
            .check_declaration(EnteringKingRule::CsaRule27)
        {
            Ok(count) => Ok(Judged::Win(count.points)),
            Err(e) => Err(format!(
                "bestmove win, but the declaration does not hold under CSARule27 for {}: {e} (shogi-server and ShogiHome then score the declaration as a loss)",
                game.position().side_to_move()
            )),
        },
        BestMove::Unparsable(t) if t.is_empty() => {
            Err("'bestmove' without a move (ShogiHome takes it as resignation)".to_string())
        }
        BestMove::Unparsable(t) => Err(format!(
            "'{t}' is no USI move (ShogiHome takes it as resignation)"
        )),
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
        Judged::Win(points) => Ok(Verdict::pass(format!(
            "declared a win, which holds under CSARule27 ({points} points)"
        ))),
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
