//! `saikoro csa`: play on a CSA server.

use std::ffi::OsString;
use std::process::ExitCode;

/// Runs the CSA client.
pub fn main(_args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    super::init_logging(None)?;
    anyhow::bail!("the CSA client is not built yet")
}
