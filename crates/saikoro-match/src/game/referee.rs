//! One game between two engines, with the rules as the referee.
//!
//! Every `position` carries the whole game from the opening's start, as GUIs send it. The game
//! ends, with its reason, on: mate (the side to move has no legal move; nobody waits for
//! `resign`), `bestmove resign`, `bestmove win` (judged under the entering-king rule), an illegal
//! or unreadable `bestmove`, fourfold repetition (perpetual check loses for the checker), the
//! ply limit (unless the last move mated), a move past the clock plus the margin, an engine that
//! crashes, closes its output or does not answer in time, score adjudication, or an interrupt.

use crate::config::{DrawAdjudication, ResignAdjudication};
use crate::game::adjudication::Adjudicator;
use crate::game::book::Opening;
use crate::game::engine;
use crate::game::engine::{stderr_said, EngineError, MatchEngine};
use crate::game::result::{Decision, End, GameRecord, Late, PlayedMove, Reason};
use crate::game::timecontrol::{GameClock, Limits};
use log::{debug, warn};
use saikoro_core::{ByColor, Color, EnteringKingRule, Game, Move, MoveList, Repetition};
use saikoro_driver::{ClientError, FaultPolicy, SearchResult, StartError, StartFailure};
use saikoro_usi::PositionLine;
use saikoro_usi::{BestMove, Score};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

/// How often a wait for an engine looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(100);

/// How long past its time and the margin the runner still waits for a `bestmove` the engine
/// sends by itself, before it sends `stop`. An answer within it was late by a little, and a
/// margin would have covered it (the end of the match names one); an engine that answers only
/// the `stop` was still searching, and no margin of a few ms would have helped.
pub const LATE_ANSWER_WAIT: Duration = Duration::from_millis(20);

/// The rules and limits a game is played under.
#[derive(Clone, Debug)]
pub struct Referee {
    /// A draw at this many plies from the start position (0: none).
    pub max_plies: u32,
    /// Milliseconds a move may overrun before it loses on time.
    pub time_margin_ms: u64,
    /// How `bestmove win` is judged.
    pub rule: EnteringKingRule,
    /// Score adjudication.
    pub draw: Option<DrawAdjudication>,
    /// Score adjudication.
    pub resign: Option<ResignAdjudication>,
    /// How long `usi` may take.
    pub startup: Duration,
    /// How long `isready` or an untimed move may take.
    pub ready: Duration,
    /// Send an option an engine does not declare (with a warning) instead of refusing it.
    pub send_undeclared_options: bool,
    /// Send a value an engine's declaration rules out (with a warning) instead of refusing it.
    pub send_option_values_as_written: bool,
}

impl Referee {
    /// What the match does when an engine fails: [`FaultPolicy::MATCH`] with this match's
    /// start-up and ready times and its rules for undeclared options and bad values.
    pub fn policy(&self) -> FaultPolicy {
        engine::policy(
            self.startup,
            self.ready,
            self.send_undeclared_options,
            self.send_option_values_as_written,
        )
    }
}

/// The end the rules give the position, if any: repetition and perpetual check (as
/// [`Game::repetition`] judges them), mate (no move in `legal`, the legal moves of the
/// position), the ply limit.
fn judge(game: &Game, legal: &MoveList, max_plies: u32) -> Option<End> {
    match game.repetition() {
        Repetition::Draw => {
            return Some(End::new(
                Decision::Draw,
                Reason::Repetition,
                "Draw by fourfold repetition".into(),
            ))
        }
        Repetition::PerpetualCheck { loser } => {
            return Some(End::loss(
                loser,
                Reason::PerpetualCheck,
                format!("{} loses by perpetual check", loser.name()),
            ))
        }
        Repetition::None => {}
    }
    if legal.is_empty() {
        let winner = !game.position().side_to_move();
        return Some(End::new(
            Decision::Win(winner),
            Reason::Mate,
            format!("{} mates", winner.name()),
        ));
    }
    if max_plies > 0 && game.len() >= max_plies as usize {
        return Some(End::new(
            Decision::Draw,
            Reason::MaxPlies,
            format!("Draw by the {max_plies}-ply limit"),
        ));
    }
    None
}

