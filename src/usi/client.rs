//! Driving a USI engine from the GUI's side: its process, its lines with the time each arrived,
//! and the protocol's requests (`usi`, `setoption`, `isready`, `position`, `go`, `stop`,
//! `gameover`, `quit`) with a deadline on every answer.
//!
//! One module for every tool that runs engines: the CSA client's `--engine`, the match runner
//! and the engine checker. A reader thread turns the engine's output into timestamped lines, so
//! a wait never blocks past its deadline and an engine that hangs or dies is told apart from
//! one that is slow. Nothing here judges moves: the callers hold the rules.

use super::message::{parse_engine_line, BestMove, Checkmate, EngineMessage, Info, UsiOption};
use super::{gameover_word, Go};
use crate::{Game, Move, Position, STARTPOS_SFEN};
use log::{debug, info, warn};
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

/// A `position` command that grows with the game: `position startpos` or `position sfen …`,
/// then ` moves` and each move as it is played. GUIs send the whole game every turn; keeping
/// the line makes that one append per ply instead of a rewrite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionLine {
    text: String,
    /// The length of the text without any move (and without ` moves`).
    base: usize,
    /// Where each move's ` <move>` starts.
    ends: Vec<usize>,
}

impl PositionLine {
    /// The line for a game starting at `start` (written `startpos` when it is the standard
    /// start position with move number 1).
    pub fn new(start: &Position) -> PositionLine {
        let sfen = start.to_sfen();
        let text = if sfen == STARTPOS_SFEN {
            "position startpos".to_string()
        } else {
            format!("position sfen {sfen}")
        };
        PositionLine {
            base: text.len(),
            text,
            ends: Vec::new(),
        }
    }

    /// The line for `game`'s start and every move played.
    pub fn from_game(game: &Game) -> PositionLine {
        let mut line = PositionLine::new(game.start());
        game.moves().for_each(|m| line.push(m));
        line
    }

    /// Appends a move.
    pub fn push(&mut self, mv: Move) {
        use std::fmt::Write as _;
        if self.ends.is_empty() {
            self.text.push_str(" moves");
        }
        self.ends.push(self.text.len());
        let _ = write!(self.text, " {mv}");
    }

    /// Takes the last move back.
    pub fn pop(&mut self) {
        if let Some(at) = self.ends.pop() {
            self.text
                .truncate(if self.ends.is_empty() { self.base } else { at });
        }
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The command.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// How to start an engine: the program, its arguments and its working directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program (a path, or a name looked up in `PATH`).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory; `None` keeps ours.
    pub dir: Option<PathBuf>,
}

impl EngineCommand {
    /// Reads a command line: words split as [`split_command`] does; the first is the program.
    /// `None` when there is no word at all.
    pub fn parse(line: &str) -> Option<EngineCommand> {
        let mut words = split_command(line).into_iter();
        Some(EngineCommand {
            program: words.next()?,
            args: words.collect(),
            dir: None,
        })
    }
}

impl fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.program)?;
        self.args.iter().try_for_each(|a| write!(f, " {a}"))
    }
}

/// Splits a command line into words: whitespace separates, single and double quotes group. On
/// Unix a backslash escapes the next character (outside single quotes), as in a shell; on
/// Windows it is an ordinary character, so that `C:\Shogi\engine.exe` and `\\server\share`
/// paths need no doubling.
pub fn split_command(s: &str) -> Vec<String> {
    split_words(s, !cfg!(windows))
}

fn split_words(s: &str, backslash_escapes: bool) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('\''), c) => cur.push(c),
            (_, '\\') if backslash_escapes => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// Where the engine's stderr goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stderr {
    /// To our stderr.
    #[default]
    Inherit,
    /// Nowhere.
    Null,
    /// Into our log, a line at a time (`info` level), prefixed with the engine's label.
    Log,
    /// Into the transcript, beside the stdout lines.
    Transcript,
}

/// How lines sent to the engine end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineEnding {
    /// `\n`, as ShogiHome sends on every platform.
    #[default]
    Lf,
    /// `\r\n`, as Windows GUIs may send.
    CrLf,
}

