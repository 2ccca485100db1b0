//! The match configuration as the state file is to keep it: a JSON object with every field
//! that defines the match, read back into an equal [`MatchConfig`]. Not kept: `concurrency`,
//! `state` and `overwrite`, which a resumed match takes from its own command line.

use crate::driver::EngineCommand;
use crate::json::Json;
use crate::tournament::config::{
    DrawAdjudication, EngineConfig, MatchConfig, PgnConfig, RecordFormat, ResignAdjudication,
};
use crate::tournament::game::book::{BookFormat, OpeningsConfig, Order};
use crate::tournament::game::timecontrol::{ClockRules, Limits};

use crate::tournament::stats::sprt::SprtConfig;
use std::path::{Path, PathBuf};

fn object(members: Vec<(&str, Json)>) -> Json {
    Json::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

fn opt<T>(v: &Option<T>, f: impl FnOnce(&T) -> Json) -> Json {
    v.as_ref().map_or(Json::Null, f)
}

fn path(p: &Path) -> Json {
    Json::string(p.to_string_lossy())
}

fn engine(e: &EngineConfig) -> Json {
    let l = &e.limits;
    object(vec![
        ("name", opt(&e.name, |n| Json::string(n.as_str()))),
        ("program", Json::string(e.command.program.as_str())),
        (
            "args",
            Json::Array(
                e.command
                    .args
                    .iter()
                    .map(|a| Json::string(a.as_str()))
                    .collect(),
            ),
        ),
        ("dir", opt(&e.command.dir, |d| path(d))),
        (
            "options",
            Json::Array(
                e.options
                    .iter()
                    .map(|(n, v)| {
                        Json::Array(vec![Json::string(n.as_str()), Json::string(v.as_str())])
                    })
                    .collect(),
            ),
        ),
        (
            "clock",
            opt(&l.clock, |c| {
                object(vec![
                    ("base_ms", Json::number(c.base_ms)),
                    ("increment_ms", Json::number(c.increment_ms)),
                    ("byoyomi_ms", Json::number(c.byoyomi_ms)),
                ])
            }),
        ),
        ("movetime_ms", opt(&l.movetime_ms, |n| Json::number(n))),
        ("nodes", opt(&l.nodes, |n| Json::number(n))),
        ("depth", opt(&l.depth, |n| Json::number(n))),
        ("ponder", Json::Bool(e.ponder)),
        ("restart", Json::Bool(e.restart)),
    ])
}

const fn order_name(o: Order) -> &'static str {
    match o {
        Order::Sequential => "sequential",
        Order::Random => "random",
    }
}

const fn format_name(f: BookFormat) -> &'static str {
    match f {
        BookFormat::Sfen => "sfen",
        BookFormat::Csa => "csa",
        BookFormat::Kif => "kif",
        BookFormat::Ki2 => "ki2",
        BookFormat::Jkf => "jkf",
    }
}

fn records_name(f: RecordFormat) -> &'static str {
    f.name()
}

fn openings(o: &OpeningsConfig) -> Json {
    object(vec![
        ("file", path(&o.file)),
        ("order", Json::string(order_name(o.order))),
        ("start", Json::number(o.start)),
        ("plies", opt(&o.plies, |n| Json::number(n))),
        ("format", opt(&o.format, |f| Json::string(format_name(*f)))),
    ])
}

fn sprt(s: &SprtConfig) -> Json {
    object(vec![
        ("elo0", Json::number(s.elo0())),
        ("elo1", Json::number(s.elo1())),
        ("alpha", Json::number(s.alpha())),
        ("beta", Json::number(s.beta())),
        ("model", Json::string(s.model().name())),
    ])
}

fn pgn(p: &PgnConfig) -> Json {
    object(vec![
        ("file", path(&p.file)),
        ("append", Json::Bool(p.append)),
        ("min", Json::Bool(p.min)),
        ("nodes", opt(&p.nodes, |n| Json::Bool(*n))),
        ("event", opt(&p.event, |e| Json::string(e.as_str()))),
        ("site", opt(&p.site, |s| Json::string(s.as_str()))),
    ])
}

