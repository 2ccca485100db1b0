//! The match state, saved after every game so that `--resume` continues a match that was
//! stopped or crashed: a JSON-lines file whose first line holds the match's arguments and the
//! seed of its opening order, each further line one finished game's number, result, reason and
//! fingerprint, and a last line `{"finished":…}` once the match has ended. Lines are appended
//! whole and flushed as games end, so a crash loses at most the games that were running; a torn
//! last line is ignored.
//!
//! Games are numbered by the schedule, not by when they end, so the games left are exactly the
//! numbers without a line; with engines that play the same game from the same seed, the resumed
//! match ends with the same results as one never stopped.

mod config_json;

pub use config_json::{config_from_json, config_to_json};

use crate::json::{json_string, read_json_string};
use crate::tournament::game::result::{Decision, Reason};
use crate::tournament::output::files::{write_atomically, AppendFile};
use crate::tournament::output::lines::{json_field, parse_result};
use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The first line's marker and version.
const MAGIC: &str = "saikoro_match_state";

/// One finished game as the state holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SavedGame {
    /// Its number in the schedule.
    pub number: u64,
    /// Its result.
    pub result: Decision,
    /// Why it ended.
    pub reason: Reason,
    /// Its fingerprint (start, engines, moves and end), to tell repeated games; `None` in
    /// states written before fingerprints were kept.
    pub fingerprint: Option<u128>,
}

/// What a state file holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SavedMatch {
    /// The arguments the match was started with.
    pub args: Vec<String>,
    /// The seed of the opening order.
    pub seed: u64,
    /// The finished games, in the order they finished (each number once).
    pub games: Vec<SavedGame>,
    /// How the match ended, when it did (`completed`, `sprt`); `None` for a match that was
    /// interrupted, stopped by a failing engine, or is still running.
    pub finished: Option<String>,
}

/// Why a state file cannot be used.
#[derive(Debug)]
#[non_exhaustive]
pub enum StateError {
    /// It cannot be read or written.
    Io {
        /// The file.
        file: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// It is not a match state.
    NotAState(PathBuf),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Io { file, source } => {
                write!(f, "match state {}: {source}", file.display())
            }
            StateError::NotAState(file) => {
                write!(f, "{} is not a saikoro match state", file.display())
            }
        }
    }
}

impl std::error::Error for StateError {}

fn header(args: &[String], seed: u64) -> String {
    let mut s = format!("{{\"{MAGIC}\":1,\"seed\":{seed},\"args\":[");
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        json_string(&mut s, a);
    }
    s.push_str("]}");
    s
}

/// A game's line (without the newline).
fn game_line(g: &SavedGame) -> String {
    let mut s = format!(
        "{{\"game\":{},\"result\":\"{}\",\"reason\":\"{}\"",
        g.number,
        g.result.text(),
        g.reason
    );
    if let Some(fp) = g.fingerprint {
        s.push_str(&format!(",\"fingerprint\":\"{fp:032x}\""));
    }
    s.push('}');
    s
}

/// Reads the strings of the header's `args` array.
fn parse_args(line: &str) -> Option<Vec<String>> {
    let at = line.find("\"args\":[")? + "\"args\":[".len();
    let mut rest = &line[at..];
    let mut out = Vec::new();
    loop {
        rest = rest.trim_start_matches([',', ' ']);
        if rest.starts_with(']') {
            return Some(out);
        }
        let (value, after) = read_json_string(rest)?;
        out.push(value);
        rest = after;
    }
}

/// Reads a state file.
pub fn load(path: &Path) -> Result<SavedMatch, StateError> {
    let text = std::fs::read_to_string(path).map_err(|source| StateError::Io {
        file: path.to_path_buf(),
        source,
    })?;
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    if !first.starts_with(&format!("{{\"{MAGIC}\":")) {
        return Err(StateError::NotAState(path.to_path_buf()));
    }
    let seed = json_field(first, "seed")
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| StateError::NotAState(path.to_path_buf()))?;
    let args = parse_args(first).ok_or_else(|| StateError::NotAState(path.to_path_buf()))?;
    let mut games: Vec<SavedGame> = Vec::new();
    let mut seen = BTreeMap::new();
    let mut finished = None;
    for line in lines {
        if let Some(how) = json_field(line, "finished") {
            finished = Some(how);
            continue;
        }
        // A game line, or a torn one (ignored).
        let Some((number, result, reason)) = parse_result(line) else {
            continue;
        };
        if reason == Reason::Interrupted || seen.insert(number, games.len()).is_some() {
            continue;
        }
        let fingerprint =
            json_field(line, "fingerprint").and_then(|h| u128::from_str_radix(&h, 16).ok());
        games.push(SavedGame {
            number,
            result,
            reason,
            fingerprint,
        });
        // A game after the end marker: the match went on (it was extended).
        finished = None;
    }
    Ok(SavedMatch {
        args,
        seed,
        games,
        finished,
    })
}

