//! CSA record files (棋譜, CSA 標準棋譜ファイル形式 V2.2): the writer the CSA client, self-play
//! and the match use, and the reader of whole records (several games in a file separated by a
//! `/` line, as Floodgate's archive holds them), with the end lines (`%TORYO`, [`End`]).

use crate::record::csa::notation::{
    move_to_csa, parse_move, write_position, PositionBlock, PositionBlockError,
};
use crate::{ByColor, Color, KingRule, Move, Position};
use std::fmt;
use std::io::{self, Write};
use std::time::{SystemTime, UNIX_EPOCH};

/// Header data of a record. Every field but the names is optional.
#[derive(Clone, Debug, Default)]
pub struct RecordInfo {
    /// Black's (`N+`) and White's (`N-`) names.
    pub names: ByColor<String>,
    /// `$EVENT` (the CSA client uses the Game_ID).
    pub event: Option<String>,
    /// `$SITE`.
    pub site: Option<String>,
    /// `$START_TIME`, as `YYYY/MM/DD HH:MM:SS` (see [`format_time`]).
    pub start_time: Option<String>,
    /// `$END_TIME`.
    pub end_time: Option<String>,
    /// `$TIME_LIMIT`, as `HH:MM+SS` (main time and byoyomi).
    pub time_limit: Option<String>,
    /// Comment lines written after the header (without the leading `'`).
    pub comments: Vec<String>,
    /// Comment lines written after the end line, e.g. the result.
    pub trailer: Vec<String>,
}

/// Formats a time as CSA records do, `YYYY/MM/DD HH:MM:SS`, in UTC.
pub fn format_time(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil_from_days.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}/{m:02}/{d:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Writes a whole record: `V2.2`, names, header fields, the start position, each move with its
/// time line (`T<sec>`) when known, the end line (`%TORYO`, `%SENNICHITE`, …; nothing when
/// empty) and the trailer comments. The moves must be legal from `start`; an illegal one is an
/// `InvalidInput` error, and nothing after it is written.
pub fn write_record(
    w: &mut impl Write,
    info: &RecordInfo,
    start: &Position,
    moves: &[(Move, Option<u32>)],
    end: &str,
) -> io::Result<()> {
    writeln!(w, "V2.2")?;
    writeln!(w, "N+{}", info.names[Color::Black])?;
    writeln!(w, "N-{}", info.names[Color::White])?;
    for (key, value) in [
        ("EVENT", &info.event),
        ("SITE", &info.site),
        ("START_TIME", &info.start_time),
        ("END_TIME", &info.end_time),
        ("TIME_LIMIT", &info.time_limit),
    ] {
        if let Some(v) = value {
            writeln!(w, "${key}:{v}")?;
        }
    }
    for c in &info.comments {
        writeln!(w, "'{c}")?;
    }
    if *start == Position::startpos() {
        writeln!(w, "PI")?;
        writeln!(w, "+")?;
    } else {
        write_position(w, start)?;
    }
    let mut pos = start.clone();
    for &(mv, t) in moves {
        if let Err(e) = pos.is_legal(mv) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("move {mv} is illegal in the record: {e}"),
            ));
        }
        writeln!(w, "{}", move_to_csa(&pos, mv))?;
        if let Some(t) = t {
            writeln!(w, "T{t}")?;
        }
        pos.do_move(mv);
    }
    if !end.is_empty() {
        writeln!(w, "{end}")?;
    }
    for c in &info.trailer {
        writeln!(w, "'{c}")?;
    }
    Ok(())
}

/// How a CSA game ends: its end line (`%TORYO`). Where a word names a side it is the side to
/// move, but for `%+ILLEGAL_ACTION` and `%-ILLEGAL_ACTION`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// `%TORYO`: the side to move resigns.
    Resign,
    /// `%CHUDAN`: the game was stopped.
    Interrupt,
    /// `%SENNICHITE`: fourfold repetition.
    Repetition,
    /// `%TIME_UP`: the side to move lost on time.
    TimeUp,
    /// `%ILLEGAL_MOVE`: the side to move made an illegal move.
    IllegalMove,
    /// `%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION`: that side broke the rules and loses.
    IllegalAction(Color),
    /// `%JISHOGI`: an impasse (持将棋).
    Jishogi,
    /// `%KACHI`: the side to move declares a win (入玉宣言).
    Declaration,
    /// `%HIKIWAKE`: a draw.
    Draw,
    /// `%MAX_MOVES`: the move limit.
    MaxMoves,
    /// `%TSUMI`: the side to move is mated.
    Mate,
    /// `%FUZUMI`: no mate (a problem's end).
    NoMate,
    /// `%ERROR`: an error.
    Error,
}

