//! The CSA client's state machine for one connection: `LOGIN`, waiting for a match with
//! keep-alives, the Game_Summary, `AGREE`, `START`/`REJECT`, the moves and their echoes, and the
//! end-of-game lines. It works over any `BufRead` + `Write`, so it is tested without sockets.
//!
//! Reads that time out (`WouldBlock`/`TimedOut`, from a socket read timeout) are the clock tick:
//! keep-alives are sent then, and deadlines checked.

use super::clock::Clock;
use super::mask::Mask;
use super::summary::{GameSummary, SummaryError};
use log::{debug, error, info, warn};
use saikoro_core::{Choice, Color, EnteringKingRule, Game, Move, Outcome, Position, RandomMover};
use saikoro_record::csa::notation::{move_to_csa, parse_move, split_move_line};
use saikoro_record::Ending;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// Settings of a client session. Its `Debug` form hides the password.
#[derive(Clone)]
pub struct ClientConfig {
    /// Login name.
    pub user: String,
    /// Password, sent as is (Floodgate: `floodgate-300-10F,TRIP`). Never logged: every line
    /// the client logs, sent or received, has it (and the trip alone) masked.
    pub password: String,
    /// Send an empty line after this long without sending anything.
    pub keepalive: Duration,
    /// Safety margin taken off our time budget on each move.
    pub margin: Duration,
    /// Entering-king rule; `None` = from the summary's `Declaration` (`Jishogi 1.1` → the CSA
    /// 27-point rule, none → no declaration).
    pub rule: Option<EnteringKingRule>,
    /// Set (by Ctrl-C) to stop waiting for a match: the client then logs out. A game in
    /// progress is always played to its end.
    pub stop: Arc<AtomicBool>,
    /// How long a game may run past the move limit or a repetition by our count without the
    /// server's end lines before we play on.
    pub grace: Duration,
}

impl ClientConfig {
    /// A configuration with the defaults: keep-alive 40 s, margin 1.5 s.
    pub fn new(user: &str, password: &str) -> ClientConfig {
        ClientConfig {
            user: user.to_string(),
            password: password.to_string(),
            keepalive: Duration::from_secs(40),
            margin: Duration::from_millis(1500),
            rule: None,
            stop: Arc::new(AtomicBool::new(false)),
            grace: Duration::from_secs(3),
        }
    }
}

impl fmt::Debug for ClientConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientConfig")
            .field("user", &self.user)
            .field("password", &super::mask::HIDDEN)
            .field("keepalive", &self.keepalive)
            .field("margin", &self.margin)
            .field("rule", &self.rule)
            .field("stop", &self.stop)
            .field("grace", &self.grace)
            .finish()
    }
}

/// What ended a CSA server session without a game result (the server's side: login, connection,
/// Game_Summary; or our player failing before the game started).
#[derive(Debug)]
#[non_exhaustive]
pub enum SessionError {
    /// Reading or writing the connection failed.
    Io(io::Error),
    /// `LOGIN:incorrect`: bad name or password, or the name is already playing.
    LoginIncorrect,
    /// The server closed the connection before the game started.
    Disconnected(&'static str),
    /// No answer in time.
    Timeout(&'static str),
    /// A Game_Summary we cannot play (we sent `REJECT`).
    Summary(SummaryError),
    /// The player (an external engine) failed before the game started.
    Player(PlayerError),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Io(e) => write!(f, "connection error: {e}"),
            SessionError::LoginIncorrect => {
                f.write_str("LOGIN:incorrect (bad name or password, or the name is in use)")
            }
            SessionError::Disconnected(when) => write!(f, "server closed the connection {when}"),
            SessionError::Timeout(what) => write!(f, "no answer from the server {what}"),
            SessionError::Summary(e) => write!(f, "unusable Game_Summary: {e}"),
            SessionError::Player(e) => write!(f, "player failed: {e}"),
        }
    }
}

impl std::error::Error for SessionError {}

impl From<io::Error> for SessionError {
    fn from(e: io::Error) -> Self {
        SessionError::Io(e)
    }
}

/// A player failure (an external engine that died, timed out or spoke nonsense).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerError(pub String);

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlayerError {}

/// What the player needs to know about the game.
#[derive(Clone, Debug)]
pub struct GameContext {
    /// Our colour.
    pub us: Color,
    /// The entering-king rule in force.
    pub rule: EnteringKingRule,
    /// The Game_ID.
    pub game_id: String,
    /// Safety margin on our time.
    pub margin: Duration,
}

