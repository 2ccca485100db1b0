//! Game flow as GUIs drive it: short games with each kind of clock (the whole history sent
//! every turn, exactly one `bestmove` per `go`, in time), `go infinite` … `stop`, `go ponder`
//! with `ponderhit` or `stop`, and the end of a game with and without `stop` before
//! `gameover`, then `isready` and the next game.
//!
//! The checker plays the other side with a seeded random player. After each answer it sends
//! `isready`: a second `bestmove` arrives before `readyok`.

use super::rules::{go_byoyomi, judge, Judged};
use super::session::{Answer, Ctx, Late, Step, Verdict};
use super::{Check, Group, HOLD, MOVE_TIME, TOLERANCE};
use saikoro_core::{
    Choice, Color, EnteringKingRule, Game, GameResult, Move, Position, RandomMover,
};
use saikoro_usi::PositionLine;
use saikoro_usi::{gameover_word, BestMove, Go};
use std::time::{Duration, Instant};

/// Moves the engine plays in each game.
const ENGINE_MOVES: usize = 4;

pub(super) fn checks() -> Vec<Check> {
    vec![
        Check::new("game-byoyomi", Group::GameFlow, |ctx| {
            // ShogiHome's default clock is 0 s + byoyomi.
            let clock = Clock::byoyomi(0, 1000);
            game(ctx, Color::Black, clock, GameResult::Draw, 1)
        }),
        Check::new("game-fischer", Group::GameFlow, |ctx| {
            // Floodgate through a USI-CSA bridge: main time and an increment.
            let clock = Clock::fischer(2000, 500);
            game(ctx, Color::White, clock, GameResult::Win, 2)
        }),
        Check::new("game-sudden-death", Group::GameFlow, |ctx| {
            // ShogiHome sends sudden death as `byoyomi 0`.
            let clock = Clock::byoyomi(600, 0);
            game(ctx, Color::Black, clock, GameResult::Loss, 3)
        }),
        Check::new("game-uneven-clocks", Group::GameFlow, |ctx| {
            // Floodgate late in a game: one side short of time, the other with plenty.
            let clock = Clock {
                main: [1000, 300_000],
                byoyomi: None,
                inc: 100,
            };
            game(ctx, Color::Black, clock, GameResult::Win, 4).map_err(|v| {
                v.with_cause(
                    "with btime 1000 (its own, as Sente) and wtime 300000, an engine that \
                     reads its time from wtime, the chess way round, spends time it does not have",
                )
            })
        }),
        Check::new("go-infinite", Group::GameFlow, go_infinite),
        Check::new("ponder-hit", Group::GameFlow, ponder_hit),
        Check::new("ponder-miss", Group::GameFlow, ponder_miss),
        Check::new("gameover-after-stop", Group::GameFlow, gameover_after_stop),
        Check::new(
            "gameover-without-stop",
            Group::GameFlow,
            gameover_without_stop,
        ),
    ]
}

/// A game clock as GUIs keep it: each side's main time, and byoyomi or an increment.
#[derive(Clone, Copy, Debug)]
struct Clock {
    main: [u64; 2],
    byoyomi: Option<u64>,
    inc: u64,
}

impl Clock {
    fn byoyomi(main: u64, byoyomi: u64) -> Clock {
        Clock {
            main: [main; 2],
            byoyomi: Some(byoyomi),
            inc: 0,
        }
    }

    fn fischer(main: u64, inc: u64) -> Clock {
        Clock {
            main: [main; 2],
            byoyomi: None,
            inc,
        }
    }

    /// The `go` command: `btime wtime byoyomi`, or `btime wtime binc winc`.
    fn go(&self) -> Go {
        let [btime, wtime] = self.main;
        match self.byoyomi {
            Some(b) => Go::byoyomi(btime, wtime, b),
            None => Go::fischer(btime, wtime, self.inc, self.inc),
        }
    }

