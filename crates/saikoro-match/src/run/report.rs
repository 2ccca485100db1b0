//! The match as its HTML page: while it runs (`--report`, [`LiveReport`], an output beside the
//! results file and the state) and from its files afterwards (`saikoro report`,
//! [`page_from_results`]). Its figures come from the code that prints the block
//! ([`Standings`], [`standings::count`]) on the same scoreboard, so that the page shows
//! exactly what the match printed. It lives with the run, not with the other outputs, because
//! it needs the standings.
//!
//! The page is written aside (`FILE.html.tmp`) and renamed over the last one: at the start,
//! then after a counted game once `--ratinginterval` games or 30 s have gone by since the
//! last write, but never sooner than 2 s, nor sooner than 20 times the last write's own time
//! after it (so that writing costs at most about 5 % of the runner's time, whatever the
//! page's size), and at the end, whatever ended the match. The games' rows are kept as JSON
//! text as they come: a write formats no earlier game again and reads no file.

use crate::config::{EngineConfig, MatchConfig};
use crate::game::book::Opening;
use crate::game::result::{ending, Decision, Reason};
use crate::output::files::results_owner;
use crate::output::lines::opening_text;
use crate::output::report::{
    encode_placed, engine_index, page_games, shell_words, utc_text, write_html, EngineEntry,
    GameRow, PageData, PairCounts, ResultsGame, SeriesPoint, Settings, SprtState, Standing,
};
use crate::output::sink::{Console, Finished, GameSink};
use crate::output::state::{self, SavedMatch, SavedSettings};
use crate::run::standings::{self, Count, Standings};
use crate::schedule::{schedule, ScheduledGame, Scoreboard, Shape};
use crate::stats::sprt::SprtVerdict;
use crate::types::{Ending, Match, MatchError, Reporter};
use log::{debug, warn};
use saikoro_driver::guard::{self, AtTermination};
use saikoro_outfile::write_aside;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

/// The settings as the page shows them.
fn settings(config: &MatchConfig, seed: Option<u64>) -> Settings {
    let tcs: Vec<String> = config
        .engines
        .iter()
        .map(|e| e.limits.to_string())
        .collect();
    let tc = match tcs.first() {
        Some(first) if tcs.iter().all(|t| t == first) => first.clone(),
        _ => tcs.join(" vs "),
    };
    let mut adjudication = Vec::new();
    if let Some(d) = config.draw {
        adjudication.push(format!(
            "draw movenumber={} movecount={} score={}",
            d.move_number, d.move_count, d.score
        ));
    }
    if let Some(r) = config.resign {
        adjudication.push(format!(
            "resign movecount={} score={} twosided={}",
            r.move_count, r.score, r.two_sided
        ));
    }
    Settings {
        tc,
        openings: config
            .openings
            .as_ref()
            .map(|o| o.file.display().to_string()),
        rounds: Some(u64::from(config.rounds)),
        games: Some(u64::from(config.games)),
        concurrency: Some(config.concurrency as u64),
        seed: seed.map(|s| s.to_string()),
        maxplies: Some(u64::from(config.max_plies)),
        adjudication: (!adjudication.is_empty()).then(|| adjudication.join(", ")),
    }
}

/// The engines with their command lines and options; `names` as the output shows them.
fn engines(config: &MatchConfig, names: &[String]) -> Vec<EngineEntry> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let e = config.engines.get(i);
            EngineEntry {
                name: name.clone(),
                cmd: e.map(|e| {
                    let program = e.command.program.to_string_lossy().into_owned();
                    let mut words = vec![program];
                    words.extend(e.command.args.iter().cloned());
                    shell_words(&words)
                }),
                options: e.map(|e| e.options.clone()).unwrap_or_default(),
            }
        })
        .collect()
}

/// The SPRT's state from the first pairing's count, as the block's `LLR:` line has it.
fn sprt_state(m: &Match, c: &Count) -> Option<SprtState> {
    let s = m.config.sprt.as_ref()?;
    let llr = s.llr(c.tally, c.pentanomial);
    Some(SprtState {
        elo0: s.elo0(),
        elo1: s.elo1(),
        alpha: s.alpha(),
        beta: s.beta(),
        lower: s.lower_bound(),
        upper: s.upper_bound(),
        llr,
        result: match s.verdict(llr) {
            SprtVerdict::AcceptH0 => Some("H0"),
            SprtVerdict::AcceptH1 => Some("H1"),
            SprtVerdict::Continue => None,
        },
        stopped_at: None,
    })
}

