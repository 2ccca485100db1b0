//! The match's files, so that nothing is lost and nothing is mixed: whole records and whole
//! lines (a crash or a full disk never leaves half a record, or half a line after which more
//! lines follow), and outputs of another match refused before any engine starts.

use crate::outfile::{self, write_atomically, Named, Own, Replace};
use crate::tournament::config::{MatchConfig, RecordFormat};
use crate::tournament::output::lines::GameNumber;
use crate::tournament::output::report::is_report_page;
use crate::tournament::output::state::{self, SavedMatch};
use std::collections::BTreeSet;
use std::fmt;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// The games a PGN file holds (its `[Event` lines); none when it does not exist.
pub fn games_in(path: &std::path::Path) -> io::Result<usize> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(String::from_utf8_lossy(&bytes)
            .lines()
            .filter(|l| l.starts_with("[Event "))
            .count()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(0),
        Err(e) => Err(e),
    }
}

/// An output that holds another match's games.
#[derive(Debug)]
pub struct UsedOutput {
    /// The flag that names it.
    pub flag: &'static str,
    /// The file or directory.
    pub path: PathBuf,
    /// What it holds, e.g. "the results of 12 games".
    pub holds: String,
}

impl fmt::Display for UsedOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} already holds {}; to go on with that match use --resume, \
             to keep it give another {}, or --overwrite to start anew (",
            self.flag,
            self.path.display(),
            self.holds,
            if self.flag == "--records" {
                "directory"
            } else {
                "file"
            },
        )?;
        f.write_str(match self.flag {
            "--records" => "its game records are removed)",
            "--results" => "the file is emptied)",
            "--pgnout" => "the file is removed)",
            "--report" => "the page is written anew)",
            _ => "the saved match is replaced)",
        })
    }
}

impl std::error::Error for UsedOutput {}

/// The record files of a records directory (`game-NNNNN.csa` or `.kifu`).
fn records_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            name.is_some_and(|n| {
                n.starts_with("game-")
                    && RecordFormat::ALL
                        .iter()
                        .any(|(_, f)| n.ends_with(f.extension()))
            })
        })
        .collect();
    out.sort();
    out
}

/// The lines of a results file; none when it does not exist.
fn results_lines(path: &Path) -> io::Result<Vec<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text.lines().map(String::from).collect()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

/// What a new match (not `--resume`d) would write over: a state of an unfinished match, a
/// results file with games, a records directory with records. `Ok(None)` when nothing.
pub fn used_output(config: &MatchConfig) -> io::Result<Option<UsedOutput>> {
    if let Some(path) = &config.state {
        if path.exists() {
            if let Ok(saved) = state::load(path) {
                if saved.finished.is_none() && !saved.games.is_empty() {
                    return Ok(Some(UsedOutput {
                        flag: "--state",
                        path: path.clone(),
                        holds: match saved.games.len() {
                            1 => "an unfinished match (1 game played)".to_string(),
                            n => format!("an unfinished match ({n} games played)"),
                        },
                    }));
                }
            }
        }
    }
    if let Some(path) = &config.results {
        let n = results_lines(path)?
            .iter()
            .filter(|l| GameNumber::of(l).is_some())
            .count();
        if n > 0 {
            return Ok(Some(UsedOutput {
                flag: "--results",
                path: path.clone(),
                holds: format!("the results of {n} games of another match"),
            }));
        }
    }
    if let Some(dir) = &config.records {
        let n = records_in(dir).len();
        if n > 0 {
            return Ok(Some(UsedOutput {
                flag: "--records",
                path: dir.clone(),
                holds: format!("{n} game records of another match"),
            }));
        }
    }
    if let Some(path) = &config.report {
        // A page Saikoro wrote can be made again from its results file (`saikoro report`),
        // so it is written over, as `saikoro report` writes over one; any other file is
        // refused as --results is (docs/files.md).
        let replace = Replace {
            flag: "--overwrite",
            given: false,
            own: Some(Own {
                kind: "a report page",
                is: is_report_page,
            }),
        };
        let empty = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0);
        if !empty && outfile::check_existing(Named::new("--report", path), replace).is_err() {
            return Ok(Some(UsedOutput {
                flag: "--report",
                path: path.clone(),
                holds: "something that is not a report page".to_string(),
            }));
        }
    }
    if let Some(pgn) = config.pgn.as_ref().filter(|p| !p.append) {
        let n = games_in(&pgn.file)?;
        if n > 0 {
            return Ok(Some(UsedOutput {
                flag: "--pgnout",
                path: pgn.file.clone(),
                holds: format!("{n} games of another match (append=true adds to them)"),
            }));
        }
    }
    Ok(None)
}

/// Clears the outputs of an earlier match for `--overwrite`: the results file emptied, the
/// records and the PGN file removed (the state is replaced when the match starts).
pub fn clear_outputs(config: &MatchConfig) -> io::Result<()> {
    if let Some(path) = &config.results {
        if path.exists() {
            File::create(path)?;
        }
    }
    if let Some(dir) = &config.records {
        for p in records_in(dir) {
            std::fs::remove_file(p)?;
        }
    }
    if let Some(pgn) = &config.pgn {
        if pgn.file.exists() {
            std::fs::remove_file(&pgn.file)?;
        }
    }
    Ok(())
}

