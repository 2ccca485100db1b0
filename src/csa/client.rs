//! The CSA client's state machine for one connection: `LOGIN`, waiting for a match with
//! keep-alives, the Game_Summary, `AGREE`, `START`/`REJECT`, the moves and their echoes, and the
//! end-of-game lines. It works over any `BufRead` + `Write`, so it is tested without sockets.
//!
//! Reads that time out (`WouldBlock`/`TimedOut`, from a socket read timeout) are the clock tick:
//! keep-alives are sent then, and deadlines checked.

use super::clock::Clock;
use super::notation::{move_to_csa, parse_move, split_move_line};
use super::summary::{GameSummary, SummaryError};
use crate::{Choice, Color, EnteringKingRule, Game, Move, Outcome, Position, RandomMover};
use log::{debug, error, info, warn};
use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// Settings of a client session.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// Login name.
    pub user: String,
    /// Password, sent as is (Floodgate: `floodgate-300-10F,TRIP`); masked in the log.
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

/// What ended a session without a game result.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClientError {
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

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Io(e) => write!(f, "connection error: {e}"),
            ClientError::LoginIncorrect => {
                f.write_str("LOGIN:incorrect (bad name or password, or the name is in use)")
            }
            ClientError::Disconnected(when) => write!(f, "server closed the connection {when}"),
            ClientError::Timeout(what) => write!(f, "no answer from the server {what}"),
            ClientError::Summary(e) => write!(f, "unusable Game_Summary: {e}"),
            ClientError::Player(e) => write!(f, "player failed: {e}"),
        }
    }
}

impl std::error::Error for ClientError {}

impl From<io::Error> for ClientError {
    fn from(e: io::Error) -> Self {
        ClientError::Io(e)
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
    fn game_over(&mut self, _result: GameResult) {}
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

/// The result of a game from our side: the server's second `#` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
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

impl GameResult {
    fn from_word(w: &str) -> Option<GameResult> {
        Some(match w {
            "WIN" => GameResult::Win,
            "LOSE" => GameResult::Lose,
            "DRAW" => GameResult::Draw,
            "CENSORED" => GameResult::Censored,
            "CHUDAN" => GameResult::Chudan,
            _ => return None,
        })
    }

    /// The lower-case word: `win`, `lose`, `draw`, `censored`, `chudan`, `interrupted`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Lose => "lose",
            GameResult::Draw => "draw",
            GameResult::Censored => "censored",
            GameResult::Chudan => "chudan",
            GameResult::Interrupted => "interrupted",
        }
    }

    /// Whether the server ended the game (a `#` result), rather than a disconnect or an
    /// illegal server move.
    pub fn is_normal(self) -> bool {
        self != GameResult::Interrupted
    }
}

