//! Robustness: input that is odd but legitimate (`isready` while `go infinite` runs, a history
//! of over 500 moves, Windows line endings, a command the engine does not know); and `go mate`,
//! which is optional: any honest answer passes, a mating line is verified move by move.

use super::positions;
use super::rules::{go_byoyomi, judge, Judged};
use super::session::{Ctx, SearchKind, Step, Verdict};
use super::{Check, Group, MOVE_TIME, TOLERANCE};
use saikoro_core::{Game, Move, Position};
use saikoro_driver::client::LineEnding;
use saikoro_usi::{Checkmate, EngineMessage, Go, MateLimit};
use std::time::Instant;

/// The time limit of `go mate`, in milliseconds (Shogidokoro's meaning of the argument).
const MATE_LIMIT: u64 = 1000;

pub(super) fn checks() -> Vec<Check> {
    vec![
        Check::new(
            "isready-during-search",
            Group::Robustness,
            isready_during_search,
        ),
        Check::new("long-history", Group::Robustness, long_history),
        Check::new("crlf", Group::Robustness, crlf),
        Check::new("unknown-command", Group::Robustness, unknown_command),
        Check::new("go-mate", Group::Robustness, go_mate),
    ]
}

/// `position startpos moves 7g7f` and a timed `go`; the answer must be legal.
fn one_move(ctx: &mut Ctx) -> Result<Move, Verdict> {
    ctx.send("usinewgame")?;
    ctx.send("position startpos moves 7g7f")?;
    let s = ctx.search(&go_byoyomi(MOVE_TIME.as_millis() as u64), Some(MOVE_TIME))?;
    let mut g = Game::new(Position::startpos());
    g.play(Move::from_usi("7g7f").expect("valid move"));
    match judge(&mut g, &s.answer.best).map_err(Verdict::fail)? {
        Judged::Move(m) => Ok(m),
        _ => Err(Verdict::fail(format!(
            "'{}' in a position with 30 legal moves",
            s.answer.line.text
        ))),
    }
}

fn isready_during_search(ctx: &mut Ctx) -> Step {
    ctx.send("usinewgame")?;
    ctx.send("position startpos moves 7g7f")?;
    ctx.go_held("go infinite")?;
    let t0 = Instant::now();
    let Some(before) = ctx.fence()? else {
        // A warning: the draft asks for an answer at any time, but the GUIs studied send
        // isready only between games, and YaneuraOu waits for its search to end.
        return Err(Verdict::warn(format!(
            "no readyok within {} ms of isready while go infinite runs (the USI draft asks for an answer at any time; GUIs send isready between games)",
            ctx.cfg.timeout.as_millis()
        )));
    };
    let took = t0.elapsed();
    ctx.send("stop")?;
    if let Some(a) = before.first() {
        ctx.warn(format!(
            "'{}' before stop: the search was not held (see go-infinite)",
            a.line.text
        ));
    } else if let Err(v) = ctx.after_stop("go infinite") {
        if v.status == super::Status::Fail {
            ctx.warn("no bestmove after stop (see go-infinite)");
        } else {
            return Err(v);
        }
    }
    Ok(ctx.pass(format!(
        "readyok {} ms after isready during go infinite",
        took.as_millis()
    )))
}

fn long_history(ctx: &mut Ctx) -> Step {
    let p = positions::get("long-history").expect("positions/check.txt has long-history");
    let mut game = p
        .game()
        .map_err(|e| Verdict::fail(format!("bad built-in position {}: {e}", p.id)))?;
    ctx.send("usinewgame")?;
    ctx.send(&p.command())?;
    let s = ctx.search(&go_byoyomi(MOVE_TIME.as_millis() as u64), Some(MOVE_TIME))?;
    let n = game.len();
    match judge(&mut game, &s.answer.best)
        .map_err(|why| Verdict::fail(format!("after {n} moves: {why}")))?
    {
        Judged::Move(m) => Ok(Verdict::pass(format!(
            "legal move {m} after a history of {n} moves"
        ))),
        _ => Ok(Verdict::warn(format!(
            "'{}' after {n} moves, with {} legal moves",
            s.answer.line.text,
            game.position().legal_moves().len()
        ))),
    }
}

fn crlf(ctx: &mut Ctx) -> Step {
    ctx.e.set_line_ending(LineEnding::CrLf);
    let result = (|| {
        if ctx.fence()?.is_none() {
            return Err(Verdict::fail(format!(
                "no readyok within {} ms to 'isready' ending in CR LF",
                ctx.cfg.timeout.as_millis()
            )));
        }
        one_move(ctx)
    })();
    ctx.e.set_line_ending(LineEnding::Lf);
    let m = result?;
    Ok(ctx.pass(format!(
        "isready, position and go ending in CR LF answered (readyok, {m})"
    )))
}

