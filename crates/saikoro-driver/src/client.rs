//! Speaking USI to an engine from the GUI's side: the protocol's requests (`usi`,
//! `setoption`, `isready`, `position`, `go`, `stop`, `gameover`, `quit`), each with a
//! deadline, over the [`EngineProcess`] that runs it, and an optional [`Transcript`] of every
//! line both ways.
//!
//! One client for every tool that runs engines: the CSA client's `--engine`, the match runner
//! and the engine checker; [`crate::session`] starts an engine for them. Nothing here judges
//! moves: the callers hold the rules.

use crate::process::{EngineProcess, Next};
pub use crate::process::{Line, Stderr};
pub use crate::transcript::{Direction, Transcript};
use crate::EngineCommand;
use log::{debug, warn};
use saikoro_usi::{gameover_word, Go, PositionLine};
use saikoro_usi::{parse_engine_line, BestMove, Checkmate, EngineMessage, Info, UsiOption};
use std::fmt;
use std::io;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

/// How long a write may wait for an engine that does not read its input (its pipe is full)
/// before the engine counts as no longer reading.
pub const WRITE_LIMIT: Duration = Duration::from_secs(10);

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
    /// Whether to keep a [`Transcript`] of every line both ways (with [`Stderr::Keep`], the
    /// stderr lines too).
    pub transcript: bool,
}

/// Why a request to the engine failed.
#[derive(Debug)]
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
    pub bad_options: Vec<(String, saikoro_usi::OptionError)>,
    /// Any other lines before `usiok`.
    pub other: Vec<String>,
    /// How long after `usi` the `usiok` came.
    pub answered_in: Duration,
}

impl EngineInfo {
    /// The declared option called `name`, matched without regard to ASCII case (the USI draft
    /// asks for that; GUIs echo the declared spelling) nor to how many spaces part the words
    /// of a name with spaces (`Skill Level`, as the engine reads `setoption` back).
    pub fn option(&self, name: &str) -> Option<&UsiOption> {
        self.options.iter().find(|o| same_name(&o.name, name))
    }
}

/// Whether two option names are the same to an engine that reads `setoption name A B value …`
/// word by word: the same words, without regard to ASCII case.
fn same_name(a: &str, b: &str) -> bool {
    let (mut a, mut b) = (a.split_ascii_whitespace(), b.split_ascii_whitespace());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x.eq_ignore_ascii_case(y) => {}
            _ => return false,
        }
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

/// A running USI engine.
pub struct UsiClient {
    process: EngineProcess,
    line_ending: LineEnding,
    transcript: Option<Transcript>,
    /// Stderr lines read after the last transcript line, for the transcript.
    stderr_later: Vec<Line>,
    /// `info` seen since the last `go`.
    info: Info,
}

impl fmt::Debug for UsiClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UsiClient")
            .field("label", &self.process.label())
            .field("pid", &self.process.pid())
            .finish_non_exhaustive()
    }
}

impl UsiClient {
    /// Starts the engine. Nothing is sent yet: see [`UsiClient::handshake`], or
    /// [`crate::EngineSession::start`] for the whole start-up.
    pub fn spawn(
        command: &EngineCommand,
        options: &SpawnOptions,
    ) -> Result<UsiClient, ClientError> {
        let label = if options.label.is_empty() {
            "engine"
        } else {
            &options.label
        };
        let process = EngineProcess::spawn(command, label, options.stderr).map_err(|source| {
            ClientError::Spawn {
                command: command.to_string(),
                source,
            }
        })?;
        Ok(UsiClient {
            process,
            line_ending: LineEnding::Lf,
            transcript: options.transcript.then(Transcript::default),
            stderr_later: Vec::new(),
            info: Info::default(),
        })
    }

    /// The label used in the log.
    pub fn label(&self) -> &str {
        self.process.label()
    }

    /// Renames the engine in the log (for example to its `id name`).
    pub fn set_label(&mut self, label: &str) {
        self.process.set_label(label);
    }

    /// The operating system's process id.
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// Ends the lines we send with `ending` from now on.
    pub fn set_line_ending(&mut self, ending: LineEnding) {
        self.line_ending = ending;
    }

