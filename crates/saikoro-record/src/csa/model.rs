//! CSA records on the record model ([`Record`]): [`read_records`] reads every game of a text
//! (games separated by a `/` line), V2.2 and V3.0, each move checked by the rules; [`write`]
//! writes one game as CSA V3.0 (`'CSA encoding=UTF-8`, `V3.0`) and [`write_version`] in either
//! version. This is the one CSA writer: `saikoro record convert`, the match's records, the CSA
//! client's and self-play's all go through it.
//!
//! What maps where:
//!
//! | CSA | [`Record`] |
//! |---|---|
//! | `N+`, `N-` | header `先手`, `後手` (written from `下手`/`上手` when those are the names) |
//! | `$EVENT`, `$SITE`, `$START_TIME`, `$END_TIME`, `$TIME_LIMIT`, `$OPENING` | `棋戦`, `場所`, `開始日時`, `終了日時`, `持ち時間`, `戦型` |
//! | any other `$KEY:value` | header `KEY` (written back as `$KEY:` when the key is a CSA key: `A`–`Z`, digits, `_`, `+`, `-`) |
//! | `PI…`, `P1`..`P9`, `P+`/`P-`, the turn line | [`Record::start`] |
//! | `'` and `'*` comments | before the first move: [`Record::comments`] (the text after `'`); after a move: that move's comments (a `'*` comment's text after `'*`); after the end line: the end's ([`RecordEnd::comments`]) |
//! | `T12`, `T12.345` (V3.0) | [`RecordMove::time_ms`]; after the end line, [`RecordEnd::time_ms`] |
//! | `%TORYO` … | [`Record::end`], through `END_WORDS` |

use crate::csa::notation::{parse_move, push_move, write_position, PositionBlock};
use crate::{Ending, Record, RecordEnd, RecordError, RecordMove};
use saikoro_core::{Color, Position};
use std::time::{SystemTime, UNIX_EPOCH};

/// What a CSA end word says, before the side to move at the end is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Word {
    /// An end that names no side, or names its side as [`Ending`] does.
    Plain(Ending),
    /// `ILLEGAL_MOVE`: the side to move loses by its foul (手番側の反則負け).
    MoverFoul,
}

/// The end words (特殊な指し手, without the `%`) of CSA and of JKF's `special`, one table for
/// reading and writing: the CSA 標準棋譜ファイル形式's list (V2.2: `TORYO` … `ERROR`; V3.0 adds
/// `MAX_MOVES`), each with its ending. The first word of an ending is the one written, so a foul
/// is written `+ILLEGAL_ACTION` or `-ILLEGAL_ACTION`, the spec's words that name the side that
/// broke the rules (先手の反則行為により、後手の勝ち), whichever side is to move; `ILLEGAL_MOVE`
/// (the side to move's foul) is read. `MATTA` (待った) is not a way a game ends and is not read.
const END_WORDS: [(&str, Word); 14] = [
    ("TORYO", Word::Plain(Ending::Resign)),
    ("CHUDAN", Word::Plain(Ending::Interrupt)),
    ("SENNICHITE", Word::Plain(Ending::Repetition)),
    ("TIME_UP", Word::Plain(Ending::TimeUp)),
    ("+ILLEGAL_ACTION", Word::Plain(Ending::Foul(Color::Black))),
    ("-ILLEGAL_ACTION", Word::Plain(Ending::Foul(Color::White))),
    ("ILLEGAL_MOVE", Word::MoverFoul),
    ("JISHOGI", Word::Plain(Ending::Jishogi)),
    ("KACHI", Word::Plain(Ending::Declaration)),
    ("HIKIWAKE", Word::Plain(Ending::Draw)),
    ("MAX_MOVES", Word::Plain(Ending::MaxMoves)),
    ("TSUMI", Word::Plain(Ending::Mate)),
    ("FUZUMI", Word::Plain(Ending::NoMate)),
    ("ERROR", Word::Plain(Ending::Error)),
];

