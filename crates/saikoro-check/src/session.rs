//! The engine under test between checks ([`Harness`]: start, restart, keep in step) and within
//! one check ([`Ctx`]: send, wait with deadlines, verdicts).

use super::{Check, CheckResult, Config, Status, TOLERANCE};
use saikoro_driver::client::{Direction, Line, Stderr};
use saikoro_driver::{ClientError, EngineInfo, EngineSession, EngineSpec, StartError, UsiClient};
use saikoro_usi::{parse_engine_line, BestMove, EngineMessage, Go};
use std::time::{Duration, Instant};

/// How a check ends: its status and one-line reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Verdict {
    pub status: Status,
    pub reason: String,
    /// A verdict on time alone (an answer past the time given): the check is repeated once
    /// before it fails.
    pub late: Option<Late>,
}

/// An answer past the time it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Late {
    /// From `go` (or `ponderhit`) to the `bestmove`.
    pub took: Duration,
    /// The time given.
    pub given: Duration,
    /// Whether it came only after the checker's `stop`.
    pub stopped: bool,
    /// What the time is counted from: `go` or `ponderhit`.
    pub after: &'static str,
    /// The likely cause, where the check's set-up points to one: added to the reason.
    pub cause: Option<&'static str>,
}

impl Late {
    /// `1800 ms after go with 1000 ms given (tolerance 500 ms, 800 ms late, only after stop)`.
    fn describe(&self) -> String {
        format!(
            "{} ms after {} with {} ms given (tolerance {} ms, {} ms late{})",
            self.took.as_millis(),
            self.after,
            self.given.as_millis(),
            TOLERANCE.as_millis(),
            self.took.saturating_sub(self.given).as_millis(),
            if self.stopped {
                ", only after stop"
            } else {
                ""
            }
        )
    }
}

/// What a GUI or server does with an answer past its time.
const LOST_ON_TIME: &str =
    "lost on time (shogi-server's time-up, ShogiHome's engine time-out when set)";

impl Verdict {
    pub fn pass(reason: impl Into<String>) -> Verdict {
        Verdict {
            status: Status::Pass,
            reason: reason.into(),
            late: None,
        }
    }

    pub fn warn(reason: impl Into<String>) -> Verdict {
        Verdict {
            status: Status::Warning,
            reason: reason.into(),
            late: None,
        }
    }

    pub fn fail(reason: impl Into<String>) -> Verdict {
        Verdict {
            status: Status::Fail,
            reason: reason.into(),
            late: None,
        }
    }

    /// A failure on time alone.
    pub fn late(late: Late) -> Verdict {
        Verdict {
            late: Some(late),
            ..Verdict::fail(format!(
                "bestmove {}: {LOST_ON_TIME}{}",
                late.describe(),
                late.cause.map(|c| format!("; {c}")).unwrap_or_default()
            ))
        }
    }

    /// A failure on time with its likely cause named (`cause` is how the check's set-up would
    /// make a wrong engine late: Fairy-Stockfish 11.1 took Sente's time from `wtime`); any
    /// other verdict as it is.
    pub fn with_cause(self, cause: &'static str) -> Verdict {
        match self.late {
            Some(late) if self.status == Status::Fail => Verdict::late(Late {
                cause: Some(cause),
                ..late
            }),
            _ => self,
        }
    }

    pub fn not_run(why: &str) -> Verdict {
        Verdict {
            status: Status::NotRun,
            reason: format!("not run: {why}"),
            late: None,
        }
    }
}

/// What a check returns. `Err` ends it early (with `?`), usually with a failure.
pub(crate) type Step = Result<Verdict, Verdict>;

/// After this many checks in a row in which the engine hung in one kind of search (no
/// `bestmove` even after `stop`, each time on a fresh process), later checks end as not run
/// when they come to a search of that kind: the engine hangs in every such search, and each
/// check would only wait out its time and the grace again.
pub(crate) const HANG_STREAK: usize = 3;

/// The two kinds of search a check starts, each with its own hang streak: an engine may hang
/// in timed searches and still stop a held one, or the other way round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SearchKind {
    /// A `go` with a clock (or `go mate` with a limit): the engine must answer by itself.
    Timed,
    /// `go infinite` or `go ponder`: the answer comes after `stop` (or `ponderhit`).
    Held,
}

impl SearchKind {
    const ALL: [SearchKind; 2] = [SearchKind::Timed, SearchKind::Held];

