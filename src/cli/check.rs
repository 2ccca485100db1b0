//! `saikoro check`: the engine checker's command line (see `saikoro::check`).

use anyhow::Context;
use saikoro::check::{self, Config};
use saikoro::usi::EngineCommand;
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

const HELP: &str = "\
Usage: saikoro check [OPTIONS] -- CMD [ARGS...]

Drives the USI engine CMD the way GUIs do and reports, check by check, what it does wrong:
start-up, options, game flow (clocks, go infinite, ponder, gameover), legal moves in positions
chosen to catch the usual bugs, robustness, go mate, and its output. Each check passes (✔),
warns (!) or fails (✘) with a one-line reason; the transcript of each failure follows the
table. Exit status 0 when no check failed, 1 otherwise.

Options:
  --json              one JSON document instead of the table
  --timeout-ms MS     the longest wait for an answer that should come at once: usiok,
                      readyok, bestmove after stop (default 10000, ShogiHome's usiok limit)
  --option NAME=VALUE set an engine option after every start and leave it alone in the
                      option checks (an evaluation directory, say); repeatable
  --log-file FILE     append the log to FILE

Every check is described in docs/check.md.
";

struct Args {
    json: bool,
    config: Config,
    log_file: Option<PathBuf>,
}

fn parse(args: Vec<OsString>) -> anyhow::Result<Option<Args>> {
    use lexopt::prelude::*;
    let mut json = false;
    let mut timeout = check::DEFAULT_TIMEOUT;
    let mut options = Vec::new();
    let mut log_file = None;
    let mut command: Vec<String> = Vec::new();
    let mut p = lexopt::Parser::from_args(args);
    while let Some(arg) = p.next()? {
        match arg {
            Long("json") => json = true,
            Long("timeout-ms") => {
                let ms: u64 = super::parse_value(&mut p, "--timeout-ms")?;
                anyhow::ensure!(ms > 0, "--timeout-ms must be at least 1");
                timeout = Duration::from_millis(ms);
            }
            Long("option") => {
                let v = p.value()?.string()?;
                let (name, value) = v
                    .split_once('=')
                    .with_context(|| format!("--option {v:?}: expected NAME=VALUE"))?;
                anyhow::ensure!(
                    !name.is_empty() && !name.contains(' '),
                    "--option {v:?}: an option name is one word"
                );
                options.push((name.to_string(), value.to_string()));
            }
            Long("log-file") => log_file = Some(p.value()?.into()),
            Short('h') | Long("help") => {
                print!("{HELP}");
                return Ok(None);
            }
            Value(v) => {
                command.push(v.string()?);
                for a in p.raw_args()? {
                    command.push(
                        a.into_string()
                            .map_err(|a| anyhow::anyhow!("argument {a:?} is not UTF-8"))?,
                    );
                }
            }
            _ => return Err(arg.unexpected().into()),
        }
    }
    let mut words = command.into_iter();
    let program = words
        .next()
        .context("no engine command: saikoro check [OPTIONS] -- CMD [ARGS...]")?;
    let engine = EngineCommand {
        program,
        args: words.collect(),
        dir: None,
    };
    Ok(Some(Args {
        json,
        config: Config {
            engine,
            timeout,
            options,
        },
        log_file,
    }))
}

/// Checks an engine.
pub fn main(args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    let Some(args) = parse(args).map_err(|e| super::usage("check", e))? else {
        return Ok(ExitCode::SUCCESS);
    };
    super::init_logging(args.log_file.as_deref(), log::LevelFilter::Warn)?;
    super::guard_engines("check", None)?;
    let stdout = io::stdout();
    let report = if args.json {
        check::run(&args.config, &mut |_| {})
    } else {
        let mut out = stdout.lock();
        writeln!(out, "Checking {}", args.config.engine)?;
        out.flush()?;
        let mut prev = None;
        check::run(&args.config, &mut |r| {
            let _ = check::write_table_row(&mut out, r, prev);
            let _ = out.flush();
            prev = Some(r.group);
        })
    };
    let mut out = stdout.lock();
    if args.json {
        check::write_json(&mut out, &report)?;
    } else {
        check::write_details(&mut out, &report)?;
    }
    out.flush()?;
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
