//! fastchess's command line (its `man.md`): single-dash flags such as `-engine`, `-each`,
//! `-rounds`, `-repeat`, `-srand`, `-maxmoves`, `-pgnout`, `-recover`, translated into
//! `saikoro match`'s two-dash flags with fastchess's meanings. They mix freely with ours: a
//! word that starts with two dashes is left as it is.
//!
//! Engine words (in `-engine`/`-each` and in ours): `st=SECONDS` becomes `movetime=MS`,
//! `tc=inf` means no clock, `proto=usi` is accepted, `plies=N` is `depth=N`, and
//! `timemargin=MS` (per engine in fastchess) becomes the match's `--timemargin`, the largest
//! given.

use saikoro_match::words::KeyValue;
use std::ffi::OsString;

use super::{
    did_you_mean, engine_option_word, is_single_dash_flag, take_value, take_words, DialectError,
    AS_WRITTEN,
};

/// How a fastchess flag is read and what it becomes.
enum Flag {
    /// The same flag with two dashes, with the words after it.
    Words(&'static str),
    /// The same flag with two dashes, with one value.
    Value(&'static str),
    /// Fixed words in our dialect, no value.
    Fixed(&'static [&'static str]),
    /// Accepted and ignored (with this many values: 0 or 1, or the words after it).
    Ignored(Arity),
    /// Refused, with the reason.
    Refused(&'static str),
    /// Read by its own rule.
    Special,
}

/// How many values an ignored flag takes.
#[derive(Clone, Copy)]
enum Arity {
    /// None.
    Zero,
    /// One.
    One,
    /// The `key=value` words after it.
    Words,
}

/// Why `-tb` and its kin are refused.
const NO_TABLEBASES: &str = "Syzygy tablebases are for chess; shogi has none";

/// Why flags of fastchess's own tooling are refused.
const UNSUPPORTED: &str = "not supported here";

/// Every fastchess flag and what it is here.
const FLAGS: &[(&str, Flag)] = &[
    ("engine", Flag::Words("--engine")),
    ("each", Flag::Words("--each")),
    ("rounds", Flag::Value("--rounds")),
    ("games", Flag::Value("--games")),
    ("repeat", Flag::Fixed(&["--games", "2"])),
    ("concurrency", Flag::Value("--concurrency")),
    ("force-concurrency", Flag::Fixed(&["--force-concurrency"])),
    ("openings", Flag::Words("--openings")),
    ("srand", Flag::Value("--seed")),
    ("maxmoves", Flag::Special),
    ("pgnout", Flag::Words("--pgnout")),
    ("event", Flag::Value("--event")),
    ("site", Flag::Value("--site")),
    ("resign", Flag::Words("--resign")),
    ("draw", Flag::Words("--draw")),
    ("sprt", Flag::Words("--sprt")),
    ("ratinginterval", Flag::Value("--ratinginterval")),
    ("recover", Flag::Fixed(&["--max-failures", "0"])),
    ("noswap", Flag::Fixed(&["--noswap"])),
    ("log", Flag::Special),
    ("testEnv", Flag::Ignored(Arity::Zero)),
    ("variant", Flag::Special),
    ("tournament", Flag::Special),
    ("seeds", Flag::Special),
    ("startup-ms", Flag::Value("--startup-ms")),
    ("ucinewgame-ms", Flag::Value("--ready-ms")),
    ("ping-ms", Flag::Value("--ready-ms")),
    ("report", Flag::Ignored(Arity::Words)),
    ("autosaveinterval", Flag::Ignored(Arity::One)),
    ("scoreinterval", Flag::Ignored(Arity::One)),
    ("version", Flag::Fixed(&["--version"])),
    ("help", Flag::Fixed(&["--help"])),
    ("tb", Flag::Refused(NO_TABLEBASES)),
    ("tbpieces", Flag::Refused(NO_TABLEBASES)),
    ("tbignore50", Flag::Refused(NO_TABLEBASES)),
    ("tbadjudicate", Flag::Refused(NO_TABLEBASES)),
    (
        "config",
        Flag::Refused("the match state is saved after every game: continue it with --resume"),
    ),
    (
        "output",
        Flag::Refused("the game lines and the table are fastchess's layout already"),
    ),
    (
        "epdout",
        Flag::Refused("EPD is chess; use --records DIR (CSA or KIF) or --pgnout"),
    ),
    (
        "quick",
        Flag::Refused("give the engines, --each tc=… and --openings instead"),
    ),
    ("reverse", Flag::Refused(UNSUPPORTED)),
    ("wait", Flag::Refused(UNSUPPORTED)),
    ("crc32", Flag::Refused(UNSUPPORTED)),
    ("strict", Flag::Refused(UNSUPPORTED)),
    ("show-latency", Flag::Refused(UNSUPPORTED)),
    ("check-mate-pvs", Flag::Refused(UNSUPPORTED)),
    (
        "use-affinity",
        Flag::Refused("CPU affinity is not supported here (shogitest's -cpu-affinity is)"),
    ),
    (
        "compliance",
        Flag::Refused("use `saikoro check -- ENGINE` to check an engine"),
    ),
];

/// The help of this dialect: fastchess's flags in its style, each with what it is here, made
/// from [`FLAGS`] (what the parser reads).
pub fn help() -> String {
    let mut h = String::from(
        "saikoro match: fastchess's flags, read with fastchess's meanings; they mix freely with\n\
         saikoro match's own two-dash flags (saikoro match --help)\n\n\
         Usage: saikoro match -engine cmd=A -engine cmd=B -each tc=10+0.1 -rounds 100 -repeat\n\n\
         Flags:\n",
    );
    let entries = FLAGS.iter().map(|(name, kind)| {
        let (args, meaning) = describe(name, kind);
        (format!("-{name} {args}").trim_end().to_string(), meaning)
    });
    h.push_str(&super::help_entries(entries));
    h.push_str(
        "\nEngine words (in -engine and -each): st=SECONDS (movetime), tc=inf (no clock),\n\
         proto=usi, plies=N (depth), timemargin=MS (the match's --timemargin, the largest\n\
         given), restart=on|off, option.NAME=VALUE; the rest as saikoro match reads them.\n",
    );
    h
}

/// The words a flag takes and what it does here, for [`help`].
fn describe(name: &str, kind: &Flag) -> (&'static str, String) {
    match kind {
        Flag::Words(ours) if matches!(name, "engine" | "each") => {
            ("KEY=VALUE...", format!("as {ours} (engine words below)"))
        }
        Flag::Words(ours) => ("KEY=VALUE...", format!("as {ours}")),
        Flag::Value(ours) => ("VALUE", format!("as {ours}")),
        Flag::Fixed(["--help"]) => ("", "this list".into()),
        Flag::Fixed(words) => ("", format!("as {}", words.join(" "))),
        Flag::Ignored(Arity::Zero) => ("", "accepted and ignored".into()),
        Flag::Ignored(Arity::One) => ("VALUE", "accepted and ignored".into()),
        Flag::Ignored(Arity::Words) => ("KEY=VALUE...", "accepted and ignored".into()),
        Flag::Refused(reason) => ("", format!("refused: {reason}")),
        Flag::Special => match name {
            "maxmoves" => (
                "N",
                "as --maxplies 2N (fastchess counts moves of both sides)".into(),
            ),
            "log" => (
                "file=F [level=L] [engine=true]",
                "as --log-file F --log-level: trace, info, warn (the default), err, fatal; \
                 engine=true adds the USI exchange"
                    .into(),
            ),
            "variant" => ("standard", "standard shogi, the only variant".into()),
            "tournament" => ("roundrobin|gauntlet", "gauntlet is --gauntlet".into()),
            "seeds" => ("1", "the gauntlet's one seed engine (the first)".into()),
            _ => ("", String::new()),
        },
    }
}

/// The names of fastchess's flags (for hints).
pub fn flag_names() -> impl Iterator<Item = &'static str> {
    FLAGS.iter().map(|(n, _)| *n)
}

/// Reads the engine words of fastchess (see the module's doc) into ours; the largest
/// `timemargin=` goes to `margin`. A word that is not UTF-8 (a path) passes untouched: which
/// words may be is the match's to say.
pub fn engine_words(
    words: Vec<OsString>,
    margin: &mut Option<u64>,
) -> Result<Vec<OsString>, DialectError> {
    let mut out = Vec::with_capacity(words.len());
    for word in words {
        let Some(w) = word.to_str() else {
            out.push(word);
            continue;
        };
        let bad = |reason: String| DialectError::BadValue {
            flag: w.to_string(),
            reason,
        };
        let Some((k, v)) = w.split_once('=') else {
            out.push(word);
            continue;
        };
        match k {
            "st" => {
                let s: f64 = v
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| bad("st= is seconds per move, e.g. st=0.5".into()))?;
                out.push(format!("movetime={}", (s * 1000.0).round() as u64).into());
            }
            "tc" if v.eq_ignore_ascii_case("inf") || v.eq_ignore_ascii_case("infinite") => {}
            "tc" if v.contains('/') => {
                return Err(bad(
                    "moves per period (tc=MOVES/TIME) cannot be sent: USI has no movestogo; use \
                     tc=SECONDS+INC or tc=SECONDS byoyomi=SECONDS"
                        .into(),
                ))
            }
            "proto" if v.eq_ignore_ascii_case("usi") => {}
            "proto" => {
                return Err(bad(
                    "saikoro match drives USI engines only (proto=usi)".into()
                ))
            }
            "timemargin" => {
                let ms: u64 = v
                    .parse()
                    .map_err(|_| bad("timemargin= is milliseconds".into()))?;
                *margin = Some(margin.map_or(ms, |m| m.max(ms)));
            }
            "plies" => out.push(format!("depth={v}").into()),
            "restart" if v == "on" || v == "off" => out.push(word),
            "restart" => return Err(bad("restart= is on or off".into())),
            _ => out.push(engine_option_word(w).into()),
        }
    }
    Ok(out)
}

