//! The USI session: options, the current game, the random player and the pending `bestmove`.
//!
//! Every command is acted on in the order it comes, on the caller's thread. A `go` is answered
//! before the next line is read; `go infinite` and `go ponder` choose their move at once and
//! hold it until `stop`, `gameover` or the end of input (a `go ponder` also until
//! `ponderhit`), so no thread is needed for them and exactly one `bestmove` follows each `go`.
//! Only the debug commands `go perft N` and `bench` take long: they too run to the end before
//! the next line is acted on, and with an [`Alongside`] installed ([`Engine::with_alongside`],
//! as the binary does) `stop` ends them and `isready` is answered while they count.

#![warn(missing_docs)]

use log::{debug, info, warn};
use options::OptionId;
use saikoro_core::{
    Choice, EnteringKingRule, Game, KingRule, Move, Position, PositionError, RandomMover,
};
use saikoro_usi::{
    parse_line, parse_tail, shorten, Command, Go, LastPosition, OptionValue, OptionValueError,
    PositionCommand, Start, UsiError, UsiOption,
};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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

mod bench;
mod options;
mod perft;
mod searchmoves;
pub use bench::{run_bench, BenchReport};
pub use options::{Options, SEED_MAX};
pub use perft::Alongside;

/// The USI engine session. Feed it lines with [`Engine::handle_line`] (or parsed commands with
/// [`Engine::handle`]) and call [`Engine::finish`] at the end of input.
///
/// ```
/// use saikoro_engine::{Engine, Flow};
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
    /// The `position` line that set `game` (when its moves part has begun): a line that
    /// extends it is read by its new moves only.
    last_position: LastPosition,
    /// False after a rejected `position`: `go` then resigns until the next valid one.
    position_ok: bool,
    /// `None` until the first `go` after start-up or a new `Seed` (with `Seed` 0, also after
    /// `usinewgame`): it is then seeded from the option (or from entropy). With a fixed `Seed`
    /// one stream serves the whole session, so each game differs and the n-th game after the
    /// seed is set is always the same.
    player: Option<RandomMover>,
    /// The seed of the player and the game of the session being played under it (1 for the
    /// first); `game_started` is false after `usinewgame` until the next `go` announces it.
    seed_used: u64,
    game_number: u64,
    game_started: bool,
    /// The `bestmove` line held by `go infinite` / `go ponder`.
    pending: Option<String>,
    /// Whether the held line came from `go infinite`, which only `stop` (or `gameover`, or the
    /// end of input) ends: a `ponderhit` ends a `go ponder` only.
    pending_infinite: bool,
    log_switch: Option<LogSwitch>,
    /// Serves `stop` and `isready` while `go perft` or `bench` counts; unset, nothing can
    /// interrupt a count.
    alongside: Option<Box<dyn Alongside>>,
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
            last_position: LastPosition::default(),
            position_ok: true,
            player: None,
            pending: None,
            pending_infinite: false,
            log_switch: None,
            alongside: None,
            seed_used: 0,
            game_number: 0,
            game_started: false,
        }
    }

    /// Installs the function that redirects the log when `LogFile` is set.
    pub fn with_log_switch(mut self, switch: LogSwitch) -> Engine {
        self.log_switch = Some(switch);
        self
    }

    /// Installs what serves `stop` and `isready` while `go perft` or `bench` counts (the
    /// binary reads its input on another thread for that time; see [`Alongside`]).
    pub fn with_alongside(mut self, alongside: Box<dyn Alongside>) -> Engine {
        self.alongside = Some(alongside);
        self
    }

    /// Runs `work` with a stop flag that the [`Alongside`] (if any) sets on `stop`.
    fn counting<T>(&mut self, work: impl FnOnce(&AtomicBool) -> T) -> T {
        let stop = Arc::new(AtomicBool::new(false));
        if let Some(a) = self.alongside.as_mut() {
            a.begin(Arc::clone(&stop));
        }
        let result = work(&stop);
        if let Some(a) = self.alongside.as_mut() {
            a.end();
        }
        result
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

    /// Whether a `go ponder` / `go infinite` is waiting for `stop` or `ponderhit`.
    pub fn is_searching(&self) -> bool {
        self.pending.is_some()
    }

    /// Parses and handles one input line. Malformed lines get one `info string` line (and a
    /// log warning); blank lines get nothing. A `position` line that extends the one that set
    /// the game (see [`LastPosition`]) is read by its new moves only.
    pub fn handle_line(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        debug!("< {}", log_text(line));
        if let Some(tail) = self.last_position.tail(line) {
            self.extend_position(tail, out)?;
            return Ok(Flow::Continue);
        }
        match parse_line(line) {
            Ok(Command::Position(p)) => {
                let mut remember = LastPosition::default();
                remember.remember(line, &p);
                self.set_position(p, out)?;
                if self.position_ok {
                    self.last_position = remember;
                }
                Ok(Flow::Continue)
            }
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
            Command::UsiNewGame => self.new_game(),
            Command::Position(p) => self.set_position(p, out)?,
            Command::Go(go) => self.go(go, out)?,
            Command::Stop => self.release(out)?,
            Command::PonderHit if self.pending_infinite => {
                debug!("ponderhit during go infinite: still holding until stop");
            }
            Command::PonderHit => self.release(out)?,
            Command::GameOver(result) => {
                match result {
                    Some(r) => info!("game over: {}", saikoro_usi::gameover_word(r)),
                    None => info!("game over, no result given"),
                }
                if result.is_none() {
                    self.warn(out, "gameover: expected win, lose or draw after it; the game is over all the same")?;
                }
                self.release(out)?;
            }
            Command::Quit => {
                info!("quit");
                return Ok(Flow::Quit);
            }
            Command::Display => self.display(out)?,
            Command::Side => self.side(out)?,
            Command::Moves => self.moves(out)?,
            Command::Bench { ignored } => self.bench(&ignored, out)?,
            Command::Ignored(c) => debug!("ignored command {c}"),
        }
        Ok(Flow::Continue)
    }

    /// End of input: emits a pending `bestmove`, as `stop` would.
    pub fn finish(&mut self, out: &mut impl Write) -> io::Result<()> {
        info!("end of input");
        self.release(out)
    }

    /// `usinewgame`: with `Seed` 0 the next game draws a fresh seed; with a fixed one the
    /// session's stream goes on, and the next `go` names the game.
    fn new_game(&mut self) {
        info!("new game");
        if self.options.seed == 0 {
            self.player = None;
        } else if self.player.is_some() && self.game_started {
            self.game_number += 1;
            self.game_started = false;
        }
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
    /// which option it is; anything refused gets one `info string` warning. A fraction for a
    /// spin within its limits, as SPSA tuners send, is read as the nearest integer (OpenBench
    /// asks engines to round, not truncate), with an `info string` that says so.
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
            Err(OptionValueError::Fractional { rounded }) => {
                let msg = format!("setoption {name}: {} rounded to {rounded}", shorten(v));
                info!("{msg}");
                send(out, &format!("info string {}", ascii_line(&msg)))?;
                OptionValue::Int(rounded)
            }
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
            // Within 0..=SEED_MAX: the declaration checked it. The value it already has
            // changes nothing: GUIs (Shogidokoro) send every option before each game, and a
            // restarted stream would replay game 1 every time.
            (OptionId::Seed, OptionValue::Int(seed)) if seed as u64 == self.options.seed => None,
            (OptionId::Seed, OptionValue::Int(seed)) => {
                self.options.seed = seed as u64;
                self.player = None;
                self.game_number = 0;
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
        let result = self.try_set_position(p);
        if result.is_ok() {
            // Set by `handle_line` when it has the line's text.
            self.last_position.forget();
        }
        self.position_set(result, out)
    }

    /// A `position` line that extends the one that set the game: only its new moves (`tail`)
    /// are read and played, which leaves the same game (history included) as reading the
    /// whole line, and the same error, with the same move number, for a bad move. On an error
    /// the game is as before.
    fn extend_position(&mut self, tail: &str, out: &mut impl Write) -> io::Result<()> {
        let before = self.game.len();
        let result = parse_tail(tail, before).and_then(|moves| {
            play_all(&mut self.game, &moves, before).inspect_err(|_| {
                while self.game.len() > before {
                    self.game.undo();
                }
            })
        });
        if result.is_ok() {
            self.last_position.extend(tail);
        }
        self.position_set(result, out)
    }

    /// The outcome of a `position`: `go` plays from now on, or resigns with a warning.
    fn position_set(
        &mut self,
        result: Result<(), UsiError>,
        out: &mut impl Write,
    ) -> io::Result<()> {
        match result {
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
        if let Err(e) = play_all(&mut self.game, &p.moves[common..], common) {
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
        let line = format!("bestmove {}", self.choose(&go.searchmoves, out)?);
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
    /// when the declaration holds, else a random legal move: one of the legal `searchmoves`
    /// when the `go` listed any.
    fn choose(&mut self, searchmoves: &[Move], out: &mut impl Write) -> io::Result<String> {
        if !self.position_ok {
            return Ok("resign".to_string());
        }
        let listed = match searchmoves {
            [] => Vec::new(),
            _ => {
                let (legal, problems) = searchmoves::legal_among(self.game.position(), searchmoves);
                for p in problems {
                    self.warn(out, &format!("go: {p}"))?;
                }
                legal
            }
        };
        self.start_player(out)?;
        let Some(player) = self.player.as_mut() else {
            unreachable!("start_player sets the player")
        };
        let rule = self.options.entering_king_rule;
        let choice = match listed.as_slice() {
            [] => player.choose(&mut self.game, rule),
            _ if self.game.can_declare_win(rule) => Choice::DeclareWin,
            _ => Choice::Move(searchmoves::pick(player, &mut self.game, listed)),
        };
        Ok(match choice {
            Choice::Move(m) => m.to_string(),
            Choice::Resign => "resign".to_string(),
            Choice::DeclareWin => "win".to_string(),
        })
    }

    /// Seeds the player at the first `go` (from the option, or from entropy) and says so; at
    /// the first `go` of a later game under a fixed `Seed`, names the game of the session.
    fn start_player(&mut self, out: &mut impl Write) -> io::Result<()> {
        let from = match self.options.seed {
            0 => "from entropy",
            _ => "from the Seed option",
        };
        if self.player.is_none() {
            let seed = match self.options.seed {
                0 => RandomMover::entropy_seed() % SEED_MAX + 1,
                s => s,
            };
            info!("seed {seed} ({from})");
            send(out, &format!("info string seed {seed} ({from})"))?;
            self.player = Some(RandomMover::new(seed));
            self.seed_used = seed;
            self.game_number = 1;
        } else if !self.game_started {
            let (seed, n) = (self.seed_used, self.game_number);
            info!("game {n} of the session under seed {seed}");
            send(
                out,
                &format!("info string seed {seed} ({from}), game {n} since it was set"),
            )?;
        }
        self.game_started = true;
        Ok(())
    }

    /// Emits the held `bestmove`, if any.
    fn release(&mut self, out: &mut impl Write) -> io::Result<()> {
        match self.pending.take() {
            Some(line) => send(out, &line),
            None => Ok(()),
        }
    }

    /// `go perft N`: counts to the end (or to `stop`), then prints the divide and the total.
    fn perft(&mut self, depth: u32, out: &mut impl Write) -> io::Result<()> {
        if !self.position_ok {
            return self.warn(out, "go perft: no valid position");
        }
        let pos = self.game.position().clone();
        let report = self.counting(|stop| perft::count(pos, depth, stop));
        // In one write: a line and a flush per root move cost 593 writes at the 593-move
        // position, a tenth of its perft 3.
        let mut text = String::new();
        for line in report.lines() {
            debug!("> {line}");
            text.push_str(&line);
            text.push('\n');
        }
        out.write_all(text.as_bytes())?;
        out.flush()
    }

    /// `bench`: the fixed workload of [`run_bench`], its lines as it goes.
    fn bench(&mut self, ignored: &str, out: &mut impl Write) -> io::Result<()> {
        if !ignored.is_empty() {
            let msg = format!(
                "bench: '{}' ignored: the workload is fixed",
                shorten(ignored)
            );
            self.warn(out, &msg)?;
        }
        self.counting(|stop| run_bench(stop, out)).map(|_| ())
    }

    fn display(&mut self, out: &mut impl Write) -> io::Result<()> {
        if !self.position_ok {
            send(
                out,
                "(the last position command was rejected: showing the last valid one; go answers bestmove resign)",
            )?;
        }
        let pos = self.game.position();
        for l in saikoro_core::diagram(pos).lines() {
            send(out, l)?;
        }
        send(out, &format!("SFEN: {}", pos.to_sfen()))?;
        send(
            out,
            &format!(
                "Side to move: {}",
                match pos.side_to_move() {
                    saikoro_core::Color::Black => "black (sente)",
                    saikoro_core::Color::White => "white (gote)",
                }
            ),
        )?;
        send(out, &format!("Legal moves: {}", pos.count_legal()))?;
        send(
            out,
            &format!("In check: {}", if pos.in_check() { "yes" } else { "no" }),
        )?;
        send(out, &format!("Moves played: {}", self.game.len()))?;
        send(
            out,
            &format!("Repetition: {}", repetition_text(self.game.repetition())),
        )
    }

    /// `side`: `black` or `white`, exactly as YaneuraOu prints it (Ayane reads this one line),
    /// for the position `d` shows.
    fn side(&self, out: &mut impl Write) -> io::Result<()> {
        match self.game.position().side_to_move() {
            saikoro_core::Color::Black => send(out, "black"),
            saikoro_core::Color::White => send(out, "white"),
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

/// Plays `moves`, which follow `before` moves of the line, on `game`; the error names the first
/// illegal move and its 1-based index in the whole list.
fn play_all(game: &mut Game, moves: &[saikoro_core::Move], before: usize) -> Result<(), UsiError> {
    for (i, &mv) in moves.iter().enumerate() {
        game.try_play(mv).map_err(|reason| UsiError::IllegalMove {
            index: before + i + 1,
            text: mv.to_string(),
            reason,
        })?;
    }
    Ok(())
}

/// The game's repetition as `d` says it: `none`, `draw (千日手: the fourth occurrence)`, or the
/// side that loses by perpetual check.
fn repetition_text(r: saikoro_core::Repetition) -> &'static str {
    use saikoro_core::{Color, Repetition};
    match r {
        Repetition::None => "none",
        Repetition::Draw => "draw (千日手: the fourth occurrence)",
        Repetition::PerpetualCheck {
            loser: Color::Black,
        } => "black loses by perpetual check (連続王手の千日手)",
        Repetition::PerpetualCheck {
            loser: Color::White,
        } => "white loses by perpetual check (連続王手の千日手)",
    }
}

/// The start position of an SFEN setup. A position with a missing king is accepted (mate
/// problems sent for `go mate` or analysis lack the attacker's king); every other rule is strict.
fn start_position(setup: &saikoro_core::Setup) -> Result<Position, UsiError> {
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

/// Writes one line (in one write, so that a line another thread writes to the same output
/// never lands inside it) and flushes it.
fn send(out: &mut (impl Write + ?Sized), line: &str) -> io::Result<()> {
    debug!("> {line}");
    let mut text = String::with_capacity(line.len() + 1);
    text.push_str(line);
    text.push('\n');
    out.write_all(text.as_bytes())?;
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
