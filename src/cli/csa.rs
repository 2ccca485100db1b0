//! `saikoro csa`: play on a CSA server (Floodgate) with the built-in random player or an
//! external USI engine.

mod password;

use super::flags::{self, Doc, Flag, Step, Takes};
use anyhow::{bail, Context};
use log::{error, info, warn};
use password::Source;
use saikoro_core::{Color, EnteringKingRule};
use saikoro_csa::client::{run_session, BuiltinPlayer};
use saikoro_csa::engine_player::EnginePlayer;
use saikoro_csa::{ClientConfig, GameReport, Player, ServerResult, SessionEnd, SessionError};
use saikoro_driver::guard;
use saikoro_record::csa::{self, format_time, Version};
use saikoro_record::{Record, RecordMove};
use std::ffi::OsString;
use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The help before the list of flags.
const HELP_HEAD: &str = "\
saikoro csa: play on a CSA server (Floodgate's shogi-server or any other)

Usage: saikoro csa --host HOST --user NAME --password-file FILE [OPTIONS]

";

/// The help after the list of flags.
const HELP_TAIL: &str = "
The password comes from --password-file, from --password, or, when neither flag is given,
from the environment variable SAIKORO_CSA_PASSWORD (the two flags cannot be given together).
It goes to the server and nowhere else: not to the log, the records, messages or the engine.

One line per game goes to stdout: `game <id>: <result> <reason> <plies> plies`.
Ctrl-C ends after the current game (a second one quits at once). Exit status 0 when every
game ended with the server's result line.
";

/// `saikoro csa --help`: made from [`FLAGS`].
fn help() -> String {
    format!(
        "{HELP_HEAD}{}{HELP_TAIL}",
        flags::help_sections(FLAGS, 27, &[])
    )
}

/// The command line as it is read: the login, which has no default, apart.
struct Given {
    args: Args,
    host: Option<String>,
    user: Option<String>,
    /// `--password`.
    password: Option<String>,
    /// `--password-file`.
    password_file: Option<PathBuf>,
}

type F = Flag<Given>;

/// Every flag of `saikoro csa`, in the order of its help.
const FLAGS: &[F] = &[
    F::new(
        "host",
        Takes::Value("HOST"),
        Doc::Text("server (required)"),
        |a, v| {
            a.host = Some(v.text()?);
            Ok(())
        },
    ),
    F::new(
        "port",
        Takes::Value("PORT"),
        Doc::Text("port [4081]"),
        |a, v| {
            a.args.port = v.number()?;
            Ok(())
        },
    ),
    F::new(
        "user",
        Takes::Value("NAME"),
        Doc::Text("login name (required)"),
        |a, v| {
            a.user = Some(v.text()?);
            Ok(())
        },
    ),
    F::new(
        "password-file",
        Takes::Value("FILE"),
        Doc::Wrapped(
            "the password: the first line of FILE (- = stdin), sent as is; Floodgate: \
             GAME,TRIP (e.g. floodgate-300-10F,mytrip). A warning when others can read FILE",
        ),
        |a, v| {
            a.password_file = Some(v.path());
            Ok(())
        },
    ),
    F::new(
        "password",
        Takes::Value("PASS"),
        Doc::Wrapped(
            "the password on the command line, where every user of the machine can \
             see it (ps); --password-file or SAIKORO_CSA_PASSWORD keep it private",
        ),
        |a, v| {
            // Not `text()`: its error would quote the value.
            let p = v.os().into_string();
            a.password = Some(p.map_err(|_| anyhow::anyhow!("--password: not UTF-8 text"))?);
            Ok(())
        },
    ),
    F::new(
        "games",
        Takes::Value("N"),
        Doc::Text("games to play, reconnecting for each; 0 = forever [1]"),
        |a, v| {
            a.args.games = v.number()?;
            Ok(())
        },
    ),
    F::new(
        "seed",
        Takes::Value("N"),
        Doc::Text("random player: game i uses seed N+i [fresh each game]"),
        |a, v| {
            a.args.seed = Some(v.number()?);
            Ok(())
        },
    ),
    F::new(
        "entering-king-rule",
        Takes::Value("R"),
        Doc::Text(
            "NoEnteringKing, CSARule24 or CSARule27
[from the Game_Summary's Declaration]",
        ),
        |a, v| {
            a.args.rule = Some(v.number()?);
            Ok(())
        },
    ),
    F::new(
        "margin-ms",
        Takes::Value("MS"),
        Doc::Text("safety margin on our clock [1500]"),
        |a, v| {
            a.args.margin = Duration::from_millis(v.number()?);
            Ok(())
        },
    ),
    F::new(
        "keepalive",
        Takes::Value("SECONDS"),
        Doc::Text("send an empty line after this long silent [40, at least 30]"),
        |a, v| {
            let secs: f64 = v.number()?;
            if !(secs.is_finite() && secs > 0.0) {
                bail!("--keepalive must be a positive number of seconds");
            }
            a.args.keepalive = Duration::from_secs_f64(secs);
            Ok(())
        },
    ),
    F::new(
        "record-dir",
        Takes::Value("DIR"),
        Doc::Text("write each game as DIR/<Game_ID>.csa (CSA V2.2)"),
        |a, v| {
            a.args.record_dir = Some(v.path());
            Ok(())
        },
    ),
    F::new(
        "engine",
        Takes::Value("\"CMD ARGS\""),
        Doc::Text("play with this USI engine instead of the random player"),
        |a, v| {
            a.args.engine = Some(v.text()?);
            Ok(())
        },
    ),
    F::new(
        "option",
        Takes::Value("NAME=VALUE"),
        Doc::Text("setoption for the engine (repeatable)"),
        |a, v| {
            let v = v.text()?;
            let (n, val) = v
                .split_once('=')
                .with_context(|| format!("--option {v}: expected NAME=VALUE"))?;
            a.args.options.push((n.to_string(), val.to_string()));
            Ok(())
        },
    ),
    F::new(
        "startup-ms",
        Takes::Value("MS"),
        Doc::Text("time the engine has to answer `usi` [60000]"),
        |a, v| {
            a.args.startup = Some(Duration::from_millis(v.number()?));
            Ok(())
        },
    ),
    F::new(
        "log-file",
        Takes::Value("FILE"),
        Doc::Text(
            "append the log there (debug level: the wire log, the password
masked) [warnings and errors to stderr]",
        ),
        |a, v| {
            a.args.log_file = Some(v.path());
            Ok(())
        },
    ),
    F::new("help", Takes::Help, Doc::Text(""), flags::no_setting).short('h'),
];