/// Something that picks our moves.
pub trait Player {
    /// A game is about to be agreed to (before `AGREE`; keep it short: the server drops the
    /// offer after 120 s).
    fn new_game(&mut self, ctx: &GameContext, game: &Game) -> Result<(), PlayerError>;
    /// Our move in `game`'s current position, by `deadline` if there is one. A player that
    /// waits must call `tick` every few hundred milliseconds (it sends the keep-alives).
    fn choose(
        &mut self,
        ctx: &GameContext,
        game: &mut Game,
        clock: &Clock,
        deadline: Option<Instant>,
        tick: &mut dyn FnMut(),
    ) -> Result<Choice, PlayerError>;
    /// The game is over.
    fn game_over(&mut self, _result: ServerResult) {}
}

/// The built-in player: [`RandomMover`] in process, reseeded for each game.
#[derive(Debug)]
pub struct BuiltinPlayer {
    base_seed: Option<u64>,
    games: u64,
    player: RandomMover,
}

impl BuiltinPlayer {
    /// With `seed`, game `i` (from 0) uses `seed + i`; without, each game takes a fresh seed
    /// from the OS. The seed is logged at `info`.
    pub fn new(seed: Option<u64>) -> BuiltinPlayer {
        BuiltinPlayer {
            base_seed: seed,
            games: 0,
            player: RandomMover::new(seed.unwrap_or(0)),
        }
    }
}

impl Player for BuiltinPlayer {
    fn new_game(&mut self, ctx: &GameContext, _game: &Game) -> Result<(), PlayerError> {
        let seed = match self.base_seed {
            Some(s) => s.wrapping_add(self.games),
            None => RandomMover::entropy_seed(),
        };
        self.games += 1;
        info!("game {}: random player seed {seed}", ctx.game_id);
        self.player.reseed(seed);
        Ok(())
    }

    fn choose(
        &mut self,
        ctx: &GameContext,
        game: &mut Game,
        _clock: &Clock,
        _deadline: Option<Instant>,
        _tick: &mut dyn FnMut(),
    ) -> Result<Choice, PlayerError> {
        Ok(self.player.choose(game, ctx.rule))
    }
}

/// The result of a game from our side as the server gave it (its second `#` line), or
/// `Interrupted` when it gave none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerResult {
    /// `#WIN`.
    Win,
    /// `#LOSE`.
    Lose,
    /// `#DRAW`.
    Draw,
    /// `#CENSORED` (move limit).
    Censored,
    /// `#CHUDAN` (interrupted by the server).
    Chudan,
    /// No result from the server: it disconnected, or sent a move our rules call illegal.
    Interrupted,
}

impl ServerResult {
    fn from_word(w: &str) -> Option<ServerResult> {
        Some(match w {
            "WIN" => ServerResult::Win,
            "LOSE" => ServerResult::Lose,
            "DRAW" => ServerResult::Draw,
            "CENSORED" => ServerResult::Censored,
            "CHUDAN" => ServerResult::Chudan,
            _ => return None,
        })
    }

    /// The lower-case word: `win`, `lose`, `draw`, `censored`, `chudan`, `interrupted`.
    pub fn as_str(self) -> &'static str {
        match self {
            ServerResult::Win => "win",
            ServerResult::Lose => "lose",
            ServerResult::Draw => "draw",
            ServerResult::Censored => "censored",
            ServerResult::Chudan => "chudan",
            ServerResult::Interrupted => "interrupted",
        }
    }

    /// The result as a USI engine is told it (`gameover`): a move limit, a `#CHUDAN` or an
    /// interruption is a draw, as ShogiHome's CSA bridge tells it.
    pub fn gameover(self) -> saikoro_core::GameResult {
        match self {
            ServerResult::Win => saikoro_core::GameResult::Win,
            ServerResult::Lose => saikoro_core::GameResult::Loss,
            _ => saikoro_core::GameResult::Draw,
        }
    }

    /// Whether the server ended the game (a `#` result), rather than a disconnect or an
    /// illegal server move.
    pub fn is_normal(self) -> bool {
        self != ServerResult::Interrupted
    }
}