/// Whether a count's figures are from game pairs, as the block decides it.
fn pentanomial(m: &Match, c: &Count) -> bool {
    c.pentanomial
        && m.config
            .sprt
            .as_ref()
            .is_none_or(|s| s.model().supports_pentanomial())
}

/// The first pairing's estimate once `board`'s games are counted, as the block printed then
/// (the last one: `at_end`) shows it: Elo, Elo ∓ its error, the LLR.
fn series_point(m: &Match, board: &Scoreboard, at_end: bool) -> SeriesPoint {
    let c = standings::count(m, board, 0, at_end);
    let e = if pentanomial(m, &c) {
        c.tally.pentanomial.elo()
    } else {
        c.tally.wdl.elo()
    };
    let err = e.and_then(|e| e.elo_error);
    SeriesPoint {
        games: board.len() as u64,
        elo: e.map(|e| e.elo),
        lo: e.zip(err).map(|(e, r)| e.elo - r),
        hi: e.zip(err).map(|(e, r)| e.elo + r),
        llr: sprt_state(m, &c).map(|s| s.llr),
    }
}

/// The point of the match's last block, unless the series ends at its count already.
fn last_point(data: &mut PageData, m: &Match, board: &Scoreboard) {
    let games = board.len() as u64;
    if !board.is_empty() && data.series.points().last().map(|p| p.games) != Some(games) {
        data.series.push(series_point(m, board, true));
    }
}

/// Sets the page's figures from `board`: the block (the match's last, `at_end`, or one
/// printed while it runs), the standings, each pairing's counts, the SPRT and the notes.
fn figures(data: &mut PageData, m: &Match, board: &Scoreboard, at_end: bool) {
    let mut block = Vec::new();
    let mut printer = Standings::default();
    let printed = if at_end {
        printer.finish(m, board, &mut block)
    } else {
        printer.report(m, board, &mut block)
    };
    data.block = match printed {
        Ok(()) => String::from_utf8_lossy(&block).into_owned(),
        Err(_) => String::new(),
    };
    let counts: Vec<Count> = (0..m.pairings.len())
        .map(|p| standings::count(m, board, p, at_end))
        .collect();
    let penta = counts.iter().all(|c| c.pentanomial);
    data.standings = standings::field_rows(m, &counts, penta)
        .into_iter()
        .map(|(engine, t, e)| Standing {
            engine,
            games: t.wdl.games(),
            w: t.wdl.wins,
            l: t.wdl.losses,
            d: t.wdl.draws,
            points: t.wdl.points(),
            elo: e.map(|e| e.elo),
            elo_err: e.and_then(|e| e.elo_error),
            nelo: e.and_then(|e| e.nelo),
            nelo_err: e.and_then(|e| e.nelo_error),
        })
        .collect();
    data.pairs = m
        .pairings
        .iter()
        .zip(&counts)
        .map(|(p, c)| PairCounts {
            a: p.first,
            b: p.second,
            penta: c.tally.pentanomial.bins(),
            unpaired: c.unpaired,
            repeated: c.repeated,
        })
        .collect();
    data.sprt = counts.first().and_then(|c| sprt_state(m, c));
    data.notes.clear();
    for (p, c) in m.pairings.iter().zip(&counts) {
        for note in &c.notes {
            data.notes.push(match m.pairings.len() {
                1 => note.clone(),
                _ => format!("{} vs {}: {note}", m.names[p.first], m.names[p.second]),
            });
        }
    }
    if board.is_empty() {
        data.notes.push("No game has been counted yet.".to_string());
    }
}

/// The page's data before any game: the match, its settings and engines.
fn skeleton(m: &Match, title: String) -> PageData {
    PageData {
        title,
        match_id: (!m.id.is_empty()).then(|| m.id.clone()),
        version: env!("CARGO_PKG_VERSION").to_string(),
        command: m.config.command.clone().unwrap_or_default(),
        settings: settings(&m.config, Some(m.seed)),
        engines: engines(&m.config, &m.names),
        ..PageData::default()
    }
}

/// Writes the page of `data` to `path` whole: into `path.tmp` beside it, then renamed over it.
pub fn write_page(path: &Path, data: &PageData) -> io::Result<()> {
    write_aside(path, ".tmp", |f| {
        let mut out = io::BufWriter::with_capacity(1 << 16, f);
        write_html(data, &mut out)?;
        out.flush()
    })
}

