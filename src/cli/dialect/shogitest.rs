//! shogitest's command line (87flowers/shogitest and nodchip's fork, `src/cli.rs`), as the
//! ShogiBench worker builds it (`Client/worker.py`, `MatchRunner`):
//!
//! ```text
//! shogitest-ob -repeat -recover -variant standard -testEnv -concurrency C -games G
//!   [-cpu-affinity 2,4,...] [-resign ...] [-draw ...]
//!   -engine dir=Engines/ cmd=./A proto=usi tc=8.00+0.08 timemargin=250 ponder=off
//!           option.USI_Hash=16 name=E-dev
//!   -engine ... name=E-base
//!   -openings file=Books/SHOGI.x.sfen.epd format=epd order=random start=S -srand SEED
//!   -pgnout file=PGNs/T.R.TIME.I.pgn seldepth=true nodes=true
//! ```
//!
//! Its words differ from fastchess's: `-rounds N` is the games per opening (even, 2 by
//! default: our `--games`), `-games N` the number of times that is repeated (our `--rounds`);
//! `st=MS` is whole milliseconds; `tc=` is Fischer (`MIN:SEC+INC`, `SEC+INC`), byoyomi
//! (`SEC,BYO`), `movetime=SEC` or `N=NODES`; `nodes=N` is itself the time control (the last of
//! `tc`, `st`, `nodes` counts); `ponder=off|standard|early`; `-each` words are applied after
//! each engine's own. The translation adds `--output-style shogitest`: the game lines' reasons
//! and the PGN file in shogitest's words and layout. Words with two dashes are `saikoro
//! match`'s own flags (`--results FILE`, `--records DIR`, `--log-file FILE`) and pass as they
//! are.

use super::{did_you_mean, engine_option_word, take_value, take_words, DialectError, AS_WRITTEN};
use anyhow::Context;
use std::ffi::OsString;
use std::process::ExitCode;

