//! Command-line front ends: argument parsing and start-up for each mode. The only place, with
//! `main.rs`, where `anyhow` is used.
//!
//! The engine's modes (`usi`, `bench`) are always built; the tools' front ends only with the
//! `tools` feature (the default), which links their crates. This file and `MODES` are where the
//! feature decides: without it a tool mode says that this build has the engine only.

// The lexer under the flag tables' machinery, which serves every mode; the engine's two use a
// part of them.
#[cfg_attr(not(feature = "tools"), allow(dead_code))]
mod args;
pub mod bench;
#[cfg_attr(not(feature = "tools"), allow(dead_code))]
pub mod flags;
pub mod usi;

#[cfg(feature = "tools")]
pub mod affinity;
#[cfg(feature = "tools")]
pub mod check;
#[cfg(feature = "tools")]
pub mod csa;
#[cfg(feature = "tools")]
pub mod dialect;
#[cfg(feature = "tools")]
pub mod progress;
#[cfg(feature = "tools")]
pub mod record;
#[cfg(feature = "tools")]
pub mod report;
#[cfg(feature = "tools")]
pub mod selfplay;
#[cfg(feature = "tools")]
pub mod tools;
#[cfg(feature = "tools")]
pub mod tournament;

/// A tool mode's front end: the function with the `tools` feature, none without it.
macro_rules! tool {
    ($main:path) => {{
        #[cfg(feature = "tools")]
        let main: Option<Front> = Some($main);
        #[cfg(not(feature = "tools"))]
        let main: Option<Front> = None;
        main
    }};
}

use anyhow::Context;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
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
    /// Its front end, given the arguments after its name; `None` for a tool mode in a build
    /// without the tools ([`engine_only`] says so).
    pub main: Option<Front>,
}

/// A mode's front end, given the arguments after its name.
pub type Front = fn(Vec<std::ffi::OsString>) -> anyhow::Result<std::process::ExitCode>;

/// Every mode, in the order of `saikoro --help`; the first, the engine, is also what runs
/// without a mode's name.
pub const MODES: &[Mode] = &[
    Mode {
        name: "usi",
        usage: "saikoro [usi] [--log-file FILE]",
        about: "USI engine on stdin/stdout (the default)",
        main: Some(usi::main),
    },
    Mode {
        name: "selfplay",
        usage: "saikoro selfplay [OPTIONS]",
        about: "random self-play games, with a summary",
        main: tool!(selfplay::main),
    },
    Mode {
        name: "bench",
        usage: "saikoro bench",
        about: "the engine's fixed workload (node count, nodes/second)",
        main: Some(bench::main),
    },
    Mode {
        name: "match",
        usage: "saikoro match --engine cmd=PROG ... --engine cmd=PROG ... [OPTIONS]",
        about: "play USI engines against each other",
        main: tool!(tournament::main),
    },
    Mode {
        name: "csa",
        usage: "saikoro csa --host HOST --user NAME --password-file FILE [OPTIONS]",
        about: "play on a CSA server (Floodgate)",
        main: tool!(csa::main),
    },
    Mode {
        name: "record",
        usage: "saikoro record convert|check|show IN...",
        about: "game records: convert among KIF, KI2, CSA, JKF,
USI and SFEN, check by the rules, show a position",
        main: tool!(record::main),
    },
    Mode {
        name: "report",
        usage: "saikoro report RESULTS [-o FILE.html]",
        about: "the HTML page of a match from its results file",
        main: tool!(report::main),
    },
    Mode {
        name: "check",
        usage: "saikoro check [OPTIONS] -- CMD [ARGS...]",
        about: "check that a USI engine speaks USI correctly",
        main: tool!(check::main),
    },
    Mode {
        name: "shogitest",
        usage: "saikoro shogitest ARGS...",
        about: "a match from shogitest's command line (also when
the binary is named shogitest or shogitest-ob)",
        main: tool!(dialect::shogitest::main),
    },
];

/// `saikoro --help`: made from [`MODES`] (a build without the tools lists the engine's modes
/// and says how to get the others).
pub fn usage_text() -> String {
    let mut out = String::from(
        "Saikoro: a USI shogi engine that plays a uniformly random legal move.\n\nUsage:\n",
    );
    for m in MODES.iter().filter(|m| m.main.is_some()) {
        flags::entry(&mut out, 2, m.usage, m.about, 35);
    }
    flags::entry(&mut out, 2, "saikoro --version | --help", "", 35);
    out.push_str("\nRun `saikoro <mode> --help` for the options of a mode.\n");
    if MODES.iter().any(|m| m.main.is_none()) {
        out.push_str(&format!(
            "\nThis saikoro was built with the engine only (--no-default-features): {}.\n",
            engine_only_note()
        ));
    }
    out
}

