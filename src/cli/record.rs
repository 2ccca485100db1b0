//! `saikoro record convert|check|show`: game records converted between the forms (saying what
//! the form written cannot keep), checked by the rules along every line, and shown at any node
//! of any variation.

use super::flags::{self, Doc, Flag, FlagValue, Step, Takes};
use anyhow::Context;
use saikoro_core::diagram;
use saikoro_match::output::report::results_records;
use saikoro_outfile::{self as outfile, write_atomically, Named, Replace};
use saikoro_record::encoding::{self, Encoding, Unmappable};
use saikoro_record::form::LeftOut;
use saikoro_record::{form, Address, Format, Located, Node, Record};
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;

/// `saikoro record --help`.
pub const HELP: &str = "\
Usage:
  saikoro record convert IN [--to FORM] [--from FORM] [--game K] [-o OUT] [--force]
                            [--encoding ENC] [--replace-unmappable]
  saikoro record check IN...
  saikoro record show IN [--at ADDRESS | --ply N] [--game K] [--from FORM]

Game records in KIF, KI2, CSA, JKF, USI and SFEN (docs/records.md). The form of IN is told by
its extension (.kif .kifu .ki2 .ki2u .csa .jkf .json .usi .sfen), else by its content, or given
with --from. IN may be - for stdin, and is read as UTF-8 (with or without a BOM), else as
Shift_JIS. Every move of every line (variations too) is checked by the rules as it is read. A
match's results file (.jsonl, from saikoro match --results) is read too: each line a game, as
the match's records write it (without the times the file does not hold).

convert  writes IN in another form: --to FORM (kif, ki2, csa, jkf, usi, sfen; default: the
         form of OUT's extension). -o OUT (default: stdout, also as -o -) is written whole or
         not at all, and an existing OUT is replaced only with --force. KIF, KI2 and JKF keep
         the variations (KI2 not the times, JKF not the bookmarks); CSA, USI and SFEN the main
         line; what the form cannot keep is said on stderr in one line. KIF, KI2 and JKF hold
         one game: a file of several games needs --game K (from 1); CSA, USI and SFEN hold them
         all. --to sfen writes the position at the end of each game, not its moves.
         A .kif or .ki2 OUT is written in Shift_JIS, anything else in UTF-8 (Kifu for Windows'
         convention); --encoding utf-8|shift_jis chooses otherwise. A character Shift_JIS
         cannot hold is refused with its line, nothing written, unless --replace-unmappable
         (then written as ?, and counted on stderr).
check    reads every game of every IN: for each file, a line `FILE: N games, M moves (FORM)`
         (the moves of the main lines, and those of the variations when there are any), or
         `FILE:LINE: reason` of its first wrong line (naming the variation it is in); exit
         status 1 when any file is wrong.
show     prints the position at a node of game K (default: the main line's end, game 1): the
         board diagram as the engine's `d` command prints it, and its SFEN, with the node's
         comment and bookmark and, where the record branches, the moves that follow.
         --at ADDRESS: N (move N of the main line, 0 the start), end, or a variation's
         branches and a move: 12.2 (the second move played at move 12, the first variation),
         12.2:35 (move 35 along it), 12.2,20.3:end (a variation of that variation). --ply N is
         --at N.
";

/// Which subcommand, with its arguments.
enum Command {
    Convert(Convert),
    Check {
        inputs: Vec<String>,
    },
    Show {
        input: String,
        at: Option<Address>,
        game: usize,
        from: Option<Format>,
    },
}

/// `convert`'s arguments.
struct Convert {
    input: String,
    to: Format,
    from: Option<Format>,
    game: Option<usize>,
    output: Option<String>,
    force: bool,
    /// `--encoding`, else the output's extension's.
    encoding: Option<Encoding>,
    replace: bool,
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
    at: Option<Address>,
    encoding: Option<Encoding>,
    replace: bool,
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
    anyhow::ensure!(
        g.at.is_none(),
        "--ply and --at name one node: give one of them"
    );
    g.at = Some(Address::main(v.number()?));
    Ok(())
});
const AT: F = F::new("at", Takes::Value("ADDRESS"), Doc::Hidden, |g, v| {
    anyhow::ensure!(
        g.at.is_none(),
        "--ply and --at name one node: give one of them"
    );
    g.at = Some(v.text()?.parse()?);
    Ok(())
});
const ENCODING: F = F::new("encoding", Takes::Value("ENC"), Doc::Hidden, |g, v| {
    let text = v.text()?;
    g.encoding = Some(match text.to_ascii_lowercase().replace('-', "_").as_str() {
        "utf_8" | "utf8" => Encoding::Utf8,
        "shift_jis" | "sjis" | "cp932" => Encoding::ShiftJis,
        _ => anyhow::bail!("--encoding {text:?}: unknown encoding (utf-8 or shift_jis)"),
    });
    Ok(())
});
const REPLACE: F = F::new("replace-unmappable", Takes::Nothing, Doc::Hidden, |g, _| {
    g.replace = true;
    Ok(())
});
const HELP_FLAG: F = F::new("help", Takes::Help, Doc::Hidden, flags::no_setting).short('h');

/// The flags of a subcommand (of an unknown one: `--help` only).
fn flags_of(sub: &str) -> &'static [F] {
    match sub {
        "convert" => &[TO, FROM, GAME, OUTPUT, FORCE, ENCODING, REPLACE, HELP_FLAG],
        "show" => &[FROM, GAME, PLY, AT, HELP_FLAG],
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
            anyhow::ensure!(
                !(to == Format::Jkf && g.encoding == Some(Encoding::ShiftJis)),
                "--encoding shift_jis: JKF is JSON, which is UTF-8"
            );
            Command::Convert(Convert {
                input: one(g.inputs)?,
                to,
                from: g.from,
                game: g.game,
                output: g.output,
                force: g.force,
                encoding: g.encoding,
                replace: g.replace,
            })
        }
        "check" => {
            anyhow::ensure!(!g.inputs.is_empty(), "no input file given");
            Command::Check { inputs: g.inputs }
        }
        "show" => Command::Show {
            input: one(g.inputs)?,
            at: g.at,
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

/// Writes `bytes` to `out` (`-` or none: stdout) whole or not at all, by the rule of every
/// output (docs/files.md): never over `input`, an existing file only with `force`.
fn put(out: Option<&str>, input: &str, bytes: &[u8], force: bool) -> anyhow::Result<()> {
    match out {
        None | Some("-") => {
            let mut o = std::io::stdout().lock();
            o.write_all(bytes)?;
            o.flush()?;
        }
        Some(path) => {
            let out = Named::new("-o", Path::new(path));
            let inputs: Vec<Named> = (input != "-")
                .then(|| Named::new("IN", Path::new(input)))
                .into_iter()
                .collect();
            outfile::check(out, &inputs, Replace::with_flag("--force", force))?;
            write_atomically(Path::new(path), bytes)
                .with_context(|| format!("cannot write {path}"))?;
        }
    }
    Ok(())
}

/// The game `k` (from 1) of `records`.
fn pick(records: Vec<Record>, k: usize, input: &str) -> anyhow::Result<Record> {
    let n = records.len();
    records.into_iter().nth(k - 1).with_context(|| match n {
        1 => format!("{input} holds 1 game: no game {k}"),
        n => format!("{input} holds {n} games: no game {k}"),
    })
}

/// The text of `records` in the form `to`, the encoding `encoding` named where the form says.
fn text_of(records: &[Record], to: Format, encoding: Encoding) -> String {
    match to {
        Format::Csa => records
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let text = form::write_in(r, to, encoding);
                // The encoding line opens the file, not each game.
                match text.strip_prefix("'CSA encoding=") {
                    Some(rest) if i > 0 => rest.split_once('\n').map_or("", |x| x.1).to_string(),
                    _ => text,
                }
            })
            .collect::<Vec<_>>()
            .join("/\n"),
        _ => records
            .iter()
            .map(|r| form::write_in(r, to, encoding))
            .collect(),
    }
}

