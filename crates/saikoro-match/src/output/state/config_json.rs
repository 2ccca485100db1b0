//! The match configuration as the state file keeps it: [`ConfigJson`], a JSON object with every
//! field that defines the match, written and read back through serde into an equal
//! [`MatchConfig`]. Not kept: `concurrency`, `state` and `overwrite`, which a resumed match takes
//! from its own command line. Paths are [`StatePath`]s, so that one that is not Unicode comes
//! back byte for byte. The members are those the hand-written writer of 6bf4e2d wrote, in its
//! order, with `restart` and `send_option_values_as_written` since; a state without them reads
//! them as off.

use crate::config::{
    DrawAdjudication, EngineConfig, MatchConfig, PgnConfig, RecordFormat, ResignAdjudication,
};
use crate::game::book::{BookFormat, OpeningsConfig, Order};
use crate::game::timecontrol::{ClockRules, Limits};
use crate::output::lines::{json_error, json_text};
use crate::output::style::OutputStyle;
use crate::stats::sprt::{SprtConfig, SprtModel};
use saikoro_core::EnteringKingRule;
use saikoro_driver::EngineCommand;
use serde::de::{self, DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// A path as the state keeps it: a JSON string, its text, when it is Unicode (every path of a
/// state written before, and nearly every path); otherwise an object that gives it back exactly,
/// on Unix its bytes (`{"unix_bytes":[114,255,46,106,115,111,110,108]}` for `r\xff.jsonl`), on
/// Windows its UTF-16 units (`{"windows_wide":[…]}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatePath(pub PathBuf);

/// The members of a path that is not Unicode.
const RAW_PATH: &[&str] = &["unix_bytes", "windows_wide"];

impl Serialize for StatePath {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let Some(text) = self.0.to_str() {
            return s.serialize_str(text);
        }
        let mut o = s.serialize_struct("StatePath", 1)?;
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            o.serialize_field("unix_bytes", self.0.as_os_str().as_bytes())?;
        }
        #[cfg(windows)]
        {
            use std::os::windows::ffi::OsStrExt;
            let wide: Vec<u16> = self.0.as_os_str().encode_wide().collect();
            o.serialize_field("windows_wide", &wide)?;
        }
        o.end()
    }
}

impl<'de> Deserialize<'de> for StatePath {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(PathVisitor)
    }
}

/// Reads either form of a [`StatePath`].
struct PathVisitor;

impl<'de> Visitor<'de> for PathVisitor {
    type Value = StatePath;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a path: a string, {\"unix_bytes\":[…]} or {\"windows_wide\":[…]}")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<StatePath, E> {
        Ok(StatePath(PathBuf::from(v)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StatePath, A::Error> {
        let key: String = map
            .next_key()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let path = match key.as_str() {
            "unix_bytes" => unix_path(map.next_value()?)?,
            "windows_wide" => windows_path(map.next_value()?)?,
            other => return Err(de::Error::unknown_field(other, RAW_PATH)),
        };
        match map.next_key::<String>()? {
            None => Ok(StatePath(path)),
            Some(_) => Err(de::Error::invalid_length(2, &self)),
        }
    }
}

/// A path from its bytes, as Unix keeps it.
fn unix_path<E: de::Error>(bytes: Vec<u8>) -> Result<PathBuf, E> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Ok(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
    }
    #[cfg(not(unix))]
    {
        let _ = bytes;
        Err(E::custom(
            "a path written on Unix, not Unicode, cannot be used here",
        ))
    }
}

/// A path from its UTF-16 units, as Windows keeps it.
fn windows_path<E: de::Error>(wide: Vec<u16>) -> Result<PathBuf, E> {
    #[cfg(windows)]
    {
        use std::os::windows::ffi::OsStringExt;
        Ok(PathBuf::from(std::ffi::OsString::from_wide(&wide)))
    }
    #[cfg(not(windows))]
    {
        let _ = wide;
        Err(E::custom(
            "a path written on Windows, not Unicode, cannot be used here",
        ))
    }
}

/// A setting written as its name (`Display`) and read back with `FromStr`: the entering-king
/// rule, the SPRT's model, the output style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Text<T>(T);

impl<T: fmt::Display> Serialize for Text<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de, T: FromStr> Deserialize<'de> for Text<T>
where
    T::Err: fmt::Display,
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map(Text)
            .map_err(de::Error::custom)
    }
}