impl fmt::Display for ServerResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A finished (or broken-off) game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The Game_Summary.
    pub summary: GameSummary,
    /// Our result.
    pub result: ServerResult,
    /// The reason: the first `#` line without `#` (`RESIGN`, `TIME_UP`, `SENNICHITE`, …), or
    /// `DISCONNECTED` / `ILLEGAL_SERVER_MOVE` for an interrupted game.
    pub reason: String,
    /// The start position of the Position block.
    pub start: Position,
    /// Every move of the game (those of the Position block first) with its time charged.
    pub moves: Vec<(Move, Option<u32>)>,
    /// Special moves seen (`%TORYO`, `%KACHI`), without times.
    pub specials: Vec<String>,
    /// When `START` arrived.
    pub started: SystemTime,
    /// When the game ended.
    pub ended: SystemTime,
    /// Set when our player failed during the game (we resigned for it).
    pub player_error: Option<PlayerError>,
}

impl GameReport {
    /// How the game ends in its record (the record model's ending, which the CSA writer writes
    /// as its `%` line), from the server's reason (the first `#` line, CSA protocol 1.2.1):
    /// `RESIGN` 投了 (`%TORYO`), `TIME_UP` (`%TIME_UP`), `ILLEGAL_MOVE` and `OUTE_SENNICHITE`
    /// the loser's foul (`%+ILLEGAL_ACTION`, `%-ILLEGAL_ACTION`; the side to move's when the
    /// result names no loser, and a repetition for `OUTE_SENNICHITE`), `SENNICHITE` 千日手,
    /// `JISHOGI` after our or the server's `%KACHI` a declaration (`%KACHI`), else 持将棋,
    /// `MAX_MOVES` the move limit (`%MAX_MOVES`), and anything else the game stopped
    /// (`%CHUDAN`).
    pub fn ending(&self) -> Ending {
        let next = if self.moves.len().is_multiple_of(2) {
            self.start.side_to_move()
        } else {
            !self.start.side_to_move()
        };
        let loser = match self.result {
            ServerResult::Win => Some(!self.summary.us),
            ServerResult::Lose => Some(self.summary.us),
            _ => None,
        };
        match self.reason.as_str() {
            "RESIGN" => Ending::Resign,
            "TIME_UP" => Ending::TimeUp,
            "ILLEGAL_MOVE" => Ending::Foul(loser.unwrap_or(next)),
            "SENNICHITE" => Ending::Repetition,
            "OUTE_SENNICHITE" => loser.map_or(Ending::Repetition, Ending::Foul),
            "JISHOGI" if self.specials.iter().any(|s| s == "%KACHI") => Ending::Declaration,
            "JISHOGI" => Ending::Jishogi,
            "MAX_MOVES" => Ending::MaxMoves,
            _ => Ending::Interrupt,
        }
    }

    /// The per-game summary line: `game <id>: <result> <reason> <plies> plies`.
    pub fn summary_line(&self) -> String {
        format!(
            "game {}: {} {} {} plies",
            self.summary.game_id,
            self.result,
            self.reason,
            self.moves.len()
        )
    }
}

/// How a session (one connection) ended.
#[derive(Debug)]
pub enum SessionEnd {
    /// A game was played (or broken off).
    Played(Box<GameReport>),
    /// The game was rejected: `REJECT:<id> by <name>`.
    Rejected {
        /// The Game_ID.
        game_id: String,
        /// Who rejected it.
        by: String,
    },
    /// Stopped (Ctrl-C) while waiting for a match; we logged out.
    Stopped,
}

enum Got {
    Line(String),
    Idle,
    Eof,
}

/// Line reader keeping a partial line across read timeouts. Bytes, not UTF-8: decoded lossily.
struct Lines<R> {
    r: R,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    fn next(&mut self) -> io::Result<Got> {
        match self.r.read_until(b'\n', &mut self.buf) {
            Ok(0) if self.buf.is_empty() => Ok(Got::Eof),
            Ok(_) => {
                let mut line = std::mem::take(&mut self.buf);
                if line.last() == Some(&b'\n') {
                    line.pop();
                }
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                Ok(Got::Line(String::from_utf8_lossy(&line).into_owned()))
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock
                        | io::ErrorKind::TimedOut
                        | io::ErrorKind::Interrupted
                ) =>
            {
                Ok(Got::Idle)
            }
            Err(e) => Err(e),
        }
    }
}

/// The writing side: logs every line (password masked) and sends keep-alives when due.
struct Wire<W> {
    w: W,
    last_sent: Instant,
    keepalive: Duration,
    /// What the log must not show; also applied to the lines received ([`Session::shown`]).
    mask: Mask,
}

