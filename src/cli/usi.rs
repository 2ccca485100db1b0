//! `saikoro [usi]`: the USI engine on stdin/stdout.

use std::ffi::OsString;
use std::process::ExitCode;

/// Runs the USI engine.
pub fn main(_args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    super::init_logging(None)?;
    anyhow::bail!("the USI engine is not built yet")
}
