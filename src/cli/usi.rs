//! `saikoro [usi]`: the USI engine on stdin/stdout.
//!
//! Input is bytes: lines end at LF; a CR before it (or anywhere) also ends a line; each line is
//! decoded lossily, so Shift_JIS from Windows GUIs never stops the reading. End of input acts
//! as `quit` after emitting a pending `bestmove`. Each output line is flushed; a closed stdout
//! (broken pipe) ends the engine quietly.

use saikoro::usi::{Engine, Flow};
use std::ffi::OsString;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

const HELP: &str = "\
Usage: saikoro [usi] [--log-file FILE]

Runs the USI engine on stdin/stdout. Logs are off by default; RUST_LOG=debug sends them to
stderr, --log-file (or the LogFile option) appends them to FILE.
";

/// Runs the USI engine.
pub fn main(args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    use lexopt::prelude::*;
    let mut log_file: Option<PathBuf> = None;
    let mut parser = lexopt::Parser::from_args(args);
    while let Some(arg) = parser.next()? {
        match arg {
            Long("log-file") => log_file = Some(parser.value()?.into()),
            Short('h') | Long("help") => {
                print!("{HELP}");
                return Ok(ExitCode::SUCCESS);
            }
            _ => return Err(arg.unexpected().into()),
        }
    }
    super::init_logging(log_file.as_deref(), log::LevelFilter::Off)?;
    let mut engine = Engine::new().with_log_switch(Box::new(super::set_log_file));
    let stdin = io::stdin();
    let stdout = io::stdout();
    match run(&mut engine, stdin.lock(), stdout.lock()) {
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

/// The read–answer loop. Returns on `quit`, end of input, or an output error.
pub fn run(engine: &mut Engine, mut input: impl BufRead, mut out: impl Write) -> io::Result<()> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => return engine.finish(&mut out),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("cannot read stdin ({e}): treating it as the end of input");
                return engine.finish(&mut out);
            }
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
        }
        // CRLF (Shogidokoro, ShogiGUI) splits into the line and an empty part: skip empty
        // parts, which would only put blank `<` lines into the log.
        for part in buf.split(|&b| b == b'\r').filter(|p| !p.is_empty()) {
            let line = String::from_utf8_lossy(part);
            if engine.handle_line(&line, &mut out)? == Flow::Quit {
                return Ok(());
            }
        }
    }
}
