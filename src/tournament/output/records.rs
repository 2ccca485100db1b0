//! Game records of a match (`--records DIR`): CSA V2.2 through the writer the CSA client and
//! self-play use, or KIF (`--records-format kif`), or KI2 and JKF (`ki2`, `jkf`) through the
//! record model's writers ([`crate::record::form::write`]).
//!
//! KIF is written as `.kifu`: UTF-8 with the `#KIF version=2.0 encoding=UTF-8` header line.
//! Classic `.kif` files are Shift_JIS, which cannot hold every engine name (and would need an
//! encoding table); `.kifu` is the UTF-8 form that Kifu for Windows defined and that ShogiHome,
//! ShogiGUI and Kifu for Windows read. The layout follows ShogiHome's (tsshogi's) KIF export:
//! `手合割：平手` or a board diagram, move lines `   1 ７六歩(77)   ( 0:01/00:00:01)`, `同　`
//! for a capture back on the last square, the end as a special move (`投了`, `詰み`, `千日手`,
//! `反則負け`, …), and a `まで…` summary line as Kifu for Windows writes it.

use crate::outfile::write_atomically;
use crate::record::csa;
use crate::record::csa::record::{format_time, write_record, RecordInfo};
use crate::record::kif;
use crate::record::{form, Ending, Format, Record, RecordMove};
use crate::tournament::config::RecordFormat;
use crate::tournament::game::result::{Decision, GameRecord, Reason};
use crate::tournament::game::timecontrol::Limits;
use crate::tournament::output::lines::{opening_text, GameInfo};
use crate::{ByColor, Color, Move};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

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

/// The side that lost, for the reasons where one side lost.
fn loser(record: &GameRecord) -> Option<Color> {
    match record.end.result {
        Decision::Win(w) => Some(!w),
        _ => None,
    }
}

/// The CSA end line of a game.
fn csa_end(record: &GameRecord) -> csa::End {
    let foul = |c: Option<Color>| match c {
        Some(c) => csa::End::IllegalAction(c),
        None => csa::End::Interrupt,
    };
    match record.end.reason {
        Reason::Mate => csa::End::Mate,
        Reason::Resign => csa::End::Resign,
        Reason::Declaration => csa::End::Declaration,
        Reason::Repetition => csa::End::Repetition,
        Reason::MaxPlies => csa::End::Draw,
        Reason::Time => csa::End::TimeUp,
        Reason::Adjudication => match record.end.result {
            Decision::Win(_) => csa::End::Resign,
            _ => csa::End::Draw,
        },
        Reason::Interrupted => csa::End::Interrupt,
        Reason::IllegalDeclaration
        | Reason::IllegalMove
        | Reason::PerpetualCheck
        | Reason::Crash
        | Reason::NoResponse => foul(loser(record)),
    }
}

/// A CSA V2.2 record: names, the start position, each move with its time (whole seconds,
/// rounded down as Floodgate does), the end line, and the result as a comment.
pub fn write_csa(
    w: &mut impl Write,
    info: &GameInfo,
    record: &GameRecord,
    limits: &ByColor<Limits>,
) -> io::Result<()> {
    let time_limit = match (limits[Color::Black].clock, limits[Color::White].clock) {
        (Some(b), Some(wc)) if b == wc => b.csa_time_limit(),
        _ => None,
    };
    let mut comments = vec![
        format!("game {}, round {}", info.number, info.round),
        format!("opening: {}", opening_text(record)),
        time_comment(limits),
    ];
    if record.opening.line > 0 {
        comments.insert(1, format!("opening line {}", record.opening.line));
    }
    let mut trailer = Vec::new();
    if let Some(t) = &record.end.illegal_move {
        trailer.push(format!("illegal move: {t}"));
    }
    trailer.push(format!(
        "result: {} {{{}}} ({})",
        record.end.result.text(),
        record.end.detail,
        record.end.reason
    ));
    let meta = RecordInfo {
        names: ByColor([info.black.clone(), info.white.clone()]),
        event: Some("saikoro match".to_string()),
        start_time: Some(format_time(record.started)),
        end_time: Some(format_time(record.ended)),
        time_limit,
        comments,
        trailer,
        ..RecordInfo::default()
    };
    let moves: Vec<(Move, Option<u32>)> = record
        .opening
        .moves
        .iter()
        .map(|&m| (m, None))
        .chain(
            record
                .moves
                .iter()
                .map(|m| (m.mv, Some((m.time_ms / 1000) as u32))),
        )
        .collect();
    let end = csa_end(record).word();
    write_record(w, &meta, &record.opening.start, &moves, end)
}

/// The record model's ending of a game.
fn ending(record: &GameRecord) -> Ending {
    let foul = match loser(record) {
        Some(c) => Ending::Foul(c),
        None => Ending::Interrupt,
    };
    match record.end.reason {
        Reason::Mate => Ending::Mate,
        Reason::Resign => Ending::Resign,
        Reason::Declaration => Ending::Declaration,
        Reason::Repetition => Ending::Repetition,
        Reason::MaxPlies => Ending::MaxMoves,
        Reason::Time => Ending::TimeUp,
        Reason::Adjudication => match record.end.result {
            Decision::Win(_) => Ending::Resign,
            _ => Ending::Draw,
        },
        Reason::Interrupted => Ending::Interrupt,
        Reason::IllegalDeclaration
        | Reason::IllegalMove
        | Reason::PerpetualCheck
        | Reason::Crash
        | Reason::NoResponse => foul,
    }
}