/// What is needed to play one game.
pub struct GameSetup<'a> {
    /// The opening.
    pub opening: &'a Opening,
    /// The engines' names, for the log.
    pub names: ByColor<&'a str>,
    /// Each side's limits.
    pub limits: ByColor<Limits>,
    /// The rules.
    pub referee: &'a Referee,
    /// Set to end the game at once (it then scores nothing).
    pub abort: &'a AtomicBool,
}

/// A side's engine slot: the process if it runs, and how to start it.
pub struct Slot<'a> {
    /// The running engine, or `None` (started on demand).
    pub engine: &'a mut Option<MatchEngine>,
    /// Its settings.
    pub config: &'a crate::config::EngineConfig,
}

/// Why an engine could not be got ready for a game.
enum NotReady {
    /// The engine itself failed (it crashed, or did not answer): it loses the game.
    Lost {
        /// What went wrong.
        error: ClientError,
        /// The last lines of its stderr.
        stderr: Vec<String>,
    },
    /// Nothing can run it: the match ends.
    Fatal(EngineError),
}

/// A legal move an engine played, with what came with it.
struct Answer {
    mv: Move,
    time_ms: u64,
    score: Option<Score>,
    depth: Option<u32>,
    nodes: Option<u64>,
    ponder: Option<String>,
}

/// Whether `side`'s engine is thinking on the opponent's time, and on which move.
#[derive(Default)]
struct Ponder {
    on: ByColor<Option<Move>>,
}

struct Play<'s, 'a> {
    setup: &'s GameSetup<'a>,
    engines: ByColor<MatchEngine>,
    game: Game,
    /// The legal moves of the current position.
    legal: MoveList,
    line: PositionLine,
    clock: GameClock,
    moves: Vec<PlayedMove>,
    ponder: Ponder,
    /// A side whose engine is still searching after the game ended (a time loss).
    searching: Option<Color>,
}

/// Plays one game. Engines not running are started first; an engine that fails is dropped
/// from its slot (and so restarted for its next game). `Err` only for what ends the match: a
/// program that cannot be started, or options it refuses.
pub fn play_game(
    setup: &GameSetup<'_>,
    slots: ByColor<Slot<'_>>,
) -> Result<GameRecord, EngineError> {
    let started = SystemTime::now();
    let ByColor([black_slot, white_slot]) = slots;
    let mut slots = ByColor([black_slot, white_slot]);
    let record = |end: End, moves: Vec<PlayedMove>, used: ByColor<u64>| GameRecord {
        opening: setup.opening.clone(),
        moves,
        end,
        time_used: used,
        started,
        ended: SystemTime::now(),
    };
    // Start and ready both engines; the first that fails loses.
    for side in Color::ALL {
        match ready(&mut slots[side], setup.names[side], setup.referee) {
            Ok(()) => {}
            Err(NotReady::Lost { error, stderr }) => {
                let mut end = End::failure(side, &error);
                end.stderr = stderr;
                warn_failure(setup.names[side], &end);
                return Ok(record(end, Vec::new(), ByColor([0, 0])));
            }
            Err(NotReady::Fatal(e)) => return Err(e),
        }
    }
    let black = slots[Color::Black].engine.take().expect("started");
    let white = slots[Color::White].engine.take().expect("started");
    let game = setup.opening.game();
    let mut play = Play {
        setup,
        line: PositionLine::from_game(&game),
        game,
        legal: MoveList::new(),
        engines: ByColor([black, white]),
        clock: GameClock::new(setup.limits[Color::Black], setup.limits[Color::White]),
        moves: Vec::with_capacity(256),
        ponder: Ponder::default(),
        searching: None,
    };
    let mut end = play.run();
    if let Some(side) = end.failed {
        end.stderr = play.engines[side].client.stderr_tail();
        if !end.stderr.is_empty() {
            warn_failure(setup.names[side], &end);
        }
    }
    let used = ByColor([
        play.clock.used_ms(Color::Black),
        play.clock.used_ms(Color::White),
    ]);
    let moves = std::mem::take(&mut play.moves);
    let engines = play.finish(&end);
    let ByColor([b, w]) = engines;
    for (side, engine) in [(Color::Black, b), (Color::White, w)] {
        // restart=on: the engine quits now (its Drop), and a new one plays the next game.
        *slots[side].engine = engine.filter(|_| !slots[side].config.restart);
    }
    Ok(record(end, moves, used))
}

