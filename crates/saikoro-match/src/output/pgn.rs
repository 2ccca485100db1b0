//! `--pgnout`: every game of the match in one PGN-style file, as fastchess and shogitest write
//! it (fastchess's `-pgnout`, shogitest's `src/pgn.rs`): a block of `[Tag "value"]` headers, a
//! blank line, one move per line in USI notation with a `{comment}`, the result, a blank line.
//! The ShogiBench worker slices the file on those blank lines and reads `Termination`.
//!
//! Headers: `Event`, `Site`, `Date`, `Round`, `Black`, `White` (shogitest's layout adds
//! `Sente` and `Gote`), `Result`, `FEN` and `SetUp` when the game did not start from the
//! start position, `PlyCount`, `Termination` ([`termination`]), `GameStartTime`,
//! `BlackTimeControl`, `WhiteTimeControl`. The opening's moves carry `{book}`; an engine's
//! move its last score (`+0.35`, `+M5`, `none`), depth, nodes and thinking time, in
//! fastchess's words (`{+0.35/12 0.125s, n=3456}`, its `pgn_builder.cpp`) or shogitest's
//! (`{+0.35 12 n=3456 t=0.125s}`); the last move also the reason.

pub use crate::config::{PgnConfig, PgnConfigError};
use crate::game::result::{GameRecord, PlayedMove};
use crate::game::timecontrol::Limits;
use crate::output::lines::GameInfo;
use crate::output::sink::{io_error, Console, Finished, GameSink};
use crate::output::style::{shogitest_reason, shogitest_result, termination, OutputStyle};
use crate::types::MatchError;
use saikoro_core::{ByColor, Color, Position};
use saikoro_outfile::AppendFile;
use saikoro_record::csa::format_time;
use saikoro_usi::Score;
use std::io::{self, Write};

/// The open PGN file.
#[derive(Debug)]
pub struct PgnWriter {
    file: AppendFile,
    config: PgnConfig,
    style: OutputStyle,
}

impl PgnWriter {
    /// Opens `config.file`: in shogitest's style a new file (shogitest refuses one that
    /// exists), else appended to (whether it may hold another match's games was decided
    /// before: see `files::games_in`).
    pub fn open(config: &PgnConfig, style: OutputStyle) -> Result<PgnWriter, MatchError> {
        let name = config.file.display().to_string();
        if style == OutputStyle::Shogitest && config.file.exists() {
            return Err(io_error(name)(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "the file exists (shogitest writes a new one)",
            )));
        }
        let file = AppendFile::open(&config.file).map_err(io_error(name))?;
        Ok(PgnWriter {
            file,
            config: config.clone(),
            style,
        })
    }

    /// Appends one game, whole: a failed write (a full disk) is cut off again.
    pub fn write(
        &mut self,
        info: &GameInfo,
        record: &GameRecord,
        limits: &ByColor<Limits>,
    ) -> io::Result<()> {
        let mut text = Vec::with_capacity(1024 + 24 * record.total_plies());
        game_text(&mut text, info, record, limits, &self.config, self.style)?;
        self.file.whole(&text)
    }
}

impl GameSink for PgnWriter {
    fn game(&mut self, game: &Finished<'_>, _: &mut Console<'_>) -> Result<(), MatchError> {
        if !game.counted() {
            // It scores nothing, and a resumed match plays it again.
            return Ok(());
        }
        self.write(game.info, game.record, &game.limits())
            .map_err(io_error(self.config.file.display().to_string()))
    }
}

fn header(w: &mut impl Write, key: &str, value: &str) -> io::Result<()> {
    let v = value.replace('\\', "\\\\").replace('"', "\\\"");
    writeln!(w, "[{key} \"{v}\"]")
}

/// A score as fastchess writes it (`+0.35`, `-1.20`, `0.00`, `+M5`: mate in plies, as USI
/// gives it), or `none` (shogitest's word) when there is none.
fn score_text(score: Option<Score>) -> String {
    match score {
        None => "none".into(),
        Some(Score::Cp(0)) => "0.00".into(),
        Some(Score::Cp(cp)) => format!("{:+.2}", f64::from(cp) / 100.0),
        Some(Score::Mate(n)) if n == i32::MAX => "+M".into(),
        Some(Score::Mate(n)) if n == i32::MIN => "-M".into(),
        Some(Score::Mate(n)) => format!("{}M{}", if n > 0 { "+" } else { "-" }, n.unsigned_abs()),
    }
}