    /// The time `side` has for this move: its main time plus the byoyomi or the increment
    /// (ShogiHome: "btime + binc is the time available for this move").
    fn given(&self, side: Color) -> Duration {
        Duration::from_millis(self.main[side.index()] + self.byoyomi.unwrap_or(self.inc))
    }

    /// Charges `used` to `side`.
    fn spend(&mut self, side: Color, used: Duration) {
        let m = &mut self.main[side.index()];
        *m = (*m + self.inc).saturating_sub(used.as_millis() as u64);
    }
}

/// Judges how long an answer took after `after` (`go`, `ponderhit`) against the time given: a
/// failure past the tolerance (the check is then repeated once), a warning past the time itself.
fn timing(
    ctx: &mut Ctx,
    took: Duration,
    given: Duration,
    stopped: bool,
    after: &'static str,
) -> Result<(), Verdict> {
    if stopped || took > given + TOLERANCE {
        return Err(Verdict::late(Late {
            took,
            given,
            stopped,
            after,
            cause: None,
        }));
    }
    if took > given {
        ctx.warn(format!(
            "bestmove {} ms after {after} with {} ms given: within the {} ms tolerance, but late",
            took.as_millis(),
            given.as_millis(),
            TOLERANCE.as_millis()
        ));
    }
    Ok(())
}

/// Warns about a `ponder` move that is not legal after the best move.
fn check_ponder(ctx: &mut Ctx, pos: &Position, a: &Answer) {
    let (BestMove::Move(m), Some(p)) = (&a.best, &a.ponder) else {
        return;
    };
    let after = pos.play(*m);
    let ok = Move::from_usi(p).is_ok_and(|pm| after.is_legal(pm).is_ok());
    if !ok {
        ctx.warn(format!(
            "ponder move '{p}' is not legal after {m} (ShogiHome then does not ponder)"
        ));
    }
}

/// `isready` after an answer: a second `bestmove` before `readyok` is a failure.
fn one_bestmove(ctx: &mut Ctx, first: &Answer, after: &str) -> Result<(), Verdict> {
    match ctx.fence()? {
        None => Err(Verdict::fail(format!(
            "no readyok within {} ms after {after}",
            ctx.cfg.timeout.as_millis()
        ))),
        Some(extra) => match extra.first() {
            Some(second) => Err(Verdict::fail(format!(
                "two bestmoves {after}: '{}', then '{}' (a GUI that has sent its next go by then, as ShogiHome does at once, takes the second as that go's answer)",
                first.line.text, second.line.text
            ))),
            None => Ok(()),
        },
    }
}

/// A short game: the engine plays `side` against a seeded random player for
/// [`ENGINE_MOVES`] moves, then `gameover`.
fn game(ctx: &mut Ctx, side: Color, mut clock: Clock, result: GameResult, seed: u64) -> Step {
    ctx.send("usinewgame")?;
    let mut game = Game::new(Position::startpos());
    let mut line = PositionLine::new(game.start());
    let mut other = RandomMover::new(seed);
    let mut answered = 0;
    let mut slowest = (Duration::ZERO, Duration::ZERO);
    let mut ended = None;
    while answered < ENGINE_MOVES && game.outcome().is_none() {
        if game.position().side_to_move() != side {
            match other.choose(&mut game, EnteringKingRule::CsaRule27) {
                Choice::Move(m) => {
                    game.play(m);
                    line.push(m);
                    continue;
                }
                _ => break,
            }
        }
        ctx.send(line.as_str())?;
        let given = clock.given(side);
        let s = ctx.search(&clock.go(), Some(given))?;
        one_bestmove(ctx, &s.answer, "for one go")?;
        timing(ctx, s.elapsed, given, s.stopped, "go")?;
        if s.elapsed > slowest.0 {
            slowest = (s.elapsed, given);
        }
        let ply = game.len() + 1;
        let judged = judge(&mut game, &s.answer.best)
            .map_err(|why| Verdict::fail(format!("move {ply}: {why}")))?;
        check_ponder(ctx, game.position(), &s.answer);
        answered += 1;
        match judged {
            Judged::Move(m) => {
                game.play(m);
                line.push(m);
                clock.spend(side, s.elapsed);
            }
            Judged::Resign => {
                ended = Some(format!("resigned at move {ply}"));
                break;
            }
            Judged::Win(_) => {
                ended = Some(format!("declared a win at move {ply}"));
                break;
            }
        }
    }
    ctx.send(&format!("gameover {}", gameover_word(result)))?;
    if let Some(extra) = ctx.fence()? {
        if let Some(a) = extra.first() {
            return Err(Verdict::fail(format!(
                "'{}' after gameover, with no search running",
                a.line.text
            )));
        }
    }
    let form = match clock.byoyomi {
        Some(_) => "byoyomi",
        None => "binc/winc",
    };
    let ended = ended.map(|e| format!("; {e}")).unwrap_or_default();
    Ok(ctx.pass(format!(
        "{answered} moves with btime/wtime/{form}, one bestmove each, slowest {} ms of {} ms{ended}",
        slowest.0.as_millis(),
        slowest.1.as_millis()
    )))
}