impl<W: Write> Wire<W> {
    fn send(&mut self, line: &str) -> io::Result<()> {
        debug!("> {}", self.mask.apply(line));
        self.w.write_all(line.as_bytes())?;
        self.w.write_all(b"\n")?;
        self.w.flush()?;
        self.last_sent = Instant::now();
        Ok(())
    }

    fn tick(&mut self) -> io::Result<()> {
        if self.last_sent.elapsed() >= self.keepalive {
            self.send("")?;
        }
        Ok(())
    }
}

struct Session<'a, R, W> {
    lines: Lines<R>,
    wire: Wire<W>,
    cfg: &'a ClientConfig,
}

/// Plays one session on a connection: login, one game (or a rejection), `LOGOUT`, and
/// returns. The caller closes the connection afterwards (shogi-server finishes a CSA-mode
/// player after each game; `LOGOUT:completed` never comes, so it is not waited for).
pub fn run_session<R: BufRead, W: Write>(
    reader: R,
    writer: W,
    cfg: &ClientConfig,
    player: &mut dyn Player,
) -> Result<SessionEnd, SessionError> {
    let mut s = Session {
        lines: Lines {
            r: reader,
            buf: Vec::new(),
        },
        wire: Wire {
            w: writer,
            last_sent: Instant::now(),
            keepalive: cfg.keepalive,
            mask: Mask::new(&cfg.password),
        },
        cfg,
    };
    s.run(player)
}

/// Read outcome while waiting.
enum Wait {
    Line(String),
    Timeout,
    Stopped,
}

