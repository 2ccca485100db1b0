//! The engine checker (`saikoro check`): drives a USI engine the way GUIs do and says, check by
//! check, what it does wrong.
//!
//! Every check is named, runs on its own (a crashed or confused engine is restarted before the
//! next one) and ends as [`Status::Pass`], [`Status::Warning`] or [`Status::Fail`] with a
//! one-line reason and the transcript lines that show it. Every wait has a deadline, so no
//! engine can hang the checker. What the checks rely on (GUI behaviour, timeouts, rules) is
//! written down in `docs/check.md`.
//!
//! The groups, in the order they run:
//!
//! - start-up: `usi` → `id`, `option` lines, `usiok`; `isready` → `readyok`;
//! - options: `setoption` for every option, with `isready` after each;
//! - game flow: games with each kind of clock, `go infinite`, `go ponder`,
//!   `gameover` with and without `stop`;
//! - rules: positions chosen to catch illegal moves (`positions/check.txt`);
//! - robustness: `isready` during a search, a long history, CRLF, an unknown
//!   command; `go mate`;
//! - output: nothing but USI on stdout; `quit`.
//!
//! [`movegen`] is the move-generator debugger (`saikoro check --movegen`): the engine's
//! `go perft` divide against Saikoro's, down to the position where the moves differ.

#![warn(missing_docs)]

mod flow;
mod move_notes;
pub mod movegen;
mod options;
mod output;
pub mod positions;
mod report;
mod robust;
mod rules;
mod session;
mod startup;

pub use movegen::report::{
    write_movegen_details, write_movegen_json, write_position_row, JsonMoveNote, JsonMovegenReport,
    JsonOutcome, JsonPosition,
};
pub use report::{write_details, write_json, write_table, JsonCheck, JsonReport, Table};

use saikoro_driver::{EngineCommand, FaultPolicy};
use std::fmt;
use std::time::Duration;

/// How far past the time it was given an answer may come before it is a failure (between the
/// two, a warning). GUIs measure the time from their side of the pipe, like the checker.
pub(crate) const TOLERANCE: Duration = Duration::from_millis(500);

/// How long the checker watches for a `bestmove` that must not come yet (`go infinite`,
/// `go ponder`) before it sends `stop` or `ponderhit`.
pub(crate) const HOLD: Duration = Duration::from_millis(500);

/// The byoyomi of a single `go` in the rules and robustness checks: `go btime 0 wtime 0
/// byoyomi 1000`.
pub(crate) const MOVE_TIME: Duration = Duration::from_millis(1000);

/// How long ShogiHome waits for an engine to exit after `quit` before it kills it.
pub(crate) const QUIT_LIMIT: Duration = Duration::from_secs(5);

/// How long ShogiHome waits for `usiok` by default: the default of `--timeout-ms`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// What to check and how.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine's command line.
    pub engine: EngineCommand,
    /// The longest wait for an answer that should come at once (`usiok`, `readyok`, the
    /// `bestmove` after `stop`, …).
    pub timeout: Duration,
    /// Options set after every start (`setoption name N value V`), and left alone by the
    /// option checks.
    pub options: Vec<(String, String)>,
    /// `--only`: the checks and groups to run (empty: all).
    pub only: Vec<String>,
    /// `--skip`: the checks and groups not to run.
    pub skip: Vec<String>,
}

impl Config {
    /// A configuration with the default timeout and no options.
    pub fn new(engine: EngineCommand) -> Config {
        Config {
            engine,
            timeout: DEFAULT_TIMEOUT,
            options: Vec::new(),
            only: Vec::new(),
            skip: Vec::new(),
        }
    }

    /// Whether the check `name` of `group` is selected by `--only` and `--skip`. The start-up
    /// runs whatever they say (nothing else could); its results are shown when selected or
    /// failed.
    pub fn selects(&self, name: &str, group: Group) -> bool {
        let names = |list: &[String]| list.iter().any(|w| w == name || *w == group.slug());
        (self.only.is_empty() || names(&self.only)) && !names(&self.skip)
    }