/// The ending a CSA or JKF end word names (`TORYO`, no `%`), with `next` the side to move.
pub(crate) fn special_ending(word: &str, next: Color) -> Option<Ending> {
    END_WORDS
        .iter()
        .find(|&&(w, _)| w == word)
        .map(|&(_, e)| match e {
            Word::Plain(e) => e,
            Word::MoverFoul => Ending::Foul(next),
        })
}

/// The CSA and JKF end word of `end` (no `%`). The endings neither form has a word for (不戦勝,
/// 不戦敗, 封じ手) are written as `CHUDAN`, the game stopped.
pub(crate) fn special_word(end: Ending) -> &'static str {
    match end {
        Ending::DefaultWin | Ending::DefaultLoss | Ending::Sealed => "CHUDAN",
        e => crate::word_of(&END_WORDS, Word::Plain(e)),
    }
}

/// The versions of the CSA record format that [`write_version`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Version {
    /// V2.2 (2008), as Floodgate's records are written: the `V2.2` line, times in whole seconds
    /// (rounded down), and the comments after the end line as plain `'` lines (`'summary:…`).
    V22,
    /// V3.0 (2024): the `'CSA encoding=UTF-8` and `V3.0` lines, times with their milliseconds
    /// where they have any (`T12.345`), and the comments after the end line as `'*` lines, the
    /// comments a program reads.
    V30,
}

/// Formats a time as CSA records (and KIF's `開始日時`) write it, `YYYY/MM/DD HH:MM:SS`, in UTC.
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

/// A date and time as CSA writes `$START_TIME` and `$END_TIME`: `YYYY/MM/DD HH:MM:SS` (or
/// `YYYY/MM/DD` for a date alone), from the ways KIF writes `開始日時` — Kifu for Windows'
/// `2024/01/01(月) 10:00:00`, `2024/01/01 10:00`, `2024年1月1日 10時00分`, ISO's
/// `2024-01-01T10:00:00`; a text that is none of these is kept as it is.
fn csa_time(text: &str) -> String {
    let numbers: Vec<u32> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap_or(u32::MAX))
        .collect();
    let date_ok = |y: u32, m: u32, d: u32| {
        (1000..=9999).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d)
    };
    match numbers[..] {
        [y, m, d] if date_ok(y, m, d) => format!("{y:04}/{m:02}/{d:02}"),
        [y, m, d, h, min] if date_ok(y, m, d) && h < 24 && min < 60 => {
            format!("{y:04}/{m:02}/{d:02} {h:02}:{min:02}:00")
        }
        [y, m, d, h, min, s] if date_ok(y, m, d) && h < 24 && min < 60 && s < 61 => {
            format!("{y:04}/{m:02}/{d:02} {h:02}:{min:02}:{s:02}")
        }
        _ => text.to_string(),
    }
}

/// The header keys CSA has, with the record model's key for each.
const HEADER_KEYS: [(&str, &str); 6] = [
    ("EVENT", "棋戦"),
    ("SITE", "場所"),
    ("START_TIME", "開始日時"),
    ("END_TIME", "終了日時"),
    ("TIME_LIMIT", "持ち時間"),
    ("OPENING", "戦型"),
];

/// Whether `key` can be written as a CSA `$` key.
fn is_csa_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b"_+-".contains(&b))
}

/// A `T` statement's time in milliseconds: `T12` (V2.2, whole seconds) or `T12.345` (V3.0).
fn time_ms(text: &str) -> Option<u64> {
    let (secs, frac) = text.split_once('.').unwrap_or((text, ""));
    if secs.is_empty() || !secs.bytes().all(|b| b.is_ascii_digit()) || frac.len() > 3 {
        return None;
    }
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ms = format!("{frac:0<3}").parse::<u64>().ok()?;
    secs.parse::<u64>().ok()?.checked_mul(1000)?.checked_add(ms)
}