/// What the page of a running match needs, also where the hook of a signal reaches it.
struct Page {
    path: PathBuf,
    data: PageData,
    /// The match without its openings (which the figures do not need), copied at the start:
    /// for a page finished by a signal, while the runner holds the match.
    m: Match,
    /// The games counted, as the runner's scoreboard has them: each is added here as it is
    /// there.
    board: Scoreboard,
}

impl Page {
    /// The finished page of `m` with `board`'s games: the match's last block and figures
    /// (`sprt_stopped`: the SPRT stopped it there), the end time, and `last` as the last note;
    /// written out.
    fn finish(
        path: &Path,
        data: &mut PageData,
        m: &Match,
        board: &Scoreboard,
        last: String,
        sprt_stopped: bool,
    ) -> io::Result<()> {
        data.finished = true;
        let now = utc_text(SystemTime::now());
        data.ended = Some(now.clone());
        data.updated = now;
        last_point(data, m, board);
        figures(data, m, board, true);
        if let (true, Some(s)) = (sprt_stopped, data.sprt.as_mut()) {
            s.stopped_at = Some(board.len() as u64);
        }
        data.notes.push(last);
        write_page(path, data)
    }

    /// The page finished when the tool ends with exit status `code` on a signal, unless it is
    /// finished already.
    fn finish_on_signal(&mut self, code: i32) -> io::Result<()> {
        if self.data.finished {
            return Ok(());
        }
        let by = guard::signal_name(code).unwrap_or("a signal");
        let last = format!("Match ended by {by} (exit status {code})");
        Page::finish(
            &self.path,
            &mut self.data,
            &self.m,
            &self.board,
            last,
            false,
        )
    }
}

/// The match `m` without its openings.
fn outline(m: &Match) -> Match {
    Match {
        id: m.id.clone(),
        config: m.config.clone(),
        names: m.names.clone(),
        openings: Vec::new(),
        seed: m.seed,
        pairings: m.pairings.clone(),
        games: m.games.clone(),
        scoreboard: Scoreboard::default(),
        state: None,
    }
}

/// Locks `page` for the runner: a poisoned lock is the page as the panic left it.
fn lock(page: &Mutex<Page>) -> MutexGuard<'_, Page> {
    page.lock().unwrap_or_else(|e| e.into_inner())
}

/// The page of a running match (`--report FILE.html`), rewritten as it goes. When a signal
/// ends the tool (SIGTERM, SIGHUP: [`guard::at_termination`]), the page is finished from what
/// it holds (every game handed to it), so that it does not stay "running". A finished page
/// takes nothing more.
pub struct LiveReport {
    page: Arc<Mutex<Page>>,
    /// Counted games between series points (and page writes): `--ratinginterval`, or a game
    /// pair when it is 0.
    interval: usize,
    /// When the page was last written, and how long that took.
    last: Option<(Instant, Duration)>,
    /// Games counted since then.
    since: usize,
    /// The hook that finishes the page on a signal, from the start on.
    hook: Option<AtTermination>,
}

impl fmt::Debug for LiveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LiveReport")
            .field("path", &lock(&self.page).path)
            .field("interval", &self.interval)
            .finish_non_exhaustive()
    }
}

/// A page's title: the engines' names, as the live page and `saikoro report` both write it.
fn match_title(names: &[String]) -> String {
    format!("Match: {}", names.join(" vs "))
}

impl LiveReport {
    /// At most this long between writes while games end.
    pub const EVERY: Duration = Duration::from_secs(30);
    /// At least this long between writes before the end.
    pub const MIN_GAP: Duration = Duration::from_secs(2);
    /// How long the hook of a signal waits for the page while the runner writes it, before
    /// it leaves the page as last written.
    pub const SIGNAL_WAIT: Duration = Duration::from_secs(1);

    /// The page of `m`, to be written to `path`.
    pub fn new(m: &Match, path: &Path) -> LiveReport {
        let title = match_title(&m.names);
        let page = Page {
            path: path.to_path_buf(),
            data: skeleton(m, title),
            m: outline(m),
            board: Scoreboard::default(),
        };
        LiveReport {
            page: Arc::new(Mutex::new(page)),
            interval: match m.config.rating_interval {
                0 => 2,
                n => n as usize,
            },
            last: None,
            since: 0,
            hook: None,
        }
    }

