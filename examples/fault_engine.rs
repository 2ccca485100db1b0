//! A USI engine with faults on command, for testing the tools that drive engines (`saikoro
//! match`, `saikoro check`, `saikoro csa --engine`).
//!
//! Without flags it is Saikoro's own engine: the same session, the same seeded random legal
//! moves. Each `--fault` flag breaks one thing, the way engines in the wild break:
//!
//! ```text
//! cargo run --example fault_engine -- [--fault NAME[=VALUE][@PLY]]... [--seed N] [--pid-file PATH]
//! ```
//!
//! `--pid-file PATH` appends the engine's process id to PATH, one line per start: tests use it
//! to see which engine processes are still alive after a tool has ended.
//!
//! A fault with `@PLY` fires on the first `go` whose position has at least PLY moves since its
//! start (default 0: the first `go`), once per game unless noted; with `@sfen=SFEN` only on a
//! `go` in that position (board, hands and side to move; the move number is ignored). Faults of
//! moves:
//!
//! | fault | what the engine does |
//! |---|---|
//! | `illegal=KIND` | plays an illegal move of that kind, the first time one exists: `into-check`, `uchifuzume` (a mating pawn drop), `nifu`, `no-promotion` (a pawn/lance/knight left without a move), `bad-promotion` (a `+` where no promotion is possible), `not-in-hand`, `occupied` (a drop on an occupied square), `dead-drop` (a drop where the piece could never move), `wrong-side` (moves an opponent's piece), `no-piece` (from an empty square), `unreachable` (a piece to a square it cannot reach), `malformed` (text that is no USI move), `empty` (`bestmove` alone) |
//! | `resign` | `bestmove resign` |
//! | `win` | `bestmove win` whether or not the declaration holds |
//! | `crash` | exits with status 3 instead of answering |
//! | `hang` | never answers this `go` (nor its `stop`), but keeps reading |
//! | `hang-every` | never answers any `go` from this ply on (nor `stop`), in every game, but keeps reading |
//! | `deaf` | stops reading its input at this `go` and never answers again (nor exits at the end of input) |
//! | `slow=MS` | waits MS before every answer from this ply on |
//! | `until-stop` | never answers a timed `go` by itself from this ply on, in every game, but answers its `stop` at once: an engine still searching when its time is up |
//! | `score=cp:N`, `score=mate:N` | prints `info depth 1 score … pv <move>` before every answer from this ply on |
//! | `script=M1,M2,…` | plays the first move of the list that is legal (random when none is) |
//! | `first` | plays the first legal move in canonical order (resigns when there is none) |
//! | `ponder` | adds `ponder <move>` to every `bestmove`: the first legal reply |
//! | `die-after-game` | exits (status 0) on `gameover`, as an engine that quits between games |
//!
//! Faults of the handshake: `no-usiok`, `no-readyok`, `slow-usiok=MS`, `slow-readyok=MS`,
//! `crash-at-start` (exits before reading anything), `crash-on-isready`.
//!
//! Faults for `saikoro check`, each the bug one of its checks is meant to catch (every time,
//! not once per game; "crash" exits with status 3):
//!
//! | fault | what the engine does |
//! |---|---|
//! | `no-id-name`, `no-id-author` | leaves out that `id` line |
//! | `bad-option` | declares an option a GUI cannot read (a spin without min and max) |
//! | `inconsistent-option` | declares a spin whose default is outside min..max |
//! | `spaced-option` | declares `option name Skill Level type spin default 20 min -20 max 20`, a name with a space as Fairy-Stockfish's, and answers `setoption name Skill Level value V` with `info string Skill Level = V` |
//! | `junk` | prints a banner at start and a non-USI line before every bestmove |
//! | `double-spaces` | writes `bestmove` with two spaces after it |
//! | `early-infinite`, `early-ponder` | answers `go infinite` / `go ponder` at once |
//! | `ignore-stop`, `ignore-ponder-stop` | no bestmove for `stop` during `go infinite` / `go ponder` |
//! | `idle-stop-bestmove` | answers a `stop` with no search running with a bestmove |
//! | `two-bestmoves` | answers every timed `go` twice |
//! | `gameover-keeps-pondering` | `gameover` does not end a `go ponder` (its bestmove comes at the next `go`) |
//! | `no-readyok-while-searching` | no `readyok` during `go infinite` / `go ponder` |
//! | `ignore-quit` | does not exit on `quit` (only at the end of input) |
//! | `crash-on-unknown-command`, `crash-on-crlf` | crashes on a command it does not know, on a line ending in CR LF |
//! | `crash-on-unknown-option`, `crash-on-empty-value`, `crash-on-spin-max` | crashes on `setoption` of an undeclared option, with an empty value, with a spin's max |
//! | `sudden-death-slow=MS` | waits MS before answering a `go` with `byoyomi 0` |
//! | `chess-clocks` | takes its time from the other side's clock, the chess way round (`wtime` when Sente is to move): waits a tenth of it, at most 2 s, before answering a `go` with `btime` and `wtime` |
//! | `slow-first=MS` | waits MS before answering the first timed `go` of the process (a machine busy for a moment) |
//! | `slow-spin-max=MS` | waits MS before the `readyok` after a spin was set to its max (`Threads 512` on a small machine) |
//! | `resign-if-forced` | resigns when it has a single legal move |
//! | `crash-if-mated` | crashes instead of resigning when it has no legal move |
//! | `move-buffer=N` | crashes when it has more than N legal moves (a fixed move list) |
//! | `declare-27` | declares a win at 27 points for Black too (28 needed) |
//! | `perpetual-check` | plays a move that loses by perpetual check when one exists |
//! | `reject-non-promotion` | reads a `position` only up to the first unpromoted bishop, rook or pawn move that could have promoted, and plays from there |
//! | `mate-bestmove`, `checkmate=M1,M2,…` | answers `go mate` with a bestmove, with `checkmate M1 M2 …` |
//!
//! Faults of `go perft` (for `saikoro check --movegen`), each a bug of a move generator:
//!
//! | fault | what the engine's perft does |
//! |---|---|
//! | `perft-omit-non-promotion` | leaves out the non-promotions of bishop and rook where they could promote (YaneuraOu's `LEGAL` list does so on purpose) |
//! | `perft-uchifuzume` | counts mating pawn drops (打ち歩詰め) as legal |
//! | `perft-miscount` | adds one to the count of the first move at the root when the depth is 2 or more: a subtree miscounted, every move right |
//! | `no-perft` | answers `go perft` with a search (`bestmove`), as an engine without perft |

