//! The match state, saved after every game so that `--resume` continues a match that was
//! stopped or crashed: a JSON-lines file whose first line holds the match's configuration
//! (`{"saikoro_match_state":2,"seed":…,"id":"…","match":{…}}`, `Header`; version 1 held the
//! command line instead, `"args":[…]`), the seed of its opening order and the match's id (which
//! its results' lines and its page name too, so that it knows its own files), each further line one
//! finished game's number, result, reason and fingerprint ([`SavedGame`]), and a last line
//! `{"finished":…}` once the match has ended. Every line is written and read through serde,
//! each by its one type. Lines are appended whole and flushed as games end, so a crash loses
//! at most the games that were running; a torn last line is ignored.
//!
//! Games are numbered by the schedule, not by when they end, so the games left are exactly the
//! numbers without a line; with engines that play the same game from the same seed, the resumed
//! match ends with the same results as one never stopped.

mod config_json;

pub use config_json::{config_from_json, config_to_json, StatePath};

use crate::config::MatchConfig;
use crate::game::result::{Decision, Reason};
use crate::output::lines::json_text;
use config_json::{read_json, ConfigJson};
use saikoro_outfile::{write_atomically, AppendFile, Held};
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The version written: 2 keeps the configuration, 1 kept the command line.
const VERSION: u32 = 2;

/// One finished game as the state holds it, and its line:
/// `{"game":2,"result":"1/2-1/2","reason":"repetition","fingerprint":"…"}` (the fingerprint in
/// 32 hexadecimal digits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Its number in the schedule.
    #[serde(rename = "game")]
    pub number: u64,
    /// Its result.
    pub result: Decision,
    /// Why it ended.
    pub reason: Reason,
    /// Its fingerprint (start, engines, moves and end), to tell repeated games; `None` in
    /// states written before fingerprints were kept.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "hex128")]
    pub fingerprint: Option<u128>,
}

/// A fingerprint as 32 hexadecimal digits.
mod hex128 {
    use super::*;

    pub fn serialize<S: Serializer>(fp: &Option<u128>, s: S) -> Result<S::Ok, S::Error> {
        match fp {
            Some(fp) => s.collect_str(&format_args!("{fp:032x}")),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u128>, D::Error> {
        let Some(hex) = Option::<String>::deserialize(d)? else {
            return Ok(None);
        };
        u128::from_str_radix(&hex, 16).map(Some).map_err(|_| {
            de::Error::invalid_value(de::Unexpected::Str(&hex), &"32 hexadecimal digits")
        })
    }
}

/// The first line, version 2: `{"saikoro_match_state":2,"seed":…,"id":"…","match":{…}}`. Its
/// first member's name marks the file as a match state, its value is the version.
#[derive(Serialize, Deserialize)]
struct Header {
    saikoro_match_state: u32,
    /// The seed of the opening order.
    seed: u64,
    /// The match's id; none in states written before matches had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    #[serde(rename = "match")]
    config: ConfigJson,
}

/// Version 1's first line: the command line the match was started with.
#[derive(Deserialize)]
struct HeaderV1 {
    seed: u64,
    args: Vec<String>,
}

/// Any version's first line, for its version.
#[derive(Deserialize)]
struct Marker {
    saikoro_match_state: u64,
}

/// A line after the first: a game, or the end marker.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum StateLine {
    /// `{"finished":"completed"}`.
    Finished { finished: String },
    /// A finished game.
    Game(SavedGame),
}

/// What defines the saved match.
#[derive(Clone, Debug, PartialEq)]
pub enum SavedSettings {
    /// Its configuration (version 2).
    Config(Box<MatchConfig>),
    /// The arguments it was started with (version 1): to be parsed as a command line.
    Args(Vec<String>),
}

impl Default for SavedSettings {
    fn default() -> Self {
        SavedSettings::Config(Box::default())
    }
}

/// What a state file holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SavedMatch {
    /// What defines the match.
    pub settings: SavedSettings,
    /// The seed of the opening order.
    pub seed: u64,
    /// The match's id (`types::new_match_id`); `None` in a state written before matches had
    /// one.
    pub id: Option<String>,
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
    /// A state of a version this program does not know (a newer one's).
    Version {
        /// The file.
        file: PathBuf,
        /// Its version.
        version: u64,
    },
    /// Its configuration cannot be read.
    BadConfig {
        /// The file.
        file: PathBuf,
        /// Why.
        why: String,
    },
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
            StateError::Version { file, version } => write!(
                f,
                "match state {}: version {version} is not known here (a newer saikoro's?)",
                file.display()
            ),
            StateError::BadConfig { file, why } => {
                write!(f, "match state {}: {why}", file.display())
            }
        }
    }
}