/// How to run an engine besides its command.
#[derive(Clone, Debug, Default)]
pub struct SpawnOptions {
    /// A short name for the log (`engine` when empty).
    pub label: String,
    /// Where its stderr goes.
    pub stderr: Stderr,
    /// Whether to keep a [`Transcript`] of every line both ways.
    pub transcript: bool,
    /// Start it in a process group of its own (Unix), so that a Ctrl-C in the terminal reaches
    /// only us and we can end its game properly.
    pub own_process_group: bool,
    /// Read the engine's output in the thread that waits for it (Unix: the engine writes into
    /// a socket pair whose read timeout bounds each wait) instead of through a reader thread:
    /// one thread wake-up per line instead of two. For callers that wait on one engine at a
    /// time and count every microsecond per move (the match runner). Lines are timestamped
    /// when read, not when they arrive, and [`UsiClient::drain`] drops only lines already read.
    /// Ignored on other systems and with [`Stderr::Transcript`].
    pub direct_read: bool,
}

/// A line from the engine, with when it arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The text, decoded lossily, without its line terminator (a CR before the LF is dropped).
    pub text: String,
    /// When the reader thread received it.
    pub at: Instant,
}

/// Which way a transcript line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From us to the engine's stdin.
    Sent,
    /// From the engine's stdout.
    Received,
    /// From the engine's stderr (with [`Stderr::Transcript`]).
    Stderr,
}

/// One line of a [`Transcript`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Which way it went.
    pub direction: Direction,
    /// The text.
    pub text: String,
    /// When it was sent or received.
    pub at: Instant,
}

/// Every line exchanged with an engine, in order.
#[derive(Clone, Debug, Default)]
pub struct Transcript {
    entries: Vec<Entry>,
}

impl Transcript {
    /// All lines so far.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The lines from index `from` on, as `> sent`, `< received` and `! stderr` lines.
    pub fn excerpt(&self, from: usize) -> Vec<String> {
        self.entries
            .get(from..)
            .unwrap_or_default()
            .iter()
            .map(|e| {
                let arrow = match e.direction {
                    Direction::Sent => '>',
                    Direction::Received => '<',
                    Direction::Stderr => '!',
                };
                format!("{arrow} {}", e.text)
            })
            .collect()
    }
}

/// Why a request to the engine failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClientError {
    /// The program could not be started.
    Spawn {
        /// The command as given.
        command: String,
        /// Why.
        source: io::Error,
    },
    /// The engine closed its output: it exited or crashed. The exit status, when it has one.
    Exited(Option<ExitStatus>),
    /// Writing to the engine failed: it no longer reads its input.
    Write(io::Error),
    /// No answer in time.
    Timeout {
        /// What we waited for (`usiok`, `readyok`, `bestmove`, …).
        waiting_for: &'static str,
        /// How long.
        after: Duration,
    },
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Spawn { command, source } => {
                write!(f, "cannot start engine '{command}': {source}")
            }
            ClientError::Exited(None) => f.write_str("engine closed its output"),
            ClientError::Exited(Some(status)) => write!(f, "engine exited ({status})"),
            ClientError::Write(e) => write!(f, "cannot write to the engine: {e}"),
            ClientError::Timeout { waiting_for, after } => write!(
                f,
                "no {waiting_for} from the engine within {} ms",
                after.as_millis()
            ),
        }
    }
}

impl std::error::Error for ClientError {}

/// What `usi` told about the engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    /// `id name`.
    pub name: Option<String>,
    /// `id author`.
    pub author: Option<String>,
    /// The options declared, in order.
    pub options: Vec<UsiOption>,
    /// `option` lines a GUI could not read, with the reason.
    pub bad_options: Vec<(String, super::message::OptionError)>,
    /// Any other lines before `usiok`.
    pub other: Vec<String>,
}

impl EngineInfo {
    /// The declared option called `name`, matched without regard to ASCII case (the USI draft
    /// asks for that; GUIs echo the declared spelling).
    pub fn option(&self, name: &str) -> Option<&UsiOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }
}

/// The end of a search: the `bestmove` line and what the `info` lines before it said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move.
    pub best: BestMove,
    /// The `ponder` move's text, if any.
    pub ponder: Option<String>,
    /// The latest depth, nodes, score and PV seen since the `go`.
    pub info: Info,
    /// When the `bestmove` line arrived.
    pub at: Instant,
}

