//! `saikoro match`: USI engines against each other, judged by exact rules (the code is the
//! library's `tournament` module, fastchess's word for it). The flags follow
//! fastchess's names and `key=value` words, spelled with two dashes: each is defined once, in
//! [`FLAGS`], which the parser, the help, the hints, the farm dialects and `--resume` read.

use super::flags::{self, Doc, Flag, FlagValue, Step, Takes};
use anyhow::{bail, Context};
use saikoro_core::EnteringKingRule;
use saikoro_match::config::{
    DrawAdjudication, EngineConfig, EngineConfigError, MatchConfig, RecordFormat,
    ResignAdjudication,
};
use saikoro_match::game::book::{BookError, OpeningsConfig, Order};
use saikoro_match::output::pgn::{PgnConfig, PgnConfigError};
use saikoro_match::output::state as resume;
use saikoro_match::output::state::{SavedMatch, SavedSettings};
use saikoro_match::output::style::OutputStyle;
use saikoro_match::run::scheduler;
use saikoro_match::run::scheduler::{Control, Ending, Match, MatchError, Progress};
use saikoro_match::run::standings::Standings;
use saikoro_match::SprtConfig;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// The help before the list of flags.
const HELP_HEAD: &str = "\
saikoro match: play USI engines against each other, judged by exact shogi rules

Usage: saikoro match --engine cmd=PROG [KEY=VALUE...] --engine cmd=PROG [KEY=VALUE...]
                     [--each KEY=VALUE...] [OPTIONS]
       saikoro match --resume [--state FILE] [--concurrency N]

";

/// The help after the list of flags.
const HELP_TAIL: &str = "
fastchess's spellings work too (-engine, -each, -rounds, -repeat, -srand, -maxmoves,
-pgnout, -recover, st=, tc=inf, proto=usi, timemargin=, ...: `saikoro match -help` lists
them), and `saikoro shogitest` reads shogitest's command line (`saikoro shogitest -help`;
see docs/farm.md).

One line per game goes to stdout (`Finished game 17 (new vs old): 1-0 {White's illegal
move 5e5d+}`, Black's engine named first; 1-0 = Black won), then the table. Ctrl-C: no new
games, the running ones finish (a second Ctrl-C ends them, scoring nothing), the engines quit
and the table is printed. Exit status 0 when the match ran to its end or an SPRT bound; 1
when it failed (an engine that cannot be started or fails its first handshake stops it
before any game; --max-failures); 2 for bad flags; 130 after Ctrl-C (docs/exit-status.md).
";

/// The column where the help's meanings start.
const HELP_COLUMN: usize = 26;

/// `saikoro match --help`: made from [`FLAGS`].
fn help() -> String {
    let (may_differ, grows) = (listed(OnResume::MayDiffer), listed(OnResume::Grows));
    let vars = [
        ("MAY_DIFFER", may_differ.as_str()),
        ("GROWS", grows.as_str()),
    ];
    let text = flags::help_sections(FLAGS, HELP_COLUMN, &vars);
    format!("{HELP_HEAD}{text}{HELP_TAIL}")
}

/// What a flag is to `--resume`, which continues the saved match with the flags given.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum OnResume {
    /// It defines the match: given with `--resume`, it must set what the saved match has.
    Same,
    /// It defines the match with another flag, under whose name it is checked (`--each` is
    /// the engines', as `--engine` is).
    SameAs(&'static str),
    /// It defines the match and may grow, to extend it (`--rounds`).
    Grows,
    /// It is how this run goes, not what the match is: it may differ from the saved run's.
    MayDiffer,
    /// It sets nothing of the match (`--help`, `--resume` itself).
    Action,
}

/// The flags with `class`, as a sentence lists them: `--a, --b and --c`.
fn listed(class: OnResume) -> String {
    let names: Vec<String> = FLAGS
        .iter()
        .filter(|f| f.class == class)
        .map(|f| format!("--{}", f.long))
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// The long names of the match's flags: what the farm dialects translate into, and what a
/// single-dash word of fastchess's command line may be.
pub(crate) fn flag_names() -> Vec<&'static str> {
    flags::names(FLAGS).collect()
}

/// One of the match's flags.
type MatchFlag = Flag<Cli, OnResume>;

/// A flag that defines the match, in `section`.
const fn defines(
    section: &'static str,
    long: &'static str,
    takes: Takes,
    doc: Doc,
    set: flags::Set<Cli>,
) -> MatchFlag {
    Flag::new(long, takes, doc, set)
        .class(OnResume::Same)
        .section(section)
}

const ENGINES: &str =
    "Engines (two or more; every pair meets, or the first meets each other with --gauntlet):";
const GAMES: &str = "Games:";
const RULES: &str = "Rules and adjudication:";
const STATISTICS: &str =
    "Statistics (per pairing, from its first engine's point of view, fastchess's layout):";
const OUTPUT: &str = "Output:";

/// The words of `--engine` and `--each`, for the help (`EngineConfig::from_words` reads them).
const ENGINE_WORDS: &[(&str, &str)] = &[
    ("cmd=PROG", "the program (required)"),
    ("args=\"A B\"", "its arguments (split like a shell)"),
    ("dir=DIR", "its working directory"),
    ("name=NAME", "its name in the output [its `id name`]"),
    (
        "option.NAME=VALUE",
        "`setoption` after `usiok`, checked against its `option` lines
(one it does not declare is refused, unless
--send-undeclared-options; a value they rule out too, unless
--send-option-values-as-written; a fraction for a spin is sent,
with a warning, for the engine to round)",
    ),
    (
        "tc=SECONDS[+INC]",
        "clock: sudden death (tc=60), Fischer (tc=60+1); M:SS also works",
    ),
    (
        "byoyomi=SECONDS",
        "byoyomi after the main time (tc=60 byoyomi=5, tc=0 byoyomi=1)",
    ),
    (
        "movetime=MS",
        "a fixed time per move, sent as `btime 0 wtime 0 byoyomi MS`",
    ),
    (
        "nodes=N, depth=N",
        "`go nodes N` / `go depth N` (alone: no clock)",
    ),
    (
        "ponder",
        "think on the opponent's time (if it has USI_Ponder)",
    ),
    (
        "restart=on|off",
        "on: a new engine process for every game [off: kept across
games, started anew only after a failure]",
    ),
];