/// The tool modes a build without the tools leaves out, and how to get them.
fn engine_only_note() -> String {
    let tools: Vec<&str> = MODES
        .iter()
        .filter(|m| m.main.is_none())
        .map(|m| m.name)
        .collect();
    let listed = match tools.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => tools.concat(),
    };
    format!(
        "{listed} come with the default build (cargo build --release, or cargo install --path .)"
    )
}

/// Runs the mode `mode` with `args`: its front end, or, for a tool mode of a build without the
/// tools, a usage error (exit status 2) that says how to get it.
pub fn run_mode(mode: &Mode, args: Vec<std::ffi::OsString>) -> anyhow::Result<ExitCode> {
    match mode.main {
        Some(main) => main(args),
        None => Err(engine_only(mode.name)),
    }
}

/// The error of a tool mode asked of a build without the tools.
fn engine_only(name: &str) -> anyhow::Error {
    usage(
        "",
        anyhow::anyhow!(
            "`saikoro {name}` is not in this build, which has the engine only \
             (--no-default-features): {}",
            engine_only_note()
        ),
    )
}

/// What runs before the mode is read, when it applies to this invocation: the launcher through
/// which the tools start engines (`saikoro` re-runs itself with it, whatever the file's name:
/// ShogiBench's worker keeps a copy named `shogitest-ob`, so the name must not decide what the
/// launcher's arguments mean), then shogitest's command line when the binary is named
/// `shogitest…`.
pub fn early() -> Option<anyhow::Result<ExitCode>> {
    let mut args = std::env::args_os();
    let argv0 = args.next();
    let first = args.next();
    #[cfg(feature = "tools")]
    {
        if first.as_deref() == Some(saikoro_driver::guard::LAUNCH_ARG.as_ref()) {
            return Some(Ok(saikoro_driver::guard::launch(
                std::env::args_os().skip(2).collect(),
            )));
        }
        if dialect::shogitest::named_shogitest(argv0) {
            return Some(dialect::shogitest::main(
                std::env::args_os().skip(1).collect(),
            ));
        }
    }
    #[cfg(not(feature = "tools"))]
    {
        let _ = first;
        let named = argv0
            .as_deref()
            .map(Path::new)
            .and_then(|p| p.file_stem())
            .and_then(|s| s.to_str())
            .is_some_and(|s| s.starts_with("shogitest"));
        if named {
            return Some(Err(engine_only("shogitest")));
        }
    }
    None
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
    let closed_stdout = e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
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
    /// Whether `RUST_LOG` set the filter: stderr then gets the logger's whole lines, as a
    /// developer asked for them.
    rust_log: bool,
    /// The most detailed level written to stderr while there is no file (`Off`: none).
    stderr_level: log::LevelFilter,
    /// The most detailed level the filter lets through.
    level: log::LevelFilter,
}

static LOG_SINK: Mutex<LogSink> = Mutex::new(LogSink {
    file: None,
    rust_log: false,
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
            // A person reads stderr: `saikoro: warning: …`, as errors read. A log file, and
            // stderr under RUST_LOG, get the logger's whole line: time, level, module.
            let whole = {
                let sink = log_sink();
                sink.file.is_some() || sink.rust_log
            };
            if whole {
                return writeln!(
                    f,
                    "{:10.3} {:<5} {}: {}",
                    start.elapsed().as_secs_f64(),
                    r.level(),
                    r.target(),
                    r.args()
                );
            }
            match r.level() {
                log::Level::Error => writeln!(f, "saikoro: error: {}", r.args()),
                log::Level::Warn => writeln!(f, "saikoro: warning: {}", r.args()),
                _ => writeln!(f, "saikoro: {}", r.args()),
            }
        });
    let logger = b.build();
    {
        let mut sink = log_sink();
        sink.rust_log = spec.is_some();
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
            let now = utc_text(std::time::SystemTime::now());
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

/// `t` as the log's header writes it, `YYYY/MM/DD HH:MM:SS` in UTC (the calendar of Howard
/// Hinnant's `civil_from_days`: the eras of 400 years that the Gregorian calendar repeats).
/// The engine-only build links no records crate, whose CSA times this matches.
fn utc_text(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let (era, doe) = (z.div_euclid(146_097), z.rem_euclid(146_097));
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let (d, m) = (doy - (153 * mp + 2) / 5 + 1, (mp + 2) % 12 + 1);
    let y = yoe + era * 400 + i64::from(m <= 2);
    let (h, min, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
    format!("{y:04}/{m:02}/{d:02} {h:02}:{min:02}:{s:02}")
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