/// The configuration as a JSON object (one line).
pub fn config_to_json(c: &MatchConfig) -> String {
    config_value(c).to_string()
}

/// The configuration as a JSON value.
pub(super) fn config_value(c: &MatchConfig) -> Json {
    object(vec![
        (
            "engines",
            Json::Array(c.engines.iter().map(engine).collect()),
        ),
        ("gauntlet", Json::Bool(c.gauntlet)),
        ("rounds", Json::number(c.rounds)),
        ("games", Json::number(c.games)),
        ("noswap", Json::Bool(c.noswap)),
        ("distinct_games", Json::Bool(c.distinct_games)),
        ("openings", opt(&c.openings, openings)),
        ("seed", opt(&c.seed, |n| Json::number(n))),
        ("sprt", opt(&c.sprt, sprt)),
        ("rating_interval", Json::number(c.rating_interval)),
        ("max_plies", Json::number(c.max_plies)),
        ("time_margin_ms", Json::number(c.time_margin_ms)),
        (
            "draw",
            opt(&c.draw, |d| {
                object(vec![
                    ("move_number", Json::number(d.move_number)),
                    ("move_count", Json::number(d.move_count)),
                    ("score", Json::number(d.score)),
                ])
            }),
        ),
        (
            "resign",
            opt(&c.resign, |r| {
                object(vec![
                    ("move_count", Json::number(r.move_count)),
                    ("score", Json::number(r.score)),
                    ("two_sided", Json::Bool(r.two_sided)),
                ])
            }),
        ),
        (
            "entering_king_rule",
            Json::string(c.entering_king_rule.name()),
        ),
        (
            "send_undeclared_options",
            Json::Bool(c.send_undeclared_options),
        ),
        (
            "send_option_values_as_written",
            Json::Bool(c.send_option_values_as_written),
        ),
        ("startup_ms", Json::number(c.startup_ms)),
        ("ready_ms", Json::number(c.ready_ms)),
        ("records", opt(&c.records, |r| path(r))),
        (
            "records_format",
            Json::string(records_name(c.records_format)),
        ),
        ("results", opt(&c.results, |r| path(r))),
        ("report", opt(&c.report, |r| path(r))),
        ("command", opt(&c.command, |s| Json::string(s))),
        ("max_failures", Json::number(c.max_failures)),
        ("pgn", opt(&c.pgn, pgn)),
        ("output_style", Json::string(c.output_style.to_string())),
    ])
}

/// An object being read: its members by name, each error naming the member's path.
struct Fields<'a> {
    value: &'a Json,
    path: String,
}

impl<'a> Fields<'a> {
    fn new(value: &'a Json, path: String) -> Result<Fields<'a>, String> {
        match value {
            Json::Object(_) => Ok(Fields { value, path }),
            _ => Err(format!("{path}: expected an object")),
        }
    }

    fn path(&self, key: &str) -> String {
        format!("{}.{key}", self.path)
    }

    fn raw(&self, key: &str) -> Result<&'a Json, String> {
        self.value
            .get(key)
            .ok_or_else(|| format!("{}: missing", self.path(key)))
    }

    /// A member read by `f` (`None`: not what `f` takes).
    fn get<T>(&self, key: &str, what: &str, f: impl Fn(&Json) -> Option<T>) -> Result<T, String> {
        f(self.raw(key)?).ok_or_else(|| format!("{}: expected {what}", self.path(key)))
    }

    /// A member that may be `null`.
    fn maybe<T>(
        &self,
        key: &str,
        what: &str,
        f: impl Fn(&Json) -> Option<T>,
    ) -> Result<Option<T>, String> {
        match self.raw(key)? {
            Json::Null => Ok(None),
            v => f(v)
                .map(Some)
                .ok_or_else(|| format!("{}: expected {what} or null", self.path(key))),
        }
    }

    fn number<T: std::str::FromStr>(&self, key: &str) -> Result<T, String> {
        self.get(key, "a number", Json::as_number)
    }

    fn bool(&self, key: &str) -> Result<bool, String> {
        self.get(key, "true or false", Json::as_bool)
    }

    fn string(&self, key: &str) -> Result<String, String> {
        self.get(key, "a string", |v| v.as_str().map(String::from))
    }

