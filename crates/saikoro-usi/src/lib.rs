//! The USI protocol (Universal Shogi Interface) as text: the GUI's commands as typed values
//! ([`Command`]), the engine's messages ([`EngineMessage`]) and options ([`UsiOption`]), and the
//! `position` line ([`PositionLine`]). Neither side of a conversation: Saikoro's own engine
//! (the `saikoro-engine` crate) answers the commands, its driver of other engines
//! (`saikoro-driver`) reads the messages, both through this crate.
//!
//! [`parse_line`] is pure: one input line in, one [`Command`] or [`UsiError`] out. It checks
//! syntax only (SFEN text, USI move text); whether the moves are legal is the engine's business.
//!
//! ```
//! use saikoro_usi::{parse_line, Command};
//!
//! assert_eq!(parse_line("isready"), Ok(Command::IsReady));
//! match parse_line("position startpos moves 7g7f 3c3d").unwrap() {
//!     Command::Position(p) => assert_eq!(p.moves.len(), 2),
//!     other => panic!("{other:?}"),
//! }
//! ```

#![warn(missing_docs)]

mod message;
mod position_line;
mod resent;

pub use message::{
    parse_engine_line, BestMove, Checkmate, EngineMessage, Info, OptionError, OptionKind,
    OptionValue, OptionValueError, Score, UsiOption,
};

pub use position_line::PositionLine;
use resent::parse_moves;
pub use resent::{parse_tail, LastPosition};

use saikoro_core::sfen;
use saikoro_core::sfen::SfenError;
use saikoro_core::{GameResult, IllegalMove, InvalidSfen, Move, PositionError, Setup};
use std::fmt;

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `usi`: identify and list the options.
    Usi,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option name as sent (matched case-insensitively).
        name: String,
        /// Everything after `value`, trimmed; `None` when there is no `value` keyword.
        value: Option<String>,
    },
    /// `usinewgame`.
    UsiNewGame,
    /// `position startpos|sfen <sfen>|<sfen> [moves <m1> ...]`.
    Position(PositionCommand),
    /// `go ...`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit` (any clock values after it are ignored).
    PonderHit,
    /// `gameover win|lose|draw`, from the engine's side; `None` when the result is missing or
    /// unknown.
    GameOver(Option<GameResult>),
    /// `quit`.
    Quit,
    /// `d`: show the position (debug command, for humans).
    Display,
    /// `side` (YaneuraOu's extension, used by its script driver Ayane): the side to move,
    /// answered `black` or `white` on one line.
    Side,
    /// `moves` (YaneuraOu's extension, used by Ayane): the legal moves of the current position,
    /// space-separated on one line.
    Moves,
    /// `bench` (Stockfish's and YaneuraOu's debug command, run by the test farms' workers): a
    /// fixed workload, ending with `Nodes searched: N` and `Nodes/second: N`.
    Bench {
        /// Words after `bench` (YaneuraOu's hash, threads, depth ...), which the fixed workload
        /// ignores; empty when there are none.
        ignored: String,
    },
    /// A command of the USI draft that this engine accepts and ignores (`debug`, `register`).
    Ignored(String),
}

/// The start of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`.
    Startpos,
    /// An SFEN position, well formed but not yet checked against the rules.
    Sfen(Box<Setup>),
}

/// A `position` command: a start and the moves played from it (syntax checked only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// Where the game starts.
    pub start: Start,
    /// The moves played since, in order.
    pub moves: Vec<Move>,
}

/// The time limit of `go mate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateLimit {
    /// A limit in milliseconds (Shogidokoro's meaning of the argument).
    Millis(u64),
    /// `infinite`, or no argument.
    Infinite,
}