/// A setting that the state names by its type's table of names (`Order::NAMES`,
/// `BookFormat::NAMES`, `RecordFormat::ALL`): only those names, not the aliases the flags also
/// take (`format=usi`, `format=kifu`).
trait Named: Copy + PartialEq + 'static {
    /// Each value's name.
    const NAMES: &'static [(&'static str, Self)];
}

impl Named for Order {
    const NAMES: &'static [(&'static str, Self)] = &Order::NAMES;
}

impl Named for BookFormat {
    const NAMES: &'static [(&'static str, Self)] = &BookFormat::NAMES;
}

impl Named for RecordFormat {
    const NAMES: &'static [(&'static str, Self)] = &RecordFormat::ALL;
}

/// A [`Named`] value in JSON: its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Word<T>(T);

impl<T: Named> Serialize for Word<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let name = T::NAMES.iter().find(|(_, v)| *v == self.0).map(|(n, _)| *n);
        s.serialize_str(name.unwrap_or_default())
    }
}

impl<'de, T: Named> Deserialize<'de> for Word<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        match T::NAMES.iter().find(|(n, _)| *n == name) {
            Some((_, v)) => Ok(Word(*v)),
            None => Err(de::Error::invalid_value(
                de::Unexpected::Str(&name),
                &OneOf(T::NAMES),
            )),
        }
    }
}