    fn index(self) -> usize {
        self as usize
    }

    fn words(self) -> &'static str {
        match self {
            SearchKind::Timed => "timed search (go with a clock)",
            SearchKind::Held => "held search (go infinite, go ponder) after stop",
        }
    }
}

/// What happened to the searches of one kind in a check.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Searches {
    /// One was answered.
    pub answered: bool,
    /// One went unanswered even after `stop` and its grace.
    pub hung: bool,
}

/// How long an engine that stopped reading or closed its output has to exit (it is usually on
/// its way out) before it is said only to have closed its output.
pub(crate) const EXIT_SOON: Duration = Duration::from_millis(200);

/// The longest transcript line shown; `position` lines with 600 moves are cut.
const EXCERPT_LINE: usize = 200;
/// The most transcript lines shown for one check (the last ones).
const EXCERPT_LINES: usize = 30;

/// The engine process across checks.
pub(crate) struct Harness<'c> {
    pub cfg: &'c Config,
    engine: Option<UsiClient>,
    info: Option<EngineInfo>,
    /// Why the engine cannot be started: every later check is not run.
    broken: Option<String>,
    /// Restart the engine before the next check (it died, or its state is unknown).
    restart: bool,
    /// How much of the current engine's transcript has been copied into `output`.
    scanned: usize,
    /// Every stdout line so far, with the check it came in.
    pub output: Vec<(String, String)>,
    /// For each [`SearchKind`], the checks in a row, up to the last, in which the engine hung
    /// in a search of that kind.
    hangs: [Vec<String>; 2],
}