impl<R: BufRead, W: Write> Session<'_, R, W> {
    /// A line of the server's as the log may show it: a server that repeated the password
    /// (none does) would not put it in the log.
    fn shown<'l>(&self, line: &'l str) -> std::borrow::Cow<'l, str> {
        self.wire.mask.apply(line)
    }

    /// The next non-empty line; `Timeout` at `until`, `Stopped` when `stoppable` and the stop
    /// flag is set. End of input is an `UnexpectedEof` error.
    fn recv(&mut self, until: Option<Instant>, stoppable: bool) -> io::Result<Wait> {
        loop {
            if stoppable && self.cfg.stop.load(Ordering::SeqCst) {
                return Ok(Wait::Stopped);
            }
            match self.lines.next()? {
                Got::Line(l) => {
                    debug!("< {}", self.shown(&l));
                    if !l.trim().is_empty() {
                        return Ok(Wait::Line(l));
                    }
                }
                Got::Idle => {
                    self.wire.tick()?;
                    if until.is_some_and(|u| Instant::now() >= u) {
                        return Ok(Wait::Timeout);
                    }
                }
                Got::Eof => {
                    return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "closed"));
                }
            }
        }
    }

    fn recv_pregame(
        &mut self,
        until: Option<Instant>,
        stoppable: bool,
        when: &'static str,
    ) -> Result<Wait, SessionError> {
        match self.recv(until, stoppable) {
            Ok(w) => Ok(w),
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                Err(SessionError::Disconnected(when))
            }
            Err(e) => Err(SessionError::Io(e)),
        }
    }

    fn run(&mut self, player: &mut dyn Player) -> Result<SessionEnd, SessionError> {
        let login = format!("LOGIN {} {}", self.cfg.user, self.cfg.password);
        self.wire.send(&login)?;
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            match self.recv_pregame(Some(until), false, "after LOGIN")? {
                Wait::Line(l) if l == "LOGIN:incorrect" => {
                    return Err(SessionError::LoginIncorrect)
                }
                Wait::Line(l) if l.starts_with("LOGIN:") && l.ends_with(" OK") => break,
                Wait::Line(l) => info!("ignored before login: {}", self.shown(&l)),
                Wait::Timeout => return Err(SessionError::Timeout("to LOGIN")),
                Wait::Stopped => unreachable!("not stoppable"),
            }
        }
        info!("logged in as {}; waiting for a game", self.cfg.user);
        loop {
            match self.recv_pregame(None, true, "while waiting for a game")? {
                Wait::Line(l) if l == "BEGIN Game_Summary" => break,
                Wait::Line(l) => info!("ignored while waiting: {}", self.shown(&l)),
                Wait::Timeout => {}
                Wait::Stopped => {
                    info!("stop requested: logging out");
                    self.wire.send("LOGOUT")?;
                    return Ok(SessionEnd::Stopped);
                }
            }
        }
        let mut lines = Vec::new();
        loop {
            match self.recv_pregame(None, false, "in the Game_Summary")? {
                Wait::Line(l) if l == "END Game_Summary" => break,
                Wait::Line(l) => lines.push(l),
                _ => {}
            }
        }
        let summary = match GameSummary::parse(&lines) {
            Ok(s) => s,
            Err(e) => {
                error!("cannot use the Game_Summary: {e}; rejecting");
                let id = lines
                    .iter()
                    .find_map(|l| l.strip_prefix("Game_ID:"))
                    .unwrap_or("");
                self.wire.send(format!("REJECT {id}").trim_end())?;
                return Err(SessionError::Summary(e));
            }
        };
        self.play(summary, player)
    }

    /// `AGREE`s to the game in `summary` (or `REJECT`s it), then plays it to its end lines.
    fn play(
        &mut self,
        summary: GameSummary,
        player: &mut dyn Player,
    ) -> Result<SessionEnd, SessionError> {
        let id = summary.game_id.clone();
        for k in &summary.unknown {
            info!("Game_Summary: ignored '{k}'");
        }
        let mut g = match InGame::new(summary, self.cfg) {
            Ok(g) => g,
            Err(e) => {
                error!("cannot play game {id}: {e}; rejecting");
                self.wire.send(&format!("REJECT {id}"))?;
                return Err(SessionError::Summary(e));
            }
        };
        if let Err(e) = player.new_game(&g.ctx, &g.game) {
            error!("player not ready: {e}; rejecting");
            self.wire.send(&format!("REJECT {id}"))?;
            return Err(SessionError::Player(e));
        }
        self.wire.send(&format!("AGREE {id}"))?;
        loop {
            match self.recv_pregame(None, false, "before START")? {
                Wait::Line(l) if l.starts_with("START:") => break,
                Wait::Line(l) if l.starts_with("REJECT:") => {
                    let rest = &l["REJECT:".len()..];
                    let by = rest.split_once(" by ").map_or("", |(_, b)| b).to_string();
                    info!("game {id} rejected by {by}");
                    return Ok(SessionEnd::Rejected { game_id: id, by });
                }
                Wait::Line(l) => info!("ignored before START: {}", self.shown(&l)),
                _ => {}
            }
        }
        g.start();
        let reason = loop {
            let until = match g.next_step() {
                Step::Move => {
                    let text = g.our_move(player, &mut self.wire);
                    // A failed send is not the end yet: the server may have ended the game
                    // while we were moving (its lines are still to be read), or it is gone,
                    // which the next read tells.
                    if let Err(e) = self.wire.send(&text) {
                        warn!("sending {text} failed: {e}");
                    }
                    g.awaiting = Some(text);
                    continue;
                }
                Step::Wait(until) => until,
            };
            match self.recv(until, false) {
                Ok(Wait::Line(line)) => {
                    if let Some(reason) = g.on_line(&line) {
                        break reason;
                    }
                }
                Ok(_) => {}
                Err(e) => break g.on_disconnect(e),
            }
        };
        let report = g.finish(reason);
        // The end of the session, said as the protocol says it: shogi-server has usually
        // finished a CSA-mode player by now (and closes without `LOGOUT:completed`), so a
        // failed send is no error; in x1 mode it answers `LOGOUT:completed`.
        if let Err(e) = self.wire.send("LOGOUT") {
            debug!("LOGOUT after the game not sent: {e}");
        }
        player.game_over(report.result);
        info!("{}", report.summary_line());
        Ok(SessionEnd::Played(Box::new(report)))
    }
}

/// What a game in progress waits for.
enum Step {
    /// Our move: choose and send it.
    Move,
    /// The server's next line, until the instant given (a tick for the grace period).
    Wait(Option<Instant>),
}

/// A game from `AGREE` to its end lines: the position, the clock, and where the exchange
/// stands.
struct InGame {
    ctx: GameContext,
    game: Game,
    clock: Clock,
    /// `Max_Moves`, when the server has a move limit.
    max_moves: Option<u32>,
    /// How long to wait for the server's verdict once the game is over by our count.
    grace: Duration,
    /// The move we sent, until the server echoes it.
    awaiting: Option<String>,
    /// The first `#` line (the reason: `#RESIGN`, `#TIME_UP`, …), until the result line.
    reason: Option<String>,
    /// When the current turn began (our clock runs from the opponent's echo).
    turn_start: Instant,
    /// Set while we wait for the verdict on a game that is over by our count.
    grace_until: Option<Instant>,
    /// What will be reported: the moves and specials so far, the result once known.
    report: GameReport,
    /// What the log must not show of the lines it quotes.
    mask: Mask,
}

