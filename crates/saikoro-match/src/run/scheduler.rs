//! The games of a match and who plays them: the schedule (rounds × pairings × games, colours
//! swapped within each game pair), `--concurrency` worker threads each with its own engine
//! processes, and the main thread that hands every finished game to the output sinks
//! (`sink`: line, results file, record, saved state, statistics), keeps the
//! score, and asks the stop rules (`stop`: an SPRT bound, an engine that keeps
//! failing, Ctrl-C) whether the match goes on.

use crate::config::MatchConfig;
use crate::game::book;
use crate::game::book::Opening;
use crate::game::engine::{probe, EngineError, MatchEngine};
use crate::game::referee::{play_game, GameSetup, Referee, Slot, LATE_ANSWER_WAIT};
use crate::game::result::{GameRecord, Late, Reason};
use crate::output::files;
use crate::output::lines;
use crate::output::pgn::PgnWriter;
use crate::output::sink::{
    io_error, Console, Finished, GameLines, GameSink, RatingInterval, Records, ResultsFile,
    StateFile,
};
use crate::output::state::{SavedMatch, StateWriter};
use crate::output::style::count;
use crate::run::report::LiveReport;
use crate::run::stop::{FailureLimit, Interrupt, SprtBound, StopRule};
pub use crate::schedule::{schedule, Pairing, ScheduledGame, Scoreboard, Shape};
pub use crate::types::{new_match_id, Control, Ending, Match, MatchError, Progress, Reporter};
use log::{info, warn};
use saikoro_core::{ByColor, RandomMover};
use saikoro_driver::guard;
use saikoro_outfile::{self as outfile, Named};
use std::collections::VecDeque;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Checks, before any engine starts, that the match writes over nothing of another match's
/// (`files::check_outputs`): a new match (`id`) refuses every output that holds another
/// match's games, unless `--overwrite` (which clears them); a resumed match refuses a page or
/// results file of another match, and drops from its results file the games its state does
/// not hold.
fn outputs<'a>(
    config: &'a MatchConfig,
    resume: Option<&SavedMatch>,
    id: &str,
) -> Result<(), MatchError> {
    let named = |flag, path: Option<&'a Path>| path.map(|p| Named::new(flag, p));
    let files: Vec<Named> = [
        named("--results", config.results.as_deref()),
        named("--pgnout", config.pgn.as_ref().map(|p| p.file.as_path())),
        named("--report", config.report.as_deref()),
        named("--state", config.state.as_deref()),
    ]
    .into_iter()
    .flatten()
    .collect();
    let records = named("--records", config.records.as_deref());
    let inputs: Vec<Named> = named(
        "--openings",
        config.openings.as_ref().map(|o| o.file.as_path()),
    )
    .into_iter()
    .collect();
    let mut all = files.clone();
    all.extend(records);
    outfile::check_distinct(&all)?;
    if let Some(dir) = records {
        outfile::check_output_directory(dir)?;
        outfile::check_not_input(dir, &inputs)?;
    }
    for file in files {
        outfile::check_directory(file)?;
        outfile::check_not_input(file, &inputs)?;
    }
    let owner = match resume {
        Some(saved) => saved.id.as_deref(),
        None => Some(id),
    };
    files::check_outputs(config, owner, resume.is_some())?;
    match resume {
        Some(saved) => {
            if let Some(path) = &config.results {
                files::trim_results(path, saved).map_err(io_error(path.display().to_string()))?;
            }
            if let Some(pgn) = &config.pgn {
                files::trim_pgn(&pgn.file, saved)
                    .map_err(io_error(pgn.file.display().to_string()))?;
            }
        }
        None if config.overwrite => {
            files::clear_outputs(config).map_err(io_error("the outputs"))?
        }
        None => {}
    }
    Ok(())
}

/// Makes every name distinct: a repeated one gets ` (2)`, ` (3)`, …
fn distinct_names(names: &mut [String]) {
    for i in 1..names.len() {
        let base = names[i].clone();
        let mut k = 2;
        while names[..i].contains(&names[i]) {
            names[i] = format!("{base} ({k})");
            k += 1;
        }
    }
}