    fn named<T>(&self, key: &str, names: &[(&str, T)]) -> Result<T, String>
    where
        T: Copy,
    {
        self.get(key, "a known name", |v| {
            let s = v.as_str()?;
            names.iter().find(|(n, _)| *n == s).map(|(_, t)| *t)
        })
    }

    /// A member object that may be `null`, read by `f`.
    fn nested<T>(
        &self,
        key: &str,
        f: impl Fn(&Fields<'a>) -> Result<T, String>,
    ) -> Result<Option<T>, String> {
        match self.raw(key)? {
            Json::Null => Ok(None),
            v => f(&Fields::new(v, self.path(key))?).map(Some),
        }
    }
}

fn strings(v: &Json) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|s| s.as_str().map(String::from))
        .collect()
}

fn option_pairs(v: &Json) -> Option<Vec<(String, String)>> {
    v.as_array()?
        .iter()
        .map(|p| match strings(p)?.as_slice() {
            [n, v] => Some((n.clone(), v.clone())),
            _ => None,
        })
        .collect()
}

fn read_engine(f: &Fields<'_>) -> Result<EngineConfig, String> {
    let clock = f.nested("clock", |c| {
        Ok(ClockRules {
            base_ms: c.number("base_ms")?,
            increment_ms: c.number("increment_ms")?,
            byoyomi_ms: c.number("byoyomi_ms")?,
        })
    })?;
    Ok(EngineConfig {
        name: f.maybe("name", "a string", |v| v.as_str().map(String::from))?,
        command: EngineCommand {
            program: f.string("program")?,
            args: f.get("args", "an array of strings", strings)?,
            dir: f.maybe("dir", "a string", |v| v.as_str().map(PathBuf::from))?,
        },
        options: f.get("options", "an array of [name, value]", option_pairs)?,
        limits: Limits {
            clock,
            movetime_ms: f.maybe("movetime_ms", "a number", Json::as_number)?,
            nodes: f.maybe("nodes", "a number", Json::as_number)?,
            depth: f.maybe("depth", "a number", Json::as_number)?,
        },
        ponder: f.bool("ponder")?,
        // Saved since restart= came; a state from before has none: off.
        restart: match f.value.get("restart") {
            None => false,
            Some(_) => f.bool("restart")?,
        },
    })
}

fn read_openings(f: &Fields<'_>) -> Result<OpeningsConfig, String> {
    let formats = [
        ("sfen", BookFormat::Sfen),
        ("csa", BookFormat::Csa),
        ("kif", BookFormat::Kif),
        ("ki2", BookFormat::Ki2),
        ("jkf", BookFormat::Jkf),
    ];
    Ok(OpeningsConfig {
        file: f.string("file")?.into(),
        order: f.named(
            "order",
            &[("sequential", Order::Sequential), ("random", Order::Random)],
        )?,
        start: f.number("start")?,
        plies: f.maybe("plies", "a number", Json::as_number)?,
        format: f.maybe("format", "a known name", |v| {
            let s = v.as_str()?;
            formats.iter().find(|(n, _)| *n == s).map(|(_, t)| *t)
        })?,
    })
}

fn read_sprt(f: &Fields<'_>) -> Result<SprtConfig, String> {
    let model = f.get("model", "a model's name", |v| v.as_str()?.parse().ok())?;
    SprtConfig::new(
        f.number("elo0")?,
        f.number("elo1")?,
        f.number("alpha")?,
        f.number("beta")?,
        model,
    )
    .map_err(|e| format!("{}: {e}", f.path))
}

fn read_pgn(f: &Fields<'_>) -> Result<PgnConfig, String> {
    let text = |v: &Json| v.as_str().map(String::from);
    Ok(PgnConfig {
        file: f.string("file")?.into(),
        append: f.bool("append")?,
        min: f.bool("min")?,
        nodes: f.maybe("nodes", "true or false", Json::as_bool)?,
        event: f.maybe("event", "a string", text)?,
        site: f.maybe("site", "a string", text)?,
    })
}