/// A game as the record model holds it (for KI2 and JKF): the names, event and times in the
/// header, the game's number, opening and time control as comments, the opening's moves (no
/// time) and the engines' moves (with their times), the end, and the result as the end's
/// comment.
pub fn to_record(info: &GameInfo, record: &GameRecord, limits: &ByColor<Limits>) -> Record {
    let mut r = Record::new(record.opening.start.clone());
    r.set_header("先手", info.black.as_str());
    r.set_header("後手", info.white.as_str());
    r.set_header("棋戦", "saikoro match");
    r.set_header("開始日時", format_time(record.started));
    r.set_header("終了日時", format_time(record.ended));
    r.comments = vec![
        format!("saikoro match, game {}, round {}", info.number, info.round),
        format!("opening: {}", opening_text(record)),
        time_comment(limits),
    ];
    r.moves = record
        .opening
        .moves
        .iter()
        .map(|&m| RecordMove::new(m))
        .chain(record.moves.iter().map(|m| RecordMove {
            mv: m.mv,
            time_ms: Some(m.time_ms),
            comments: Vec::new(),
        }))
        .collect();
    let result = match &record.end.illegal_move {
        Some(t) => format!("{} (illegal move: {t})", record.end.detail),
        None => record.end.detail.clone(),
    };
    r.end_comments.push(result);
    r.end = Some(ending(record));
    r
}

/// The end a game's KIF record says: a foul is the loser's (KIF writes it 反則負け or 反則勝ち
/// as the loser is the side to move or not); an adjudication or a game stopped is a 中断.
fn kif_end(record: &GameRecord) -> Ending {
    let winner = match record.end.result {
        Decision::Win(w) => Some(w),
        _ => None,
    };
    match (record.end.reason, winner) {
        (Reason::Mate, Some(_)) => Ending::Mate,
        (Reason::Resign, Some(_)) => Ending::Resign,
        (Reason::Declaration, Some(_)) => Ending::Declaration,
        (Reason::Repetition, _) => Ending::Repetition,
        (Reason::MaxPlies, _) => Ending::Jishogi,
        (Reason::Time, Some(_)) => Ending::TimeUp,
        (
            Reason::IllegalDeclaration
            | Reason::IllegalMove
            | Reason::PerpetualCheck
            | Reason::Crash
            | Reason::NoResponse,
            Some(w),
        ) => Ending::Foul(!w),
        _ => Ending::Interrupt,
    }
}

/// A KIF record (UTF-8 with a byte order mark, `.kifu`) written by [`kif::write_with_notes`]:
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
        format!("saikoro match, game {}, round {}", info.number, info.round),
        format!("opening: {}", opening_text(record)),
        time_comment(limits),
    ];
    let mut kif = Record::new(record.opening.start.clone());
    kif.header = vec![
        ("開始日時".into(), format_time(record.started)),
        ("終了日時".into(), format_time(record.ended)),
        ("棋戦".into(), "saikoro match".into()),
        ("先手".into(), info.black.clone()),
        ("後手".into(), info.white.clone()),
    ];
    let timed = |mv: Move, ms: u64| RecordMove {
        time_ms: Some(ms),
        ..RecordMove::new(mv)
    };
    kif.moves = record
        .opening
        .moves
        .iter()
        .map(|&m| timed(m, 0))
        .chain(record.moves.iter().map(|m| timed(m.mv, m.time_ms)))
        .collect();
    kif.end = Some(kif_end(record));
    kif.end_comments = vec![detail];
    write!(w, "\u{feff}{}", kif::write_with_notes(&kif, &notes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::game::book::Opening;
    use crate::tournament::game::result::{End, PlayedMove};
    use crate::Position;
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
            overrun_us: None,
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

    /// A handicap start is written as its 手合割 line, as Kifu for Windows and tsshogi write one
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
            text.contains("棋戦：saikoro match\n手合割：香落ち\n先手：new\n"),
            "{text}"
        );
        assert!(!text.contains("持駒"), "{text}");
        assert!(
            text.contains("   1 ５二玉(51)   ( 0:00/00:00:00)\n"),
            "{text}"
        );
        assert!(text.ends_with("まで1手で後手の勝ち\n"), "{text}");
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
        let r = crate::record::jkf::read_records(&text).unwrap().remove(0);
        let usi: Vec<String> = r.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(usi, ["2g2f", "8c8d", "7g7f", "3c3d"], "{text}");
        let times: Vec<Option<u64>> = r.moves.iter().map(|m| m.time_ms).collect();
        assert_eq!(times, [None, Some(0), Some(1000), Some(3000)]);
        assert_eq!(r.name(Color::Black), Some("new"));
        assert_eq!(r.end, Some(Ending::Foul(Color::White)));
        assert!(
            text.contains(r#"{"special":"-ILLEGAL_ACTION","comments":["White's illegal move"]}"#),
            "{text}"
        );
        assert_eq!(r.end_comments, ["White's illegal move"]);
    }

    #[test]
    fn csa_end_lines() {
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
            (Decision::Draw, Reason::Repetition, "%SENNICHITE"),
            (Decision::Draw, Reason::MaxPlies, "%HIKIWAKE"),
            (Decision::Win(Color::Black), Reason::Time, "%TIME_UP"),
            (Decision::None, Reason::Interrupted, "%CHUDAN"),
        ];
        for (result, reason, line) in cases {
            let g = game(Position::startpos(), &[], end(result, reason, "x"));
            assert_eq!(csa_end(&g).word(), line, "{reason}");
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
mod round_trip;