impl Match {
    /// Prepares a match: reads and checks the openings (before any engine starts), starts
    /// each engine once to learn its name and check its options, builds the schedule, and
    /// opens the state file, which keeps the configuration; `resume` takes the finished games
    /// (and the opening order's seed) from the state file instead.
    pub fn prepare(config: MatchConfig, resume: Option<SavedMatch>) -> Result<Match, MatchError> {
        let seed = match (&resume, config.seed) {
            (Some(saved), _) => saved.seed,
            (None, Some(s)) => s,
            (None, None) => RandomMover::entropy_seed() >> 1,
        };
        let openings = match &config.openings {
            Some(o) => book::load(o, seed)?,
            None => vec![Opening::startpos()],
        };
        // A resumed match keeps its id; one saved before matches were named gets one now.
        let id = match resume.as_ref().and_then(|s| s.id.clone()) {
            Some(id) => id,
            None => new_match_id(),
        };
        outputs(&config, resume.as_ref(), &id)?;
        info!(
            "{}, seed {seed}",
            count(openings.len(), "opening", "openings")
        );
        let policy = referee(&config).policy();
        let mut names = Vec::new();
        for e in &config.engines {
            names.push(probe(e, &policy).map_err(MatchError::Engine)?);
        }
        distinct_names(&mut names);
        let (pairings, games) = schedule(Shape {
            engines: config.engines.len(),
            gauntlet: config.gauntlet,
            rounds: config.rounds,
            games: config.games,
            noswap: config.noswap,
            openings: openings.len(),
        });
        let mut scoreboard = Scoreboard::new(&pairings, config.distinct_games);
        let state = match (&config.state, &resume) {
            (Some(path), Some(saved)) => {
                for g in &saved.games {
                    let repeats = g
                        .fingerprint
                        .and_then(|fp| scoreboard.fingerprint(g.number, fp));
                    // A saved game the schedule does not hold is not counted.
                    if let Some(game) = games.get((g.number as usize).wrapping_sub(1)) {
                        scoreboard.add(game, g.result, g.reason, repeats.is_some());
                    }
                }
                Some(StateWriter::resume(path, &config, saved, &id)?)
            }
            (Some(path), None) => {
                if path.exists() {
                    info!(
                        "replacing the saved state in {} (a match of no game, or --overwrite)",
                        path.display()
                    );
                }
                Some(StateWriter::create(path, &config, seed, &id)?)
            }
            (None, _) => None,
        };
        Ok(Match {
            id,
            config,
            names,
            openings,
            seed,
            pairings,
            games,
            scoreboard,
            state,
        })
    }
}

/// Figures of the run (this session only, not the games of a resumed state).
#[derive(Clone, Debug, Default)]
pub struct RunFigures {
    /// Games finished.
    pub games: u64,
    /// Engine moves played.
    pub plies: u64,
    /// Wall time.
    pub wall: Duration,
    /// The runner's own CPU time (user + system, all its threads, the engines excluded), where
    /// the system tells it.
    pub cpu: Option<Duration>,
    /// The engines' CPU time (those that ended: all of them once the match is over).
    pub engines_cpu: Option<Duration>,
    /// Games lost on time by a `bestmove` the engine sent by itself less than
    /// [`NARROW_TIME_LOSS_US`] over the time given, and the largest of those overruns
    /// (microseconds): what a `--timemargin` would have covered.
    pub narrow_time_losses: (u64, u64),
    /// Games lost on time by an engine still searching at the runner's `stop`, which it
    /// answered: no margin is known to cover them.
    pub time_losses_after_stop: u64,
}

/// A loss on time by less than this (microseconds) over the time given is the runner's and
/// the pipe's latency as much as the engine's: the end of the match says which margin would
/// have covered it.
pub const NARROW_TIME_LOSS_US: u64 = 20_000;