impl InGame {
    /// The game of `summary` with the moves it says were played, the rule and the clock.
    fn new(summary: GameSummary, cfg: &ClientConfig) -> Result<InGame, SummaryError> {
        let (game, moves) = summary.game()?;
        let us = summary.us;
        let rule = cfg.rule.unwrap_or(match summary.declaration.as_deref() {
            Some(d) if d.trim() == "Jishogi 1.1" => EnteringKingRule::CsaRule27,
            Some(d) => {
                warn!("unknown Declaration '{d}': assuming the CSA 27-point rule");
                EnteringKingRule::CsaRule27
            }
            None => EnteringKingRule::NoEnteringKing,
        });
        let mut clock = Clock::new(summary.time);
        let mut mover = game.start().side_to_move();
        for &(_, t) in &moves {
            clock.charge(mover, t.unwrap_or(0));
            mover = !mover;
        }
        let ctx = GameContext {
            us,
            rule,
            game_id: summary.game_id.clone(),
            margin: cfg.margin,
        };
        info!(
            "game {}: {} (+) vs {} (-), we are {}, {} moves already played, rule {rule}",
            ctx.game_id,
            summary.names[Color::Black],
            summary.names[Color::White],
            saikoro_record::csa::notation::sign(us),
            moves.len()
        );
        let now = SystemTime::now();
        Ok(InGame {
            mask: Mask::new(&cfg.password),
            max_moves: summary.max_moves.filter(|&m| m > 0),
            report: GameReport {
                start: game.start().clone(),
                summary,
                result: ServerResult::Interrupted,
                reason: String::new(),
                moves,
                specials: Vec::new(),
                started: now,
                ended: now,
                player_error: None,
            },
            ctx,
            game,
            clock,
            grace: cfg.grace,
            awaiting: None,
            reason: None,
            turn_start: Instant::now(),
            grace_until: None,
        })
    }

    /// `START` has come: the clock runs.
    fn start(&mut self) {
        self.report.started = SystemTime::now();
        self.turn_start = Instant::now();
    }

    /// Whether we move now or wait. On our turn in a game that is over by our count
    /// (repetition, the move limit) we wait for the server's verdict for a grace period, then
    /// play on: the server's word is final.
    fn next_step(&mut self) -> Step {
        let our_turn = self.awaiting.is_none()
            && self.reason.is_none()
            && self.game.position().side_to_move() == self.ctx.us;
        if !our_turn {
            return Step::Wait(None);
        }
        let over = matches!(
            self.game.outcome(),
            Some(Outcome::Repetition | Outcome::PerpetualCheck { .. })
        ) || self.max_moves.is_some_and(|m| self.game.len() as u32 >= m);
        if !over {
            return Step::Move;
        }
        let grace = self.grace;
        let until = *self
            .grace_until
            .get_or_insert_with(|| Instant::now() + grace);
        if Instant::now() < until {
            return Step::Wait(Some(until));
        }
        warn!("the game should be over by our count, but the server says nothing: playing on");
        Step::Move
    }

    /// Asks the player for our move and returns its CSA text (`%TORYO` when there is no legal
    /// move or the player fails or chooses an illegal move).
    fn our_move<W: Write>(&mut self, player: &mut dyn Player, wire: &mut Wire<W>) -> String {
        if !self.game.position().has_legal_move() {
            return "%TORYO".to_string();
        }
        let deadline = self
            .clock
            .think_time(self.ctx.us, self.ctx.margin)
            .map(|t| self.turn_start + t);
        let mut tick = || {
            if let Err(e) = wire.tick() {
                warn!("keep-alive failed: {e}");
            }
        };
        let choice =
            match player.choose(&self.ctx, &mut self.game, &self.clock, deadline, &mut tick) {
                Ok(c) => c,
                Err(e) => {
                    error!("player failed: {e}; resigning");
                    self.report.player_error = Some(e);
                    Choice::Resign
                }
            };
        match choice {
            Choice::Move(mv) => match self.game.position().is_legal(mv) {
                Ok(()) => move_to_csa(self.game.position(), mv),
                Err(e) => {
                    error!("player chose illegal move {mv} ({e}); resigning");
                    "%TORYO".to_string()
                }
            },
            Choice::Resign => "%TORYO".to_string(),
            Choice::DeclareWin => "%KACHI".to_string(),
        }
    }

