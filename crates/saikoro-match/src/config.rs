//! The match's settings: the engines (`--engine`, `--each`), adjudication (`--draw`,
//! `--resign`) and everything else the command line sets, parsed from fastchess-style
//! `key=value` words.

use crate::game::book::OpeningsConfig;
use crate::game::timecontrol::{Limits, TimeControlError};
use crate::output::style::OutputStyle;
use crate::stats::sprt::SprtConfig;
use crate::words::{self, KeyValue, NotUtf8};
use saikoro_core::EnteringKingRule;
use saikoro_driver::split_command;
use saikoro_driver::EngineCommand;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::PathBuf;

/// One engine as the match runs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineConfig {
    /// `name=`; `None` until known: then its `id name`, or the program's file name.
    pub name: Option<String>,
    /// `cmd=`, `args=`, `dir=`.
    pub command: EngineCommand,
    /// `option.NAME=VALUE`, in the order given (sent as `setoption` after `usiok`).
    pub options: Vec<(String, String)>,
    /// `tc=`, `byoyomi=`, `movetime=`, `nodes=`, `depth=`.
    pub limits: Limits,
    /// `ponder`: think on the opponent's time (when the engine has `USI_Ponder`).
    pub ponder: bool,
    /// `restart=on`: a new process for every game (fastchess's and cutechess's `restart=on`),
    /// not only after a failure.
    pub restart: bool,
}

/// A word of `--engine`/`--each` that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineConfigError {
    /// Not `key=value` (nor the bare word `ponder`).
    NotKeyValue(String),
    /// A key the runner does not know.
    UnknownKey(String),
    /// A bad value of `ponder=`.
    BadValue {
        /// The key.
        key: String,
        /// The text.
        value: String,
    },
    /// `args=` that cannot be split into words (a quote never closed).
    Args(String),
    /// No `cmd=`.
    NoCommand,
    /// A bad time control.
    TimeControl(TimeControlError),
    /// Neither a clock nor a limit: `go` would never end.
    Unlimited,
    /// A word that must be text and is not UTF-8 (every word but a path: `cmd=`, `dir=`).
    NotUtf8(NotUtf8),
}

impl fmt::Display for EngineConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineConfigError::NotKeyValue(w) => write!(f, "'{w}' is not key=value"),
            EngineConfigError::UnknownKey(k) => write!(
                f,
                "unknown key '{k}' (expected cmd, args, dir, name, option.NAME, tc, byoyomi, movetime, nodes, depth, ponder)"
            ),
            EngineConfigError::BadValue { key, value } => write!(f, "{key}={value}: bad value"),
            EngineConfigError::Args(why) => write!(f, "args={why}"),
            EngineConfigError::NoCommand => f.write_str("no cmd=PROGRAM"),
            EngineConfigError::TimeControl(e) => e.fmt(f),
            EngineConfigError::Unlimited => f.write_str(
                "no time control or limit: give tc=, movetime=, nodes= or depth= (here or in --each)",
            ),
            EngineConfigError::NotUtf8(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for EngineConfigError {}

impl From<TimeControlError> for EngineConfigError {
    fn from(e: TimeControlError) -> Self {
        EngineConfigError::TimeControl(e)
    }
}

impl From<NotUtf8> for EngineConfigError {
    fn from(e: NotUtf8) -> Self {
        EngineConfigError::NotUtf8(e)
    }
}

/// The keys that together make the time control: an engine that gives one of them replaces
/// the whole time control of `--each`.
const TIME_KEYS: [&str; 3] = ["tc", "byoyomi", "movetime"];

/// One word of `--engine` or `--each`, split at its `=` (`ponder` alone is `ponder=true`).
fn split_word(w: &OsStr) -> Result<KeyValue, EngineConfigError> {
    let w = if w == OsStr::new("ponder") {
        OsStr::new("ponder=true")
    } else {
        w
    };
    match KeyValue::split(w)? {
        Some(kv) => Ok(kv),
        None => Err(EngineConfigError::NotKeyValue(words::text(w)?.to_string())),
    }
}

/// The values that make the limits, read together once every word is.
#[derive(Default)]
struct LimitWords<'a> {
    tc: Option<&'a str>,
    byoyomi: Option<&'a str>,
    movetime: Option<&'a str>,
    nodes: Option<&'a str>,
    depth: Option<&'a str>,
}