use saikoro_core::{
    Color, DeclarationError, EnteringKingRule, Game, IllegalMove, KingRule, Move, PieceType,
    Position, Square,
};
use saikoro_engine::{Engine, Flow};
use saikoro_usi::{parse_line, Command, Go, PositionCommand, Start, UsiError};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

/// The kinds of illegal move the engine can play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Illegal {
    IntoCheck,
    Uchifuzume,
    Nifu,
    NoPromotion,
    BadPromotion,
    NotInHand,
    Occupied,
    DeadDrop,
    WrongSide,
    NoPiece,
    Unreachable,
    Malformed,
    Empty,
}

impl Illegal {
    fn parse(s: &str) -> Option<Illegal> {
        Some(match s {
            "into-check" => Illegal::IntoCheck,
            "uchifuzume" => Illegal::Uchifuzume,
            "nifu" => Illegal::Nifu,
            "no-promotion" => Illegal::NoPromotion,
            "bad-promotion" => Illegal::BadPromotion,
            "not-in-hand" => Illegal::NotInHand,
            "occupied" => Illegal::Occupied,
            "dead-drop" => Illegal::DeadDrop,
            "wrong-side" => Illegal::WrongSide,
            "no-piece" => Illegal::NoPiece,
            "unreachable" => Illegal::Unreachable,
            "malformed" => Illegal::Malformed,
            "empty" => Illegal::Empty,
            _ => return None,
        })
    }

    /// The reason the rules give for a move of this kind.
    fn reason(self) -> Option<IllegalMove> {
        Some(match self {
            Illegal::IntoCheck => IllegalMove::KingInCheck,
            Illegal::Uchifuzume => IllegalMove::PawnDropMate,
            Illegal::Nifu => IllegalMove::Nifu,
            Illegal::NoPromotion => IllegalMove::MustPromote,
            Illegal::BadPromotion => IllegalMove::CannotPromote,
            Illegal::NotInHand => IllegalMove::NotInHand,
            Illegal::Occupied => IllegalMove::SquareOccupied,
            Illegal::DeadDrop => IllegalMove::DeadDrop,
            Illegal::WrongSide => IllegalMove::NotOwnPiece,
            Illegal::NoPiece => IllegalMove::NoPiece,
            Illegal::Unreachable => IllegalMove::CannotReach,
            Illegal::Malformed | Illegal::Empty => return None,
        })
    }

    /// The move text to play in `pos`, if a move of this kind exists there.
    fn find(self, pos: &Position) -> Option<String> {
        match self {
            Illegal::Malformed => return Some("9z9y".to_string()),
            Illegal::Empty => return Some(String::new()),
            _ => {}
        }
        let want = self.reason()?;
        candidates()
            .find(|&m| pos.is_legal(m).err().as_ref() == Some(&want))
            .map(|m| m.to_string())
    }
}

/// Every move text can express: board moves with and without `+`, drops of every hand kind.
fn candidates() -> impl Iterator<Item = Move> {
    let board = Square::all().flat_map(|from| {
        Square::all()
            .flat_map(move |to| [false, true].map(|promote| Move::Normal { from, to, promote }))
    });
    let drops = PieceType::HAND_KINDS
        .into_iter()
        .flat_map(|kind| Square::all().map(move |to| Move::Drop { kind, to }));
    board
        .chain(drops)
        .filter(|m| !matches!(m, Move::Normal { from, to, .. } if from == to))
}

#[derive(Clone, Debug, PartialEq)]
enum Action {
    Illegal(Illegal),
    Resign,
    Win,
    Crash,
    Hang,
    HangEvery,
    Deaf,
    Slow(u64),
    UntilStop,
    Score(String),
    Script(Vec<String>),
    First,
    Ponder,
    DieAfterGame,
    NoUsiOk,
    NoReadyOk,
    SlowUsiOk(u64),
    SlowReadyOk(u64),
    CrashAtStart,
    CrashOnIsReady,
    Check(CheckFault),
}

#[derive(Clone, Debug)]
struct Fault {
    action: Action,
    ply: usize,
    /// `@sfen=`: the position (SFEN without its move number) it is limited to.
    sfen: Option<String>,
}