    /// The hook that finishes the page when a signal ends the tool; it holds the page weakly
    /// (a page whose match is over is not the hook's) and waits for the runner at most
    /// [`Self::SIGNAL_WAIT`].
    fn hook(&self) -> AtTermination {
        let page = Arc::downgrade(&self.page);
        let path = lock(&self.page).path.clone();
        guard::at_termination(Box::new(move |code| {
            let Some(page) = page.upgrade() else {
                return;
            };
            let Some(mut page) = guard::lock_within(&page, Self::SIGNAL_WAIT) else {
                warn!(
                    "{}: still being written after {} s: left as it was",
                    path.display(),
                    Self::SIGNAL_WAIT.as_secs()
                );
                return;
            };
            if let Err(e) = page.finish_on_signal(code) {
                warn!("cannot write the report {}: {e}", path.display());
            }
        }))
    }

    /// The page with `board`'s figures, written out.
    fn write(&mut self, m: &Match, board: &Scoreboard) -> io::Result<()> {
        let start = Instant::now();
        let mut page = lock(&self.page);
        let Page { path, data, .. } = &mut *page;
        if data.finished {
            return Ok(());
        }
        data.updated = utc_text(SystemTime::now());
        figures(data, m, board, false);
        let result = write_page(path, data);
        let cost = start.elapsed();
        debug!(
            "{}: {} games written in {:.1} ms",
            path.display(),
            data.games.len(),
            cost.as_secs_f64() * 1e3
        );
        self.last = Some((Instant::now(), cost));
        self.since = 0;
        result
    }

    /// Whether the page is due once a game more is counted.
    fn due(&self) -> bool {
        let Some((at, cost)) = self.last else {
            return true;
        };
        let waited = at.elapsed();
        let games_or_time = self.since >= self.interval || waited >= Self::EVERY;
        games_or_time && waited >= Self::MIN_GAP.max(cost * 20)
    }

    /// The rows of the games a resumed match played before, from its results file, or, without
    /// one, from its own page (read once, at the start, before the page is written again).
    fn earlier_games(data: &mut PageData, m: &Match, page: &Path) {
        let Some(path) = &m.config.results else {
            // No results file: the page itself, which the checks before any engine started
            // found to be this match's (or none), holds the earlier games' rows.
            if let Some((games, ends)) = page_games(page) {
                let n = data.games.push_earlier(&games, &ends);
                debug!("{}: {n} earlier games kept", page.display());
            }
            return;
        };
        let Ok(text) = std::fs::read_to_string(path) else {
            return;
        };
        let mut names = m.names.clone();
        for g in text.lines().filter_map(|l| ResultsGame::parse(l).ok()) {
            let (b, w) = (
                engine_index(&mut names, &g.black),
                engine_index(&mut names, &g.white),
            );
            g.push_to(&mut data.games, b, w);
        }
    }
}

impl GameSink for LiveReport {
    /// The match has started: the page with no game (or a resumed match's games).
    fn started(&mut self, m: &Match, board: &Scoreboard) -> io::Result<()> {
        {
            let mut page = lock(&self.page);
            page.data.started = Some(utc_text(SystemTime::now()));
            if !board.is_empty() {
                let path = page.path.clone();
                LiveReport::earlier_games(&mut page.data, m, &path);
            }
            // Once: from now on, each game counted is added to it.
            page.board = board.clone();
        }
        let written = self.write(m, board);
        self.hook = Some(self.hook());
        written
    }

    /// The match has ended (`error`: the error that ended it): the finished page.
    fn ended(
        &mut self,
        m: &Match,
        board: &Scoreboard,
        ending: &Ending,
        error: Option<&MatchError>,
    ) -> io::Result<()> {
        let last = match error {
            Some(e) => format!("Match stopped by an error: {e}"),
            None => ending.last_line(),
        };
        let sprt_stopped = matches!(ending, Ending::Sprt(_));
        let mut page = lock(&self.page);
        let Page { path, data, .. } = &mut *page;
        if data.finished {
            // By a signal, as the runner went on meanwhile.
            return Ok(());
        }
        Page::finish(path, data, m, board, last, sprt_stopped)
    }