impl<'c> Harness<'c> {
    pub fn new(cfg: &'c Config) -> Harness<'c> {
        Harness {
            cfg,
            engine: None,
            info: None,
            broken: None,
            restart: false,
            scanned: 0,
            output: Vec::new(),
            hangs: [Vec::new(), Vec::new()],
        }
    }

    /// What the first handshake told about the engine.
    pub fn info(&self) -> Option<&EngineInfo> {
        self.info.as_ref()
    }

    /// The engine to start: the user's command and options, everything it says kept.
    pub fn spec(&self) -> EngineSpec {
        EngineSpec {
            command: self.cfg.engine.clone(),
            label: "engine".to_string(),
            options: self.cfg.options.clone(),
            stderr: Stderr::Keep,
            transcript: true,
        }
    }

    /// Takes over the engine started (and made ready) by the start-up checks.
    pub fn adopt(&mut self, engine: UsiClient, info: EngineInfo) {
        self.engine = Some(engine);
        self.info = Some(info);
        self.scanned = 0;
        self.scan("start-up");
    }

    /// Marks the engine as unusable: later checks are not run.
    pub fn give_up(&mut self, why: String, engine: Option<UsiClient>) {
        if let Some(mut e) = engine {
            e.kill();
            self.engine = Some(e);
            self.scanned = 0;
            self.scan("start-up");
            self.engine = None;
        }
        self.broken = Some(why);
    }

    /// Why no check can run, if so.
    pub fn broken(&self) -> Option<&str> {
        self.broken.as_deref()
    }

    /// Copies the stdout lines not yet seen into `output`.
    fn scan(&mut self, check: &str) {
        let Some(e) = &mut self.engine else { return };
        let Some(t) = e.transcript() else { return };
        for entry in &t.entries()[self.scanned.min(t.entries().len())..] {
            if entry.direction == Direction::Received {
                self.output.push((check.to_string(), entry.text.clone()));
            }
        }
        self.scanned = t.entries().len();
    }

    /// A fresh process: `usi`, the user's options, `isready`.
    fn restart(&mut self) -> Result<(), StartError> {
        if let Some(mut old) = self.engine.take() {
            old.kill();
        }
        self.scanned = 0;
        let policy = self.cfg.policy();
        let spec = self.spec();
        let mut s = EngineSession::spawn(&spec)?;
        let started = s.start_up(&spec.options, &policy, true);
        let EngineSession { client, info, .. } = s;
        self.engine = Some(client);
        self.restart = false;
        if self.info.is_none() && started.is_ok() {
            self.info = Some(info);
        }
        self.scan("restart");
        started
    }

    /// The engine for the next check: restarted if it died or its state is unknown.
    pub fn ready(&mut self) -> Result<&mut UsiClient, String> {
        if let Some(why) = &self.broken {
            return Err(why.clone());
        }
        let alive = self.engine.as_mut().is_some_and(|e| e.is_running());
        if self.restart || !alive {
            // A second try: a start that only just missed its deadline (a loaded machine)
            // should not cost every later check.
            if let Err(why) = self.restart().or_else(|_| self.restart()) {
                let why = format!("the engine could not be restarted: {why}");
                self.engine = None;
                self.broken = Some(why.clone());
                return Err(why);
            }
        }
        Ok(self.engine.as_mut().expect("started"))
    }

    /// Runs one check: restarts the engine first if needed, brings it back in step after. A
    /// check that failed on time alone is run once more before it fails: a loaded machine can
    /// make one answer late, an engine that manages its time badly is late again.
    pub fn run(&mut self, check: &Check) -> CheckResult {
        let t0 = Instant::now();
        let first = self.run_once(check);
        let Some(late) = first
            .verdict
            .late
            .filter(|_| first.verdict.status == Status::Fail)
        else {
            return self.finish(check, first, t0);
        };
        let mut run = self.run_once(check);
        let machine = first.machine();
        let again = run
            .verdict
            .late
            .filter(|_| run.verdict.status == Status::Fail);
        run.verdict = match again {
            Some(again) => Verdict::fail(format!(
                "bestmove {}, and {} ms{} when the check was repeated: {LOST_ON_TIME}; {machine}{}",
                late.describe(),
                again.took.as_millis(),
                if again.stopped { " (after stop)" } else { "" },
                again.cause.map(|c| format!("; {c}")).unwrap_or_default()
            )),
            None if run.verdict.status == Status::Fail => run.verdict,
            None => {
                let busy = if first.busy() {
                    ": the machine was busy"
                } else {
                    ""
                };
                Verdict::warn(format!(
                    "bestmove {} once, in time when the check was repeated ({machine}{busy})",
                    late.describe()
                ))
            }
        };
        if run.verdict.status != Status::Pass {
            let mut t = vec!["(first run)".to_string()];
            t.extend(first.transcript);
            t.push("(repeated)".to_string());
            t.append(&mut run.transcript);
            run.transcript = t;
        }
        self.finish(check, run, t0)
    }

    fn finish(&mut self, check: &Check, run: Run, t0: Instant) -> CheckResult {
        for (hangs, s) in self.hangs.iter_mut().zip(run.searches) {
            if s.hung {
                hangs.push(check.name.clone());
            } else if s.answered {
                hangs.clear();
            }
        }
        CheckResult::new(
            &check.name,
            check.group,
            run.verdict,
            run.transcript,
            t0.elapsed(),
        )
    }

    /// For each kind of search, why it is skipped: the engine hung in it on
    /// [`HANG_STREAK`] fresh processes in a row.
    fn hang_skips(&self) -> [Option<String>; SearchKind::ALL.len()] {
        SearchKind::ALL.map(|k| {
            let hung = &self.hangs[k.index()];
            (hung.len() >= HANG_STREAK).then(|| {
                format!(
                    "the engine hangs in every {}: it hung in {}, each time on a fresh process",
                    k.words(),
                    hung.join(", ")
                )
            })
        })
    }

    fn run_once(&mut self, check: &Check) -> Run {
        let cfg = self.cfg;
        let info = self.info.clone().unwrap_or_default();
        let skip = self.hang_skips();
        let engine = match self.ready() {
            Ok(e) => e,
            Err(why) => return Run::new(Verdict::not_run(&why)),
        };
        let mark = engine.transcript_len();
        let mut ctx = Ctx::new(engine, cfg, &info);
        ctx.skip = skip;
        let mut verdict = (check.run)(&mut ctx).unwrap_or_else(|v| v);
        let (tainted, searches) = (ctx.tainted, ctx.searches);
        let mut needs_restart = check.fresh_after;
        let mut transcript = excerpt(engine, mark);
        let load = verdict.late.and_then(|_| load_average());
        // Bring it back in step: an engine that no longer answers `isready` is restarted
        // before the next check; one that died has its crash reported here.
        let mut round_trip = None;
        let dead = match (tainted, engine.is_running()) {
            (_, false) => true,
            (true, true) => {
                needs_restart = true;
                false
            }
            (false, true) => {
                let dead;
                (dead, round_trip) = isready_round_trip(engine, cfg.timeout);
                if round_trip.is_none() {
                    needs_restart = true;
                }
                dead
            }
        };
        if dead {
            needs_restart = true;
            if verdict.status != Status::Fail {
                let status = engine
                    .exit_status()
                    .map(|s| format!(" ({s})"))
                    .unwrap_or_default();
                verdict = Verdict::fail(format!(
                    "the engine exited{status} after the check: {}",
                    verdict.reason
                ));
                transcript = excerpt(engine, mark);
            }
        }
        self.restart |= needs_restart;
        self.scan(&check.name);
        Run {
            verdict,
            transcript,
            searches,
            round_trip,
            load,
        }
    }
}

/// Sends `isready` and waits up to `timeout` for `readyok`: whether the engine died on the
/// way (the send or a read failed), and the round trip when `readyok` came.
fn isready_round_trip(engine: &mut UsiClient, timeout: Duration) -> (bool, Option<Duration>) {
    let sent = Instant::now();
    let deadline = sent + timeout;
    let mut dead = false;
    let mut round_trip = None;
    if engine.send("isready").is_err() {
        dead = true;
    }
    while !dead && round_trip.is_none() {
        match engine.recv(deadline) {
            Ok(Some(l)) if parse_engine_line(&l.text) == EngineMessage::ReadyOk => {
                round_trip = Some(l.at.saturating_duration_since(sent))
            }
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(_) => dead = true,
        }
    }
    (dead, round_trip)
}

/// One run of a check, before its result is made.
struct Run {
    verdict: Verdict,
    transcript: Vec<String>,
    searches: [Searches; 2],
    /// The `isready` round trip after the check.
    round_trip: Option<Duration>,
    /// The one-minute load average per core as the check ended (taken for a verdict on time
    /// only).
    load: Option<f64>,
}

impl Run {
    /// How busy the machine was, in words: the `isready` round trip and the load average.
    fn machine(&self) -> String {
        let trip = match self.round_trip {
            Some(d) => format!("an isready round trip took {} ms", d.as_millis()),
            None => "no isready round trip".to_string(),
        };
        match self.load {
            Some(load) => format!("{trip}, load average {load:.2} per core"),
            None => trip,
        }
    }