impl Fault {
    /// Whether the fault may fire in `pos`.
    fn fires_in(&self, pos: &Position) -> bool {
        self.sfen
            .as_ref()
            .is_none_or(|s| *s == sfen_without_number(pos))
    }
}

/// The SFEN of `pos` without its move number.
fn sfen_without_number(pos: &Position) -> String {
    let sfen = pos.to_sfen();
    sfen.rsplit_once(' ')
        .map_or(sfen.clone(), |(s, _)| s.to_string())
}

fn parse_fault(spec: &str) -> Result<Fault, String> {
    let (body, ply, sfen) = match spec.rsplit_once('@') {
        Some((b, p)) => match p.strip_prefix("sfen=") {
            Some(s) => {
                let pos =
                    Position::from_sfen(s).map_err(|e| format!("bad sfen in '{spec}': {e}"))?;
                (b, 0, Some(sfen_without_number(&pos)))
            }
            None => (
                b,
                p.parse().map_err(|_| format!("bad ply in '{spec}'"))?,
                None,
            ),
        },
        None => (spec, 0, None),
    };
    let (name, value) = match body.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (body, None),
    };
    let ms = |v: Option<&str>| -> Result<u64, String> {
        v.and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("'{name}' needs milliseconds: {name}=MS"))
    };
    let action = match (name, value) {
        ("illegal", Some(k)) => {
            Action::Illegal(Illegal::parse(k).ok_or_else(|| format!("unknown illegal kind '{k}'"))?)
        }
        ("resign", None) => Action::Resign,
        ("win", None) => Action::Win,
        ("crash", None) => Action::Crash,
        ("hang", None) => Action::Hang,
        ("hang-every", None) => Action::HangEvery,
        ("deaf", None) => Action::Deaf,
        ("slow", v) => Action::Slow(ms(v)?),
        ("until-stop", None) => Action::UntilStop,
        ("score", Some(v)) => match v.split_once(':') {
            Some(("cp" | "mate", n)) if n.parse::<i32>().is_ok() => {
                Action::Score(v.replace(':', " "))
            }
            _ => return Err(format!("score=cp:N or score=mate:N, not '{v}'")),
        },
        ("script", Some(v)) => Action::Script(v.split(',').map(str::to_string).collect()),
        ("first", None) => Action::First,
        ("ponder", None) => Action::Ponder,
        ("die-after-game", None) => Action::DieAfterGame,
        ("no-usiok", None) => Action::NoUsiOk,
        ("no-readyok", None) => Action::NoReadyOk,
        ("slow-usiok", v) => Action::SlowUsiOk(ms(v)?),
        ("slow-readyok", v) => Action::SlowReadyOk(ms(v)?),
        ("crash-at-start", None) => Action::CrashAtStart,
        ("crash-on-isready", None) => Action::CrashOnIsReady,
        _ => match CheckFault::parse(name, value)? {
            Some(f) => Action::Check(f),
            None => return Err(format!("unknown fault '{spec}'")),
        },
    };
    Ok(Fault { action, ply, sfen })
}

struct FaultEngine {
    engine: Engine,
    faults: Vec<Fault>,
    /// Which one-shot faults have fired this game.
    fired: Vec<bool>,
    /// The last position, as the engine plays it.
    game: Option<Game>,
    /// Whether the search held by the engine is a `go ponder` (not a `go infinite`).
    held_ponder: bool,
    /// How long the next `readyok` waits (`slow-spin-max`).
    slow_ready: u64,
    /// Whether `slow-first` has slowed its answer.
    slowed_first: bool,
}

impl FaultEngine {
    fn active(&self, pred: impl Fn(&Action) -> bool) -> Option<&Action> {
        self.faults.iter().map(|f| &f.action).find(|&a| pred(a))
    }

    fn sleep_for(&self, pick: fn(&Action) -> Option<u64>) {
        if let Some(ms) = self.faults.iter().find_map(|f| pick(&f.action)) {
            std::thread::sleep(Duration::from_millis(ms));
        }
    }

    fn set_position(&mut self, p: &PositionCommand) {
        let start = match &p.start {
            Start::Startpos => Ok(Position::startpos()),
            Start::Sfen(setup) => Position::from_setup(setup, KingRule::Optional),
        };
        self.game = start.ok().map(Game::new).and_then(|mut g| {
            p.moves.iter().try_for_each(|&m| g.try_play(m)).ok()?;
            Some(g)
        });
    }

    /// Whether `until-stop` holds the answer to a timed `go` in the current position.
    fn holds_until_stop(&self) -> bool {
        let Some(game) = &self.game else {
            return false;
        };
        self.faults.iter().any(|f| {
            f.action == Action::UntilStop && game.len() >= f.ply && f.fires_in(game.position())
        })
    }