/// Every flag of `saikoro match`, in the order of its help.
const FLAGS: &[MatchFlag] = &[
    defines(
        ENGINES,
        "engine",
        Takes::Words("KEY=VALUE..."),
        Doc::Text("one engine; its words win over --each's:"),
        |c: &mut Cli, g: FlagValue| {
            c.flags.engines.push(g.os_words());
            Ok(())
        },
    )
    .words(ENGINE_WORDS),
    defines(
        ENGINES,
        "each",
        Takes::Words("KEY=VALUE..."),
        Doc::Text(
            "defaults for every engine (same keys); an engine's own tc,
byoyomi or movetime replaces the whole time control of --each",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.flags.each.extend(g.os_words());
            Ok(())
        },
    )
    .class(OnResume::SameAs("engine")),
    defines(
        ENGINES,
        "gauntlet",
        Takes::Nothing,
        Doc::Text("the first engine against each of the others only"),
        |c: &mut Cli, _| {
            c.flags.config.gauntlet = true;
            Ok(())
        },
    ),
    defines(
        ENGINES,
        "send-undeclared-options",
        Takes::Nothing,
        Doc::Text(
            "send an option.NAME an engine does not declare, with a warning on
stderr, instead of refusing the engine (the farm dialects always do)",
        ),
        |c: &mut Cli, _| {
            c.flags.config.send_undeclared_options = true;
            Ok(())
        },
    ),
    defines(
        ENGINES,
        "send-option-values-as-written",
        Takes::Nothing,
        Doc::Text(
            "send an option.NAME=VALUE whose value the engine's `option` line
rules out as written, with a warning on stderr, instead of
refusing the engine (the farm dialects always do)",
        ),
        |c: &mut Cli, _| {
            c.flags.config.send_option_values_as_written = true;
            Ok(())
        },
    ),
    defines(
        GAMES,
        "rounds",
        Takes::Value("N"),
        Doc::Text("rounds; each plays --games games per pairing [2]"),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.rounds = g.number()?;
            Ok(())
        },
    )
    .class(OnResume::Grows),
    defines(
        GAMES,
        "games",
        Takes::Value("N"),
        Doc::Text(
            "games per pairing and round [2]; the colours alternate from one
game of a pairing to the next (across rounds too), and games
2k-1, 2k of a round are a game pair from one opening
(pentanomial statistics; see Statistics)",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.games = g.number()?;
            Ok(())
        },
    ),
    defines(
        GAMES,
        "noswap",
        Takes::Nothing,
        Doc::Text(
            "keep the colours: the pairing's first engine Black in every game
(no game pairs)",
        ),
        |c: &mut Cli, _| {
            c.flags.config.noswap = true;
            Ok(())
        },
    ),
    defines(
        GAMES,
        "concurrency",
        Takes::Value("N"),
        Doc::Text(
            "games played at once; one engine process per engine per game
slot, kept across games [1]. More than the machine's logical
CPUs is warned about (engines then share CPUs and lose on time)",
        ),
        |c: &mut Cli, g: FlagValue| {
            let n: usize = g.number()?;
            if n == 0 {
                bail!("--concurrency must be at least 1");
            }
            c.concurrency = Some(n);
            Ok(())
        },
    )
    .class(OnResume::MayDiffer),
    defines(
        GAMES,
        "force-concurrency",
        Takes::Nothing,
        Doc::Text("no warning for a --concurrency above the logical CPUs"),
        |c: &mut Cli, _| {
            c.force_concurrency = true;
            Ok(())
        },
    )
    .class(OnResume::MayDiffer),
    defines(
        GAMES,
        "openings",
        Takes::Words("file=F"),
        Doc::Head(
            "--openings file=F [order=sequential|random] [start=N] [plies=N]
           [format=sfen|epd|csa|kif]",
            "one position per line: `startpos` or `sfen SFEN`, either with
`moves ...`, or a bare SFEN; `#` comments. Or game records:
CSA (games separated by `/`) or KIF, UTF-8 or Shift_JIS, each
game cut at plies=N (format from .csa/.kif/.kifu names). Each
round takes the next opening [the start position]",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.openings = Some(OpeningsConfig::parse(g.os_words())?);
            Ok(())
        },
    ),
    defines(
        GAMES,
        "seed",
        Takes::Value("N"),
        Doc::Text("seed of order=random [drawn, and kept with the match state]"),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.seed = Some(g.number()?);
            Ok(())
        },
    ),
    defines(
        RULES,
        "maxplies",
        Takes::Value("N"),
        Doc::Text(
            "a draw after N plies from the start position, unless the last
move mated; 0 = no limit (Floodgate uses 256) [512]",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.max_plies = g.number()?;
            Ok(())
        },
    ),
    defines(
        RULES,
        "entering-king-rule",
        Takes::Value("R"),
        Doc::Text(
            "how `bestmove win` is judged: CSARule27, CSARule24 or
NoEnteringKing [CSARule27, Floodgate's]",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.entering_king_rule = g.number::<EnteringKingRule>()?;
            Ok(())
        },
    ),
    defines(
        RULES,
        "timemargin",
        Takes::Value("MS"),
        Doc::Text("a move may overrun its time by this much without losing [0]"),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.time_margin_ms = g.number()?;
            Ok(())
        },
    ),
    defines(
        RULES,
        "draw",
        Takes::Words("movenumber=N movecount=N score=N"),
        Doc::Text(
            "a draw once both engines' scores stayed within score cp for
movecount moves each, from ply movenumber on",
        ),
        |c: &mut Cli, g: FlagValue| {
            let w = g.words()?;
            c.flags.config.draw = Some(DrawAdjudication::parse(w.iter().map(String::as_str))?);
            Ok(())
        },
    ),
    defines(
        RULES,
        "resign",
        Takes::Words("movecount=N score=N [twosided=true]"),
        Doc::Text(
            "a loss for an engine whose score was -score cp or worse (or a
mate against it) for movecount of its moves in a row",
        ),
        |c: &mut Cli, g: FlagValue| {
            let w = g.words()?;
            let r = ResignAdjudication::parse(w.iter().map(String::as_str))?;
            c.flags.config.resign = Some(r);
            Ok(())
        },
    ),
    defines(
        RULES,
        "startup-ms",
        Takes::Value("MS"),
        Doc::Text("time to answer `usi` [10000]"),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.startup_ms = g.number()?;
            Ok(())
        },
    ),
    defines(
        RULES,
        "ready-ms",
        Takes::Value("MS"),
        Doc::Text(
            "time to answer `isready` or `stop`, and for a move without a
clock [60000]",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.ready_ms = g.number()?;
            Ok(())
        },
    ),
    defines(
        RULES,
        "max-failures",
        Takes::Value("N"),
        Doc::Text(
            "end the match (exit status 1) once an engine has crashed or
not answered in N of its games in a row; 0 = never [3]",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.max_failures = g.number()?;
            Ok(())
        },
    ),
    defines(
        STATISTICS,
        "sprt",
        Takes::Words("elo0=E0 elo1=E1 [alpha=A] [beta=B] [model=normalized|logistic|bayesian]"),
        Doc::Text(
            "the GSPRT of H0 elo=E0 against H1 elo=E1 over the game pairs;
the match ends when a bound is crossed (two engines only)
[alpha 0.05, beta 0.05, model normalized]",
        ),
        |c: &mut Cli, g: FlagValue| {
            let w = g.words()?;
            c.flags.config.sprt = Some(SprtConfig::parse(w.iter().map(String::as_str))?);
            Ok(())
        },
    ),
    defines(
        STATISTICS,
        "ratinginterval",
        Takes::Value("N"),
        Doc::Text("the statistics every N games; 0 = at the end only [10]"),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.rating_interval = g.number()?;
            Ok(())
        },
    ),
    defines(
        STATISTICS,
        "distinct-games",
        Takes::Nothing,
        Doc::Text(
            "count a game that repeats an earlier one move for move once (a
pair: when both its games repeat); without it such games count,
and each block says how many there were
Pentanomial figures when every game counted is in a complete
pair; otherwise (odd --games, --games 1, --noswap, a pair
whose other game was not played) figures from single games,
and a line in the block says how many and why. With three
engines or more, the standings of the field follow the blocks.",
        ),
        |c: &mut Cli, _| {
            c.flags.config.distinct_games = true;
            Ok(())
        },
    ),
    defines(
        OUTPUT,
        "records",
        Takes::Value("DIR"),
        Doc::Text("each game as DIR/game-NNNNN.csa (CSA V2.2)"),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.records = Some(g.path());
            Ok(())
        },
    ),
    defines(
        OUTPUT,
        "records-format",
        Takes::Value("F"),
        Doc::Text(
            "csa, kif (KIF in UTF-8: DIR/game-NNNNN.kifu), ki2 (.ki2u) or
jkf (.jkf) [csa]",
        ),
        |c: &mut Cli, g: FlagValue| {
            let v = g.text()?;
            let name = if v == "kifu" { "kif" } else { v.as_str() };
            c.flags.config.records_format = match RecordFormat::ALL.iter().find(|(n, _)| *n == name)
            {
                Some(&(_, f)) => f,
                None => bail!("--records-format {v:?}: expected csa, kif, ki2 or jkf"),
            };
            Ok(())
        },
    ),
    defines(
        OUTPUT,
        "results",
        Takes::Value("FILE"),
        Doc::Text("one JSON object per game (see docs/match.md)"),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.results = Some(g.path());
            Ok(())
        },
    ),
    defines(
        OUTPUT,
        "report",
        Takes::Value("FILE.html"),
        Doc::Text(
            "the match as one self-contained HTML page (statistics, plots,
every game on a board; see docs/report.md), written at the start,
every --ratinginterval games or 30 s and at the end; while the
match runs it reloads itself every 10 s",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.report = Some(g.path());
            Ok(())
        },
    ),
    defines(
        OUTPUT,
        "pgnout",
        Takes::Words("[file=]FILE [append=true] [min=true] [nodes=true]"),
        Doc::Text(
            "every game in one PGN-style file (USI moves; score, depth,
time per move); a file with another match's games is refused
as --results is, unless append=true adds to it",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.pgn = Some(PgnConfig::parse(g.os_words())?);
            Ok(())
        },
    ),
    defines(
        OUTPUT,
        "event",
        Takes::Value("NAME"),
        Doc::Head(
            "--event NAME, --site NAME",
            "the PGN file's Event and Site headers [?]",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.flags.event = Some(g.text()?);
            Ok(())
        },
    ),
    defines(
        OUTPUT,
        "site",
        Takes::Value("NAME"),
        Doc::Hidden,
        |c: &mut Cli, g: FlagValue| {
            c.flags.site = Some(g.text()?);
            Ok(())
        },
    ),
    defines(
        OUTPUT,
        "output-style",
        Takes::Value("S"),
        Doc::Text(
            "saikoro, or shogitest: the game lines' reasons and the PGN file
in shogitest's words (what the ShogiBench worker reads) [saikoro]",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.flags.config.output_style = g.number()?;
            Ok(())
        },
    ),
    defines(
        OUTPUT,
        "cpu-affinity",
        Takes::Value("LIST"),
        Doc::Text(
            "run the match and its engines on these CPUs (2,4,6 or 0-3;
Linux)",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.cpus = Some(super::affinity::parse_cpus(&g.text()?)?);
            Ok(())
        },
    )
    .class(OnResume::MayDiffer),
    defines(
        OUTPUT,
        "state",
        Takes::Value("FILE"),
        Doc::Text(
            "where the match state is saved after every game
[saikoro-match.state]",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.state = Some(g.path());
            Ok(())
        },
    )
    .class(OnResume::MayDiffer),
    defines(
        OUTPUT,
        "resume",
        Takes::Nothing,
        Doc::Wrapped(
            "continue the match saved in --state (its arguments are used; others given must \
             be the same, except MAY_DIFFER; GROWS may grow, to extend it)",
        ),
        |c: &mut Cli, _| {
            c.resume = true;
            Ok(())
        },
    )
    .class(OnResume::Action),
    defines(
        OUTPUT,
        "overwrite",
        Takes::Nothing,
        Doc::Text(
            "start anew over another match's outputs: --results emptied,
the game records in --records removed, --state replaced,
--report written anew. Without it (or --resume) a match
refuses, before any engine starts, every output that holds
another match's games: its state, results file, records, page
or PGN file (every output: docs/files.md)",
        ),
        |c: &mut Cli, _| {
            c.overwrite = true;
            Ok(())
        },
    )
    .class(OnResume::Action),
    defines(
        OUTPUT,
        "log-file",
        Takes::Value("FILE"),
        Doc::Text(
            "append the log there (debug level: every line sent and received)
[warnings to stderr]",
        ),
        |c: &mut Cli, g: FlagValue| {
            c.log_file = Some(g.path());
            Ok(())
        },
    )
    .class(OnResume::MayDiffer),
    defines(
        OUTPUT,
        "log-level",
        Takes::Value("L"),
        Doc::Text(
            "the log file's level: error, warn, info, debug (every line sent
and received) or trace [debug]",
        ),
        |c: &mut Cli, g: FlagValue| {
            let v = g.text()?;
            c.log_level = v.parse().map_err(|_| {
                anyhow::anyhow!("--log-level {v:?}: expected error, warn, info, debug or trace")
            })?;
            Ok(())
        },
    )
    .class(OnResume::MayDiffer),
    defines(
        OUTPUT,
        "help",
        Takes::Help,
        Doc::Head("-h, --help, --version", ""),
        flags::no_setting,
    )
    .short('h')
    .class(OnResume::Action),
    defines(
        OUTPUT,
        "version",
        Takes::Version,
        Doc::Hidden,
        flags::no_setting,
    )
    .class(OnResume::Action),
];