fn convert(c: &Convert) -> anyhow::Result<()> {
    let (records, _) = load(&c.input, c.from)?;
    let records = match c.game {
        Some(k) => vec![pick(records, k, &c.input)?],
        None => records,
    };
    if matches!(c.to, Format::Kif | Format::Ki2 | Format::Jkf) && records.len() > 1 {
        anyhow::bail!(
            "{} holds {} games and {} holds one: give --game K",
            c.input,
            records.len(),
            c.to
        );
    }
    let encoding = c.encoding.unwrap_or_else(|| match c.output.as_deref() {
        Some(o) if o != "-" => Encoding::of_path(Path::new(o)),
        _ => Encoding::Utf8,
    });
    let text = text_of(&records, c.to, encoding);
    let unmappable = match c.replace {
        true => Unmappable::Question,
        false => Unmappable::Refuse,
    };
    let encoded = encoding::encode(text, encoding, unmappable).map_err(|e| {
        let out = c.output.as_deref().unwrap_or("-");
        anyhow::anyhow!(
            "{out}: nothing written: {encoding} cannot hold '{}' (U+{:04X}), on line {} of the \
             {} text (give --encoding utf-8 to write UTF-8, or --replace-unmappable to write ? \
             in its place)",
            e.ch,
            u32::from(e.ch),
            e.line,
            c.to
        )
    })?;
    if let Some(note) = lost_note(&records, c.to) {
        eprintln!("saikoro record convert: {}: {note}", c.input);
    }
    if encoded.replaced > 0 {
        let s = if encoded.replaced == 1 { "" } else { "s" };
        eprintln!(
            "saikoro record convert: {}: {} character{s} that {encoding} cannot hold written \
             as ?, the first on line {}",
            c.input,
            encoded.replaced,
            encoded.first_line.unwrap_or(0)
        );
    }
    put(c.output.as_deref(), &c.input, &encoded.bytes, c.force)
}