/// Of `chunks` (each one game's text, in file order), the first copy of each game that `saved`
/// holds (`number` reads a chunk's game number); `None` when that is every chunk, so that
/// there is nothing to rewrite.
fn first_saved_copies<'a>(
    chunks: &[&'a str],
    number: impl Fn(&str) -> Option<u64>,
    saved: &SavedMatch,
) -> Option<Vec<&'a str>> {
    let keep: BTreeSet<u64> = saved.games.iter().map(|g| g.number).collect();
    let mut seen = BTreeSet::new();
    let kept: Vec<&str> = chunks
        .iter()
        .copied()
        .filter(|c| number(c).is_some_and(|n| keep.contains(&n) && seen.insert(n)))
        .collect();
    (kept.len() < chunks.len()).then_some(kept)
}

/// For a resumed match: keeps in the results file only the first line of each game the state
/// holds, so that a game written there but not saved in the state (the runner stopped between
/// the two) is not there twice once it is played again. A line that is no game (a torn one,
/// which a crash can leave without its newline) goes too, so that no line is appended to it.
pub fn trim_results(path: &Path, saved: &SavedMatch) -> io::Result<()> {
    let lines = results_lines(path)?;
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let Some(kept) = first_saved_copies(&lines, GameNumber::of, saved) else {
        return Ok(());
    };
    let mut text = String::new();
    for l in kept {
        text.push_str(l);
        text.push('\n');
    }
    write_atomically(path, text.as_bytes())
}

/// The game number of a PGN game's `[Round "…"]` header: `R.N` (fastchess's layout) or `N`
/// (shogitest's).
fn pgn_game_number(game: &str) -> Option<u64> {
    let line = game.lines().find(|l| l.starts_with("[Round \""))?;
    let value = line.strip_prefix("[Round \"")?.strip_suffix("\"]")?;
    value.rsplit('.').next()?.parse().ok()
}

/// For a resumed match: keeps in the PGN file (`--pgnout`) only the first copy of each game the
/// state holds, as [`trim_results`] does for the results file.
pub fn trim_pgn(path: &Path, saved: &SavedMatch) -> io::Result<()> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    // Each game starts at its `[Event` line.
    let mut starts: Vec<usize> = text
        .match_indices("[Event ")
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n')
        .collect();
    starts.push(text.len());
    let games: Vec<&str> = starts.windows(2).map(|w| &text[w[0]..w[1]]).collect();
    let Some(kept) = first_saved_copies(&games, pgn_game_number, saved) else {
        return Ok(());
    };
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..starts[0]]);
    out.extend(kept);
    write_atomically(path, out.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("saikoro-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The state of a match that saved its games 1 and 2 (draws at the ply limit).
    fn saved_games_1_and_2() -> SavedMatch {
        use crate::tournament::game::result::{Decision, Reason};
        use crate::tournament::output::state::SavedGame;
        SavedMatch {
            games: [1, 2]
                .map(|number| SavedGame {
                    number,
                    result: Decision::Draw,
                    reason: Reason::MaxPlies,
                    fingerprint: None,
                })
                .to_vec(),
            ..SavedMatch::default()
        }
    }

    #[test]
    fn a_resumed_pgn_file_keeps_the_saved_games_once() {
        let dir = scratch("pgn");
        let path = dir.join("games.pgn");
        let game =
            |round: &str| format!("[Event \"?\"]\n[Round \"{round}\"]\n\n1. 7g7f 3c3d *\n\n");
        // Games 1 and 2 saved; game 3 written but not saved; game 2 twice.
        let text = [game("1.1"), game("1.2"), game("2.3"), game("1.2")].concat();
        std::fs::write(&path, &text).unwrap();
        let saved = saved_games_1_and_2();
        trim_pgn(&path, &saved).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            [game("1.1"), game("1.2")].concat()
        );
        // shogitest's `[Round "N"]`.
        std::fs::write(&path, [game("2"), game("3")].concat()).unwrap();
        trim_pgn(&path, &saved).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), game("2"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A resumed match keeps the first line of each saved game, and drops a game it did not
    /// save and a torn last line (left without its newline, which the next line would join).
    #[test]
    fn a_resumed_results_file_keeps_the_saved_games_once_and_no_torn_line() {
        let dir = scratch("results");
        let path = dir.join("r.jsonl");
        let line = |n: u64| format!("{{\"game\":{n},\"round\":1}}\n");
        let saved = saved_games_1_and_2();
        std::fs::write(&path, [line(1), line(2)].concat()).unwrap();
        trim_results(&path, &saved).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            [line(1), line(2)].concat()
        );
        let torn = "{\"game\":2,\"round";
        std::fs::write(&path, [line(1), line(3), line(2), line(1)].concat() + torn).unwrap();
        trim_results(&path, &saved).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            [line(1), line(2)].concat()
        );
        // Counted as games: the lines with a game number, not the torn one.
        let config = MatchConfig {
            results: Some(path.clone()),
            ..MatchConfig::default()
        };
        std::fs::write(&path, line(1) + torn).unwrap();
        let used = used_output(&config).unwrap().unwrap();
        assert_eq!(used.holds, "the results of 1 games of another match");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