/// What a shogitest flag becomes in `saikoro match`'s command line.
#[derive(Clone, Copy)]
enum Becomes {
    /// Our flag of this name, with the one value after it.
    Value(&'static str),
    /// Our flag of this name, with the words after it.
    Words(&'static str),
    /// Read by its own rule ([`shogitest_flag`]).
    Own,
}

/// shogitest's flags: each name, the words after it, what it does here and what it becomes (the
/// help text is made from this table, and the parser accepts exactly its names).
const FLAGS: &[(&str, &str, &str, Becomes)] = &[
    ("help", "", "this list (also --help, -h)", Becomes::Own),
    (
        "version",
        "",
        "shogitest's version line (the number the ShogiBench worker checks)",
        Becomes::Own,
    ),
    (
        "variant",
        "standard",
        "standard shogi, the only variant",
        Becomes::Own,
    ),
    (
        "event",
        "NAME",
        "the PGN file's Event header",
        Becomes::Value("event"),
    ),
    (
        "site",
        "NAME",
        "the PGN file's Site header",
        Becomes::Value("site"),
    ),
    (
        "engine",
        "KEY=VALUE...",
        "one engine: cmd=PROG dir=DIR name=NAME option.NAME=VALUE (option.option.NAME too) \
         tc=TC st=MS nodes=N timemargin=MS ponder=off|standard|early proto=usi restart=on|off; \
         TC is MIN:SEC+INC, SEC+INC, SEC,BYOYOMI, movetime=SEC or N=NODES; the last of tc, st \
         and nodes counts",
        Becomes::Own,
    ),
    (
        "each",
        "KEY=VALUE...",
        "words for every engine, applied after each one's own",
        Becomes::Own,
    ),
    (
        "openings",
        "file=F [format=epd] [order=sequential|random] [start=N]",
        "the opening positions (SFEN lines)",
        Becomes::Words("openings"),
    ),
    (
        "concurrency",
        "N",
        "games played at once [1]",
        Becomes::Value("concurrency"),
    ),
    (
        "srand",
        "N",
        "the seed of order=random",
        Becomes::Value("seed"),
    ),
    (
        "games",
        "N",
        "how many times the openings are played [until the SPRT or Ctrl-C]",
        Becomes::Own,
    ),
    ("rounds", "N", "games per opening, even [2]", Becomes::Own),
    (
        "repeat",
        "",
        "two games per opening, colours swapped",
        Becomes::Own,
    ),
    (
        "pgnout",
        "file=F [seldepth=true] [nodes=true]",
        "every game in one PGN file, in shogitest's layout",
        Becomes::Words("pgnout"),
    ),
    (
        "maxmoves",
        "N|inf",
        "a draw after N plies [512]",
        Becomes::Own,
    ),
    (
        "draw",
        "movenumber=N movecount=N score=CP",
        "draw adjudication by score",
        Becomes::Words("draw"),
    ),
    (
        "resign",
        "movecount=N score=CP [twosided=true]",
        "resign adjudication by score",
        Becomes::Words("resign"),
    ),
    (
        "ratinginterval",
        "N",
        "the statistics every N games [10]",
        Becomes::Value("ratinginterval"),
    ),
    (
        "sprt",
        "elo0=E0 elo1=E1 [alpha=A] [beta=B] [model=normalized|logistic|bayesian]",
        "stop at an SPRT bound",
        Becomes::Words("sprt"),
    ),
    (
        "testEnv",
        "",
        "no interval reports (the statistics at the end only)",
        Becomes::Own,
    ),
    (
        "recover",
        "",
        "an engine that keeps failing does not end the match",
        Becomes::Own,
    ),
    (
        "cpu-affinity",
        "LIST",
        "run the match and its engines on these CPUs (2,4,6 or 0-3; Linux)",
        Becomes::Value("cpu-affinity"),
    ),
    (
        "ruleprofile",
        "ID",
        "the farm's rule profile, one of",
        Becomes::Own,
    ),
];

/// The names of shogitest's flags.
fn flag_names() -> impl Iterator<Item = &'static str> {
    FLAGS.iter().map(|(n, _, _, _)| *n)
}

/// Whether the command line asks for help (`-help`, `--help`, `-h`).
pub fn wants_help(args: &[String]) -> bool {
    args.iter()
        .any(|a| matches!(a.as_str(), "-help" | "--help" | "-h"))
}

/// The help of this dialect, in shogitest's flag style, made from [`FLAGS`].
pub fn help() -> String {
    let mut h = String::from(
        "saikoro shogitest: a match from shogitest's command line, judged by Saikoro\n\n\
         Usage: saikoro shogitest -engine cmd=A tc=10+0.1 -engine cmd=B tc=10+0.1 [FLAGS]\n\
         \x20      (or the binary run as shogitest or shogitest-ob)\n\nFlags:\n",
    );
    let entries = FLAGS.iter().map(|(name, args, meaning, _)| {
        let meaning = match *name {
            "ruleprofile" => {
                let ids: Vec<String> = RULE_PROFILES
                    .iter()
                    .map(|(id, rule)| format!("{id} (entering-king rule {rule})"))
                    .collect();
                format!("{meaning}: {}", ids.join(", "))
            }
            _ => meaning.to_string(),
        };
        (format!("-{name} {args}").trim_end().to_string(), meaning)
    });
    h.push_str(&super::help_entries(entries));
    h.push_str(
        "\nWords with two dashes are saikoro match's own flags and pass as they are\n\
         (--results FILE, --records DIR, --log-file FILE, --state FILE; see saikoro match\n\
         --help). The game lines and the PGN file are in shogitest's words (docs/farm.md).\n",
    );
    h
}

/// The rule profiles `-ruleprofile` knows (the ShogiBench server's ids, `OpenBench/
/// rule_profiles.py`), each with the entering-king rule it names. `canonical-yaneuraou-
/// csarule24-v1` is YaneuraOu's `EnteringKingRule CSARule24` (its `position.cpp`, at the
/// revision the profile pins): a declaration wins with 31 points for either side, the king in
/// the zone, ten other pieces there, not in check. The rest of the profile's rules are
/// Saikoro's own, which are YaneuraOu's: fourfold repetition a draw, perpetual check a loss.
pub const RULE_PROFILES: &[(&str, &str)] = &[("canonical-yaneuraou-csarule24-v1", "CSARule24")];

/// The shogitest version whose command line this dialect reads, printed for `-version`: the
/// ShogiBench worker compares it with the server's `shogitest_min_version` (0.1.1 in
/// ShogiBench's first configurations, 0.1.2 in later ones, whose workers send nodchip's
/// `ponder=` and `-cpu-affinity`, read here).
pub const SHOGITEST_VERSION: &str = "0.1.2";

/// The repetitions played without `-games` (shogitest's "forever"): enough for any SPRT, small
/// enough for the schedule, which lists every game before the first starts.
pub const UNBOUNDED_REPEATS: u32 = 100_000;

/// Whether the command line asks for the version (`-version` or `--version` anywhere, as
/// shogitest reads it before anything else it would refuse).
pub fn wants_version(args: &[String]) -> bool {
    args.iter().any(|a| a == "-version" || a == "--version")
}

/// Whether the program was started under shogitest's name (`shogitest`, `shogitest-ob`,
/// `shogitest.exe`, …), as the ShogiBench worker runs its match runner.
pub fn named_shogitest(argv0: Option<OsString>) -> bool {
    argv0
        .as_deref()
        .map(std::path::Path::new)
        .and_then(|p| p.file_stem())
        .and_then(|s| s.to_str())
        .is_some_and(|s| s.starts_with("shogitest"))
}

/// Runs a match from shogitest's command line; `-version` prints shogitest's version line
/// (the number the worker checks) and Saikoro's.
pub fn main(raw: Vec<OsString>) -> anyhow::Result<ExitCode> {
    let args = crate::cli::tools::utf8_args(raw)?;
    if wants_help(&args) {
        print!("{}", help());
        return Ok(ExitCode::SUCCESS);
    }
    if wants_version(&args) {
        println!(
            "Shogitest version {SHOGITEST_VERSION} (saikoro {}: shogitest's command line, judged by Saikoro)",
            env!("CARGO_PKG_VERSION")
        );
        return Ok(ExitCode::SUCCESS);
    }
    let ours = translate(args)
        .context("bad shogitest arguments")
        .map_err(|e| crate::cli::usage("shogitest", e))?;
    super::super::tournament::run(ours)
}

/// shogitest's `tc=` as our words: `tc=SEC+INC`, `tc=SEC byoyomi=BYO`, `movetime=MS` or
/// `nodes=N`.
fn tc_words(v: &str) -> Option<Vec<String>> {
    let secs = |t: &str| -> Option<f64> {
        let t = t.trim_end_matches(['s', '秒']);
        if t.is_empty() {
            return Some(0.0);
        }
        t.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0)
    };
    // MIN[:分m]SEC: the main time in seconds.
    let main = |t: &str| -> Option<f64> {
        match t.find([':', '分', 'm']) {
            Some(i) => {
                let sep = t[i..].chars().next()?.len_utf8();
                let min: f64 = t[..i].parse().ok()?;
                Some(min * 60.0 + secs(&t[i + sep..])?)
            }
            None => secs(t),
        }
    };
    let ms = |s: f64| (s * 1000.0).round() as u64;
    if let Some(n) = v.strip_prefix("N=") {
        return n.parse::<u64>().ok().map(|n| vec![format!("nodes={n}")]);
    }
    if let Some(t) = v.strip_prefix("movetime=") {
        return secs(t).map(|s| vec![format!("movetime={}", ms(s))]);
    }
    if let Some(i) = v.find([',', '、', ';']) {
        let sep = v[i..].chars().next()?.len_utf8();
        let byo = v[i + sep..].trim_end_matches("未満");
        let (base, byo) = (main(&v[..i])?, secs(byo)?);
        return Some(vec![
            format!("tc={:.3}", base),
            format!("byoyomi={:.3}", byo),
        ]);
    }
    let (base, inc) = match v.split_once('+') {
        Some((b, i)) => (main(b)?, secs(i)?),
        None => (main(v)?, 0.0),
    };
    Some(vec![format!("tc={:.3}+{:.3}", base, inc)])
}

