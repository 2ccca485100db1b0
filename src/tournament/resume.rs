//! The match state, saved after every game so that `--resume` continues a match that was
//! stopped or crashed: a JSON-lines file whose first line holds the match's arguments and the
//! seed of its opening order, and each further line one finished game's number, result and
//! reason. Lines are appended and flushed as games end, so a crash loses at most the games that
//! were running; a torn last line is ignored.
//!
//! Games are numbered by the schedule, not by when they end, so the games left are exactly the
//! numbers without a line; with engines that play the same game from the same seed, the resumed
//! match ends with the same results as one never stopped.

use super::output::{json_field, parse_result};
use super::result::{Decision, Reason};
use crate::json::{json_string, read_json_string};
use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The first line's marker and version.
const MAGIC: &str = "saikoro_match_state";

/// What a state file holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SavedMatch {
    /// The arguments the match was started with.
    pub args: Vec<String>,
    /// The seed of the opening order.
    pub seed: u64,
    /// Finished games by number.
    pub games: BTreeMap<u64, (Decision, Reason)>,
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
    let mut games = BTreeMap::new();
    for line in lines {
        if let Some((n, result, reason)) = parse_result(line) {
            if reason != Reason::Interrupted {
                games.insert(n, (result, reason));
            }
        }
    }
    Ok(SavedMatch { args, seed, games })
}

/// A state file being written.
#[derive(Debug)]
pub(crate) struct StateWriter {
    file: File,
    path: PathBuf,
}

impl StateWriter {
    /// Starts a state file for a new match (replacing any old one).
    pub fn create(path: &Path, args: &[String], seed: u64) -> Result<StateWriter, StateError> {
        let io = |source| StateError::Io {
            file: path.to_path_buf(),
            source,
        };
        let mut file = File::create(path).map_err(io)?;
        writeln!(file, "{}", header(args, seed)).map_err(io)?;
        file.flush().map_err(io)?;
        Ok(StateWriter {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Reopens a state file to add games to it.
    pub fn append(path: &Path) -> Result<StateWriter, StateError> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|source| StateError::Io {
                file: path.to_path_buf(),
                source,
            })?;
        let mut w = StateWriter {
            file,
            path: path.to_path_buf(),
        };
        // A crash may have torn the last line: start on a fresh one.
        w.file.write_all(b"\n").map_err(|source| StateError::Io {
            file: path.to_path_buf(),
            source,
        })?;
        Ok(w)
    }

    /// Saves a finished game.
    pub fn game(
        &mut self,
        number: u64,
        result: Decision,
        reason: Reason,
    ) -> Result<(), StateError> {
        writeln!(
            self.file,
            "{{\"game\":{number},\"result\":\"{}\",\"reason\":\"{reason}\"}}",
            result.text()
        )
        .and_then(|_| self.file.flush())
        .map_err(|source| StateError::Io {
            file: self.path.clone(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color;

    #[test]
    fn state_round_trip() {
        let dir = std::env::temp_dir().join(format!("saikoro-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state");
        let args: Vec<String> = ["--engine", "cmd=./a b", "name=\"q\"", "x\\y"]
            .map(String::from)
            .to_vec();
        let mut w = StateWriter::create(&path, &args, 42).unwrap();
        w.game(2, Decision::Draw, Reason::Repetition).unwrap();
        w.game(1, Decision::Win(Color::White), Reason::Time)
            .unwrap();
        drop(w);
        let mut w = StateWriter::append(&path).unwrap();
        w.game(3, Decision::None, Reason::Interrupted).unwrap();
        drop(w);
        // A torn line at the end.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        write!(f, "{{\"game\":4,\"res").unwrap();
        drop(f);
        let saved = load(&path).unwrap();
        assert_eq!(saved.args, args);
        assert_eq!(saved.seed, 42);
        assert_eq!(
            saved.games.into_iter().collect::<Vec<_>>(),
            vec![
                (1, (Decision::Win(Color::White), Reason::Time)),
                (2, (Decision::Draw, Reason::Repetition)),
            ]
        );
        std::fs::write(&path, "hello\n").unwrap();
        assert!(matches!(load(&path), Err(StateError::NotAState(_))));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