/// Where a game is in its reading.
#[derive(PartialEq, Eq)]
enum Phase {
    /// Version, names, `$` fields, the position lines.
    Header,
    /// After the turn line.
    Moves,
    /// After the end line: comments only.
    Ended,
}

/// One game being read.
struct GameReader {
    record: Record,
    block: PositionBlock,
    pos: Position,
    phase: Phase,
    /// The line of the game's first statement (0: none yet, a part of comments only).
    first_line: usize,
}

impl GameReader {
    fn new() -> GameReader {
        GameReader {
            record: Record::new(Position::startpos()),
            block: PositionBlock::new(),
            pos: Position::startpos(),
            phase: Phase::Header,
            first_line: 0,
        }
    }

    /// A comment line's text: a move's comment (after a move: `'*` or `'`, the `*` dropped), or
    /// one of the record's (before the first move: all after the `'`).
    fn comment(&mut self, text: &str) {
        if let Some(end) = self
            .record
            .end
            .as_mut()
            .filter(|_| self.phase == Phase::Ended)
        {
            let text = text.strip_prefix('*').unwrap_or(text);
            end.comments_mut().push(text.to_string());
            return;
        }
        match self.record.moves.last_mut() {
            Some(m) if self.phase != Phase::Header => {
                m.comments_mut()
                    .push(text.strip_prefix('*').unwrap_or(text).to_string());
            }
            _ => self.record.comments.push(text.to_string()),
        }
    }

    /// Reads one line (trimmed, not a comment).
    fn line(&mut self, n: usize, line: &str) -> Result<(), RecordError> {
        if self.phase == Phase::Header {
            return self.header_line(n, line);
        }
        // Statements: several on a line, separated by commas (`+7776FU,T12`); most lines hold
        // one, read whole (the line is trimmed already), without splitting.
        if !line.as_bytes().contains(&b',') {
            self.statement(n, line)?;
            return Ok(());
        }
        for st in line.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if !self.statement(n, st)? {
                break;
            }
        }
        Ok(())
    }

    /// Reads one statement of line `n`: `false` when the rest of the line is a comment.
    fn statement(&mut self, n: usize, st: &str) -> Result<bool, RecordError> {
        let err = |reason: String| RecordError::at(n, reason);
        if let Some(end) = self
            .record
            .end
            .as_mut()
            .filter(|_| self.phase == Phase::Ended)
        {
            // The time of the end line (`%TORYO,T0`): the end's.
            if let Some(ms) = st.strip_prefix('T').and_then(time_ms) {
                end.time_ms = Some(ms);
                return Ok(true);
            }
            return Err(err(format!("'{st}' after the end line")));
        }
        if let Some(c) = st.strip_prefix('\'') {
            self.comment(c);
            return Ok(false);
        }
        if let Some(word) = st.strip_prefix('%') {
            let next = self.pos.side_to_move();
            let end = special_ending(word, next)
                .ok_or_else(|| err(format!("'{st}' is not a CSA end line")))?;
            self.record.end = Some(RecordEnd::new(end));
            self.phase = Phase::Ended;
        } else if let Some(t) = st.strip_prefix('T') {
            let ms = time_ms(t).ok_or_else(|| err(format!("'{st}' is not a time")))?;
            let last = self.record.moves.last_mut();
            let last = last.ok_or_else(|| err(format!("time '{st}' before any move")))?;
            last.time_ms = Some(ms);
        } else if st.starts_with(['+', '-']) {
            let ply = self.record.moves.len() + 1;
            let mv = parse_move(&self.pos, st).map_err(|e| err(format!("move {ply}: {e}")))?;
            self.pos.do_move(mv);
            self.record.moves.push(RecordMove::new(mv));
        } else {
            return Err(err(format!("'{st}' is not a CSA move, time or end line")));
        }
        Ok(true)
    }

    fn header_line(&mut self, n: usize, line: &str) -> Result<(), RecordError> {
        let err = |reason: String| RecordError::at(n, reason);
        if line.starts_with('V') && line.len() > 1 {
            return Ok(());
        }
        if let Some(name) = line.strip_prefix("N+") {
            self.record.set_header("先手", name);
            return Ok(());
        }
        if let Some(name) = line.strip_prefix("N-") {
            self.record.set_header("後手", name);
            return Ok(());
        }
        if let Some(field) = line.strip_prefix('$') {
            let (key, value) = field
                .split_once(':')
                .ok_or_else(|| err(format!("'{line}': a $ line is $KEY:value")))?;
            let key = HEADER_KEYS
                .iter()
                .find(|(k, _)| *k == key)
                .map_or(key, |(_, ours)| ours);
            self.record.set_header(key, value);
            return Ok(());
        }
        if line == "+" || line == "-" {
            self.block.feed(line).map_err(|e| err(e.to_string()))?;
            let setup = self.block.setup().map_err(|e| err(e.to_string()))?;
            self.pos = Position::from_setup(&setup, crate::game::START_KINGS)
                .map_err(|e| err(format!("illegal position: {e}")))?;
            self.record.start = self.pos.clone();
            self.phase = Phase::Moves;
            return Ok(());
        }
        if line.starts_with('P') {
            return self
                .block
                .feed(line)
                .map_err(|e| err(format!("{e} (a P line: PI, P1..P9, P+ or P-)")));
        }
        if line.starts_with(['+', '-', '%', 'T']) {
            return Err(err(format!(
                "'{line}' before the turn line ('+' or '-' after the position)"
            )));
        }
        Err(err(format!("'{line}' is not a CSA line")))
    }

    fn finish(self) -> Result<Record, RecordError> {
        if self.phase == Phase::Header {
            return Err(RecordError::at(
                self.first_line,
                "no turn line ('+' or '-'): the game has no start position",
            ));
        }
        Ok(self.record)
    }
}

