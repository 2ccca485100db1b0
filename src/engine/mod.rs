//! The USI session: options, the current game, the random player and the pending `bestmove`.
//!
//! A `go` is answered before the next line is read; `go infinite` and `go ponder` choose their
//! move at once and hold it until `stop`, `gameover` or the end of input (a `go ponder` also
//! until `ponderhit`), so no thread is needed for them and exactly one `bestmove` follows each
//! `go`. Only the debug command `go perft N` can take long: with a waker installed
//! ([`Engine::with_perft_waker`], as the binary does) it counts on a thread of its own while
//! the session answers the next lines.

use crate::usi::{
    parse_line, shorten, Command, Go, OptionValue, PositionCommand, Start, UsiError, UsiOption,
};
use crate::{
    Choice, EnteringKingRule, Game, InvalidSfen, KingRule, Position, PositionError, RandomMover,
};
use log::{debug, info, warn};
use options::OptionId;
use std::io::{self, Write};
use std::path::Path;

/// What the caller does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// Exit now (`quit`), printing nothing more.
    Quit,
}

/// Switches the log output to a file (`Some`) or back to the default (`None`); called when the
/// `LogFile` option changes. The binary installs one; without it the option is only stored.
pub type LogSwitch = Box<dyn FnMut(Option<&Path>) -> io::Result<()> + Send>;

/// The author named in `id author`.
pub const AUTHOR: &str = "the Saikoro developers";

mod options;
mod perft;
pub use options::{Options, SEED_MAX};
pub use perft::PerftWaker;
use perft::{PerftJob, PerftReport};

/// The USI engine session. Feed it lines with [`Engine::handle_line`] (or parsed commands with
/// [`Engine::handle`]) and call [`Engine::finish`] at the end of input.
///
/// ```
/// use saikoro::engine::{Engine, Flow};
///
/// let mut engine = Engine::new();
/// let mut out = Vec::new();
/// for line in ["setoption name Seed value 42", "position startpos", "go byoyomi 1000"] {
///     assert_eq!(engine.handle_line(line, &mut out).unwrap(), Flow::Continue);
/// }
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.lines().last().unwrap().starts_with("bestmove "));
/// ```
pub struct Engine {
    options: Options,
    /// The last position set, and its history; also the cache that lets a resent game replay
    /// only its new moves.
    game: Game,
    /// False after a rejected `position`: `go` then resigns until the next valid one.
    position_ok: bool,
    /// `None` until the next `go` after start-up, `usinewgame` or a new `Seed`: it is then
    /// seeded from the option (or from entropy).
    player: Option<RandomMover>,
    /// The `bestmove` line held by `go infinite` / `go ponder`.
    pending: Option<String>,
    /// Whether the held line came from `go infinite`, which only `stop` (or `gameover`, or the
    /// end of input) ends: a `ponderhit` ends a `go ponder` only.
    pending_infinite: bool,
    log_switch: Option<LogSwitch>,
    /// The `go perft` being counted, if any.
    perft: Option<PerftJob>,
    /// Set: `go perft` counts in the background and calls it when done. Unset: `go perft`
    /// returns when the count is done.
    perft_waker: Option<PerftWaker>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// A session with default options at the start position.
    pub fn new() -> Engine {
        Engine {
            options: Options::default(),
            game: Game::new(Position::startpos()),
            position_ok: true,
            player: None,
            pending: None,
            pending_infinite: false,
            log_switch: None,
            perft: None,
            perft_waker: None,
        }
    }

    /// Installs the function that redirects the log when `LogFile` is set.
    pub fn with_log_switch(mut self, switch: LogSwitch) -> Engine {
        self.log_switch = Some(switch);
        self
    }

    /// Makes `go perft` count on a thread of its own, calling `waker` (on that thread) when the
    /// count ends; the caller then calls [`Engine::perft_done`]. Meanwhile the session answers
    /// every line: `stop`, `gameover`, a new `go` and [`Engine::finish`] end the count with
    /// the root moves counted so far (marked as a partial count), `quit` ends it silently.
    pub fn with_perft_waker(mut self, waker: PerftWaker) -> Engine {
        self.perft_waker = Some(waker);
        self
    }