/// The ponder position of the ponder checks: Black played 7g7f, and the GUI guesses 3c3d.
const PONDER_POSITION: &str = "position startpos moves 7g7f 3c3d";

fn ponder_game() -> Game {
    let mut g = Game::new(Position::startpos());
    for m in ["7g7f", "3c3d"] {
        g.play(Move::from_usi(m).expect("valid move"));
    }
    g
}

/// The `go` of a GUI pondering with a byoyomi clock.
fn go_ponder() -> Go {
    Go {
        ponder: true,
        ..go_byoyomi(MOVE_TIME.as_millis() as u64)
    }
}

/// Turns pondering on where the engine declares `USI_Ponder` (GUIs send `go ponder` only
/// then), and starts the ponder search.
fn start_ponder(ctx: &mut Ctx) -> Result<(), Verdict> {
    if ctx.info.option("USI_Ponder").is_some() {
        ctx.send("setoption name USI_Ponder value true")?;
        if ctx.fence()?.is_none() {
            return Err(Verdict::fail(format!(
                "no readyok within {} ms after setoption USI_Ponder",
                ctx.cfg.timeout.as_millis()
            )));
        }
    }
    ctx.send("usinewgame")?;
    ctx.send(PONDER_POSITION)?;
    ctx.go_held(&go_ponder().to_string())
}

/// A `bestmove` within [`HOLD`]: one that must not come yet.
fn early(ctx: &mut Ctx) -> Result<Option<Answer>, Verdict> {
    ctx.bestmove(Instant::now() + HOLD)
}

/// The next game's first move, from the start position after 2g2f (the engine plays White,
/// so a move left over from the last game's search, a Black move, cannot be legal).
fn next_game(ctx: &mut Ctx, what: &str) -> Result<Move, Verdict> {
    ctx.send("usinewgame")?;
    ctx.send("position startpos moves 2g2f")?;
    let s = ctx.search(&go_byoyomi(MOVE_TIME.as_millis() as u64), Some(MOVE_TIME))?;
    let mut g = Game::new(Position::startpos());
    g.play(Move::from_usi("2g2f").expect("valid move"));
    match judge(&mut g, &s.answer.best) {
        Ok(Judged::Move(m)) => Ok(m),
        Ok(_) => Err(Verdict::fail(format!(
            "the next game's first go got '{}'",
            s.answer.line.text
        ))),
        Err(why) => Err(Verdict::fail(format!(
            "the next game's first bestmove is wrong there ({why}): {what}"
        ))),
    }
}