/// Every game of a CSA text (V2.2 or V3.0; several games separated by `/` lines), every move
/// checked by the rules: the first wrong line is the error, with its number in the whole text.
/// A part between `/` lines that holds nothing but comments is no game; a text with no game is
/// an error.
pub fn read_records(text: &str) -> Result<Vec<Record>, RecordError> {
    let mut out = Vec::new();
    let mut game: Option<GameReader> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end_matches('\r').trim();
        if line == "/" {
            if let Some(g) = game.take().filter(|g| g.first_line > 0) {
                out.push(g.finish()?);
            }
            continue;
        }
        if line.is_empty() || (n == 1 && line.starts_with("'CSA encoding=")) {
            continue;
        }
        let g = game.get_or_insert_with(GameReader::new);
        match line.strip_prefix('\'') {
            // A comment before a game's first statement waits for the game.
            Some(c) => g.comment(c),
            None => {
                if g.first_line == 0 {
                    g.first_line = n;
                }
                g.line(n, line)?;
            }
        }
    }
    if let Some(g) = game.filter(|g| g.first_line > 0) {
        out.push(g.finish()?);
    }
    if out.is_empty() {
        return Err(RecordError::at(0, "no CSA game in the text"));
    }
    Ok(out)
}

/// The `PI` line of `start` when it is the 平手 position less some pieces (a handicap), with
/// empty hands: `PI`, `PI82HI22KA`.
fn pi_line(start: &Position) -> Option<String> {
    let hirate = Position::startpos();
    if !start.hand(Color::Black).is_empty() || !start.hand(Color::White).is_empty() {
        return None;
    }
    let mut line = "PI".to_string();
    for sq in saikoro_core::Square::all() {
        match (hirate.piece_at(sq), start.piece_at(sq)) {
            (a, b) if a == b => {}
            (Some(p), None) => {
                line.push_str(&format!(
                    "{}{}{}",
                    sq.file(),
                    sq.rank(),
                    crate::csa::notation::piece_name(p.kind)
                ));
            }
            _ => return None,
        }
    }
    Some(line)
}