impl RunFigures {
    /// The hint after a match with narrow time losses: how many, and the margin that would
    /// have covered them, written as `margin_flag` (`--timemargin N`, `timemargin=N`) does.
    pub fn time_margin_hint(&self, margin_flag: impl Fn(u64) -> String) -> Option<String> {
        let (n, max_us) = self.narrow_time_losses;
        if n == 0 {
            return None;
        }
        let ms = max_us.div_ceil(1000).max(1);
        let (games, them) = if n == 1 {
            ("game was", "it")
        } else {
            ("games were", "them")
        };
        Some(format!(
            "Hint: {n} {games} lost on time by less than {} ms over the time given (at most \
             {:.1} ms): {} would have covered {them}. GUIs and servers allow such a margin for the \
             time a move takes to travel (the ShogiBench worker gives timemargin=250).",
            NARROW_TIME_LOSS_US / 1000,
            max_us as f64 / 1000.0,
            margin_flag(ms)
        ))
    }

    /// The note after a match with games lost on time by an engine still searching at the
    /// runner's `stop`: why no margin is named for them.
    pub fn after_stop_note(&self) -> Option<String> {
        let n = self.time_losses_after_stop;
        let (games, them) = match n {
            0 => return None,
            1 => ("game was", "it"),
            _ => ("games were", "them"),
        };
        Some(format!(
            "Note: {n} {games} lost on time by an engine still searching {} ms after its time \
             and the margin ran out, which moved only after the runner's stop: no margin is known \
             to cover {them}. Either the engine takes more time than its clock gives it (saikoro \
             check tests how it reads the clock) or the machine was too busy for it to stop in \
             time.",
            LATE_ANSWER_WAIT.as_millis()
        ))
    }
}

impl fmt::Display for RunFigures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.wall.as_secs_f64().max(1e-9);
        write!(
            f,
            "Played {}, {} in {:.1} s: {:.1} games/s",
            count(self.games as usize, "game", "games"),
            count(self.plies as usize, "ply", "plies"),
            secs,
            self.games as f64 / secs
        )?;
        if self.plies == 0 {
            // No ply to divide by: a per-ply figure would be the start-up's cost.
            return Ok(());
        }
        if let Some(cpu) = self.cpu {
            write!(
                f,
                "; runner CPU {:.2} s, {:.1} us per ply",
                cpu.as_secs_f64(),
                cpu.as_secs_f64() * 1e6 / self.plies.max(1) as f64
            )?;
        }
        match self.engines_cpu {
            // Engines that run outside our process tree (under Wine: in wineserver's) are not
            // our children's CPU time: zero means unmeasured, not free.
            Some(cpu) if cpu.is_zero() && self.plies > 0 => write!(f, " (engines n/a)")?,
            Some(cpu) => write!(
                f,
                " (engines {:.1} us per ply)",
                cpu.as_secs_f64() * 1e6 / self.plies.max(1) as f64
            )?,
            None => {}
        }
        Ok(())
    }
}

/// The CPU time (user + system) this process has used, all its threads, and that of its
/// children that have ended and been waited for (the engines): `getrusage`, in microseconds
/// (`/proc/self/stat` counts whole 1/100 s ticks, so a short match read 0.00 s and "0.0 us
/// per ply"). `None` where there is no such call.
pub(crate) fn cpu_times() -> Option<(Duration, Duration)> {
    #[cfg(unix)]
    {
        use nix::sys::resource::{getrusage, UsageWho};
        let used = |who| {
            let u = getrusage(who).ok()?;
            let us = |t: nix::sys::time::TimeVal| -> Option<u64> {
                Some(
                    u64::try_from(t.tv_sec()).ok()? * 1_000_000
                        + u64::try_from(t.tv_usec()).ok()?,
                )
            };
            Some(Duration::from_micros(
                us(u.user_time())? + us(u.system_time())?,
            ))
        };
        Some((
            used(UsageWho::RUSAGE_SELF)?,
            used(UsageWho::RUSAGE_CHILDREN)?,
        ))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// What the workers tell the main thread.
enum Event {
    /// A game ended. The worker waits until the main thread drops the sender (once it has
    /// written the game out and decided whether the match goes on), so that no worker runs
    /// ahead of an SPRT verdict or a failure limit with fast games.
    Finished(ScheduledGame, Box<GameRecord>, mpsc::Sender<()>),
    Fatal(EngineError),
    Done,
}

fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b);
    if a < b {
        let (l, r) = v.split_at_mut(b);
        (&mut l[a], &mut r[0])
    } else {
        let (l, r) = v.split_at_mut(a);
        (&mut r[0], &mut l[b])
    }
}