/// Gets a slot's engine ready for a new game: started if it does not run, then `isready` and
/// `usinewgame`. An engine that exited since its last game (or exits now) is started afresh
/// once: a crash between games costs no game, but one that comes back is the engine's. An
/// engine that fails is dropped from its slot.
fn ready(slot: &mut Slot<'_>, name: &str, referee: &Referee) -> Result<(), NotReady> {
    let mut fresh = false;
    loop {
        if slot.engine.is_none() {
            fresh = true;
            match MatchEngine::start(slot.config, name, &referee.policy()) {
                Ok(e) => *slot.engine = Some(e),
                Err(StartFailure {
                    error: StartError::Handshake(error) | StartError::Ready(error),
                    stderr,
                }) => return Err(NotReady::Lost { error, stderr }),
                Err(failure) => {
                    return Err(NotReady::Fatal(EngineError {
                        engine: name.to_string(),
                        failure,
                    }))
                }
            }
        }
        let engine = slot.engine.as_mut().expect("started");
        let Err(error) = engine.new_game(referee.ready) else {
            return Ok(());
        };
        let stderr = engine.client.stderr_tail();
        if let Some(dead) = slot.engine.take() {
            kill(dead);
        }
        if fresh || matches!(error, ClientError::Timeout { .. }) {
            return Err(NotReady::Lost { error, stderr });
        }
        warn!("{name}: {error} since its last game: starting it again");
    }
}

/// How far past its time a `bestmove` came, as a loss on time says it: tenths of a ms below
/// 10 ms (an engine that uses its whole time is late by less than a millisecond, and "0 ms
/// over" would not say that it was late at all), whole ms above.
fn overrun(over: Duration) -> String {
    if over < Duration::from_millis(10) {
        format!("{:.1} ms", over.as_secs_f64() * 1e3)
    } else {
        format!("{} ms", over.as_millis())
    }
}

/// Warns why `name`'s engine failed (`end`'s detail), with the last lines of its stderr.
fn warn_failure(name: &str, end: &End) {
    warn!("{name}: {}{}", end.detail, stderr_said(&end.stderr));
}

fn kill(mut e: MatchEngine) {
    e.client.kill();
}

impl Play<'_, '_> {
    fn run(&mut self) -> End {
        let referee = self.setup.referee;
        let mut adjudicator = Adjudicator::new(referee.draw, referee.resign);
        self.game.position().generate_legal(&mut self.legal);
        let mut end = judge(&self.game, &self.legal, referee.max_plies);
        loop {
            if let Some(e) = end {
                return e;
            }
            if self.setup.abort.load(Ordering::Relaxed) {
                return End::interrupted();
            }
            let side = self.game.position().side_to_move();
            let answer = match self.think(side) {
                Ok(a) => a,
                Err(e) => return e,
            };
            let mv = answer.mv;
            let place = self.legal.iter().position(|&m| m == mv);
            let place = place.map(|i| (i as u16, self.legal.len() as u16));
            self.game.play(mv);
            self.line.push(mv);
            self.moves.push(PlayedMove {
                mv,
                time_ms: answer.time_ms,
                score: answer.score,
                depth: answer.depth,
                nodes: answer.nodes,
                place,
            });
            let plies = self.game.len() as u32;
            self.game.position().generate_legal(&mut self.legal);
            end = judge(&self.game, &self.legal, referee.max_plies)
                .or_else(|| adjudicator.update(side, answer.score, plies));
            if end.is_none() {
                if let Err(e) = self.start_ponder(side, answer.ponder.as_deref()) {
                    return e;
                }
            }
        }
    }