/// `v` as a switch: one of `on` (true), one of `off` (false), else the error for `key`.
fn switch(key: &str, v: &str, on: &[&str], off: &[&str]) -> Result<bool, EngineConfigError> {
    if on.contains(&v) {
        Ok(true)
    } else if off.contains(&v) {
        Ok(false)
    } else {
        Err(EngineConfigError::BadValue {
            key: key.to_string(),
            value: v.to_string(),
        })
    }
}

impl EngineConfig {
    /// Builds an engine from the words of its `--engine` over the defaults of `--each`. A key
    /// given in both takes the engine's value; options are merged by name; a time control
    /// (`tc`, `byoyomi`, `movetime`) of the engine replaces that of `--each` as a whole. The
    /// words are as the system gave them: the paths `cmd=` and `dir=` are kept as given, any
    /// other word must be UTF-8.
    pub fn from_words<E, O>(
        each: impl IntoIterator<Item = E>,
        own: impl IntoIterator<Item = O>,
    ) -> Result<EngineConfig, EngineConfigError>
    where
        E: AsRef<OsStr>,
        O: AsRef<OsStr>,
    {
        let each: Vec<OsString> = each.into_iter().map(|w| w.as_ref().to_owned()).collect();
        let own: Vec<OsString> = own.into_iter().map(|w| w.as_ref().to_owned()).collect();
        let own_has_time = own
            .iter()
            .filter_map(|w| split_word(w).ok())
            .any(|kv| TIME_KEYS.contains(&kv.key()));
        let mut pairs = Vec::new();
        for w in &each {
            let kv = split_word(w)?;
            if !(own_has_time && TIME_KEYS.contains(&kv.key())) {
                pairs.push(kv);
            }
        }
        for w in &own {
            pairs.push(split_word(w)?);
        }
        let mut e = EngineConfig::default();
        let mut program = None;
        let mut limits = LimitWords::default();
        for kv in &pairs {
            match kv.key() {
                "cmd" => program = Some(kv.path()),
                "dir" => e.command.dir = Some(kv.path()),
                _ => e.set(kv.key(), kv.text()?, &mut limits)?,
            }
        }
        e.command.program = program
            .filter(|p| !p.as_os_str().is_empty())
            .ok_or(EngineConfigError::NoCommand)?;
        let LimitWords {
            tc,
            byoyomi,
            movetime,
            nodes,
            depth,
        } = limits;
        e.limits = Limits::from_words(tc, byoyomi, movetime, nodes, depth)?;
        if e.limits.is_unlimited() {
            return Err(EngineConfigError::Unlimited);
        }
        Ok(e)
    }

    /// Sets what the word `k=v` (a key with a value of text) sets; the limits' words are
    /// kept in `limits`, to be read together.
    fn set<'a>(
        &mut self,
        k: &str,
        v: &'a str,
        limits: &mut LimitWords<'a>,
    ) -> Result<(), EngineConfigError> {
        match k {
            "args" => {
                self.command.args =
                    split_command(v).map_err(|e| EngineConfigError::Args(e.to_string()))?;
            }
            "name" => self.name = Some(v.to_string()),
            "tc" => limits.tc = Some(v),
            "byoyomi" => limits.byoyomi = Some(v),
            "movetime" => limits.movetime = Some(v),
            "nodes" => limits.nodes = Some(v),
            "depth" => limits.depth = Some(v),
            "restart" => self.restart = switch(k, v, &["on"], &["off"])?,
            "ponder" => self.ponder = switch(k, v, &["true", "on"], &["false", "off"])?,
            _ => match k.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    self.options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                    self.options.push((name.to_string(), v.to_string()));
                }
                _ => return Err(EngineConfigError::UnknownKey(k.to_string())),
            },
        }
        Ok(())
    }

    /// The name to use when the engine gives none: the program's file name without extension.
    pub(crate) fn fallback_name(&self) -> String {
        let program = &self.command.program;
        program
            .file_stem()
            .unwrap_or(program.as_os_str())
            .to_string_lossy()
            .into_owned()
    }
}

/// `--draw movenumber=N movecount=N score=N`: a draw once both engines have reported scores
/// within `score` centipawns of zero for `movecount` moves each in a row, from ply
/// `movenumber` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// The first ply (手数, counted from the start position) at which it may apply.
    pub move_number: u32,
    /// Moves of each side in a row (2 × this many plies).
    pub move_count: u32,
    /// The largest |score| in centipawns.
    pub score: i32,
}

