//! CSA record files (棋譜, CSA 標準棋譜ファイル形式 V2.2): the writer the CSA client and
//! self-play use.

use crate::record::csa::notation::{move_to_csa, write_position};
use crate::{ByColor, Color, Move, Position};
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
}