    /// `side`'s turn: starts its search (or turns its ponder search into the real one), waits
    /// for `bestmove` and judges it. The move, with the search's result and its time, or the
    /// game's end.
    fn think(&mut self, side: Color) -> Result<Answer, End> {
        let go_at = self.start_search(side)?;
        let result = self.wait_bestmove(side, go_at)?;
        let elapsed = result.at.saturating_duration_since(go_at).as_millis() as u64;
        let margin = self.setup.referee.time_margin_ms;
        if let Err(over) = self.clock.charge(side, elapsed, margin) {
            // An answer that arrived past the deadline as the wait ended (a busy machine): by
            // itself, as late as it arrived, to the microsecond.
            let available = Duration::from_millis(elapsed - over.ms);
            let over = (result.at.saturating_duration_since(go_at)).saturating_sub(available);
            return Err(End {
                late: Some(Late::Unprompted(over.as_micros() as u64)),
                ..End::loss(
                    side,
                    Reason::Time,
                    format!("{} loses on time ({} over)", side.name(), overrun(over)),
                )
            });
        }
        self.judge_answer(side, result, elapsed)
    }

    /// Starts `side`'s search: `ponderhit` when it pondered on the move just played, else
    /// (after stopping a ponder search on another move) `position` and `go`. When the search
    /// started.
    fn start_search(&mut self, side: Color) -> Result<Instant, End> {
        let referee = self.setup.referee;
        // Pondering starts only after an engine's move: the last of `moves`.
        let last = self.moves.last().map(|m| m.mv);
        let engine = &mut self.engines[side];
        match self.ponder.on[side].take() {
            Some(p) if Some(p) == last => {
                debug!("{}: ponderhit {p}", self.setup.names[side]);
                engine
                    .client
                    .ponderhit()
                    .map_err(|e| End::failure(side, &e))?;
                Ok(Instant::now())
            }
            pondered => {
                if pondered.is_some() {
                    // The ponder search's answer is thrown away.
                    engine
                        .client
                        .stop_and_wait(referee.policy().stop_grace)
                        .map_err(|e| End::failure(side, &e))?;
                }
                // Anything left over (a second bestmove of a broken engine) is no answer to
                // this search.
                engine.client.drain().map_err(|e| End::failure(side, &e))?;
                let go = self.clock.go(side, false);
                engine
                    .client
                    .go_from(&self.line, &go)
                    .map_err(|e| End::failure(side, &e))
            }
        }
    }

    /// Waits for `side`'s `bestmove` to the search started at `go_at`, until its time plus the
    /// margin (or the ready time, untimed) has passed; an interrupt or the deadline ends the
    /// game (a time loss that has stopped the search; an interrupt leaves it searching).
    fn wait_bestmove(&mut self, side: Color, go_at: Instant) -> Result<SearchResult, End> {
        let referee = self.setup.referee;
        let available = self.clock.available_ms(side);
        let deadline = go_at
            + match available {
                Some(ms) => Duration::from_millis(ms + referee.time_margin_ms),
                None => referee.ready,
            };
        loop {
            if self.setup.abort.load(Ordering::Relaxed) {
                self.searching = Some(side);
                return Err(End::interrupted());
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(match available {
                    Some(ms) => self.time_loss(side, go_at, ms),
                    None => End::failure(
                        side,
                        &ClientError::Timeout {
                            waiting_for: "bestmove",
                            after: referee.ready,
                        },
                    ),
                });
            }
            match self.engines[side]
                .client
                .wait_bestmove(deadline.min(now + POLL))
            {
                Ok(Some(r)) => return Ok(r),
                Ok(None) => {}
                Err(e) => return Err(End::failure(side, &e)),
            }
        }
    }