    fn game(&mut self, game: &Finished<'_>, _: &mut Console<'_>) -> Result<(), MatchError> {
        let r = game.record;
        let mut moves = String::with_capacity(2 * r.total_plies());
        let opening = r.opening.moves.iter().map(|&m| (m, None));
        let played = r.moves.iter().map(|m| (m.mv, m.place));
        encode_placed(&mut moves, Some(&r.opening.start), opening.chain(played));
        let reason = r.end.reason.to_string();
        let mut page = lock(&self.page);
        if page.data.finished {
            return Ok(());
        }
        page.data.games.push(&GameRow {
            number: game.info.number,
            round: u64::from(game.info.round),
            black: game.game.black,
            white: game.game.white,
            opening: &opening_text(r),
            result: r.end.result.text(),
            reason: &reason,
            detail: &r.end.detail,
            plies: r.moves.len() as u64,
            moves: &moves,
            time_ms: Some((r.time_used.0[0], r.time_used.0[1])),
            opening_plies: r.opening.moves.len() as u64,
            end: ending(r.end.result, r.end.reason, r.next()),
            next: r.next(),
            handicap: saikoro_record::japanese::is_handicap(&r.opening.start),
        });
        Ok(())
    }

    fn counted(
        &mut self,
        game: &Finished<'_>,
        board: &Scoreboard,
        _: &mut Console<'_>,
    ) -> io::Result<()> {
        self.since += 1;
        {
            let mut page = lock(&self.page);
            if page.data.finished {
                return Ok(());
            }
            let r = game.record;
            page.board.add(
                game.game,
                r.end.result,
                r.end.reason,
                game.info.repeats.is_some(),
            );
            if board.len().is_multiple_of(self.interval) {
                page.data.series.push(series_point(game.m, board, false));
            }
        }
        if self.due() {
            self.write(game.m, board)?;
        }
        Ok(())
    }
}

/// Why a page cannot be made from a results file.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReportError {
    /// A line that is no game of a results file.
    NotResults {
        /// Its number, from 1.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// The games do not follow any schedule a match plays without its state file.
    NoSchedule,
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::NotResults { line, why } => write!(
                f,
                "line {line} is not a game of a results file (saikoro match --results): {why}"
            ),
            ReportError::NoSchedule => f.write_str(
                "the games follow no schedule this program can tell without the match's state \
                 file: give it with --state",
            ),
        }
    }
}

impl std::error::Error for ReportError {}

/// The shapes a match without its state may have had, most likely first, for `names.len()`
/// engines and the games seen.
fn shapes(engines: usize, games: &[(ResultsGame, usize, usize)]) -> Vec<Shape> {
    let rounds = games.iter().map(|g| g.0.round).max().unwrap_or(1).max(1) as u32;
    let mut per: std::collections::BTreeMap<(u64, usize, usize), u32> = Default::default();
    for (g, b, w) in games {
        *per.entry((g.round, (*b).min(*w), (*b).max(*w)))
            .or_insert(0) += 1;
    }
    let most = per.values().copied().max().unwrap_or(1).max(1);
    let mut out = Vec::new();
    for gauntlet in [false, true] {
        for noswap in [false, true] {
            out.push(Shape {
                engines,
                gauntlet,
                rounds,
                games: most,
                noswap,
                openings: 1,
            });
        }
    }
    out
}

/// A results file's games, each with its engines' indices, in the order the engines first
/// play in the schedule (games end out of order with --concurrency: a schedule's game 1 is
/// its first engine's against its second); and those engines' names.
type ReadGames = (Vec<(ResultsGame, usize, usize)>, Vec<String>);

/// The games of a results file's `text` (its lines that are games).
fn read_games(text: &str) -> Result<ReadGames, ReportError> {
    let mut read = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        read.push(
            ResultsGame::parse(line).map_err(|why| ReportError::NotResults { line: i + 1, why })?,
        );
    }
    let mut names: Vec<String> = Vec::new();
    let mut by_number: Vec<&ResultsGame> = read.iter().collect();
    by_number.sort_by_key(|g| g.number);
    for g in by_number {
        engine_index(&mut names, &g.black);
        engine_index(&mut names, &g.white);
    }
    let games = read
        .into_iter()
        .map(|g| {
            let (b, w) = (
                engine_index(&mut names, &g.black),
                engine_index(&mut names, &g.white),
            );
            (g, b, w)
        })
        .collect();
    Ok((games, names))
}

