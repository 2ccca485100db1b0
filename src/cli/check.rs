//! `saikoro check`: the engine checker's command line (see `saikoro::check`).

use anyhow::Context;
use saikoro::check::{self, Config};
use saikoro::driver::EngineCommand;
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

const HELP: &str = "\
Usage: saikoro check [OPTIONS] -- CMD [ARGS...]
       saikoro check --movegen [--depth N] [--positions FILE] [OPTIONS] -- CMD [ARGS...]

Drives the USI engine CMD the way GUIs do and reports, check by check, what it does wrong:
start-up, options, game flow (clocks, go infinite, ponder, gameover), legal moves in positions
chosen to catch the usual bugs, robustness, go mate, and its output. Each check passes (✔),
warns (!) or fails (✘) with a one-line reason; the transcript of each failure follows the
table. Exit status 0 when no check failed, 1 otherwise.

With --movegen it debugs the engine's move generator instead: its `go perft` divide against
Saikoro's on each position; where a count differs it descends into the first differing move
down to the position where the moves differ, and shows it with the moves the engine misses or
has in excess and the rule for each. Exit status 0 when every position agrees, 1 when one
differs or the engine could not be started (or died in a perft), 3 when the engine has no go
perft or something else could not be compared (2 is a usage error, as in every mode).

Options:
  --json              one JSON document instead of the table
  --timeout-ms MS     the longest wait for an answer that should come at once: usiok,
                      readyok (default 10000, ShogiHome's usiok limit)
  --option NAME=VALUE set an engine option after every start and leave it alone in the
                      option checks (an evaluation directory, say); repeatable
  --only NAME|GROUP   run only these checks or groups (start-up, options, game-flow,
                      rules, robustness, output); repeatable, or a comma-separated list
  --skip NAME|GROUP   leave out these checks or groups; repeatable, or a list
  --log-file FILE     append the log to FILE

Move-generator debugger (--movegen):
  --depth N           perft depth (default 3)
  --max-nodes N       a position whose perft has more leaves is compared one ply
                      shallower (default 2000000)
  --positions FILE    your positions, one a line: startpos|sfen SFEN|SFEN [moves ...],
                      optionally named 'NAME: ...' (default: the published perft positions
                      and the rules positions of positions/check.txt)

Every check is described in docs/check.md.
";

struct Args {
    json: bool,
    config: Config,
    log_file: Option<PathBuf>,
    /// `--movegen`, with its depth, node limit and positions file.
    movegen: Option<(u32, u64, Option<PathBuf>)>,
}

fn parse(args: Vec<OsString>) -> anyhow::Result<Option<Args>> {
    use lexopt::prelude::*;
    let mut json = false;
    let mut timeout = check::DEFAULT_TIMEOUT;
    let mut options = Vec::new();
    let mut log_file = None;
    let (mut only, mut skip) = (Vec::new(), Vec::new());
    let mut movegen = false;
    let mut depth = check::movegen::DEFAULT_DEPTH;
    let mut max_nodes = check::movegen::DEFAULT_MAX_NODES;
    let mut positions = None;
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
            Long("option") => options.push(engine_option(p.value()?.string()?)?),
            Long(flag @ ("only" | "skip")) => {
                let list = if flag == "only" { &mut only } else { &mut skip };
                let flag = flag.to_string();
                select(&flag, &p.value()?.string()?, list)?;
            }
            Long("log-file") => log_file = Some(p.value()?.into()),
            Long("movegen") => movegen = true,
            Long("depth") => {
                depth = super::parse_value(&mut p, "--depth")?;
                anyhow::ensure!((1..=10).contains(&depth), "--depth must be 1 to 10");
            }
            Long("max-nodes") => max_nodes = super::parse_value(&mut p, "--max-nodes")?,
            Long("positions") => positions = Some(PathBuf::from(p.value()?)),
            Short('h') | Long("help") => {
                print!("{HELP}");
                return Ok(None);
            }
            Value(v) => {
                command.push(v.string()?);
                for a in p.raw_args()? {
                    command.push(utf8_argument(a)?);
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
            only,
            skip,
        },
        log_file,
        movegen: movegen.then_some((depth, max_nodes, positions)),
    }))
}

