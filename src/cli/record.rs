//! `saikoro record convert|check|show`: game records converted between the forms, checked by
//! the rules, and shown at a move.

use super::flags::{self, Doc, Flag, FlagValue, Step, Takes};
use anyhow::Context;
use saikoro_core::diagram;
use saikoro_match::output::report::results_records;
use saikoro_outfile::{self as outfile, write_atomically, Named, Replace};
use saikoro_record::{form, Format, Record};
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;

/// `saikoro record --help`.
pub const HELP: &str = "\
Usage:
  saikoro record convert IN [--to FORM] [--from FORM] [--game K] [-o OUT] [--force]
  saikoro record check IN...
  saikoro record show IN [--ply N] [--game K] [--from FORM]

Game records in KIF, KI2, CSA, JKF, USI and SFEN (docs/records.md). The form of IN is told by
its extension (.kif .kifu .ki2 .ki2u .csa .jkf .json .usi .sfen), else by its content, or given
with --from. IN may be - for stdin. Every move is checked by the rules as it is read. A match's
results file (.jsonl, from saikoro match --results) is read too: each line a game, as the
match's records write it (without the times the file does not hold).

convert  writes IN in another form: --to FORM (kif, ki2, csa, jkf, usi, sfen; default: the
         form of OUT's extension). -o OUT (default: stdout, also as -o -) is written whole or
         not at all, and an existing OUT is replaced only with --force. KIF, KI2 and JKF hold
         one game: a file of several games needs --game K (from 1); CSA, USI and SFEN hold them
         all. --to sfen writes the position at the end of each game, not its moves.
check    reads every game of every IN: for each file, a line `FILE: N games, M moves (FORM)`,
         or `FILE:LINE: reason` of its first wrong line; exit status 1 when any file is wrong.
show     prints the position after N moves of game K (default: the whole game, game 1): the
         board diagram as the engine's `d` command prints it, and its SFEN.
";

/// Which subcommand, with its arguments.
enum Command {
    Convert {
        input: String,
        to: Format,
        from: Option<Format>,
        game: Option<usize>,
        output: Option<String>,
        force: bool,
    },
    Check {
        inputs: Vec<String>,
    },
    Show {
        input: String,
        ply: Option<usize>,
        game: usize,
        from: Option<Format>,
    },
}

/// The form named by the value of `--to` or `--from`.
fn form(v: FlagValue) -> anyhow::Result<Format> {
    let flag = v.flag.clone();
    let v = v.text()?;
    Format::from_name(&v).with_context(|| {
        format!("{flag} {v:?}: unknown form (known: kif, ki2, csa, jkf, usi, sfen)")
    })
}

/// The command line as it is read.
#[derive(Default)]
struct Given {
    inputs: Vec<String>,
    to: Option<Format>,
    from: Option<Format>,
    game: Option<usize>,
    output: Option<String>,
    force: bool,
    ply: Option<usize>,
}

type F = Flag<Given>;

/// The flags of the subcommands, each defined once (the help is prose: it names them).
const TO: F = F::new("to", Takes::Value("FORM"), Doc::Hidden, |g, v| {
    g.to = Some(form(v)?);
    Ok(())
});
const FROM: F = F::new("from", Takes::Value("FORM"), Doc::Hidden, |g, v| {
    g.from = Some(form(v)?);
    Ok(())
});
const GAME: F = F::new("game", Takes::Value("K"), Doc::Hidden, |g, v| {
    let k: usize = v.number()?;
    anyhow::ensure!(k >= 1, "--game 0: games count from 1");
    g.game = Some(k);
    Ok(())
});
const OUTPUT: F = F::new("output", Takes::Value("OUT"), Doc::Hidden, |g, v| {
    g.output = Some(v.text()?);
    Ok(())
})
.short('o');
const FORCE: F = F::new("force", Takes::Nothing, Doc::Hidden, |g, _| {
    g.force = true;
    Ok(())
});
const PLY: F = F::new("ply", Takes::Value("N"), Doc::Hidden, |g, v| {
    g.ply = Some(v.number()?);
    Ok(())
});
const HELP_FLAG: F = F::new("help", Takes::Help, Doc::Hidden, flags::no_setting).short('h');

/// The flags of a subcommand (of an unknown one: `--help` only).
fn flags_of(sub: &str) -> &'static [F] {
    match sub {
        "convert" => &[TO, FROM, GAME, OUTPUT, FORCE, HELP_FLAG],
        "show" => &[FROM, GAME, PLY, HELP_FLAG],
        _ => &[HELP_FLAG],
    }
}

