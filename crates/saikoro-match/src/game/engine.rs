//! An engine process as the match keeps it: started by the shared [`EngineSession`] under the
//! match's [`FaultPolicy`] (options checked against what it declares, refused when wrong, or
//! sent with a warning that [`probe`] gives once per engine), kept across games (`isready` and
//! `usinewgame` before each), quit at the end.

use crate::config::EngineConfig;
use log::{debug, warn};
use saikoro_driver::client::Stderr;
use saikoro_driver::{
    ClientError, EngineInfo, EngineSession, EngineSpec, FaultPolicy, OptionRule, StartError,
    StartFailure, UsiClient,
};
use std::fmt;
use std::time::Duration;

/// The match's fault policy with its start-up and ready times; an option the engine does not
/// declare is sent with a warning when `send_undeclared` says so, a value its declaration
/// rules out when `send_bad_values` does (each refused otherwise).
pub fn policy(
    startup: Duration,
    ready: Duration,
    send_undeclared: bool,
    send_bad_values: bool,
) -> FaultPolicy {
    let rule = |send: bool| {
        if send {
            OptionRule::SendAnyway
        } else {
            OptionRule::Refuse
        }
    };
    FaultPolicy {
        startup,
        ready,
        undeclared_option: rule(send_undeclared),
        bad_value: rule(send_bad_values),
        ..FaultPolicy::MATCH
    }
}

/// An engine the match cannot play with — its program cannot be run, or it refuses its
/// options — which ends the match: which engine, and its failure (the stage, the error with
/// the exit status, the stderr tail).
#[derive(Debug)]
pub struct EngineError {
    /// The engine's name in the match.
    pub engine: String,
    /// How it failed.
    pub failure: StartFailure,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.failure.error {
            // The client's message names the command, not the engine.
            StartError::Spawn(e) => write!(f, "engine {}: {e}", self.engine),
            // The option's message names the engine and the option already.
            StartError::Option(m) => f.write_str(m),
            // The stage, the error and what the engine said on its way out.
            e => write!(
                f,
                "engine {} failed its start-up {e}{}",
                self.engine,
                stderr_said(&self.failure.stderr)
            ),
        }
    }
}

impl std::error::Error for EngineError {}

/// A running engine of the match.
#[derive(Debug)]
pub struct MatchEngine {
    /// The USI connection.
    pub client: UsiClient,
    /// What `usi` told.
    pub info: EngineInfo,
    /// Whether it thinks on the opponent's time (asked for, and `USI_Ponder` declared).
    pub ponder: bool,
    /// The warnings about its options, sent although it does not take them
    /// ([`EngineSession::warnings`]): [`probe`] logs them, so that each engine's are given
    /// once, not again at each start of its process.
    pub warnings: Vec<String>,
}

impl MatchEngine {
    /// Starts the engine: `usi` … `usiok`, then a `setoption` for each `option.NAME=VALUE`
    /// (refused unless the engine declares it and takes the value, or the policy sends it
    /// anyway: then kept in [`MatchEngine::warnings`], not logged) and for `USI_Ponder` when
    /// the engine declares it.
    pub fn start(
        config: &EngineConfig,
        name: &str,
        policy: &FaultPolicy,
    ) -> Result<MatchEngine, StartFailure> {
        let spec = EngineSpec {
            command: config.command.clone(),
            label: name.to_string(),
            options: config.options.clone(),
            stderr: Stderr::Log,
            transcript: false,
        };
        let session = EngineSession::start_telling_stderr(&spec, policy, false)?;
        let warnings = session.warnings(policy);
        let EngineSession {
            mut client, info, ..
        } = session;
        let has_ponder = info.option("USI_Ponder").is_some();
        if config.ponder && !has_ponder {
            warn!("engine {name}: asked to ponder, but it has no USI_Ponder option: not pondering");
        }
        let ponder = config.ponder && has_ponder;
        let set_by_user = config
            .options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("USI_Ponder"));
        if has_ponder && !set_by_user {
            client
                .set_option("USI_Ponder", Some(if ponder { "true" } else { "false" }))
                .map_err(|e| StartFailure {
                    error: StartError::Ready(e),
                    stderr: client.stderr_tail(),
                })?;
        }
        debug!("engine {name} started (pid {})", client.pid());
        Ok(MatchEngine {
            client,
            info,
            ponder,
            warnings,
        })
    }

    /// `isready` … `readyok` within `ready`, then `usinewgame`.
    pub fn new_game(&mut self, ready: Duration) -> Result<(), ClientError> {
        self.client.drain()?;
        self.client.is_ready(ready)?;
        self.client.send("usinewgame")
    }

    /// `quit`, then a kill if it does not exit in time.
    pub fn quit(mut self) {
        self.client.quit(FaultPolicy::MATCH.quit_grace);
    }
}

/// Starts the engine once to learn its name and check its options, then quits it; the
/// warnings about its options are logged here, once for the match. A name from `name=` wins
/// over the `id name`. Any failure is an error that stops the match before its
/// first game: a program that cannot run, wrong options, and an engine that crashes or does
/// not answer its handshake (fastchess stops at an engine's start-up failure too, `-recover`
/// or not: forfeiting every game of an engine that never started measures nothing).
pub fn probe(config: &EngineConfig, policy: &FaultPolicy) -> Result<String, EngineError> {
    let label = config
        .name
        .clone()
        .unwrap_or_else(|| config.fallback_name());
    match MatchEngine::start(config, &label, policy) {
        Ok(e) => {
            for w in &e.warnings {
                warn!("{w}");
            }
            let name = config
                .name
                .clone()
                .or_else(|| e.info.name.clone().filter(|n| !n.trim().is_empty()))
                .unwrap_or(label);
            e.quit();
            Ok(name)
        }
        Err(failure) => Err(EngineError {
            engine: label,
            failure,
        }),
    }
}

/// What a failed engine last wrote to its stderr, to end a warning with: `; the last lines of
/// its stderr:` and the lines, or nothing when it wrote none.
pub(crate) fn stderr_said(stderr: &[String]) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!("; the last lines of its stderr:\n  {}", stderr.join("\n  "))
    }
}