fn go_infinite(ctx: &mut Ctx) -> Step {
    ctx.send("usinewgame")?;
    ctx.send(PONDER_POSITION)?;
    let t0 = Instant::now();
    ctx.go_held("go infinite")?;
    if let Some(a) = early(ctx)? {
        return Err(Verdict::fail(format!(
            "'{}' {} ms after go infinite, before stop: analysis needs the search to run until stop",
            a.line.text,
            a.line.at.saturating_duration_since(t0).as_millis()
        )));
    }
    ctx.send("stop")?;
    let (a, took) = ctx.after_stop("go infinite")?;
    judge(&mut ponder_game(), &a.best).map_err(Verdict::fail)?;
    one_bestmove(ctx, &a, "after stop")?;
    Ok(ctx.pass(format!(
        "no bestmove until stop; '{}' {} ms after it",
        a.line.text,
        took.as_millis()
    )))
}

fn ponder_hit(ctx: &mut Ctx) -> Step {
    let t0 = Instant::now();
    start_ponder(ctx)?;
    if let Some(a) = early(ctx)? {
        return Err(Verdict::fail(format!(
            "'{}' {} ms after go ponder, before ponderhit: ShogiHome ignores it and waits for another",
            a.line.text,
            a.line.at.saturating_duration_since(t0).as_millis()
        )));
    }
    ctx.send("ponderhit")?;
    let hit = Instant::now();
    let given = MOVE_TIME;
    let (a, stopped) = match ctx.bestmove(hit + given + TOLERANCE)? {
        Some(a) => (a, false),
        None => {
            ctx.send("stop")?;
            (ctx.after_stop("a search after ponderhit")?.0, true)
        }
    };
    let took = a.line.at.saturating_duration_since(hit);
    timing(ctx, took, given, stopped, "ponderhit")?;
    let mut game = ponder_game();
    judge(&mut game, &a.best).map_err(Verdict::fail)?;
    check_ponder(ctx, game.position(), &a);
    // The GUI's timer may fire as the answer is on its way: that stop finds no search and
    // must bring nothing.
    ctx.send("stop")?;
    one_bestmove(
        ctx,
        &a,
        "(the second after a stop that came once the search had ended)",
    )?;
    Ok(ctx.pass(format!(
        "no bestmove until ponderhit; '{}' {} ms after it; a late stop ignored",
        a.line.text,
        took.as_millis()
    )))
}

fn ponder_miss(ctx: &mut Ctx) -> Step {
    start_ponder(ctx)?;
    let answer = match early(ctx)? {
        Some(a) => {
            ctx.warn(format!(
                "'{}' before stop: the ponder search was not held (see ponder-hit)",
                a.line.text
            ));
            ctx.send("stop")?;
            a
        }
        None => {
            ctx.send("stop")?;
            ctx.after_stop("go ponder (ShogiHome waits for it before the next go)")?
                .0
        }
    };
    one_bestmove(ctx, &answer, "after stop")?;
    if let Err(why) = judge(&mut ponder_game(), &answer.best) {
        ctx.warn(format!(
            "the ponder search's answer is wrong ({why}); GUIs discard it"
        ));
    }
    // The opponent played 8c8d, not the 3c3d pondered on.
    ctx.send("position startpos moves 7g7f 8c8d")?;
    let s = ctx.search(&go_byoyomi(MOVE_TIME.as_millis() as u64), Some(MOVE_TIME))?;
    let mut game = Game::new(Position::startpos());
    for m in ["7g7f", "8c8d"] {
        game.play(Move::from_usi(m).expect("valid move"));
    }
    judge(&mut game, &s.answer.best)
        .map_err(|why| Verdict::fail(format!("after the ponder miss: {why}")))?;
    Ok(ctx.pass(format!(
        "one bestmove after stop ('{}'); the real position then answered with '{}'",
        answer.line.text, s.answer.line.text
    )))
}