/// The parsed command line.
struct Cli {
    /// The flags that define the match, as they are read.
    flags: MatchFlags,
    resume: bool,
    overwrite: bool,
    state: Option<PathBuf>,
    log_file: Option<PathBuf>,
    /// `--log-level`: the most detailed records the log file gets.
    log_level: log::LevelFilter,
    concurrency: Option<usize>,
    /// `--force-concurrency`: no warning for more games at once than logical CPUs.
    force_concurrency: bool,
    /// `--cpu-affinity`: the CPUs to run on.
    cpus: Option<Vec<usize>>,
    /// The configuration: [`MatchFlags::finish`]'s, once every flag is read.
    config: MatchConfig,
    /// Whether any flag defining the match was given (any but those that may differ on
    /// `--resume` and the actions: [`OnResume`]).
    defines_match: bool,
    /// The flags defining the match that were given, by name (`--each` as `engine`), each
    /// once, and `--event`'s and `--site`'s values: what a resumed match checks.
    given: Given,
}

/// The flags defining the match that were given (checked against a resumed match's).
#[derive(Default)]
struct Given {
    /// Their names without dashes, each once, in the order given; `--each` counts as `engine`.
    flags: Vec<String>,
    /// `--event`, `--site`: the PGN headers (also when no `--pgnout` was given).
    event: Option<String>,
    site: Option<String>,
}