/// The command line; `None` for `--help`.
fn parse(args: Vec<OsString>) -> anyhow::Result<Option<Command>> {
    let mut p = flags::Lexer::new(args);
    let mut g = Given::default();
    let sub = match flags::next(&mut p, &[HELP_FLAG], &mut g)? {
        None => anyhow::bail!("no subcommand given (convert, check or show)"),
        Some(Step::Positional(v)) => flags::utf8(v)?,
        Some(_) => return Ok(None),
    };
    while let Some(step) = flags::next(&mut p, flags_of(&sub), &mut g)? {
        match step {
            Step::Flag(_) => {}
            Step::Positional(v) => g.inputs.push(flags::utf8(v)?),
            Step::Help | Step::Version => return Ok(None),
        }
    }
    command(&sub, g).map(Some)
}

/// The subcommand `sub` with what was given.
fn command(sub: &str, g: Given) -> anyhow::Result<Command> {
    let one = |inputs: Vec<String>| -> anyhow::Result<String> {
        match <[String; 1]>::try_from(inputs) {
            Ok([input]) => Ok(input),
            Err(v) if v.is_empty() => anyhow::bail!("no input file given"),
            Err(v) => anyhow::bail!("one input file only ({} given)", v.len()),
        }
    };
    Ok(match sub {
        "convert" => {
            let to =
                g.to.or_else(|| {
                    g.output
                        .as_deref()
                        .and_then(|o| Format::from_extension(Path::new(o)))
                })
                .context(
                    "no form to write: give --to FORM or an -o file with a form's extension",
                )?;
            Command::Convert {
                input: one(g.inputs)?,
                to,
                from: g.from,
                game: g.game,
                output: g.output,
                force: g.force,
            }
        }
        "check" => {
            anyhow::ensure!(!g.inputs.is_empty(), "no input file given");
            Command::Check { inputs: g.inputs }
        }
        "show" => Command::Show {
            input: one(g.inputs)?,
            ply: g.ply,
            game: g.game.unwrap_or(1),
            from: g.from,
        },
        other => anyhow::bail!("unknown subcommand {other:?} (convert, check or show)"),
    })
}

/// Why a file's records cannot be had: the file's name, the line (0: the file as a whole) and
/// the reason, printed `FILE:LINE: reason`.
#[derive(Debug)]
struct Bad {
    file: String,
    line: usize,
    reason: String,
}

impl std::fmt::Display for Bad {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            0 => write!(f, "{}: {}", self.file, self.reason),
            n => write!(f, "{}:{n}: {}", self.file, self.reason),
        }
    }
}

impl std::error::Error for Bad {}

/// Whether a text is a match's results file (`--results`): named `.jsonl`, or its first line
/// a game's (`{"game":…`).
fn is_results(name: Option<&Path>, text: &str) -> bool {
    let jsonl = name
        .and_then(|n| n.extension())
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl"));
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    jsonl || first.trim_start().starts_with("{\"game\":")
}

/// The games of `input` (`-`: stdin) and their form's name (`results` for a match's results
/// file, each game of which is read as the match's records hold it).
fn load(input: &str, from: Option<Format>) -> Result<(Vec<Record>, String), Bad> {
    let bad = |line: usize, reason: String| Bad {
        file: input.to_string(),
        line,
        reason,
    };
    let bytes = if input == "-" {
        let mut b = Vec::new();
        std::io::stdin()
            .read_to_end(&mut b)
            .map_err(|e| bad(0, format!("cannot read stdin: {e}")))?;
        b
    } else {
        std::fs::read(input).map_err(|e| bad(0, format!("cannot read: {e}")))?
    };
    let text = form::decode(&bytes).map_err(|e| bad(e.line, e.reason))?;
    let name = (input != "-").then(|| Path::new(input));
    if from.is_none() && is_results(name, &text) {
        let records = results_records(&text).map_err(|e| bad(e.line, e.reason))?;
        return Ok((records, "results".to_string()));
    }
    let format = from.or_else(|| form::detect(name, &text)).ok_or_else(|| {
        bad(
            0,
            "cannot tell the form of the record (give --from FORM)".into(),
        )
    })?;
    let records = form::read(&text, format).map_err(|e| bad(e.line, e.reason))?;
    Ok((records, format.to_string()))
}