/// One engine's words (its own, then `-each`'s, as shogitest applies them) as ours; its
/// `timemargin=` into `margin` (the largest).
fn engine_words(words: &[String], margin: &mut Option<u64>) -> Result<Vec<String>, DialectError> {
    let mut out = Vec::new();
    // The time control in our words: the last of tc, st, nodes counts, as in shogitest.
    let mut time: Option<Vec<String>> = None;
    for w in words {
        let bad = |reason: &str| DialectError::BadValue {
            flag: w.clone(),
            reason: reason.to_string(),
        };
        let (k, v) = w.split_once('=').ok_or_else(|| bad("not key=value"))?;
        match k {
            "name" | "dir" | "cmd" => out.push(w.clone()),
            _ if k.starts_with("option.") => out.push(engine_option_word(w)),
            // Not shogitest's (it refuses it), but older ShogiBench workers wrote `tc=inf
            // nodes=N` for node-limited tests: no clock, the limit that follows counts.
            "tc" if v.eq_ignore_ascii_case("inf") || v.eq_ignore_ascii_case("infinite") => {}
            "tc" => {
                let t = tc_words(v).ok_or_else(|| {
                    bad("expected MIN:SEC+INC, SEC+INC, SEC,BYOYOMI, movetime=SEC or N=NODES")
                })?;
                time = Some(t);
            }
            "st" => {
                let ms: u64 = v
                    .parse()
                    .map_err(|_| bad("st= is whole milliseconds per move"))?;
                time = Some(vec![format!("movetime={ms}")]);
            }
            "nodes" => {
                let n: u64 = v.parse().map_err(|_| bad("nodes= is a number"))?;
                time = Some(vec![format!("nodes={n}")]);
            }
            "timemargin" => {
                let ms: u64 = v.parse().map_err(|_| bad("timemargin= is milliseconds"))?;
                *margin = Some(margin.map_or(ms, |m| m.max(ms)));
            }
            "restart" if v == "on" || v == "off" => out.push(w.clone()),
            "proto" if v == "usi" => {}
            "ponder" => match v {
                "off" => {}
                // Ours is the standard ponder (go ponder on the expected reply); `early` asks
                // for the same here.
                "standard" | "early" => out.push("ponder".into()),
                _ => return Err(bad("expected off, standard or early")),
            },
            _ => return Err(bad("unknown engine option")),
        }
    }
    if let Some(t) = time {
        out.extend(t);
    }
    absolute_command(&mut out);
    Ok(out)
}

