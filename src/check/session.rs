//! The engine under test between checks ([`Harness`]: start, restart, keep in step) and within
//! one check ([`Ctx`]: send, wait with deadlines, verdicts).

use super::{Check, CheckResult, Config, Status, TOLERANCE};
use crate::usi::client::{Direction, Line, Stderr};
use crate::usi::{
    parse_engine_line, BestMove, ClientError, EngineInfo, EngineMessage, EngineSession, EngineSpec,
    Go, UsiClient,
};
use std::time::{Duration, Instant};

/// How a check ends: its status and one-line reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Verdict {
    pub status: Status,
    pub reason: String,
}

impl Verdict {
    pub fn pass(reason: impl Into<String>) -> Verdict {
        Verdict {
            status: Status::Pass,
            reason: reason.into(),
        }
    }

    pub fn warn(reason: impl Into<String>) -> Verdict {
        Verdict {
            status: Status::Warning,
            reason: reason.into(),
        }
    }

    pub fn fail(reason: impl Into<String>) -> Verdict {
        Verdict {
            status: Status::Fail,
            reason: reason.into(),
        }
    }
}

/// What a check returns. `Err` ends it early (with `?`), usually with a failure.
pub(crate) type Step = Result<Verdict, Verdict>;

/// After this many checks in a row in which the engine hung (no `bestmove` even after `stop`,
/// each time on a fresh process), the checks that search are not run: the engine hangs on
/// every search, and each of them would only wait out its time and the grace again.
pub(crate) const HANG_STREAK: usize = 3;

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
    /// The checks in a row, up to the last, in which the engine hung.
    hangs: Vec<String>,
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
            hangs: Vec::new(),
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
    fn restart(&mut self) -> Result<(), String> {
        if let Some(mut old) = self.engine.take() {
            old.kill();
        }
        self.scanned = 0;
        let policy = self.cfg.policy();
        let spec = self.spec();
        let mut s = EngineSession::spawn(&spec).map_err(|e| e.to_string())?;
        let started = s
            .start_up(&spec.options, &policy, true)
            .map_err(|err| err.to_string());
        let EngineSession { client, info, .. } = s;
        self.engine = Some(client);
        self.restart = false;
        if self.info.is_none() && started.is_ok() {
            self.info = Some(info);
        }
        self.scan("restart");
        started.map(|_| ())
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

    /// Runs one check: restarts the engine first if needed, brings it back in step after.
    pub fn run(&mut self, check: &Check) -> CheckResult {
        let t0 = Instant::now();
        let cfg = self.cfg;
        let info = self.info.clone().unwrap_or_default();
        if self.hangs.len() >= HANG_STREAK && check.group != super::Group::Options {
            let why = format!(
                "the engine hangs on every search (it hung in {}, each time on a fresh process)",
                self.hangs.join(", ")
            );
            return CheckResult::not_run(&check.name, check.group, &why);
        }
        let engine = match self.ready() {
            Ok(e) => e,
            Err(why) => return CheckResult::not_run(&check.name, check.group, &why),
        };
        let mark = engine.transcript_len();
        let mut ctx = Ctx::new(engine, cfg, &info);
        let mut verdict = (check.run)(&mut ctx).unwrap_or_else(|v| v);
        let (tainted, hung) = (ctx.tainted, ctx.hung);
        let mut needs_restart = check.fresh_after;
        let mut transcript = excerpt(engine, mark);
        // Bring it back in step: an engine that no longer answers `isready` is restarted
        // before the next check; one that died has its crash reported here.
        let dead = match (tainted, engine.is_running()) {
            (_, false) => true,
            (true, true) => {
                needs_restart = true;
                false
            }
            (false, true) => {
                let deadline = Instant::now() + cfg.timeout;
                let mut answered = false;
                let mut dead = false;
                if engine.send("isready").is_err() {
                    dead = true;
                }
                while !dead && !answered {
                    match engine.recv(deadline) {
                        Ok(Some(l)) => {
                            answered = parse_engine_line(&l.text) == EngineMessage::ReadyOk
                        }
                        Ok(None) => break,
                        Err(_) => dead = true,
                    }
                }
                if !answered {
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
        if hung {
            self.hangs.push(check.name.clone());
        } else {
            self.hangs.clear();
        }
        CheckResult::new(&check.name, check.group, verdict, transcript, t0.elapsed())
    }
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
    /// A search went unanswered even after `stop` and its grace: the engine hangs.
    pub hung: bool,
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
            hung: false,
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
        self.send("isready")?;
        let deadline = Instant::now() + self.cfg.timeout;
        let (found, before) = self.wait_for(deadline, |m| *m == EngineMessage::ReadyOk)?;
        if found.is_none() {
            self.tainted = true;
            return Ok(None);
        }
        Ok(Some(bestmoves(before)))
    }

    /// Sends `go` and waits for its `bestmove`: up to the time `given` plus the tolerance
    /// (or the timeout when no time is given), then up to the policy's grace after a `stop`.
    /// No answer at all is a failure (and the engine is restarted).
    pub fn search(&mut self, go: &Go, given: Option<Duration>) -> Result<Searched, Verdict> {
        let text = go.to_string();
        self.send(&text)?;
        let t0 = Instant::now();
        let first = given.map_or(self.cfg.timeout, |g| g + TOLERANCE);
        if let Some(answer) = self.bestmove(t0 + first)? {
            return Ok(Searched {
                elapsed: answer.line.at.saturating_duration_since(t0),
                answer,
                stopped: false,
            });
        }
        self.send("stop")?;
        let grace = self.cfg.policy().stop_grace;
        if let Some(answer) = self.bestmove(Instant::now() + grace)? {
            return Ok(Searched {
                elapsed: answer.line.at.saturating_duration_since(t0),
                answer,
                stopped: true,
            });
        }
        self.tainted = true;
        self.hung = true;
        Err(Verdict::fail(format!(
            "no bestmove for '{text}' within {} ms, nor {} ms after stop: the engine hangs (killed, restarted for the next check)",
            first.as_millis(),
            grace.as_millis()
        )))
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
