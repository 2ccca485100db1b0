//! `saikoro [usi]`: the USI engine on stdin/stdout.
//!
//! Input is bytes: lines end at LF; a CR before it (or anywhere) also ends a line; each line is
//! decoded lossily, so Shift_JIS from Windows GUIs never stops the reading. End of input acts
//! as `quit` after emitting a pending `bestmove` (or what a running `go perft` has counted).
//! Each output line is flushed; a closed stdout (broken pipe) ends the engine quietly.
//!
//! Stdin is read on the thread that answers, one line after the other: an ordinary command
//! never waits on another thread. Only while `go perft` or `bench` counts does a reader thread
//! take over stdin ([`Reader`]), to serve `stop` and `isready` at once and keep the other lines
//! for after the count; it hands stdin back with the first line it reads after the count.

use super::flags::{self, Doc, Flag, Step, Takes};
use saikoro_engine::{Alongside, Engine, Flow};
use saikoro_usi::{parse_line, Command};
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;

const HELP: &str = "\
Usage: saikoro [usi] [--log-file FILE]

Runs the USI engine on stdin/stdout. Logs are off by default; RUST_LOG=debug sends them to
stderr, --log-file (or the LogFile option) appends them to FILE.
";

/// Runs the USI engine.
pub fn main(args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    let Some(log_file) = parse(args).map_err(|e| super::usage("", e))? else {
        return Ok(ExitCode::SUCCESS);
    };
    super::init_logging(log_file.as_deref(), log::LevelFilter::Off)?;
    let engine = Engine::new().with_log_switch(Box::new(super::set_log_file));
    match run(engine, io::stdout()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            log::info!("stdout closed: exiting");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            log::error!("cannot write to stdout: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// Every flag of the engine (the help is prose: it names them).
const FLAGS: &[Flag<Option<PathBuf>>] = &[
    Flag::new(
        "log-file",
        Takes::Value("FILE"),
        Doc::Hidden,
        |log_file, v| {
            *log_file = Some(v.path());
            Ok(())
        },
    ),
    Flag::new("help", Takes::Help, Doc::Hidden, flags::no_setting).short('h'),
];

/// The log file to use (`Some(None)`: none), or `None` after `--help`.
fn parse(args: Vec<OsString>) -> anyhow::Result<Option<Option<PathBuf>>> {
    let mut log_file: Option<PathBuf> = None;
    let mut parser = flags::Lexer::new(args);
    while let Some(step) = flags::next(&mut parser, FLAGS, &mut log_file)? {
        match step {
            Step::Flag(_) => {}
            Step::Help | Step::Version => {
                print!("{HELP}");
                return Ok(None);
            }
            Step::Positional(v) => return Err(flags::ArgError::UnexpectedArgument(v).into()),
        }
    }
    Ok(Some(log_file))
}

/// The read–answer loop over stdin. Returns on `quit`, end of input, or an output error.
///
/// `out` must not hold stdout's lock between writes (pass `io::stdout()`, not a lock): the
/// reader thread writes `readyok` to stdout while a count runs.
pub fn run(engine: Engine, mut out: impl Write) -> io::Result<()> {
    let mut input = Input::new();
    let mut engine = engine.with_alongside(Box::new(input.alongside()));
    while let Some(line) = input.next_line() {
        if engine.handle_line(&line, &mut out)? == Flow::Quit {
            return Ok(());
        }
    }
    engine.finish(&mut out)
}

/// A raw input line: the bytes up to LF (without it), or the end of input.
enum Raw {
    Line(Vec<u8>),
    End,
}

/// Reads one raw line from `input`; a read error counts as the end of input.
fn read_raw(input: &mut impl BufRead, buf: &mut Vec<u8>) -> Raw {
    buf.clear();
    loop {
        match input.read_until(b'\n', buf) {
            Ok(0) => return Raw::End,
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("cannot read stdin ({e}): treating it as the end of input");
                return Raw::End;
            }
        }
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    }
    Raw::Line(std::mem::take(buf))
}

/// The lines of a raw line: a CR also ends a line (CRLF from Shogidokoro and ShogiGUI), and
/// the empty parts are dropped (they would only put blank `<` lines into the log). Decoded
/// lossily: Shift_JIS never stops the reading. (A CR is never inside a UTF-8 sequence, so
/// decoding before splitting gives the same lines; the check of valid UTF-8 comes first
/// because it is several times faster than the lossy decoder on a 20 kB `position` line.)
fn split_lines(raw: &[u8]) -> Vec<String> {
    let text = match std::str::from_utf8(raw) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(raw),
    };
    text.split('\r')
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}

/// What the answering thread and the reader thread share.
#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Signalled when the reader queues a line or ends.
    queued: Condvar,
}