/// The parameters of `go`. A random mover needs none of the clock values, but they are kept
/// for the log. Unknown or malformed parameters are skipped, and listed in `problems`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `infinite`: think until `stop`.
    pub infinite: bool,
    /// `mate <ms>|infinite`: a mate search, answered with `checkmate ...`.
    pub mate: Option<MateLimit>,
    /// `perft <depth>`: the debug command that counts leaf nodes.
    pub perft: Option<u32>,
    /// `searchmoves <m1> <m2> ...`: the moves to choose from (syntax checked only; text that is
    /// no USI move is a problem of `go`). Empty: no restriction.
    pub searchmoves: Vec<Move>,
    /// `btime <ms>`.
    pub btime: Option<u64>,
    /// `wtime <ms>`.
    pub wtime: Option<u64>,
    /// `byoyomi <ms>`.
    pub byoyomi: Option<u64>,
    /// `binc <ms>`.
    pub binc: Option<u64>,
    /// `winc <ms>`.
    pub winc: Option<u64>,
    /// `movetime <ms>`, `depth <n>`, `nodes <n>` and other limits of UCI heritage, as given.
    pub limits: Vec<(String, u64)>,
    /// What was skipped, in order (the engine warns about it and answers all the same).
    pub problems: Vec<GoProblem>,
}

/// A parameter of `go` that was skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GoProblem {
    /// A parameter that takes a whole number came without one (`go movetime`), or with text
    /// that is not one (`go btime -5`, `go depth x`).
    BadNumber {
        /// The parameter (`btime`, `depth`, ...).
        param: String,
        /// The text after it; `None` when the line ended or another parameter followed.
        text: Option<String>,
    },
    /// Words that are no parameter of `go`, in a row (`go foo bar`).
    Unknown(String),
    /// A word after `searchmoves` that is no USI move text (`go searchmoves 7g7f xx`).
    SearchMove(String),
}

/// The parameters `go` knows, in the order [`Go`]'s `Display` prints them.
pub const GO_PARAMETERS: &str =
    "ponder, btime, wtime, byoyomi, binc, winc, movestogo, movetime, depth, nodes, infinite, mate, perft, searchmoves";

impl fmt::Display for GoProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoProblem::BadNumber { param, text } => {
                let unit = match param.as_str() {
                    "btime" | "wtime" | "byoyomi" | "binc" | "winc" | "movetime" | "rtime" => {
                        "milliseconds, a whole number from 0"
                    }
                    _ => "a whole number from 0",
                };
                match text {
                    Some(t) => write!(f, "'{param} {}' ignored: expected {unit}", shorten(t)),
                    None => write!(f, "'{param}' without a value ignored: expected {unit}"),
                }
            }
            GoProblem::Unknown(words) => write!(
                f,
                "unknown '{}' ignored: expected one of {GO_PARAMETERS}",
                shorten(words)
            ),
            GoProblem::SearchMove(word) => write!(
                f,
                "searchmoves: '{}' left out: not a USI move (expected moves like 7g7f, 8h2b+, P*5e)",
                shorten(word)
            ),
        }
    }
}

impl Go {
    /// A clock with byoyomi, as GUIs send it: `go btime B wtime W byoyomi MS` (`byoyomi 0` in
    /// sudden death; a fixed time per move is `btime 0 wtime 0 byoyomi MS`).
    pub fn byoyomi(btime: u64, wtime: u64, byoyomi: u64) -> Go {
        Go {
            btime: Some(btime),
            wtime: Some(wtime),
            byoyomi: Some(byoyomi),
            ..Go::default()
        }
    }

    /// A Fischer clock: `go btime B wtime W binc I winc J` (never with `byoyomi`).
    pub fn fischer(btime: u64, wtime: u64, binc: u64, winc: u64) -> Go {
        Go {
            btime: Some(btime),
            wtime: Some(wtime),
            binc: Some(binc),
            winc: Some(winc),
            ..Go::default()
        }
    }
}

/// The word `gameover` carries for `result` (from the engine's side): `win`, `lose` or `draw`.
pub fn gameover_word(result: GameResult) -> &'static str {
    match result {
        GameResult::Win => "win",
        GameResult::Loss => "lose",
        GameResult::Draw => "draw",
    }
}

