//! An external USI engine as the CSA client's player (`--engine "CMD ARGS"`), started by the
//! shared [`EngineSession`] under [`FaultPolicy::CSA`]: handshake, checked `setoption`s,
//! `isready`/`usinewgame` per game, the game's `position`, `go` from the CSA clock, `stop` at
//! our deadline, `gameover`, `quit`.

use super::client::{GameContext, Player, PlayerError, ServerResult};
use super::clock::Clock;
use log::{info, warn};
use saikoro_core::{Choice, Game};
use saikoro_driver::{ClientError, EngineCommand, EngineSession, EngineSpec, FaultPolicy};
use saikoro_usi::{BestMove, Go, PositionLine};
use std::time::{Duration, Instant};

/// What this tool does when the engine fails.
const POLICY: FaultPolicy = FaultPolicy::CSA;
/// Tick period while waiting for the engine.
const TICK: Duration = Duration::from_millis(200);

fn err(e: impl std::fmt::Display) -> PlayerError {
    PlayerError(e.to_string())
}

/// A running USI engine playing our side.
#[derive(Debug)]
pub struct EnginePlayer {
    engine: EngineSession,
    /// [`FaultPolicy::CSA`], with the start-up time asked for.
    policy: FaultPolicy,
}

impl EnginePlayer {
    /// Starts `command` (split as a shell would split words), runs `usi` … `usiok` and sends
    /// each option as `setoption name N value V`. A value the engine's own declaration rules
    /// out is an error; an option it does not declare is sent anyway, with a warning (GUIs send
    /// `USI_Hash` and `USI_Ponder` to every engine).
    ///
    /// `startup` is the time the engine has to answer `usi` (`--startup-ms`; the policy's 60 s
    /// when `None`).
    pub fn spawn(
        command: &str,
        options: &[(String, String)],
        startup: Option<Duration>,
    ) -> Result<EnginePlayer, PlayerError> {
        let policy = FaultPolicy {
            startup: startup.unwrap_or(POLICY.startup),
            ..POLICY
        };
        let spec = EngineSpec {
            command: EngineCommand::parse(command).map_err(|e| err(e.to_string()))?,
            options: options.to_vec(),
            ..EngineSpec::default()
        };
        let mut engine = EngineSession::start(&spec, &policy, false).map_err(err)?;
        let name = engine.info.name.clone().unwrap_or_default();
        engine.client.set_label(&name);
        info!("engine '{name}' ready");
        Ok(EnginePlayer { engine, policy })
    }

    /// The engine's `id name` (empty when it gave none).
    pub fn name(&self) -> &str {
        self.engine.info.name.as_deref().unwrap_or("")
    }

    /// Sends `quit` and waits briefly for the engine to exit, killing it otherwise.
    pub fn quit(&mut self) {
        self.engine.client.quit(self.policy.quit_grace);
    }
}

impl Player for EnginePlayer {
    fn new_game(&mut self, _ctx: &GameContext, _game: &Game) -> Result<(), PlayerError> {
        self.engine
            .ready(&self.policy)
            .map_err(|e| err(format!("before the game (isready ... readyok): {e}")))?;
        self.engine.client.send("usinewgame").map_err(err)
    }

    fn choose(
        &mut self,
        ctx: &GameContext,
        game: &mut Game,
        clock: &Clock,
        deadline: Option<Instant>,
        tick: &mut dyn FnMut(),
    ) -> Result<Choice, PlayerError> {
        let client = &mut self.engine.client;
        // Drop anything stale (a late bestmove of an earlier search).
        client.drain().map_err(err)?;
        client
            .send(PositionLine::from_game(game).as_str())
            .map_err(err)?;
        let go = if clock.rules(ctx.us).is_untimed() {
            Go {
                infinite: true,
                ..Go::default()
            }
        } else {
            clock.go_command(ctx.us, ctx.margin)
        };
        client.go(&go).map_err(err)?;
        let result = loop {
            let now = Instant::now();
            if deadline.is_some_and(|d| now >= d) {
                warn!("engine past our deadline: sending stop");
                break client
                    .stop_and_wait(self.policy.stop_grace)
                    .map_err(|e| match e {
                        ClientError::Timeout { .. } => err("engine gave no bestmove after stop"),
                        other => err(other),
                    })?;
            }
            match client.wait_bestmove(now + TICK).map_err(err)? {
                Some(r) => break r,
                None => tick(),
            }
        };
        match result.best {
            BestMove::Resign => Ok(Choice::Resign),
            BestMove::Win => Ok(Choice::DeclareWin),
            BestMove::Move(mv) => {
                game.position()
                    .is_legal(mv)
                    .map_err(|e| err(format!("engine played illegal {mv}: {e}")))?;
                Ok(Choice::Move(mv))
            }
            BestMove::Unparsable(text) => Err(err(format!("engine: bad bestmove '{text}'"))),
        }
    }

    fn game_over(&mut self, result: ServerResult) {
        let _ = self.engine.client.gameover(result.gameover());
    }
}