/// What a [`Word`] expects: `one of sequential, random`.
struct OneOf<T: 'static>(&'static [(&'static str, T)]);

impl<T> de::Expected for OneOf<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("one of ")?;
        for (i, (name, _)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

/// The SPRT's settings, checked as `--sprt` checks them ([`SprtConfig::new`]) when read.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Sprt(SprtConfig);

/// [`Sprt`]'s members.
#[derive(Serialize, Deserialize)]
struct SprtJson {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: Text<SprtModel>,
}

impl Serialize for Sprt {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = &self.0;
        SprtJson {
            elo0: c.elo0(),
            elo1: c.elo1(),
            alpha: c.alpha(),
            beta: c.beta(),
            model: Text(c.model()),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Sprt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let j = SprtJson::deserialize(d)?;
        SprtConfig::new(j.elo0, j.elo1, j.alpha, j.beta, j.model.0)
            .map(Sprt)
            .map_err(de::Error::custom)
    }
}

/// An engine: `EngineConfig` with its command and limits in one object.
#[derive(Serialize, Deserialize)]
struct EngineJson {
    name: Option<String>,
    program: StatePath,
    args: Vec<String>,
    dir: Option<StatePath>,
    /// `[name, value]` pairs, in order.
    options: Vec<(String, String)>,
    clock: Option<ClockJson>,
    movetime_ms: Option<u64>,
    nodes: Option<u64>,
    depth: Option<u32>,
    ponder: bool,
    /// Saved since `restart=` came (after 6bf4e2d); a state from before has none: off.
    #[serde(default)]
    restart: bool,
}

/// A clock's rules.
#[derive(Serialize, Deserialize)]
struct ClockJson {
    base_ms: u64,
    increment_ms: u64,
    byoyomi_ms: u64,
}

/// `--openings`.
#[derive(Serialize, Deserialize)]
struct OpeningsJson {
    file: StatePath,
    order: Word<Order>,
    start: usize,
    plies: Option<usize>,
    format: Option<Word<BookFormat>>,
}

/// `--draw`.
#[derive(Serialize, Deserialize)]
struct DrawJson {
    move_number: u32,
    move_count: u32,
    score: i32,
}

/// `--resign`.
#[derive(Serialize, Deserialize)]
struct ResignJson {
    move_count: u32,
    score: i32,
    two_sided: bool,
}

/// `--pgnout`.
#[derive(Serialize, Deserialize)]
struct PgnJson {
    file: StatePath,
    append: bool,
    min: bool,
    nodes: Option<bool>,
    event: Option<String>,
    site: Option<String>,
}

/// The match's settings as the state's first line keeps them (its `match` member), member for
/// member in this order.
#[derive(Serialize, Deserialize)]
pub(super) struct ConfigJson {
    engines: Vec<EngineJson>,
    gauntlet: bool,
    rounds: u32,
    games: u32,
    noswap: bool,
    distinct_games: bool,
    openings: Option<OpeningsJson>,
    seed: Option<u64>,
    sprt: Option<Sprt>,
    rating_interval: u32,
    max_plies: u32,
    time_margin_ms: u64,
    draw: Option<DrawJson>,
    resign: Option<ResignJson>,
    entering_king_rule: Text<EnteringKingRule>,
    /// Not in the state files of earlier versions: off.
    #[serde(default)]
    send_undeclared_options: bool,
    /// Not in the state files of earlier versions (6bf4e2d's included): off.
    #[serde(default)]
    send_option_values_as_written: bool,
    startup_ms: u64,
    ready_ms: u64,
    records: Option<StatePath>,
    records_format: Word<RecordFormat>,
    results: Option<StatePath>,
    /// Not in the state files of earlier versions: none.
    report: Option<StatePath>,
    /// Not in the state files of earlier versions: none.
    command: Option<String>,
    max_failures: u32,
    pgn: Option<PgnJson>,
    output_style: Text<OutputStyle>,
}

fn path(p: &std::path::Path) -> StatePath {
    StatePath(p.to_path_buf())
}

impl From<&EngineConfig> for EngineJson {
    fn from(e: &EngineConfig) -> EngineJson {
        let EngineConfig {
            name,
            command: EngineCommand { program, args, dir },
            options,
            limits:
                Limits {
                    clock,
                    movetime_ms,
                    nodes,
                    depth,
                },
            ponder,
            restart,
        } = e;
        EngineJson {
            name: name.clone(),
            program: path(program),
            args: args.clone(),
            dir: dir.as_deref().map(path),
            options: options.clone(),
            clock: clock.map(|c| ClockJson {
                base_ms: c.base_ms,
                increment_ms: c.increment_ms,
                byoyomi_ms: c.byoyomi_ms,
            }),
            movetime_ms: *movetime_ms,
            nodes: *nodes,
            depth: *depth,
            ponder: *ponder,
            restart: *restart,
        }
    }
}

impl From<EngineJson> for EngineConfig {
    fn from(e: EngineJson) -> EngineConfig {
        EngineConfig {
            name: e.name,
            command: EngineCommand {
                program: e.program.0,
                args: e.args,
                dir: e.dir.map(|d| d.0),
            },
            options: e.options,
            limits: Limits {
                clock: e.clock.map(|c| ClockRules {
                    base_ms: c.base_ms,
                    increment_ms: c.increment_ms,
                    byoyomi_ms: c.byoyomi_ms,
                }),
                movetime_ms: e.movetime_ms,
                nodes: e.nodes,
                depth: e.depth,
            },
            ponder: e.ponder,
            restart: e.restart,
        }
    }
}

fn openings_json(o: &OpeningsConfig) -> OpeningsJson {
    OpeningsJson {
        file: path(&o.file),
        order: Word(o.order),
        start: o.start,
        plies: o.plies,
        format: o.format.map(Word),
    }
}

fn pgn_json(p: &PgnConfig) -> PgnJson {
    PgnJson {
        file: path(&p.file),
        append: p.append,
        min: p.min,
        nodes: p.nodes,
        event: p.event.clone(),
        site: p.site.clone(),
    }
}

impl From<&MatchConfig> for ConfigJson {
    /// Every member of the configuration is named here, so that a new one is kept or left out
    /// on purpose (and the compiler says so).
    fn from(c: &MatchConfig) -> ConfigJson {
        let MatchConfig {
            engines,
            gauntlet,
            rounds,
            games,
            noswap,
            distinct_games,
            concurrency: _,
            openings,
            seed,
            sprt,
            rating_interval,
            max_plies,
            time_margin_ms,
            draw,
            resign,
            entering_king_rule,
            send_undeclared_options,
            send_option_values_as_written,
            startup_ms,
            ready_ms,
            records,
            records_format,
            results,
            state: _,
            report,
            command,
            overwrite: _,
            max_failures,
            pgn,
            output_style,
        } = c;
        ConfigJson {
            engines: engines.iter().map(EngineJson::from).collect(),
            gauntlet: *gauntlet,
            rounds: *rounds,
            games: *games,
            noswap: *noswap,
            distinct_games: *distinct_games,
            openings: openings.as_ref().map(openings_json),
            seed: *seed,
            sprt: sprt.map(Sprt),
            rating_interval: *rating_interval,
            max_plies: *max_plies,
            time_margin_ms: *time_margin_ms,
            draw: draw.map(|d| DrawJson {
                move_number: d.move_number,
                move_count: d.move_count,
                score: d.score,
            }),
            resign: resign.map(|r| ResignJson {
                move_count: r.move_count,
                score: r.score,
                two_sided: r.two_sided,
            }),
            entering_king_rule: Text(*entering_king_rule),
            send_undeclared_options: *send_undeclared_options,
            send_option_values_as_written: *send_option_values_as_written,
            startup_ms: *startup_ms,
            ready_ms: *ready_ms,
            records: records.as_deref().map(path),
            records_format: Word(*records_format),
            results: results.as_deref().map(path),
            report: report.as_deref().map(path),
            command: command.clone(),
            max_failures: *max_failures,
            pgn: pgn.as_ref().map(pgn_json),
            output_style: Text(*output_style),
        }
    }
}

impl ConfigJson {
    /// The configuration, with what the state does not keep at its default.
    pub(super) fn into_config(self) -> MatchConfig {
        MatchConfig {
            engines: self.engines.into_iter().map(EngineConfig::from).collect(),
            gauntlet: self.gauntlet,
            rounds: self.rounds,
            games: self.games,
            noswap: self.noswap,
            distinct_games: self.distinct_games,
            openings: self.openings.map(|o| OpeningsConfig {
                file: o.file.0,
                order: o.order.0,
                start: o.start,
                plies: o.plies,
                format: o.format.map(|f| f.0),
            }),
            seed: self.seed,
            sprt: self.sprt.map(|s| s.0),
            rating_interval: self.rating_interval,
            max_plies: self.max_plies,
            time_margin_ms: self.time_margin_ms,
            draw: self.draw.map(|d| DrawAdjudication {
                move_number: d.move_number,
                move_count: d.move_count,
                score: d.score,
            }),
            resign: self.resign.map(|r| ResignAdjudication {
                move_count: r.move_count,
                score: r.score,
                two_sided: r.two_sided,
            }),
            entering_king_rule: self.entering_king_rule.0,
            send_undeclared_options: self.send_undeclared_options,
            send_option_values_as_written: self.send_option_values_as_written,
            startup_ms: self.startup_ms,
            ready_ms: self.ready_ms,
            records: self.records.map(|p| p.0),
            records_format: self.records_format.0,
            results: self.results.map(|p| p.0),
            report: self.report.map(|p| p.0),
            command: self.command,
            max_failures: self.max_failures,
            pgn: self.pgn.map(|p| PgnConfig {
                file: p.file.0,
                append: p.append,
                min: p.min,
                nodes: p.nodes,
                event: p.event,
                site: p.site,
            }),
            output_style: self.output_style.0,
            ..MatchConfig::default()
        }
    }
}

/// Reads `text`, one JSON value, as a `T`; the error names the member that is wrong, from
/// `root` (`match.engines[0].ponder: …`), and what is wrong with it ([`json_error`]).
pub(super) fn read_json<T: DeserializeOwned>(text: &str, root: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let at = e.path().to_string();
        let why = json_error(e.inner());
        match (root, at.as_str()) {
            ("", ".") => why,
            (_, ".") => format!("{root}: {why}"),
            ("", _) => format!("{at}: {why}"),
            _ => format!("{root}.{at}: {why}"),
        }
    })?;
    de.end().map_err(|e| json_error(&e))?;
    Ok(value)
}

/// The configuration as a JSON object (one line).
pub fn config_to_json(c: &MatchConfig) -> String {
    json_text(&ConfigJson::from(c))
}

/// Reads back what [`config_to_json`] wrote; the error names the member that is wrong, as the
/// state's first line has it (`match.games: …`).
pub fn config_from_json(text: &str) -> Result<MatchConfig, String> {
    read_json::<ConfigJson>(text, "match").map(ConfigJson::into_config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::style::OutputStyle;
    use crate::stats::sprt::SprtModel;
    use saikoro_core::EnteringKingRule;

    /// An engine with every field set, `i` making each one's values its own.
    fn full_engine(i: u64) -> EngineConfig {
        EngineConfig {
            name: Some(format!("engine \"{i}\" 王")),
            command: EngineCommand {
                program: format!("./eng{i}").into(),
                args: vec!["--seed".into(), format!("{i}"), "a b\\c".into()],
                dir: Some(PathBuf::from(format!("dir {i}"))),
            },
            options: vec![
                ("USI_Hash".into(), "64".into()),
                ("Book".into(), format!("x{i}.db")),
            ],
            limits: Limits {
                clock: Some(ClockRules {
                    base_ms: 60_000 + i,
                    increment_ms: 0,
                    byoyomi_ms: 5_000,
                }),
                movetime_ms: Some(300 + i),
                nodes: Some(u64::MAX - i),
                depth: Some(7),
            },
            ponder: true,
            restart: i % 2 == 1,
        }
    }

    /// Every field away from its default.
    fn full_config() -> MatchConfig {
        MatchConfig {
            engines: vec![full_engine(1), full_engine(2), EngineConfig::default()],
            gauntlet: true,
            rounds: 500,
            games: 3,
            noswap: true,
            distinct_games: true,
            openings: Some(OpeningsConfig {
                file: "books/open ings.sfen".into(),
                order: Order::Random,
                start: 4,
                plies: Some(24),
                format: Some(BookFormat::Kif),
            }),
            seed: Some(u64::MAX),
            sprt: Some(SprtConfig::new(-1.5, 2.25, 0.05, 0.1, SprtModel::Bayesian).unwrap()),
            rating_interval: 0,
            max_plies: 256,
            time_margin_ms: 150,
            draw: Some(DrawAdjudication {
                move_number: 40,
                move_count: 4,
                score: 10,
            }),
            resign: Some(ResignAdjudication {
                move_count: 3,
                score: 600,
                two_sided: true,
            }),
            entering_king_rule: EnteringKingRule::CsaRule24,
            send_undeclared_options: true,
            send_option_values_as_written: true,
            startup_ms: 1_234,
            ready_ms: 5_678,
            records: Some("rec".into()),
            records_format: RecordFormat::Kif,
            results: Some("out/results.jsonl".into()),
            report: Some("out/r.html".into()),
            command: Some("saikoro match --engine 'cmd=a b'".into()),
            max_failures: 0,
            pgn: Some(PgnConfig {
                file: "games.pgn".into(),
                append: true,
                min: true,
                nodes: Some(false),
                event: Some("Event \"1\"".into()),
                site: Some("here".into()),
            }),
            output_style: OutputStyle::Shogitest,
            ..MatchConfig::default()
        }
    }

    #[test]
    fn a_config_round_trips() {
        let full = full_config();
        assert_eq!(config_from_json(&config_to_json(&full)), Ok(full));
        let bare = MatchConfig::default();
        assert_eq!(config_from_json(&config_to_json(&bare)), Ok(bare));
        // The other values of the enumerations and options.
        let mut other = full_config();
        other.openings.as_mut().unwrap().order = Order::Sequential;
        other.openings.as_mut().unwrap().format = Some(BookFormat::Csa);
        other.sprt = Some(SprtConfig::new(0.0, 5.0, 0.05, 0.05, SprtModel::Logistic).unwrap());
        other.pgn.as_mut().unwrap().nodes = None;
        other.entering_king_rule = EnteringKingRule::NoEnteringKing;
        other.resign = None;
        other.engines[0].limits.clock.as_mut().unwrap().increment_ms = 100;
        assert_eq!(config_from_json(&config_to_json(&other)), Ok(other));
    }

    #[test]
    fn what_a_resumed_match_sets_itself_is_not_kept() {
        let mut c = full_config();
        c.concurrency = 8;
        c.state = Some("state".into());
        c.overwrite = true;
        assert_eq!(config_from_json(&config_to_json(&c)), Ok(full_config()));
    }

    /// The column (1-based) of the last character of `what`'s first occurrence in `text`:
    /// where serde_json stops on a bad value, or on the `}` of an object that lacks a member.
    fn column_after(text: &str, what: &str) -> usize {
        text.find(what).unwrap() + what.len()
    }

    #[test]
    fn the_wrong_member_is_named() {
        let text = config_to_json(&full_config()).replace("\"games\":3", "\"games\":\"3\"");
        assert_eq!(
            config_from_json(&text),
            Err(format!(
                "match.games: invalid type: string \"3\", expected u32 at column {}",
                column_after(&text, "\"games\":\"3\"")
            ))
        );
        let text = config_to_json(&full_config()).replace("\"ponder\":true", "\"pondr\":true");
        // Engine 1's object ends after its `restart`.
        assert_eq!(
            config_from_json(&text),
            Err(format!(
                "match.engines[0]: missing field `ponder` at column {}",
                column_after(&text, "\"pondr\":true,\"restart\":true}")
            ))
        );
        assert!(config_from_json("[1]").is_err());
        // A state written before restart= was kept (6bf4e2d) has no "restart": off.
        let old = config_to_json(&full_config())
            .replace(",\"restart\":false", "")
            .replace(",\"restart\":true", "");
        assert!(!old.contains("restart"));
        let read = config_from_json(&old).unwrap();
        assert!(read.engines.iter().all(|e| !e.restart));
        let bad = config_to_json(&full_config()).replace("\"restart\":true", "\"restart\":1");
        assert_eq!(
            config_from_json(&bad),
            Err(format!(
                "match.engines[0].restart: invalid type: integer `1`, expected a boolean at \
                 column {}",
                column_after(&bad, "\"restart\":1")
            ))
        );
        // A name of no value, and a settings check that fails, at their members.
        let bad = config_to_json(&full_config()).replace("\"order\":\"random\"", "\"order\":\"x\"");
        assert_eq!(
            config_from_json(&bad),
            Err(format!(
                "match.openings.order: invalid value: string \"x\", expected one of sequential, \
                 random at column {}",
                column_after(&bad, "\"order\":\"x\"")
            ))
        );
        let bad = config_to_json(&full_config()).replace("\"elo1\":2.25", "\"elo1\":-2.0");
        assert!(
            config_from_json(&bad)
                .unwrap_err()
                .starts_with("match.sprt: elo0 (-1.5) must be less than elo1 (-2) at column "),
            "{}",
            config_from_json(&bad).unwrap_err()
        );
    }
}