impl std::error::Error for StateError {}

/// The state's first line for the match `id` with `config` and the opening order's `seed`
/// (without its newline); also what the first line each run writes to the results file carries
/// as its `settings` (`output::lines::ResultLine`), read back by [`read_settings`].
pub fn settings_line(config: &MatchConfig, seed: u64, id: &str) -> String {
    json_text(&Header {
        saikoro_match_state: VERSION,
        seed,
        id: Some(id.to_string()),
        config: ConfigJson::from(config),
    })
}

/// What is wrong with a first line.
enum HeaderError {
    /// It is no state's first line.
    NotAState,
    /// Its version is not known here.
    Version(u64),
    /// Its settings cannot be read: why.
    BadConfig(String),
}

/// Reads a first line: the settings, the seed and the id.
fn parse_header(first: &str) -> Result<(SavedSettings, u64, Option<String>), HeaderError> {
    let marker: Marker = serde_json::from_str(first).map_err(|_| HeaderError::NotAState)?;
    match marker.saikoro_match_state {
        1 => {
            let h: HeaderV1 = serde_json::from_str(first).map_err(|_| HeaderError::NotAState)?;
            Ok((SavedSettings::Args(h.args), h.seed, None))
        }
        2 => {
            let h: Header = read_json(first, "").map_err(HeaderError::BadConfig)?;
            Ok((
                SavedSettings::Config(Box::new(h.config.into_config())),
                h.seed,
                h.id,
            ))
        }
        version => Err(HeaderError::Version(version)),
    }
}

/// Reads the first line of the state file `path`.
fn read_header(
    path: &Path,
    first: &str,
) -> Result<(SavedSettings, u64, Option<String>), StateError> {
    let file = path.to_path_buf();
    parse_header(first).map_err(|e| match e {
        HeaderError::NotAState => StateError::NotAState(file),
        HeaderError::Version(version) => StateError::Version { file, version },
        HeaderError::BadConfig(why) => StateError::BadConfig { file, why },
    })
}

/// Reads the settings a results file's line carries ([`settings_line`]'s text) as a state
/// without games. The error says what is wrong with them: `version 3 is not known here (a
/// newer saikoro's?)`, ``match.games: invalid type: …``.
pub fn read_settings(text: &str) -> Result<SavedMatch, String> {
    let (settings, seed, id) = parse_header(text).map_err(|e| match e {
        HeaderError::NotAState => "they are no match's settings".to_string(),
        HeaderError::Version(v) => format!("version {v} is not known here (a newer saikoro's?)"),
        HeaderError::BadConfig(why) => why,
    })?;
    Ok(SavedMatch {
        settings,
        seed,
        id,
        ..SavedMatch::default()
    })
}

/// Reads a state file.
pub fn load(path: &Path) -> Result<SavedMatch, StateError> {
    let text = std::fs::read_to_string(path).map_err(|source| StateError::Io {
        file: path.to_path_buf(),
        source,
    })?;
    let mut lines = text.lines();
    let (settings, seed, id) = read_header(path, lines.next().unwrap_or(""))?;
    let mut games: Vec<SavedGame> = Vec::new();
    let mut seen = BTreeMap::new();
    let mut finished = None;
    for line in lines {
        // A game line, the end marker, or a torn line (ignored).
        let game = match serde_json::from_str(line) {
            Ok(StateLine::Game(game)) => game,
            Ok(StateLine::Finished { finished: how }) => {
                finished = Some(how);
                continue;
            }
            Err(_) => continue,
        };
        if game.reason == Reason::Interrupted || seen.insert(game.number, games.len()).is_some() {
            continue;
        }
        games.push(game);
        // A game after the end marker: the match went on (it was extended).
        finished = None;
    }
    Ok(SavedMatch {
        settings,
        seed,
        id,
        games,
        finished,
    })
}