    /// The answer a fault gives to a timed `go`, if one fires: `Err` ends the process.
    fn faulty_answer(&mut self, out: &mut impl Write) -> Result<Option<String>, ExitCode> {
        let Some(game) = &self.game else {
            return Ok(None);
        };
        let plies = game.len();
        let pos = game.position().clone();
        for (i, f) in self.faults.iter().enumerate() {
            if plies < f.ply || !f.fires_in(&pos) {
                continue;
            }
            let once = |fired: &mut Vec<bool>| !std::mem::replace(&mut fired[i], true);
            match &f.action {
                Action::Slow(ms) => std::thread::sleep(Duration::from_millis(*ms)),
                Action::Score(s) => {
                    let pv = pos.legal_moves().first().map(|m| m.to_string());
                    let pv = pv.map(|m| format!(" pv {m}")).unwrap_or_default();
                    let _ = writeln!(out, "info depth 1 score {s}{pv}");
                }
                Action::Script(moves) => {
                    let next = moves
                        .iter()
                        .filter_map(|t| Move::from_usi(t).ok())
                        .find(|&m| pos.is_legal(m).is_ok());
                    if let Some(m) = next {
                        return Ok(Some(format!("bestmove {m}")));
                    }
                }
                Action::First => {
                    return Ok(Some(match pos.legal_moves().first() {
                        Some(m) => format!("bestmove {m}"),
                        None => "bestmove resign".to_string(),
                    }))
                }
                Action::Illegal(kind) if !self.fired[i] => {
                    if let Some(text) = kind.find(&pos) {
                        self.fired[i] = true;
                        let line = format!("bestmove {text}");
                        return Ok(Some(line.trim_end().to_string()));
                    }
                }
                Action::Resign if once(&mut self.fired) => {
                    return Ok(Some("bestmove resign".into()))
                }
                Action::Win if once(&mut self.fired) => return Ok(Some("bestmove win".into())),
                Action::Crash => {
                    eprintln!("fault_engine: crashing at ply {plies} as asked");
                    return Err(ExitCode::from(3));
                }
                Action::Hang if once(&mut self.fired) => return Ok(Some(String::new())),
                Action::HangEvery => return Ok(Some(String::new())),
                Action::Deaf => loop {
                    // Reads nothing more: `quit` and the end of input go unseen.
                    std::thread::sleep(Duration::from_secs(3600));
                },
                _ => {}
            }
        }
        Ok(None)
    }

    /// Handles one line without the faults for `saikoro check`; `Err` is the exit code to end
    /// with.
    fn handle_plain(&mut self, line: &str, out: &mut impl Write) -> Result<Flow, ExitCode> {
        let io_err = |_| ExitCode::from(2);
        match parse_line(line) {
            Ok(Command::Usi) => {
                self.sleep_for(|a| match a {
                    Action::SlowUsiOk(ms) => Some(*ms),
                    _ => None,
                });
                if self.active(|a| *a == Action::NoUsiOk).is_some() {
                    let _ = writeln!(out, "id name FaultEngine");
                    return Ok(Flow::Continue);
                }
            }
            Ok(Command::IsReady) => {
                if self.active(|a| *a == Action::CrashOnIsReady).is_some() {
                    return Err(ExitCode::from(3));
                }
                self.sleep_for(|a| match a {
                    Action::SlowReadyOk(ms) => Some(*ms),
                    _ => None,
                });
                if self.active(|a| *a == Action::NoReadyOk).is_some() {
                    return Ok(Flow::Continue);
                }
            }
            Ok(Command::UsiNewGame) => self.fired.iter_mut().for_each(|f| *f = false),
            Ok(Command::Position(ref p)) => self.set_position(p),
            Ok(Command::Go(ref go))
                if !go.infinite && !go.ponder && go.mate.is_none() && go.perft.is_none() =>
            {
                if self.holds_until_stop() {
                    // Searched as `go infinite`: the move is held until `stop`.
                    let held = Go {
                        infinite: true,
                        ..go.clone()
                    };
                    self.engine.handle(Command::Go(held), out).map_err(io_err)?;
                    out.flush().map_err(io_err)?;
                    return Ok(Flow::Continue);
                }
                if let Some(answer) = self.faulty_answer(out)? {
                    if !answer.is_empty() {
                        writeln!(out, "{answer}").map_err(io_err)?;
                    }
                    out.flush().map_err(io_err)?;
                    return Ok(Flow::Continue);
                }
            }
            _ => {}
        }
        if matches!(parse_line(line), Ok(Command::GameOver(_)))
            && self.active(|a| *a == Action::DieAfterGame).is_some()
        {
            return Err(ExitCode::SUCCESS);
        }
        let flow = if self.active(|a| *a == Action::Ponder).is_some() {
            let mut buf = Vec::new();
            let flow = self.engine.handle_line(line, &mut buf).map_err(io_err)?;
            for l in String::from_utf8_lossy(&buf).lines() {
                writeln!(out, "{}", self.with_ponder(l)).map_err(io_err)?;
            }
            flow
        } else {
            self.engine.handle_line(line, out).map_err(io_err)?
        };
        out.flush().map_err(io_err)?;
        Ok(flow)
    }

    /// A `bestmove` line with ` ponder <first legal reply>` added, when there is a reply.
    fn with_ponder(&self, line: &str) -> String {
        let reply = line
            .strip_prefix("bestmove ")
            .and_then(|t| Move::from_usi(t).ok())
            .zip(self.game.as_ref())
            .filter(|(m, g)| g.position().is_legal(*m).is_ok())
            .and_then(|(m, g)| g.position().play(m).legal_moves().first().copied());
        match reply {
            Some(r) => format!("{line} ponder {r}"),
            None => line.to_string(),
        }
    }
}

