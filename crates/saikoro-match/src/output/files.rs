//! The match's files, so that nothing is lost and nothing is mixed: whole records and whole
//! lines (a crash or a full disk never leaves half a record, or half a line after which more
//! lines follow), and outputs of another match refused before any engine starts, by the rule
//! of every output (`outfile`, docs/files.md): each output of a kind the match writes says
//! whose it is (the page and the results' lines name their match's id, as the state does)
//! and what it holds, and one that holds another match's games is replaced only with
//! `--overwrite`.

use crate::config::{MatchConfig, RecordFormat};
use crate::output::lines::GameNumber;
use crate::output::report::held_page;
use crate::output::state::{self, SavedMatch};
use crate::output::style::count;
use saikoro_outfile::{
    self as outfile, check_existing, check_held, write_atomically, Held, Named, Own, Replace,
};
use serde::Deserialize;
use std::collections::BTreeSet;
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

/// The match a results line names (`"match":"…"`).
#[derive(Deserialize)]
struct LineOwner {
    #[serde(rename = "match")]
    id: Option<String>,
}

/// The match's id that the games of a results file name: the first line's that names one.
pub fn results_owner<'a>(lines: impl IntoIterator<Item = &'a str>) -> Option<String> {
    lines
        .into_iter()
        .filter(|l| l.starts_with("{\"game\":"))
        .find_map(|l| serde_json::from_str::<LineOwner>(l).ok()?.id)
}

/// What the file at `path` holds when it is a results file (its lines start as a game's,
/// `{"game":`, a torn last line too): its games, and the match they name. `Ok(None)` for
/// any other file.
pub fn held_results(path: &Path) -> io::Result<Option<Held>> {
    let lines = results_lines(path)?;
    let mut written = lines.iter().filter(|l| !l.trim().is_empty());
    if !written.all(|l| l.starts_with("{\"game\":")) {
        return Ok(None);
    }
    let n = lines.iter().filter(|l| GameNumber::of(l).is_some()).count();
    Ok(Some(Held {
        owner: results_owner(lines.iter().map(String::as_str)),
        empty: n == 0,
        what: format!(
            "the results of {} of another match",
            count(n, "game", "games")
        ),
    }))
}

/// A results line's game, as far as telling its match goes.
#[derive(Deserialize)]
struct LineGame {
    game: u64,
    result: String,
    black: String,
    white: String,
}

/// Whether `saved` is the state of the match whose results file is `text`: by their ids when
/// both name one; else (files from before matches were named) when every game the state holds
/// is in the results with the same result and every engine of the results is one of the
/// state's. `Err` describes the results' match, for a message.
pub fn state_of_results(saved: &SavedMatch, text: &str) -> Result<(), String> {
    let games: Vec<LineGame> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let mut names: Vec<&str> = Vec::new();
    for g in &games {
        for n in [g.black.as_str(), g.white.as_str()] {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    let theirs = || {
        format!(
            "the games of {} ({})",
            names.join(" vs "),
            count(games.len(), "game", "games")
        )
    };
    let same = match (saved.id.as_deref(), results_owner(text.lines())) {
        (Some(a), Some(b)) => a == b,
        _ => {
            let state_names = saved.engine_names();
            let engines =
                state_names.is_empty() || names.iter().all(|n| state_names.iter().any(|s| s == n));
            engines
                && saved.games.iter().all(|s| {
                    games
                        .iter()
                        .any(|g| g.game == s.number && g.result == s.result.text())
                })
        }
    };
    if same {
        Ok(())
    } else {
        Err(theirs())
    }
}

/// What a PGN file holds: its games; no PGN file names its match.
fn held_pgn(path: &Path) -> io::Result<Option<Held>> {
    let n = games_in(path)?;
    Ok(Some(Held {
        owner: None,
        empty: n == 0,
        what: format!(
            "{} of another match (append=true adds to them)",
            count(n, "game", "games")
        ),
    }))
}

/// How a kind of output is read, for the rule of every output.
type Read = fn(&Path) -> io::Result<Option<Held>>;

/// Checks the output `path` names, if any, by the rule of every output.
fn check_file(
    flag: &str,
    path: Option<&Path>,
    replace: Replace<'_>,
) -> Result<(), outfile::OutputError> {
    match path {
        Some(path) => check_existing(Named::new(flag, path), replace),
        None => Ok(()),
    }
}

/// Refuses, before any engine starts, an output that holds another match's games (the rule of
/// every output, docs/files.md), unless `--overwrite` was given: for a new match (`owner`: its
/// new id), a state, results file, page, PGN file or records directory that holds any game;
/// for a resumed one (`owner`: the state's id, `None` for a state from before matches were
/// named), a page or results file of another match. The state is the resumed match's own, and
/// neither a PGN file nor a record names its match: a resumed match takes them as its own.
pub fn check_outputs(
    config: &MatchConfig,
    owner: Option<&str>,
    resumed: bool,
) -> Result<(), outfile::OutputError> {
    if resumed {
        let replace = |kind, read| Replace {
            flag: "",
            given: false,
            does: "",
            own: Some(Own { kind, read }),
            owner,
            go_on: Some(
                "it is not the resumed match's: move it away, and the match writes its own anew",
            ),
        };
        let results = replace("a results file", held_results as Read);
        check_file("--results", config.results.as_deref(), results)?;
        let page = replace("a report page", held_page as Read);
        return check_file("--report", config.report.as_deref(), page);
    }
    let replace = |kind, read, does| Replace {
        flag: "--overwrite",
        given: config.overwrite,
        does,
        own: Some(Own { kind, read }),
        owner,
        go_on: Some("to go on with that match use --resume"),
    };
    let state = replace(
        "a match state",
        state::held as Read,
        "to start anew (the saved match is replaced)",
    );
    check_file("--state", config.state.as_deref(), state)?;
    let results = replace(
        "a results file",
        held_results,
        "to start anew (the file is emptied)",
    );
    check_file("--results", config.results.as_deref(), results)?;
    if let Some(dir) = &config.records {
        let n = records_in(dir).len();
        let held = Held {
            owner: None,
            empty: n == 0,
            what: format!(
                "{} of another match",
                count(n, "game record", "game records")
            ),
        };
        let does = "to start anew (its game records are removed)";
        let replace = replace("a records directory", |_| Ok(None), does);
        check_held(Named::new("--records", dir), held, true, replace)?;
    }
    let page = replace(
        "a report page",
        held_page,
        "to start anew (the page is written anew)",
    );
    check_file("--report", config.report.as_deref(), page)?;
    let pgn = config.pgn.as_ref().filter(|p| !p.append);
    let does = "to start anew (the file is removed)";
    let pgn_replace = replace("a PGN file", held_pgn, does);
    check_file("--pgnout", pgn.map(|p| p.file.as_path()), pgn_replace)
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
        use crate::game::result::{Decision, Reason};
        use crate::output::state::SavedGame;
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
        std::fs::write(&path, line(1) + torn).unwrap();
        let held = held_results(&path).unwrap().unwrap();
        assert_eq!(held.what, "the results of 1 game of another match");
        assert_eq!((held.owner, held.empty), (None, false));
        let named = "{\"game\":1,\"round\":1,\"match\":\"00000000000000ab\"}\n";
        std::fs::write(&path, named.to_string() + &line(2)).unwrap();
        let held = held_results(&path).unwrap().unwrap();
        assert_eq!(held.owner.as_deref(), Some("00000000000000ab"));
        assert_eq!(held.what, "the results of 2 games of another match");
        std::fs::write(&path, "notes\n").unwrap();
        assert_eq!(held_results(&path).unwrap(), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