fn read_config(f: &Fields<'_>) -> Result<MatchConfig, String> {
    let engines = f.get("engines", "an array", |v| {
        v.as_array().map(<[Json]>::to_vec)
    })?;
    let engines = engines
        .iter()
        .enumerate()
        .map(|(i, e)| read_engine(&Fields::new(e, format!("{}.engines[{i}]", f.path))?))
        .collect::<Result<_, _>>()?;
    let path = |v: &Json| v.as_str().map(PathBuf::from);
    Ok(MatchConfig {
        engines,
        gauntlet: f.bool("gauntlet")?,
        rounds: f.number("rounds")?,
        games: f.number("games")?,
        noswap: f.bool("noswap")?,
        distinct_games: f.bool("distinct_games")?,
        openings: f.nested("openings", read_openings)?,
        seed: f.maybe("seed", "a number", Json::as_number)?,
        sprt: f.nested("sprt", read_sprt)?,
        rating_interval: f.number("rating_interval")?,
        max_plies: f.number("max_plies")?,
        time_margin_ms: f.number("time_margin_ms")?,
        draw: f.nested("draw", |d| {
            Ok(DrawAdjudication {
                move_number: d.number("move_number")?,
                move_count: d.number("move_count")?,
                score: d.number("score")?,
            })
        })?,
        resign: f.nested("resign", |r| {
            Ok(ResignAdjudication {
                move_count: r.number("move_count")?,
                score: r.number("score")?,
                two_sided: r.bool("two_sided")?,
            })
        })?,
        entering_king_rule: f.get("entering_king_rule", "a rule's name", |v| {
            v.as_str()?.parse().ok()
        })?,
        // Not in the state files of earlier versions: refused, as they did.
        send_undeclared_options: match f.value.get("send_undeclared_options") {
            None => false,
            Some(_) => f.bool("send_undeclared_options")?,
        },
        // Not in the state files of earlier versions: refused, as they did.
        send_option_values_as_written: match f.value.get("send_option_values_as_written") {
            None => false,
            Some(_) => f.bool("send_option_values_as_written")?,
        },
        startup_ms: f.number("startup_ms")?,
        ready_ms: f.number("ready_ms")?,
        records: f.maybe("records", "a string", path)?,
        records_format: f.named("records_format", &RecordFormat::ALL)?,
        results: f.maybe("results", "a string", path)?,
        // Not in the state files of earlier versions.
        report: match f.value.get("report") {
            None => None,
            Some(_) => f.maybe("report", "a string", path)?,
        },
        command: match f.value.get("command") {
            None => None,
            Some(_) => f.maybe("command", "a string", |v| v.as_str().map(String::from))?,
        },
        max_failures: f.number("max_failures")?,
        pgn: f.nested("pgn", read_pgn)?,
        output_style: f.get("output_style", "saikoro or shogitest", |v| {
            v.as_str()?.parse().ok()
        })?,
        ..MatchConfig::default()
    })
}

/// Reads back what [`config_to_json`] wrote; the error names the member that is wrong.
pub fn config_from_json(text: &str) -> Result<MatchConfig, String> {
    let v = Json::parse(text).map_err(|e| e.to_string())?;
    config_from_value(&v)
}

/// Reads back what [`config_value`] made.
pub(super) fn config_from_value(v: &Json) -> Result<MatchConfig, String> {
    read_config(&Fields::new(v, "match".to_string())?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::output::style::OutputStyle;
    use crate::tournament::stats::sprt::SprtModel;
    use crate::EnteringKingRule;

    /// An engine with every field set, `i` making each one's values its own.
    fn full_engine(i: u64) -> EngineConfig {
        EngineConfig {
            name: Some(format!("engine \"{i}\" 王")),
            command: EngineCommand {
                program: format!("./eng{i}"),
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

    #[test]
    fn the_wrong_member_is_named() {
        let text = config_to_json(&full_config()).replace("\"games\":3", "\"games\":\"3\"");
        assert_eq!(
            config_from_json(&text),
            Err("match.games: expected a number".to_string())
        );
        let text = config_to_json(&full_config()).replace("\"ponder\":true", "\"pondr\":true");
        assert_eq!(
            config_from_json(&text),
            Err("match.engines[0].ponder: missing".to_string())
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
            Err("match.engines[0].restart: expected true or false".to_string())
        );
    }
}
