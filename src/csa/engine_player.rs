//! An external USI engine as the CSA client's player (`--engine "CMD ARGS"`), driven through
//! the shared [`UsiClient`]: handshake, checked `setoption`s, `isready`/`usinewgame` per game,
//! the game's `position`, `go` from the CSA clock, `stop` at our deadline, `gameover`, `quit`.

use super::client::{GameContext, Player, PlayerError, ServerResult};
use super::clock::Clock;
use crate::usi::client::{PositionLine, SpawnOptions};
use crate::usi::{BestMove, EngineCommand, EngineInfo, Go, UsiClient};
use crate::{Choice, Game};
use log::{info, warn};
use std::time::{Duration, Instant};

/// How long the engine may take to answer `usi` and `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long after `stop` we wait for `bestmove` before giving up (and resigning).
const STOP_GRACE: Duration = Duration::from_millis(500);
/// Tick period while waiting for the engine.
const TICK: Duration = Duration::from_millis(200);
/// How long the engine has to exit after `quit`.
const QUIT_GRACE: Duration = Duration::from_secs(2);

fn err(e: impl std::fmt::Display) -> PlayerError {
    PlayerError(e.to_string())
}

/// A running USI engine playing our side.
#[derive(Debug)]
pub struct EnginePlayer {
    client: UsiClient,
    info: EngineInfo,
}

impl EnginePlayer {
    /// Starts `command` (split as a shell would split words), runs `usi` … `usiok` and sends
    /// each option as `setoption name N value V`. A value the engine's own declaration rules
    /// out is an error; an option it does not declare is sent anyway, with a warning (GUIs send
    /// `USI_Hash` and `USI_Ponder` to every engine).
    pub fn spawn(command: &str, options: &[(String, String)]) -> Result<EnginePlayer, PlayerError> {
        let cmd = EngineCommand::parse(command).ok_or_else(|| err("empty engine command"))?;
        let spawn = SpawnOptions {
            own_process_group: true,
            ..SpawnOptions::default()
        };
        let mut client = UsiClient::spawn(&cmd, &spawn).map_err(err)?;
        let info = client.handshake(HANDSHAKE_TIMEOUT).map_err(err)?;
        let name = info.name.clone().unwrap_or_default();
        client.set_label(&name);
        info!("engine '{name}' ready");
        for (name, value) in options {
            match info.option(name) {
                Some(o) => o
                    .check_value(Some(value))
                    .map_err(|e| err(format!("--option {name}={value}: {e}")))?,
                None => warn!("the engine declares no option '{name}': sending it anyway"),
            }
            client.set_option(name, Some(value)).map_err(err)?;
        }
        Ok(EnginePlayer { client, info })
    }

    /// The engine's `id name` (empty when it gave none).
    pub fn name(&self) -> &str {
        self.info.name.as_deref().unwrap_or("")
    }

    /// Sends `quit` and waits briefly for the engine to exit, killing it otherwise.
    pub fn quit(&mut self) {
        self.client.quit(QUIT_GRACE);
    }
}

impl Player for EnginePlayer {
    fn new_game(&mut self, _ctx: &GameContext, _game: &Game) -> Result<(), PlayerError> {
        self.client.is_ready(HANDSHAKE_TIMEOUT).map_err(err)?;
        self.client.send("usinewgame").map_err(err)
    }

    fn choose(
        &mut self,
        ctx: &GameContext,
        game: &mut Game,
        clock: &Clock,
        deadline: Option<Instant>,
        tick: &mut dyn FnMut(),
    ) -> Result<Choice, PlayerError> {
        // Drop anything stale (a late bestmove of an earlier search).
        self.client.drain().map_err(err)?;
        self.client
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
        self.client.go(&go).map_err(err)?;
        let mut stop_at = deadline;
        let mut give_up: Option<Instant> = None;
        let result = loop {
            let now = Instant::now();
            if let Some(g) = give_up {
                if now >= g {
                    return Err(err("engine gave no bestmove after stop"));
                }
            } else if stop_at.is_some_and(|d| now >= d) {
                warn!("engine past our deadline: sending stop");
                self.client.stop().map_err(err)?;
                give_up = Some(now + STOP_GRACE);
                stop_at = None;
            }
            match self.client.wait_bestmove(now + TICK).map_err(err)? {
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
        let _ = self.client.gameover(result.gameover());
    }
}