    /// Prints the result of a `go perft` that has ended; does nothing while it still counts
    /// (or when none was started), so a late or repeated wake-up is harmless.
    pub fn perft_done(&mut self, out: &mut impl Write) -> io::Result<()> {
        match self.perft.take_if(|job| job.is_finished()) {
            Some(job) => self.print_perft(job.join("nothing"), out),
            None => Ok(()),
        }
    }

    /// Ends a running `go perft` and prints what it counted; `by` names the cause.
    fn stop_perft(&mut self, by: &'static str, out: &mut impl Write) -> io::Result<()> {
        match self.perft.take() {
            Some(job) => {
                job.stop();
                self.print_perft(job.join(by), out)
            }
            None => Ok(()),
        }
    }

    fn print_perft(&self, report: PerftReport, out: &mut impl Write) -> io::Result<()> {
        for line in report.lines() {
            send(out, &line)?;
        }
        Ok(())
    }

    /// The options `usi` declares, in the order it prints them.
    pub fn declared_options() -> impl Iterator<Item = &'static UsiOption> {
        options::declared()
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The game set by the last valid `position` (or the start position).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Whether a `go ponder` / `go infinite` is waiting for `stop` or `ponderhit`, or a
    /// `go perft` is counting.
    pub fn is_searching(&self) -> bool {
        self.pending.is_some() || self.perft.is_some()
    }

    /// Parses and handles one input line. Malformed lines get one `info string` line (and a
    /// log warning); blank lines get nothing.
    pub fn handle_line(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        debug!("< {}", log_text(line));
        match parse_line(line) {
            Ok(cmd) => self.handle(cmd, out),
            Err(UsiError::Empty) => Ok(Flow::Continue),
            Err(e) if e.rejects_position() => {
                self.position_ok = false;
                self.warn(out, &format!("{e}; resigning until a valid position"))?;
                Ok(Flow::Continue)
            }
            Err(e) => {
                self.warn(out, &e.to_string())?;
                Ok(Flow::Continue)
            }
        }
    }

