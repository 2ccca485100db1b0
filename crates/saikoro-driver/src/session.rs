//! One way to start an engine, for every tool: spawn → `usi` … `usiok` (the option lines read
//! into typed [`UsiOption`](saikoro_usi::UsiOption)s) → each `setoption` checked against the
//! engine's own declaration → `isready` … `readyok`. What differs between the tools is data,
//! their [`FaultPolicy`]: how long each answer may take, and whether an option the engine does
//! not declare, or a value it rules out, is refused or sent anyway.
//!
//! The fault policy of each tool is written down once, in the constants of [`FaultPolicy`],
//! and described in `docs/engines.md` with what each tool does on each fault.

use crate::client::{ClientError, EngineInfo, SpawnOptions, UsiClient};
use crate::process::Stderr;
use crate::program::EngineCommand;
use log::warn;
use saikoro_usi::OptionValueError;
use std::fmt;
use std::process::ExitStatus;
use std::time::Duration;

/// What a tool does with an option the engine does not take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionRule {
    /// An error: the engine does not start.
    Refuse,
    /// Sent all the same, and kept in [`EngineSession::findings`] ([`EngineSession::start`]
    /// warns about each in the log).
    SendAnyway,
}

/// How a tool treats an engine that fails: the time each answer may take and what a wrong
/// option is. One constant per tool; the tools' flags override the times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultPolicy {
    /// `usi` → `usiok`.
    pub startup: Duration,
    /// `isready` → `readyok`.
    pub ready: Duration,
    /// `stop` → `bestmove`: past it the engine is hung, and killed.
    pub stop_grace: Duration,
    /// `quit` → exit: past it the engine is killed.
    pub quit_grace: Duration,
    /// An option the engine does not declare (`USI_Hash` and `USI_Ponder` are always sent,
    /// as GUIs send them to every engine).
    pub undeclared_option: OptionRule,
    /// A value the engine's declaration rules out (a spin out of range, a combo value not
    /// among its vars, a check that is not `true` or `false`). A fraction for a spin within
    /// its limits is sent in every tool, with a warning naming the integer it rounds to: SPSA
    /// tuners send such values, and OpenBench asks engines to round them.
    pub bad_value: OptionRule,
    /// The flag that sends a value the declaration rules out as written, for the refusal to
    /// name (`None`: the tool has none).
    pub bad_value_flag: Option<&'static str>,
    /// How the user writes an option, for messages: `option.` (`option.Hash=16`) or
    /// `--option ` (`--option Hash=16`).
    pub option_syntax: &'static str,
}

impl FaultPolicy {
    /// `saikoro csa --engine`.
    pub const CSA: FaultPolicy = FaultPolicy {
        startup: Duration::from_secs(60),
        ready: Duration::from_secs(60),
        stop_grace: Duration::from_millis(500),
        quit_grace: Duration::from_secs(2),
        undeclared_option: OptionRule::SendAnyway,
        bad_value: OptionRule::Refuse,
        bad_value_flag: None,
        option_syntax: "--option ",
    };

    /// `saikoro match` (`--startup-ms` and `--ready-ms` set the first two).
    pub const MATCH: FaultPolicy = FaultPolicy {
        startup: Duration::from_secs(10),
        ready: Duration::from_secs(60),
        stop_grace: Duration::from_secs(1),
        quit_grace: Duration::from_secs(2),
        undeclared_option: OptionRule::Refuse,
        bad_value: OptionRule::Refuse,
        bad_value_flag: Some("--send-option-values-as-written"),
        option_syntax: "option.",
    };

    /// `saikoro check` (`--timeout-ms` sets the first two). The quit grace is ShogiHome's.
    pub const CHECK: FaultPolicy = FaultPolicy {
        startup: Duration::from_secs(10),
        ready: Duration::from_secs(10),
        stop_grace: Duration::from_secs(1),
        quit_grace: Duration::from_secs(5),
        undeclared_option: OptionRule::SendAnyway,
        bad_value: OptionRule::SendAnyway,
        bad_value_flag: None,
        option_syntax: "--option ",
    };
}

/// Options GUIs send whether or not the engine declares them (ShogiHome, Shogidokoro).
pub const ALWAYS_SENT: [&str; 2] = ["USI_Hash", "USI_Ponder"];

/// An engine to start: its command, its name in the log, the options to set, and what to
/// keep of its output.
#[derive(Clone, Debug, Default)]
pub struct EngineSpec {
    /// The command line.
    pub command: EngineCommand,
    /// The name in the log and in messages (`engine` when empty).
    pub label: String,
    /// `setoption name NAME value VALUE` for each, in order, after `usiok`.
    pub options: Vec<(String, String)>,
    /// Where its stderr goes.
    pub stderr: Stderr,
    /// Whether to keep a transcript of every line.
    pub transcript: bool,
}

