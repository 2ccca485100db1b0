//! Command-line front ends: argument parsing and start-up for each mode. The only place, with
//! `main.rs`, where `anyhow` is used.

pub mod affinity;
pub mod bench;
pub mod check;
pub mod csa;
pub mod dialect;
pub mod flags;
pub mod progress;
pub mod record;
pub mod report;
pub mod selfplay;
pub mod tournament;
pub mod usi;

use anyhow::Context;
use std::io::{self, Write};
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

/// A mode of the binary: its name, its lines in `saikoro --help`, and its front end. The modes
/// are [`MODES`], which `main.rs` dispatches on and [`usage`] lists.
pub struct Mode {
    /// Its word on the command line (`saikoro match ...`).
    pub name: &'static str,
    /// Its command line, as `saikoro --help` shows it.
    pub usage: &'static str,
    /// What it does, as `saikoro --help` says it.
    pub about: &'static str,
    /// Its front end, given the arguments after its name.
    pub main: fn(Vec<std::ffi::OsString>) -> anyhow::Result<std::process::ExitCode>,
}

/// Every mode, in the order of `saikoro --help`; the first, the engine, is also what runs
/// without a mode's name.
pub const MODES: &[Mode] = &[
    Mode {
        name: "usi",
        usage: "saikoro [usi] [--log-file FILE]",
        about: "USI engine on stdin/stdout (the default)",
        main: usi::main,
    },
    Mode {
        name: "selfplay",
        usage: "saikoro selfplay [OPTIONS]",
        about: "random self-play games, with a summary",
        main: selfplay::main,
    },
    Mode {
        name: "bench",
        usage: "saikoro bench",
        about: "the engine's fixed workload (node count, nodes/second)",
        main: bench::main,
    },
    Mode {
        name: "match",
        usage: "saikoro match --engine cmd=PROG ... --engine cmd=PROG ... [OPTIONS]",
        about: "play USI engines against each other",
        main: tournament::main,
    },
    Mode {
        name: "csa",
        usage: "saikoro csa --host HOST --user NAME --password PASS [OPTIONS]",
        about: "play on a CSA server (Floodgate)",
        main: csa::main,
    },
    Mode {
        name: "record",
        usage: "saikoro record convert|check|show IN...",
        about: "game records: convert among KIF, KI2, CSA, JKF,
USI and SFEN, check by the rules, show a position",
        main: record::main,
    },
    Mode {
        name: "report",
        usage: "saikoro report RESULTS [-o FILE.html]",
        about: "the HTML page of a match from its results file",
        main: report::main,
    },
    Mode {
        name: "check",
        usage: "saikoro check [OPTIONS] -- CMD [ARGS...]",
        about: "check that a USI engine speaks USI correctly",
        main: check::main,
    },
    Mode {
        name: "shogitest",
        usage: "saikoro shogitest ARGS...",
        about: "a match from shogitest's command line (also when
the binary is named shogitest or shogitest-ob)",
        main: dialect::shogitest::main,
    },
];

/// `saikoro --help`: made from [`MODES`].
pub fn usage_text() -> String {
    let mut out = String::from(
        "Saikoro: a USI shogi engine that plays a uniformly random legal move.\n\nUsage:\n",
    );
    for m in MODES {
        flags::entry(&mut out, 2, m.usage, m.about, 35);
    }
    flags::entry(&mut out, 2, "saikoro --version | --help", "", 35);
    out.push_str("\nRun `saikoro <mode> --help` for the options of a mode.\n");
    out
}

/// The arguments as text: an argument that is not UTF-8 is an error that shows it.
pub(crate) fn utf8_args(raw: Vec<std::ffi::OsString>) -> anyhow::Result<Vec<String>> {
    raw.into_iter()
        .map(|a| {
            a.into_string()
                .map_err(|a| anyhow::anyhow!("argument {a:?} is not valid UTF-8"))
        })
        .collect()
}

/// A mistake in the command line: printed with a pointer to the mode's `--help`, exit status 2
/// (as clap and the GNU tools do), apart from the failures of a run (status 1).
#[derive(Debug)]
pub struct UsageError {
    /// The mode (`selfplay`, `match`, ...); empty for the top level and the USI engine.
    mode: &'static str,
    /// What is wrong, with its causes.
    message: String,
}

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.mode {
            "" => write!(
                f,
                "{}\nRun `saikoro --help` for the modes, `saikoro usi --help` for the engine's options.",
                self.message
            ),
            mode => write!(
                f,
                "{}\nRun `saikoro {mode} --help` for the options.",
                self.message
            ),
        }
    }
}

impl std::error::Error for UsageError {}

/// `e` (an argument-parsing error, with its causes) as a [`UsageError`] of `mode`.
pub(crate) fn usage(mode: &'static str, e: impl Into<anyhow::Error>) -> anyhow::Error {
    let e = e.into();
    anyhow::Error::new(UsageError {
        mode,
        message: format!("{e:#}"),
    })
}

/// The exit status and the message (none for a closed stdout) for an error that ended a mode.
pub fn failure(e: &anyhow::Error) -> (u8, Option<String>) {
    use saikoro_match::run::scheduler::MatchError;
    let closed_stdout = e.chain().any(|c| {
        let io = c.downcast_ref::<io::Error>().or(match c.downcast_ref() {
            Some(MatchError::Io { source, .. }) => Some(source),
            _ => None,
        });
        io.is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    });
    if closed_stdout {
        // The reader went away (`| head`): nothing to tell it. 141 = 128 + SIGPIPE, the status
        // a shell reports for a C tool that died of it.
        return (141, None);
    }
    let status = if e.is::<UsageError>() { 2 } else { 1 };
    (status, Some(format!("saikoro: {e:#}")))
}