/// An engine's move's comment: fastchess's `+0.35/12 0.125s[, n=N]`, or shogitest's
/// `+0.35 12[ n=N] t=0.125s`.
fn move_comment(m: &PlayedMove, style: OutputStyle, nodes: bool) -> String {
    let (score, depth) = (score_text(m.score), m.depth.unwrap_or(0));
    let secs = m.time_ms as f64 / 1000.0;
    let n = m.nodes.unwrap_or(0);
    match style {
        OutputStyle::Saikoro if nodes => format!("{score}/{depth} {secs:.3}s, n={n}"),
        OutputStyle::Saikoro => format!("{score}/{depth} {secs:.3}s"),
        OutputStyle::Shogitest if nodes => format!("{score} {depth} n={n} t={secs}s"),
        OutputStyle::Shogitest => format!("{score} {depth} t={secs}s"),
    }
}

/// One game's text.
pub(crate) fn game_text(
    w: &mut impl Write,
    info: &GameInfo,
    record: &GameRecord,
    limits: &ByColor<Limits>,
    config: &PgnConfig,
    style: OutputStyle,
) -> io::Result<()> {
    let result = if style == OutputStyle::Shogitest {
        shogitest_result(record.end.result)
    } else {
        record.end.result.text()
    };
    headers(w, info, record, limits, config, style, result)?;
    writeln!(w)?;
    movetext(w, record, config, style)?;
    writeln!(w, "{result}")?;
    writeln!(w)
}

/// The `[Tag "value"]` headers of a game, in the runner's layout: fastchess's, or shogitest's
/// (its date with dashes, the round as the game number, `Sente`/`Gote` beside `Black`/`White`).
fn headers(
    w: &mut impl Write,
    info: &GameInfo,
    record: &GameRecord,
    limits: &ByColor<Limits>,
    config: &PgnConfig,
    style: OutputStyle,
    result: &str,
) -> io::Result<()> {
    let shogitest = style == OutputStyle::Shogitest;
    let started = format_time(record.started);
    let (date, time) = started.split_at(10);
    header(w, "Event", config.event.as_deref().unwrap_or("?"))?;
    header(w, "Site", config.site.as_deref().unwrap_or("?"))?;
    if shogitest {
        header(w, "Date", &date.replace('/', "-"))?;
        header(w, "Round", &info.number.to_string())?;
        header(w, "Black", &info.black)?;
        header(w, "Sente", &info.black)?;
        header(w, "White", &info.white)?;
        header(w, "Gote", &info.white)?;
    } else {
        header(w, "Date", &date.replace('/', "."))?;
        header(w, "Round", &format!("{}.{}", info.round, info.number))?;
        header(w, "Black", &info.black)?;
        header(w, "White", &info.white)?;
    }
    header(w, "Result", result)?;
    if record.opening.start != Position::startpos() {
        header(w, "FEN", &record.opening.start.to_sfen())?;
        header(w, "SetUp", "1")?;
    }
    header(w, "PlyCount", &record.total_plies().to_string())?;
    header(w, "Termination", termination(record.end.reason))?;
    header(
        w,
        "GameStartTime",
        &format!("{}T{}+00:00", date.replace('/', "-"), time.trim()),
    )?;
    header(w, "BlackTimeControl", &limits[Color::Black].to_string())?;
    header(w, "WhiteTimeControl", &limits[Color::White].to_string())
}