impl fmt::Display for Go {
    /// The command as a GUI sends it: `go [ponder] [btime …] [wtime …] [byoyomi …|binc … winc …]
    /// [movetime …] [depth …] [nodes …] [infinite] [mate …] [perft …] [searchmoves …]`. Skipped
    /// tokens are not repeated.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let clock = [
            ("btime", self.btime),
            ("wtime", self.wtime),
            ("byoyomi", self.byoyomi),
            ("binc", self.binc),
            ("winc", self.winc),
        ];
        for (name, value) in clock {
            if let Some(v) = value {
                write!(f, " {name} {v}")?;
            }
        }
        for (name, value) in &self.limits {
            write!(f, " {name} {value}")?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        match self.mate {
            Some(MateLimit::Millis(ms)) => write!(f, " mate {ms}")?,
            Some(MateLimit::Infinite) => f.write_str(" mate infinite")?,
            None => {}
        }
        if let Some(d) = self.perft {
            write!(f, " perft {d}")?;
        }
        if !self.searchmoves.is_empty() {
            f.write_str(" searchmoves")?;
            for m in &self.searchmoves {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

/// Why a line could not be acted on.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UsiError {
    /// A blank line (ignored without a word).
    Empty,
    /// A command this engine does not know.
    UnknownCommand(String),
    /// A known command with missing or malformed arguments.
    Malformed {
        /// The command.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The SFEN of a `position` command is not well formed.
    Sfen(SfenError),
    /// The SFEN is well formed, but not a legal position.
    Position(PositionError),
    /// A token of the move list is not USI move text.
    MoveSyntax {
        /// 1-based index in the move list.
        index: usize,
        /// The token.
        text: String,
    },
    /// A move of the list is not legal where it is played.
    IllegalMove {
        /// 1-based index in the move list.
        index: usize,
        /// The move text.
        text: String,
        /// Why it is illegal.
        reason: IllegalMove,
    },
}

impl fmt::Display for UsiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsiError::Empty => f.write_str("empty line"),
            UsiError::UnknownCommand(c) => write!(f, "unknown command '{}'", shorten(c)),
            UsiError::Malformed { command, reason } => write!(f, "{command}: {reason}"),
            UsiError::Sfen(e) => write!(f, "position rejected: bad SFEN: {e}"),
            UsiError::Position(e) => write!(f, "position rejected: illegal position: {e}"),
            UsiError::MoveSyntax { index, text } => write!(
                f,
                "position rejected: move {index} '{}' is not a USI move",
                shorten(text)
            ),
            UsiError::IllegalMove {
                index,
                text,
                reason,
            } => write!(
                f,
                "position rejected: move {index} '{}' is illegal: {reason}",
                shorten(text)
            ),
        }
    }
}

impl std::error::Error for UsiError {}

impl From<InvalidSfen> for UsiError {
    fn from(e: InvalidSfen) -> Self {
        match e {
            InvalidSfen::Syntax(e) => UsiError::Sfen(e),
            InvalidSfen::Position(e) => UsiError::Position(e),
        }
    }
}

impl UsiError {
    /// Whether this error comes from a `position` command, which it rejects as a whole.
    pub fn rejects_position(&self) -> bool {
        matches!(
            self,
            UsiError::Sfen(_)
                | UsiError::Position(_)
                | UsiError::MoveSyntax { .. }
                | UsiError::IllegalMove { .. }
                | UsiError::Malformed {
                    command: "position",
                    ..
                }
        )
    }
}

/// At most 40 characters of `s`, with `...` when cut: how a line or a word is quoted in a
/// message about it.
pub fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(MAX).collect();
        t.push_str("...");
        t
    }
}