impl Cli {
    fn new() -> Cli {
        Cli {
            flags: MatchFlags::default(),
            resume: false,
            overwrite: false,
            state: None,
            log_file: None,
            log_level: log::LevelFilter::Debug,
            concurrency: None,
            force_concurrency: false,
            cpus: None,
            config: MatchConfig::default(),
            defines_match: false,
            given: Given::default(),
        }
    }

    /// Notes that `--long` was given, if it defines the match (as [`FLAGS`] says).
    fn note(&mut self, long: &str) {
        let Some(flag) = FLAGS.iter().find(|f| f.long == long) else {
            return;
        };
        let checked_as = match flag.class {
            OnResume::Same | OnResume::Grows => flag.long,
            OnResume::SameAs(other) => other,
            OnResume::MayDiffer | OnResume::Action => return,
        };
        self.defines_match = true;
        if !self.given.flags.iter().any(|f| f == checked_as) {
            self.given.flags.push(checked_as.to_string());
        }
    }
}

fn parse(args: Vec<OsString>) -> anyhow::Result<Option<Cli>> {
    let mut cli = Cli::new();
    let mut p = flags::Lexer::new(args);
    while let Some(step) = flags::next(&mut p, FLAGS, &mut cli)? {
        match step {
            Step::Flag(long) => cli.note(long),
            Step::Help => {
                print!("{}", help());
                return Ok(None);
            }
            Step::Version => {
                println!("saikoro {}", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            Step::Positional(v) => {
                return Err(flags::ArgError::UnexpectedArgument(v).into());
            }
        }
    }
    cli.given.event.clone_from(&cli.flags.event);
    cli.given.site.clone_from(&cli.flags.site);
    // A resumed match's flags are checked against the saved match, not on their own (an
    // `--sprt` given alone is the saved match's, with its two engines).
    let flags = std::mem::take(&mut cli.flags);
    cli.config = flags.finish(!cli.resume)?;
    Ok(Some(cli))
}

/// The flags that define the match, as they are read.
#[derive(Default)]
struct MatchFlags {
    config: MatchConfig,
    /// Each `--engine`'s words, as given (its paths need not be UTF-8).
    engines: Vec<Vec<OsString>>,
    /// `--each`'s words, as given.
    each: Vec<OsString>,
    /// `--event`, `--site`: the PGN headers.
    event: Option<String>,
    site: Option<String>,
}

impl MatchFlags {
    /// The match configuration: each engine's words over `--each`'s, and (with `check`) the
    /// checks that need every flag read.
    fn finish(self, check: bool) -> anyhow::Result<MatchConfig> {
        let mut c = self.config;
        if let Some(pgn) = &mut c.pgn {
            pgn.event = self.event;
            pgn.site = self.site;
        }
        for (i, own) in self.engines.iter().enumerate() {
            let e = EngineConfig::from_words(&self.each, own)
                .with_context(|| format!("--engine number {}", i + 1))?;
            c.engines.push(e);
        }
        if !check {
            return Ok(c);
        }
        if c.sprt.is_some() && c.engines.len() != 2 {
            bail!("--sprt needs exactly two engines");
        }
        if c.games == 0 || c.rounds == 0 {
            bail!("--rounds and --games must be at least 1");
        }
        Ok(c)
    }
}

/// The live display on stderr when it is a terminal (the shared progress line: games done of
/// those this run plays, rate, time left), taken off the screen before each line on stdout.
struct Live {
    line: super::progress::Progress,
    /// Games counted before this run (a resumed match).
    before: u64,
}

impl Progress for Live {
    fn clear(&mut self) {
        self.line.clear();
    }

    fn game_finished(&mut self, done: u64, _total: u64) {
        self.line.update(done.saturating_sub(self.before));
    }

    fn finish(&mut self) {
        self.line.finish();
    }
}

/// Runs a match.
pub fn main(raw: Vec<OsString>) -> anyhow::Result<ExitCode> {
    if raw.iter().any(|a| a == "-help") {
        print!("{}", super::dialect::fastchess::help());
        return Ok(ExitCode::SUCCESS);
    }
    let args = super::dialect::fastchess::translate(raw, &flag_names())
        .context("bad match arguments")
        .map_err(|e| super::usage("match", e))?;
    run_os(args)
}

/// Runs a match from a command line in the default dialect (the other dialects translate
/// into it).
pub fn run(args: Vec<String>) -> anyhow::Result<ExitCode> {
    run_os(args.into_iter().map(OsString::from).collect())
}

/// [`run`], the command line as it was given: the paths in it need not be UTF-8.
fn run_os(args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    let args_given = args.clone();
    let Some(mut cli) = parse(args).map_err(|e| match e.downcast::<flags::ArgError>() {
        // Every value but a path must be text: said as before the paths could be any bytes,
        // and not a usage error (status 1).
        Ok(flags::ArgError::NonUnicodeValue(a)) => {
            anyhow::anyhow!("argument {a:?} is not valid UTF-8")
        }
        Ok(e) => super::usage("match", e),
        Err(e) if not_utf8(&e) => e,
        Err(e) => super::usage("match", e),
    })?
    else {
        return Ok(ExitCode::SUCCESS);
    };
    super::init_logging_at(
        cli.log_file.as_deref(),
        cli.log_level,
        log::LevelFilter::Warn,
    )?;
    if let Some(cpus) = &cli.cpus {
        super::affinity::pin(cpus)?;
    }
    let state_path = cli
        .state
        .clone()
        .unwrap_or_else(scheduler::default_state_path);
    let saved = resumed(&mut cli, &state_path)?;
    let mut config = cli.config;
    if config.engines.len() < 2 {
        return Err(super::usage(
            "match",
            anyhow::anyhow!("a match needs two engines or more (--engine cmd=PROG ...)"),
        ));
    }
    if let Some(n) = cli.concurrency {
        config.concurrency = n;
    }
    warn_if_oversubscribed(config.concurrency, cli.force_concurrency);
    if config.command.is_none() {
        // What the report shows (a resumed match keeps the command that started it).
        let mut words = vec!["saikoro".to_string(), "match".to_string()];
        words.extend(args_given.iter().map(|a| a.to_string_lossy().into_owned()));
        config.command = Some(saikoro_match::output::report::shell_words(&words));
    }
    config.state = Some(state_path);
    config.overwrite = cli.overwrite;
    let control = Arc::new(Control::default());
    {
        let control = Arc::clone(&control);
        super::tools::guard_engines(
            "match",
            Some(Box::new(move |_| eprintln!("{}", control.interrupt()))),
        )?;
    }
    let mut m = Match::prepare(config, saved)?;
    say_random_order(&m);
    let mut reporter = Standings::default();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let before = m.scoreboard.len() as u64;
    let left = m.games.len() as u64 - before;
    let mut live = Live {
        line: super::progress::Progress::on_stderr("match", "games", Some(left)),
        before,
    };
    let (ending, figures) = scheduler::run(&mut m, &control, &mut out, &mut reporter, &mut live)
        .map_err(with_io_cause)?;
    // The last block, unless the interval just printed it.
    reporter.finish(&m, &m.scoreboard, &mut out)?;
    writeln!(out, "{figures}")?;
    let shogitest = m.config.output_style == OutputStyle::Shogitest;
    write_margin_hint(&figures, shogitest, &mut out)?;
    let code = write_ending(&ending, &mut out)?;
    out.flush()?;
    Ok(code)
}

/// A match's error, a write's failure with its `io::Error` as the cause: a closed stdout (`|
/// head`) is then told by what every mode's end looks for (`failure`).
fn with_io_cause(e: MatchError) -> anyhow::Error {
    match e {
        MatchError::Io { what, source } => {
            anyhow::Error::new(source).context(format!("cannot write {what}"))
        }
        e => e.into(),
    }
}

/// Whether `e` is a word of `--engine`, `--each`, `--openings` or `--pgnout` that must be text
/// and is not UTF-8: a failure (status 1), as every value that is not a path is, not a usage
/// error.
fn not_utf8(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        matches!(c.downcast_ref(), Some(EngineConfigError::NotUtf8(_)))
            || matches!(c.downcast_ref(), Some(BookError::NotUtf8(_)))
            || matches!(c.downcast_ref(), Some(PgnConfigError::NotUtf8(_)))
    })
}