/// Where log records go: a file when one is set, else stderr up to `stderr_level` (what
/// `RUST_LOG` asked for, or the mode's default), else nowhere. Switchable at run time (the USI
/// `LogFile` option).
struct LogSink {
    file: Option<std::fs::File>,
    /// The most detailed level written to stderr while there is no file (`Off`: none).
    stderr_level: log::LevelFilter,
    /// The most detailed level the filter lets through.
    level: log::LevelFilter,
}

static LOG_SINK: Mutex<LogSink> = Mutex::new(LogSink {
    file: None,
    stderr_level: log::LevelFilter::Off,
    level: log::LevelFilter::Off,
});

fn log_sink() -> std::sync::MutexGuard<'static, LogSink> {
    LOG_SINK.lock().unwrap_or_else(|e| e.into_inner())
}

/// The writer `env_logger` formats into: forwards to the current sink. Write errors (a full
/// disk, a closed stderr) are swallowed: logging must never stop the engine.
struct SwitchWriter;

impl Write for SwitchWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut sink = log_sink();
        if let Some(f) = sink.file.as_mut() {
            let _ = f.write_all(buf);
        } else if sink.stderr_level != log::LevelFilter::Off {
            let _ = io::stderr().write_all(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(f) = log_sink().file.as_mut() {
            let _ = f.flush();
        }
        Ok(())
    }
}

/// Makes the engines this tool starts die with it ([`saikoro_driver::guard`]): the parent-death
/// signal on Linux, and SIGTERM, SIGHUP and (without `on_interrupt`) Ctrl-C end them before
/// the tool exits.
pub fn guard_engines(
    tool: &'static str,
    on_interrupt: Option<Box<dyn Fn(saikoro_driver::guard::Signal) + Send>>,
) -> anyhow::Result<()> {
    saikoro_driver::guard::kill_engines_with_us();
    saikoro_driver::guard::handle_signals(tool, on_interrupt)
        .map_err(|e| anyhow::anyhow!("cannot install the signal handlers: {e}"))
}

/// Starts logging. `RUST_LOG` (env_logger syntax) sets the filter and sends the log to stderr;
/// without it, stderr gets records up to `stderr_default`: `Off` for the USI engine (ShogiHome
/// never reads the engine's stderr, and a full pipe would block the engine), `Warn` for the
/// command-line modes, so a user sees why the CSA client waits. A log `file` (or, later,
/// [`set_log_file`]) receives records at `debug` level (the whole USI or CSA exchange) unless
/// `RUST_LOG` sets the filter, and stderr then gets nothing. Never writes to stdout.
pub fn init_logging(file: Option<&Path>, stderr_default: log::LevelFilter) -> anyhow::Result<()> {
    init_logging_at(file, log::LevelFilter::Debug, stderr_default)
}

/// [`init_logging`] with the log file's level (`--log-level`; `RUST_LOG` still wins).
pub fn init_logging_at(
    file: Option<&Path>,
    file_level: log::LevelFilter,
    stderr_default: log::LevelFilter,
) -> anyhow::Result<()> {
    let spec = std::env::var("RUST_LOG")
        .ok()
        .filter(|s| !s.trim().is_empty());
    let mut b = env_logger::Builder::new();
    match &spec {
        Some(spec) => b.parse_filters(spec),
        None => b.filter_level(file_level),
    };
    let start = Instant::now();
    b.target(env_logger::Target::Pipe(Box::new(SwitchWriter)))
        .format(move |f, r| {
            writeln!(
                f,
                "{:10.3} {:<5} {}: {}",
                start.elapsed().as_secs_f64(),
                r.level(),
                r.target(),
                r.args()
            )
        });
    let logger = b.build();
    {
        let mut sink = log_sink();
        sink.level = logger.filter();
        sink.stderr_level = match spec {
            Some(_) => sink.level,
            None => stderr_default.min(sink.level),
        };
    }
    // A second call (tests, or two front ends) keeps the first logger.
    let _ = log::set_boxed_logger(Box::new(logger));
    if let Some(path) = file {
        set_log_file(Some(path))
            .with_context(|| format!("cannot open log file {}", path.display()))?;
    }
    update_max_level();
    Ok(())
}

/// Sends the log to `file` (appending; created if missing), or back to the default with `None`.
/// On error the previous target stays.
pub fn set_log_file(file: Option<&Path>) -> io::Result<()> {
    let opened = match file {
        Some(path) => {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?;
            let now = saikoro_record::csa::format_time(std::time::SystemTime::now());
            writeln!(
                f,
                "---- {now} UTC: saikoro {} log opened, pid {} ----",
                env!("CARGO_PKG_VERSION"),
                std::process::id()
            )?;
            Some(f)
        }
        None => None,
    };
    log_sink().file = opened;
    update_max_level();
    Ok(())
}

/// Lets log macros skip all work while no record can be written anywhere.
fn update_max_level() {
    let sink = log_sink();
    log::set_max_level(if sink.file.is_some() {
        sink.level
    } else {
        sink.stderr_level
    });
}

/// Makes the `--record-dir` directory `dir` where its parent exists, by the rule of every
/// output (docs/files.md): a file of that name is "not a directory", a missing parent "no
/// such directory".
pub(crate) fn create_record_dir(dir: &std::path::Path) -> anyhow::Result<()> {
    use saikoro_outfile::{make_directory, Named};
    Ok(make_directory(Named::new("--record-dir", dir))?)
}