enum Event {
    Line(Line),
    Stderr(Line),
    /// The end of stdout.
    Eof,
    /// The end of stderr (read into the transcript).
    StderrEof,
}

/// Where the engine's output comes from.
enum Input {
    /// A reader thread's channel.
    Thread(Receiver<Event>),
    /// The engine's stdout, read by the waiting thread.
    #[cfg(unix)]
    Direct(DirectReader),
}

/// Reads lines from a socket with a deadline, in the calling thread.
#[cfg(unix)]
struct DirectReader {
    stream: std::os::unix::net::UnixStream,
    /// Bytes read; the unread ones are `buf[start..end]`. It grows only for a line longer than
    /// itself, so reads never zero memory.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// When the bytes in `buf` were read.
    at: Instant,
    /// The read timeout set on the socket.
    timeout: Option<Duration>,
    eof: bool,
}

/// The longest single wait on the socket: a longer wait is a loop of these, so the timeout is
/// set once rather than before every read.
#[cfg(unix)]
const DIRECT_SLICE: Duration = Duration::from_millis(100);

#[cfg(unix)]
impl DirectReader {
    /// Makes room after the unread bytes: moves them to the front, or doubles the buffer when
    /// they fill it.
    fn make_room(&mut self) {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
        }
        if self.end == self.buf.len() {
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
            } else {
                self.buf.resize(self.buf.len() * 2, 0);
            }
        }
    }

    /// The next complete line already read, if any.
    fn buffered_line(&mut self) -> Option<Line> {
        let rest = &self.buf[self.start..self.end];
        let n = rest.iter().position(|&b| b == b'\n')?;
        let mut line = &rest[..n];
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        let text = decode(line);
        self.start += n + 1;
        Some(Line { text, at: self.at })
    }

    /// The next line by `deadline` (`None`: only a line read already): `Ok(None)` at the
    /// deadline, `Err(())` at the end of the output (a last line without its newline is still
    /// returned first).
    fn next_line(&mut self, deadline: Option<Instant>) -> Result<Option<Line>, ()> {
        use std::io::Read as _;
        loop {
            if let Some(line) = self.buffered_line() {
                return Ok(Some(line));
            }
            if self.eof {
                if self.start < self.end {
                    self.make_room();
                    self.buf[self.end] = b'\n';
                    self.end += 1;
                    continue;
                }
                return Err(());
            }
            // Without a deadline: only what has been read already (no system call).
            let Some(deadline) = deadline else {
                return Ok(None);
            };
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(None);
            }
            // Whole 10 ms steps (a wait may end up to 10 ms past the deadline): the timeout
            // then rarely changes, and setting it is a system call.
            let wait = Duration::from_millis(
                (left.min(DIRECT_SLICE).as_millis() as u64)
                    .div_ceil(10)
                    .max(1)
                    * 10,
            );
            if self.timeout != Some(wait) {
                // A failure leaves the old timeout: the loop still ends at the deadline.
                if self.stream.set_read_timeout(Some(wait)).is_ok() {
                    self.timeout = Some(wait);
                }
            }
            self.make_room();
            match self.stream.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.end += n;
                    self.at = Instant::now();
                }
                Err(e) => match e.kind() {
                    io::ErrorKind::WouldBlock
                    | io::ErrorKind::TimedOut
                    | io::ErrorKind::Interrupted => {}
                    _ => self.eof = true,
                },
            }
        }
    }
}

/// A running USI engine.
pub struct UsiClient {
    child: Child,
    stdin: io::BufWriter<ChildStdin>,
    input: Input,
    label: String,
    line_ending: LineEnding,
    transcript: Option<Transcript>,
    /// The output has ended: every further wait fails at once.
    closed: bool,
    /// Stderr is read into the transcript and has not ended yet.
    stderr_open: bool,
    /// `info` seen since the last `go`.
    info: Info,
}

impl fmt::Debug for UsiClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UsiClient")
            .field("label", &self.label)
            .field("pid", &self.child.id())
            .finish_non_exhaustive()
    }
}