/// Translates a command line that may hold fastchess's flags into ours. Words with two dashes
/// (and their values) pass unchanged, except that engine words are read as fastchess's; one of
/// `ours` (our flags' names) spelled with one dash that fastchess does not have is taken as
/// ours (`-maxplies 100`). The words are as the system gave them: a word that is not UTF-8 (a
/// path: which ones may be is the match's to say) is never a flag, and passes untouched, as
/// every value does.
pub fn translate(args: Vec<OsString>, ours: &[&str]) -> Result<Vec<OsString>, DialectError> {
    let mut out: Vec<OsString> = Vec::with_capacity(args.len());
    let mut margin = None;
    // Whether an engine was given fastchess's way (`-engine`, `-each`): its options are then
    // sent as a farm's runner sends them: as written, undeclared ones and values the engine
    // rules out with a warning.
    let mut fastchess_engines = false;
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let single = a.to_str().filter(|a| is_single_dash_flag(a));
        if a == "--engine" || a == "--each" {
            out.push(a.clone());
            out.extend(engine_words(take_words(&args, &mut i), &mut margin)?);
        } else if let Some(f) = single.filter(|f| !is_fastchess(&f[1..]) && ours.contains(&&f[1..]))
        {
            out.push(format!("-{f}").into());
        } else if let Some(f) = single {
            fastchess_engines |= f == "-engine" || f == "-each";
            flag(&args, &mut i, &mut out, &mut margin).map_err(|e| match e {
                DialectError::Unknown { flag, hint: None } => DialectError::Unknown {
                    hint: did_you_mean(&flag, ours.iter().copied()).map(|h| format!("--{h}")),
                    flag,
                },
                other => other,
            })?;
        } else {
            out.push(a.clone());
        }
        i += 1;
    }
    if let Some(ms) = margin {
        // First, so that an explicit --timemargin given later wins.
        out.splice(0..0, ["--timemargin".into(), ms.to_string().into()]);
    }
    if fastchess_engines {
        for flag in AS_WRITTEN {
            if !out.iter().any(|w| w == flag) {
                out.push(flag.into());
            }
        }
    }
    Ok(out)
}