    /// `side` is past its `ms` from `go_at` and the margin. A `bestmove` it sends by itself
    /// within [`LATE_ANSWER_WAIT`] says how late it came; after that the runner sends `stop`
    /// and waits up to the grace after it, so that the loss says that the engine moved only
    /// when stopped, and how late (or that no answer came: the engine is then hung, and
    /// killed).
    fn time_loss(&mut self, side: Color, go_at: Instant, ms: u64) -> End {
        let given = go_at + Duration::from_millis(ms);
        let deadline = given + Duration::from_millis(self.setup.referee.time_margin_ms);
        let who = side.name();
        let client = &mut self.engines[side].client;
        let loss = |late: Late, detail: String| End {
            late: Some(late),
            ..End::loss(side, Reason::Time, detail)
        };
        // An error (a crash) is seen again, and judged, after `stop`.
        if let Ok(Some(r)) = client.wait_bestmove(deadline + LATE_ANSWER_WAIT) {
            let over = r.at.saturating_duration_since(given);
            let detail = format!("{who} loses on time ({} over)", overrun(over));
            return loss(Late::Unprompted(over.as_micros() as u64), detail);
        }
        let grace = self.setup.referee.policy().stop_grace;
        match client.stop_and_wait(grace) {
            Ok(r) => {
                let over = r.at.saturating_duration_since(given);
                let detail = format!(
                    "{who} loses on time ({} over: it moved only after the runner's stop)",
                    overrun(over)
                );
                loss(Late::AfterStop(over.as_micros() as u64), detail)
            }
            Err(_) => {
                // Hung: it is killed, and counts as failed (`--max-failures`), as a crash does.
                warn!(
                    "{}: no bestmove after stop: killing it",
                    self.setup.names[side]
                );
                End {
                    failed: Some(side),
                    ..End::loss(
                        side,
                        Reason::Time,
                        format!(
                            "{who} loses on time (no bestmove in its {ms} ms, nor {} ms after stop)",
                            grace.as_millis()
                        ),
                    )
                }
            }
        }
    }

    /// Judges `side`'s answer, charged `elapsed` ms: a legal move goes on; an illegal or
    /// unreadable move, `resign` and `win` (upheld or not) end the game.
    fn judge_answer(&self, side: Color, result: SearchResult, elapsed: u64) -> Result<Answer, End> {
        let who = side.name();
        let name = self.setup.names[side];
        match &result.best {
            BestMove::Move(mv) if self.legal.contains(mv) => Ok(Answer {
                mv: *mv,
                time_ms: elapsed,
                score: result.info.score,
                depth: result.info.depth,
                nodes: result.info.nodes,
                ponder: result.ponder,
            }),
            BestMove::Move(mv) => {
                if let Err(why) = self.game.position().is_legal(*mv) {
                    warn!("{name} ({who}) played the illegal move {mv}: {why}");
                }
                Err(End::illegal_move(side, &mv.to_string()))
            }
            BestMove::Unparsable(text) => {
                warn!("{name} ({who}) answered 'bestmove {text}', which is no USI move");
                Err(End::illegal_move(side, text))
            }
            BestMove::Resign => Err(End::loss(side, Reason::Resign, format!("{who} resigns"))),
            BestMove::Win => {
                let rule = self.setup.referee.rule;
                if let Err(why) = self.game.position().check_declaration(rule) {
                    warn!("{name} ({who}) declared a win that does not hold under {rule}: {why}");
                    Err(End::illegal_declaration(side, rule))
                } else {
                    Err(End::new(
                        Decision::Win(side),
                        Reason::Declaration,
                        format!("{who} declares a win ({rule})"),
                    ))
                }
            }
        }
    }

    /// After `side`'s move: when it ponders and named a legal `ponder` move, search that
    /// position on the opponent's time (`go ponder`).
    fn start_ponder(&mut self, side: Color, ponder: Option<&str>) -> Result<(), End> {
        if !self.engines[side].ponder {
            return Ok(());
        }
        let Some(p) = ponder.and_then(|t| Move::from_usi(t).ok()) else {
            return Ok(());
        };
        if !self.legal.contains(&p) {
            debug!(
                "{}: ponder move {p} is not legal: not pondering",
                self.setup.names[side]
            );
            return Ok(());
        }
        self.line.push(p);
        let go = self.clock.go(side, true);
        let sent = self.engines[side].client.go_from(&self.line, &go);
        self.line.pop();
        sent.map_err(|e| End::failure(side, &e))?;
        self.ponder.on[side] = Some(p);
        Ok(())
    }