/// With `--resume`, the saved match, whose configuration then is `cli`'s: the defining flags
/// given must be as saved, except `--rounds`, which may grow (to extend a match). A state of
/// the version that kept the command line has it parsed here, as a command line is.
fn resumed(cli: &mut Cli, state_path: &Path) -> anyhow::Result<Option<SavedMatch>> {
    if !cli.resume {
        return Ok(None);
    }
    if cli.overwrite {
        return Err(super::usage(
            "match",
            anyhow::anyhow!(
                "--resume continues the saved match and --overwrite starts anew: give one of them"
            ),
        ));
    }
    let saved = resume::load(state_path).context("cannot resume")?;
    let config = match &saved.settings {
        SavedSettings::Config(c) => (**c).clone(),
        SavedSettings::Args(args) => {
            parse(args.iter().map(OsString::from).collect())
                .context("the saved match's arguments no longer parse")?
                .context("the saved match's arguments hold --help")?
                .config
        }
    };
    cli.config = if cli.defines_match {
        merge_resumed(config, &cli.config, &cli.given).map_err(|why| {
            super::usage(
                "match",
                anyhow::anyhow!(
                    "--resume: {}: {why} (a resumed match keeps its arguments; only {} may \
                     grow, and {} may change)",
                    state_path.display(),
                    listed(OnResume::Grows),
                    listed(OnResume::MayDiffer)
                ),
            )
        })?
    } else {
        config
    };
    Ok(Some(saved))
}