/// One game as CSA V3.0 ([`write_version`] with [`Version::V30`]): what `saikoro record
/// convert` writes.
pub fn write(record: &Record) -> String {
    write_version(record, Version::V30)
}

/// One game as CSA `version`: the version line (after the encoding line in V3.0), the names and
/// `$` fields, the comments before the first move (`'`), the start (`PI…` for 平手 and the
/// handicaps, else `P1`..`P9` and the hands), the turn line, each move with its time (`T12`;
/// `T12.345` in V3.0 when the time is not whole seconds) and its comments (`'*`), the end line
/// (`END_WORDS`) and the comments after it (`'*` in V3.0, `'` in V2.2). Header fields with no
/// CSA key (a key that is not `A`–`Z`, digits, `_`, `+`, `-`) are written as `'key：value`
/// comments, which read back as comments.
pub fn write_version(record: &Record, version: Version) -> String {
    let mut out = String::from(match version {
        Version::V22 => "V2.2\n",
        Version::V30 => "'CSA encoding=UTF-8\nV3.0\n",
    });
    let names = [
        (Color::Black, "N+", ["先手", "下手"]),
        (Color::White, "N-", ["後手", "上手"]),
    ];
    for (color, mark, _) in names {
        if let Some(name) = record.name(color) {
            out.push_str(&format!("{mark}{}\n", one_line(name)));
        }
    }
    let mut header_comments = Vec::new();
    for (key, value) in &record.header {
        if names
            .iter()
            .any(|(_, _, keys)| keys.contains(&key.as_str()))
        {
            continue;
        }
        let value = one_line(value);
        match HEADER_KEYS.iter().find(|(_, ours)| ours == key) {
            Some((csa @ ("START_TIME" | "END_TIME"), _)) => {
                out.push_str(&format!("${csa}:{}\n", csa_time(&value)));
            }
            Some((csa, _)) => out.push_str(&format!("${csa}:{value}\n")),
            None if is_csa_key(key) => out.push_str(&format!("${key}:{value}\n")),
            None => header_comments.push(format!("{key}：{value}")),
        }
    }
    for c in header_comments.iter().chain(&record.comments) {
        push_comment(&mut out, "'", c);
    }
    match pi_line(&record.start) {
        Some(pi) => {
            out.push_str(&pi);
            out.push('\n');
            out.push(crate::csa::notation::sign(record.start.side_to_move()));
            out.push('\n');
        }
        None => {
            let mut block = Vec::new();
            write_position(&mut block, &record.start).expect("writing to memory");
            out.push_str(&String::from_utf8_lossy(&block));
        }
    }
    let mut pos = record.start.clone();
    for m in &record.moves {
        push_move(&mut out, &pos, m.mv);
        out.push('\n');
        push_time(&mut out, m.time_ms, version);
        for c in m.comments() {
            push_comment(&mut out, "'*", c);
        }
        pos.do_move(m.mv);
    }
    if let Some(end) = &record.end {
        out.push('%');
        out.push_str(special_word(end.ending));
        out.push('\n');
        push_time(&mut out, end.time_ms, version);
        let mark = match version {
            Version::V22 => "'",
            Version::V30 => "'*",
        };
        for c in end.comments() {
            push_comment(&mut out, mark, c);
        }
    }
    out
}

/// A `T` line of a node's time, if it has one: whole seconds (rounded down) in V2.2, and in
/// V3.0 with the milliseconds where there are any (`T12.345`).
fn push_time(out: &mut String, time_ms: Option<u64>, version: Version) {
    use std::fmt::Write as _;
    match time_ms {
        Some(t) if t % 1000 == 0 || version == Version::V22 => {
            let _ = writeln!(out, "T{}", t / 1000);
        }
        Some(t) => {
            let _ = writeln!(out, "T{}.{:03}", t / 1000, t % 1000);
        }
        None => {}
    }
}