/// Whether fastchess has the flag `name`.
fn is_fastchess(name: &str) -> bool {
    FLAGS.iter().any(|(n, _)| *n == name)
}

/// One fastchess flag at `args[*i]` (a word of text) into `out`.
fn flag(
    args: &[OsString],
    i: &mut usize,
    out: &mut Vec<OsString>,
    margin: &mut Option<u64>,
) -> Result<(), DialectError> {
    let given = args[*i].to_string_lossy().into_owned();
    let name = &given[1..];
    let Some((_, kind)) = FLAGS.iter().find(|(n, _)| *n == name) else {
        return Err(DialectError::Unknown {
            hint: did_you_mean(name, flag_names()).map(|h| format!("-{h}")),
            flag: given,
        });
    };
    match kind {
        Flag::Words(ours) => {
            let words = take_words(args, i);
            out.push(ours.into());
            if matches!(name, "engine" | "each") {
                out.extend(engine_words(words, margin)?);
            } else {
                out.extend(words);
            }
        }
        Flag::Value(ours) => {
            let v = take_value(args, i)?;
            out.extend([ours.into(), v]);
        }
        Flag::Fixed(words) => out.extend(words.iter().map(OsString::from)),
        Flag::Ignored(Arity::Zero) => {}
        Flag::Ignored(Arity::One) => {
            take_value(args, i)?;
        }
        Flag::Ignored(Arity::Words) => {
            take_words(args, i);
        }
        Flag::Refused(reason) => {
            return Err(DialectError::Refused {
                flag: given.clone(),
                reason,
            })
        }
        Flag::Special => special_flag(name, &given, args, i, out)?,
    }
    Ok(())
}