/// The keep-alive floor the protocol asks for (never within 30 s of our last line).
const KEEPALIVE_FLOOR: Duration = Duration::from_secs(30);
/// Test-only: lowers [`KEEPALIVE_FLOOR`] (milliseconds), so tests need not wait 30 s.
const KEEPALIVE_FLOOR_ENV: &str = "SAIKORO_CSA_KEEPALIVE_FLOOR_MS";
/// Consecutive failed connections before giving up (with a finite `--games`).
const MAX_CONNECT_FAILURES: u32 = 10;
const MAX_BACKOFF: Duration = Duration::from_secs(60);

struct Args {
    host: String,
    port: u16,
    user: String,
    /// Where the password comes from (read in [`main`], after the command line).
    password: Source,
    games: u64,
    seed: Option<u64>,
    rule: Option<EnteringKingRule>,
    margin: Duration,
    keepalive: Duration,
    record_dir: Option<PathBuf>,
    engine: Option<String>,
    options: Vec<(String, String)>,
    startup: Option<Duration>,
    log_file: Option<PathBuf>,
}

/// The command line; `env_set`: whether the environment holds a password
/// ([`password::ENV`]), for the error when nothing gives one.
fn parse_args(args: Vec<OsString>, env_set: bool) -> anyhow::Result<Option<Args>> {
    let mut p = flags::Lexer::new(args);
    let mut given = Given {
        args: Args::defaults(),
        host: None,
        user: None,
        password: None,
        password_file: None,
    };
    while let Some(step) = flags::next(&mut p, FLAGS, &mut given)? {
        match step {
            Step::Flag(_) => {}
            Step::Help | Step::Version => {
                print!("{}", help());
                return Ok(None);
            }
            Step::Positional(v) => return Err(flags::ArgError::UnexpectedArgument(v).into()),
        }
    }
    let mut a = given.args;
    a.host = given.host.context("--host is required")?;
    a.user = given.user.context("--user is required")?;
    a.password = Source::from_flags(given.password, given.password_file, env_set)?;
    check_user(&a.user)?;
    raise_keepalive(&mut a);
    Ok(Some(a))
}

