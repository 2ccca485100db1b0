//! An external USI engine as the CSA client's player (`--engine "CMD ARGS"`): handshake,
//! `setoption` pass-through, `isready`/`usinewgame` per game, `position … moves …`, `go` from the
//! CSA clock, `stop` at our deadline, `gameover`, `quit`.

use super::client::{GameContext, GameResult, Player, PlayerError};
use super::clock::Clock;
use crate::{Choice, Game, Move, STARTPOS_SFEN};
use log::{debug, info, warn};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long the engine may take to answer `usi` and `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long after `stop` we wait for `bestmove` before giving up (and resigning).
const STOP_GRACE: Duration = Duration::from_millis(500);
/// Tick period while waiting for the engine.
const TICK: Duration = Duration::from_millis(200);

/// Splits a command line into words: whitespace separates, single and double quotes group,
/// a backslash escapes the next character (outside single quotes).
pub fn split_command(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('\''), c) => cur.push(c),
            (_, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// A running USI engine.
#[derive(Debug)]
pub struct UsiEngine {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<String>,
    /// `id name` from the handshake.
    pub name: String,
}

fn err(msg: impl Into<String>) -> PlayerError {
    PlayerError(msg.into())
}

impl UsiEngine {
    /// Starts `command` (split by [`split_command`]), runs `usi` … `usiok` and sends each
    /// option as `setoption name N value V`.
    pub fn spawn(command: &str, options: &[(String, String)]) -> Result<UsiEngine, PlayerError> {
        let words = split_command(command);
        let (prog, args) = words
            .split_first()
            .ok_or_else(|| err("empty engine command"))?;
        let mut cmd = Command::new(prog);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        // Its own process group: Ctrl-C in the terminal stops us after the game, not the engine
        // in the middle of it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .spawn()
            .map_err(|e| err(format!("cannot start engine '{command}': {e}")))?;
        let stdin = child.stdin.take().ok_or_else(|| err("no engine stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| err("no engine stdout"))?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut e = UsiEngine {
            child,
            stdin,
            rx,
            name: String::new(),
        };
        e.send("usi")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let l = e
                .recv_until(deadline)?
                .ok_or_else(|| err("engine: no usiok"))?;
            if let Some(n) = l.strip_prefix("id name ") {
                e.name = n.to_string();
            }
            if l == "usiok" {
                break;
            }
        }
        info!("engine '{}' ready", e.name);
        for (name, value) in options {
            e.send(&format!("setoption name {name} value {value}"))?;
        }
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        debug!("engine> {line}");
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| err(format!("engine write failed: {e}")))
    }

    /// The next line, or `None` at `deadline`; an error if the engine has gone.
    fn recv_until(&mut self, deadline: Instant) -> Result<Option<String>, PlayerError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok(l) => {
                debug!("engine< {l}");
                Ok(Some(l))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(err("engine exited")),
        }
    }

    /// The USI `position` command for `game`.
    pub fn position_command(game: &Game) -> String {
        let sfen = game.start().to_sfen();
        let mut s = if sfen == STARTPOS_SFEN {
            "position startpos".to_string()
        } else {
            format!("position sfen {sfen}")
        };
        if !game.is_empty() {
            s.push_str(" moves");
            for m in game.moves() {
                s.push(' ');
                s.push_str(&m.to_string());
            }
        }
        s
    }

    /// Sends `quit` and waits briefly for the engine to exit, killing it otherwise.
    pub fn quit(&mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        warn!("engine did not quit: killing it");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for UsiEngine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.quit();
        }
    }
}

impl Player for UsiEngine {
    fn new_game(&mut self, _ctx: &GameContext, _game: &Game) -> Result<(), PlayerError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        while self
            .recv_until(deadline)?
            .ok_or_else(|| err("engine: no readyok"))?
            != "readyok"
        {}
        self.send("usinewgame")
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
        while let Ok(l) = self.rx.try_recv() {
            debug!("engine< {l} (stale)");
        }
        self.send(&UsiEngine::position_command(game))?;
        let untimed = clock.rules(ctx.us).is_untimed();
        let go = if untimed {
            "go infinite".to_string()
        } else {
            clock.go_command(ctx.us, ctx.margin)
        };
        self.send(&go)?;
        let mut stop_at = deadline;
        let mut give_up: Option<Instant> = None;
        loop {
            let now = Instant::now();
            if let Some(g) = give_up {
                if now >= g {
                    return Err(err("engine gave no bestmove after stop"));
                }
            } else if stop_at.is_some_and(|d| now >= d) {
                warn!("engine past our deadline: sending stop");
                self.send("stop")?;
                give_up = Some(now + STOP_GRACE);
                stop_at = None;
            }
            let Some(line) = self.recv_until(now + TICK)? else {
                tick();
                continue;
            };
            let Some(rest) = line.strip_prefix("bestmove ") else {
                continue;
            };
            let word = rest.split_whitespace().next().unwrap_or("");
            return match word {
                "resign" => Ok(Choice::Resign),
                "win" => Ok(Choice::DeclareWin),
                w => {
                    let mv = Move::from_usi(w).map_err(|e| err(format!("engine: {e}")))?;
                    game.position()
                        .is_legal(mv)
                        .map_err(|e| err(format!("engine played illegal {w}: {e}")))?;
                    Ok(Choice::Move(mv))
                }
            };
        }
    }

    fn game_over(&mut self, result: GameResult) {
        let word = match result {
            GameResult::Win => "win",
            GameResult::Lose => "lose",
            _ => "draw",
        };
        let _ = self.send(&format!("gameover {word}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn command_words() {
        assert_eq!(split_command("engine -x 1"), vec!["engine", "-x", "1"]);
        assert_eq!(
            split_command(r#"'/opt/my engine/run' --name "a b" c\ d"#),
            vec!["/opt/my engine/run", "--name", "a b", "c d"]
        );
        assert_eq!(split_command("  "), Vec::<String>::new());
        assert_eq!(split_command("x ''"), vec!["x", ""]);
    }

    #[test]
    fn position_commands() {
        let mut g = Game::new(Position::startpos());
        assert_eq!(UsiEngine::position_command(&g), "position startpos");
        g.play(Move::from_usi("7g7f").unwrap());
        assert_eq!(
            UsiEngine::position_command(&g),
            "position startpos moves 7g7f"
        );
        let g = Game::new(Position::from_sfen("8k/9/9/9/9/9/9/9/K8 w G 1").unwrap());
        assert_eq!(
            UsiEngine::position_command(&g),
            "position sfen 8k/9/9/9/9/9/9/9/K8 w G 1"
        );
    }
}