/// The option `spaced-option` declares: Fairy-Stockfish's, whose name has a space.
const SKILL_LEVEL: &str = "option name Skill Level type spin default 20 min -20 max 20";

/// The faults `saikoro check` must catch, each the bug of one of its checks.
#[derive(Clone, Debug, PartialEq)]
enum CheckFault {
    NoIdName,
    NoIdAuthor,
    BadOption,
    InconsistentOption,
    SpacedOption,
    Junk,
    DoubleSpaces,
    EarlyInfinite,
    EarlyPonder,
    IgnoreStop,
    IgnorePonderStop,
    IdleStopBestmove,
    TwoBestmoves,
    GameoverKeepsPondering,
    NoReadyokWhileSearching,
    IgnoreQuit,
    CrashOnUnknownCommand,
    CrashOnCrlf,
    CrashOnUnknownOption,
    CrashOnEmptyValue,
    CrashOnSpinMax,
    SuddenDeathSlow(u64),
    ChessClocks,
    SlowFirst(u64),
    SlowSpinMax(u64),
    ResignIfForced,
    CrashIfMated,
    MoveBuffer(usize),
    Declare27,
    PerpetualCheck,
    RejectNonPromotion,
    MateBestmove,
    Checkmate(String),
    PerftOmitNonPromotion,
    PerftUchifuzume,
    PerftMiscount,
    NoPerft,
}

impl CheckFault {
    /// The fault called `name` (with `value`), `None` when there is none of that name.
    fn parse(name: &str, value: Option<&str>) -> Result<Option<CheckFault>, String> {
        let number = |v: Option<&str>| {
            v.and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(|| format!("'{name}' needs a number: {name}=N"))
        };
        Ok(Some(match (name, value) {
            ("no-id-name", None) => CheckFault::NoIdName,
            ("no-id-author", None) => CheckFault::NoIdAuthor,
            ("bad-option", None) => CheckFault::BadOption,
            ("inconsistent-option", None) => CheckFault::InconsistentOption,
            ("spaced-option", None) => CheckFault::SpacedOption,
            ("junk", None) => CheckFault::Junk,
            ("double-spaces", None) => CheckFault::DoubleSpaces,
            ("early-infinite", None) => CheckFault::EarlyInfinite,
            ("early-ponder", None) => CheckFault::EarlyPonder,
            ("ignore-stop", None) => CheckFault::IgnoreStop,
            ("ignore-ponder-stop", None) => CheckFault::IgnorePonderStop,
            ("idle-stop-bestmove", None) => CheckFault::IdleStopBestmove,
            ("two-bestmoves", None) => CheckFault::TwoBestmoves,
            ("gameover-keeps-pondering", None) => CheckFault::GameoverKeepsPondering,
            ("no-readyok-while-searching", None) => CheckFault::NoReadyokWhileSearching,
            ("ignore-quit", None) => CheckFault::IgnoreQuit,
            ("crash-on-unknown-command", None) => CheckFault::CrashOnUnknownCommand,
            ("crash-on-crlf", None) => CheckFault::CrashOnCrlf,
            ("crash-on-unknown-option", None) => CheckFault::CrashOnUnknownOption,
            ("crash-on-empty-value", None) => CheckFault::CrashOnEmptyValue,
            ("crash-on-spin-max", None) => CheckFault::CrashOnSpinMax,
            ("sudden-death-slow", v) => CheckFault::SuddenDeathSlow(number(v)?),
            ("chess-clocks", None) => CheckFault::ChessClocks,
            ("slow-first", v) => CheckFault::SlowFirst(number(v)?),
            ("slow-spin-max", v) => CheckFault::SlowSpinMax(number(v)?),
            ("resign-if-forced", None) => CheckFault::ResignIfForced,
            ("crash-if-mated", None) => CheckFault::CrashIfMated,
            ("move-buffer", v) => CheckFault::MoveBuffer(number(v)? as usize),
            ("declare-27", None) => CheckFault::Declare27,
            ("perpetual-check", None) => CheckFault::PerpetualCheck,
            ("reject-non-promotion", None) => CheckFault::RejectNonPromotion,
            ("mate-bestmove", None) => CheckFault::MateBestmove,
            ("checkmate", Some(v)) => CheckFault::Checkmate(v.replace(',', " ")),
            ("perft-omit-non-promotion", None) => CheckFault::PerftOmitNonPromotion,
            ("perft-uchifuzume", None) => CheckFault::PerftUchifuzume,
            ("perft-miscount", None) => CheckFault::PerftMiscount,
            ("no-perft", None) => CheckFault::NoPerft,
            _ => return Ok(None),
        }))
    }
}

/// Whether Black would wrongly declare a win by counting 27 points as enough (the White
/// threshold): every other CSARule27 condition holds, the points are exactly 27.
fn declares_at_27(pos: &Position) -> bool {
    pos.check_declaration(EnteringKingRule::CsaRule27)
        == Err(DeclarationError::TooFewPoints {
            points: 27,
            needed: 28,
        })
}