/// The saved configuration with the given flags checked against it: each must set what the
/// saved match has, but `--rounds` may be larger (the match is extended). Names the first that
/// differs.
fn merge_resumed(
    mut saved: MatchConfig,
    given: &MatchConfig,
    flags: &Given,
) -> Result<MatchConfig, String> {
    let saved_headers = saved
        .pgn
        .as_ref()
        .map_or((None, None), |p| (p.event.clone(), p.site.clone()));
    for flag in &flags.flags {
        if class_of(flag) == Some(OnResume::Grows) {
            let (old, new) = (saved.rounds, given.rounds);
            if new < old {
                return Err(format!(
                    "--rounds {new} is fewer than the saved match's {old} (a match may be extended, not cut)"
                ));
            }
            saved.rounds = new;
            continue;
        }
        let (g, s) = (
            shown(given, (&flags.event, &flags.site), flag),
            shown(&saved, (&saved_headers.0, &saved_headers.1), flag),
        );
        let same = if flag == "engine" {
            given.engines == saved.engines
        } else {
            g == s
        };
        if !same {
            return Err(match s {
                _ if flag == "engine" && given.engines.is_empty() => format!(
                    "--each changes the engines, which --resume keeps as saved ({}): resume \
                     without it",
                    s.text
                ),
                Shown {
                    set: false,
                    valued: true,
                    ..
                } => format!(
                    "{} differs from the saved match's {} (the default)",
                    g.text, s.text
                ),
                Shown { set: false, .. } => {
                    format!("the saved match has no --{flag} (given: {})", g.text)
                }
                s => format!("{} differs from the saved match's {}", g.text, s.text),
            });
        }
    }
    Ok(saved)
}

/// What `--flag` is to `--resume` ([`FLAGS`]).
fn class_of(flag: &str) -> Option<OnResume> {
    FLAGS.iter().find(|f| f.long == flag).map(|f| f.class)
}

/// What a configuration sets for a flag, as a command line writes it.
#[derive(PartialEq, Eq)]
struct Shown {
    /// Whether it differs from what a command line without the flag sets.
    set: bool,
    /// Whether the flag has a value when it is not given (its default).
    valued: bool,
    /// The flag and its value.
    text: String,
}

/// One engine's words, as `--engine` takes them.
fn engine_words(e: &EngineConfig) -> String {
    let mut w = vec![format!("cmd={}", e.command.program.display())];
    if !e.command.args.is_empty() {
        w.push(format!("args={}", e.command.args.join(" ")));
    }
    w.extend(
        e.command
            .dir
            .as_ref()
            .map(|d| format!("dir={}", d.display())),
    );
    w.extend(e.name.as_ref().map(|n| format!("name={n}")));
    w.extend(e.options.iter().map(|(n, v)| format!("option.{n}={v}")));
    let l = &e.limits;
    w.extend(l.clock.map(|c| format!("tc={c}")));
    w.extend(l.movetime_ms.map(|m| format!("movetime={m}")));
    w.extend(l.nodes.map(|n| format!("nodes={n}")));
    w.extend(l.depth.map(|d| format!("depth={d}")));
    w.extend(e.ponder.then(|| "ponder".to_string()));
    w.extend(e.restart.then(|| "restart=on".to_string()));
    w.join(" ")
}

/// The value of a flag that takes words (`None`: not set).
fn words_of(c: &MatchConfig, flag: &str) -> Option<String> {
    match flag {
        "openings" => c.openings.as_ref().map(|o| {
            let mut w = format!(
                "file={} order={} start={}",
                o.file.display(),
                o.order.name(),
                o.start
            );
            w.extend(o.plies.map(|p| format!(" plies={p}")));
            w.extend(o.format.map(|f| format!(" format={}", f.name())));
            w
        }),
        "sprt" => c.sprt.map(|s| {
            format!(
                "elo0={} elo1={} alpha={} beta={} model={}",
                s.elo0(),
                s.elo1(),
                s.alpha(),
                s.beta(),
                s.model().name()
            )
        }),
        "draw" => c.draw.map(|d| {
            format!(
                "movenumber={} movecount={} score={}",
                d.move_number, d.move_count, d.score
            )
        }),
        "resign" => c.resign.map(|r| {
            format!(
                "movecount={} score={} twosided={}",
                r.move_count, r.score, r.two_sided
            )
        }),
        "pgnout" => c.pgn.as_ref().map(|p| {
            let mut w = format!(
                "file={} append={} min={}",
                p.file.display(),
                p.append,
                p.min
            );
            w.extend(p.nodes.map(|n| format!(" nodes={n}")));
            w
        }),
        "records" => c.records.as_ref().map(|r| r.display().to_string()),
        "results" => c.results.as_ref().map(|r| r.display().to_string()),
        "report" => c.report.as_ref().map(|r| r.display().to_string()),
        "seed" => c.seed.map(|s| s.to_string()),
        _ => None,
    }
}