/// The match's settings and shape: the saved ones, or, without a state, the shape of the
/// match's shapes (`--gauntlet`, `--noswap`, `--games`) that every game fits, a schedule the
/// games complete first (a finished gauntlet is no round robin cut short).
fn settings_and_shape(
    saved: Option<MatchConfig>,
    engines: usize,
    games: &[(ResultsGame, usize, usize)],
) -> Result<(MatchConfig, Shape), ReportError> {
    if let Some(c) = saved {
        let shape = Shape {
            engines: c.engines.len(),
            gauntlet: c.gauntlet,
            rounds: c.rounds,
            games: c.games,
            noswap: c.noswap,
            openings: 1,
        };
        return Ok((c, shape));
    }
    let engines = engines.max(2);
    let fits = |s: &Shape| {
        let (_, all) = schedule(*s);
        games.iter().all(|(g, b, w)| {
            all.get((g.number as usize).wrapping_sub(1))
                .is_some_and(|s| s.black == *b && s.white == *w)
        })
    };
    let complete = |s: &Shape| schedule(*s).1.len() == games.len();
    let fitting: Vec<Shape> = shapes(engines, games).into_iter().filter(fits).collect();
    let shape = fitting
        .iter()
        .find(|s| complete(s))
        .or(fitting.first())
        .copied()
        .ok_or(ReportError::NoSchedule)?;
    let config = MatchConfig {
        // Unknown but their names: no time control in the block's heading.
        engines: vec![EngineConfig::default(); engines],
        gauntlet: shape.gauntlet,
        noswap: shape.noswap,
        rounds: shape.rounds,
        games: shape.games,
        ..MatchConfig::default()
    };
    Ok((config, shape))
}

/// The engines' names by their places in the schedule `all`: as the games name them, else
/// as the settings do, else `engine N`.
fn names_by_place(
    games: &[(ResultsGame, usize, usize)],
    all: &[ScheduledGame],
    config: &MatchConfig,
    engines: usize,
) -> Vec<String> {
    let mut by_index: Vec<Option<String>> = vec![None; engines];
    for (g, _, _) in games {
        if let Some(s) = all.get((g.number as usize).wrapping_sub(1)) {
            by_index[s.black].get_or_insert_with(|| g.black.clone());
            by_index[s.white].get_or_insert_with(|| g.white.clone());
        }
    }
    by_index
        .into_iter()
        .enumerate()
        .map(|(i, n)| {
            n.or_else(|| config.engines.get(i).and_then(|e| e.name.clone()))
                .unwrap_or_else(|| format!("engine {}", i + 1))
        })
        .collect()
}

/// Adds the games to the page's rows and counts them on `board`, with a point of the series
/// every `--ratinginterval` counted games.
fn count_games(
    data: &mut PageData,
    m: &Match,
    board: &mut Scoreboard,
    games: &[(ResultsGame, usize, usize)],
) {
    let interval = match m.config.rating_interval {
        0 => 2,
        n => n as usize,
    };
    for (g, _, _) in games {
        let Some(s) = m.games.get((g.number as usize).wrapping_sub(1)) else {
            continue;
        };
        g.push_to(&mut data.games, s.black, s.white);
        let (Some(result), Some(reason)) =
            (Decision::from_text(&g.result), Reason::from_name(&g.reason))
        else {
            continue;
        };
        board.add(s, result, reason, g.repeats.is_some());
        if result != Decision::None && board.len().is_multiple_of(interval) {
            data.series.push(series_point(m, board, false));
        }
    }
}

/// The settings a results file carries, for a page made without the state: those of the last
/// line that has them (the last run of the match: a resumed match writes them again); `Err`
/// the page's note when they cannot be read here (a newer Saikoro's).
fn carried_settings(games: &[(ResultsGame, usize, usize)]) -> Option<Result<SavedMatch, String>> {
    let (g, _, _) = games.iter().rev().find(|(g, _, _)| g.settings.is_some())?;
    let text = g.settings.as_deref()?;
    Some(state::read_settings(text).map_err(|why| {
        format!(
            "The settings in the line of game {} of the results file cannot be read here \
             ({why}): they are left out.",
            g.number
        )
    }))
}