/// The moves of `p` up to the first bishop, rook or pawn move that stays unpromoted where it
/// could promote, or `None` when there is none.
fn before_non_promotion(p: &PositionCommand) -> Option<PositionCommand> {
    let mut pos = match &p.start {
        Start::Startpos => Position::startpos(),
        Start::Sfen(setup) => Position::from_setup(setup, KingRule::Optional).ok()?,
    };
    for (i, &m) in p.moves.iter().enumerate() {
        if let Move::Normal {
            from,
            to,
            promote: false,
        } = m
        {
            let kind = pos.piece_at(from).map(|pc| pc.kind);
            let promotable = Move::Normal {
                from,
                to,
                promote: true,
            };
            if matches!(
                kind,
                Some(PieceType::Pawn | PieceType::Bishop | PieceType::Rook)
            ) && pos.is_legal(promotable).is_ok()
            {
                return Some(PositionCommand {
                    start: p.start.clone(),
                    moves: p.moves[..i].to_vec(),
                });
            }
        }
        pos.is_legal(m).ok()?;
        pos = pos.play(m);
    }
    None
}

impl FaultEngine {
    /// The faults for `saikoro check` in force.
    fn check_faults(&self) -> impl Iterator<Item = &CheckFault> {
        self.faults.iter().filter_map(|f| match &f.action {
            Action::Check(c) => Some(c),
            _ => None,
        })
    }

    fn has(&self, c: &CheckFault) -> bool {
        self.check_faults().any(|f| f == c)
    }

    /// Handles one line: the faults for `saikoro check`, then the others; `Err` is the exit
    /// code to end with.
    fn handle(&mut self, line: &str, out: &mut impl Write) -> Result<Flow, ExitCode> {
        if self.check_faults().next().is_none() {
            return self.handle_plain(line, out);
        }
        let mut buf = Vec::new();
        let flow = match self.check_fault(line, &mut buf)? {
            Some(flow) => flow,
            None => self.handle_plain(line, &mut buf)?,
        };
        let timed_go = matches!(parse_line(line),
            Ok(Command::Go(g)) if !g.infinite && !g.ponder && g.mate.is_none() && g.perft.is_none());
        let io_err = |_| ExitCode::from(2);
        for l in String::from_utf8_lossy(&buf).lines() {
            if !l.starts_with("bestmove") {
                writeln!(out, "{l}").map_err(io_err)?;
                continue;
            }
            if self.has(&CheckFault::Junk) {
                writeln!(out, "thinking... done").map_err(io_err)?;
            }
            let l = if self.has(&CheckFault::DoubleSpaces) {
                l.replacen("bestmove ", "bestmove  ", 1)
            } else {
                l.to_string()
            };
            writeln!(out, "{l}").map_err(io_err)?;
            if timed_go && self.has(&CheckFault::TwoBestmoves) {
                writeln!(out, "{l}").map_err(io_err)?;
            }
        }
        out.flush().map_err(io_err)?;
        Ok(flow)
    }

    /// The faults for `saikoro check` that replace the normal handling of `line`: `Some` when
    /// one did.
    fn check_fault(&mut self, line: &str, out: &mut Vec<u8>) -> Result<Option<Flow>, ExitCode> {
        use CheckFault as F;
        let crash = Err(ExitCode::from(3));
        let done = Ok(Some(Flow::Continue));
        let searching = self.engine.is_searching();
        match parse_line(line) {
            Err(UsiError::UnknownCommand(_)) if self.has(&F::CrashOnUnknownCommand) => crash,
            Ok(Command::Usi) => self.check_usi(line, out).map(Some),
            Ok(Command::IsReady) if searching && self.has(&F::NoReadyokWhileSearching) => done,
            Ok(Command::IsReady) if self.slow_ready > 0 => {
                std::thread::sleep(Duration::from_millis(std::mem::take(&mut self.slow_ready)));
                Ok(None)
            }
            Ok(Command::SetOption { name, value })
                if name.eq_ignore_ascii_case("Skill Level") && self.has(&F::SpacedOption) =>
            {
                let _ = writeln!(
                    out,
                    "info string Skill Level = {}",
                    value.unwrap_or_default()
                );
                done
            }
            Ok(Command::SetOption { name, value }) => {
                self.check_setoption(&name, &value.unwrap_or_default())?;
                Ok(None)
            }
            Ok(Command::Stop) if searching => {
                let ignored = if self.held_ponder {
                    F::IgnorePonderStop
                } else {
                    F::IgnoreStop
                };
                if self.has(&ignored) {
                    done
                } else {
                    Ok(None)
                }
            }
            Ok(Command::Stop) if self.has(&F::IdleStopBestmove) => {
                let mv = self
                    .game
                    .as_ref()
                    .and_then(|g| g.position().legal_moves().first().map(|m| m.to_string()));
                let _ = writeln!(out, "bestmove {}", mv.as_deref().unwrap_or("resign"));
                done
            }
            Ok(Command::GameOver(_)) if searching && self.has(&F::GameoverKeepsPondering) => done,
            Ok(Command::Quit) if self.has(&F::IgnoreQuit) => done,
            Ok(Command::Position(p)) if self.has(&F::RejectNonPromotion) => {
                let p = before_non_promotion(&p).unwrap_or(p);
                self.set_position(&p);
                self.engine
                    .handle(Command::Position(p), out)
                    .map_err(|_| ExitCode::from(2))?;
                done
            }
            Ok(Command::Go(go)) => self.check_go(go, out),
            _ => Ok(None),
        }
    }