/// `--resign movecount=N score=N [twosided=true]`: a side loses once it has reported a score
/// of `-score` centipawns or worse (or a mate against it) for `movecount` of its moves in a
/// row. With `twosided`, once both sides' scores have agreed, |score| ≥ `score` for
/// `movecount` moves each, the side whose score is negative loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignAdjudication {
    /// Moves in a row.
    pub move_count: u32,
    /// The score threshold in centipawns.
    pub score: i32,
    /// Both sides' scores together.
    pub two_sided: bool,
}

/// A word of `--draw` or `--resign` that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdjudicationError {
    /// The flag.
    pub flag: &'static str,
    /// The word.
    pub word: String,
}

impl fmt::Display for AdjudicationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let expected = if self.flag == "--draw" {
            "movenumber=N movecount=N score=N"
        } else {
            "movecount=N score=N [twosided=true|false]"
        };
        write!(
            f,
            "{}: bad word '{}' (expected {expected})",
            self.flag, self.word
        )
    }
}

impl std::error::Error for AdjudicationError {}

fn adjudication_words<'a>(
    flag: &'static str,
    words: impl IntoIterator<Item = &'a str>,
    mut set: impl FnMut(&str, &str) -> Option<()>,
) -> Result<(), AdjudicationError> {
    for w in words {
        let bad = || AdjudicationError {
            flag,
            word: w.to_string(),
        };
        let (k, v) = w.split_once('=').ok_or_else(bad)?;
        set(k, v).ok_or_else(bad)?;
    }
    Ok(())
}

impl DrawAdjudication {
    /// Reads the words after `--draw` (defaults as fastchess: movenumber 0, movecount 1,
    /// score 0).
    pub fn parse<'a>(
        words: impl IntoIterator<Item = &'a str>,
    ) -> Result<DrawAdjudication, AdjudicationError> {
        let mut d = DrawAdjudication {
            move_number: 0,
            move_count: 1,
            score: 0,
        };
        adjudication_words("--draw", words, |k, v| {
            match k {
                "movenumber" => d.move_number = v.parse().ok()?,
                "movecount" => d.move_count = v.parse().ok()?,
                "score" => d.score = v.parse().ok().filter(|&s: &i32| s >= 0)?,
                _ => return None,
            }
            Some(())
        })?;
        Ok(d)
    }
}

impl ResignAdjudication {
    /// Reads the words after `--resign` (defaults as fastchess: movecount 1, score 0,
    /// twosided false).
    pub fn parse<'a>(
        words: impl IntoIterator<Item = &'a str>,
    ) -> Result<ResignAdjudication, AdjudicationError> {
        let mut r = ResignAdjudication {
            move_count: 1,
            score: 0,
            two_sided: false,
        };
        adjudication_words("--resign", words, |k, v| {
            match k {
                "movecount" => r.move_count = v.parse().ok()?,
                "score" => r.score = v.parse().ok().filter(|&s: &i32| s >= 0)?,
                "twosided" => r.two_sided = v.parse().ok()?,
                _ => return None,
            }
            Some(())
        })?;
        Ok(r)
    }
}

/// The record format of `--records-format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RecordFormat {
    /// CSA V2.2 (`.csa`).
    #[default]
    Csa,
    /// KIF in UTF-8 (`.kifu`).
    Kif,
    /// KI2 in UTF-8 (`.ki2u`).
    Ki2,
    /// JKF (`.jkf`).
    Jkf,
}

impl RecordFormat {
    /// Every format, with its name on the command line and in the state file.
    pub const ALL: [(&'static str, RecordFormat); 4] = [
        ("csa", RecordFormat::Csa),
        ("kif", RecordFormat::Kif),
        ("ki2", RecordFormat::Ki2),
        ("jkf", RecordFormat::Jkf),
    ];

    /// The name (`csa`, `kif`, `ki2`, `jkf`).
    pub fn name(self) -> &'static str {
        crate::word_of(&RecordFormat::ALL, self)
    }

    /// The records' file name extension, with its dot.
    pub const fn extension(self) -> &'static str {
        match self {
            RecordFormat::Csa => ".csa",
            RecordFormat::Kif => ".kifu",
            RecordFormat::Ki2 => ".ki2u",
            RecordFormat::Jkf => ".jkf",
        }
    }
}

