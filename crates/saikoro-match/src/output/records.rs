//! Game records of a match (`--records DIR`): CSA V2.2 (the default), KIF (`--records-format
//! kif`), KI2 and JKF (`ki2`, `jkf`), every form through the record model's writers
//! ([`saikoro_record::form`], [`csa::write_version`]), every game's end through the one mapping
//! ([`ending`]); and the record of a game of a results file, which `saikoro record convert` and
//! the report page's downloads write ([`results_record`]).
//!
//! KIF is written as `.kifu`: UTF-8 with the `#KIF version=2.0 encoding=UTF-8` header line.
//! Classic `.kif` files are Shift_JIS, which cannot hold every engine name (and would need an
//! encoding table); `.kifu` is the UTF-8 form that Kifu for Windows defined and that ShogiHome,
//! ShogiGUI and Kifu for Windows read. The layout follows ShogiHome's (tsshogi's) KIF export:
//! `手合割：平手` or a board diagram, move lines `   1 ７六歩(77)   ( 0:01/00:00:01)`, `同　`
//! for a capture back on the last square, the end as a special move (`投了`, `詰み`, `千日手`,
//! `反則負け`, …), and a `まで…` summary line as Kifu for Windows writes it.

use crate::config::RecordFormat;
use crate::game::result::{ending, GameRecord};
use crate::game::timecontrol::Limits;
use crate::output::lines::{opening_text, GameInfo};
use saikoro_core::{ByColor, Color, Move, Position};
use saikoro_outfile::write_atomically;
use saikoro_record::csa::{self, format_time, Version};
use saikoro_record::kif;
use saikoro_record::{form, Ending, Format, Record, RecordMove};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The event the records of a match name (`棋戦`, `$EVENT`).
pub const EVENT: &str = "saikoro match";

/// The file a game's record goes to: `DIR/game-00017.csa` or `.kifu`.
pub fn record_path(dir: &Path, number: u64, format: RecordFormat) -> PathBuf {
    dir.join(format!("game-{number:05}{}", format.extension()))
}

/// Writes one game's record into `dir`.
pub fn write(
    dir: &Path,
    format: RecordFormat,
    info: &GameInfo,
    record: &GameRecord,
    limits: &ByColor<Limits>,
) -> io::Result<PathBuf> {
    let path = record_path(dir, info.number, format);
    let mut out = Vec::with_capacity(4096);
    match format {
        RecordFormat::Csa => write_csa(&mut out, info, record, limits)?,
        RecordFormat::Kif => write_kif(&mut out, info, record, limits)?,
        RecordFormat::Ki2 => {
            out = form::write(&to_record(info, record, limits), Format::Ki2).into_bytes()
        }
        RecordFormat::Jkf => {
            out = form::write(&to_record(info, record, limits), Format::Jkf).into_bytes()
        }
    }
    // Whole or not at all: a crash or a full disk leaves no half record.
    write_atomically(&path, &out)?;
    Ok(path)
}

fn time_comment(limits: &ByColor<Limits>) -> String {
    if limits[Color::Black] == limits[Color::White] {
        format!("time control: {}", limits[Color::Black])
    } else {
        format!(
            "time control: black {}, white {}",
            limits[Color::Black],
            limits[Color::White]
        )
    }
}

/// The record model's ending of a game ([`ending`], with the side to move at its end).
fn ending_of(record: &GameRecord) -> Ending {
    ending(record.end.result, record.end.reason, record.next())
}

/// A CSA V2.2 record ([`csa::write_version`]): names, the start position, each move with its
/// time (whole seconds, rounded down as Floodgate does), the end line, and the result as a
/// comment after it.
pub fn write_csa(
    w: &mut impl Write,
    info: &GameInfo,
    record: &GameRecord,
    limits: &ByColor<Limits>,
) -> io::Result<()> {
    let mut r = Record::new(record.opening.start.clone());
    r.set_header("先手", info.black.as_str());
    r.set_header("後手", info.white.as_str());
    r.set_header("棋戦", EVENT);
    r.set_header("開始日時", format_time(record.started));
    r.set_header("終了日時", format_time(record.ended));
    if let (Some(b), Some(wc)) = (limits[Color::Black].clock, limits[Color::White].clock) {
        if let Some(t) = (b == wc).then(|| b.csa_time_limit()).flatten() {
            r.set_header("持ち時間", t);
        }
    }
    r.comments = vec![
        format!("game {}, round {}", info.number, info.round),
        format!("opening: {}", opening_text(record)),
        time_comment(limits),
    ];
    if record.opening.line > 0 {
        r.comments
            .insert(1, format!("opening line {}", record.opening.line));
    }
    r.moves = moves(record, false);
    let mut end_comments = Vec::new();
    if let Some(t) = &record.end.illegal_move {
        end_comments.push(format!("illegal move: {t}"));
    }
    end_comments.push(format!(
        "result: {} {{{}}} ({})",
        record.end.result.text(),
        record.end.detail,
        record.end.reason
    ));
    r.set_end(ending_of(record), end_comments);
    w.write_all(csa::write_version(&r, Version::V22).as_bytes())
}