/// The page of a match from its results file's `text` (its lines that are games) and its
/// saved state, if known; `running`: the match is still being played (the page then reloads
/// itself, and its block is one printed while the match runs, not the last). Without a state,
/// the settings are those the results file carries (`carried_settings`), and without those
/// the schedule is told from the games (`settings_and_shape`). The title is the live
/// page's (`Match: A vs B`); `title` only when no engine is known (no game, no state).
pub fn page_from_results(
    title: &str,
    text: &str,
    saved: Option<&SavedMatch>,
    running: bool,
) -> Result<PageData, ReportError> {
    let (games, names) = read_games(text)?;
    let carried = saved.is_none().then(|| carried_settings(&games)).flatten();
    let (carried, unreadable) = match carried {
        Some(Ok(s)) => (Some(s), None),
        Some(Err(note)) => (None, Some(note)),
        None => (None, None),
    };
    let from_state = saved.is_some();
    let saved = saved.or(carried.as_ref());
    let m = match_of(text, &games, names, saved)?;
    // The live page's title when the engines are known (from the games or the settings).
    let title = if games.is_empty() && m.config.engines.iter().all(|e| e.name.is_none()) {
        title.to_string()
    } else {
        match_title(&m.names)
    };
    let mut data = skeleton(&m, title);
    // The state does not keep --concurrency (a resumed match may change it).
    data.settings.concurrency = None;
    if saved.is_none() {
        data.settings = Settings {
            tc: "?".to_string(),
            ..Settings::default()
        };
        data.engines.iter_mut().for_each(|e| e.cmd = None);
    }
    let mut board = Scoreboard::new(&m.pairings, m.config.distinct_games);
    count_games(&mut data, &m, &mut board, &games);
    data.finished = !running;
    data.updated = utc_text(SystemTime::now());
    if !running {
        last_point(&mut data, &m, &board);
    }
    figures(&mut data, &m, &board, !running);
    // Where the SPRT stopped the match: as its state says; without one, where a bound is
    // crossed at the end of a finished match's games (the runner stops there).
    let stopped = match saved.and_then(|s| s.finished.as_deref()) {
        Some(how) => how == "sprt",
        None => !from_state && !running && data.sprt.as_ref().is_some_and(|s| s.result.is_some()),
    };
    if let (true, Some(s)) = (stopped, data.sprt.as_mut()) {
        s.stopped_at = Some(board.len() as u64);
    }
    data.notes.extend(unreadable);
    Ok(data)
}

