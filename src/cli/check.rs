//! `saikoro check`: the engine checker's command line (see `saikoro_check`).

use super::flags::{self, Doc, Flag, Step, Takes};
use anyhow::Context;
use saikoro_check::{self as check, Config};
use saikoro_driver::EngineCommand;
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The help before the list of flags.
const HELP_HEAD: &str = "\
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

";

/// The help after the list of flags.
const HELP_TAIL: &str = "
Every check is described in docs/check.md.
";

/// `saikoro check --help`: made from [`FLAGS`].
fn help() -> String {
    format!(
        "{HELP_HEAD}{}{HELP_TAIL}",
        flags::help_sections(FLAGS, 22, &[])
    )
}

struct Args {
    json: bool,
    config: Config,
    log_file: Option<PathBuf>,
    /// `--movegen`, with its depth, node limit and positions file.
    movegen: Option<(u32, u64, Option<PathBuf>)>,
}

/// The command line as it is read.
struct Given {
    json: bool,
    timeout: Duration,
    options: Vec<(String, String)>,
    only: Vec<String>,
    skip: Vec<String>,
    log_file: Option<PathBuf>,
    movegen: bool,
    depth: u32,
    max_nodes: u64,
    positions: Option<PathBuf>,
}

type F = Flag<Given>;

const OPTIONS: &str = "Options:";
const MOVEGEN: &str = "Move-generator debugger (--movegen):";

/// Every flag of `saikoro check`, in the order of its help.
const FLAGS: &[F] = &[
    F::new(
        "json",
        Takes::Nothing,
        Doc::Text("one JSON document instead of the table"),
        |g, _| {
            g.json = true;
            Ok(())
        },
    )
    .section(OPTIONS),
    F::new(
        "timeout-ms",
        Takes::Value("MS"),
        Doc::Text(
            "the longest wait for an answer that should come at once: usiok,
readyok (default 10000, ShogiHome's usiok limit)",
        ),
        |g, v| {
            let ms: u64 = v.number()?;
            anyhow::ensure!(ms > 0, "--timeout-ms must be at least 1");
            g.timeout = Duration::from_millis(ms);
            Ok(())
        },
    )
    .section(OPTIONS),
    F::new(
        "option",
        Takes::Value("NAME=VALUE"),
        Doc::Text(
            "set an engine option after every start and leave it alone in the
option checks (an evaluation directory, say); repeatable",
        ),
        |g, v| {
            g.options.push(engine_option(v.text()?)?);
            Ok(())
        },
    )
    .section(OPTIONS),
    F::new(
        "only",
        Takes::Value("NAME|GROUP"),
        Doc::Text(
            "run only these checks or groups (start-up, options, game-flow,
rules, robustness, output); repeatable, or a comma-separated list",
        ),
        |g, v| select("only", &v.text()?, &mut g.only),
    )
    .section(OPTIONS),
    F::new(
        "skip",
        Takes::Value("NAME|GROUP"),
        Doc::Text("leave out these checks or groups; repeatable, or a list"),
        |g, v| select("skip", &v.text()?, &mut g.skip),
    )
    .section(OPTIONS),
    F::new(
        "log-file",
        Takes::Value("FILE"),
        Doc::Text("append the log to FILE"),
        |g, v| {
            g.log_file = Some(v.path());
            Ok(())
        },
    )
    .section(OPTIONS),
    F::new("movegen", Takes::Nothing, Doc::Hidden, |g, _| {
        g.movegen = true;
        Ok(())
    }),
    F::new(
        "depth",
        Takes::Value("N"),
        Doc::Text("perft depth (default 3)"),
        |g, v| {
            g.depth = v.number()?;
            anyhow::ensure!((1..=10).contains(&g.depth), "--depth must be 1 to 10");
            Ok(())
        },
    )
    .section(MOVEGEN),
    F::new(
        "max-nodes",
        Takes::Value("N"),
        Doc::Text(
            "a position whose perft has more leaves is compared one ply
shallower (default 2000000)",
        ),
        |g, v| {
            g.max_nodes = v.number()?;
            Ok(())
        },
    )
    .section(MOVEGEN),
    F::new(
        "positions",
        Takes::Value("FILE"),
        Doc::Text(
            "your positions, one a line: startpos|sfen SFEN|SFEN [moves ...],
optionally named 'NAME: ...' (default: the published perft positions
and the rules positions of positions/check.txt)",
        ),
        |g, v| {
            g.positions = Some(v.path());
            Ok(())
        },
    )
    .section(MOVEGEN),
    F::new("help", Takes::Help, Doc::Hidden, flags::no_setting).short('h'),
];

fn parse(args: Vec<OsString>) -> anyhow::Result<Option<Args>> {
    let mut g = Given {
        json: false,
        timeout: check::DEFAULT_TIMEOUT,
        options: Vec::new(),
        only: Vec::new(),
        skip: Vec::new(),
        log_file: None,
        movegen: false,
        depth: check::movegen::DEFAULT_DEPTH,
        max_nodes: check::movegen::DEFAULT_MAX_NODES,
        positions: None,
    };
    let mut command: Vec<String> = Vec::new();
    let mut p = flags::Lexer::new(args);
    while let Some(step) = flags::next(&mut p, FLAGS, &mut g)? {
        match step {
            Step::Flag(_) => {}
            Step::Help | Step::Version => {
                print!("{}", help());
                return Ok(None);
            }
            Step::Positional(v) => {
                command.push(flags::utf8(v)?);
                for a in p.rest()? {
                    command.push(utf8_argument(a)?);
                }
            }
        }
    }
    let mut words = command.into_iter();
    let program = words
        .next()
        .context("no engine command: saikoro check [OPTIONS] -- CMD [ARGS...]")?;
    let engine = EngineCommand {
        program: program.into(),
        args: words.collect(),
        dir: None,
    };
    Ok(Some(Args {
        json: g.json,
        config: Config {
            engine,
            timeout: g.timeout,
            options: g.options,
            only: g.only,
            skip: g.skip,
        },
        log_file: g.log_file,
        movegen: g.movegen.then_some((g.depth, g.max_nodes, g.positions)),
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
    super::tools::guard_engines("check", None)?;
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