    /// What the checker does when the engine fails: [`FaultPolicy::CHECK`] with this
    /// configuration's timeout for `usiok` and `readyok`.
    pub fn policy(&self) -> FaultPolicy {
        FaultPolicy {
            startup: self.timeout,
            ready: self.timeout,
            ..FaultPolicy::CHECK
        }
    }

    /// Whether the user fixed option `name` with `--option`.
    fn pins(&self, name: &str) -> bool {
        self.options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    }
}

/// The outcome of a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// Nothing wrong.
    Pass,
    /// Something a GUI tolerates but should be fixed, or the check could not test its subject
    /// because an earlier one failed.
    Warning,
    /// A GUI or server would fail the engine here.
    Fail,
    /// Not run: the engine never got through its start-up, or it hung in every search of
    /// the last checks (see the reason).
    NotRun,
}

impl Status {
    /// Every status.
    pub const ALL: [Status; 4] = [Status::Pass, Status::Warning, Status::Fail, Status::NotRun];

    /// The mark in the table: ✔, !, ✘ or -.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Status::Pass => "✔",
            Status::Warning => "!",
            Status::Fail => "✘",
            Status::NotRun => "-",
        }
    }

    /// The word used in JSON: `pass`, `warning`, `fail`, `not-run`.
    pub fn word(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Warning => "warning",
            Status::Fail => "fail",
            Status::NotRun => "not-run",
        }
    }
}

/// In JSON a status is its [`Status::word`].
impl serde::Serialize for Status {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.word())
    }
}

impl<'de> serde::Deserialize<'de> for Status {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Status, D::Error> {
        let word = String::deserialize(d)?;
        Status::ALL
            .into_iter()
            .find(|s| s.word() == word)
            .ok_or_else(|| {
                serde::de::Error::invalid_value(
                    serde::de::Unexpected::Str(&word),
                    &"the word of a check's status",
                )
            })
    }
}

/// The groups of checks, in the order they run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    /// `usi`, `isready`.
    StartUp,
    /// `setoption`.
    Options,
    /// Games as GUIs drive them.
    GameFlow,
    /// Legal moves in chosen positions.
    Rules,
    /// Odd but legitimate input.
    Robustness,
    /// The whole run's output, and `quit`.
    Output,
}

impl Group {
    /// Every group, in the order they run.
    pub const ALL: [Group; 6] = [
        Group::StartUp,
        Group::Options,
        Group::GameFlow,
        Group::Rules,
        Group::Robustness,
        Group::Output,
    ];

    /// The group's name in one word, as `--only` and `--skip` take it: `start-up`, `options`,
    /// `game-flow`, `rules`, `robustness`, `output`.
    pub fn slug(self) -> &'static str {
        match self {
            Group::GameFlow => "game-flow",
            Group::StartUp => "start-up",
            Group::Options => "options",
            Group::Rules => "rules",
            Group::Robustness => "robustness",
            Group::Output => "output",
        }
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Group::StartUp => "start-up",
            Group::Options => "options",
            Group::GameFlow => "game flow",
            Group::Rules => "rules",
            Group::Robustness => "robustness",
            Group::Output => "output",
        })
    }
}

/// One check's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// The check's name (`usiok`, `go-infinite`, `rules-nifu`, …).
    pub name: String,
    /// Its group.
    pub group: Group,
    /// Pass, warning, fail or not run.
    pub status: Status,
    /// Why, in one line.
    pub reason: String,
    /// The lines that show it (`> sent`, `< received`, `! stderr`), for warnings and failures.
    pub transcript: Vec<String>,
    /// How long it took.
    pub elapsed: Duration,
}

impl CheckResult {
    /// A result from a verdict; a pass keeps no transcript.
    fn new(
        name: &str,
        group: Group,
        v: session::Verdict,
        transcript: Vec<String>,
        elapsed: Duration,
    ) -> CheckResult {
        CheckResult {
            name: name.to_string(),
            group,
            transcript: if v.status == Status::Pass {
                Vec::new()
            } else {
                transcript
            },
            status: v.status,
            reason: v.reason,
            elapsed,
        }
    }