    /// Whether the machine was busy: more runnable processes than cores, or a slow `isready`.
    fn busy(&self) -> bool {
        self.load.is_some_and(|l| l > 1.0)
            || self
                .round_trip
                .is_some_and(|d| d > Duration::from_millis(100))
    }

    fn new(verdict: Verdict) -> Run {
        Run {
            verdict,
            transcript: Vec::new(),
            searches: [Searches::default(); 2],
            round_trip: None,
            load: None,
        }
    }
}

/// The one-minute load average divided by the number of cores (Linux only: `/proc/loadavg`).
fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let one: f64 = text.split_ascii_whitespace().next()?.parse().ok()?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    Some(one / cores as f64)
}

/// The transcript from `mark` on, with long lines cut and only the last lines kept.
pub(crate) fn excerpt(engine: &mut UsiClient, mark: usize) -> Vec<String> {
    let lines = engine
        .transcript()
        .map(|t| t.excerpt(mark))
        .unwrap_or_default();
    let skip = lines.len().saturating_sub(EXCERPT_LINES);
    let mut out = Vec::new();
    if skip > 0 {
        out.push(format!("({skip} earlier lines)"));
    }
    out.extend(lines.into_iter().skip(skip).map(|l| cut(&l, EXCERPT_LINE)));
    out
}

/// `s` cut to `max` characters, saying how much was left out.
pub(crate) fn cut(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        s.to_string()
    } else {
        let head: String = s.chars().take(max).collect();
        format!("{head} … ({} more characters)", n - max)
    }
}

/// A `bestmove` line as read.
#[derive(Clone, Debug)]
pub(crate) struct Answer {
    pub best: BestMove,
    pub ponder: Option<String>,
    pub line: Line,
}

/// The answer to a `go`, with the time it took.
#[derive(Clone, Debug)]
pub(crate) struct Searched {
    pub answer: Answer,
    /// From sending `go` to the `bestmove` line's arrival.
    pub elapsed: Duration,
    /// Whether it only came after a `stop`.
    pub stopped: bool,
}