struct Shared<'a> {
    m: &'a Match,
    queue: Mutex<VecDeque<ScheduledGame>>,
    control: &'a Control,
    referee: Referee,
}

fn worker(shared: &Shared<'_>, tx: mpsc::Sender<Event>) {
    let m = shared.m;
    let mut slots: Vec<Option<MatchEngine>> = (0..m.config.engines.len()).map(|_| None).collect();
    loop {
        if guard::terminating() {
            // The signal thread ends the engines and the tool: start no engine again, and do
            // not let the match look finished (its state "completed") before the exit.
            loop {
                std::thread::park();
            }
        }
        if shared.control.stop_new.load(Ordering::SeqCst)
            || shared.control.abort.load(Ordering::SeqCst)
        {
            break;
        }
        let next = shared
            .queue
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front();
        let Some(g) = next else { break };
        let engines = &m.config.engines;
        let (b, w) = two_mut(&mut slots, g.black, g.white);
        let setup = GameSetup {
            opening: &m.openings[g.opening],
            names: ByColor([&m.names[g.black], &m.names[g.white]]),
            limits: ByColor([engines[g.black].limits, engines[g.white].limits]),
            referee: &shared.referee,
            abort: &shared.control.abort,
        };
        let slots = ByColor([
            Slot {
                engine: b,
                config: &engines[g.black],
            },
            Slot {
                engine: w,
                config: &engines[g.white],
            },
        ]);
        match play_game(&setup, slots) {
            Ok(record) => {
                let (done_tx, done_rx) = mpsc::channel();
                if tx
                    .send(Event::Finished(g, Box::new(record), done_tx))
                    .is_err()
                {
                    break;
                }
                // Ends when the main thread drops its sender.
                let _ = done_rx.recv();
            }
            Err(e) => {
                let _ = tx.send(Event::Fatal(e));
                break;
            }
        }
    }
    for e in slots.into_iter().flatten() {
        e.quit();
    }
    let _ = tx.send(Event::Done);
}

/// How the match is ending: the first ending a rule called for, and the first error.
#[derive(Debug)]
struct Outcome {
    ending: Ending,
    error: Option<MatchError>,
}

impl Outcome {
    /// Ends the match with `ending` (unless an earlier one stands): no new games, and the
    /// running ones end now.
    fn stop(&mut self, control: &Control, ending: Ending) {
        control.stop_new.store(true, Ordering::SeqCst);
        control.abort.store(true, Ordering::SeqCst);
        if self.ending == Ending::Completed {
            self.ending = ending;
        }
    }

    /// Ends the match with an error (unless an earlier one stands).
    fn fail(&mut self, control: &Control, error: MatchError) {
        if self.error.is_none() {
            self.error = Some(error);
        }
        self.stop(control, Ending::Completed);
    }
}

/// The main thread's side of the match (fastchess's tournament loop): takes each finished
/// game from the workers, hands it to the sinks, counts it, and asks the stop rules whether
/// the match goes on.
struct Collector<'a> {
    m: &'a Match,
    control: &'a Control,
    console: Console<'a>,
    sinks: Vec<Box<dyn GameSink + 'a>>,
    rules: Vec<Box<dyn StopRule + 'a>>,
    board: Scoreboard,
    figures: RunFigures,
    outcome: Outcome,
}