/// Everything a match needs to run.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// The engines, two or more.
    pub engines: Vec<EngineConfig>,
    /// The first engine against each of the others only (not every pair).
    pub gauntlet: bool,
    /// Rounds: each pair plays `games` games per round, all from the round's opening.
    pub rounds: u32,
    /// Games per pair and round (2: a game pair, colours swapped).
    pub games: u32,
    /// Keep the colours fixed (the first engine of a pairing Black in every game) instead of
    /// alternating them from one game of the pairing to the next.
    pub noswap: bool,
    /// Count a game that repeats an earlier game of its pairing move for move only once in the
    /// statistics (a pair only when both its games repeat).
    pub distinct_games: bool,
    /// Games played at once.
    pub concurrency: usize,
    /// The openings, if any (default: the start position).
    pub openings: Option<OpeningsConfig>,
    /// The seed of the opening order (`None`: drawn and saved with the match state).
    pub seed: Option<u64>,
    /// The SPRT, if any (two engines only).
    pub sprt: Option<SprtConfig>,
    /// Statistics every this many games (0: only at the end).
    pub rating_interval: u32,
    /// Draw after this many plies from the start position (0: no limit).
    pub max_plies: u32,
    /// Milliseconds a move may overrun its time before it loses.
    pub time_margin_ms: u64,
    /// Draw adjudication.
    pub draw: Option<DrawAdjudication>,
    /// Resign adjudication.
    pub resign: Option<ResignAdjudication>,
    /// How `bestmove win` is judged.
    pub entering_king_rule: EnteringKingRule,
    /// Send an option an engine does not declare, with a warning, instead of refusing the
    /// engine (`--send-undeclared-options`; always in the farm dialects, as shogitest does).
    pub send_undeclared_options: bool,
    /// Send a value an engine's declaration rules out as written, with a warning, instead of
    /// refusing the engine (`--send-option-values-as-written`; always in the farm dialects,
    /// as shogitest and fastchess let the engine read what it is sent).
    pub send_option_values_as_written: bool,
    /// How long an engine may take to answer `usi`.
    pub startup_ms: u64,
    /// How long an engine may take to answer `isready`, `stop` or a move without a clock.
    pub ready_ms: u64,
    /// A game record per game into this directory.
    pub records: Option<PathBuf>,
    /// The records' format.
    pub records_format: RecordFormat,
    /// One JSON line per game into this file.
    pub results: Option<PathBuf>,
    /// Where the match state is saved after every game.
    pub state: Option<PathBuf>,
    /// The match as an HTML page, rewritten as it runs (`--report`).
    pub report: Option<PathBuf>,
    /// The command line that started the match, quoted as a shell reads it: what its report
    /// shows (not a setting; a resumed match keeps the first one).
    pub command: Option<String>,
    /// Start anew over the outputs of an earlier match (`--overwrite`): its results file is
    /// emptied, its records removed and its state replaced, instead of refusing to start.
    pub overwrite: bool,
    /// End the match once an engine has failed (crashed or not answered) in this many of its
    /// games in a row (0: never).
    pub max_failures: u32,
    /// All games in one PGN file (`--pgnout`).
    pub pgn: Option<PgnConfig>,
    /// Whose words the game lines and the PGN file use.
    pub output_style: OutputStyle,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            engines: Vec::new(),
            gauntlet: false,
            rounds: 2,
            games: 2,
            noswap: false,
            distinct_games: false,
            concurrency: 1,
            openings: None,
            seed: None,
            sprt: None,
            rating_interval: 10,
            max_plies: 512,
            time_margin_ms: 0,
            draw: None,
            resign: None,
            entering_king_rule: EnteringKingRule::CsaRule27,
            send_undeclared_options: false,
            send_option_values_as_written: false,
            startup_ms: 10_000,
            ready_ms: 60_000,
            records: None,
            records_format: RecordFormat::Csa,
            results: None,
            state: None,
            report: None,
            command: None,
            overwrite: false,
            max_failures: 3,
            pgn: None,
            output_style: OutputStyle::Saikoro,
        }
    }
}

/// `--pgnout [file=]FILE [append=true|false] [min=true|false] [nodes=…]…`, and `--event`,
/// `--site` for the headers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnConfig {
    /// The file.
    pub file: PathBuf,
    /// `append=true`: a new match may add to a file that holds another match's games (by
    /// default that is refused before any engine starts, as for `--results`, unless
    /// `--overwrite` empties it; a resumed match always goes on in it).
    pub append: bool,
    /// No move comments (fastchess's `min=true`).
    pub min: bool,
    /// `nodes=`: each move's node count in its comment (default: fastchess's no, shogitest's
    /// yes).
    pub nodes: Option<bool>,
    /// The `Event` header (`?` when not given).
    pub event: Option<String>,
    /// The `Site` header (`?` when not given).
    pub site: Option<String>,
}