/// What [`Ctx::wait_for`] found: the line it waited for and its message (`None` after the
/// deadline), and the lines before it.
pub(crate) type Found = (Option<(Line, EngineMessage)>, Vec<Line>);

/// One check's view of the engine.
pub(crate) struct Ctx<'a> {
    pub e: &'a mut UsiClient,
    pub cfg: &'a Config,
    pub info: &'a EngineInfo,
    last_sent: String,
    /// A wait went unanswered: the engine's state is unknown, restart it after the check.
    pub tainted: bool,
    /// For each [`SearchKind`]: whether a search was answered, whether one hung.
    searches: [Searches; 2],
    /// For each [`SearchKind`]: why a search of that kind is not started (the engine hung in
    /// it in the last checks); the check then ends as not run.
    skip: [Option<String>; 2],
    warnings: Vec<String>,
}

impl<'a> Ctx<'a> {
    pub fn new(e: &'a mut UsiClient, cfg: &'a Config, info: &'a EngineInfo) -> Ctx<'a> {
        Ctx {
            e,
            cfg,
            info,
            last_sent: String::new(),
            tainted: false,
            searches: [Searches::default(); 2],
            skip: [None, None],
            warnings: Vec::new(),
        }
    }

    /// The failure for an engine that went away.
    fn died(&mut self, err: ClientError) -> Verdict {
        let after = self.unanswered();
        if let Some(status) = self.e.wait_exit(EXIT_SOON) {
            return Verdict::fail(format!("the engine exited ({status}) after {after}"));
        }
        Verdict::fail(match err {
            ClientError::Exited(_) => format!("the engine closed its output after {after}"),
            ClientError::Write(e) => {
                format!("the engine no longer reads its input ({e}) after {after}")
            }
            other => other.to_string(),
        })
    }

    /// The lines sent since the engine last said something (at most the last three), as
    /// `'a', 'b'`: what it was reading when it went away.
    fn unanswered(&mut self) -> String {
        let Some(t) = self.e.transcript() else {
            return format!("'{}'", cut(&self.last_sent, 60));
        };
        let mut sent: Vec<String> = t
            .entries()
            .iter()
            .rev()
            .filter(|e| e.direction != Direction::Stderr)
            .take_while(|e| e.direction == Direction::Sent)
            .take(3)
            .map(|e| format!("'{}'", cut(&e.text, 60)))
            .collect();
        sent.reverse();
        sent.join(", ")
    }

    /// Sends a line.
    pub fn send(&mut self, line: &str) -> Result<(), Verdict> {
        self.last_sent = line.to_string();
        self.e.send(line).map_err(|e| self.died(e))
    }

    /// The next line, or `None` after `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Result<Option<Line>, Verdict> {
        self.e.recv(deadline).map_err(|e| self.died(e))
    }