/// The moves, a line each: the opening's with `{book}`, the engines' with their comment (none
/// with `min=true`), the last one followed by why the game ended — or that reason alone when
/// there is no move at all.
fn movetext(
    w: &mut impl Write,
    record: &GameRecord,
    config: &PgnConfig,
    style: OutputStyle,
) -> io::Result<()> {
    let shogitest = style == OutputStyle::Shogitest;
    let reason = if shogitest {
        shogitest_reason(&record.end)
    } else {
        record.end.detail.clone()
    };
    let book = record.opening.moves.iter().map(|m| (m.to_string(), None));
    let nodes = config.nodes.unwrap_or(shogitest);
    let played = record
        .moves
        .iter()
        .map(|m| (m.mv.to_string(), Some(move_comment(m, style, nodes))));
    let all: Vec<(String, Option<String>)> = book.chain(played).collect();
    for (i, (mv, comment)) in all.iter().enumerate() {
        let mut c = comment.clone().unwrap_or_else(|| "book".into());
        if config.min {
            c.clear();
        }
        if i + 1 == all.len() {
            if c.is_empty() {
                c = reason.clone();
            } else {
                c = format!("{c}, {reason}");
            }
        }
        if c.is_empty() {
            writeln!(w, "{mv}")?;
        } else {
            writeln!(w, "{mv} {{{c}}}")?;
        }
    }
    if all.is_empty() {
        // No move at all: the reason stands alone, so the block of moves is never empty.
        writeln!(w, "{{{reason}}}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::book::Opening;
    use crate::game::result::{Decision, End, PlayedMove, Reason};
    use std::time::{Duration, SystemTime};

    fn record() -> GameRecord {
        let mv = |t: &str| saikoro_core::Move::from_usi(t).unwrap();
        GameRecord {
            opening: Opening {
                line: 3,
                start: Position::startpos(),
                moves: vec![mv("7g7f")],
            },
            moves: vec![
                PlayedMove {
                    mv: mv("3c3d"),
                    time_ms: 125,
                    score: Some(Score::Cp(-35)),
                    depth: Some(12),
                    nodes: Some(3456),
                    place: None,
                },
                PlayedMove {
                    mv: mv("8h2b+"),
                    time_ms: 2000,
                    score: Some(Score::Mate(5)),
                    depth: None,
                    nodes: None,
                    place: None,
                },
            ],
            end: End::new(
                Decision::Win(Color::White),
                Reason::Time,
                "Black loses on time".into(),
            ),
            time_used: ByColor([2000, 125]),
            // 2026-12-01 15:04:05 UTC.
            started: SystemTime::UNIX_EPOCH + Duration::from_secs(1_796_137_445),
            ended: SystemTime::UNIX_EPOCH,
        }
    }

    fn text(style: OutputStyle) -> String {
        let info = GameInfo {
            number: 7,
            round: 4,
            black: "a-dev".into(),
            white: "a-base".into(),
            repeats: None,
        };
        let limits = ByColor([Limits::default(); 2]);
        let mut out = Vec::new();
        let config = PgnConfig::parse(["x.pgn"]).unwrap();
        game_text(&mut out, &info, &record(), &limits, &config, style).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn shogitests_layout() {
        let t = text(OutputStyle::Shogitest);
        let (headers, rest) = t.split_once("\n\n").unwrap();
        let tags: Vec<&str> = headers
            .lines()
            .map(|l| l[1..].split_once(' ').unwrap().0)
            .collect();
        assert_eq!(
            tags,
            [
                "Event",
                "Site",
                "Date",
                "Round",
                "Black",
                "Sente",
                "White",
                "Gote",
                "Result",
                "PlyCount",
                "Termination",
                "GameStartTime",
                "BlackTimeControl",
                "WhiteTimeControl"
            ]
        );
        assert!(headers.contains("[Date \"2026-12-01\"]"), "{headers}");
        assert!(headers.contains("[Round \"7\"]"));
        assert!(headers.contains("[Termination \"time forfeit\"]"));
        assert!(headers.contains("[PlyCount \"3\"]"));
        assert!(headers.contains("[GameStartTime \"2026-12-01T15:04:05+00:00\"]"));
        assert_eq!(
            rest,
            "7g7f {book}\n3c3d {-0.35 12 n=3456 t=0.125s}\n\
             8h2b+ {+M5 0 n=0 t=2s, Sente loses on time}\n0-1\n\n"
        );
    }

    #[test]
    fn the_default_layout() {
        let t = text(OutputStyle::Saikoro);
        assert!(t.contains("[Date \"2026.12.01\"]"), "{t}");
        assert!(t.contains("[Round \"4.7\"]"));
        assert!(!t.contains("[Sente "));
        assert!(t.contains("3c3d {-0.35/12 0.125s}\n"), "{t}");
        assert!(t.contains("8h2b+ {+M5/0 2.000s, Black loses on time}\n0-1\n\n"));
    }
}