/// The end lines.
const END_WORDS: [(&str, End); 14] = [
    ("%TORYO", End::Resign),
    ("%CHUDAN", End::Interrupt),
    ("%SENNICHITE", End::Repetition),
    ("%TIME_UP", End::TimeUp),
    ("%ILLEGAL_MOVE", End::IllegalMove),
    ("%+ILLEGAL_ACTION", End::IllegalAction(Color::Black)),
    ("%-ILLEGAL_ACTION", End::IllegalAction(Color::White)),
    ("%JISHOGI", End::Jishogi),
    ("%KACHI", End::Declaration),
    ("%HIKIWAKE", End::Draw),
    ("%MAX_MOVES", End::MaxMoves),
    ("%TSUMI", End::Mate),
    ("%FUZUMI", End::NoMate),
    ("%ERROR", End::Error),
];

impl End {
    /// The end line (`%TORYO`).
    pub fn word(self) -> &'static str {
        crate::record::word_of(&END_WORDS, self)
    }

    /// The end an end line names.
    pub fn from_word(word: &str) -> Option<End> {
        END_WORDS.iter().find(|&&(w, _)| w == word).map(|&(_, e)| e)
    }
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// The games of a CSA text, each as its lines (trimmed): the parts between `/` lines that hold
/// anything but comments.
pub fn split_games(text: &str) -> Vec<Vec<&str>> {
    let mut games = vec![Vec::new()];
    for line in text.lines() {
        let t = line.trim_end_matches('\r').trim();
        if t == "/" {
            games.push(Vec::new());
        } else if let Some(g) = games.last_mut() {
            g.push(t);
        }
    }
    games.retain(|g| g.iter().any(|l| !l.is_empty() && !l.starts_with('\'')));
    games
}

/// One CSA game as read: its position block (the start and the move texts) and its end line.
#[derive(Clone, Debug)]
pub struct CsaGame {
    /// The start position and the moves.
    pub block: PositionBlock,
    /// The end line, if there is one and it is a known one.
    pub end: Option<End>,
}

/// Reads one game's lines (see [`split_games`]): statements (several on a line, separated by
/// commas) up to the end line (`%TORYO`, …); comments and time lines (`T12`) skipped.
pub fn read_game(lines: &[&str]) -> Result<CsaGame, PositionBlockError> {
    let mut block = PositionBlock::new();
    for line in lines {
        if line.starts_with('\'') {
            continue;
        }
        // A move and its time on one line (`+7776FU,T12`) is a statement pair.
        for st in line.split(',') {
            let st = st.trim();
            if st.starts_with('%') {
                let end = End::from_word(st);
                return Ok(CsaGame { block, end });
            }
            if st.is_empty() || (st.starts_with('T') && st[1..].parse::<f64>().is_ok()) {
                continue;
            }
            block.feed(st)?;
        }
    }
    Ok(CsaGame { block, end: None })
}

/// A CSA record read: where it starts, the moves, and the end line.
#[derive(Clone, Debug)]
pub struct CsaRecord {
    /// The start position (at ply 1).
    pub start: Position,
    /// The moves, all legal from `start`.
    pub moves: Vec<Move>,
    /// The end line, if there is one and it is a known one.
    pub end: Option<End>,
}