/// A line's text: UTF-8 as is (the fast check for the ASCII engines write), anything else
/// decoded lossily.
fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// Reads `from` line by line into `tx` until it ends; `wrap` tags each line, `end` follows the
/// last.
fn pump(from: impl Read, tx: Sender<Event>, wrap: fn(Line) -> Event, end: Event) {
    let mut r = BufReader::new(from);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match r.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let at = Instant::now();
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                }
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                let text = decode(&buf);
                if tx.send(wrap(Line { text, at })).is_err() {
                    return;
                }
            }
        }
    }
    let _ = tx.send(end);
}

impl UsiClient {
    /// Starts the engine. Nothing is sent yet: see [`UsiClient::handshake`].
    pub fn spawn(
        command: &EngineCommand,
        options: &SpawnOptions,
    ) -> Result<UsiClient, ClientError> {
        let mut cmd = Command::new(&command.program);
        #[cfg(unix)]
        let direct = if options.direct_read && options.stderr != Stderr::Transcript {
            let (ours, theirs) =
                std::os::unix::net::UnixStream::pair().map_err(|source| ClientError::Spawn {
                    command: command.to_string(),
                    source,
                })?;
            cmd.stdout(Stdio::from(std::os::fd::OwnedFd::from(theirs)));
            Some(ours)
        } else {
            cmd.stdout(Stdio::piped());
            None
        };
        #[cfg(not(unix))]
        cmd.stdout(Stdio::piped());
        cmd.args(&command.args)
            .stdin(Stdio::piped())
            .stderr(match options.stderr {
                Stderr::Inherit => Stdio::inherit(),
                Stderr::Null => Stdio::null(),
                Stderr::Log | Stderr::Transcript => Stdio::piped(),
            });
        if let Some(dir) = &command.dir {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        if options.own_process_group {
            std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        }
        let mut child = cmd.spawn().map_err(|source| ClientError::Spawn {
            command: command.to_string(),
            source,
        })?;
        let label = if options.label.is_empty() {
            "engine".to_string()
        } else {
            options.label.clone()
        };
        let (tx, rx) = mpsc::channel();
        #[cfg(unix)]
        let input = match direct {
            Some(stream) => Input::Direct(DirectReader {
                stream,
                buf: vec![0; 8192],
                start: 0,
                end: 0,
                at: Instant::now(),
                timeout: None,
                eof: false,
            }),
            None => {
                let stdout = child.stdout.take().expect("stdout is piped");
                let out_tx = tx.clone();
                std::thread::spawn(move || pump(stdout, out_tx, Event::Line, Event::Eof));
                Input::Thread(rx)
            }
        };
        #[cfg(not(unix))]
        let input = {
            let stdout = child.stdout.take().expect("stdout is piped");
            let out_tx = tx.clone();
            std::thread::spawn(move || pump(stdout, out_tx, Event::Line, Event::Eof));
            Input::Thread(rx)
        };
        if let Some(stderr) = child.stderr.take() {
            if options.stderr == Stderr::Transcript {
                std::thread::spawn(move || pump(stderr, tx, Event::Stderr, Event::StderrEof));
            } else {
                let label = label.clone();
                std::thread::spawn(move || {
                    for line in BufReader::new(stderr).split(b'\n') {
                        let Ok(line) = line else { break };
                        info!(
                            "{label} stderr: {}",
                            String::from_utf8_lossy(&line).trim_end()
                        );
                    }
                });
            }
        }
        let stdin = io::BufWriter::new(child.stdin.take().expect("stdin is piped"));
        debug!("{label}: started '{command}' (pid {})", child.id());
        Ok(UsiClient {
            child,
            stdin,
            input,
            label,
            line_ending: LineEnding::Lf,
            transcript: options.transcript.then(Transcript::default),
            closed: false,
            stderr_open: options.stderr == Stderr::Transcript,
            info: Info::default(),
        })
    }

    /// The label used in the log.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Renames the engine in the log (for example to its `id name`).
    pub fn set_label(&mut self, label: &str) {
        self.label = label.to_string();
    }

    /// The operating system's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Ends the lines we send with `ending` from now on.
    pub fn set_line_ending(&mut self, ending: LineEnding) {
        self.line_ending = ending;
    }

    /// The transcript, when it is kept.
    pub fn transcript(&self) -> Option<&Transcript> {
        self.transcript.as_ref()
    }

    /// The number of transcript lines so far (0 when none is kept): a mark for
    /// [`Transcript::excerpt`].
    pub fn transcript_len(&self) -> usize {
        self.transcript.as_ref().map_or(0, |t| t.entries.len())
    }

    fn record(&mut self, direction: Direction, text: &str, at: Instant) {
        if let Some(t) = &mut self.transcript {
            t.entries.push(Entry {
                direction,
                text: text.to_string(),
                at,
            });
        }
    }

    /// Sends one line (the line ending is added) and flushes it.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        self.send_lines(&[line])
    }