fn unknown_command(ctx: &mut Ctx) -> Step {
    ctx.send("saikoro-check-unknown-command with arguments")?;
    if ctx.fence()?.is_none() {
        return Err(Verdict::fail(format!(
            "no readyok within {} ms after an unknown command (the draft says: ignore it)",
            ctx.cfg.timeout.as_millis()
        )));
    }
    let m = one_move(ctx)?;
    Ok(ctx.pass(format!(
        "unknown command ignored; then readyok and a legal move ({m})"
    )))
}

/// Plays a `checkmate` line from `start`: the number of moves if every one is legal and the
/// last one mates, else why not.
fn verify_mate(start: &Position, pv: &[String]) -> Result<usize, String> {
    let mut pos = start.clone();
    for (i, text) in pv.iter().enumerate() {
        let m =
            Move::from_usi(text).map_err(|_| format!("move {} '{text}' is no USI move", i + 1))?;
        pos.is_legal(m)
            .map_err(|why| format!("move {} ({text}) is illegal: {why}", i + 1))?;
        pos = pos.play(m);
    }
    if pv.is_empty() {
        return Err("an empty mating line".to_string());
    }
    if !pos.is_checkmate() {
        return Err(format!("the line {} does not end in mate", pv.join(" ")));
    }
    Ok(pv.len())
}

fn go_mate(ctx: &mut Ctx) -> Step {
    let p = positions::get("go-mate").expect("positions/check.txt has go-mate");
    let start = p
        .game()
        .map_err(|e| Verdict::fail(format!("bad built-in position {}: {e}", p.id)))?
        .position()
        .clone();
    let mates = p.mates.clone().unwrap_or_default().join(", ");
    ctx.send("usinewgame")?;
    ctx.send(&p.command())?;
    let go = Go {
        mate: Some(MateLimit::Millis(MATE_LIMIT)),
        ..Go::default()
    };
    ctx.may_start(SearchKind::Timed)?;
    ctx.send(&go.to_string())?;
    let answer = |m: &EngineMessage| {
        matches!(
            m,
            EngineMessage::Checkmate(_) | EngineMessage::BestMove { .. }
        )
    };
    // Past its limit (and the tolerance) the search is stopped; `checkmate timeout` then
    // passes.
    let limit = std::time::Duration::from_millis(MATE_LIMIT) + TOLERANCE;
    let (mut found, _) = ctx.wait_for(Instant::now() + limit, answer)?;
    if found.is_none() {
        ctx.send("stop")?;
        found = ctx
            .wait_for(Instant::now() + ctx.cfg.policy().stop_grace, answer)?
            .0;
    }
    let Some((line, msg)) = found else {
        ctx.timed_hung();
        return Err(Verdict::fail(format!(
            "no checkmate line within {} ms of '{go}', nor {} ms after stop (ShogiHome's mate search waits for it)",
            limit.as_millis(),
            ctx.cfg.policy().stop_grace.as_millis()
        )));
    };
    let verdict = match msg {
        EngineMessage::Checkmate(Checkmate::NotImplemented) => {
            Verdict::pass("checkmate notimplemented (go mate not supported)")
        }
        EngineMessage::Checkmate(Checkmate::Timeout) => Verdict::pass(format!(
            "checkmate timeout (the position has a mate in 1: {mates})"
        )),
        EngineMessage::Checkmate(Checkmate::NoMate) => {
            Verdict::fail(format!("checkmate nomate, but {mates} mates"))
        }
        EngineMessage::Checkmate(Checkmate::Mate(pv)) => match verify_mate(&start, &pv) {
            Ok(n) => Verdict::pass(format!(
                "checkmate {}: a legal line of {n} moves ending in mate",
                pv.join(" ")
            )),
            Err(why) => Verdict::fail(format!("'{}': {why}", line.text)),
        },
        // go mate is optional, so answering it as a plain go is a warning; a false nomate or
        // a wrong mating line is a failure.
        _ => Verdict::warn(format!(
            "'{}' to go mate: a GUI's mate search (ShogiHome's) waits for a checkmate line; 'checkmate notimplemented' says go mate is not supported",
            line.text
        )),
    };
    if verdict.status != super::Status::Fail {
        if let Some(extra) = ctx.fence()? {
            if let Some(b) = extra.first() {
                return Err(Verdict::fail(format!(
                    "'{}' after the checkmate answer",
                    b.line.text
                )));
            }
        }
    }
    Ok(verdict)
}
