//! `saikoro [usi]`: the USI engine on stdin/stdout.
//!
//! Input is bytes: lines end at LF; a CR before it (or anywhere) also ends a line; each line is
//! decoded lossily, so Shift_JIS from Windows GUIs never stops the reading. End of input acts
//! as `quit` after emitting a pending `bestmove` (or what a running `go perft` has counted).
//! Each output line is flushed; a closed stdout (broken pipe) ends the engine quietly.
//!
//! Stdin is read on a thread of its own, so that the lines a GUI sends while `go perft`
//! counts (`isready`, `stop`, `quit`) are answered at once.

use saikoro::engine::{Engine, Flow};
use std::ffi::OsString;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
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
    let stdout = io::stdout();
    match run(engine, stdout.lock()) {
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

/// The log file to use (`Some(None)`: none), or `None` after `--help`.
fn parse(args: Vec<OsString>) -> Result<Option<Option<PathBuf>>, lexopt::Error> {
    use lexopt::prelude::*;
    let mut log_file: Option<PathBuf> = None;
    let mut parser = lexopt::Parser::from_args(args);
    while let Some(arg) = parser.next()? {
        match arg {
            Long("log-file") => log_file = Some(parser.value()?.into()),
            Short('h') | Long("help") => {
                print!("{HELP}");
                return Ok(None);
            }
            _ => return Err(arg.unexpected()),
        }
    }
    Ok(Some(log_file))
}

/// What the answering loop waits for.
enum Event {
    /// An input line, without its LF.
    Line(Vec<u8>),
    /// The end of input (or a read error, taken as such).
    End,
    /// A `go perft` has ended.
    PerftDone,
}

/// The read–answer loop over stdin. Returns on `quit`, end of input, or an output error.
pub fn run(engine: Engine, out: impl Write) -> io::Result<()> {
    let (tx, events) = mpsc::channel();
    let waker = tx.clone();
    let engine = engine.with_perft_waker(Arc::new(move || {
        let _ = waker.send(Event::PerftDone);
    }));
    // The reader is never joined: on `quit` the process exits with it blocked in a read.
    thread::spawn(move || read_lines(io::stdin().lock(), tx));
    answer(engine, events, out)
}

/// Sends each line of `input` as an [`Event::Line`], then [`Event::End`].
fn read_lines(mut input: impl BufRead, tx: Sender<Event>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("cannot read stdin ({e}): treating it as the end of input");
                break;
            }
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
        }
        if tx.send(Event::Line(std::mem::take(&mut buf))).is_err() {
            return;
        }
    }
    let _ = tx.send(Event::End);
}

/// Answers the events in the order they come.
fn answer(
    mut engine: Engine,
    events: mpsc::Receiver<Event>,
    mut out: impl Write,
) -> io::Result<()> {
    for event in events {
        let buf = match event {
            Event::Line(buf) => buf,
            Event::End => break,
            Event::PerftDone => {
                engine.perft_done(&mut out)?;
                continue;
            }
        };
        // CRLF (Shogidokoro, ShogiGUI) splits into the line and an empty part: skip empty
        // parts, which would only put blank `<` lines into the log.
        for part in buf.split(|&b| b == b'\r').filter(|p| !p.is_empty()) {
            let line = String::from_utf8_lossy(part);
            if engine.handle_line(&line, &mut out)? == Flow::Quit {
                return Ok(());
            }
        }
    }
    engine.finish(&mut out)
}