    /// Handles one command. Errors are only those of writing to `out`.
    pub fn handle(&mut self, cmd: Command, out: &mut impl Write) -> io::Result<Flow> {
        match cmd {
            Command::Usi => self.usi(out)?,
            Command::IsReady => send(out, "readyok")?,
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref(), out)?,
            Command::UsiNewGame => {
                self.player = None;
                info!("new game");
            }
            Command::Position(p) => self.set_position(p, out)?,
            Command::Go(go) => self.go(go, out)?,
            Command::Stop => {
                self.stop_perft("stop", out)?;
                self.release(out)?;
            }
            Command::PonderHit if self.pending_infinite => {
                debug!("ponderhit during go infinite: still holding until stop");
            }
            Command::PonderHit => self.release(out)?,
            Command::GameOver(result) => {
                info!("game over: {result:?}");
                if result.is_none() {
                    self.warn(out, "gameover: expected win, lose or draw after it; the game is over all the same")?;
                }
                self.stop_perft("gameover", out)?;
                self.release(out)?;
            }
            Command::Quit => {
                info!("quit");
                if let Some(job) = self.perft.take() {
                    job.stop();
                }
                return Ok(Flow::Quit);
            }
            Command::Display => self.display(out)?,
            Command::Side => self.side(out)?,
            Command::Moves => self.moves(out)?,
            Command::Ignored(c) => debug!("ignored command {c}"),
        }
        Ok(Flow::Continue)
    }

    /// End of input: emits a pending `bestmove`, as `stop` would.
    pub fn finish(&mut self, out: &mut impl Write) -> io::Result<()> {
        info!("end of input");
        self.stop_perft("the end of input", out)?;
        self.release(out)
    }

    fn usi(&self, out: &mut impl Write) -> io::Result<()> {
        send(
            out,
            &format!("id name Saikoro {}", env!("CARGO_PKG_VERSION")),
        )?;
        send(out, &format!("id author {AUTHOR}"))?;
        for option in options::declared() {
            send(out, &option.to_string())?;
        }
        send(out, "usiok")
    }

    /// `setoption`: the value read by the option's declared type, then set in one match on
    /// which option it is; anything refused gets one `info string` warning.
    fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let v = value.unwrap_or("");
        let Some(entry) = options::find(name) else {
            return self.warn(out, &unknown_option(name));
        };
        let typed = match entry.option.parse_value(value) {
            Ok(typed) => typed,
            Err(e) => {
                let why = entry.expected(&e);
                let msg = format!("setoption {name}: bad value '{}' ({why})", shorten(v));
                return self.warn(out, &msg);
            }
        };
        let problem = match (entry.id, typed) {
            (OptionId::UsiPonder, OptionValue::Bool(on)) => {
                self.options.ponder = on;
                None
            }
            (OptionId::Seed, OptionValue::Int(seed)) => {
                // Within 0..=SEED_MAX: the declaration checked it.
                self.options.seed = seed as u64;
                self.player = None;
                None
            }
            (OptionId::EnteringKingRule, OptionValue::Text(rule)) => {
                // The combo's vars are the rules' names.
                self.options.entering_king_rule = rule
                    .parse::<EnteringKingRule>()
                    .unwrap_or_else(|e| unreachable!("EnteringKingRule var: {e}"));
                None
            }
            (OptionId::LogFile, OptionValue::Text(path)) => self.set_log_file(path, v),
            (OptionId::UsiHash, OptionValue::Int(_)) => None,
            (id, typed) => unreachable!("{id:?} declared with another type than {typed:?}"),
        };
        match problem {
            Some(msg) => self.warn(out, &msg),
            None => {
                info!("option {name} = {v}");
                Ok(())
            }
        }
    }

    /// `LogFile`: redirects the log to `path` (none when empty); `sent` is the value as sent.
    /// Returns the problem, if any.
    fn set_log_file(&mut self, path: String, sent: &str) -> Option<String> {
        if path.contains(char::REPLACEMENT_CHARACTER) {
            // Shift_JIS from Shogidokoro/ShogiGUI, decoded lossily: opening it would create a
            // file with a garbled name.
            return Some(format!(
                "setoption LogFile: path '{}' is not ASCII/UTF-8 (Shift_JIS?); use an ASCII path",
                shorten(sent)
            ));
        }
        let result = match self.log_switch.as_mut() {
            Some(switch) => switch((!path.is_empty()).then_some(Path::new(&path))),
            None => Ok(()),
        };
        match result {
            Ok(()) => {
                self.options.log_file = path;
                None
            }
            Err(e) => Some(format!(
                "setoption LogFile: cannot open '{}': {e}",
                shorten(sent)
            )),
        }
    }

    fn set_position(&mut self, p: PositionCommand, out: &mut impl Write) -> io::Result<()> {
        match self.try_set_position(p) {
            Ok(()) => {
                self.position_ok = true;
                Ok(())
            }
            Err(e) => {
                self.position_ok = false;
                self.warn(out, &format!("{e}; resigning until a valid position"))
            }
        }
    }

    /// Sets the game from `p`, replaying only what differs from the current game: the common
    /// prefix of the move lists is kept, moves past it are taken back, the new ones played.
    /// On an error the previous game is restored, so `d` shows the last valid position.
    fn try_set_position(&mut self, p: PositionCommand) -> Result<(), UsiError> {
        let start = match p.start {
            Start::Startpos => Position::startpos(),
            Start::Sfen(setup) => start_position(&setup)?,
        };
        if self.game.start() != &start {
            let mut game = Game::new(start);
            play_all(&mut game, &p.moves, 0)?;
            self.game = game;
            return Ok(());
        }
        let common = self
            .game
            .moves()
            .zip(&p.moves)
            .take_while(|(a, b)| a == *b)
            .count();
        let old_tail: Vec<_> = self.game.moves().skip(common).collect();
        while self.game.len() > common {
            self.game.undo();
        }
        if let Err(e) = play_all(&mut self.game, &p.moves, common) {
            while self.game.len() > common {
                self.game.undo();
            }
            for mv in old_tail {
                self.game.play(mv);
            }
            return Err(e);
        }
        Ok(())
    }

    fn go(&mut self, go: Go, out: &mut impl Write) -> io::Result<()> {
        for problem in &go.problems {
            self.warn(out, &format!("go: {problem}"))?;
        }
        // A new `go` ends a count still running (the protocol sends none before the answer).
        self.stop_perft("a new go", out)?;
        if let Some(depth) = go.perft {
            return self.perft(depth, out);
        }
        if go.mate.is_some() {
            return send(out, "checkmate notimplemented");
        }
        if self.pending.is_some() {
            // A `go` while one is pending breaks the protocol; still one bestmove per go.
            warn!("go while a search is pending: answering the pending one first");
            self.release(out)?;
        }
        let line = format!("bestmove {}", self.choose(out)?);
        if go.ponder || go.infinite {
            debug!("holding '{line}' until stop/ponderhit");
            self.pending = Some(line);
            self.pending_infinite = go.infinite && !go.ponder;
            Ok(())
        } else {
            send(out, &line)
        }
    }

    /// The move text for `bestmove`: `resign` without a valid position or legal move, `win`
    /// when the declaration holds, else a random legal move.
    fn choose(&mut self, out: &mut impl Write) -> io::Result<String> {
        if !self.position_ok {
            return Ok("resign".to_string());
        }
        let player = match self.player.take() {
            Some(p) => p,
            None => {
                let seed = match self.options.seed {
                    0 => RandomMover::entropy_seed() % SEED_MAX + 1,
                    s => s,
                };
                let from = if self.options.seed == 0 {
                    "from entropy"
                } else {
                    "from the Seed option"
                };
                info!("seed {seed} ({from})");
                send(out, &format!("info string seed {seed} ({from})"))?;
                RandomMover::new(seed)
            }
        };
        let player = self.player.insert(player);
        Ok(
            match player.choose(&mut self.game, self.options.entering_king_rule) {
                Choice::Move(m) => m.to_string(),
                Choice::Resign => "resign".to_string(),
                Choice::DeclareWin => "win".to_string(),
            },
        )
    }

    /// Emits the held `bestmove`, if any.
    fn release(&mut self, out: &mut impl Write) -> io::Result<()> {
        match self.pending.take() {
            Some(line) => send(out, &line),
            None => Ok(()),
        }
    }

    /// `go perft N`: counts in the background with a waker, else before returning.
    fn perft(&mut self, depth: u32, out: &mut impl Write) -> io::Result<()> {
        if !self.position_ok {
            return self.warn(out, "go perft: no valid position");
        }
        let pos = self.game.position().clone();
        let job = PerftJob::start(pos, depth, self.perft_waker.clone());
        if self.perft_waker.is_some() {
            self.perft = Some(job);
            Ok(())
        } else {
            self.print_perft(job.join("nothing"), out)
        }
    }

    fn display(&mut self, out: &mut impl Write) -> io::Result<()> {
        if !self.position_ok {
            send(
                out,
                "(the last position command was rejected: showing the last valid one; go answers bestmove resign)",
            )?;
        }
        let pos = self.game.position();
        for l in crate::record::diagram::diagram(pos).lines() {
            send(out, l)?;
        }
        send(out, &format!("SFEN: {}", pos.to_sfen()))?;
        send(
            out,
            &format!(
                "Side to move: {}",
                match pos.side_to_move() {
                    crate::Color::Black => "black (sente)",
                    crate::Color::White => "white (gote)",
                }
            ),
        )?;
        send(out, &format!("Legal moves: {}", pos.count_legal()))?;
        send(
            out,
            &format!("In check: {}", if pos.in_check() { "yes" } else { "no" }),
        )?;
        send(out, &format!("Moves played: {}", self.game.len()))?;
        send(out, &format!("Repetition: {:?}", self.game.repetition()))
    }

    /// `side`: `black` or `white`, exactly as YaneuraOu prints it (Ayane reads this one line),
    /// for the position `d` shows.
    fn side(&self, out: &mut impl Write) -> io::Result<()> {
        match self.game.position().side_to_move() {
            crate::Color::Black => send(out, "black"),
            crate::Color::White => send(out, "white"),
        }
    }

    /// `moves`: every legal move in canonical order on one line, single spaces (YaneuraOu adds
    /// a trailing space; Ayane strips it). Always exactly one line, since Ayane takes the next
    /// line as the answer: an empty one when there is no legal move, and after a rejected
    /// `position` (`go` then resigns; no move is offered from a position the engine lacks).
    fn moves(&self, out: &mut impl Write) -> io::Result<()> {
        if !self.position_ok {
            return send(out, "");
        }
        let moves = self.game.position().legal_moves();
        let text: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        send(out, &text.join(" "))
    }

    /// One `info string` line and a log warning.
    fn warn(&self, out: &mut impl Write, msg: &str) -> io::Result<()> {
        warn!("{msg}");
        send(out, &format!("info string {}", ascii_line(msg)))
    }
}