impl Collector<'_> {
    /// Plays `queue` on the workers, handing on each game as it ends; returns the score, the
    /// figures and how the match ended.
    fn play(mut self, queue: VecDeque<ScheduledGame>) -> (Scoreboard, RunFigures, Outcome) {
        let workers = self.m.config.concurrency.clamp(1, queue.len().max(1));
        let shared = Shared {
            m: self.m,
            queue: Mutex::new(queue),
            control: self.control,
            referee: referee(&self.m.config),
        };
        for sink in &mut self.sinks {
            if let Err(e) = sink.started(self.m, &self.board) {
                warn!("cannot write the report: {e}");
            }
        }
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|s| {
            for _ in 0..workers {
                let tx = tx.clone();
                let shared = &shared;
                s.spawn(move || worker(shared, tx));
            }
            drop(tx);
            self.collect(&rx, workers);
        });
        self.console.progress().finish();
        if self.outcome.ending == Ending::Completed {
            if let Some(ending) = self.rules.iter_mut().find_map(|r| r.at_end()) {
                self.outcome.ending = ending;
            }
        }
        for sink in &mut self.sinks {
            let (ending, error) = (&self.outcome.ending, self.outcome.error.as_ref());
            if let Err(e) = sink.ended(self.m, &self.board, ending, error) {
                warn!("cannot write the report: {e}");
            }
        }
        (self.board, self.figures, self.outcome)
    }

    /// Takes the workers' events until all `running` workers are done.
    fn collect(&mut self, rx: &mpsc::Receiver<Event>, mut running: usize) {
        while running > 0 {
            let Ok(ev) = rx.recv() else { break };
            match ev {
                Event::Done => running -= 1,
                Event::Fatal(e) => {
                    warn!("{e}");
                    self.outcome.fail(self.control, MatchError::Engine(e));
                }
                // The worker waits until `_done` is dropped at the end of this arm: once the
                // game is written out and the rules have been asked.
                Event::Finished(g, record, _done) => self.finished(&g, &record),
            }
        }
    }

    /// Hands a finished game to the sinks, then (if it counts) scores it, hands it on as
    /// counted and asks the stop rules.
    fn finished(&mut self, g: &ScheduledGame, record: &GameRecord) {
        if guard::terminating() {
            // Ended by the signal that ends the tool (its engines told to quit): no result.
            return;
        }
        let m = self.m;
        let mut info = m.info(g);
        let fingerprint = lines::fingerprint(g.black, g.white, record);
        // A game with no move (a forfeit before the first) repeats nothing.
        if record.end.reason != Reason::Interrupted && !record.moves.is_empty() {
            info.repeats = self.board.fingerprint(g.number, fingerprint);
        }
        let game = Finished {
            m,
            game: g,
            info: &info,
            record,
            fingerprint,
        };
        let console = &mut self.console;
        if let Err(e) = self
            .sinks
            .iter_mut()
            .try_for_each(|s| s.game(&game, console))
        {
            self.outcome.fail(self.control, e);
            return;
        }
        if !game.counted() {
            return;
        }
        self.figures.games += 1;
        self.figures.plies += record.moves.len() as u64;
        match record.end.late {
            Some(Late::Unprompted(us)) if us < NARROW_TIME_LOSS_US => {
                let (n, max) = &mut self.figures.narrow_time_losses;
                *n += 1;
                *max = (*max).max(us);
            }
            Some(Late::AfterStop(_)) => self.figures.time_losses_after_stop += 1,
            _ => {}
        }
        self.board.add(
            g,
            record.end.result,
            record.end.reason,
            info.repeats.is_some(),
        );
        for sink in &mut self.sinks {
            if let Err(e) = sink.counted(&game, &self.board, &mut self.console) {
                warn!("cannot write the report: {e}");
            }
        }
        for rule in &mut self.rules {
            if let Some(ending) = rule.after_game(&game, &self.board) {
                log_ending(&ending);
                self.outcome.stop(self.control, ending);
            }
        }
        let (done, total) = (self.board.len() as u64, m.games.len() as u64);
        self.console.progress().game_finished(done, total);
    }
}

/// Logs why a stop rule ends the match: an engine that keeps failing as a warning, the SPRT's
/// verdict as news.
fn log_ending(ending: &Ending) {
    match ending {
        Ending::EngineFailed(msg) => warn!("{msg}"),
        Ending::Sprt(reason) => info!("{reason}"),
        Ending::Completed | Ending::Interrupted => {}
    }
}

/// The rules of a game of `config`'s match.
fn referee(config: &MatchConfig) -> Referee {
    Referee {
        max_plies: config.max_plies,
        time_margin_ms: config.time_margin_ms,
        rule: config.entering_king_rule,
        draw: config.draw,
        resign: config.resign,
        startup: Duration::from_millis(config.startup_ms),
        ready: Duration::from_millis(config.ready_ms),
        send_undeclared_options: config.send_undeclared_options,
        send_option_values_as_written: config.send_option_values_as_written,
    }
}