/// A fastchess flag of its own kind (`name`, given as `given`) at `args[*i]` into `out`: a
/// count of moves to turn into plies, a log file, or a variant, tournament or seeds that are
/// the only ones here.
fn special_flag(
    name: &str,
    given: &str,
    args: &[OsString],
    i: &mut usize,
    out: &mut Vec<OsString>,
) -> Result<(), DialectError> {
    let bad = |reason: &str| DialectError::BadValue {
        flag: given.to_string(),
        reason: reason.to_string(),
    };
    // A value that must be text: one that is not UTF-8 is shown as well as it can be.
    let text = |i: &mut usize| take_value(args, i).map(|v| v.to_string_lossy().into_owned());
    match name {
        "maxmoves" => {
            // fastchess counts moves of both sides: N moves are 2N plies.
            let v = text(i)?;
            let n: u32 = v.parse().map_err(|_| bad("needs a number of moves"))?;
            out.extend(["--maxplies".into(), (2 * n).to_string().into()]);
        }
        "log" => {
            let words = take_words(args, i);
            // The file is a path, any bytes, as --log-file's.
            let file = words
                .iter()
                .find_map(|w| {
                    KeyValue::split(w)
                        .ok()
                        .flatten()
                        .filter(|w| w.key() == "file")
                })
                .ok_or_else(|| bad("needs file=NAME"))?;
            out.extend(["--log-file".into(), file.path().into_os_string()]);
            let level = log_level(&words).map_err(|e| bad(&e))?;
            out.extend(["--log-level".into(), level.into()]);
        }
        "variant" => match text(i)?.as_str() {
            "standard" => {}
            "fischerandom" => {
                return Err(DialectError::Refused {
                    flag: "-variant fischerandom".into(),
                    reason: "Fischer random is chess; shogi has one start position \
                         (use --openings for others)",
                })
            }
            other => {
                return Err(bad(&format!(
                    "unknown variant {other:?} (standard is the one here)"
                )))
            }
        },
        "tournament" => match text(i)?.as_str() {
            "roundrobin" => {}
            "gauntlet" => out.push("--gauntlet".into()),
            other => return Err(bad(&format!("{other:?}: expected roundrobin or gauntlet"))),
        },
        "seeds" => {
            if text(i)? != "1" {
                return Err(bad("the gauntlet here has one seed engine (the first)"));
            }
        }
        _ => unreachable!("every special flag is read above"),
    }
    Ok(())
}

