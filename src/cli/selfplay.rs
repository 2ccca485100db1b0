//! `saikoro selfplay`: random self-play games.

use std::ffi::OsString;
use std::process::ExitCode;

/// Runs self-play games.
pub fn main(_args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    super::init_logging(None)?;
    anyhow::bail!("selfplay is not built yet")
}