/// `--option NAME=VALUE`: the name (one word) and the value.
fn engine_option(v: String) -> anyhow::Result<(String, String)> {
    let (name, value) = v
        .split_once('=')
        .with_context(|| format!("--option {v:?}: expected NAME=VALUE"))?;
    anyhow::ensure!(
        !name.is_empty() && !name.contains(' '),
        "--option {v:?}: an option name is one word"
    );
    Ok((name.to_string(), value.to_string()))
}

/// `--only` or `--skip` (`flag`) with a comma-separated `value`: each word, a check or a group,
/// onto `list`.
fn select(flag: &str, value: &str, list: &mut Vec<String>) -> anyhow::Result<()> {
    for word in value.split(',').map(str::trim) {
        anyhow::ensure!(
            check::selectable(word),
            "--{flag} {word:?}: no such check or group (groups: {}; checks: {})",
            check::Group::ALL.map(|g| g.slug()).join(", "),
            check::check_names().join(", ")
        );
        list.push(word.to_string());
    }
    Ok(())
}

/// A word of the engine's command line after its program, which must be UTF-8.
fn utf8_argument(a: OsString) -> anyhow::Result<String> {
    a.into_string()
        .map_err(|a| anyhow::anyhow!("argument {a:?} is not UTF-8"))
}

/// Checks an engine.
pub fn main(args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    let Some(args) = parse(args).map_err(|e| super::usage("check", e))? else {
        return Ok(ExitCode::SUCCESS);
    };
    super::init_logging(args.log_file.as_deref(), log::LevelFilter::Warn)?;
    super::guard_engines("check", None)?;
    if let Some((depth, max_nodes, file)) = args.movegen.clone() {
        return movegen(&args, depth, max_nodes, file);
    }
    let stdout = io::stdout();
    let report = if args.json {
        check::run(&args.config, &mut |_| {})
    } else {
        let mut out = stdout.lock();
        writeln!(out, "Checking {}", args.config.engine)?;
        out.flush()?;
        let mut table = check::Table::new();
        let report = check::run(&args.config, &mut |r| {
            let _ = table.row(&mut out, r);
            let _ = out.flush();
        });
        table.flush(&mut out)?;
        report
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

/// `saikoro check --movegen`.
fn movegen(
    args: &Args,
    depth: u32,
    max_nodes: u64,
    file: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    use check::movegen::{self, MovegenConfig};
    let positions = match &file {
        None => movegen::builtin_positions(),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let v = movegen::parse_positions(&text)
                .with_context(|| format!("bad positions file {}", path.display()))?;
            anyhow::ensure!(!v.is_empty(), "{}: no positions", path.display());
            v
        }
    };
    let cfg = MovegenConfig {
        engine: args.config.engine.clone(),
        timeout: args.config.timeout,
        options: args.config.options.clone(),
        depth,
        max_nodes,
        positions,
    };
    let stdout = io::stdout();
    let report = if args.json {
        movegen::run(&cfg, &mut |_| {})
    } else {
        let mut out = stdout.lock();
        writeln!(
            out,
            "Comparing the go perft of {} with Saikoro's (depth {depth}, at most {max_nodes} leaves a position)",
            cfg.engine
        )?;
        out.flush()?;
        movegen::run(&cfg, &mut |r| {
            let _ = check::write_position_row(&mut out, r);
            let _ = out.flush();
        })
    };
    let mut out = stdout.lock();
    if args.json {
        check::write_movegen_json(&mut out, &report)?;
    } else {
        check::write_movegen_details(&mut out, &report)?;
    }
    out.flush()?;
    Ok(ExitCode::from(report.exit_code()))
}
