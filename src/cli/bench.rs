//! `saikoro bench`: the engine's fixed workload, as the test farms' workers run it
//! (OpenBench runs `./engine bench`; ShogiBench pipes `bench` then `quit` into the engine,
//! which answers the same through the USI command).

use super::flags::{self, Doc, Flag, Step, Takes};
use saikoro_engine::run_bench;
use std::ffi::OsString;
use std::io;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

const HELP: &str = "\
Usage: saikoro bench

Runs a fixed workload of the engine's own work: perft of positions with published counts,
then random games from a fixed seed played through the engine's position and go commands.
Ends with `Nodes searched: N` (the same N on every run and machine of a version: the
engine's signature on test farms) and `Nodes/second: N`. Reads no input. The USI command
`bench` runs the same.
";

/// The bench's one flag (the help is prose).
const FLAGS: &[Flag<()>] =
    &[Flag::new("help", Takes::Help, Doc::Hidden, flags::no_setting).short('h')];

/// Runs the bench on stdout.
pub fn main(args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    let mut parser = flags::Lexer::new(args);
    match flags::next(&mut parser, FLAGS, &mut ()).map_err(|e| super::usage("bench", e))? {
        None => {}
        Some(Step::Positional(v)) => {
            return Err(super::usage(
                "bench",
                flags::ArgError::UnexpectedArgument(v),
            ))
        }
        Some(_) => {
            print!("{HELP}");
            return Ok(ExitCode::SUCCESS);
        }
    }
    super::init_logging(None, log::LevelFilter::Warn)?;
    let report = run_bench(&AtomicBool::new(false), &mut io::stdout())?;
    Ok(if report.complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