impl SavedMatch {
    /// The engines' names, as the settings give them (`name=`, else the program's file
    /// name); none for a state that keeps the command line.
    pub fn engine_names(&self) -> Vec<String> {
        match &self.settings {
            SavedSettings::Config(c) => c
                .engines
                .iter()
                .map(|e| {
                    e.name.clone().unwrap_or_else(|| {
                        let program = &e.command.program;
                        let name = program.file_name().unwrap_or(program.as_os_str());
                        name.to_string_lossy().into_owned()
                    })
                })
                .collect(),
            SavedSettings::Args(_) => Vec::new(),
        }
    }

    /// The match in words, for messages: "a finished match of a vs b (12 games)", "an
    /// unfinished match of a vs b (1 game played)".
    pub fn describe(&self) -> String {
        let names = self.engine_names();
        let of = match names.is_empty() {
            true => String::new(),
            false => format!(" of {}", names.join(" vs ")),
        };
        let n = self.games.len();
        let games = crate::output::style::count(n, "game", "games");
        match self.finished {
            Some(_) => format!("a finished match{of} ({games})"),
            None => format!("an unfinished match{of} ({games} played)"),
        }
    }
}

/// What the file at `path` holds when it is a match state (for the rule of every output,
/// `outfile::Own`): the match's id, whether it has a game, the match in words. `Ok(None)`
/// when the file is no match state.
pub fn held(path: &Path) -> io::Result<Option<Held>> {
    match load(path) {
        Ok(saved) => Ok(Some(Held {
            owner: saved.id.clone(),
            empty: saved.games.is_empty(),
            what: saved.describe(),
        })),
        Err(StateError::NotAState(_)) => Ok(None),
        Err(StateError::Io { source, .. }) => Err(source),
        Err(e) => Ok(Some(Held {
            owner: None,
            empty: false,
            what: format!("a match state that cannot be read here ({e})"),
        })),
    }
}

/// A state file being written: one whole line per write, so that a crash leaves at most a
/// torn last line (which [`load`] skips), and a failed write is cut off again.
#[derive(Debug)]
pub(crate) struct StateWriter {
    file: AppendFile,
}

impl StateWriter {
    /// Starts a state file for a new match `id` (replacing any old one): written aside and
    /// renamed into place.
    pub fn create(
        path: &Path,
        config: &MatchConfig,
        seed: u64,
        id: &str,
    ) -> Result<StateWriter, StateError> {
        Self::rewrite(path, config, (seed, id), &[])
    }

    /// Writes the state anew (in this version) for a resumed match, with its (perhaps
    /// extended) configuration and the games saved so far, without torn lines or an end
    /// marker; then appends to it.
    /// `id` is the saved one, or a new one for a state that had none.
    pub fn resume(
        path: &Path,
        config: &MatchConfig,
        saved: &SavedMatch,
        id: &str,
    ) -> Result<StateWriter, StateError> {
        Self::rewrite(path, config, (saved.seed, id), &saved.games)
    }

    fn rewrite(
        path: &Path,
        config: &MatchConfig,
        (seed, id): (u64, &str),
        games: &[SavedGame],
    ) -> Result<StateWriter, StateError> {
        let io = |source| StateError::Io {
            file: path.to_path_buf(),
            source,
        };
        let mut text = settings_line(config, seed, id);
        text.push('\n');
        for g in games {
            text.push_str(&json_text(g));
            text.push('\n');
        }
        write_atomically(path, text.as_bytes()).map_err(io)?;
        Ok(StateWriter {
            file: AppendFile::open(path).map_err(io)?,
        })
    }

    /// Saves a finished game.
    pub fn game(&mut self, game: &SavedGame) -> Result<(), StateError> {
        self.line(&json_text(game))
    }