/// A header value on one line (a line break would end the CSA line).
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// A comment, each of its lines as a comment line.
fn push_comment(out: &mut String, mark: &str, text: &str) {
    for line in text.split('\n') {
        out.push_str(mark);
        out.push_str(line.trim_end_matches('\r'));
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// KIF's 開始日時 in Kifu for Windows' and other programs' ways, written as CSA's
    /// `YYYY/MM/DD HH:MM:SS`; a text of no date is kept.
    #[test]
    fn kif_dates_become_csa_times() {
        for (kif, csa) in [
            ("2024/01/01(月) 10:00:00", "2024/01/01 10:00:00"),
            ("2024/1/2 9:05", "2024/01/02 09:05:00"),
            ("2024年1月2日 9時05分", "2024/01/02 09:05:00"),
            ("2024-01-02T09:05:07", "2024/01/02 09:05:07"),
            ("2024/01/02", "2024/01/02"),
            ("yesterday", "yesterday"),
            ("2024/13/01 10:00:00", "2024/13/01 10:00:00"),
        ] {
            assert_eq!(csa_time(kif), csa, "{kif}");
        }
        let mut r = Record::new(Position::startpos());
        r.set_header("開始日時", "2024/01/01(月) 10:00:00");
        r.set_header("終了日時", "2024/01/01(月) 11:30:05");
        let text = write_version(&r, Version::V22);
        assert!(
            text.contains("$START_TIME:2024/01/01 10:00:00\n$END_TIME:2024/01/01 11:30:05\n"),
            "{text}"
        );
    }
    use saikoro_core::Move;
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

    /// A short game in V2.2 as Floodgate writes one (its `.csa` files, shogi-server's
    /// `'summary:` line): names, `$EVENT` and `$START_TIME`, `PI`, each move with its time in
    /// whole seconds (1.999 s is `T1`), the end line and the summary as a plain comment after it.
    #[test]
    fn record_of_a_short_game_in_v22() {
        let mut r = Record::new(Position::startpos());
        r.set_header("先手", "alice");
        r.set_header("後手", "bob");
        r.set_header("棋戦", "local+test");
        r.set_header("開始日時", "2026/11/29 13:18:09");
        r.moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]
            .iter()
            .zip([0, 0, 0, 0, 1999])
            .map(|(m, t)| RecordMove::with_time(Move::from_usi(m).unwrap(), Some(t)))
            .collect();
        r.set_end(
            Ending::Resign,
            vec!["summary:toryo:alice win:bob lose".into()],
        );
        assert_eq!(
            write_version(&r, Version::V22),
            "V2.2\nN+alice\nN-bob\n$EVENT:local+test\n$START_TIME:2026/11/29 13:18:09\nPI\n+\n\
             +7776FU\nT0\n-3334FU\nT0\n+8822UM\nT0\n-3122GI\nT0\n+0055KA\nT1\n%TORYO\n\
             'summary:toryo:alice win:bob lose\n"
        );
        let v3 = write(&r);
        assert!(
            v3.starts_with("'CSA encoding=UTF-8\nV3.0\nN+alice\n"),
            "{v3}"
        );
        assert!(
            v3.ends_with("+0055KA\nT1.999\n%TORYO\n'*summary:toryo:alice win:bob lose\n"),
            "{v3}"
        );
    }

    /// A start that is no handicap is written in full, hands and all (`P+00KI`, an empty `P-`).
    #[test]
    fn other_start_positions_are_written_in_full() {
        let mut r = Record::new(Position::from_sfen("8k/9/9/9/9/9/9/9/K8 b G 1").unwrap());
        r.moves = vec![RecordMove::new(Move::from_usi("G*1b").unwrap())];
        let text = write_version(&r, Version::V22);
        assert!(text.contains("P1 *  *  *  *  *  *  *  * -OU\n"), "{text}");
        assert!(text.contains("P+00KI\nP-\n+\n+0012KI\n"), "{text}");
    }

    /// A record as the match writes one, by hand: 香落ち (`PI11KY`, White to move), a
    /// promotion, a drop, and Black's foul.
    #[test]
    fn a_handicap_record_read_back() {
        let text = "V2.2\nN+a\nN-b\n$EVENT:saikoro match\n'game 1, round 1\nPI11KY\n-\n\
                    -3334FU\nT1\n+7776FU\nT0\n-2288UM\nT2\n+7988GI\nT0\n-2133KE\nT0\n\
                    +0055KA\nT3\n%+ILLEGAL_ACTION\n'result: 0-1 {x} (illegal_move)\n";
        let r = &read_records(text).unwrap()[0];
        assert_eq!(
            r.start.to_sfen(),
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        let usi: Vec<String> = r.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(usi, ["3c3d", "7g7f", "2b8h+", "7i8h", "2a3c", "B*5e"]);
        assert_eq!(r.ending(), Some(Ending::Foul(Color::Black)));
        assert_eq!(
            r.end.as_ref().unwrap().comments(),
            ["result: 0-1 {x} (illegal_move)"]
        );
        let e = read_records("PI\n+\n+7776FU\n-3334FU\n+7776FU\n").unwrap_err();
        assert!(e.to_string().starts_with("line 5: move 3: "), "{e}");
    }

    /// Each end word of the spec's list reads as its ending and that ending is written as the
    /// same word, but `ILLEGAL_MOVE` (the side to move's foul, 手番側の反則負け), which is
    /// written as the `+ILLEGAL_ACTION` or `-ILLEGAL_ACTION` of that side.
    #[test]
    fn end_words_both_ways() {
        for (word, _) in END_WORDS {
            for next in Color::ALL {
                let end = special_ending(word, next).unwrap();
                let back = special_word(end);
                match word {
                    "ILLEGAL_MOVE" => {
                        assert_eq!(end, Ending::Foul(next));
                        assert_eq!(back, ["+ILLEGAL_ACTION", "-ILLEGAL_ACTION"][next.index()]);
                    }
                    _ => assert_eq!(back, word),
                }
            }
        }
        assert_eq!(special_ending("MATTA", Color::Black), None);
        assert_eq!(special_word(Ending::Sealed), "CHUDAN");
    }

    /// Games split by `/` lines, a part of comments only being no game, and statements
    /// separated by commas on one line.
    #[test]
    fn csa_games_and_their_statements() {
        let text = "V2.2\nN+a\nN-b\nPI\n+\n+7776FU,T1\n-3334FU\nT2\n%TORYO\n/\n'c\n/\nPI\n-\n";
        let games = read_records(text).unwrap();
        assert_eq!(games.len(), 2, "the comment-only part is no game");
        let usi: Vec<String> = games[0].moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(usi, ["7g7f", "3c3d"]);
        assert_eq!(games[0].moves[1].time_ms, Some(2000));
        assert_eq!(games[0].ending(), Some(Ending::Resign));
        assert_eq!(games[1].ending(), None);
        assert_eq!(
            read_records("PI\n+\n+7776FU,T1,-3334FU\n").unwrap()[0]
                .moves
                .len(),
            2
        );
    }

    #[test]
    fn times_of_both_versions() {
        assert_eq!(time_ms("12"), Some(12_000));
        assert_eq!(time_ms("0.5"), Some(500));
        assert_eq!(time_ms("3.125"), Some(3_125));
        assert_eq!(time_ms("3.1256"), None);
        assert_eq!(time_ms(""), None);
        assert_eq!(time_ms("-1"), None);
        assert_eq!(time_ms("1.x"), None);
    }

    #[test]
    fn handicaps_are_pi_lines() {
        let kyo =
            Position::from_sfen("lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
                .unwrap();
        assert_eq!(pi_line(&kyo).as_deref(), Some("PI11KY"));
        assert_eq!(pi_line(&Position::startpos()).as_deref(), Some("PI"));
        let other = Position::from_sfen("8k/9/9/9/9/9/9/9/K8 b G 1").unwrap();
        assert_eq!(pi_line(&other), None);
    }
}