/// What `c` sets for `--flag` (`headers`: `--event` and `--site`).
fn shown(c: &MatchConfig, headers: (&Option<String>, &Option<String>), flag: &str) -> Shown {
    let d = MatchConfig::default();
    let on = |set: bool| Shown {
        set,
        valued: false,
        text: format!("--{flag}"),
    };
    let valued = |v: String, default: String| Shown {
        set: v != default,
        valued: true,
        text: format!("--{flag} {v}"),
    };
    let words = |v: Option<String>| Shown {
        set: v.is_some(),
        valued: false,
        text: format!("--{flag} {}", v.unwrap_or_default()),
    };
    match flag {
        "engine" if c.engines.is_empty() => Shown {
            set: false,
            valued: false,
            text: "--each without --engine".to_string(),
        },
        "engine" => Shown {
            set: true,
            valued: false,
            text: c
                .engines
                .iter()
                .map(|e| format!("--engine {}", engine_words(e)))
                .collect::<Vec<_>>()
                .join(" "),
        },
        "gauntlet" => on(c.gauntlet),
        "noswap" => on(c.noswap),
        "distinct-games" => on(c.distinct_games),
        "send-undeclared-options" => on(c.send_undeclared_options),
        "send-option-values-as-written" => on(c.send_option_values_as_written),
        "games" => valued(c.games.to_string(), d.games.to_string()),
        "ratinginterval" => valued(c.rating_interval.to_string(), d.rating_interval.to_string()),
        "maxplies" => valued(c.max_plies.to_string(), d.max_plies.to_string()),
        "timemargin" => valued(c.time_margin_ms.to_string(), d.time_margin_ms.to_string()),
        "entering-king-rule" => valued(
            c.entering_king_rule.name().to_string(),
            d.entering_king_rule.name().to_string(),
        ),
        "startup-ms" => valued(c.startup_ms.to_string(), d.startup_ms.to_string()),
        "ready-ms" => valued(c.ready_ms.to_string(), d.ready_ms.to_string()),
        "max-failures" => valued(c.max_failures.to_string(), d.max_failures.to_string()),
        "records-format" => valued(
            c.records_format.name().to_string(),
            d.records_format.name().to_string(),
        ),
        "output-style" => valued(c.output_style.to_string(), d.output_style.to_string()),
        "event" => words(headers.0.clone()),
        "site" => words(headers.1.clone()),
        _ => words(words_of(c, flag)),
    }
}

/// With `order=random` openings, the drawn order's seed, so that the user can play it again.
fn say_random_order(m: &Match) {
    let Some(o) = m
        .config
        .openings
        .as_ref()
        .filter(|o| o.order == Order::Random)
    else {
        return;
    };
    let n = m.openings.len();
    println!(
        "Openings: {}, {n} position{} in random order, seed {} (--seed {} plays this order again)",
        o.file.display(),
        if n == 1 { "" } else { "s" },
        m.seed,
        m.seed
    );
}