    /// Ends the game for both engines: a ponder search or one still running is stopped (its
    /// `bestmove` awaited), then `gameover`. An engine that failed, or does not answer `stop`,
    /// is killed. The engines that are still fit to play, per side.
    fn finish(self, end: &End) -> ByColor<Option<MatchEngine>> {
        let Play {
            setup,
            engines,
            ponder,
            searching,
            ..
        } = self;
        let ByColor([b, w]) = engines;
        let mut out = ByColor([None, None]);
        for (side, mut e) in [(Color::Black, b), (Color::White, w)] {
            if end.failed == Some(side) {
                kill(e);
                continue;
            }
            if setup.abort.load(Ordering::Relaxed) {
                // The match is ending: the engine gets `quit` and nothing else.
                out[side] = Some(e);
                continue;
            }
            let busy = ponder.on[side].is_some() || searching == Some(side);
            if busy {
                let grace = setup.referee.policy().stop_grace;
                let stopped = e.client.stop_and_wait(grace).is_ok();
                if !stopped {
                    warn!("{}: no bestmove after stop: killing it", setup.names[side]);
                    kill(e);
                    continue;
                }
            }
            if e.client.gameover(end.result.for_side(side)).is_err() {
                kill(e);
                continue;
            }
            out[side] = Some(e);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use saikoro_core::Position;

    /// The referee's verdict on `game` as it stands, with a ply limit of `max_plies`.
    fn verdict(game: &Game, max_plies: u32) -> Option<End> {
        let mut legal = MoveList::new();
        game.position().generate_legal(&mut legal);
        judge(game, &legal, max_plies)
    }

    fn play(game: &mut Game, moves: &str) {
        for m in moves.split_whitespace() {
            game.try_play(Move::from_usi(m).unwrap()).unwrap();
        }
    }

    /// Black king 5i, pawn 5c, a gold in hand; White king 5a. G*5b mates (the gold, guarded by
    /// the pawn, covers 4a, 6a, 4b and 6b): Black wins by mate, even when that move reaches
    /// the ply limit.
    #[test]
    fn mate_wins_even_on_the_last_ply() {
        let start = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let mut game = Game::new(start);
        assert_eq!(verdict(&game, 0), None);
        play(&mut game, "G*5b");
        for max_plies in [0, 1, 2] {
            let end = verdict(&game, max_plies).unwrap();
            assert_eq!(
                (end.result, end.reason, end.detail.as_str()),
                (Decision::Win(Color::Black), Reason::Mate, "Black mates")
            );
        }
    }

    /// With a limit of 4 plies, the game is drawn once 4 moves are played, not before; with no
    /// limit (0), never.
    #[test]
    fn the_ply_limit_draws() {
        let mut game = Game::new(Position::startpos());
        play(&mut game, "7g7f 3c3d 2g2f");
        assert_eq!(verdict(&game, 4), None);
        play(&mut game, "8c8d");
        let end = verdict(&game, 4).unwrap();
        assert_eq!(
            (end.result, end.reason, end.detail.as_str()),
            (Decision::Draw, Reason::MaxPlies, "Draw by the 4-ply limit")
        );
        assert_eq!(verdict(&game, 5), None);
        assert_eq!(verdict(&game, 0), None);
    }

    /// Fourfold repetition: a draw when nobody kept checking (both sides shuffle a gold), a
    /// loss for the side that did (the rook checks the king 1a-2a-1a from 1i and 2i).
    #[test]
    fn repetitions_draw_or_lose_for_the_checker() {
        let mut game = Game::new(Position::startpos());
        play(&mut game, &"6i6h 4a4b 6h6i 4b4a ".repeat(3));
        let end = verdict(&game, 0).unwrap();
        assert_eq!(
            (end.result, end.reason),
            (Decision::Draw, Reason::Repetition)
        );
        let start = Position::from_sfen("8k/9/p8/9/9/9/K8/9/8R w - 1").unwrap();
        let mut game = Game::new(start);
        play(&mut game, &"1a2a 1i2i 2a1a 2i1i ".repeat(3));
        let end = verdict(&game, 0).unwrap();
        assert_eq!(
            (end.result, end.reason, end.detail.as_str()),
            (
                Decision::Win(Color::White),
                Reason::PerpetualCheck,
                "Black loses by perpetual check"
            )
        );
    }
}
