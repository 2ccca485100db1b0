//! `saikoro selfplay`: random self-play games and a summary.

mod games;

use super::flags::{self, Doc, Flag, Step, Takes};
use anyhow::Context;
use games::{play_game, Summary};
use saikoro_core::{Color, EnteringKingRule, Game, Outcome, Position, RandomMover};
use saikoro_record::{csa, Ending, Record, RecordMove};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The help before the list of flags.
const HELP_HEAD: &str = "\
Usage: saikoro selfplay [OPTIONS]

Plays uniformly random legal games of the random player against itself and prints a summary:
games, plies (mean/min/max), outcomes by kind, games per second, and a histogram of game
lengths. When stderr is a terminal, a progress line (games done, rate, time left) is shown there.

";

/// `saikoro selfplay --help`: made from [`FLAGS`].
fn help() -> String {
    format!("{HELP_HEAD}{}", flags::help_sections(FLAGS, 26, &[]))
}

struct Config {
    games: u64,
    seed: Option<u64>,
    max_plies: u32,
    sfen: Option<String>,
    rule: EnteringKingRule,
    record_dir: Option<PathBuf>,
    log_file: Option<PathBuf>,
}

type F = Flag<Config>;

const OPTIONS: &str = "Options:";

/// Every flag of `saikoro selfplay`, in the order of its help.
const FLAGS: &[F] = &[
    F::new(
        "games",
        Takes::Value("N"),
        Doc::Text("games to play (default 100)"),
        |c, v| {
            c.games = v.number()?;
            Ok(())
        },
    )
    .section(OPTIONS),
    F::new(
        "seed",
        Takes::Value("S"),
        Doc::Text(
            "seed of the first game; game i (from 0) uses S + i, so any game
replays alone with --games 1 --seed S+i (default: fresh entropy)",
        ),
        |c, v| {
            c.seed = Some(v.number()?);
            Ok(())
        },
    )
    .section(OPTIONS),
    F::new(
        "max-plies",
        Takes::Value("N"),
        Doc::Text("stop a game after N plies (default 4000)"),
        |c, v| {
            c.max_plies = v.number()?;
            Ok(())
        },
    )
    .section(OPTIONS),
    F::new(
        "sfen",
        Takes::Value("SFEN"),
        Doc::Text("start position (default: the standard start)"),
        |c, v| {
            c.sfen = Some(v.text()?);
            Ok(())
        },
    )
    .section(OPTIONS),
    F::new(
        "entering-king-rule",
        Takes::Value("R"),
        Doc::Text("NoEnteringKing, CSARule24 or CSARule27 (default CSARule27)"),
        |c, v| {
            c.rule = v.text()?.parse()?;
            Ok(())
        },
    )
    .section(OPTIONS),
    F::new(
        "record-dir",
        Takes::Value("DIR"),
        Doc::Text("write each game as a CSA record into DIR"),
        |c, v| {
            c.record_dir = Some(v.path());
            Ok(())
        },
    )
    .section(OPTIONS),
    F::new(
        "log-file",
        Takes::Value("FILE"),
        Doc::Text("append the log to FILE"),
        |c, v| {
            c.log_file = Some(v.path());
            Ok(())
        },
    )
    .section(OPTIONS),
    F::new("help", Takes::Help, Doc::Hidden, flags::no_setting).short('h'),
];

fn parse(args: Vec<OsString>) -> anyhow::Result<Option<Config>> {
    let mut c = Config {
        games: 100,
        seed: None,
        max_plies: 4000,
        sfen: None,
        rule: EnteringKingRule::default(),
        record_dir: None,
        log_file: None,
    };
    let mut p = flags::Lexer::new(args);
    while let Some(step) = flags::next(&mut p, FLAGS, &mut c)? {
        match step {
            Step::Flag(_) => {}
            Step::Help | Step::Version => {
                print!("{}", help());
                return Ok(None);
            }
            Step::Positional(v) => return Err(flags::ArgError::UnexpectedArgument(v).into()),
        }
    }
    Ok(Some(c))
}

/// Runs self-play games.
pub fn main(args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    let Some(cfg) = parse(args).map_err(|e| super::usage("selfplay", e))? else {
        return Ok(ExitCode::SUCCESS);
    };
    super::init_logging(cfg.log_file.as_deref(), log::LevelFilter::Off)?;
    let start = match &cfg.sfen {
        Some(s) => Position::from_sfen(s)
            .with_context(|| format!("--sfen {s:?}"))
            .map_err(|e| super::usage("selfplay", e))?,
        None => Position::startpos(),
    };
    if let Some(dir) = &cfg.record_dir {
        super::tools::create_record_dir(dir)?;
    }
    let seed = cfg.seed.unwrap_or_else(RandomMover::entropy_seed);
    log::info!("selfplay: {} games from {start}, seed {seed}", cfg.games);
    let mut player = RandomMover::new(seed);
    let mut summary = Summary::default();
    let t0 = Instant::now();
    let mut progress = super::progress::Progress::on_stderr("selfplay", "games", Some(cfg.games));
    for i in 0..cfg.games {
        let game_seed = seed.wrapping_add(i);
        player.reseed(game_seed);
        let (game, outcome) = play_game(&mut player, &start, cfg.max_plies, cfg.rule);
        summary.add(game.len() as u64, outcome);
        if let Some(dir) = &cfg.record_dir {
            let path = dir.join(format!("selfplay-{game_seed}.csa"));
            write_record(&path, &game, outcome, game_seed)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        progress.update(summary.games);
    }
    summary.elapsed = t0.elapsed();
    progress.finish();
    // writeln!, not println!: a closed stdout is an error to end on quietly, not a panic.
    let mut out = std::io::stdout().lock();
    writeln!(out, "seed: {seed}")?;
    writeln!(out, "{summary}")?;
    Ok(ExitCode::SUCCESS)
}

/// Writes one game as a CSA V2.2 record; the end line says how it ended
/// ([`Ending::of_outcome`]).
fn write_record(path: &Path, game: &Game, outcome: Outcome, seed: u64) -> anyhow::Result<()> {
    let why = match outcome {
        Outcome::Checkmate { .. } => "checkmate".to_string(),
        Outcome::Repetition => "fourfold repetition".to_string(),
        Outcome::PerpetualCheck { .. } => "perpetual check".to_string(),
        Outcome::Declaration { .. } => "entering-king declaration".to_string(),
        Outcome::MaxMoves => format!("ply limit {}", game.len()),
    };
    let result = match outcome.winner() {
        Some(Color::Black) => "black wins",
        Some(Color::White) => "white wins",
        None => "draw",
    };
    let mut record = Record::new(game.start().clone());
    record.set_header("先手", "Saikoro");
    record.set_header("後手", "Saikoro");
    record.set_header("棋戦", "saikoro selfplay");
    record.set_header("開始日時", csa::format_time(std::time::SystemTime::now()));
    record.comments = vec![format!("seed {seed}")];
    record.moves = game.moves().map(RecordMove::new).collect();
    let result = format!("result: {result} by {why}, {} plies", game.len());
    record.set_end(Ending::of_outcome(outcome), vec![result]);
    std::fs::write(path, csa::write_version(&record, csa::Version::V22))?;
    Ok(())
}