/// A game's moves from its start: the opening's (without a time, or with 0 when `opening_timed`)
/// and the engines' with their times.
fn moves(record: &GameRecord, opening_timed: bool) -> Vec<RecordMove> {
    let opening_time = opening_timed.then_some(0);
    record
        .opening
        .moves
        .iter()
        .map(|&m| RecordMove::with_time(m, opening_time))
        .chain(
            record
                .moves
                .iter()
                .map(|m| RecordMove::with_time(m.mv, Some(m.time_ms))),
        )
        .collect()
}

/// The part of a match's record that a results file can give too: the names and the event in
/// the header, the game's number and round and its opening as comments, the moves, the end, and
/// the end in words (the game's `detail`) as the end's comment.
fn match_record(
    info: &GameInfo,
    start: Position,
    opening: &str,
    moves: Vec<RecordMove>,
    end: Ending,
    detail: String,
) -> Record {
    let mut r = Record::new(start);
    r.set_header("先手", info.black.as_str());
    r.set_header("後手", info.white.as_str());
    r.set_header("棋戦", EVENT);
    r.comments = vec![
        format!("{EVENT}, game {}, round {}", info.number, info.round),
        format!("opening: {opening}"),
    ];
    r.moves = moves;
    let comments = if detail.is_empty() {
        Vec::new()
    } else {
        vec![detail]
    };
    r.set_end(end, comments);
    r
}

/// A game as the record model holds it (for KI2 and JKF): the names, event and times in the
/// header, the game's number, opening and time control as comments, the opening's moves (no
/// time) and the engines' moves (with their times), the end, and the result as the end's
/// comment.
pub fn to_record(info: &GameInfo, record: &GameRecord, limits: &ByColor<Limits>) -> Record {
    let detail = match &record.end.illegal_move {
        Some(t) => format!("{} (illegal move: {t})", record.end.detail),
        None => record.end.detail.clone(),
    };
    let mut r = match_record(
        info,
        record.opening.start.clone(),
        &opening_text(record),
        moves(record, false),
        ending_of(record),
        detail,
    );
    r.set_header("開始日時", format_time(record.started));
    r.set_header("終了日時", format_time(record.ended));
    r.comments.push(time_comment(limits));
    r
}

/// The game of a results-file line as `saikoro record convert` writes it (and the report page's
/// KIF and CSA downloads, which must be the same text): what [`to_record`] writes but for what
/// the line does not hold (the times, the dates, the time control). `opening` is the line's
/// opening text, `start` its start position and `moves` every move from it.
pub fn results_record(
    info: &GameInfo,
    opening: &str,
    start: Position,
    moves: &[Move],
    end: Ending,
    detail: &str,
) -> Record {
    let moves = moves.iter().map(|&m| RecordMove::new(m)).collect();
    match_record(info, start, opening, moves, end, detail.to_string())
}