/// A state file being written: one whole line per write, so that a crash leaves at most a
/// torn last line (which [`load`] skips), and a failed write is cut off again.
#[derive(Debug)]
pub(crate) struct StateWriter {
    file: AppendFile,
}

impl StateWriter {
    /// Starts a state file for a new match (replacing any old one): written aside and renamed
    /// into place.
    pub fn create(path: &Path, args: &[String], seed: u64) -> Result<StateWriter, StateError> {
        Self::rewrite(path, args, seed, &[])
    }

    /// Writes the state anew for a resumed match, with its (perhaps extended) arguments and
    /// the games saved so far, without torn lines or an end marker; then appends to it.
    pub fn resume(
        path: &Path,
        args: &[String],
        saved: &SavedMatch,
    ) -> Result<StateWriter, StateError> {
        Self::rewrite(path, args, saved.seed, &saved.games)
    }

    fn rewrite(
        path: &Path,
        args: &[String],
        seed: u64,
        games: &[SavedGame],
    ) -> Result<StateWriter, StateError> {
        let io = |source| StateError::Io {
            file: path.to_path_buf(),
            source,
        };
        let mut text = header(args, seed);
        text.push('\n');
        for g in games {
            text.push_str(&game_line(g));
            text.push('\n');
        }
        write_atomically(path, text.as_bytes()).map_err(io)?;
        Ok(StateWriter {
            file: AppendFile::open(path).map_err(io)?,
        })
    }

    /// Saves a finished game.
    pub fn game(&mut self, game: &SavedGame) -> Result<(), StateError> {
        self.line(&game_line(game))
    }

    /// Marks the match as ended (`how`: `completed`, `sprt`): a new match may then replace
    /// the state without being refused.
    pub fn finished(&mut self, how: &str) -> Result<(), StateError> {
        let mut s = String::from("{\"finished\":");
        json_string(&mut s, how);
        s.push('}');
        self.line(&s)
    }

    fn line(&mut self, line: &str) -> Result<(), StateError> {
        self.file.line(line).map_err(|source| StateError::Io {
            file: self.file.path().to_path_buf(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color;
    use std::fs::OpenOptions;
    use std::io::Write;

    fn game(number: u64, result: Decision, reason: Reason, fp: Option<u128>) -> SavedGame {
        SavedGame {
            number,
            result,
            reason,
            fingerprint: fp,
        }
    }

    #[test]
    fn state_round_trip() {
        let dir = std::env::temp_dir().join(format!("saikoro-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state");
        let args: Vec<String> = ["--engine", "cmd=./a b", "name=\"q\"", "x\\y"]
            .map(String::from)
            .to_vec();
        let two = game(2, Decision::Draw, Reason::Repetition, Some(0xabc));
        let one = game(1, Decision::Win(Color::White), Reason::Time, None);
        let mut w = StateWriter::create(&path, &args, 42).unwrap();
        w.game(&two).unwrap();
        w.game(&one).unwrap();
        w.game(&game(3, Decision::None, Reason::Interrupted, None))
            .unwrap();
        drop(w);
        // A torn line at the end.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        write!(f, "{{\"game\":4,\"res").unwrap();
        drop(f);
        let saved = load(&path).unwrap();
        assert_eq!(saved.args, args);
        assert_eq!(saved.seed, 42);
        // In the order they finished; the interrupted game and the torn line left out.
        assert_eq!(saved.games, vec![two, one]);
        assert_eq!(saved.finished, None);
        // Resumed with other arguments: rewritten whole (no torn line), then appended to, and
        // marked finished.
        let more = vec!["--rounds".to_string(), "9".to_string()];
        let mut w = StateWriter::resume(&path, &more, &saved).unwrap();
        let five = game(5, Decision::Draw, Reason::MaxPlies, Some(1));
        w.game(&five).unwrap();
        w.finished("completed").unwrap();
        drop(w);
        let again = load(&path).unwrap();
        assert_eq!(again.args, more);
        assert_eq!(
            (again.seed, again.finished.as_deref()),
            (42, Some("completed"))
        );
        assert_eq!(again.games, vec![two, one, five]);
        assert!(!std::fs::read_to_string(&path).unwrap().contains("\"res\n"));
        std::fs::write(&path, "hello\n").unwrap();
        assert!(matches!(load(&path), Err(StateError::NotAState(_))));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