    /// A check that could not run, and why.
    fn not_run(name: &str, group: Group, why: &str) -> CheckResult {
        CheckResult {
            name: name.to_string(),
            group,
            status: Status::NotRun,
            reason: format!("not run: {why}"),
            transcript: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }
}

/// The results of a whole run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The engine's command line.
    pub engine: String,
    /// Its `id name`, if it gave one.
    pub name: Option<String>,
    /// Its `id author`, if it gave one.
    pub author: Option<String>,
    /// Every check, in the order run.
    pub results: Vec<CheckResult>,
    /// How long the run took.
    pub elapsed: Duration,
}

impl Report {
    /// How many checks ended with `status`.
    pub fn count(&self, status: Status) -> usize {
        self.results.iter().filter(|r| r.status == status).count()
    }

    /// Whether no check failed.
    pub fn ok(&self) -> bool {
        self.count(Status::Fail) == 0
    }

    /// The result of the check called `name`.
    pub fn get(&self, name: &str) -> Option<&CheckResult> {
        self.results.iter().find(|r| r.name == name)
    }
}

/// A check that runs on a started engine.
struct Check {
    name: String,
    group: Group,
    run: Box<dyn Fn(&mut session::Ctx) -> session::Step>,
    /// Start a fresh process after it (the option checks change every option).
    fresh_after: bool,
}

impl Check {
    fn new(
        name: impl Into<String>,
        group: Group,
        run: impl Fn(&mut session::Ctx) -> session::Step + 'static,
    ) -> Check {
        Check {
            name: name.into(),
            group,
            run: Box::new(run),
            fresh_after: false,
        }
    }
}

/// Whether `word` names a check or a group (`--only`, `--skip`).
pub fn selectable(word: &str) -> bool {
    check_names().iter().any(|n| n == word) || Group::ALL.iter().any(|g| g.slug() == word)
}

/// The names of all checks, in the order they run.
pub fn check_names() -> Vec<String> {
    let mut names: Vec<String> = startup::NAMES.iter().map(|s| s.to_string()).collect();
    names.extend(checks().into_iter().map(|c| c.name));
    names.extend(output::NAMES.iter().map(|s| s.to_string()));
    names
}

/// Every check after start-up and before the output checks, in order.
fn checks() -> Vec<Check> {
    let mut all = Vec::new();
    all.extend(options::checks());
    all.extend(flow::checks());
    all.extend(rules::checks());
    all.extend(robust::checks());
    all
}

/// Runs every check against the engine of `config`; `on_result` sees each result as it comes
/// (for a live table).
pub fn run(config: &Config, on_result: &mut dyn FnMut(&CheckResult)) -> Report {
    let t0 = std::time::Instant::now();
    let mut harness = session::Harness::new(config);
    let mut report = Report {
        engine: config.engine.to_string(),
        ..Report::default()
    };
    let mut push = |report: &mut Report, r: CheckResult| {
        on_result(&r);
        report.results.push(r);
    };
    for r in startup::run(&mut harness) {
        if r.status == Status::Fail || config.selects(&r.name, r.group) {
            push(&mut report, r);
        }
    }
    report.name = harness.info().and_then(|i| i.name.clone());
    report.author = harness.info().and_then(|i| i.author.clone());
    let mut selected: Vec<Check> = checks()
        .into_iter()
        .filter(|c| config.selects(&c.name, c.group))
        .collect();
    // The option checks leave the options as they set them: the next check gets a fresh
    // process.
    if let Some(last) = selected.iter_mut().rfind(|c| c.group == Group::Options) {
        last.fresh_after = true;
    }
    for check in &selected {
        let r = harness.run(check);
        push(&mut report, r);
    }
    for r in output::run(&mut harness, &|name| config.selects(name, Group::Output)) {
        push(&mut report, r);
    }
    report.elapsed = t0.elapsed();
    report
}