/// The stop rules of `config`'s match, in the order they are asked (the first ending stays).
fn stop_rules<'a>(config: &MatchConfig, control: &'a Control) -> Vec<Box<dyn StopRule + 'a>> {
    vec![
        Box::new(FailureLimit::new(config.max_failures, config.engines.len())),
        Box::new(SprtBound),
        Box::new(Interrupt::new(control)),
    ]
}

/// The files a game is written to besides stdout: the results file and the records
/// directory, opened before any game starts (so that a bad path ends the match at once).
fn open_files(config: &MatchConfig) -> Result<Vec<Box<dyn GameSink>>, MatchError> {
    let mut files: Vec<Box<dyn GameSink>> = Vec::new();
    if let Some(path) = &config.results {
        files.push(Box::new(ResultsFile::open(path)?));
    }
    if let Some(dir) = &config.records {
        files.push(Box::new(Records::create(dir, config.records_format)?));
    }
    if let Some(pgn) = &config.pgn {
        files.push(Box::new(PgnWriter::open(pgn, config.output_style)?));
    }
    Ok(files)
}

/// Every output in the order a game goes through them: its line on stdout, the `files`, the
/// saved state, the statistics every `interval` games, and the page (`--report`).
fn sinks<'a>(
    m: &Match,
    files: Vec<Box<dyn GameSink>>,
    state: Option<&'a mut StateWriter>,
    reporter: &'a mut dyn Reporter,
) -> Vec<Box<dyn GameSink + 'a>> {
    let config = &m.config;
    let interval = config.rating_interval;
    let lines = GameLines {
        style: config.output_style,
    };
    let mut sinks: Vec<Box<dyn GameSink + 'a>> = vec![Box::new(lines)];
    sinks.extend(files);
    if let Some(w) = state {
        sinks.push(Box::new(StateFile::new(w)));
    }
    sinks.push(Box::new(RatingInterval::new(interval, reporter)));
    if let Some(path) = &config.report {
        sinks.push(Box::new(LiveReport::new(m, path)));
    }
    sinks
}

/// The wall and CPU time since the run started.
struct Stopwatch {
    start: Instant,
    cpu: Option<(Duration, Duration)>,
}

impl Stopwatch {
    fn start() -> Stopwatch {
        Stopwatch {
            start: Instant::now(),
            cpu: cpu_times(),
        }
    }

    /// Sets the times of `figures`.
    fn stop(&self, figures: &mut RunFigures) {
        figures.wall = self.start.elapsed();
        if let (Some(a), Some(b)) = (self.cpu, cpu_times()) {
            figures.cpu = Some(b.0.saturating_sub(a.0));
            figures.engines_cpu = Some(b.1.saturating_sub(a.1));
        }
    }
}

/// Plays the match's remaining games and writes each out as it ends; returns how the match
/// ended and the run's figures.
pub fn run(
    m: &mut Match,
    control: &Control,
    out: &mut dyn Write,
    reporter: &mut dyn Reporter,
    progress: &mut dyn Progress,
) -> Result<(Ending, RunFigures), MatchError> {
    let watch = Stopwatch::start();
    let mut rules = stop_rules(&m.config, control);
    if let Some(ending) = rules
        .iter_mut()
        .find_map(|r| r.before_start(m, &m.scoreboard))
    {
        return Ok((ending, RunFigures::default()));
    }
    let files = open_files(&m.config)?;
    let queue: VecDeque<ScheduledGame> = m
        .games
        .iter()
        .filter(|g| !m.scoreboard.contains(g.number))
        .copied()
        .collect();
    // The workers borrow the match; the main thread needs its score and state mutably. Split.
    let board = std::mem::take(&mut m.scoreboard);
    let mut state = m.state.take();
    let (board, mut figures, outcome) = Collector {
        m: &*m,
        control,
        console: Console::new(out, progress),
        sinks: sinks(m, files, state.as_mut(), reporter),
        rules,
        board,
        figures: RunFigures::default(),
        outcome: Outcome {
            ending: Ending::Completed,
            error: None,
        },
    }
    .play(queue);
    m.scoreboard = board;
    watch.stop(&mut figures);
    if let Some(e) = outcome.error {
        m.state = state;
        return Err(e);
    }
    let how = match outcome.ending {
        Ending::Completed => Some("completed"),
        Ending::Sprt(_) => Some("sprt"),
        Ending::Interrupted | Ending::EngineFailed(_) => None,
    };
    if let (Some(how), Some(w)) = (how, state.as_mut()) {
        w.finished(how)?;
    }
    m.state = state;
    Ok((outcome.ending, figures))
}