    /// `usi` answered with the handshake's faults: an `id` line left out, a broken option.
    fn check_usi(&mut self, line: &str, out: &mut Vec<u8>) -> Result<Flow, ExitCode> {
        use CheckFault as F;
        let mut buf = Vec::new();
        let flow = self.handle_plain(line, &mut buf)?;
        for l in String::from_utf8_lossy(&buf).lines() {
            if (l.starts_with("id name") && self.has(&F::NoIdName))
                || (l.starts_with("id author") && self.has(&F::NoIdAuthor))
            {
                continue;
            }
            if l == "usiok" {
                if self.has(&F::BadOption) {
                    let _ = writeln!(out, "option name Broken type spin default 10");
                }
                if self.has(&F::InconsistentOption) {
                    let _ = writeln!(out, "option name Depth type spin default 0 min 1 max 10");
                }
                if self.has(&F::SpacedOption) {
                    let _ = writeln!(out, "{SKILL_LEVEL}");
                }
            }
            let _ = writeln!(out, "{l}");
        }
        Ok(flow)
    }

    /// The `setoption` faults: a crash on an unknown option, an empty value or a spin's
    /// maximum; a slow `readyok` after the maximum.
    fn check_setoption(&mut self, name: &str, value: &str) -> Result<(), ExitCode> {
        use CheckFault as F;
        // The options the engine declares are Saikoro's.
        let unknown = !Engine::declared_options().any(|o| o.name.eq_ignore_ascii_case(name));
        let spin_max =
            name.eq_ignore_ascii_case("Seed") && value == saikoro_engine::SEED_MAX.to_string();
        if (unknown && self.has(&F::CrashOnUnknownOption))
            || (value.is_empty() && self.has(&F::CrashOnEmptyValue))
            || (spin_max && self.has(&F::CrashOnSpinMax))
        {
            return Err(ExitCode::from(3));
        }
        let slow = self.check_faults().find_map(|f| match f {
            F::SlowSpinMax(ms) => Some(*ms),
            _ => None,
        });
        if let (true, Some(ms)) = (spin_max, slow) {
            self.slow_ready = ms;
        }
        Ok(())
    }

    /// The waits of the timed-`go` faults: slow in sudden death, the chess way round of the
    /// clocks, slow on the first move.
    fn check_go_delays(&mut self, go: &Go) {
        use CheckFault as F;
        if go.byoyomi == Some(0) {
            if let Some(ms) = self.check_faults().find_map(|f| match f {
                F::SuddenDeathSlow(ms) => Some(*ms),
                _ => None,
            }) {
                std::thread::sleep(Duration::from_millis(ms));
            }
        }
        if self.has(&F::ChessClocks) {
            let black = self
                .game
                .as_ref()
                .is_some_and(|g| g.position().side_to_move() == Color::Black);
            let other = if black { go.wtime } else { go.btime };
            if let (Some(ms), Some(_), Some(_)) = (other, go.btime, go.wtime) {
                std::thread::sleep(Duration::from_millis((ms / 10).min(2_000)));
            }
        }
        let slow_first = self.check_faults().find_map(|f| match f {
            F::SlowFirst(ms) => Some(*ms),
            _ => None,
        });
        if let Some(ms) = slow_first {
            if !std::mem::replace(&mut self.slowed_first, true) {
                std::thread::sleep(Duration::from_millis(ms));
            }
        }
    }

    /// The `go` faults for `saikoro check`.
    fn check_go(&mut self, go: Go, out: &mut Vec<u8>) -> Result<Option<Flow>, ExitCode> {
        use CheckFault as F;
        let done = Ok(Some(Flow::Continue));
        let io_err = |_| ExitCode::from(2);
        if go.infinite || go.ponder {
            self.held_ponder = go.ponder;
            if (go.infinite && self.has(&F::EarlyInfinite))
                || (go.ponder && self.has(&F::EarlyPonder))
            {
                let now = Go {
                    infinite: false,
                    ponder: false,
                    ..go
                };
                self.engine.handle(Command::Go(now), out).map_err(io_err)?;
                return done;
            }
            return Ok(None);
        }
        if go.mate.is_some() {
            if self.has(&F::MateBestmove) {
                let mv = self
                    .game
                    .as_ref()
                    .and_then(|g| g.position().legal_moves().first().map(|m| m.to_string()));
                let _ = writeln!(out, "bestmove {}", mv.as_deref().unwrap_or("resign"));
                return done;
            }
            if let Some(pv) = self.check_faults().find_map(|f| match f {
                F::Checkmate(pv) => Some(pv.clone()),
                _ => None,
            }) {
                let _ = writeln!(out, "checkmate {pv}");
                return done;
            }
            return Ok(None);
        }
        if let Some(depth) = go.perft {
            return self.faulty_perft(depth, out);
        }
        self.check_go_delays(&go);
        let buffer = self.check_faults().find_map(|f| match f {
            F::MoveBuffer(n) => Some(*n),
            _ => None,
        });
        let (forced, mated, declare, perpetual) = (
            self.has(&F::ResignIfForced),
            self.has(&F::CrashIfMated),
            self.has(&F::Declare27),
            self.has(&F::PerpetualCheck),
        );
        let Some(game) = self.game.as_mut() else {
            return Ok(None);
        };
        let legal = game.position().legal_moves();
        if (mated && legal.is_empty()) || buffer.is_some_and(|n| legal.len() > n) {
            return Err(ExitCode::from(3));
        }
        let answer = if forced && legal.len() == 1 {
            Some("resign".to_string())
        } else if declare && declares_at_27(game.position()) {
            Some("win".to_string())
        } else if perpetual {
            legal
                .iter()
                .find(|&&m| game.loses_by_perpetual_check(m))
                .map(|m| m.to_string())
        } else {
            None
        };
        match answer {
            Some(a) => {
                let _ = writeln!(out, "bestmove {a}");
                done
            }
            None => Ok(None),
        }
    }
}