/// An option the engine does not take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionProblem {
    /// No such option is declared.
    Undeclared {
        /// The name as given.
        name: String,
        /// The names the engine declares.
        declared: Vec<String>,
    },
    /// The value is ruled out by the declaration.
    BadValue {
        /// The name as given.
        name: String,
        /// The value as given.
        value: String,
        /// Why.
        error: OptionValueError,
    },
}

/// Why an engine did not start.
#[derive(Debug)]
#[non_exhaustive]
pub enum StartError {
    /// The program cannot be run at all.
    Spawn(ClientError),
    /// It ran but did not get through `usi` … `usiok`: it crashed, or gave no `usiok` in time.
    Handshake(ClientError),
    /// An option it does not take, refused by the policy (the message names the engine and
    /// the option as the user wrote it).
    Option(String),
    /// No `readyok` (or it crashed) after the options.
    Ready(ClientError),
}

impl StartError {
    /// Whether the engine itself failed (it ran, but crashed or did not answer): a tool that
    /// goes on counts it against the engine. Otherwise nothing can run it (a program that
    /// cannot start, or options it refuses).
    pub fn is_engine_fault(&self) -> bool {
        matches!(self, StartError::Handshake(_) | StartError::Ready(_))
    }
}

impl StartError {
    /// The stage of the start-up it failed at, as the messages name it (`None` for a program
    /// that cannot be started and a refused option, whose messages say so themselves).
    pub fn stage(&self) -> Option<&'static str> {
        match self {
            StartError::Handshake(_) => Some("at the handshake (usi ... usiok)"),
            StartError::Ready(_) => Some("after the handshake (setoption, isready ... readyok)"),
            StartError::Spawn(_) | StartError::Option(_) => None,
        }
    }
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Spawn(e) => e.fmt(f),
            StartError::Handshake(e) | StartError::Ready(e) => {
                write!(f, "{}: {e}", self.stage().unwrap_or_default())
            }
            StartError::Option(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for StartError {}

/// An engine that failed to start, as a value: the stage it failed at with the error (the
/// exit status is in it when the process ended: [`StartFailure::exit_status`]), and the last
/// lines of its stderr when the engine itself failed.
#[derive(Debug)]
pub struct StartFailure {
    /// The stage and the error.
    pub error: StartError,
    /// The last lines of its stderr (empty unless the engine itself failed and the spec reads
    /// its stderr).
    pub stderr: Vec<String>,
}

impl StartFailure {
    /// How the engine's process ended, when it did and that is why it failed.
    pub fn exit_status(&self) -> Option<ExitStatus> {
        match &self.error {
            StartError::Handshake(ClientError::Exited(status))
            | StartError::Ready(ClientError::Exited(status)) => *status,
            _ => None,
        }
    }
}

impl fmt::Display for StartFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for StartFailure {}

/// A started engine: the client, what `usi` told, and the option problems sent anyway.
#[derive(Debug)]
pub struct EngineSession {
    /// The USI connection.
    pub client: UsiClient,
    /// What `usi` told (empty until [`EngineSession::handshake`]).
    pub info: EngineInfo,
    /// Options sent although the engine does not take them ([`OptionRule::SendAnyway`]).
    pub findings: Vec<OptionProblem>,
}

impl EngineSession {
    /// The whole start-up under `policy`: [`spawn`](Self::spawn),
    /// [`handshake`](Self::handshake), [`configure`](Self::configure) with the spec's options,
    /// and, when `ready` is set, [`ready`](Self::ready); then a warning in the log for each
    /// option sent although the engine does not take it ([`warnings`](Self::warnings)). An
    /// engine that fails on the way is killed.
    pub fn start(
        spec: &EngineSpec,
        policy: &FaultPolicy,
        ready: bool,
    ) -> Result<EngineSession, StartError> {
        let s = Self::start_telling_stderr(spec, policy, ready).map_err(|f| f.error)?;
        for w in s.warnings(policy) {
            warn!("{w}");
        }
        Ok(s)
    }

    /// [`start`](Self::start) without the warnings (a tool that starts an engine many times
    /// gives them once, from [`warnings`](Self::warnings)), and when the engine itself failed
    /// (crashed or did not answer: [`StartError::is_engine_fault`]), the last lines of its
    /// stderr with the error (empty unless the spec reads its stderr), to say why.
    pub fn start_telling_stderr(
        spec: &EngineSpec,
        policy: &FaultPolicy,
        ready: bool,
    ) -> Result<EngineSession, StartFailure> {
        let mut s = EngineSession::spawn(spec).map_err(|error| StartFailure {
            error,
            stderr: Vec::new(),
        })?;
        if let Err(error) = s.start_up(&spec.options, policy, ready) {
            let stderr = if error.is_engine_fault() {
                s.client.stderr_tail()
            } else {
                Vec::new()
            };
            return Err(StartFailure { error, stderr });
        }
        Ok(s)
    }

    /// The warning for each option sent although the engine does not take it (its
    /// [`findings`](Self::findings)), as the log gives them.
    pub fn warnings(&self, policy: &FaultPolicy) -> Vec<String> {
        self.findings
            .iter()
            .map(|problem| format!("{}: sent anyway", self.describe(problem, policy)))
            .collect()
    }

    /// The start-up after [`spawn`](Self::spawn): [`handshake`](Self::handshake),
    /// [`configure`](Self::configure) with `options` and, when `ready` is set,
    /// [`ready`](Self::ready). The engine is kept when a step fails (its transcript shows
    /// why); the findings are not logged.
    pub fn start_up(
        &mut self,
        options: &[(String, String)],
        policy: &FaultPolicy,
        ready: bool,
    ) -> Result<(), StartError> {
        self.handshake(policy).map_err(StartError::Handshake)?;
        self.configure(options, policy)?;
        if ready {
            self.ready(policy).map_err(StartError::Ready)?;
        }
        Ok(())
    }

    /// Starts the process; nothing is sent yet.
    pub fn spawn(spec: &EngineSpec) -> Result<EngineSession, StartError> {
        let opts = SpawnOptions {
            label: spec.label.clone(),
            stderr: spec.stderr,
            transcript: spec.transcript,
        };
        let client = UsiClient::spawn(&spec.command, &opts).map_err(StartError::Spawn)?;
        Ok(EngineSession {
            client,
            info: EngineInfo::default(),
            findings: Vec::new(),
        })
    }

    /// `usi` … `usiok` within the policy's start-up time.
    pub fn handshake(&mut self, policy: &FaultPolicy) -> Result<(), ClientError> {
        self.info = self.client.handshake(policy.startup)?;
        Ok(())
    }

    /// Checks each option against the engine's declaration, then sends them all: a problem is
    /// an error or a finding (in [`EngineSession::findings`]) as the policy says. Nothing is
    /// sent when one is refused.
    pub fn configure(
        &mut self,
        options: &[(String, String)],
        policy: &FaultPolicy,
    ) -> Result<(), StartError> {
        for (name, value) in options {
            let Some(problem) = self.problem(name, value) else {
                continue;
            };
            let rule = match problem {
                OptionProblem::Undeclared { .. } => policy.undeclared_option,
                OptionProblem::BadValue {
                    error: OptionValueError::Fractional { .. },
                    ..
                } => OptionRule::SendAnyway,
                OptionProblem::BadValue { .. } => policy.bad_value,
            };
            match (rule, &problem, policy.bad_value_flag) {
                (OptionRule::Refuse, OptionProblem::BadValue { .. }, Some(flag)) => {
                    return Err(StartError::Option(format!(
                        "{} (add {flag} to send it to the engine as written)",
                        self.describe(&problem, policy)
                    )))
                }
                (OptionRule::Refuse, ..) => {
                    return Err(StartError::Option(self.describe(&problem, policy)))
                }
                (OptionRule::SendAnyway, ..) => self.findings.push(problem),
            }
        }
        for (name, value) in options {
            // A declared option is sent as the engine spelt it (`Skill Level` for `skill
            // level`); another as given.
            let name = self.info.option(name).map_or(name.as_str(), |o| &o.name);
            self.client
                .set_option(name, Some(value))
                .map_err(StartError::Ready)?;
        }
        Ok(())
    }

    /// `isready` … `readyok` within the policy's time: how long it took.
    pub fn ready(&mut self, policy: &FaultPolicy) -> Result<Duration, ClientError> {
        self.client.is_ready(policy.ready)
    }

    /// What is wrong with setting `name` to `value`, if anything.
    fn problem(&self, name: &str, value: &str) -> Option<OptionProblem> {
        match self.info.option(name) {
            Some(o) => o
                .check_value(Some(value))
                .err()
                .map(|error| OptionProblem::BadValue {
                    name: name.to_string(),
                    value: value.to_string(),
                    error,
                }),
            None if ALWAYS_SENT.iter().any(|a| a.eq_ignore_ascii_case(name)) => None,
            None => Some(OptionProblem::Undeclared {
                name: name.to_string(),
                declared: self.info.options.iter().map(|o| o.name.clone()).collect(),
            }),
        }
    }

    /// The message for `problem`, with the option written as the user of the tool writes it.
    pub fn describe(&self, problem: &OptionProblem, policy: &FaultPolicy) -> String {
        let label = self.client.label();
        match problem {
            OptionProblem::Undeclared { name, declared } => format!(
                "engine {label} has no option '{name}' (it declares: {})",
                if declared.is_empty() {
                    "none".to_string()
                } else {
                    declared.join(", ")
                }
            ),
            OptionProblem::BadValue { name, value, error } => format!(
                "engine {label}: {}{name}={value}: {error}",
                policy.option_syntax
            ),
        }
    }
}