/// Reads the first game of a CSA text, every move checked by the rules.
pub fn read_record(text: &str) -> Result<CsaRecord, PositionBlockError> {
    let games = split_games(text);
    let lines = games.first().ok_or(PositionBlockError::MissingTurn)?;
    let game = read_game(lines)?;
    let setup = game.block.setup()?;
    let start =
        Position::from_setup(&setup, KingRule::Required).map_err(PositionBlockError::Position)?;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for (index, (text, _)) in game.block.moves().iter().enumerate() {
        let mv =
            parse_move(&pos, text).map_err(|error| PositionBlockError::Move { index, error })?;
        pos.do_move(mv);
        moves.push(mv);
    }
    Ok(CsaRecord {
        start,
        moves,
        end: game.end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn utc_formatting() {
        assert_eq!(format_time(UNIX_EPOCH), "1970/01/01 00:00:00");
        // 2021-11-05 22:00:05 UTC, the Floodgate game id's timestamp read as UTC.
        let t = UNIX_EPOCH + Duration::from_secs(1_636_149_605);
        assert_eq!(format_time(t), "2021/11/05 22:00:05");
        // A leap day.
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(format_time(t), "2000/02/29 00:00:00");
    }

    #[test]
    fn record_of_a_short_game() {
        let info = RecordInfo {
            names: ByColor(["alice".into(), "bob".into()]),
            event: Some("local+test".into()),
            start_time: Some("2026/11/29 13:18:09".into()),
            trailer: vec!["summary:toryo:alice win:bob lose".into()],
            ..RecordInfo::default()
        };
        let moves: Vec<(Move, Option<u32>)> = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]
            .iter()
            .zip([Some(0), Some(0), Some(0), Some(0), Some(1)])
            .map(|(m, t)| (Move::from_usi(m).unwrap(), t))
            .collect();
        let mut out = Vec::new();
        write_record(&mut out, &info, &Position::startpos(), &moves, "%TORYO").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "V2.2\nN+alice\nN-bob\n$EVENT:local+test\n$START_TIME:2026/11/29 13:18:09\nPI\n+\n\
             +7776FU\nT0\n-3334FU\nT0\n+8822UM\nT0\n-3122GI\nT0\n+0055KA\nT1\n%TORYO\n\
             'summary:toryo:alice win:bob lose\n"
        );
    }

    #[test]
    fn other_start_positions_are_written_in_full_and_bad_moves_refused() {
        let start = Position::from_sfen("8k/9/9/9/9/9/9/9/K8 b G 1").unwrap();
        let mv = Move::from_usi("G*1b").unwrap();
        let mut out = Vec::new();
        write_record(&mut out, &RecordInfo::default(), &start, &[(mv, None)], "").unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("P1 *  *  *  *  *  *  *  * -OU\n"), "{text}");
        assert!(text.contains("P+00KI\nP-\n+\n+0012KI\n"), "{text}");
        let bad = Move::from_usi("7g7f").unwrap();
        let err = write_record(
            &mut Vec::new(),
            &RecordInfo::default(),
            &start,
            &[(bad, None)],
            "",
        );
        assert_eq!(err.unwrap_err().kind(), io::ErrorKind::InvalidInput);
    }

    /// A record as the match writes one, by hand: 香落ち (`PI11KY`, White to move), a
    /// promotion, a drop, and Black's foul.
    #[test]
    fn a_handicap_record_read_back() {
        let text = "V2.2\nN+a\nN-b\n$EVENT:saikoro match\n'game 1, round 1\nPI11KY\n-\n\
                    -3334FU\nT1\n+7776FU\nT0\n-2288UM\nT2\n+7988GI\nT0\n-2133KE\nT0\n\
                    +0055KA\nT3\n%+ILLEGAL_ACTION\n'result: 0-1 {x} (illegal_move)\n";
        let r = read_record(text).unwrap();
        assert_eq!(
            r.start.to_sfen(),
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        let usi: Vec<String> = r.moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(usi, ["3c3d", "7g7f", "2b8h+", "7i8h", "2a3c", "B*5e"]);
        assert_eq!(r.end, Some(End::IllegalAction(Color::Black)));
        let e = read_record("PI\n+\n+7776FU\n-3334FU\n+7776FU\n").unwrap_err();
        assert!(e.to_string().starts_with("move 3 "), "{e}");
    }

    #[test]
    fn end_lines_both_ways() {
        for (word, end) in END_WORDS {
            assert_eq!(End::from_word(word), Some(end));
            assert_eq!(end.to_string(), word);
        }
        assert_eq!(End::from_word("%TORYO"), Some(End::Resign));
        assert_eq!(End::from_word("%MATTA"), None);
    }

    #[test]
    fn any_cut_of_a_csa_game_is_read_or_refused_without_a_panic() {
        let text =
            "V2.2\nN+a\n$EVENT:x\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n\
                    P+00KA00AL\nPI82HI\n+\n+7776FU,T1\n-3334FU\nT2\n+8822UM\n%TORYO\n/\nPI\n-\n";
        for i in 0..text.len() {
            for part in [&text[..i], &text[i..]] {
                for game in split_games(part) {
                    if let Ok(g) = read_game(&game) {
                        let _ = g.block.setup();
                    }
                }
            }
        }
    }

    #[test]
    fn csa_games_and_their_statements() {
        let text = "V2.2\nN+a\nN-b\nPI\n+\n+7776FU,T1\n-3334FU\nT2\n%TORYO\n/\n'c\n/\nPI\n-\n";
        let games = split_games(text);
        assert_eq!(games.len(), 2, "the comment-only part is no game");
        let g = read_game(&games[0]).unwrap();
        let moves: Vec<&str> = g.block.moves().iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(moves, ["+7776FU", "-3334FU"]);
        assert_eq!(g.end, Some(End::Resign));
        assert_eq!(read_game(&games[1]).unwrap().end, None);
        assert!(read_game(&["PI", "+", "+7776FU,T1,-3334FU"]).is_ok());
    }
}