impl Args {
    /// The values of the options not given (host, user and a password are required).
    fn defaults() -> Args {
        Args {
            host: String::new(),
            port: 4081,
            user: String::new(),
            password: Source::Env,
            games: 1,
            seed: None,
            rule: None,
            margin: Duration::from_millis(1500),
            keepalive: Duration::from_secs(40),
            record_dir: None,
            engine: None,
            options: Vec::new(),
            startup: None,
            log_file: None,
        }
    }
}

/// A user name the protocol's LOGIN line can carry: not empty, no spaces (the password's
/// rules are in [`password`]).
fn check_user(user: &str) -> anyhow::Result<()> {
    if user.is_empty() || user.contains(char::is_whitespace) {
        bail!("--user must be a name without spaces");
    }
    Ok(())
}

/// Raises `--keepalive` to the floor the protocol allows (overridable for tests through
/// the environment), saying so on stderr.
fn raise_keepalive(a: &mut Args) {
    let floor = std::env::var(KEEPALIVE_FLOOR_ENV)
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(KEEPALIVE_FLOOR, Duration::from_millis);
    if a.keepalive < floor {
        eprintln!(
            "saikoro csa: --keepalive raised to {} s: the protocol forbids keep-alives within 30 s",
            floor.as_secs_f64()
        );
        a.keepalive = floor;
    }
}

/// Runs the CSA client.
pub fn main(args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    // First, while there is no other thread: the engine must not inherit it.
    let env_password = password::take_env();
    let Some(args) =
        parse_args(args, env_password.is_some()).map_err(|e| super::usage("csa", e))?
    else {
        return Ok(ExitCode::SUCCESS);
    };
    let password = args.password.read(env_password.as_ref())?;
    super::init_logging(args.log_file.as_deref(), log::LevelFilter::Warn)?;
    match (&args.password, &env_password) {
        (Source::Env, _) | (_, None) => info!("the password is from {}", args.password),
        (_, Some(_)) => info!(
            "the password is from {} ({} is set too: a flag goes first)",
            args.password,
            password::ENV
        ),
    }
    if let Some(dir) = &args.record_dir {
        super::tools::create_record_dir(dir)?;
    }
    if args.startup.is_some() && args.engine.is_none() {
        warn!("--startup-ms is only for --engine: ignored");
    }
    // A host name that does not resolve is a typo, not a server that is down: said at once,
    // where a refused or dropped connection is retried (play_games). Later reconnects
    // resolve it again, and a failure then (a DNS hiccup in a long run) is retried.
    resolve(&args.host, args.port)?;
    let stop = Arc::new(AtomicBool::new(false));
    guard_interrupts(&stop)?;
    let mut cfg = ClientConfig::new(&args.user, &password);
    cfg.keepalive = args.keepalive;
    cfg.margin = args.margin;
    cfg.rule = args.rule;
    cfg.stop = stop.clone();

    let mut engine;
    let mut random;
    let player: &mut dyn Player = match &args.engine {
        Some(cmd) => {
            engine = EnginePlayer::spawn(cmd, &args.options, args.startup)
                .map_err(|e| anyhow::anyhow!("--engine {cmd}: {e}"))?;
            &mut engine
        }
        None => {
            if !args.options.is_empty() {
                warn!("--option is only for --engine: ignored");
            }
            random = BuiltinPlayer::new(args.seed);
            &mut random
        }
    };
    Ok(match play_games(&args, &cfg, player, &stop)? {
        // Ctrl-C with no game to finish (waiting to connect, to reconnect or for a match).
        Ran::Interrupted => ExitCode::from(130),
        Ran::Games { all_normal: true } => ExitCode::SUCCESS,
        Ran::Games { all_normal: false } => ExitCode::FAILURE,
    })
}

/// The addresses of `host`; an error that names the host and the flag when there are none.
fn resolve(host: &str, port: u16) -> anyhow::Result<Vec<std::net::SocketAddr>> {
    use std::net::ToSocketAddrs;
    let unknown = |why: String| anyhow::anyhow!("unknown host '{host}' (--host): {why}");
    let addrs: Vec<_> = (host, port)
        .to_socket_addrs()
        .map_err(|e| unknown(e.to_string()))?
        .collect();
    if addrs.is_empty() {
        return Err(unknown("no address".to_string()));
    }
    Ok(addrs)
}