/// fastchess's `-log` words `level=` and `engine=` as our `--log-level`: its levels are
/// `trace`, `info`, `warn` (its default), `err` and `fatal` (our `error`: we have no level
/// above it); `engine=true` adds the exchange with the engines, which is our `debug` level.
/// Words that are not UTF-8 (the file) are not these.
fn log_level(words: &[OsString]) -> Result<String, String> {
    let mut level = "warn";
    let mut engine = false;
    for w in words.iter().filter_map(|w| w.to_str()) {
        match w.split_once('=') {
            Some(("level", v)) => {
                level = match v {
                    "trace" | "debug" | "info" | "warn" => v,
                    "err" | "error" | "fatal" => "error",
                    _ => {
                        return Err(format!(
                            "level={v}: expected trace, info, warn, err or fatal"
                        ))
                    }
                }
            }
            Some(("engine", v)) => engine = v == "true",
            _ => {}
        }
    }
    let detailed = |l: &str| ["trace", "debug"].contains(&l);
    Ok(if engine && !detailed(level) {
        "debug"
    } else {
        level
    }
    .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<OsString> {
        s.split_whitespace().map(OsString::from).collect()
    }

    /// Some of our flags, as the match's --help names them.
    const OURS: &[&str] = &["engine", "maxplies", "seed", "records", "timemargin"];

    /// The translation of `s`, as text.
    fn ours(s: &str) -> String {
        let out = translate(words(s), OURS).unwrap();
        let out: Vec<String> = out.into_iter().map(|w| w.into_string().unwrap()).collect();
        out.join(" ")
    }

    #[test]
    fn the_man_pages_example() {
        assert_eq!(
            ours(
                "-engine cmd=Engine1.exe name=Engine1 -engine cmd=Engine2.exe name=Engine2 \
                 -openings file=book.epd format=epd order=random -each tc=60+0.6 \
                 option.Hash=64 -rounds 200 -repeat -concurrency 4"
            ),
            "--engine cmd=Engine1.exe name=Engine1 --engine cmd=Engine2.exe name=Engine2 \
             --openings file=book.epd format=epd order=random --each tc=60+0.6 option.Hash=64 \
             --rounds 200 --games 2 --concurrency 4 --send-undeclared-options \
             --send-option-values-as-written"
        );
    }

    #[test]
    fn engine_words_and_the_margin() {
        assert_eq!(
            ours("-engine cmd=a st=0.25 proto=usi timemargin=100 -engine cmd=b tc=inf nodes=5 timemargin=250 plies=3"),
            "--timemargin 250 --engine cmd=a movetime=250 --engine cmd=b nodes=5 depth=3 \
             --send-undeclared-options --send-option-values-as-written"
        );
        // The worker's doubled prefix; ours alone keep refusing undeclared options.
        assert_eq!(
            ours("--engine cmd=a nodes=1 option.option.EnteringKingRule=CSARule24"),
            "--engine cmd=a nodes=1 option.EnteringKingRule=CSARule24"
        );
        // Ours pass, with engine words read the same way; an explicit margin comes later.
        assert_eq!(
            ours("--engine cmd=a st=1 timemargin=5 --timemargin 9 --rounds 3"),
            "--timemargin 5 --engine cmd=a movetime=1000 --timemargin 9 --rounds 3"
        );
    }

    #[test]
    fn meanings_of_the_other_flags() {
        assert_eq!(ours("-maxmoves 100"), "--maxplies 200");
        assert_eq!(
            ours("-srand 42 -recover -noswap"),
            "--seed 42 --max-failures 0 --noswap"
        );
        assert_eq!(ours("-variant standard -testEnv"), "");
        assert_eq!(ours("-force-concurrency"), "--force-concurrency");
        // fastchess's levels (its man page); warn by default, engine=true adds the exchange.
        for (words, level) in [
            ("level=trace engine=true", "trace"),
            ("level=info", "info"),
            ("", "warn"),
            ("level=err", "error"),
            ("level=fatal", "error"),
            ("level=info engine=true", "debug"),
        ] {
            assert_eq!(
                ours(&format!("-log file=x.log {words}")),
                format!("--log-file x.log --log-level {level}")
            );
        }
        let err = translate(words("-log file=x level=loud"), OURS).unwrap_err();
        assert!(
            err.to_string().contains("expected trace, info, warn"),
            "{err}"
        );
        assert_eq!(
            ours("-draw movenumber=40 movecount=8 score=-5"),
            "--draw movenumber=40 movecount=8 score=-5"
        );
        assert_eq!(ours("-tournament gauntlet -seeds 1"), "--gauntlet");
        // Ours with one dash, when fastchess has no such flag.
        assert_eq!(ours("-maxplies 90 -records d"), "--maxplies 90 --records d");
        assert_eq!(
            ours("-pgnout file=a.pgn nodes=true"),
            "--pgnout file=a.pgn nodes=true"
        );
    }

    #[test]
    fn refusals_and_hints() {
        let err = |s: &str| translate(words(s), OURS).unwrap_err().to_string();
        assert_eq!(
            err("-tb /syzygy"),
            "-tb is refused: Syzygy tablebases are for chess; shogi has none"
        );
        assert!(err("-variant fischerandom").contains("Fischer random is chess"));
        assert!(err("-engine cmd=x tc=40/60").contains("USI has no movestogo"));
        assert!(err("-engine cmd=x proto=uci").contains("USI engines only"));
        assert_eq!(
            err("-concurency 2"),
            "unknown flag -concurency (did you mean -concurrency?)"
        );
        assert_eq!(
            err("-roudns 2"),
            "unknown flag -roudns (did you mean -rounds?)"
        );
        assert_eq!(err("-rounds"), "-rounds: needs a value");
        assert_eq!(
            err("-recrods d"),
            "unknown flag -recrods (did you mean --records?)"
        );
        assert!(err("-engine cmd=x st=fast").contains("seconds per move"));
    }

    /// Every flag of ours this dialect writes is one of the match's (its table): the flags it
    /// translates fastchess's into, those it adds, and those of its own rules.
    #[test]
    fn it_writes_the_matchs_flags() {
        let ours = crate::cli::tournament::flag_names();
        let mut written: Vec<OsString> = AS_WRITTEN.iter().map(OsString::from).collect();
        for (_, kind) in FLAGS {
            match kind {
                Flag::Words(f) | Flag::Value(f) => written.push(f.into()),
                Flag::Fixed(w) => written.extend(w.iter().map(OsString::from)),
                _ => {}
            }
        }
        let special = "-maxmoves 5 -log file=x -tournament gauntlet -engine cmd=a timemargin=3";
        written.extend(translate(words(special), &ours).unwrap());
        let flags: Vec<&str> = written
            .iter()
            .filter_map(|w| w.to_str()?.strip_prefix("--"))
            .collect();
        assert!(flags.len() > 20, "{flags:?}");
        for f in flags {
            assert!(ours.contains(&f), "--{f} is no flag of saikoro match");
        }
    }

    /// A word that is not UTF-8 passes untouched, wherever it is: a value of ours or of
    /// fastchess's, or an engine word; `-log`'s file is a path too.
    #[cfg(unix)]
    #[test]
    fn words_that_are_not_utf8_pass_untouched() {
        use std::os::unix::ffi::OsStrExt;
        let bytes = |b: &[u8]| std::ffi::OsStr::from_bytes(b).to_os_string();
        let args = vec![
            bytes(b"-pgnout"),
            bytes(b"file=\xFF.pgn"),
            bytes(b"--results"),
            bytes(b"\xFE"),
            bytes(b"-engine"),
            bytes(b"cmd=a"),
            bytes(b"dir=\xFD"),
            bytes(b"st=1"),
            bytes(b"-log"),
            bytes(b"file=l\xFC"),
            bytes(b"engine=true"),
        ];
        let out = translate(args, OURS).unwrap();
        let expected = [
            &b"--pgnout"[..],
            b"file=\xFF.pgn",
            b"--results",
            b"\xFE",
            b"--engine",
            b"cmd=a",
            b"dir=\xFD",
            b"movetime=1000",
            b"--log-file",
            b"l\xFC",
            b"--log-level",
            b"debug",
            b"--send-undeclared-options",
            b"--send-option-values-as-written",
        ];
        let out: Vec<&[u8]> = out.iter().map(|w| w.as_bytes()).collect();
        assert_eq!(out, expected);
    }
}