#[derive(Default)]
struct State {
    /// The stop flag of the count running, if one runs.
    counting: Option<Arc<AtomicBool>>,
    /// Lines the reader has read for the answering thread, in order; `None` is the end of
    /// input.
    lines: VecDeque<Option<String>>,
    /// Whether a reader thread owns stdin.
    reading: bool,
}

fn lock(shared: &Shared) -> MutexGuard<'_, State> {
    shared.state.lock().unwrap_or_else(|e| e.into_inner())
}

/// The engine's input: read directly on the answering thread, except after a count began
/// until the reader thread hands stdin back.
struct Input {
    shared: Arc<Shared>,
    /// The lines of the last raw line read directly, not yet given out.
    split: VecDeque<String>,
    buf: Vec<u8>,
    ended: bool,
}

impl Input {
    fn new() -> Input {
        Input {
            shared: Arc::default(),
            split: VecDeque::new(),
            buf: Vec::new(),
            ended: false,
        }
    }

    /// What the engine calls when a count begins and ends.
    fn alongside(&self) -> Reader {
        Reader {
            shared: Arc::clone(&self.shared),
        }
    }

    /// The next input line, or `None` at the end of input.
    fn next_line(&mut self) -> Option<String> {
        loop {
            if let Some(line) = self.split.pop_front() {
                return Some(line);
            }
            if self.ended {
                return None;
            }
            if let Some(from_reader) = self.queued_line() {
                match from_reader {
                    Some(line) => return Some(line),
                    None => self.ended = true,
                }
                continue;
            }
            match read_raw(&mut io::stdin().lock(), &mut self.buf) {
                Raw::Line(raw) => {
                    self.split.extend(split_lines(&raw));
                    self.buf = raw;
                }
                Raw::End => self.ended = true,
            }
        }
    }

    /// The next line the reader thread has queued, waiting for one while it owns stdin;
    /// `None` when stdin is the answering thread's again and nothing is queued.
    fn queued_line(&self) -> Option<Option<String>> {
        let mut state = lock(&self.shared);
        loop {
            if let Some(line) = state.lines.pop_front() {
                return Some(line);
            }
            if !state.reading {
                return None;
            }
            state = self
                .shared
                .queued
                .wait(state)
                .unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Serves stdin while a count runs: the [`Alongside`] the engine calls.
struct Reader {
    shared: Arc<Shared>,
}

impl Alongside for Reader {
    fn begin(&mut self, stop: Arc<AtomicBool>) {
        let mut state = lock(&self.shared);
        state.counting = Some(stop);
        if !state.reading {
            state.reading = true;
            let shared = Arc::clone(&self.shared);
            // Never joined: it ends with the first line after the count (or at the end of
            // input), and on `quit` the process exits with it blocked in a read.
            thread::spawn(move || read_alongside(&shared));
        }
    }

    fn end(&mut self) {
        lock(&self.shared).counting = None;
    }
}

/// The reader thread: reads stdin while a count runs, serving `stop` and `isready`, and hands
/// stdin back with the first line read after the count (or at the end of input).
fn read_alongside(shared: &Shared) {
    let mut stdin = io::stdin().lock();
    let mut buf = Vec::new();
    loop {
        let raw = read_raw(&mut stdin, &mut buf);
        let mut state = lock(shared);
        let Raw::Line(raw) = raw else {
            state.lines.push_back(None);
            state.reading = false;
            shared.queued.notify_one();
            return;
        };
        for line in split_lines(&raw) {
            serve(&mut state, line);
        }
        buf = raw;
        if state.counting.is_none() {
            state.reading = false;
        }
        shared.queued.notify_one();
        if !state.reading {
            return;
        }
    }
}

/// One line read by the reader thread: during a count, `stop` sets its flag and `isready` is
/// answered at once (when no line waits before it, so answers keep their order); every other
/// line is queued for the answering thread.
fn serve(state: &mut State, line: String) {
    if let Some(stop) = &state.counting {
        match parse_line(&line) {
            Ok(Command::Stop) => {
                log::debug!("< {line} (ends the count)");
                stop.store(true, Ordering::Relaxed);
                return;
            }
            Ok(Command::IsReady) if state.lines.is_empty() => {
                log::debug!("< {line} (during the count)");
                log::debug!("> readyok");
                let mut out = io::stdout();
                // A closed stdout ends the session when the answering thread writes next.
                let _ = out.write_all(b"readyok\n").and_then(|()| out.flush());
                return;
            }
            _ => {}
        }
    }
    state.lines.push_back(Some(line));
}