/// A KIF record (UTF-8 with a byte order mark, `.kifu`) written by [`kif::write`]:
/// the game's number, opening and time control as `#` notes, the opening's moves (no time) and
/// the engines' moves, the end, and the game's words after it. A start that is one of the
/// handicaps is written as its `手合割` line, any other as a board diagram.
pub fn write_kif(
    w: &mut impl Write,
    info: &GameInfo,
    record: &GameRecord,
    limits: &ByColor<Limits>,
) -> io::Result<()> {
    let detail = match &record.end.illegal_move {
        Some(t) => format!("{} (illegal move: {t})", record.end.detail),
        None => record.end.detail.clone(),
    };
    let notes = [
        format!("{EVENT}, game {}, round {}", info.number, info.round),
        format!("opening: {}", opening_text(record)),
        time_comment(limits),
    ];
    let mut kif = Record::new(record.opening.start.clone());
    kif.header = vec![
        ("開始日時".into(), format_time(record.started)),
        ("終了日時".into(), format_time(record.ended)),
        ("棋戦".into(), EVENT.into()),
        ("先手".into(), info.black.clone()),
        ("後手".into(), info.white.clone()),
    ];
    kif.file_comments = notes.to_vec();
    kif.moves = moves(record, true);
    kif.set_end(ending_of(record), vec![detail]);
    write!(w, "\u{feff}{}", kif::write(&kif))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::book::Opening;
    use crate::game::result::{Decision, End, PlayedMove, Reason};
    use saikoro_core::Move;
    use std::time::{Duration, UNIX_EPOCH};

    fn game(start: Position, moves: &[&str], end: End) -> GameRecord {
        let t = UNIX_EPOCH + Duration::from_secs(1_764_500_000);
        GameRecord {
            opening: Opening {
                line: 0,
                start,
                moves: Vec::new(),
            },
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, m)| PlayedMove {
                    mv: Move::from_usi(m).unwrap(),
                    time_ms: 1500 * i as u64,
                    score: None,
                    depth: None,
                    nodes: None,
                    place: None,
                })
                .collect(),
            end,
            time_used: ByColor([0, 0]),
            started: t,
            ended: t,
        }
    }

    fn info() -> GameInfo {
        GameInfo {
            number: 3,
            round: 2,
            black: "new".into(),
            white: "old".into(),
            repeats: None,
        }
    }

    fn end(result: Decision, reason: Reason, detail: &str) -> End {
        End {
            result,
            reason,
            detail: detail.into(),
            illegal_move: None,
            failed: None,
            stderr: Vec::new(),
            late: None,
        }
    }

    fn depth1() -> ByColor<Limits> {
        let l = Limits::from_words(None, None, None, None, Some("1")).unwrap();
        ByColor([l, l])
    }

    /// Checked by hand against ShogiHome's KIF export (tsshogi `exportKIF`): the 角 exchange
    /// with `同　`, a promotion, a drop, and the resignation.
    #[test]
    fn kif_of_a_short_game() {
        let g = game(
            Position::startpos(),
            &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"],
            end(Decision::Win(Color::Black), Reason::Resign, "White resigns"),
        );
        let mut out = Vec::new();
        write_kif(&mut out, &info(), &g, &depth1()).unwrap();
        let text = String::from_utf8(out).unwrap();
        let body = text.split_once("棋戦：saikoro match\n").unwrap().1;
        assert_eq!(
            body,
            "手合割：平手\n先手：new\n後手：old\n手数----指手---------消費時間--\n\
             \u{20}  1 ７六歩(77)   ( 0:00/00:00:00)\n\
             \u{20}  2 ３四歩(33)   ( 0:01/00:00:01)\n\
             \u{20}  3 ２二角成(88) ( 0:03/00:00:03)\n\
             \u{20}  4 同\u{3000}銀(31)   ( 0:04/00:00:06)\n\
             \u{20}  5 ４五角打     ( 0:06/00:00:09)\n\
             \u{20}  6 投了         ( 0:00/00:00:06)\n\
             *White resigns\n\
             まで5手で先手の勝ち\n"
        );
        assert!(text.starts_with("\u{feff}#KIF version=2.0 encoding=UTF-8\n"));
        assert!(text.contains("開始日時：2025/11/30 10:53:20\n"), "{text}");
    }

    #[test]
    fn kif_board_for_other_starts_and_fouls() {
        let start = Position::from_sfen("8k/9/9/9/9/9/9/9/K8 w G2P 1").unwrap();
        let mut g = game(
            start,
            &[],
            end(
                Decision::Win(Color::Black),
                Reason::IllegalMove,
                "White's illegal move 1a1b",
            ),
        );
        g.end.illegal_move = Some("1a1b".into());
        let mut out = Vec::new();
        write_kif(&mut out, &info(), &g, &depth1()).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("後手の持駒：なし\n"), "{text}");
        assert!(text.contains("| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n"), "{text}");
        assert!(
            text.contains("先手の持駒：金\u{3000}歩二\u{3000}\n後手番\n"),
            "{text}"
        );
        assert!(
            text.contains("   1 反則負け     ( 0:00/00:00:00)\n"),
            "{text}"
        );
        assert!(text.ends_with("まで0手で後手の反則負け\n"), "{text}");
    }

    /// A handicap start is written as its 手合割 line, as Kifu for Windows and tsshogi write one,
    /// its players named 下手 and 上手
    /// (the match wrote a board diagram for it before the records were written through
    /// `kif::write`): the same position, read back, in one line instead of fifteen.
    #[test]
    fn kif_handicap_start_as_its_name() {
        let start =
            Position::from_sfen("lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
                .unwrap();
        let g = game(
            start.clone(),
            &["5a5b"],
            end(Decision::Win(Color::White), Reason::Resign, "Black resigns"),
        );
        let mut out = Vec::new();
        write_kif(&mut out, &info(), &g, &depth1()).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("棋戦：saikoro match\n手合割：香落ち\n下手：new\n"),
            "{text}"
        );
        assert!(!text.contains("持駒"), "{text}");
        assert!(
            text.contains("   1 ５二玉(51)   ( 0:00/00:00:00)\n"),
            "{text}"
        );
        // A handicap game's players are 下手 and 上手 (Kifu for Windows' words).
        assert!(text.ends_with("まで1手で上手の勝ち\n"), "{text}");
        let back = kif::read_records(&text).unwrap().remove(0);
        assert_eq!(back.start, start);
    }

    /// The JKF record of a game reads back through the JKF reader: the opening's and the engines'
    /// moves, their times, the names and the foul of the side that lost.
    #[test]
    fn jkf_record_reads_back() {
        let mut g = game(
            Position::startpos(),
            &["8c8d", "7g7f", "3c3d"],
            end(
                Decision::Win(Color::Black),
                Reason::IllegalMove,
                "White's illegal move",
            ),
        );
        g.opening.moves = vec![Move::from_usi("2g2f").unwrap()];
        let text = form::write(&to_record(&info(), &g, &depth1()), Format::Jkf);
        let r = saikoro_record::jkf::read_records(&text).unwrap().remove(0);
        let usi: Vec<String> = r.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(usi, ["2g2f", "8c8d", "7g7f", "3c3d"], "{text}");
        let times: Vec<Option<u64>> = r.moves.iter().map(|m| m.time_ms).collect();
        assert_eq!(times, [None, Some(0), Some(1000), Some(3000)]);
        assert_eq!(r.name(Color::Black), Some("new"));
        assert_eq!(r.ending(), Some(Ending::Foul(Color::White)));
        assert!(
            text.contains(r#"{"special":"-ILLEGAL_ACTION","comments":["White's illegal move"]}"#),
            "{text}"
        );
        assert_eq!(r.end.as_ref().unwrap().comments(), ["White's illegal move"]);
    }

    #[test]
    fn csa_end_lines() {
        // No move: Black is to move at the end. The words are the CSA standard's: `%TSUMI`
        // 詰み, `%-ILLEGAL_ACTION` White's foul (後手の反則行為により先手の勝ち), `%SENNICHITE`
        // 千日手, `%MAX_MOVES` the move limit (V3.0's word; `%HIKIWAKE` is a declared draw),
        // `%TIME_UP` the side to move out of time, `%CHUDAN` 中断, and for an adjudication the
        // side to move's `%TORYO`, or `%CHUDAN` when the loser is not to move.
        let cases = [
            (Decision::Win(Color::White), Reason::Mate, "%TSUMI"),
            (
                Decision::Win(Color::Black),
                Reason::IllegalMove,
                "%-ILLEGAL_ACTION",
            ),
            (
                Decision::Win(Color::White),
                Reason::PerpetualCheck,
                "%+ILLEGAL_ACTION",
            ),
            (
                Decision::Win(Color::White),
                Reason::Crash,
                "%+ILLEGAL_ACTION",
            ),
            (Decision::Draw, Reason::Repetition, "%SENNICHITE"),
            (Decision::Draw, Reason::MaxPlies, "%MAX_MOVES"),
            (Decision::Win(Color::White), Reason::Time, "%TIME_UP"),
            (Decision::None, Reason::Interrupted, "%CHUDAN"),
            (Decision::Win(Color::White), Reason::Adjudication, "%TORYO"),
            (Decision::Win(Color::Black), Reason::Adjudication, "%CHUDAN"),
            (Decision::Draw, Reason::Adjudication, "%HIKIWAKE"),
        ];
        for (result, reason, line) in cases {
            let g = game(Position::startpos(), &[], end(result, reason, "x"));
            let mut out = Vec::new();
            write_csa(&mut out, &info(), &g, &depth1()).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(
                text.contains(&format!("\n+\n{line}\n'result: ")),
                "{reason}: {text}"
            );
        }
        let g = game(
            Position::startpos(),
            &["7g7f", "3c3d"],
            end(Decision::Win(Color::White), Reason::Resign, "Black resigns"),
        );
        let mut out = Vec::new();
        write_csa(&mut out, &info(), &g, &depth1()).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(
                "PI\n+\n+7776FU\nT0\n-3334FU\nT1\n%TORYO\n'result: 0-1 {Black resigns} (resign)\n"
            ),
            "{text}"
        );
        assert!(text.starts_with("V2.2\nN+new\nN-old\n$EVENT:saikoro match\n"));
    }
}

#[cfg(test)]
mod ends;

#[cfg(test)]
mod round_trip;