    /// The transcript, when it is kept (with every stderr line that has arrived).
    pub fn transcript(&mut self) -> Option<&Transcript> {
        self.take_stderr(None);
        self.transcript.as_ref()
    }

    /// The number of transcript lines so far (0 when none is kept): a mark for
    /// [`Transcript::excerpt`].
    pub fn transcript_len(&mut self) -> usize {
        self.take_stderr(None);
        self.transcript.as_ref().map_or(0, Transcript::len)
    }

    /// The last lines the engine wrote to its stderr, when it is read by us.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.process.stderr_tail()
    }

    /// Copies the stderr lines that arrived (before `until`, when given; the later ones wait
    /// for the next line recorded) into the transcript.
    fn take_stderr(&mut self, until: Option<Instant>) {
        let Some(t) = &mut self.transcript else {
            return;
        };
        self.stderr_later.extend(self.process.take_stderr());
        let now = self
            .stderr_later
            .iter()
            .take_while(|l| until.is_none_or(|u| l.at <= u))
            .count();
        for line in self.stderr_later.drain(..now) {
            t.push(Direction::Stderr, &line.text, line.at);
        }
    }

    fn record(&mut self, direction: Direction, text: &str, at: Instant) {
        if self.transcript.is_some() {
            self.take_stderr(Some(at));
            if let Some(t) = &mut self.transcript {
                t.push(direction, text, at);
            }
        }
    }

    /// Sends one line (the line ending is added) and flushes it.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        self.send_lines(&[line])
    }

    /// Sends lines (each with its line ending) in one write: one system call instead of one
    /// per line.
    pub fn send_lines(&mut self, lines: &[&str]) -> Result<(), ClientError> {
        let ending = match self.line_ending {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        };
        let mut bytes = Vec::with_capacity(lines.iter().map(|l| l.len() + 2).sum());
        let at = Instant::now();
        for line in lines {
            debug!("{}> {line}", self.process.label());
            self.record(Direction::Sent, line, at);
            bytes.extend_from_slice(line.as_bytes());
            bytes.extend_from_slice(ending.as_bytes());
        }
        match self.process.write(&bytes, Instant::now() + WRITE_LIMIT) {
            Ok(()) => Ok(()),
            // The pipe is closed because the engine is gone: say so (its exit status and its
            // stderr's last words), not that it stopped reading.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe && self.has_exited() => {
                Err(self.exited())
            }
            Err(e) => Err(ClientError::Write(e)),
        }
    }

    /// Whether the process has ended, waiting a moment for the exit to be reported.
    fn has_exited(&mut self) -> bool {
        self.process.wait_exit(Duration::from_millis(200)).is_some()
    }

    /// The exit status once the process has ended, without waiting.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        self.process.exit_status()
    }

    /// The exit status, waiting up to `within` for the process to end.
    pub fn wait_exit(&mut self, within: Duration) -> Option<ExitStatus> {
        self.process.wait_exit(within)
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        self.exit_status().is_none()
    }

    /// The error for an engine whose output has ended: its exit status if it comes soon, with
    /// the rest of its stderr (a crash's last words) read.
    fn exited(&mut self) -> ClientError {
        self.process.wait_stderr(Duration::from_millis(200));
        ClientError::Exited(self.process.wait_exit(Duration::from_millis(200)))
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

    fn next(&mut self, deadline: Option<Instant>) -> Result<Option<Line>, ClientError> {
        match self.process.read_line(deadline) {
            Next::Line(line) => {
                debug!("{}< {}", self.process.label(), line.text);
                self.record(Direction::Received, &line.text, line.at);
                Ok(Some(line))
            }
            Next::Nothing => Ok(None),
            Next::End => Err(self.exited()),
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

    /// `usi` … `usiok`: the engine's name, author and options.
    pub fn handshake(&mut self, timeout: Duration) -> Result<EngineInfo, ClientError> {
        self.send("usi")?;
        let sent = Instant::now();
        let mut found = EngineInfo::default();
        self.wait_for("usiok", timeout, |line, msg| {
            match msg {
                EngineMessage::UsiOk => return Some(sent.elapsed()),
                EngineMessage::IdName(n) => found.name = Some(n),
                EngineMessage::IdAuthor(a) => found.author = Some(a),
                EngineMessage::Option(Ok(o)) => found.options.push(o),
                EngineMessage::Option(Err(e)) => found.bad_options.push((line.to_string(), e)),
                EngineMessage::Other(l) => found.other.push(l),
                _ => {}
            }
            None
        })
        .map(|took| {
            found.answered_in = took;
            found
        })
    }

    /// `setoption name <name> [value <value>]` (no `value` for a button press).
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), ClientError> {
        match value {
            Some(v) => self.send(&format!("setoption name {name} value {v}")),
            None => self.send(&format!("setoption name {name}")),
        }
    }

    /// `isready` … `readyok`: how long it took.
    pub fn is_ready(&mut self, timeout: Duration) -> Result<Duration, ClientError> {
        self.send("isready")?;
        let sent = Instant::now();
        self.wait_for("readyok", timeout, |_, msg| {
            (msg == EngineMessage::ReadyOk).then(|| sent.elapsed())
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

    /// `stop`, then the search's `bestmove` within `grace`: a timeout (`bestmove after stop`)
    /// when none comes, and the engine is then hung (callers kill it).
    pub fn stop_and_wait(&mut self, grace: Duration) -> Result<SearchResult, ClientError> {
        self.stop()?;
        let deadline = Instant::now() + grace;
        self.wait_bestmove(deadline)?.ok_or(ClientError::Timeout {
            waiting_for: "bestmove after stop",
            after: grace,
        })
    }

    /// `ponderhit`.
    pub fn ponderhit(&mut self) -> Result<(), ClientError> {
        self.send("ponderhit")
    }

    /// `gameover win|lose|draw`.
    pub fn gameover(&mut self, result: saikoro_core::GameResult) -> Result<(), ClientError> {
        self.send(&format!("gameover {}", gameover_word(result)))
    }

    /// Drops every line that has arrived but not been read (a late answer of an earlier
    /// search, say).
    pub fn drain(&mut self) -> Result<(), ClientError> {
        while let Some(line) = self.try_recv()? {
            debug!("{}: dropped '{}'", self.process.label(), line.text);
        }
        Ok(())
    }

    /// Sends `quit` and waits up to `grace` for the process to end, then kills it (and its
    /// process group). Returns the exit status, or `None` when it had to be killed.
    pub fn quit(&mut self, grace: Duration) -> Option<ExitStatus> {
        if let Some(status) = self.exit_status() {
            return Some(status);
        }
        // An engine that no longer reads gets no `quit`, only the kill.
        if self.send("quit").is_ok() {
            if let Some(status) = self.process.wait_exit(grace) {
                return Some(status);
            }
        }
        warn!(
            "{}: no exit within {} ms of quit: killing it",
            self.process.label(),
            grace.as_millis()
        );
        self.kill();
        None
    }

    /// Kills the process (and its process group) and reaps it.
    pub fn kill(&mut self) {
        self.process.kill();
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
    use saikoro_usi::OptionKind;

    /// `option.skill level=3` and `option.Skill  Level=3` name Fairy-Stockfish's `Skill Level`;
    /// `SkillLevel` and `Skill` do not.
    #[test]
    fn an_option_is_found_by_its_words() {
        let info = EngineInfo {
            options: vec![UsiOption {
                name: "Skill Level".into(),
                kind: OptionKind::Spin {
                    default: 20,
                    min: -20,
                    max: 20,
                },
            }],
            ..EngineInfo::default()
        };
        for name in [
            "Skill Level",
            "skill level",
            "Skill  Level",
            " Skill Level ",
        ] {
            assert_eq!(
                info.option(name).map(|o| o.name.as_str()),
                Some("Skill Level"),
                "{name}"
            );
        }
        for name in ["SkillLevel", "Skill", "Skill Level Two", ""] {
            assert!(info.option(name).is_none(), "{name}");
        }
    }
}