fn gameover_after_stop(ctx: &mut Ctx) -> Step {
    start_ponder(ctx)?;
    let early = early(ctx)?;
    // ShogiHome ends a game during a search with stop, then gameover, and discards the next
    // bestmove it receives.
    ctx.send("stop")?;
    ctx.send("gameover win")?;
    let answer = match early {
        Some(a) => {
            ctx.warn(format!(
                "'{}' before stop: the ponder search was not held (see ponder-hit)",
                a.line.text
            ));
            a
        }
        None => ctx
            .after_stop(
            "go ponder, then gameover: ShogiHome discards the next bestmove, which would be the next game's first move",
        )?
        .0,
    };
    match ctx.fence()? {
        None => {
            return Err(Verdict::fail(format!(
                "no readyok within {} ms for the next game",
                ctx.cfg.timeout.as_millis()
            )))
        }
        Some(extra) => {
            if let Some(b) = extra.first() {
                return Err(Verdict::fail(format!(
                    "two bestmoves after stop and gameover ('{}', then '{}'): ShogiHome takes the second as the next game's first move",
                    answer.line.text, b.line.text
                )));
            }
        }
    }
    let m = next_game(ctx, "a bestmove left over from the last game")?;
    Ok(ctx.pass(format!(
        "stop, gameover win: one bestmove; isready, the next game answered with {m}"
    )))
}

fn gameover_without_stop(ctx: &mut Ctx) -> Step {
    start_ponder(ctx)?;
    if let Some(a) = early(ctx)? {
        ctx.warn(format!(
            "'{}' before gameover: the ponder search was not held (see ponder-hit)",
            a.line.text
        ));
    }
    // Shogidokoro ends a game during pondering (the opponent resigned) with gameover alone.
    ctx.send("gameover lose")?;
    if ctx.fence()?.is_none() {
        return Err(Verdict::fail(format!(
            "no readyok within {} ms after gameover during go ponder",
            ctx.cfg.timeout.as_millis()
        )));
    }
    let m = next_game(
        ctx,
        "the engine kept its ponder search after gameover and answered from it",
    )
    .map_err(|v| match v.status {
        super::Status::Fail => Verdict::fail(format!(
            "after 'gameover lose' with no stop (Shogidokoro's end of a network game during pondering): {}",
            v.reason
        )),
        _ => v,
    })?;
    Ok(ctx.pass(format!(
        "gameover lose (no stop) ended the ponder search; the next game answered with {m}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Byoyomi: the time for a move is the main time plus the byoyomi; what is used comes off
    /// the main time, never below 0.
    #[test]
    fn byoyomi_clock() {
        let mut c = Clock::byoyomi(600, 0);
        assert_eq!(c.go().to_string(), "go btime 600 wtime 600 byoyomi 0");
        assert_eq!(c.given(Color::Black), Duration::from_millis(600));
        c.spend(Color::Black, Duration::from_millis(250));
        assert_eq!(c.go().to_string(), "go btime 350 wtime 600 byoyomi 0");
        let mut c = Clock::byoyomi(0, 1000);
        assert_eq!(c.given(Color::White), Duration::from_millis(1000));
        c.spend(Color::White, Duration::from_millis(900));
        assert_eq!(c.go().to_string(), "go btime 0 wtime 0 byoyomi 1000");
    }

    /// Fischer: the time for a move is the main time plus the increment (ShogiHome's
    /// reading); after the move the increment is credited and the time used charged.
    #[test]
    fn fischer_clock() {
        let mut c = Clock::fischer(2000, 500);
        assert_eq!(
            c.go().to_string(),
            "go btime 2000 wtime 2000 binc 500 winc 500"
        );
        assert_eq!(c.given(Color::White), Duration::from_millis(2500));
        c.spend(Color::White, Duration::from_millis(100));
        assert_eq!(c.given(Color::White), Duration::from_millis(2900));
        assert_eq!(c.given(Color::Black), Duration::from_millis(2500));
    }
}