/// Guards the engines' lives; the first Ctrl-C sets `stop` (the current game is played out),
/// the second quits at once.
fn guard_interrupts(stop: &Arc<AtomicBool>) -> anyhow::Result<()> {
    let stop = stop.clone();
    let on_interrupt = move |_| {
        if stop.swap(true, Ordering::SeqCst) {
            eprintln!("saikoro csa: interrupted again: quitting now");
            guard::exit(130);
        }
        eprintln!("saikoro csa: stopping after the current game (Ctrl-C again to quit now)");
    };
    super::tools::guard_engines("csa", Some(Box::new(on_interrupt)))
}

/// What the run has come to so far.
struct Games {
    played: u64,
    /// Every game so far ended with the server's result line (and its record was written).
    all_normal: bool,
    /// Failed connections or sessions in a row.
    failures: u32,
}

impl Games {
    /// Counts one more failure in a row: how long to wait before the next try, or `None` when
    /// it is time to give up (with a finite `--games`).
    fn failed(&mut self, args: &Args) -> Option<Duration> {
        self.failures += 1;
        if args.games != 0 && self.failures >= MAX_CONNECT_FAILURES {
            return None;
        }
        Some(backoff(self.failures))
    }
}

/// How a run of games ended.
enum Ran {
    /// The games were played, or the run was stopped right after one ended: whether every
    /// game ended normally.
    Games { all_normal: bool },
    /// Stopped (Ctrl-C) while no game was being played.
    Interrupted,
}

/// Plays `--games` games (reconnecting for each, and after failures) until done or stopped.
fn play_games(
    args: &Args,
    cfg: &ClientConfig,
    player: &mut dyn Player,
    stop: &AtomicBool,
) -> anyhow::Result<Ran> {
    let tick = (args.keepalive / 4).min(Duration::from_millis(200));
    let mut games = Games {
        played: 0,
        all_normal: true,
        failures: 0,
    };
    // Whether the last session played a game to its end: a stop seen then came during it.
    let mut after_a_game = false;
    while args.games == 0 || games.played < args.games {
        if stop.load(Ordering::SeqCst) {
            if !after_a_game {
                return Ok(Ran::Interrupted);
            }
            break;
        }
        after_a_game = false;
        let stream = match TcpStream::connect((args.host.as_str(), args.port)) {
            Ok(s) => s,
            Err(e) => {
                let Some(wait) = games.failed(args) else {
                    bail!("cannot connect to {}:{}: {e}", args.host, args.port);
                };
                warn!(
                    "cannot connect to {}:{}: {e}; retrying in {} s",
                    args.host,
                    args.port,
                    wait.as_secs()
                );
                sleep_unless_stopped(wait, stop);
                continue;
            }
        };
        info!("connected to {}:{}", args.host, args.port);
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(tick))?;
        let ka = socket2::TcpKeepalive::new().with_time(Duration::from_secs(60));
        if let Err(e) = socket2::SockRef::from(&stream).set_tcp_keepalive(&ka) {
            warn!("cannot set SO_KEEPALIVE: {e}");
        }
        let reader = BufReader::new(stream.try_clone()?);
        let result = run_session(reader, &stream, cfg, player);
        let _ = stream.shutdown(std::net::Shutdown::Both);
        let before = games.played;
        if games.session_ended(result, args, stop)?.is_break() {
            return Ok(Ran::Interrupted);
        }
        after_a_game = games.played > before;
    }
    Ok(Ran::Games {
        all_normal: games.all_normal,
    })
}