/// A word of `--pgnout` that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PgnConfigError {
    /// A word with an unknown key or a bad value, or no file: what is wrong.
    BadWord(String),
    /// A word that must be text and is not UTF-8 (every word but the file).
    NotUtf8(NotUtf8),
}

impl fmt::Display for PgnConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnConfigError::BadWord(why) => write!(
                f,
                "--pgnout: {why} (expected [file=]FILE append=true|false min=true|false, and \
                 fastchess's nodes, seldepth, nps, hashfull, tbhits, pv, timeleft, latency, \
                 notation, match_line)"
            ),
            PgnConfigError::NotUtf8(e) => write!(f, "--pgnout: {e}"),
        }
    }
}

impl std::error::Error for PgnConfigError {}

impl From<NotUtf8> for PgnConfigError {
    fn from(e: NotUtf8) -> Self {
        PgnConfigError::NotUtf8(e)
    }
}

impl PgnConfig {
    /// Reads the words after `--pgnout`: the file (`file=F`, or a word without `=`),
    /// `append=`, `min=`, `nodes=`. fastchess's and shogitest's other keys (what each move's
    /// comment tracks: `seldepth`, `nps`, …; `notation`; `match_line`) are accepted: the
    /// comments here hold the score, the depth, the time and the nodes, and moves are always in
    /// USI notation. The words are as the system gave them: the file is kept as given, any
    /// other word must be UTF-8.
    pub fn parse<W: AsRef<OsStr>>(
        words: impl IntoIterator<Item = W>,
    ) -> Result<PgnConfig, PgnConfigError> {
        let mut c = PgnConfig::default();
        let mut file = None;
        for w in words {
            let Some(kv) = KeyValue::split(w.as_ref())? else {
                file = Some(PathBuf::from(w.as_ref()));
                continue;
            };
            if kv.key() == "file" {
                file = Some(kv.path());
                continue;
            }
            let v = kv.text()?;
            let bad = |why: &str| {
                let w = kv.word().to_string_lossy();
                PgnConfigError::BadWord(format!("'{w}': {why}"))
            };
            let boolean = |v: &str| match v {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(bad("expected true or false")),
            };
            match kv.key() {
                "append" => c.append = boolean(v)?,
                "min" => c.min = boolean(v)?,
                "nodes" => c.nodes = Some(boolean(v)?),
                "seldepth" | "nps" | "hashfull" | "tbhits" | "pv" | "timeleft" | "latency" => {
                    boolean(v)?;
                }
                "notation" if matches!(v, "san" | "lan" | "uci" | "usi") => {}
                "match_line" => {}
                _ => return Err(bad("unknown key or value")),
            }
        }
        c.file = file
            .filter(|f| !f.as_os_str().is_empty())
            .ok_or_else(|| PgnConfigError::BadWord("no file".into()))?;
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn engine_words_over_each() {
        let e = EngineConfig::from_words(
            words("tc=10+0.1 option.USI_Hash=64 option.Seed=1"),
            words("cmd=./new name=new option.seed=7 ponder"),
        )
        .unwrap();
        assert_eq!(e.name.as_deref(), Some("new"));
        assert_eq!(e.command.program, std::path::Path::new("./new"));
        assert_eq!(e.limits.clock.unwrap().increment_ms, 100);
        assert_eq!(
            e.options,
            vec![
                ("USI_Hash".to_string(), "64".to_string()),
                ("seed".to_string(), "7".to_string())
            ]
        );
        assert!(e.ponder);
        // An engine's own time control replaces --each's as a whole.
        let e = EngineConfig::from_words(
            words("tc=60 byoyomi=5 nodes=100"),
            words("cmd=x movetime=300"),
        )
        .unwrap();
        assert_eq!(e.limits.clock, None);
        assert_eq!(e.limits.movetime_ms, Some(300));
        assert_eq!(e.limits.nodes, Some(100));
        let e = EngineConfig::from_words([""; 0], ["cmd=x", "args=-a 'b c'", "depth=1"]).unwrap();
        assert_eq!(e.command.args, vec!["-a", "b c"]);
    }

    /// The bytes of `b` as an OS string (not UTF-8 when they are not).
    #[cfg(unix)]
    fn bytes(b: &[u8]) -> OsString {
        use std::os::unix::ffi::OsStrExt;
        OsStr::from_bytes(b).to_owned()
    }

    /// `cmd=` and `dir=` are paths, kept byte for byte; every other word must be UTF-8.
    #[cfg(unix)]
    #[test]
    fn engine_paths_that_are_not_utf8() {
        let e = EngineConfig::from_words(
            [bytes(b"dir=/e/\xFF")],
            [bytes(b"cmd=./\xFEngine"), bytes(b"depth=1")],
        )
        .unwrap();
        assert_eq!(e.command.program.as_os_str(), bytes(b"./\xFEngine"));
        assert_eq!(
            e.command.dir.as_deref().unwrap().as_os_str(),
            bytes(b"/e/\xFF")
        );
        assert_eq!(e.fallback_name(), "\u{FFFD}ngine");
        for (word, shown) in [
            (&b"name=\xFF"[..], r"name=\xFF"),
            (b"option.Book=b\xFF.db", r"option.Book=b\xFF.db"),
            (b"\xFF=1", r"\xFF=1"),
            (b"\xFF", r"\xFF"),
        ] {
            let e = EngineConfig::from_words([""; 0], [bytes(b"cmd=x"), bytes(word)]).unwrap_err();
            assert_eq!(e, EngineConfigError::NotUtf8(NotUtf8 { word: bytes(word) }));
            assert_eq!(
                e.to_string(),
                format!("the word \"{shown}\" is not valid UTF-8")
            );
        }
    }

    /// `--pgnout`'s file is a path, kept byte for byte, given as `file=` or alone; every other
    /// word must be UTF-8.
    #[cfg(unix)]
    #[test]
    fn pgn_words_that_are_not_utf8() {
        let c = PgnConfig::parse([bytes(b"file=g\xFF.pgn"), bytes(b"min=true")]).unwrap();
        assert_eq!(c.file.as_os_str(), bytes(b"g\xFF.pgn"));
        assert!(c.min);
        let c = PgnConfig::parse([bytes(b"\xFE.pgn")]).unwrap();
        assert_eq!(c.file.as_os_str(), bytes(b"\xFE.pgn"));
        let e = PgnConfig::parse([bytes(b"x.pgn"), bytes(b"append=\xFF")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"--pgnout: the word "append=\xFF" is not valid UTF-8"#
        );
        let e = PgnConfig::parse([bytes(b"x.pgn"), bytes(b"f\xFFle=x")]).unwrap_err();
        assert!(matches!(e, PgnConfigError::NotUtf8(_)), "{e}");
        // The words of text as before.
        let e = PgnConfig::parse(["x.pgn", "min=yes"]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("--pgnout: 'min=yes': expected true or false (expected [file=]FILE"),
            "{e}"
        );
        assert_eq!(
            PgnConfig::parse(["min=true"]),
            Err(PgnConfigError::BadWord("no file".into()))
        );
    }

    #[test]
    fn engine_words_refused() {
        let err =
            |each: &str, own: &str| EngineConfig::from_words(words(each), words(own)).unwrap_err();
        assert_eq!(err("", "name=x depth=1"), EngineConfigError::NoCommand);
        assert_eq!(err("", "cmd=x"), EngineConfigError::Unlimited);
        assert_eq!(
            err("", "cmd=x depth=1 hash=3"),
            EngineConfigError::UnknownKey("hash".into())
        );
        assert_eq!(
            err("", "cmd=x depth=1 nonsense"),
            EngineConfigError::NotKeyValue("nonsense".into())
        );
        assert!(matches!(
            err("", "cmd=x tc=60+1 byoyomi=5"),
            EngineConfigError::TimeControl(TimeControlError::IncrementAndByoyomi)
        ));
    }

    #[test]
    fn adjudication_words() {
        assert_eq!(
            DrawAdjudication::parse(["movenumber=40", "movecount=4", "score=10"]),
            Ok(DrawAdjudication {
                move_number: 40,
                move_count: 4,
                score: 10
            })
        );
        assert_eq!(
            ResignAdjudication::parse(["movecount=3", "score=600"]),
            Ok(ResignAdjudication {
                move_count: 3,
                score: 600,
                two_sided: false
            })
        );
        assert!(
            ResignAdjudication::parse(["twosided=true"])
                .unwrap()
                .two_sided
        );
        let e = DrawAdjudication::parse(["moves=3"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--draw: bad word 'moves=3' (expected movenumber=N movecount=N score=N)"
        );
        assert!(ResignAdjudication::parse(["score=-5"]).is_err());
    }
}