/// The worker's `dir=Engines/ cmd=./ENGINE`: the program is in `dir`. Where a relative program
/// is looked for once the working directory is changed differs between systems (Windows looks
/// from the runner's), so, as nodchip's shogitest does, the program is given by its full path:
/// `dir` joined with `cmd`, made absolute from the runner's directory.
fn absolute_command(words: &mut [String]) {
    let dir = words.iter().rev().find_map(|w| w.strip_prefix("dir="));
    let Some(dir) = dir.map(std::path::PathBuf::from) else {
        return;
    };
    if let Some(cmd) = words.iter_mut().rev().find(|w| w.starts_with("cmd=")) {
        let program = std::path::Path::new(&cmd[4..]);
        let has_dir_part = program.components().count() > 1;
        if program.is_relative() && has_dir_part {
            if let Ok(full) = std::path::absolute(dir.join(program)) {
                *cmd = format!("cmd={}", full.display());
            }
        }
    }
}

/// What shogitest's command line has said so far.
#[derive(Default)]
struct Read {
    /// `saikoro match` arguments, in the order given.
    out: Vec<String>,
    /// Each `-engine`'s words.
    engines: Vec<Vec<String>>,
    /// `-each`'s words, for every engine.
    each: Vec<String>,
    /// `-games`: how many times the openings are repeated.
    games: Option<String>,
    /// `-pgnout`'s file.
    pgn_file: Option<String>,
    /// Whether `--state` was given.
    state_given: bool,
}