/// Parses one input line (without its line terminator). Tokens are separated by runs of ASCII
/// whitespace; a leading byte-order mark is ignored.
pub fn parse_line(line: &str) -> Result<Command, UsiError> {
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    let tokens = tokenize(line);
    let Some(&(_, head)) = tokens.first() else {
        return Err(UsiError::Empty);
    };
    let args: Vec<&str> = tokens[1..].iter().map(|&(_, t)| t).collect();
    match head {
        "usi" => Ok(Command::Usi),
        "isready" => Ok(Command::IsReady),
        "usinewgame" => Ok(Command::UsiNewGame),
        "setoption" => parse_setoption(line, &tokens[1..]),
        "position" => parse_position(&args).map(Command::Position),
        "go" => parse_go(&args).map(Command::Go),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "gameover" => Ok(Command::GameOver(match args.first().copied() {
            Some("win") => Some(GameResult::Win),
            Some("lose") => Some(GameResult::Loss),
            Some("draw") => Some(GameResult::Draw),
            _ => None,
        })),
        "quit" => Ok(Command::Quit),
        "d" => Ok(Command::Display),
        "side" => Ok(Command::Side),
        "moves" => Ok(Command::Moves),
        "bench" => Ok(Command::Bench {
            ignored: args.join(" "),
        }),
        "debug" | "register" => Ok(Command::Ignored(head.to_string())),
        _ => Err(UsiError::UnknownCommand(head.to_string())),
    }
}