    /// Marks the match as ended (`how`: `completed`, `sprt`): a new match may then replace
    /// the state without being refused.
    pub fn finished(&mut self, how: &str) -> Result<(), StateError> {
        self.line(&json_text(&StateLine::Finished {
            finished: how.to_string(),
        }))
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
    use saikoro_core::Color;
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
        let config = MatchConfig {
            rounds: 5,
            ..MatchConfig::default()
        };
        let two = game(2, Decision::Draw, Reason::Repetition, Some(0xabc));
        let one = game(1, Decision::Win(Color::White), Reason::Time, None);
        let mut w = StateWriter::create(&path, &config, 42, "00000000000000ab").unwrap();
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
        assert_eq!(saved.settings, SavedSettings::Config(Box::new(config)));
        assert_eq!(saved.seed, 42);
        // In the order they finished; the interrupted game and the torn line left out.
        assert_eq!(saved.games, vec![two, one]);
        assert_eq!(saved.finished, None);
        // Resumed with more rounds: rewritten whole (no torn line), then appended to, and
        // marked finished.
        let more = MatchConfig {
            rounds: 9,
            ..MatchConfig::default()
        };
        assert_eq!(saved.id.as_deref(), Some("00000000000000ab"));
        let mut w = StateWriter::resume(&path, &more, &saved, "00000000000000ab").unwrap();
        let five = game(5, Decision::Draw, Reason::MaxPlies, Some(1));
        w.game(&five).unwrap();
        w.finished("completed").unwrap();
        drop(w);
        let again = load(&path).unwrap();
        assert_eq!(again.settings, SavedSettings::Config(Box::new(more)));
        assert_eq!(
            (again.seed, again.finished.as_deref()),
            (42, Some("completed"))
        );
        assert_eq!(again.games, vec![two, one, five]);
        assert!(!std::fs::read_to_string(&path).unwrap().contains("\"res\n"));
        std::fs::write(&path, "hello\n").unwrap();
        assert!(matches!(load(&path), Err(StateError::NotAState(_))));
        std::fs::write(&path, "{\"saikoro_match_state\":3,\"seed\":1}\n").unwrap();
        assert!(matches!(
            load(&path),
            Err(StateError::Version { version: 3, .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The settings a results file's line carries are the state's first line: read back as a
    /// state without games; one of a newer version is refused in words.
    #[test]
    fn settings_read_back() {
        let config = MatchConfig {
            rounds: 5,
            games: 4,
            ..MatchConfig::default()
        };
        let text = settings_line(&config, 42, "00000000000000ab");
        let saved = read_settings(&text).unwrap();
        assert_eq!(saved.settings, SavedSettings::Config(Box::new(config)));
        assert_eq!(
            (saved.seed, saved.id.as_deref()),
            (42, Some("00000000000000ab"))
        );
        assert!(saved.games.is_empty() && saved.finished.is_none());
        assert_eq!(
            read_settings("{\"saikoro_match_state\":3,\"seed\":1}").map(|_| ()),
            Err("version 3 is not known here (a newer saikoro's?)".to_string())
        );
        assert_eq!(
            read_settings("[1]").map(|_| ()),
            Err("they are no match's settings".to_string())
        );
        let bad = text.replace("\"games\":4", "\"games\":\"4\"");
        let why = read_settings(&bad).unwrap_err();
        assert!(
            why.starts_with("match.games: invalid type: string \"4\""),
            "{why}"
        );
    }

    /// A state written by the version that kept the command line: its arguments come back,
    /// to be parsed; resumed, it is written anew with the configuration.
    #[test]
    fn a_version_1_state_gives_its_arguments() {
        let dir = std::env::temp_dir().join(format!("saikoro-state1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state");
        std::fs::write(
            &path,
            "{\"saikoro_match_state\":1,\"seed\":42,\"args\":[\"--engine\",\"cmd=./a b\",\
             \"name=\\\"q\\\"\",\"x\\\\y\"]}\n\
             {\"game\":2,\"result\":\"1/2-1/2\",\"reason\":\"repetition\"}\n",
        )
        .unwrap();
        let saved = load(&path).unwrap();
        let args = ["--engine", "cmd=./a b", "name=\"q\"", "x\\y"].map(String::from);
        assert_eq!(saved.settings, SavedSettings::Args(args.to_vec()));
        assert_eq!(saved.seed, 42);
        assert_eq!(
            saved.games,
            vec![game(2, Decision::Draw, Reason::Repetition, None)]
        );
        let config = MatchConfig::default();
        assert_eq!(saved.id, None);
        drop(StateWriter::resume(&path, &config, &saved, "0000000000000001").unwrap());
        let again = load(&path).unwrap();
        assert_eq!(again.settings, SavedSettings::Config(Box::new(config)));
        assert_eq!((again.seed, again.games), (42, saved.games));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The lines after the first, byte for byte as docs/match.md shows them.
    #[test]
    fn game_and_end_lines_as_documented() {
        let dir = std::env::temp_dir().join(format!("saikoro-state-l-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state");
        let mut w =
            StateWriter::create(&path, &MatchConfig::default(), 7, "0000000000000007").unwrap();
        w.game(&game(2, Decision::Draw, Reason::Repetition, Some(0xabc)))
            .unwrap();
        w.game(&game(1, Decision::Win(Color::White), Reason::Time, None))
            .unwrap();
        w.finished("completed").unwrap();
        drop(w);
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0]
                .starts_with("{\"saikoro_match_state\":2,\"seed\":7,\"id\":\"0000000000000007\",\"match\":{\"engines\":[],"),
            "{}",
            lines[0]
        );
        assert_eq!(
            lines[1..],
            [
                "{\"game\":2,\"result\":\"1/2-1/2\",\"reason\":\"repetition\",\
                 \"fingerprint\":\"00000000000000000000000000000abc\"}",
                "{\"game\":1,\"result\":\"0-1\",\"reason\":\"time\"}",
                "{\"finished\":\"completed\"}",
            ]
        );
        // A settings member of the wrong type is named.
        std::fs::write(&path, text.replacen("\"games\":2", "\"games\":\"2\"", 1)).unwrap();
        match load(&path) {
            Err(e @ StateError::BadConfig { .. }) => assert!(
                e.to_string()
                    .contains(": match.games: invalid type: string \"2\", expected u32"),
                "{e}"
            ),
            other => panic!("{other:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Paths that are not UTF-8 come back byte for byte; a UTF-8 one is still a JSON string.
    #[cfg(unix)]
    #[test]
    fn non_utf8_paths_survive_the_state() {
        use crate::config::PgnConfig;
        use crate::game::book::OpeningsConfig;
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let odd = |name: &[u8]| PathBuf::from(OsStr::from_bytes(name));
        let dir = std::env::temp_dir().join(format!("saikoro-state-p-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state");
        let mut config = MatchConfig {
            results: Some(odd(b"r\xff.jsonl")),
            records: Some(odd(b"rec\xfe")),
            report: Some(odd(b"\x80.html")),
            openings: Some(OpeningsConfig {
                file: odd(b"book\xc3.sfen"),
                ..OpeningsConfig::default()
            }),
            pgn: Some(PgnConfig {
                file: odd(b"g\xff.pgn"),
                append: false,
                min: false,
                nodes: None,
                event: None,
                site: None,
            }),
            ..MatchConfig::default()
        };
        config.engines.push(Default::default());
        config.engines[0].command.dir = Some(odd(b"engines/\xe9t\xe9"));
        config.engines[0].command.program = odd(b"./\xe9ngine");
        config.engines.push(Default::default());
        config.engines[1].command.dir = Some(PathBuf::from("engines/été"));
        config.engines[1].command.program = PathBuf::from("./éngine");
        drop(StateWriter::create(&path, &config, 1, "0000000000000001").unwrap());
        let saved = load(&path).unwrap();
        assert_eq!(saved.settings, SavedSettings::Config(Box::new(config)));
        let header = std::fs::read_to_string(&path).unwrap();
        // r = 114, \xff = 255, . = 46, j s o n l = 106 115 111 110 108.
        assert!(
            header.contains("\"results\":{\"unix_bytes\":[114,255,46,106,115,111,110,108]}"),
            "{header}"
        );
        assert!(header.contains("\"dir\":\"engines/été\""), "{header}");
        // . / \xe9 n g i n e
        assert!(
            header.contains("\"program\":{\"unix_bytes\":[46,47,233,110,103,105,110,101]}"),
            "{header}"
        );
        assert!(header.contains("\"program\":\"./éngine\""), "{header}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