/// Translates shogitest's command line into `saikoro match`'s.
pub fn translate(args: Vec<String>) -> Result<Vec<String>, DialectError> {
    let mut read = Read::default();
    let mut i = 0;
    while i < args.len() {
        let given = args[i].clone();
        if given.starts_with("--") {
            // saikoro match's own flags (--results, --records, --log-file, …) pass as they are.
            read.state_given |= given == "--state" || given.starts_with("--state=");
            read.out.push(given.clone());
            read.out.extend(take_words(&args, &mut i));
            i += 1;
            continue;
        }
        let Some(name) = given
            .strip_prefix('-')
            .filter(|n| flag_names().any(|f| f == *n))
        else {
            return Err(DialectError::Unknown {
                hint: did_you_mean(&given, flag_names()).map(|h| format!("-{h}")),
                flag: given,
            });
        };
        shogitest_flag(name, &given, &args, &mut i, &mut read)?;
        i += 1;
    }
    assemble(read)
}

/// One of shogitest's flags (`name`, given as `given`) at `args[*i]` into `read`.
fn shogitest_flag(
    name: &str,
    given: &str,
    args: &[String],
    i: &mut usize,
    read: &mut Read,
) -> Result<(), DialectError> {
    let bad = |reason: &str| DialectError::BadValue {
        flag: given.to_string(),
        reason: reason.to_string(),
    };
    let becomes = FLAGS.iter().find(|f| f.0 == name).map(|f| f.3);
    match becomes {
        Some(Becomes::Value(ours)) => {
            let v = take_value(args, i)?;
            read.out.extend([format!("--{ours}"), v]);
            return Ok(());
        }
        Some(Becomes::Words(ours)) => {
            let w = take_words(args, i);
            if name == "pgnout" {
                read.pgn_file = w
                    .iter()
                    .find_map(|w| w.strip_prefix("file="))
                    .map(String::from);
            }
            read.out.push(format!("--{ours}"));
            read.out.extend(w);
            return Ok(());
        }
        Some(Becomes::Own) | None => {}
    }
    match name {
        "variant" => {
            if take_value(args, i)? != "standard" {
                return Err(bad("shogitest plays standard shogi only"));
            }
        }
        "engine" => read.engines.push(take_words(args, i)),
        "each" => read.each.extend(take_words(args, i)),
        "games" => read.games = Some(take_value(args, i)?),
        "rounds" => {
            let v = take_value(args, i)?;
            let n: u32 = v.parse().map_err(|_| bad("needs a number"))?;
            if n == 0 || !n.is_multiple_of(2) {
                return Err(bad("games per opening must be even and at least 2"));
            }
            read.out.extend(["--games".into(), v]);
        }
        "repeat" => read.out.extend(["--games".into(), "2".into()]),
        "maxmoves" => {
            let v = take_value(args, i)?;
            let n = match v.to_ascii_lowercase().as_str() {
                "inf" | "infinite" => "0".to_string(),
                _ => match v.parse::<u32>() {
                    Ok(n) if n > 0 => n.to_string(),
                    _ => return Err(bad("a number of plies above 0, or inf")),
                },
            };
            read.out.extend(["--maxplies".into(), n]);
        }
        "ruleprofile" => {
            let id = take_value(args, i)?;
            let Some((_, rule)) = RULE_PROFILES.iter().find(|(p, _)| *p == id) else {
                let known: Vec<&str> = RULE_PROFILES.iter().map(|(p, _)| *p).collect();
                return Err(bad(&format!(
                    "unknown rule profile {id:?} (known: {})",
                    known.join(", ")
                )));
            };
            read.out
                .extend(["--entering-king-rule".into(), rule.to_string()]);
        }
        "testEnv" => read.out.extend(["--ratinginterval".into(), "0".into()]),
        "recover" => read.out.extend(["--max-failures".into(), "0".into()]),
        _ => unreachable!("-{name} is in FLAGS"),
    }
    Ok(())
}