    /// Sends lines (each with its line ending) and flushes them together: one write to the
    /// pipe instead of one per line.
    pub fn send_lines(&mut self, lines: &[&str]) -> Result<(), ClientError> {
        let ending = match self.line_ending {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        };
        for line in lines {
            debug!("{}> {line}", self.label);
            self.record(Direction::Sent, line, Instant::now());
            self.stdin
                .write_all(line.as_bytes())
                .and_then(|_| self.stdin.write_all(ending.as_bytes()))
                .map_err(ClientError::Write)?;
        }
        self.stdin.flush().map_err(ClientError::Write)
    }

    /// The exit status once the process has ended, without waiting.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        self.exit_status().is_none()
    }

    /// The error for an engine whose output has ended: its exit status if it arrives soon.
    fn exited(&mut self) -> ClientError {
        if !self.closed {
            self.closed = true;
            self.collect_stderr();
        }
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            if let Some(status) = self.exit_status() {
                return ClientError::Exited(Some(status));
            }
            if Instant::now() >= until {
                return ClientError::Exited(None);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Waits briefly for the rest of the engine's stderr (with [`Stderr::Transcript`]): it ends
    /// with the process, and a crash's last words belong in the transcript.
    fn collect_stderr(&mut self) {
        let until = Instant::now() + Duration::from_millis(200);
        while self.stderr_open {
            let Input::Thread(rx) = &self.input else {
                return;
            };
            match rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok(Event::Stderr(line)) => self.record(Direction::Stderr, &line.text, line.at),
                Ok(Event::StderrEof) | Err(_) => self.stderr_open = false,
                Ok(_) => {}
            }
        }
    }

    fn take(&mut self, event: Event) -> Result<Option<Line>, ClientError> {
        match event {
            Event::Line(line) => {
                debug!("{}< {}", self.label, line.text);
                self.record(Direction::Received, &line.text, line.at);
                Ok(Some(line))
            }
            Event::Stderr(line) => {
                self.record(Direction::Stderr, &line.text, line.at);
                Ok(None)
            }
            Event::StderrEof => {
                self.stderr_open = false;
                Ok(None)
            }
            Event::Eof => Err(self.exited()),
        }
    }

    /// The next line, or `None` once `deadline` has passed; an error when the engine's output
    /// has ended.
    pub fn recv(&mut self, deadline: Instant) -> Result<Option<Line>, ClientError> {
        self.next(Some(deadline))
    }

    /// A line that has already arrived, if any.
    pub fn try_recv(&mut self) -> Result<Option<Line>, ClientError> {
        self.next(None)
    }

    /// The next line by `deadline`, or one already there (`None`).
    fn next(&mut self, deadline: Option<Instant>) -> Result<Option<Line>, ClientError> {
        if self.closed {
            return Err(self.exited());
        }
        loop {
            let event = match &mut self.input {
                Input::Thread(rx) => match deadline {
                    Some(d) => match rx.recv_timeout(d.saturating_duration_since(Instant::now())) {
                        Ok(e) => e,
                        Err(RecvTimeoutError::Timeout) => return Ok(None),
                        Err(RecvTimeoutError::Disconnected) => Event::Eof,
                    },
                    None => match rx.try_recv() {
                        Ok(e) => e,
                        Err(TryRecvError::Empty) => return Ok(None),
                        Err(TryRecvError::Disconnected) => Event::Eof,
                    },
                },
                #[cfg(unix)]
                Input::Direct(r) => match r.next_line(deadline) {
                    Ok(Some(line)) => Event::Line(line),
                    Ok(None) => return Ok(None),
                    Err(()) => Event::Eof,
                },
            };
            if let Some(line) = self.take(event)? {
                return Ok(Some(line));
            }
        }
    }

    /// Reads lines until one parses to a message that `want` accepts, by `deadline`.
    fn wait_for<T>(
        &mut self,
        waiting_for: &'static str,
        timeout: Duration,
        mut want: impl FnMut(&str, EngineMessage) -> Option<T>,
    ) -> Result<T, ClientError> {
        let deadline = Instant::now() + timeout;
        loop {
            let Some(line) = self.recv(deadline)? else {
                return Err(ClientError::Timeout {
                    waiting_for,
                    after: timeout,
                });
            };
            if let Some(t) = want(&line.text, parse_engine_line(&line.text)) {
                return Ok(t);
            }
        }
    }

    /// `usi` … `usiok`: the engine's name, author and options. The label becomes the `id name`
    /// when it was empty.
    pub fn handshake(&mut self, timeout: Duration) -> Result<EngineInfo, ClientError> {
        self.send("usi")?;
        let mut found = EngineInfo::default();
        self.wait_for("usiok", timeout, |line, msg| {
            match msg {
                EngineMessage::UsiOk => return Some(()),
                EngineMessage::IdName(n) => found.name = Some(n),
                EngineMessage::IdAuthor(a) => found.author = Some(a),
                EngineMessage::Option(Ok(o)) => found.options.push(o),
                EngineMessage::Option(Err(e)) => found.bad_options.push((line.to_string(), e)),
                EngineMessage::Other(l) => found.other.push(l),
                _ => {}
            }
            None
        })?;
        Ok(found)
    }

    /// `setoption name <name> [value <value>]` (no `value` for a button press).
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), ClientError> {
        match value {
            Some(v) => self.send(&format!("setoption name {name} value {v}")),
            None => self.send(&format!("setoption name {name}")),
        }
    }

    /// `isready` … `readyok`.
    pub fn is_ready(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send("isready")?;
        self.wait_for("readyok", timeout, |_, msg| {
            (msg == EngineMessage::ReadyOk).then_some(())
        })
    }

    /// Sends `go`; the search's `info` is collected from here on. Returns the instant just before
    /// the write: a quick engine's `bestmove` may be read (and stamped) before the write call
    /// returns, and its time must not come out negative.
    pub fn go(&mut self, go: &Go) -> Result<Instant, ClientError> {
        self.info = Info::default();
        let sent = Instant::now();
        self.send(&go.to_string())?;
        Ok(sent)
    }

    /// Sends `position` and `go` in one write (as [`UsiClient::go`] does for `go` alone): the
    /// way to start each move of a game with the least work per ply.
    pub fn go_from(&mut self, position: &PositionLine, go: &Go) -> Result<Instant, ClientError> {
        self.info = Info::default();
        let sent = Instant::now();
        self.send_lines(&[position.as_str(), &go.to_string()])?;
        Ok(sent)
    }

    /// Waits for `bestmove` until `deadline`: `None` when it has not come by then (the search
    /// goes on; call again, or [`stop`](UsiClient::stop) it). `info` lines on the way are kept
    /// in the result.
    pub fn wait_bestmove(
        &mut self,
        deadline: Instant,
    ) -> Result<Option<SearchResult>, ClientError> {
        loop {
            let Some(line) = self.recv(deadline)? else {
                return Ok(None);
            };
            match parse_engine_line(&line.text) {
                EngineMessage::Info(i) => self.info.update(i),
                EngineMessage::BestMove { best, ponder } => {
                    return Ok(Some(SearchResult {
                        best,
                        ponder,
                        info: std::mem::take(&mut self.info),
                        at: line.at,
                    }))
                }
                _ => {}
            }
        }
    }

    /// Waits for the `checkmate` answer of a `go mate` until `deadline`.
    pub fn wait_checkmate(&mut self, deadline: Instant) -> Result<Option<Checkmate>, ClientError> {
        loop {
            let Some(line) = self.recv(deadline)? else {
                return Ok(None);
            };
            if let EngineMessage::Checkmate(c) = parse_engine_line(&line.text) {
                return Ok(Some(c));
            }
        }
    }

    /// `stop`.
    pub fn stop(&mut self) -> Result<(), ClientError> {
        self.send("stop")
    }

    /// `ponderhit`.
    pub fn ponderhit(&mut self) -> Result<(), ClientError> {
        self.send("ponderhit")
    }

    /// `gameover win|lose|draw`.
    pub fn gameover(&mut self, result: crate::GameResult) -> Result<(), ClientError> {
        self.send(&format!("gameover {}", gameover_word(result)))
    }

    /// Drops every line that has arrived but not been read (a late answer of an earlier
    /// search, say).
    pub fn drain(&mut self) -> Result<(), ClientError> {
        while let Some(line) = self.try_recv()? {
            debug!("{}: dropped '{}'", self.label, line.text);
        }
        Ok(())
    }

    /// Sends `quit` and waits up to `grace` for the process to end, then kills it. Returns the
    /// exit status, or `None` when it had to be killed.
    pub fn quit(&mut self, grace: Duration) -> Option<ExitStatus> {
        if let Some(status) = self.exit_status() {
            return Some(status);
        }
        let _ = self.send("quit");
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Some(status) = self.exit_status() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        warn!(
            "{}: no exit within {} ms of quit: killing it",
            self.label,
            grace.as_millis()
        );
        self.kill();
        None
    }

    /// Kills the process and reaps it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.closed = true;
    }
}