/// The ASCII-whitespace-separated tokens of `line` with their byte offsets.
fn tokenize(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, b) in line.bytes().enumerate() {
        if b.is_ascii_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// `setoption name <name> [value <value>]`: the name is the tokens up to `value` (the `name`
/// keyword may be left out); the value is the rest of the line, spaces included, trimmed.
fn parse_setoption(line: &str, tokens: &[(usize, &str)]) -> Result<Command, UsiError> {
    let tokens = match tokens.first() {
        Some(&(_, "name")) => &tokens[1..],
        _ => tokens,
    };
    let value_at = tokens.iter().position(|&(_, t)| t == "value");
    let name_tokens = &tokens[..value_at.unwrap_or(tokens.len())];
    if name_tokens.is_empty() {
        return Err(UsiError::Malformed {
            command: "setoption",
            reason: "no option name".to_string(),
        });
    }
    let name = name_tokens
        .iter()
        .map(|&(_, t)| t)
        .collect::<Vec<_>>()
        .join(" ");
    let value = value_at.map(|i| {
        let (off, kw) = tokens[i];
        line[off + kw.len()..]
            .trim_matches(|c: char| c.is_ascii_whitespace())
            .to_string()
    });
    Ok(Command::SetOption { name, value })
}

/// `position`: `startpos`, `sfen <3 or 4 fields>` or a bare SFEN, then `moves` and the moves (the
/// `moves` keyword may be missing).
fn parse_position(args: &[&str]) -> Result<PositionCommand, UsiError> {
    let (start, rest) = match args.first().copied() {
        None => {
            return Err(UsiError::Malformed {
                command: "position",
                reason: "expected startpos, sfen <SFEN> or an SFEN after it".to_string(),
            })
        }
        Some("startpos") => (Start::Startpos, &args[1..]),
        Some("sfen") if args.get(1) == Some(&"startpos") => (Start::Startpos, &args[2..]),
        Some("sfen") => parse_sfen_fields(&args[1..])?,
        Some(first) => parse_sfen_fields(args).map_err(|e| match e {
            UsiError::Sfen(e) => UsiError::Malformed {
                command: "position",
                reason: format!(
                    "expected startpos, sfen <SFEN> or an SFEN, not '{}' (bad SFEN: {e})",
                    shorten(first)
                ),
            },
            e => e,
        })?,
    };
    let rest = match rest.first() {
        Some(&"moves") => &rest[1..],
        _ => rest,
    };
    let moves = parse_moves(rest.iter().copied(), 0)?;
    Ok(PositionCommand { start, moves })
}

/// Reads the SFEN fields at the front of `args`: board, side, hands, and the move number if the
/// next token is all digits. Returns the setup and the tokens after it.
fn parse_sfen_fields<'a>(args: &'a [&'a str]) -> Result<(Start, &'a [&'a str]), UsiError> {
    let mut n = args.iter().take(3).take_while(|&&t| t != "moves").count();
    if n == 3
        && args
            .get(3)
            .is_some_and(|t| t.bytes().all(|b| b.is_ascii_digit()))
    {
        n = 4;
    }
    let text = args[..n].join(" ");
    let setup = sfen::parse(&text).map_err(UsiError::Sfen)?;
    Ok((Start::Sfen(Box::new(setup)), &args[n..]))
}

/// The parameters of `go` that take a number.
const GO_NUMBERED: [&str; 10] = [
    "btime",
    "wtime",
    "byoyomi",
    "binc",
    "winc",
    "movetime",
    "depth",
    "nodes",
    "movestogo",
    "rtime",
];

/// Whether `t` is a parameter of `go` (where the words of the one before it end).
fn go_keyword(t: &str) -> bool {
    GO_NUMBERED.contains(&t)
        || matches!(t, "ponder" | "infinite" | "mate" | "perft" | "searchmoves")
}

/// `go` and its parameters, in any order.
fn parse_go(args: &[&str]) -> Result<Go, UsiError> {
    let mut go = Go::default();
    let mut i = 0;
    while i < args.len() {
        let t = args[i];
        i += 1;
        match t {
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "mate" => go.mate = Some(go_mate(args, &mut i)),
            "perft" => match args.get(i).and_then(|t| t.parse::<u32>().ok()) {
                Some(d) => {
                    go.perft = Some(d);
                    i += 1;
                }
                None => {
                    return Err(UsiError::Malformed {
                        command: "go perft",
                        reason: "expected a depth, as in 'go perft 3'".to_string(),
                    })
                }
            },
            t if GO_NUMBERED.contains(&t) => go_number(&mut go, t, args, &mut i),
            // `searchmoves m1 m2 ...`: the moves run to the next keyword.
            "searchmoves" => {
                while let Some(&word) = args.get(i).filter(|&&w| !go_keyword(w)) {
                    match Move::from_usi(word) {
                        Ok(m) => go.searchmoves.push(m),
                        Err(_) => go.problems.push(GoProblem::SearchMove(word.to_string())),
                    }
                    i += 1;
                }
            }
            _ => {
                let mut words = t.to_string();
                while let Some(w) = args.get(i).filter(|&&w| !go_keyword(w)) {
                    words.push(' ');
                    words.push_str(w);
                    i += 1;
                }
                go.problems.push(GoProblem::Unknown(words));
            }
        }
    }
    Ok(go)
}

/// The number at `args[i]`, if it is one.
fn go_arg_number(args: &[&str], i: usize) -> Option<u64> {
    args.get(i).and_then(|t| t.parse::<u64>().ok())
}

/// The limit after `mate` (from `args[*i]`, which it moves past): `infinite`, a number of
/// milliseconds, or nothing (infinite).
fn go_mate(args: &[&str], i: &mut usize) -> MateLimit {
    match args.get(*i).copied() {
        Some("infinite") => {
            *i += 1;
            MateLimit::Infinite
        }
        _ => match go_arg_number(args, *i) {
            Some(ms) => {
                *i += 1;
                MateLimit::Millis(ms)
            }
            None => MateLimit::Infinite,
        },
    }
}

/// The numbered parameter `t` (one of [`GO_NUMBERED`]) with its value at `args[*i]`, into
/// `go`; a value that is not a number is a problem of `go`.
fn go_number(go: &mut Go, t: &str, args: &[&str], i: &mut usize) {
    match go_arg_number(args, *i) {
        Some(v) => {
            *i += 1;
            match t {
                "btime" => go.btime = Some(v),
                "wtime" => go.wtime = Some(v),
                "byoyomi" => go.byoyomi = Some(v),
                "binc" => go.binc = Some(v),
                "winc" => go.winc = Some(v),
                _ => go.limits.push((t.to_string(), v)),
            }
        }
        None => {
            // The bad value is taken with its parameter, unless it is the next one.
            let text = args
                .get(*i)
                .filter(|&&v| !go_keyword(v))
                .map(|v| v.to_string());
            *i += usize::from(text.is_some());
            go.problems.push(GoProblem::BadNumber {
                param: t.to_string(),
                text,
            });
        }
    }
}

#[cfg(test)]
mod tests;

// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