    /// Takes one line of the server's; returns the reason when the game has ended.
    fn on_line(&mut self, line: &str) -> Option<String> {
        if let Some(word) = line.strip_prefix('#') {
            return self.on_result_line(word.trim());
        }
        if line.starts_with('%') {
            let special = line.split(',').next().unwrap_or("").to_string();
            if self.report.specials.last() != Some(&special) {
                self.report.specials.push(special);
            }
            return None;
        }
        let Some((text, t)) = split_move_line(line) else {
            info!("ignored in game: {}", self.mask.apply(line));
            return None;
        };
        let mover = self.game.position().side_to_move();
        let mv = match parse_move(self.game.position(), text) {
            Ok(mv) => mv,
            Err(e) => {
                error!(
                    "ILLEGAL MOVE FROM THE SERVER in game {} at ply {}: {line}: {e}; \
                     ending the game (position {})",
                    self.ctx.game_id,
                    self.game.len() + 1,
                    self.game.position().to_sfen()
                );
                return Some("ILLEGAL_SERVER_MOVE".to_string());
            }
        };
        self.game.play(mv);
        self.report.moves.push((mv, t));
        self.clock.charge(mover, t.unwrap_or(0));
        self.grace_until = None;
        if mover == self.ctx.us {
            match self.awaiting.as_deref() {
                Some(ours) if ours != text => {
                    warn!("the server echoed {text}, which differs from our move {ours}")
                }
                None => warn!("the server echoed {text} as our move, and we sent none"),
                Some(_) => {}
            }
            self.awaiting = None;
        } else {
            self.turn_start = Instant::now();
        }
        None
    }

    /// A `#` line: the reason comes first (`#RESIGN`), then the result (`#WIN`). A result
    /// with no reason before it ends the game with reason `UNKNOWN`.
    fn on_result_line(&mut self, word: &str) -> Option<String> {
        match (&self.reason, ServerResult::from_word(word)) {
            (Some(r), res) => {
                self.report.result = res.unwrap_or_else(|| {
                    warn!("unknown result line #{word}");
                    ServerResult::Interrupted
                });
                Some(r.clone())
            }
            (None, Some(res @ (ServerResult::Win | ServerResult::Lose | ServerResult::Draw))) => {
                self.report.result = res;
                Some("UNKNOWN".to_string())
            }
            (None, _) => {
                self.reason = Some(word.to_string());
                None
            }
        }
    }

    /// The connection is gone: the reason if the server gave one (and, for `#CHUDAN`, the
    /// result), else `DISCONNECTED`.
    fn on_disconnect(&mut self, e: io::Error) -> String {
        if let Some(r) = self.reason.take() {
            warn!("connection closed after #{r} without a result line");
            if r == "CHUDAN" {
                self.report.result = ServerResult::Chudan;
            }
            return r;
        }
        error!("connection lost during game {}: {e}", self.ctx.game_id);
        "DISCONNECTED".to_string()
    }