/// The match of a results file's `games` (`names`: its engines as the games name them), with
/// the settings `saved` (the state's, or those the results carry), else told from the games.
fn match_of(
    text: &str,
    games: &[(ResultsGame, usize, usize)],
    names: Vec<String>,
    saved: Option<&SavedMatch>,
) -> Result<Match, ReportError> {
    let config = match saved.map(|s| &s.settings) {
        Some(SavedSettings::Config(c)) => Some((**c).clone()),
        _ => None,
    };
    let (config, shape) = settings_and_shape(config, names.len(), games)?;
    let (pairings, all) = schedule(shape);
    let names = names_by_place(games, &all, &config, shape.engines);
    // The match the results name, else the state's (none for files from before matches were
    // named): the page names it as the live page does.
    let id = results_owner(text.lines()).or_else(|| saved.and_then(|s| s.id.clone()));
    Ok(Match {
        id: id.unwrap_or_default(),
        names,
        openings: vec![Opening::startpos()],
        seed: saved.map_or(0, |s| s.seed),
        pairings,
        games: all,
        scoreboard: Scoreboard::default(),
        state: None,
        config,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(game: u64, round: u64, black: &str, white: &str, result: &str) -> String {
        format!(
            "{{\"game\":{game},\"round\":{round},\"black\":\"{black}\",\"white\":\"{white}\",\
             \"opening\":\"startpos\",\"opening_line\":0,\"result\":\"{result}\",\
             \"reason\":\"resign\",\"detail\":\"\",\"plies\":1,\"opening_plies\":0,\
             \"moves\":[\"7g7f\"],\"time_ms\":{{\"black\":0,\"white\":0}}}}"
        )
    }

    fn page(lines: &[String]) -> Result<PageData, ReportError> {
        page_from_results("t", &lines.join("\n"), None, false)
    }

    /// A gauntlet of three engines, one round of game pairs, written out of order: a beats b
    /// as Black and loses to it as White (a pair WL: the middle bin); a draws c as Black and
    /// beats it as White (WD).
    #[test]
    fn a_gauntlets_schedule_is_told_from_its_games() {
        let data = page(&[
            line(2, 1, "b", "a", "1-0"),
            line(1, 1, "a", "b", "1-0"),
            line(4, 1, "c", "a", "0-1"),
            line(3, 1, "a", "c", "1/2-1/2"),
        ])
        .unwrap();
        let pairs: Vec<(usize, usize, [u64; 5])> =
            data.pairs.iter().map(|p| (p.a, p.b, p.penta)).collect();
        assert_eq!(pairs, [(0, 1, [0, 0, 1, 0, 0]), (0, 2, [0, 0, 0, 1, 0])]);
        let a = data.standings.iter().find(|s| s.engine == 0).unwrap();
        assert_eq!((a.games, a.w, a.l, a.d, a.points), (4, 2, 1, 1, 2.5));
        // The games in the file's order, the engines by their places in the schedule.
        assert_eq!(data.games.len(), 4);
        assert!(
            data.block.contains("Results of a vs b:\n"),
            "{}",
            data.block
        );
        assert!(
            data.block.contains("Results of a vs c:\n"),
            "{}",
            data.block
        );
        assert_eq!(data.settings.rounds, None);
    }

    /// `line` with the settings member at its end.
    fn with_settings(line: &str, settings: &str) -> String {
        format!("{},\"settings\":{settings}}}", &line[..line.len() - 1])
    }

    /// Without a state, the settings the results carry, the last run's: the page's header is
    /// the one the state gives. Settings of a version unknown here are left out, with a note.
    #[test]
    fn the_settings_the_results_carry() {
        let engine = |name: &str| EngineConfig {
            name: Some(name.into()),
            options: vec![("Hash".into(), "16".into())],
            ..EngineConfig::default()
        };
        let mut config = MatchConfig {
            engines: vec![engine("a"), engine("b")],
            rounds: 1,
            max_plies: 77,
            command: Some("saikoro match --rounds 1".into()),
            ..MatchConfig::default()
        };
        let first = state::settings_line(&config, 5, "00000000000000ab");
        config.rounds = 2;
        let resumed = state::settings_line(&config, 5, "00000000000000ab");
        let text = [
            with_settings(&line(1, 1, "a", "b", "1-0"), &first),
            line(2, 1, "b", "a", "0-1"),
            with_settings(&line(3, 2, "a", "b", "1-0"), &resumed),
        ]
        .join("\n");
        let carried = page_from_results("t", &text, None, false).unwrap();
        let saved = state::read_settings(&resumed).unwrap();
        let with_state = page_from_results("t", &text, Some(&saved), false).unwrap();
        assert_eq!(carried.settings, with_state.settings);
        assert_eq!(carried.settings.rounds, Some(2));
        assert_eq!(carried.settings.maxplies, Some(77));
        assert_eq!(carried.settings.seed.as_deref(), Some("5"));
        assert_eq!(carried.engines, with_state.engines);
        assert_eq!(carried.engines[0].options, [("Hash".into(), "16".into())]);
        assert_eq!(carried.command, "saikoro match --rounds 1");
        assert_eq!(carried.block, with_state.block);
        // A newer Saikoro's settings: none, and the note says why.
        let newer = text.replace("\"saikoro_match_state\":2", "\"saikoro_match_state\":3");
        let data = page_from_results("t", &newer, None, false).unwrap();
        assert_eq!(data.settings.tc, "?");
        assert_eq!(
            data.notes.last().map(String::as_str),
            Some(
                "The settings in the line of game 3 of the results file cannot be read here \
                 (version 3 is not known here (a newer saikoro's?)): they are left out."
            )
        );
    }

    /// The first engine Black in both games of the round: `--noswap`, games counted alone.
    #[test]
    fn noswap_is_told_from_its_games() {
        let data = page(&[line(1, 1, "a", "b", "1-0"), line(2, 1, "a", "b", "0-1")]).unwrap();
        assert_eq!(data.pairs[0].unpaired, 2);
        assert!(
            data.block.contains("--noswap keeps the colours"),
            "{}",
            data.block
        );
    }

    #[test]
    fn what_is_no_match_is_refused() {
        let bad = [line(1, 1, "a", "b", "1-0"), "no game".to_string()];
        assert!(matches!(
            page(&bad),
            Err(ReportError::NotResults { line: 2, why }) if why == "expected ident at column 2"
        ));
        // Game 2 of four engines is a against c in every schedule, never c against d.
        let lines = [line(1, 1, "a", "b", "1-0"), line(2, 1, "c", "d", "1-0")];
        assert!(matches!(page(&lines), Err(ReportError::NoSchedule)));
        // No game: a page that says so.
        let empty = page(&[]).unwrap();
        assert!(empty.games.is_empty());
        assert_eq!(empty.notes, ["No game has been counted yet."]);
    }
}
