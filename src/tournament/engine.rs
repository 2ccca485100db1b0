//! An engine process as the match keeps it: started through the shared [`UsiClient`], its
//! options checked against what it declares, kept across games (`isready` and `usinewgame`
//! before each), quit at the end.

use super::config::EngineConfig;
use crate::usi::client::{SpawnOptions, Stderr};
use crate::usi::{ClientError, EngineInfo, UsiClient};
use log::{debug, warn};
use std::fmt;
use std::time::Duration;

/// How long an engine has to exit after `quit` before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_secs(2);

/// Options GUIs send whether or not the engine declares them (ShogiHome, Shogidokoro).
const ALWAYS_SENT: [&str; 2] = ["USI_Hash", "USI_Ponder"];

/// Why an engine could not be started.
#[derive(Debug)]
pub enum StartError {
    /// The program cannot be run at all, or its options are wrong: the match cannot go on.
    Fatal(String),
    /// It ran but failed the handshake (crashed, or no `usiok` in time): it loses the game.
    Failed(ClientError),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Fatal(m) => f.write_str(m),
            StartError::Failed(e) => e.fmt(f),
        }
    }
}

/// A running engine of the match.
#[derive(Debug)]
pub struct MatchEngine {
    /// The USI connection.
    pub client: UsiClient,
    /// What `usi` told.
    pub info: EngineInfo,
    /// Whether it thinks on the opponent's time (asked for, and `USI_Ponder` declared).
    pub ponder: bool,
}

/// Checks the `option.NAME=VALUE`s of `config` against what the engine declared.
pub fn check_options(name: &str, config: &EngineConfig, info: &EngineInfo) -> Result<(), String> {
    for (opt, value) in &config.options {
        match info.option(opt) {
            Some(o) => o
                .check_value(Some(value))
                .map_err(|e| format!("engine {name}: option.{opt}={value}: {e}"))?,
            None if ALWAYS_SENT.iter().any(|a| a.eq_ignore_ascii_case(opt)) => {}
            None => {
                let declared: Vec<&str> = info.options.iter().map(|o| o.name.as_str()).collect();
                return Err(format!(
                    "engine {name} has no option '{opt}' (it declares: {})",
                    if declared.is_empty() {
                        "none".to_string()
                    } else {
                        declared.join(", ")
                    }
                ));
            }
        }
    }
    Ok(())
}

impl MatchEngine {
    /// Starts the engine: `usi` … `usiok` within `startup`, then a `setoption` for each
    /// `option.NAME=VALUE` and for `USI_Ponder` when the engine declares it.
    pub fn start(
        config: &EngineConfig,
        name: &str,
        startup: Duration,
    ) -> Result<MatchEngine, StartError> {
        let spawn = SpawnOptions {
            label: name.to_string(),
            stderr: Stderr::Log,
            transcript: false,
            own_process_group: true,
            direct_read: true,
        };
        let mut client = UsiClient::spawn(&config.command, &spawn)
            .map_err(|e| StartError::Fatal(format!("engine {name}: {e}")))?;
        let info = match client.handshake(startup) {
            Ok(info) => info,
            Err(e) => {
                client.kill();
                return Err(StartError::Failed(e));
            }
        };
        if let Err(m) = check_options(name, config, &info) {
            client.kill();
            return Err(StartError::Fatal(m));
        }
        for (opt, value) in &config.options {
            client
                .set_option(opt, Some(value))
                .map_err(StartError::Failed)?;
        }
        let has_ponder = info.option("USI_Ponder").is_some();
        if config.ponder && !has_ponder {
            warn!("engine {name}: asked to ponder, but it has no USI_Ponder option: not pondering");
        }
        let ponder = config.ponder && has_ponder;
        if has_ponder
            && !config
                .options
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("USI_Ponder"))
        {
            client
                .set_option("USI_Ponder", Some(if ponder { "true" } else { "false" }))
                .map_err(StartError::Failed)?;
        }
        debug!("engine {name} started (pid {})", client.pid());
        Ok(MatchEngine {
            client,
            info,
            ponder,
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
        self.client.quit(QUIT_GRACE);
    }
}

/// Starts the engine once to learn its name and check its options, then quits it. A name from
/// `name=` wins over the `id name`; an engine that fails the handshake keeps its fallback name
/// (its games will show why). Only a program that cannot run, or wrong options, are errors.
pub fn probe(config: &EngineConfig, startup: Duration) -> Result<String, String> {
    let label = config
        .name
        .clone()
        .unwrap_or_else(|| config.fallback_name());
    match MatchEngine::start(config, &label, startup) {
        Ok(e) => {
            let name = config
                .name
                .clone()
                .or_else(|| e.info.name.clone().filter(|n| !n.trim().is_empty()))
                .unwrap_or(label);
            e.quit();
            Ok(name)
        }
        Err(StartError::Fatal(m)) => Err(m),
        Err(StartError::Failed(e)) => {
            warn!("engine {label} failed its handshake ({e}); its games will show it");
            Ok(label)
        }
    }
}