/// The hint after narrow time losses, the margin written in the dialect's words, and the note
/// after losses that no margin would have covered.
fn write_margin_hint(
    figures: &scheduler::RunFigures,
    shogitest: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let hint = figures.time_margin_hint(|ms| match shogitest {
        true => format!("timemargin={ms} in the -engine or -each words"),
        false => format!("--timemargin {ms} (timemargin={ms} in fastchess's engine words)"),
    });
    for line in hint.into_iter().chain(figures.after_stop_note()) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Warns (as fastchess refuses, unless `-force-concurrency`) when more games run at once than
/// the machine has logical CPUs: each game runs two engines, and engines that share a CPU
/// lose on time.
fn warn_if_oversubscribed(concurrency: usize, forced: bool) {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    if concurrency > cpus && !forced {
        log::warn!(
            "--concurrency {concurrency} plays more games at once than this machine has \
             logical CPUs ({cpus}): engines will share CPUs and may lose on time; give \
             --force-concurrency to go on without this warning"
        );
    }
}

/// The match's last line, and the exit status it means.
fn write_ending(ending: &Ending, out: &mut dyn Write) -> std::io::Result<ExitCode> {
    writeln!(out, "{}", ending.last_line())?;
    Ok(match ending {
        Ending::Completed | Ending::Sprt(_) => ExitCode::SUCCESS,
        Ending::Interrupted => ExitCode::from(130),
        Ending::EngineFailed(_) => ExitCode::FAILURE,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(s: &str) -> Vec<OsString> {
        s.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn the_issues_command_parses() {
        let cli = parse(strings(
            "--engine cmd=./new name=new --engine cmd=./old name=old --each tc=10+0.1 \
             --rounds 500 --games 2 --concurrency 2 --openings file=openings.sfen order=random",
        ))
        .unwrap()
        .unwrap();
        let c = &cli.config;
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[1].name.as_deref(), Some("old"));
        assert_eq!(c.engines[0].limits.clock.unwrap().increment_ms, 100);
        assert_eq!((c.rounds, c.games), (500, 2));
        assert_eq!(cli.concurrency, Some(2));
        assert!(cli.defines_match);
    }

    #[test]
    fn arguments_that_define_a_match() {
        let cli = parse(strings(
            "--engine cmd=x depth=1 --concurrency 4 --state s --resume --log-file=l --rounds 3 \
             --each tc=1 --engine cmd=y --rounds 4",
        ))
        .unwrap()
        .unwrap();
        assert!(cli.defines_match);
        assert_eq!(cli.given.flags, ["engine", "rounds"]);
        let cli = parse(strings("--resume --state s --concurrency 3"))
            .unwrap()
            .unwrap();
        assert!(!cli.defines_match);
        assert!(cli.resume);
    }

    /// The saved match's configuration, parsed from `saved`, resumed with `given`.
    fn resume_with(saved: &str, given: &str) -> Result<MatchConfig, String> {
        let saved = parse(strings(saved)).unwrap().unwrap().config;
        let cli = parse(strings(&format!("--resume {given}")))
            .unwrap()
            .unwrap();
        merge_resumed(saved, &cli.config, &cli.given)
    }

    #[test]
    fn a_resumed_match_may_grow_and_is_told_what_differs() {
        let saved = "--engine cmd=a depth=1 --engine cmd=b tc=1 --games 3 --rounds=4";
        let config = || parse(strings(saved)).unwrap().unwrap().config;
        // The same, or nothing but --rounds (more): the saved match, its rounds replaced.
        assert_eq!(resume_with(saved, saved), Ok(config()));
        let nine = MatchConfig {
            rounds: 9,
            ..config()
        };
        assert_eq!(resume_with(saved, "--rounds 9"), Ok(nine));
        // A flag given with the value the saved match has by default.
        assert_eq!(
            resume_with(saved, "--maxplies 512 --gauntlet"),
            Err("the saved match has no --gauntlet (given: --gauntlet)".to_string())
        );
        assert_eq!(resume_with(saved, "--maxplies 512"), Ok(config()));
        // --rounds absent from the saved match (the default 2): may grow from 2.
        let bare = "--engine cmd=a depth=1 --engine cmd=b depth=1";
        assert_eq!(resume_with(bare, "--rounds 3").unwrap().rounds, 3);
        let err = resume_with(saved, "--rounds 3").unwrap_err();
        assert_eq!(
            err,
            "--rounds 3 is fewer than the saved match's 4 (a match may be extended, not cut)"
        );
        let err = resume_with(saved, "--games 4 --rounds 9").unwrap_err();
        assert_eq!(err, "--games 4 differs from the saved match's --games 3");
        // A flag the saved match left at its default: the default is named as such.
        let err = resume_with(bare, "--games 4").unwrap_err();
        assert_eq!(
            err,
            "--games 4 differs from the saved match's --games 2 (the default)"
        );
        // Checked against the saved match, not alone: --sprt needs two engines.
        let err = resume_with(saved, "--sprt elo0=0 elo1=5").unwrap_err();
        assert_eq!(
            err,
            "the saved match has no --sprt (given: --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized)"
        );
        let err = resume_with(saved, "--engine cmd=a depth=1 --engine cmd=c tc=1").unwrap_err();
        assert_eq!(
            err,
            "--engine cmd=a depth=1 --engine cmd=c tc=1 differs from the saved match's \
             --engine cmd=a depth=1 --engine cmd=b tc=1"
        );
        // --each is the engines' too; --event without --pgnout.
        let err = resume_with(saved, "--each depth=1").unwrap_err();
        assert_eq!(
            err,
            "--each changes the engines, which --resume keeps as saved (--engine cmd=a \
             depth=1 --engine cmd=b tc=1): resume without it"
        );
        let err = resume_with(saved, "--event E").unwrap_err();
        assert_eq!(err, "the saved match has no --event (given: --event E)");
        let pgn = "--engine cmd=a depth=1 --engine cmd=b depth=1 --pgnout g.pgn --event E";
        assert!(resume_with(pgn, "--pgnout g.pgn --event E --rounds 3").is_ok());
        assert!(resume_with(pgn, "--pgnout g.pgn").is_ok());
        let err = resume_with(pgn, "--site S").unwrap_err();
        assert_eq!(err, "the saved match has no --site (given: --site S)");
    }

    /// A state written by the version that kept the command line resumes: its arguments are
    /// parsed as a command line, then checked as a saved configuration is.
    #[test]
    fn a_version_1_state_resumes() {
        let dir = std::env::temp_dir().join(format!("saikoro-resume1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state");
        std::fs::write(
            &path,
            "{\"saikoro_match_state\":1,\"seed\":7,\"args\":[\"--engine\",\"cmd=a\",\
             \"depth=1\",\"--engine\",\"cmd=b\",\"tc=1\",\"--games\",\"3\"]}\n\
             {\"game\":1,\"result\":\"1-0\",\"reason\":\"resign\"}\n",
        )
        .unwrap();
        let state = path.display().to_string();
        let resume = |given: &str| {
            let mut cli = parse(strings(&format!("--resume --state {state} {given}")))
                .unwrap()
                .unwrap();
            resumed(&mut cli, &path).map(|saved| (cli.config, saved.unwrap()))
        };
        let (config, saved) = resume("--rounds 3").unwrap();
        let expected = parse(strings(
            "--engine cmd=a depth=1 --engine cmd=b tc=1 --games 3 --rounds 3",
        ))
        .unwrap()
        .unwrap()
        .config;
        assert_eq!(config, expected);
        assert_eq!((saved.seed, saved.games.len()), (7, 1));
        let err = resume("--games 2").unwrap_err().to_string();
        assert!(
            err.contains("--games 2 differs from the saved match's --games 3"),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The help lists every flag of the table, each under its section.
    #[test]
    fn the_help_lists_every_flag() {
        let h = help();
        let list = &h[HELP_HEAD.len()..h.len() - HELP_TAIL.len()];
        for f in FLAGS {
            let section = list.find(f.section).unwrap();
            let under = &list[section..];
            let named = |end: &str| under.contains(&format!("--{}{end}", f.long));
            assert!(named(" ") || named("\n") || named(","), "--{}", f.long);
        }
    }

    /// What `--resume` lets change (docs/match.md): how this run goes, not what the match is.
    #[test]
    fn what_may_differ_on_resume() {
        assert_eq!(
            listed(OnResume::MayDiffer),
            "--concurrency, --force-concurrency, --cpu-affinity, --state, --log-file and \
             --log-level"
        );
        assert_eq!(listed(OnResume::Grows), "--rounds");
        let cli = parse(strings(
            "--resume --concurrency 2 --force-concurrency --cpu-affinity 0 --state s \
             --log-file l --log-level info",
        ))
        .unwrap()
        .unwrap();
        assert!(!cli.defines_match);
    }
}