/// `saikoro match`'s command line from what was read: the output style, the repetitions, the
/// time margin the engines' words asked for, the engines, the flags, and a state file.
fn assemble(read: Read) -> Result<Vec<String>, DialectError> {
    // Without -games shogitest plays until the SPRT ends it or it is stopped: here until the
    // SPRT, Ctrl-C or UNBOUNDED_REPEATS repetitions.
    let games = read.games.unwrap_or_else(|| UNBOUNDED_REPEATS.to_string());
    let mut margin = None;
    let mut engine_args = Vec::new();
    for own in &read.engines {
        let words: Vec<String> = own.iter().chain(&read.each).cloned().collect();
        engine_args.push("--engine".to_string());
        engine_args.extend(engine_words(&words, &mut margin)?);
    }
    let mut all = vec!["--output-style".to_string(), "shogitest".into()];
    all.extend(AS_WRITTEN.map(String::from));
    all.extend(["--rounds".into(), games]);
    if let Some(ms) = margin {
        all.extend(["--timemargin".into(), ms.to_string()]);
    }
    all.extend(engine_args);
    all.extend(read.out);
    if !read.state_given {
        // The worker runs several runners at once in one directory: each saves its state
        // beside its own PGN file (the worker's name for it is unique), else in a new file of
        // its own in the temporary directory (not one an earlier runner of the same process
        // number left, which a new match would refuse as another match's).
        let state = match read.pgn_file {
            Some(f) => format!("{f}.state"),
            None => (0..)
                .map(|k| {
                    std::env::temp_dir().join(format!(
                        "saikoro-shogitest-{}-{k}.state",
                        std::process::id()
                    ))
                })
                .find(|p| !p.exists())
                .unwrap_or_default()
                .display()
                .to_string(),
        };
        all.extend(["--state".into(), state]);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    /// The command line the ShogiBench worker builds (`build_runner_command`), for a Fischer
    /// test with 2 runners' worth of games on one runner.
    const WORKER: &str = "-repeat -recover -variant standard -testEnv -concurrency 2 -games 8 \
        -engine dir=Engines/ cmd=./A proto=usi tc=8.00+0.08 timemargin=250 ponder=off \
        option.USI_Hash=16 option.Threads=1 name=YaneuraOu-dev \
        -engine dir=Engines/ cmd=./B proto=usi tc=8.00+0.08 timemargin=250 ponder=standard \
        option.USI_Hash=16 option.Threads=1 name=YaneuraOu-base \
        -openings file=Books/SHOGI.startpos.sfen.epd format=epd order=random start=5 \
        -srand 77 -pgnout file=PGNs/1.2.3.0.pgn seldepth=true nodes=true";

    #[test]
    fn the_workers_command_line() {
        let here = std::env::current_dir().unwrap();
        let (a, b) = (here.join("Engines/A"), here.join("Engines/B"));
        assert_eq!(
            translate(words(WORKER)).unwrap().join(" "),
            format!(
                "--output-style shogitest --send-undeclared-options \
             --send-option-values-as-written --rounds 8 --timemargin 250 \
             --engine dir=Engines/ cmd={} option.USI_Hash=16 option.Threads=1 \
             name=YaneuraOu-dev tc=8.000+0.080 \
             --engine dir=Engines/ cmd={} ponder option.USI_Hash=16 option.Threads=1 \
             name=YaneuraOu-base tc=8.000+0.080 \
             --games 2 --max-failures 0 --ratinginterval 0 --concurrency 2 \
             --openings file=Books/SHOGI.startpos.sfen.epd format=epd order=random start=5 \
             --seed 77 --pgnout file=PGNs/1.2.3.0.pgn seldepth=true nodes=true \
             --state PGNs/1.2.3.0.pgn.state",
                a.display(),
                b.display()
            )
        );
    }

    /// The worker of CLIENT_VERSION 40 (`MatchRunner.rule_profile_settings`): the rule
    /// profile, and the server's `option.EnteringKingRule=CSARule24` prefixed once more.
    #[test]
    fn the_rule_profile_and_the_doubled_option_prefix() {
        let t = translate(words(
            "-repeat -ruleprofile canonical-yaneuraou-csarule24-v1 -games 1 \
             -engine cmd=a nodes=1 option.option.EnteringKingRule=CSARule24 option.Seed=1",
        ))
        .unwrap()
        .join(" ");
        assert!(t.contains("--entering-king-rule CSARule24"), "{t}");
        assert!(
            t.contains("option.EnteringKingRule=CSARule24 option.Seed=1"),
            "{t}"
        );
        assert!(!t.contains("option.option."), "{t}");
        let err = translate(words(
            "-ruleprofile legacy-csarule27-unverified-v1 -games 1",
        ))
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            "-ruleprofile: unknown rule profile \"legacy-csarule27-unverified-v1\" \
             (known: canonical-yaneuraou-csarule24-v1)"
        );
    }

    #[test]
    fn time_controls_in_shogitests_words() {
        let tc = |v: &str| tc_words(v).map(|w| w.join(" "));
        assert_eq!(tc("1:30+2").as_deref(), Some("tc=90.000+2.000"));
        assert_eq!(tc("10+0.1").as_deref(), Some("tc=10.000+0.100"));
        assert_eq!(tc("60").as_deref(), Some("tc=60.000+0.000"));
        assert_eq!(tc("5分,10秒").as_deref(), Some("tc=300.000 byoyomi=10.000"));
        assert_eq!(tc("0,1").as_deref(), Some("tc=0.000 byoyomi=1.000"));
        assert_eq!(tc("movetime=0.5").as_deref(), Some("movetime=500"));
        assert_eq!(tc("N=1000").as_deref(), Some("nodes=1000"));
        assert_eq!(tc("fast"), None);
    }

    #[test]
    fn the_last_time_control_counts_and_each_comes_last() {
        let t = translate(words(
            "-games 1 -engine cmd=a tc=10+0.1 st=300 -engine cmd=b nodes=5 -each nodes=100",
        ))
        .unwrap()
        .join(" ");
        assert!(
            t.contains("--engine cmd=a nodes=100 --engine cmd=b nodes=100"),
            "{t}"
        );
        let t = translate(words("-games 1 -engine cmd=a tc=10 st=300"))
            .unwrap()
            .join(" ");
        assert!(t.contains("--engine cmd=a movetime=300"), "{t}");
    }

    #[test]
    fn refusals_and_hints() {
        let err = |s: &str| translate(words(s)).unwrap_err().to_string();
        let t = translate(words("-engine cmd=a nodes=1 -engine cmd=b nodes=1")).unwrap();
        assert_eq!(
            t[4..6],
            ["--rounds", "100000"],
            "without -games: until stopped"
        );
        assert_eq!(err("-game 3"), "unknown flag -game (did you mean -games?)");
        assert!(err("-games 1 -rounds 3").contains("must be even"));
        assert!(err("-games 1 -variant fischerandom").contains("standard shogi only"));
        assert!(err("-games 1 -engine cmd=a st=0.5").contains("whole milliseconds"));
        assert!(err("-games 1 -engine cmd=a ponder=maybe").contains("off, standard or early"));
        assert!(err("-games 1 -engine cmd=a proto=uci").contains("unknown engine option"));
        // Our own flags pass; a state file of this runner's own unless --state says where.
        let t = translate(words("-games 1 --results r.jsonl --log-file l --state s")).unwrap();
        assert!(
            t.join(" ")
                .ends_with("--results r.jsonl --log-file l --state s"),
            "{t:?}"
        );
        let t = translate(words("-games 1")).unwrap();
        let state = std::path::Path::new(t.last().unwrap());
        assert_eq!(t[t.len() - 2], "--state");
        assert!(state.starts_with(std::env::temp_dir()), "{t:?}");
    }

    /// Every flag of ours this dialect writes is one of the match's (its table).
    #[test]
    fn it_writes_the_matchs_flags() {
        let ours = crate::cli::tournament::flag_names();
        let every_flag = "-event E -site S -each nodes=1 -sprt elo0=0 elo1=5 -draw movenumber=1 \
            -resign movecount=1 -ratinginterval 3 -cpu-affinity 0 -maxmoves 9 \
            -ruleprofile canonical-yaneuraou-csarule24-v1";
        let t = translate(words(&format!("{WORKER} {every_flag}"))).unwrap();
        let mut flags: Vec<&str> = t.iter().filter_map(|w| w.strip_prefix("--")).collect();
        assert!(flags.len() > 20, "{flags:?}");
        for (_, _, _, becomes) in FLAGS {
            if let Becomes::Value(ours) | Becomes::Words(ours) = becomes {
                flags.push(ours);
            }
        }
        for f in flags {
            assert!(ours.contains(&f), "--{f} is no flag of saikoro match");
        }
    }
}
