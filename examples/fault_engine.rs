//! A USI engine with faults on command, for testing the tools that drive engines (`saikoro
//! match`, `saikoro check`, `saikoro csa --engine`).
//!
//! Without flags it is Saikoro's own engine: the same session, the same seeded random legal
//! moves. Each `--fault` flag breaks one thing, the way engines in the wild break:
//!
//! ```text
//! cargo run --example fault_engine -- [--fault NAME[=VALUE][@PLY]]... [--seed N]
//! ```
//!
//! A fault with `@PLY` fires on the first `go` whose position has at least PLY moves since its
//! start (default 0: the first `go`), once per game unless noted. Faults of moves:
//!
//! | fault | what the engine does |
//! |---|---|
//! | `illegal=KIND` | plays an illegal move of that kind, the first time one exists: `into-check`, `uchifuzume` (a mating pawn drop), `nifu`, `no-promotion` (a pawn/lance/knight left without a move), `bad-promotion` (a `+` where no promotion is possible), `not-in-hand`, `occupied` (a drop on an occupied square), `wrong-side` (moves an opponent's piece), `no-piece` (from an empty square), `unreachable` (a piece to a square it cannot reach), `malformed` (text that is no USI move), `empty` (`bestmove` alone) |
//! | `resign` | `bestmove resign` |
//! | `win` | `bestmove win` whether or not the declaration holds |
//! | `crash` | exits with status 3 instead of answering |
//! | `hang` | never answers this `go` (nor its `stop`), but keeps reading |
//! | `slow=MS` | waits MS before every answer from this ply on |
//! | `score=cp:N`, `score=mate:N` | prints `info depth 1 score … pv <move>` before every answer from this ply on |
//! | `script=M1,M2,…` | plays the first move of the list that is legal (random when none is) |
//! | `first` | plays the first legal move in canonical order (resigns when there is none) |
//! | `ponder` | adds `ponder <move>` to every `bestmove`: the first legal reply |
//! | `die-after-game` | exits (status 0) on `gameover`, as an engine that quits between games |
//!
//! Faults of the handshake: `no-usiok`, `no-readyok`, `slow-usiok=MS`, `slow-readyok=MS`,
//! `crash-at-start` (exits before reading anything), `crash-on-isready`.

use saikoro::usi::{parse_line, Command, Engine, Flow, PositionCommand, Start};
use saikoro::{Game, IllegalMove, KingRule, Move, PieceType, Position, Square};
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
    Slow(u64),
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
}

#[derive(Clone, Debug)]
struct Fault {
    action: Action,
    ply: usize,
}

fn parse_fault(spec: &str) -> Result<Fault, String> {
    let (body, ply) = match spec.rsplit_once('@') {
        Some((b, p)) => (b, p.parse().map_err(|_| format!("bad ply in '{spec}'"))?),
        None => (spec, 0),
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
        ("slow", v) => Action::Slow(ms(v)?),
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
        _ => return Err(format!("unknown fault '{spec}'")),
    };
    Ok(Fault { action, ply })
}

struct FaultEngine {
    engine: Engine,
    faults: Vec<Fault>,
    /// Which one-shot faults have fired this game.
    fired: Vec<bool>,
    /// The last position, as the engine plays it.
    game: Option<Game>,
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

    /// The answer a fault gives to a timed `go`, if one fires: `Err` ends the process.
    fn faulty_answer(&mut self, out: &mut impl Write) -> Result<Option<String>, ExitCode> {
        let Some(game) = &self.game else {
            return Ok(None);
        };
        let plies = game.len();
        let pos = game.position().clone();
        for (i, f) in self.faults.iter().enumerate() {
            if plies < f.ply {
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
                _ => {}
            }
        }
        Ok(None)
    }

    /// Handles one line; `Err` is the exit code to end with.
    fn handle(&mut self, line: &str, out: &mut impl Write) -> Result<Flow, ExitCode> {
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

fn main() -> ExitCode {
    let mut faults = Vec::new();
    let mut seed = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next();
        let parsed = match (a.as_str(), value) {
            ("--fault", Some(v)) => parse_fault(&v).map(|f| faults.push(f)),
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
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
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
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\r', '\n']);
        match fe.handle(line, &mut out) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Quit) => return ExitCode::SUCCESS,
            Err(code) => return code,
        }
    }
}