impl Drop for UsiClient {
    fn drop(&mut self) {
        if self.exit_status().is_none() {
            self.quit(Duration::from_millis(500));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_words() {
        assert_eq!(split_command("engine -x 1"), vec!["engine", "-x", "1"]);
        assert_eq!(
            split_command(r#"'/opt/my engine/run' --name "a b" c\ d"#),
            vec!["/opt/my engine/run", "--name", "a b", "c d"]
        );
        assert_eq!(split_command("  "), Vec::<String>::new());
        assert_eq!(split_command("x ''"), vec!["x", ""]);
        // Windows paths: backslashes are kept, quotes still group.
        assert_eq!(
            split_words(r#""C:\Program Files\e.exe" -x \\srv\share\eval"#, false),
            vec![r"C:\Program Files\e.exe", "-x", r"\\srv\share\eval"]
        );
        assert_eq!(
            split_words(r"C:\Shogi\engine.exe", true),
            vec!["C:Shogiengine.exe"]
        );
        let c = EngineCommand::parse("'./my engine' --threads 2").unwrap();
        assert_eq!(c.program, "./my engine");
        assert_eq!(c.args, vec!["--threads", "2"]);
        assert_eq!(EngineCommand::parse(" "), None);
    }

    #[test]
    fn position_lines_as_guis_send_them() {
        let mut line = PositionLine::new(&Position::startpos());
        assert_eq!(line.as_str(), "position startpos");
        line.push(Move::from_usi("7g7f").unwrap());
        line.push(Move::from_usi("3c3d").unwrap());
        assert_eq!(line.as_str(), "position startpos moves 7g7f 3c3d");
        assert_eq!(line.len(), 2);
        line.pop();
        assert_eq!(line.as_str(), "position startpos moves 7g7f");
        line.pop();
        assert_eq!(line.as_str(), "position startpos");
        assert!(line.is_empty());
        line.pop();
        assert_eq!(line.as_str(), "position startpos");

        let mut game = Game::new(Position::from_sfen("8k/9/9/9/9/9/9/9/K8 w G 1").unwrap());
        game.play(Move::from_usi("1a2a").unwrap());
        assert_eq!(
            PositionLine::from_game(&game).as_str(),
            "position sfen 8k/9/9/9/9/9/9/9/K8 w G 1 moves 1a2a"
        );
        // The standard start later in a game (move number 5) is not `startpos`.
        let later = Position::from_sfen(&STARTPOS_SFEN.replace(" 1", " 5")).unwrap();
        assert!(PositionLine::new(&later)
            .as_str()
            .starts_with("position sfen "));
    }

    #[test]
    fn transcript_excerpts() {
        let at = Instant::now();
        let t = Transcript {
            entries: vec![
                Entry {
                    direction: Direction::Sent,
                    text: "usi".into(),
                    at,
                },
                Entry {
                    direction: Direction::Received,
                    text: "usiok".into(),
                    at,
                },
                Entry {
                    direction: Direction::Stderr,
                    text: "loading".into(),
                    at,
                },
            ],
        };
        assert_eq!(t.excerpt(0), vec!["> usi", "< usiok", "! loading"]);
        assert_eq!(t.excerpt(2), vec!["! loading"]);
        assert!(t.excerpt(9).is_empty());
    }
}