/// What writing `records` as `to` leaves out or changes, in one line (`None` when nothing):
/// `written as csa (the main line only): left out 3 variations (14 moves), 2 bookmarks`, naming
/// how many of several games lost something.
fn lost_note(records: &[Record], to: Format) -> Option<String> {
    let mut sum = LeftOut::default();
    let mut games = 0;
    for r in records {
        let lost = form::left_out(r, to);
        if !lost.is_empty() {
            games += 1;
            sum.add(&lost);
        }
    }
    if games == 0 {
        return None;
    }
    let of = match records.len() {
        1 => String::new(),
        n => format!(", in {games} of {n} games"),
    };
    let only = match to.keeps().moves {
        form::Reach::Tree => "",
        form::Reach::MainLine => " (the main line only)",
        form::Reach::None => " (the last position only)",
    };
    Some(format!("written as {to}{only}{of}: {sum}"))
}

/// `check`: a line for each file; whether all were good.
fn check(inputs: &[String]) -> anyhow::Result<bool> {
    let mut out = std::io::stdout().lock();
    let mut good = true;
    for input in inputs {
        match load(input, None) {
            Ok((records, format)) => {
                let games = records.len();
                let s = if games == 1 { "" } else { "s" };
                let (mut moves, mut variations, mut in_variations) = (0, 0, 0);
                for c in records.iter().map(Record::counts) {
                    moves += c.main_moves;
                    variations += c.variations;
                    in_variations += c.variation_moves;
                }
                let m = if moves == 1 { "move" } else { "moves" };
                let lines = match variations {
                    0 => format!("{moves} {m}"),
                    n => {
                        let v = if n == 1 { "variation" } else { "variations" };
                        let main = if games == 1 { "line" } else { "lines" };
                        format!("{moves} {m} in the main {main}, {in_variations} in {n} {v}")
                    }
                };
                writeln!(out, "{input}: {games} game{s}, {lines} ({format})")?;
            }
            Err(bad) => {
                good = false;
                writeln!(out, "{bad}")?;
            }
        }
    }
    Ok(good)
}

/// The text of a node in `show`: a move as KIF writes it (`▲７六歩(77)`), an end as its word.
fn node_text(
    pos: &saikoro_core::Position,
    node: Node<'_>,
    prev_to: Option<saikoro_core::Square>,
) -> String {
    let mark = match pos.side_to_move() {
        saikoro_core::Color::Black => '▲',
        saikoro_core::Color::White => '△',
    };
    match node {
        Node::Move(m) => format!(
            "{mark}{}",
            saikoro_record::kif::move_text(pos, m.mv, prev_to)
        ),
        Node::End(e) => e.ending.name().to_string(),
    }
}

/// The first line of `show`: which game, and where in it.
fn where_line(here: &Located<'_>, game: usize, games: usize, n: usize) -> String {
    let (ply, address) = (here.ply, &here.address);
    match here.node {
        Some(Node::End(e)) => format!(
            "game {game} of {games}, at {address}: the end, {}",
            e.ending.name()
        ),
        _ if address.is_main_line() => format!("game {game} of {games}, after move {ply} of {n}"),
        _ => format!(
            "game {game} of {games}, at {address} ({}), after move {ply}",
            address.line_name()
        ),
    }
}

fn show(
    input: &str,
    at: Option<&Address>,
    game: usize,
    from: Option<Format>,
) -> anyhow::Result<()> {
    let (records, _) = load(input, from)?;
    let games = records.len();
    let record = pick(records, game, input)?;
    let n = record.moves.len();
    let at = at.cloned().unwrap_or_else(|| Address::main(n));
    let here = record
        .locate(&at)
        .map_err(|e| anyhow::anyhow!("game {game} of {input}: {e}"))?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", where_line(&here, game, games, n))?;
    let (comments, bookmark) = match here.node {
        Some(node) => (node.comments(), node.bookmark()),
        None => (&record.comments[..], record.bookmark.as_deref()),
    };
    for c in comments {
        writeln!(out, "comment: {c}")?;
    }
    if let Some(b) = bookmark {
        writeln!(out, "bookmark: {b}")?;
    }
    if here.next.len() > 1 {
        let prev_to = here.node.and_then(Node::mv).map(|m| m.to());
        let next: Vec<String> = here
            .next
            .iter()
            .map(|(a, node)| format!("{a} {}", node_text(&here.position, *node, prev_to)))
            .collect();
        writeln!(out, "next: {}", next.join(", "))?;
    }
    out.write_all(diagram(&here.position).as_bytes())?;
    writeln!(out, "sfen {}", here.position.to_sfen())?;
    Ok(())
}

/// Runs `saikoro record`.
pub fn main(args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    let Some(cmd) = parse(args).map_err(|e| super::usage("record", e))? else {
        print!("{HELP}");
        return Ok(ExitCode::SUCCESS);
    };
    match cmd {
        Command::Convert(c) => convert(&c)?,
        Command::Check { inputs } => {
            if !check(&inputs)? {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Show {
            input,
            at,
            game,
            from,
        } => show(&input, at.as_ref(), game, from)?,
    }
    Ok(ExitCode::SUCCESS)
}