/// The move generator with the `go perft` faults in force.
#[derive(Clone, Copy)]
struct Generator {
    omit_non_promotion: bool,
    uchifuzume: bool,
}

impl Generator {
    /// The moves it lists in `pos`, in canonical order.
    fn moves(self, pos: &Position) -> Vec<Move> {
        let mut v: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| !(self.omit_non_promotion && bishop_or_rook_stays_unpromoted(pos, m)))
            .collect();
        if self.uchifuzume {
            v.extend(
                Square::all()
                    .map(|to| Move::Drop {
                        kind: PieceType::Pawn,
                        to,
                    })
                    .filter(|&m| pos.is_legal(m) == Err(IllegalMove::PawnDropMate)),
            );
        }
        v.sort();
        v
    }

    fn perft(self, pos: &Position, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.moves(pos).len() as u64,
            _ => self
                .moves(pos)
                .iter()
                .map(|&m| self.perft(&pos.play(m), depth - 1))
                .sum(),
        }
    }
}

/// Whether `m` is a bishop or rook move that stays unpromoted where it could promote.
fn bishop_or_rook_stays_unpromoted(pos: &Position, m: Move) -> bool {
    let Move::Normal {
        from,
        to,
        promote: false,
    } = m
    else {
        return false;
    };
    let kind = pos.piece_at(from).map(|p| p.kind);
    let promoted = Move::Normal {
        from,
        to,
        promote: true,
    };
    matches!(kind, Some(PieceType::Bishop | PieceType::Rook)) && pos.is_legal(promoted).is_ok()
}

impl FaultEngine {
    /// `go perft` with the perft faults: the divide as Saikoro prints it, from the faulty
    /// generator; `None` when no perft fault is in force.
    fn faulty_perft(&mut self, depth: u32, out: &mut Vec<u8>) -> Result<Option<Flow>, ExitCode> {
        use CheckFault as F;
        let generator = Generator {
            omit_non_promotion: self.has(&F::PerftOmitNonPromotion),
            uchifuzume: self.has(&F::PerftUchifuzume),
        };
        let miscount = self.has(&F::PerftMiscount);
        let Some(game) = &self.game else {
            return Ok(None);
        };
        let pos = game.position().clone();
        if self.has(&F::NoPerft) {
            let mv = pos.legal_moves().first().map(|m| m.to_string());
            let _ = writeln!(out, "bestmove {}", mv.as_deref().unwrap_or("resign"));
            return Ok(Some(Flow::Continue));
        }
        if !(generator.omit_non_promotion || generator.uchifuzume || miscount) || depth == 0 {
            return Ok(None);
        }
        let mut total = 0;
        for (i, m) in generator.moves(&pos).into_iter().enumerate() {
            let mut n = generator.perft(&pos.play(m), depth - 1);
            if miscount && i == 0 && depth >= 2 {
                n += 1;
            }
            total += n;
            let _ = writeln!(out, "{m}: {n}");
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "Nodes searched: {total}");
        Ok(Some(Flow::Continue))
    }
}

fn main() -> ExitCode {
    let mut faults = Vec::new();
    let mut seed = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next();
        let parsed = match (a.as_str(), value) {
            ("--fault", Some(v)) => parse_fault(&v).map(|f| faults.push(f)),
            ("--pid-file", Some(v)) => std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&v)
                .and_then(|mut f| writeln!(f, "{}", std::process::id()))
                .map_err(|e| format!("--pid-file {v}: {e}")),
            ("--seed", Some(v)) => v
                .parse::<u64>()
                .map(|s| seed = Some(s))
                .map_err(|_| format!("bad seed '{v}'")),
            _ => Err(format!("unknown argument '{a}'")),
        };
        if let Err(e) = parsed {
            eprintln!("fault_engine: {e}");
            return ExitCode::from(2);
        }
    }
    if faults.iter().any(|f| f.action == Action::CrashAtStart) {
        return ExitCode::from(3);
    }
    let mut fe = FaultEngine {
        engine: Engine::new(),
        fired: vec![false; faults.len()],
        faults,
        game: None,
        held_ponder: false,
        slow_ready: 0,
        slowed_first: false,
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if fe.has(&CheckFault::Junk) {
        let _ = writeln!(out, "FaultEngine 1.0 starting up");
    }
    if let Some(s) = seed {
        let _ = fe.handle(&format!("setoption name Seed value {s}"), &mut out);
    }
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => {
                let _ = fe.engine.finish(&mut out);
                return ExitCode::SUCCESS;
            }
            Ok(_) => {}
        }
        if buf.ends_with(b"\r\n") && fe.has(&CheckFault::CrashOnCrlf) {
            return ExitCode::from(3);
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\r', '\n']);
        match fe.handle(line, &mut out) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Quit) => return ExitCode::SUCCESS,
            Err(code) => return code,
        }
    }
}