/// The warning for `setoption` of an unknown `name`, saying what was expected: the command's
/// shape when the name starts with a known option (`setoption Seed 5`, `setoption name Seed
/// 5`), else the options there are.
fn unknown_option(name: &str) -> String {
    let known = name
        .split_once(' ')
        .and_then(|(first, _)| options::find(first));
    let expected = match known {
        Some(entry) => format!(
            "expected 'setoption name {} value <value>'",
            entry.option.name
        ),
        None => {
            let names: Vec<&str> = options::declared().map(|o| o.name.as_str()).collect();
            format!("the options are {}", names.join(", "))
        }
    };
    format!(
        "setoption: unknown option '{}' ignored ({expected})",
        shorten(name)
    )
}

/// Plays `moves[skip..]` on `game`; the error names the first illegal move and its 1-based
/// index in the whole list.
fn play_all(game: &mut Game, moves: &[crate::Move], skip: usize) -> Result<(), UsiError> {
    for (i, &mv) in moves.iter().enumerate().skip(skip) {
        game.try_play(mv).map_err(|reason| UsiError::IllegalMove {
            index: i + 1,
            text: mv.to_string(),
            reason,
        })?;
    }
    Ok(())
}

/// The start position of an SFEN setup. A position with a missing king is accepted (mate
/// problems sent for `go mate` or analysis lack the attacker's king); every other rule is strict.
fn start_position(setup: &crate::Setup) -> Result<Position, UsiError> {
    match Position::from_setup(setup, KingRule::Required) {
        Ok(p) => Ok(p),
        Err(PositionError::KingCount { count: 0, .. }) => {
            let p = Position::from_setup(setup, KingRule::Optional).map_err(UsiError::Position)?;
            info!("position without a king accepted: {}", p.to_sfen());
            Ok(p)
        }
        Err(e) => Err(UsiError::Position(e)),
    }
}

impl From<InvalidSfen> for UsiError {
    fn from(e: InvalidSfen) -> Self {
        match e {
            InvalidSfen::Syntax(e) => UsiError::Sfen(e),
            InvalidSfen::Position(e) => UsiError::Position(e),
        }
    }
}

/// Writes one line and flushes it.
fn send(out: &mut impl Write, line: &str) -> io::Result<()> {
    debug!("> {line}");
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// `s` as one line of printable ASCII with single spaces: other characters become `?`.
fn ascii_line(s: &str) -> String {
    let mut t = String::with_capacity(s.len());
    for c in s.chars() {
        let c = match c {
            ' '..='~' => c,
            c if c.is_whitespace() => ' ',
            _ => '?',
        };
        if !(c == ' ' && (t.is_empty() || t.ends_with(' '))) {
            t.push(c);
        }
    }
    t.trim_end().to_string()
}

/// An input line for the log: long `position` lines are cut.
fn log_text(line: &str) -> String {
    const MAX: usize = 300;
    if line.len() <= MAX {
        line.to_string()
    } else {
        let mut cut = MAX;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}... ({} bytes)", &line[..cut], line.len())
    }
}

#[cfg(test)]
mod tests;