impl fmt::Display for GameResult {
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
    pub result: GameResult,
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
    /// The record's end line: `%TORYO`, `%TIME_UP`, `%ILLEGAL_MOVE`, `%SENNICHITE`, `%KACHI`,
    /// `%JISHOGI`, `%HIKIWAKE` (move limit, V2.2 has no `%MAX_MOVES`) or `%CHUDAN`.
    pub fn end_line(&self) -> String {
        match self.reason.as_str() {
            "RESIGN" => "%TORYO".into(),
            "TIME_UP" => "%TIME_UP".into(),
            "ILLEGAL_MOVE" => "%ILLEGAL_MOVE".into(),
            "SENNICHITE" | "OUTE_SENNICHITE" => "%SENNICHITE".into(),
            "JISHOGI" if self.specials.iter().any(|s| s == "%KACHI") => "%KACHI".into(),
            "JISHOGI" => "%JISHOGI".into(),
            "MAX_MOVES" => "%HIKIWAKE".into(),
            _ => "%CHUDAN".into(),
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
    password: String,
}

impl<W: Write> Wire<W> {
    fn send(&mut self, line: &str) -> io::Result<()> {
        if self.password.is_empty() {
            debug!("> {line}");
        } else {
            debug!("> {}", line.replace(&self.password, "********"));
        }
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

/// Plays one session on a connection: login, one game (or a rejection), and returns. The
/// caller closes the connection afterwards (shogi-server finishes a CSA-mode player after each
/// game; `LOGOUT:completed` never comes).
pub fn run_session<R: BufRead, W: Write>(
    reader: R,
    writer: W,
    cfg: &ClientConfig,
    player: &mut dyn Player,
) -> Result<SessionEnd, ClientError> {
    let mut s = Session {
        lines: Lines {
            r: reader,
            buf: Vec::new(),
        },
        wire: Wire {
            w: writer,
            last_sent: Instant::now(),
            keepalive: cfg.keepalive,
            password: cfg.password.clone(),
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
    /// The next non-empty line; `Timeout` at `until`, `Stopped` when `stoppable` and the stop
    /// flag is set. End of input is an `UnexpectedEof` error.
    fn recv(&mut self, until: Option<Instant>, stoppable: bool) -> io::Result<Wait> {
        loop {
            if stoppable && self.cfg.stop.load(Ordering::SeqCst) {
                return Ok(Wait::Stopped);
            }
            match self.lines.next()? {
                Got::Line(l) => {
                    debug!("< {l}");
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
    ) -> Result<Wait, ClientError> {
        match self.recv(until, stoppable) {
            Ok(w) => Ok(w),
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                Err(ClientError::Disconnected(when))
            }
            Err(e) => Err(ClientError::Io(e)),
        }
    }

    fn run(&mut self, player: &mut dyn Player) -> Result<SessionEnd, ClientError> {
        let login = format!("LOGIN {} {}", self.cfg.user, self.cfg.password);
        self.wire.send(&login)?;
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            match self.recv_pregame(Some(until), false, "after LOGIN")? {
                Wait::Line(l) if l == "LOGIN:incorrect" => return Err(ClientError::LoginIncorrect),
                Wait::Line(l) if l.starts_with("LOGIN:") && l.ends_with(" OK") => break,
                Wait::Line(l) => info!("ignored before login: {l}"),
                Wait::Timeout => return Err(ClientError::Timeout("to LOGIN")),
                Wait::Stopped => unreachable!("not stoppable"),
            }
        }
        info!("logged in as {}; waiting for a game", self.cfg.user);
        loop {
            match self.recv_pregame(None, true, "while waiting for a game")? {
                Wait::Line(l) if l == "BEGIN Game_Summary" => break,
                Wait::Line(l) => info!("ignored while waiting: {l}"),
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
                return Err(ClientError::Summary(e));
            }
        };
        self.play(summary, player)
    }

    fn play(
        &mut self,
        summary: GameSummary,
        player: &mut dyn Player,
    ) -> Result<SessionEnd, ClientError> {
        let id = summary.game_id.clone();
        for k in &summary.unknown {
            info!("Game_Summary: ignored '{k}'");
        }
        let (mut game, mut moves) = match summary.game() {
            Ok(g) => g,
            Err(e) => {
                error!("cannot play game {id}: {e}; rejecting");
                self.wire.send(&format!("REJECT {id}"))?;
                return Err(ClientError::Summary(e));
            }
        };
        let us = summary.us;
        let rule = self
            .cfg
            .rule
            .unwrap_or(match summary.declaration.as_deref() {
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
            game_id: id.clone(),
            margin: self.cfg.margin,
        };
        info!(
            "game {id}: {} (+) vs {} (-), we are {}, {} moves already played, rule {rule}",
            summary.names[Color::Black],
            summary.names[Color::White],
            super::notation::sign(us),
            moves.len()
        );
        if let Err(e) = player.new_game(&ctx, &game) {
            error!("player not ready: {e}; rejecting");
            self.wire.send(&format!("REJECT {id}"))?;
            return Err(ClientError::Player(e));
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
                Wait::Line(l) => info!("ignored before START: {l}"),
                _ => {}
            }
        }
        let started = SystemTime::now();
        let mut report = GameReport {
            start: game.start().clone(),
            summary,
            result: GameResult::Interrupted,
            reason: String::new(),
            moves: Vec::new(),
            specials: Vec::new(),
            started,
            ended: started,
            player_error: None,
        };
        let max_moves = report.summary.max_moves.filter(|&m| m > 0);
        let mut awaiting: Option<String> = None;
        let mut reason: Option<String> = None;
        let mut turn_start = Instant::now();
        let mut grace_until: Option<Instant> = None;
        let end = loop {
            let our_turn =
                awaiting.is_none() && reason.is_none() && game.position().side_to_move() == us;
            let mut until = None;
            if our_turn {
                let over = matches!(
                    game.outcome(),
                    Some(Outcome::Repetition | Outcome::PerpetualCheck { .. })
                ) || max_moves.is_some_and(|m| game.len() as u32 >= m);
                let waiting = over && grace_until.is_none_or(|g| Instant::now() < g);
                if waiting {
                    let g = *grace_until.get_or_insert_with(|| Instant::now() + self.cfg.grace);
                    until = Some(g);
                } else {
                    if over {
                        warn!("the game should be over by our count, but the server says nothing: playing on");
                    }
                    let deadline = clock
                        .think_time(us, self.cfg.margin)
                        .map(|t| turn_start + t);
                    let choice = if !game.position().has_legal_move() {
                        Choice::Resign
                    } else {
                        let wire = &mut self.wire;
                        let mut tick = || {
                            if let Err(e) = wire.tick() {
                                warn!("keep-alive failed: {e}");
                            }
                        };
                        match player.choose(&ctx, &mut game, &clock, deadline, &mut tick) {
                            Ok(c) => c,
                            Err(e) => {
                                error!("player failed: {e}; resigning");
                                report.player_error = Some(e);
                                Choice::Resign
                            }
                        }
                    };
                    let text = match choice {
                        Choice::Move(mv) => match game.position().is_legal(mv) {
                            Ok(()) => move_to_csa(game.position(), mv),
                            Err(e) => {
                                error!("player chose illegal move {mv} ({e}); resigning");
                                "%TORYO".to_string()
                            }
                        },
                        Choice::Resign => "%TORYO".to_string(),
                        Choice::DeclareWin => "%KACHI".to_string(),
                    };
                    // A failed send is not the end yet: the server may have ended the game
                    // while we were moving (its lines are still to be read), or it is gone,
                    // which the next read tells.
                    if let Err(e) = self.wire.send(&text) {
                        warn!("sending {text} failed: {e}");
                    }
                    awaiting = Some(text);
                    continue;
                }
            }
            let line = match self.recv(until, false) {
                Ok(Wait::Line(l)) => l,
                Ok(_) => continue,
                Err(e) => {
                    if let Some(r) = reason.take() {
                        warn!("connection closed after #{r} without a result line");
                        if r == "CHUDAN" {
                            report.result = GameResult::Chudan;
                        }
                        break r;
                    }
                    error!("connection lost during game {id}: {e}");
                    break "DISCONNECTED".to_string();
                }
            };
            if let Some(word) = line.strip_prefix('#') {
                let word = word.trim();
                match (&reason, GameResult::from_word(word)) {
                    (Some(r), res) => {
                        report.result = res.unwrap_or_else(|| {
                            warn!("unknown result line #{word}");
                            GameResult::Interrupted
                        });
                        break r.clone();
                    }
                    (None, Some(res @ (GameResult::Win | GameResult::Lose | GameResult::Draw))) => {
                        report.result = res;
                        break "UNKNOWN".to_string();
                    }
                    (None, _) => reason = Some(word.to_string()),
                }
                continue;
            }
            if line.starts_with('%') {
                let special = line.split(',').next().unwrap_or("").to_string();
                if report.specials.last() != Some(&special) {
                    report.specials.push(special);
                }
                continue;
            }
            if let Some((text, t)) = split_move_line(&line) {
                let mover = game.position().side_to_move();
                match parse_move(game.position(), text) {
                    Ok(mv) => {
                        game.play(mv);
                        moves.push((mv, t));
                        clock.charge(mover, t.unwrap_or(0));
                        grace_until = None;
                        if mover == us {
                            if awaiting.as_deref() != Some(text) {
                                warn!("echo {text} differs from our move {awaiting:?}");
                            }
                            awaiting = None;
                        } else {
                            turn_start = Instant::now();
                        }
                    }
                    Err(e) => {
                        error!(
                            "ILLEGAL MOVE FROM THE SERVER in game {id} at ply {}: {line}: {e}; \
                             ending the game (position {})",
                            game.len() + 1,
                            game.position().to_sfen()
                        );
                        break "ILLEGAL_SERVER_MOVE".to_string();
                    }
                }
                continue;
            }
            info!("ignored in game: {line}");
        };
        report.reason = end;
        report.moves = moves;
        report.ended = SystemTime::now();
        player.game_over(report.result);
        info!("{}", report.summary_line());
        Ok(SessionEnd::Played(Box::new(report)))
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

    fn run(input: &str, seed: u64) -> (Result<SessionEnd, ClientError>, String) {
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
        assert_eq!(out, format!("LOGIN me pw,trip\nAGREE g1\n{ours}\n"));
        let SessionEnd::Played(rep) = r.unwrap() else {
            panic!()
        };
        assert_eq!(rep.result, GameResult::Win);
        assert_eq!(rep.reason, "RESIGN");
        assert_eq!(rep.moves.len(), 2);
        assert_eq!(rep.moves[0].1, Some(3));
        assert_eq!(rep.specials, vec!["%TORYO".to_string()]);
        assert_eq!(rep.end_line(), "%TORYO");
        assert_eq!(rep.summary_line(), "game g1: win RESIGN 2 plies");
    }

    #[test]
    fn login_incorrect_and_reject() {
        let (r, _) = run("LOGIN:incorrect\n", 1);
        assert!(matches!(r, Err(ClientError::LoginIncorrect)));
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
        assert_eq!(rep.result, GameResult::Interrupted);
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
        assert_eq!(rep.result, GameResult::Interrupted);
        assert_eq!(rep.end_line(), "%CHUDAN");
        assert!(!out.contains('%'), "never send %CHUDAN: {out}");
    }

    #[test]
    fn a_bad_summary_is_rejected() {
        let input = format!("LOGIN:me OK\n{}", summary('-', "+7775FU,T0\n"));
        let (r, out) = run(&input, 1);
        assert!(matches!(r, Err(ClientError::Summary(_))));
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
        assert_eq!(rep.result, GameResult::Censored);
        assert_eq!(rep.reason, "MAX_MOVES");
        assert_eq!(rep.end_line(), "%HIKIWAKE");
    }
}