impl Games {
    /// Takes in how a session ended: prints the game's line and writes its record, or waits to
    /// reconnect. `Break` when the run was stopped; `Err` for what ends it.
    fn session_ended(
        &mut self,
        result: Result<SessionEnd, SessionError>,
        args: &Args,
        stop: &AtomicBool,
    ) -> anyhow::Result<ControlFlow<()>> {
        match result {
            Ok(SessionEnd::Played(report)) => {
                self.failures = 0;
                self.played += 1;
                say(&report.summary_line())?;
                if !report.result.is_normal() {
                    self.all_normal = false;
                }
                if let Some(dir) = &args.record_dir {
                    if let Err(e) = save_record(dir, &report) {
                        error!("cannot write the record: {e:#}");
                        self.all_normal = false;
                    }
                }
                if let Some(e) = &report.player_error {
                    bail!("the engine failed: {e}");
                }
            }
            Ok(SessionEnd::Rejected { game_id, by }) => {
                self.failures = 0;
                self.played += 1;
                self.all_normal = false;
                info!("game {game_id} rejected by {by}");
                say(&format!("game {game_id}: rejected REJECT 0 plies"))?;
            }
            Ok(SessionEnd::Stopped) => return Ok(ControlFlow::Break(())),
            Err(SessionError::LoginIncorrect) => bail!(
                "LOGIN:incorrect: check --user and the password (from {}), or the name is \
                 already playing",
                args.password
            ),
            Err(SessionError::Player(e)) => bail!("the engine failed: {e}"),
            Err(SessionError::Summary(e)) => {
                self.played += 1;
                self.all_normal = false;
                error!("game rejected: {e}");
            }
            Err(e) => {
                let Some(wait) = self.failed(args) else {
                    bail!("giving up: {e}");
                };
                warn!("{e}; reconnecting in {} s", wait.as_secs());
                sleep_unless_stopped(wait, stop);
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// 1, 2, 4, … seconds, at most a minute.
/// One line on stdout, flushed; a closed stdout is an error (main ends quietly on it), not the
/// panic of `println!`.
fn say(line: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()
}

fn backoff(failures: u32) -> Duration {
    (Duration::from_secs(1) * 2u32.saturating_pow(failures.saturating_sub(1).min(6)))
        .min(MAX_BACKOFF)
}

fn sleep_unless_stopped(d: Duration, stop: &AtomicBool) {
    let until = std::time::Instant::now() + d;
    while std::time::Instant::now() < until && !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A file name from a Game_ID: characters other than `[A-Za-z0-9+._-]` become `_`.
fn file_name(game_id: &str) -> String {
    let s: String = game_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "+._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') {
        format!("game{s}")
    } else {
        s
    }
}

/// Writes the game's record as Floodgate's server writes its records: CSA V2.2, the names, the
/// Game_ID as `$EVENT`, the start and end times, the settings as comments, each move with the
/// time the server charged, the end line ([`GameReport::ending`]) and the `'summary:` line.
fn save_record(dir: &Path, r: &GameReport) -> anyhow::Result<()> {
    let s = &r.summary;
    let word = |c: Color| match (r.result, c == s.us) {
        (ServerResult::Win, true) | (ServerResult::Lose, false) => "win",
        (ServerResult::Lose, true) | (ServerResult::Win, false) => "lose",
        (ServerResult::Interrupted, _) => "interrupted",
        _ => "draw",
    };
    let tb = s.time[Color::Black];
    let mut record = Record::new(r.start.clone());
    record.set_header("先手", s.names[Color::Black].as_str());
    record.set_header("後手", s.names[Color::White].as_str());
    record.set_header("棋戦", s.game_id.as_str());
    record.set_header("開始日時", format_time(r.started));
    record.set_header("終了日時", format_time(r.ended));
    record.comments = vec![
        format!("Max_Moves:{}", s.max_moves.unwrap_or(0)),
        format!(
            "Time: unit {} ms, total {}, byoyomi {}, increment {}",
            tb.unit_ms, tb.total, tb.byoyomi, tb.increment
        ),
        "times are UTC".to_string(),
    ];
    record.moves = r
        .moves
        .iter()
        .map(|&(mv, t)| RecordMove::with_time(mv, t.map(|t| u64::from(t) * 1000)))
        .collect();
    let summary = format!(
        "summary:{}:{} {}:{} {}",
        r.reason.to_lowercase(),
        s.names[Color::Black],
        word(Color::Black),
        s.names[Color::White],
        word(Color::White)
    );
    record.set_end(r.ending(), vec![summary]);
    let path = dir.join(format!("{}.csa", file_name(&s.game_id)));
    let mut f = std::io::BufWriter::new(
        std::fs::File::create(&path).with_context(|| format!("{}", path.display()))?,
    );
    f.write_all(csa::write_version(&record, Version::V22).as_bytes())?;
    f.flush()?;
    info!("record written to {}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_file_names() {
        assert_eq!(
            file_name("wdoor+floodgate-300-10F+a+b+20211105220005"),
            "wdoor+floodgate-300-10F+a+b+20211105220005"
        );
        assert_eq!(file_name("../x/y"), "game.._x_y");
        assert_eq!(file_name(""), "game");
    }

    #[test]
    fn backoff_doubles_up_to_a_minute() {
        assert_eq!(backoff(1), Duration::from_secs(1));
        assert_eq!(backoff(2), Duration::from_secs(2));
        assert_eq!(backoff(4), Duration::from_secs(8));
        assert_eq!(backoff(20), Duration::from_secs(60));
    }
}