/// Where the state goes by default (fastchess saves `config.json` in the working directory).
pub fn default_state_path() -> PathBuf {
    PathBuf::from("saikoro-match.state")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_made_distinct() {
        let mut n = vec!["a".to_string(), "a".into(), "b".into(), "a".into()];
        distinct_names(&mut n);
        assert_eq!(n, ["a", "a (2)", "b", "a (3)"]);
    }

    /// YaneuraOu's 0.3 ms over a movetime (the case) needs a margin of 1 ms; none
    /// is due without a narrow loss.
    #[test]
    fn the_margin_a_hint_names() {
        let mut figures = RunFigures {
            narrow_time_losses: (1, 300),
            ..RunFigures::default()
        };
        let hint = figures.time_margin_hint(|ms| format!("--timemargin {ms}"));
        let hint = hint.unwrap();
        assert!(
            hint.starts_with(
                "Hint: 1 game was lost on time by less than 20 ms over the time given (at most \
                 0.3 ms): --timemargin 1 would have covered it."
            ),
            "{hint}"
        );
        figures.narrow_time_losses = (4, 12_001);
        let hint = figures.time_margin_hint(|ms| format!("timemargin={ms}"));
        assert!(hint.unwrap().contains("4 games were lost on time by less than 20 ms over the time given (at most 12.0 ms): timemargin=13 would have covered them."));
        figures.narrow_time_losses = (0, 0);
        assert_eq!(figures.time_margin_hint(|ms| ms.to_string()), None);
    }

    /// Games lost by engines that moved only after `stop` get a note, and no margin: none
    /// without such a game, the singular for one, the plural for three.
    #[test]
    fn losses_after_stop_get_a_note_not_a_margin() {
        let mut figures = RunFigures::default();
        assert_eq!(figures.after_stop_note(), None);
        figures.time_losses_after_stop = 1;
        let note = figures.after_stop_note().unwrap();
        assert!(
            note.starts_with(
                "Note: 1 game was lost on time by an engine still searching 20 ms after its time \
                 and the margin ran out, which moved only after the runner's stop: no margin is \
                 known to cover it."
            ),
            "{note}"
        );
        figures.time_losses_after_stop = 3;
        let note = figures.after_stop_note().unwrap();
        assert!(note.starts_with("Note: 3 games were lost"), "{note}");
        assert!(note.contains("no margin is known to cover them."), "{note}");
        assert_eq!(figures.time_margin_hint(|ms| ms.to_string()), None);
    }

    /// Engines' CPU time of zero over a whole match (Wine runs them outside our process tree)
    /// is unmeasured: `n/a`, not `0.0 us`.
    #[test]
    fn unmeasured_engine_cpu_is_na() {
        let mut figures = RunFigures {
            games: 2,
            plies: 200,
            wall: Duration::from_secs(1),
            cpu: Some(Duration::from_millis(10)),
            engines_cpu: Some(Duration::ZERO),
            narrow_time_losses: (0, 0),
            time_losses_after_stop: 0,
        };
        assert!(figures.to_string().ends_with(" (engines n/a)"), "{figures}");
        figures.engines_cpu = Some(Duration::from_millis(20));
        assert!(
            figures.to_string().ends_with(" (engines 100.0 us per ply)"),
            "{figures}"
        );
    }

    /// The runner's own CPU time is read to the microsecond: a little work shows as more
    /// than nothing (whole 1/100 s ticks read 0 for it).
    #[test]
    fn cpu_time_is_read() {
        if cfg!(unix) {
            let (before, _) = cpu_times().unwrap();
            let t = Instant::now();
            let mut x = 0u64;
            while t.elapsed() < Duration::from_millis(3) {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            }
            let (after, _) = cpu_times().unwrap();
            assert!(after > before, "{before:?} → {after:?}");
        }
    }
}