    /// Reads until a line whose message `want` accepts, or `deadline`; returns it and the
    /// lines before it.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        want: impl Fn(&EngineMessage) -> bool,
    ) -> Result<Found, Verdict> {
        let mut before = Vec::new();
        while let Some(l) = self.recv(deadline)? {
            let msg = parse_engine_line(&l.text);
            if want(&msg) {
                return Ok((Some((l, msg)), before));
            }
            before.push(l);
        }
        Ok((None, before))
    }

    /// The next `bestmove` by `deadline`.
    pub fn bestmove(&mut self, deadline: Instant) -> Result<Option<Answer>, Verdict> {
        let (found, _) =
            self.wait_for(deadline, |m| matches!(m, EngineMessage::BestMove { .. }))?;
        Ok(found.and_then(|(line, msg)| match msg {
            EngineMessage::BestMove { best, ponder } => Some(Answer { best, ponder, line }),
            _ => None,
        }))
    }

    /// `isready` and its `readyok`: the `bestmove` lines that came before it, or `None` when
    /// no `readyok` came in time (the engine is then restarted after the check).
    pub fn fence(&mut self) -> Result<Option<Vec<Answer>>, Verdict> {
        Ok(self.fence_within(self.cfg.timeout)?.map(|(b, _)| b))
    }

    /// [`Ctx::fence`] with its own bound: also how long the `readyok` took.
    pub fn fence_within(
        &mut self,
        bound: Duration,
    ) -> Result<Option<(Vec<Answer>, Duration)>, Verdict> {
        self.send("isready")?;
        let t0 = Instant::now();
        let (found, before) = self.wait_for(t0 + bound, |m| *m == EngineMessage::ReadyOk)?;
        let Some((line, _)) = found else {
            self.tainted = true;
            return Ok(None);
        };
        Ok(Some((
            bestmoves(before),
            line.at.saturating_duration_since(t0),
        )))
    }

    /// Why a search of `kind` is not started, if the engine hung in such searches in the last
    /// checks: the check then ends as not run.
    pub fn may_start(&self, kind: SearchKind) -> Result<(), Verdict> {
        match &self.skip[kind.index()] {
            Some(why) => Err(Verdict::not_run(why)),
            None => Ok(()),
        }
    }

    /// Sends `go` and waits for its `bestmove`: up to the time `given` plus the tolerance
    /// (or the timeout when no time is given), then up to the policy's grace after a `stop`.
    /// No answer at all is a failure (and the engine is restarted).
    pub fn search(&mut self, go: &Go, given: Option<Duration>) -> Result<Searched, Verdict> {
        self.may_start(SearchKind::Timed)?;
        let text = go.to_string();
        self.send(&text)?;
        let t0 = Instant::now();
        let first = given.map_or(self.cfg.timeout, |g| g + TOLERANCE);
        let mut found = self.bestmove(t0 + first)?.map(|a| (a, false));
        if found.is_none() {
            self.send("stop")?;
            let grace = self.cfg.policy().stop_grace;
            found = self.bestmove(Instant::now() + grace)?.map(|a| (a, true));
        }
        let timed = &mut self.searches[SearchKind::Timed.index()];
        match found {
            Some((answer, stopped)) => {
                timed.answered = true;
                Ok(Searched {
                    elapsed: answer.line.at.saturating_duration_since(t0),
                    answer,
                    stopped,
                })
            }
            None => {
                timed.hung = true;
                self.tainted = true;
                Err(Verdict::fail(format!(
                    "no bestmove for '{text}' within {} ms, nor {} ms after stop: the engine hangs (killed, restarted for the next check; ShogiHome waits for the bestmove after stop forever)",
                    first.as_millis(),
                    self.cfg.policy().stop_grace.as_millis()
                )))
            }
        }
    }

    /// Starts a held search (`go infinite`, `go ponder …`).
    pub fn go_held(&mut self, go: &str) -> Result<(), Verdict> {
        self.may_start(SearchKind::Held)?;
        self.send(go)
    }

    /// Waits for the `bestmove` that a `stop` of a held search must bring, up to the policy's
    /// grace: the answer and how long it took after the call. `during` says what was stopped.
    pub fn after_stop(&mut self, during: &str) -> Result<(Answer, Duration), Verdict> {
        let t0 = Instant::now();
        let grace = self.cfg.policy().stop_grace;
        let found = self.bestmove(t0 + grace)?;
        let held = &mut self.searches[SearchKind::Held.index()];
        match found {
            Some(a) => {
                held.answered = true;
                let took = a.line.at.saturating_duration_since(t0);
                Ok((a, took))
            }
            None => {
                held.hung = true;
                self.tainted = true;
                Err(Verdict::fail(format!(
                    "no bestmove within {} ms after stop during {during}",
                    grace.as_millis()
                )))
            }
        }
    }

    /// Notes that a timed search hung outside [`Ctx::search`] (`go mate`).
    pub fn timed_hung(&mut self) {
        self.searches[SearchKind::Timed.index()].hung = true;
        self.tainted = true;
    }

    /// Notes a warning: a check that otherwise passes ends as a warning.
    pub fn warn(&mut self, msg: impl Into<String>) {
        self.warnings.push(msg.into());
    }

    /// The verdict of a check that found nothing wrong: a pass, or a warning if one was noted.
    pub fn pass(&mut self, reason: impl Into<String>) -> Verdict {
        match self.warnings.len() {
            0 => Verdict::pass(reason),
            1 => Verdict::warn(self.warnings[0].clone()),
            n => Verdict::warn(format!("{} (and {} more)", self.warnings[0], n - 1)),
        }
    }
}

/// The `bestmove` lines among `lines`.
pub(crate) fn bestmoves(lines: Vec<Line>) -> Vec<Answer> {
    lines
        .into_iter()
        .filter_map(|line| match parse_engine_line(&line.text) {
            EngineMessage::BestMove { best, ponder } => Some(Answer { best, ponder, line }),
            _ => None,
        })
        .collect()
}