/// Writes `text` to `out` (`-` or none: stdout) whole or not at all, by the rule of every
/// output (docs/files.md): never over `input`, an existing file only with `force`.
fn put(out: Option<&str>, input: &str, text: &str, force: bool) -> anyhow::Result<()> {
    match out {
        None | Some("-") => {
            let mut o = std::io::stdout().lock();
            o.write_all(text.as_bytes())?;
            o.flush()?;
        }
        Some(path) => {
            let out = Named::new("-o", Path::new(path));
            let inputs: Vec<Named> = (input != "-")
                .then(|| Named::new("IN", Path::new(input)))
                .into_iter()
                .collect();
            outfile::check(out, &inputs, Replace::with_flag("--force", force))?;
            write_atomically(Path::new(path), text.as_bytes())
                .with_context(|| format!("cannot write {path}"))?;
        }
    }
    Ok(())
}

/// The game `k` (from 1) of `records`.
fn pick(records: Vec<Record>, k: usize, input: &str) -> anyhow::Result<Record> {
    let n = records.len();
    records
        .into_iter()
        .nth(k - 1)
        .with_context(|| format!("{input} holds {n} games: no game {k}"))
}

fn convert(
    input: &str,
    to: Format,
    from: Option<Format>,
    game: Option<usize>,
    output: Option<&str>,
    force: bool,
) -> anyhow::Result<()> {
    let (records, _) = load(input, from)?;
    for note in dropped(&records) {
        eprintln!("saikoro record convert: {input}: {note}");
    }
    let records = match game {
        Some(k) => vec![pick(records, k, input)?],
        None => records,
    };
    let text = match to {
        Format::Kif | Format::Ki2 | Format::Jkf if records.len() > 1 => anyhow::bail!(
            "{input} holds {} games and {to} holds one: give --game K",
            records.len()
        ),
        Format::Csa => records
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let text = form::write(r, to);
                // The encoding line opens the file, not each game.
                match text.strip_prefix("'CSA encoding=UTF-8\n") {
                    Some(rest) if i > 0 => rest.to_string(),
                    _ => text,
                }
            })
            .collect::<Vec<_>>()
            .join("/\n"),
        _ => records.iter().map(|r| form::write(r, to)).collect(),
    };
    put(output, input, &text, force)
}

/// What the readers left out of `records` (their variations), one note a game that left
/// something out, naming the game when there are several.
fn dropped(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let note = r.dropped_note()?;
            Some(match records.len() {
                1 => note,
                _ => format!("game {}: {note}", i + 1),
            })
        })
        .collect()
}

/// `check`: a line for each file; whether all were good.
fn check(inputs: &[String]) -> anyhow::Result<bool> {
    let mut out = std::io::stdout().lock();
    let mut good = true;
    for input in inputs {
        match load(input, None) {
            Ok((records, format)) => {
                let moves: usize = records.iter().map(|r| r.moves.len()).sum();
                let games = records.len();
                let s = if games == 1 { "" } else { "s" };
                writeln!(out, "{input}: {games} game{s}, {moves} moves ({format})")?;
                for note in dropped(&records) {
                    writeln!(out, "{input}: {note}")?;
                }
            }
            Err(bad) => {
                good = false;
                writeln!(out, "{bad}")?;
            }
        }
    }
    Ok(good)
}

fn show(input: &str, ply: Option<usize>, game: usize, from: Option<Format>) -> anyhow::Result<()> {
    let (records, _) = load(input, from)?;
    let games = records.len();
    let record = pick(records, game, input)?;
    let n = record.moves.len();
    let ply = ply.unwrap_or(n);
    anyhow::ensure!(
        ply <= n,
        "game {game} of {input} has {n} moves: no move {ply}"
    );
    let pos = record.position_at(ply);
    let mut out = std::io::stdout().lock();
    writeln!(out, "game {game} of {games}, after move {ply} of {n}")?;
    out.write_all(diagram(&pos).as_bytes())?;
    writeln!(out, "sfen {}", pos.to_sfen())?;
    Ok(())
}

/// Runs `saikoro record`.
pub fn main(args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    let Some(cmd) = parse(args).map_err(|e| super::usage("record", e))? else {
        print!("{HELP}");
        return Ok(ExitCode::SUCCESS);
    };
    match cmd {
        Command::Convert {
            input,
            to,
            from,
            game,
            output,
            force,
        } => convert(&input, to, from, game, output.as_deref(), force)?,
        Command::Check { inputs } => {
            if !check(&inputs)? {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Show {
            input,
            ply,
            game,
            from,
        } => show(&input, ply, game, from)?,
    }
    Ok(ExitCode::SUCCESS)
}