    /// The report of the finished game.
    fn finish(mut self, reason: String) -> GameReport {
        self.report.reason = reason;
        self.report.ended = SystemTime::now();
        self.report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn summary(your_turn: char, extra_position: &str) -> String {
        format!(
            "BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\nFormat:Shogi 1.0\n\
             Declaration:Jishogi 1.1\nGame_ID:g1\nName+:a\nName-:b\nYour_Turn:{your_turn}\n\
             Rematch_On_Draw:NO\nTo_Move:+\nMax_Moves:256\nBEGIN Time\nTime_Unit:1sec\n\
             Total_Time:60\nByoyomi:10\nIncrement:0\nLeast_Time_Per_Move:0\nEND Time\n\
             BEGIN Position\nPI\n+\n{extra_position}END Position\nEND Game_Summary\n"
        )
    }

    fn run(input: &str, seed: u64) -> (Result<SessionEnd, SessionError>, String) {
        let mut out = Vec::new();
        let cfg = ClientConfig::new("me", "pw,trip");
        let mut p = BuiltinPlayer::new(Some(seed));
        let r = run_session(Cursor::new(input.as_bytes()), &mut out, &cfg, &mut p);
        (r, String::from_utf8(out).unwrap())
    }

    /// As White: Black plays 7g7f, we answer, Black resigns.
    #[test]
    fn white_plays_a_move_and_wins_by_resignation() {
        let input = format!(
            "LOGIN:me OK\n\n{}START:g1\n+7776FU,T3\n\n",
            summary('-', "")
        );
        // Our answer is random: find it by running once, then feed its echo.
        let (_, out) = run(&input, 7);
        let ours = out.lines().nth(2).unwrap().to_string();
        assert!(ours.starts_with('-') && ours.len() == 7, "{out}");
        let input = format!("{input}{ours},T0\n%TORYO\n#RESIGN\n#WIN\n");
        let (r, out) = run(&input, 7);
        // LOGOUT after the game's end, as a client ends its session with the server.
        assert_eq!(out, format!("LOGIN me pw,trip\nAGREE g1\n{ours}\nLOGOUT\n"));
        let SessionEnd::Played(rep) = r.unwrap() else {
            panic!()
        };
        assert_eq!(rep.result, ServerResult::Win);
        assert_eq!(rep.reason, "RESIGN");
        assert_eq!(rep.moves.len(), 2);
        assert_eq!(rep.moves[0].1, Some(3));
        assert_eq!(rep.specials, vec!["%TORYO".to_string()]);
        assert_eq!(rep.ending(), Ending::Resign);
        assert_eq!(rep.summary_line(), "game g1: win RESIGN 2 plies");
    }

    /// A `{:?}` of the settings (a panic message, a debug line) shows no password.
    #[test]
    fn the_debug_form_of_the_settings_hides_the_password() {
        let shown = format!("{:?}", ClientConfig::new("me", "game-60-10,secret-trip"));
        assert!(shown.contains("\"me\""), "{shown}");
        assert!(!shown.contains("secret"), "{shown}");
        assert!(!shown.contains("game-60-10"), "{shown}");
    }

    #[test]
    fn login_incorrect_and_reject() {
        let (r, _) = run("LOGIN:incorrect\n", 1);
        assert!(matches!(r, Err(SessionError::LoginIncorrect)));
        let input = format!("LOGIN:me OK\n{}REJECT:g1 by b\n", summary('+', ""));
        let (r, out) = run(&input, 1);
        assert!(matches!(r, Ok(SessionEnd::Rejected { ref by, .. }) if by == "b"));
        assert!(out.ends_with("AGREE g1\n"));
    }

    #[test]
    fn disconnect_mid_game_is_interrupted() {
        let input = format!("LOGIN:me OK\n{}START:g1\n", summary('-', ""));
        let (r, _) = run(&input, 1);
        let SessionEnd::Played(rep) = r.unwrap() else {
            panic!()
        };
        assert_eq!(rep.result, ServerResult::Interrupted);
        assert_eq!(rep.reason, "DISCONNECTED");
        assert!(!rep.result.is_normal());
    }

    #[test]
    fn illegal_server_move_ends_the_game_cleanly() {
        let input = format!("LOGIN:me OK\n{}START:g1\n+7775FU,T0\n", summary('-', ""));
        let (r, out) = run(&input, 1);
        let SessionEnd::Played(rep) = r.unwrap() else {
            panic!()
        };
        assert_eq!(rep.reason, "ILLEGAL_SERVER_MOVE");
        assert_eq!(rep.result, ServerResult::Interrupted);
        assert_eq!(rep.ending(), Ending::Interrupt);
        assert!(!out.contains('%'), "never send %CHUDAN: {out}");
    }

    #[test]
    fn a_bad_summary_is_rejected() {
        let input = format!("LOGIN:me OK\n{}", summary('-', "+7775FU,T0\n"));
        let (r, out) = run(&input, 1);
        assert!(matches!(r, Err(SessionError::Summary(_))));
        assert!(out.ends_with("REJECT g1\n"), "{out}");
    }

    #[test]
    fn max_moves_then_censored() {
        let input = format!(
            "LOGIN:me OK\n{}START:g1\n+7776FU,T0\n#MAX_MOVES\n#CENSORED\n",
            summary('-', "")
        );
        let (r, _) = run(&input, 1);
        let SessionEnd::Played(rep) = r.unwrap() else {
            panic!()
        };
        assert_eq!(rep.result, ServerResult::Censored);
        assert_eq!(rep.reason, "MAX_MOVES");
        // The move limit, which the record writes `%MAX_MOVES`, the CSA format's word for it
        // (V3.0; `%HIKIWAKE`, which this wrote before, is a declared draw).
        assert_eq!(rep.ending(), Ending::MaxMoves);
    }
}
