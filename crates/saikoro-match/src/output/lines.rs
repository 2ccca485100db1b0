//! What the match writes per game: the `Finished game` line and one JSON object per line of the
//! results file (`--results`), [`ResultLine`], written and read back through serde.

use crate::game::result::GameRecord;
#[cfg(doc)]
use crate::game::result::{Decision, Reason};
use crate::output::style::{shogitest_reason, shogitest_result};
use saikoro_core::{Color, Move};
use saikoro_usi::PositionLine;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt::Write as _;

/// A scheduled game: its number, round, engines and opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// 1-based, in schedule order.
    pub number: u64,
    /// 1-based.
    pub round: u32,
    /// Black's engine name.
    pub black: String,
    /// White's engine name.
    pub white: String,
    /// The earlier game this one repeated move for move, if it did.
    pub repeats: Option<u64>,
}

/// FNV-1a over 128 bits (Fowler, Noll and Vo's published parameters): a hash that is the same
/// in every build, as a fingerprint saved in the match state must be.
struct Fnv128(u128);

impl Fnv128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u128::from(b)).wrapping_mul(Self::PRIME);
        }
    }

    /// A move, by its squares.
    fn mv(&mut self, mv: Move) {
        self.bytes(&match mv {
            Move::Normal { from, to, promote } => {
                [0, from.index() as u8, to.index() as u8, u8::from(promote)]
            }
            Move::Drop { kind, to } => [1, kind as u8, to.index() as u8, 0],
        });
    }
}

impl std::fmt::Write for Fnv128 {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.bytes(s.as_bytes());
        Ok(())
    }
}

/// A game's fingerprint: equal for two games of a match with the same opening (its line in
/// the openings file, and its moves), the same engines on the same sides (`black`, `white`:
/// their indices), the same moves and the same end. Two games with equal fingerprints are the
/// same game, move for move.
pub fn fingerprint(black: usize, white: usize, record: &GameRecord) -> u128 {
    let mut h = Fnv128(Fnv128::OFFSET);
    let _ = write!(h, "{black} {white} {} ", record.opening.line);
    // The moves by their squares, not their text: formatting each move cost ~850
    // instructions, a tenth of the runner's work per ply.
    for &mv in &record.opening.moves {
        h.mv(mv);
    }
    // Between the opening's moves and the engines'.
    h.bytes(&[0xff]);
    for m in &record.moves {
        h.mv(m.mv);
    }
    let _ = write!(h, "\n{} {}", record.end.result.text(), record.end.reason);
    h.0
}

/// `Finished game 17 (new vs old): 1-0 {White's illegal move 5e5d+}` (Black's name first).
pub fn finished_line(info: &GameInfo, record: &GameRecord) -> String {
    format!(
        "Finished game {} ({} vs {}): {} {{{}}}",
        info.number,
        info.black,
        info.white,
        record.end.result.text(),
        record.end.detail
    )
}

/// The same line in shogitest's words, which the ShogiBench worker reads: `Finished game 17
/// (new-dev vs old-base): 0-1 {Sente makes an illegal move}` (Sente's name first).
pub fn shogitest_line(info: &GameInfo, record: &GameRecord) -> String {
    format!(
        "Finished game {} ({} vs {}): {} {{{}}}",
        info.number,
        info.black,
        info.white,
        shogitest_result(record.end.result),
        shogitest_reason(&record.end)
    )
}

/// The opening as sent after `position`: `startpos moves …` or `sfen … moves …`.
pub fn opening_text(record: &GameRecord) -> String {
    let line = PositionLine::from_game(&record.opening.game());
    line.as_str()
        .strip_prefix("position ")
        .unwrap_or(line.as_str())
        .to_string()
}

/// One line of the results file (`--results`): docs/match.md's schema, its keys in this order,
/// those after `time_ms` only when they have something to say. The match writes it
/// ([`json_line_of`]);
/// `saikoro report`, `saikoro record convert` and a resumed match read it back with it.
/// `result` and `reason` stay text, so that a line with a name this build does not know (a
/// newer Saikoro's) is still a game. `time_ms` is in every line the match writes; a line
/// without it is read, with no times.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultLine<'a> {
    /// The game's number in the schedule (1-based).
    pub game: u64,
    /// Its round (1-based).
    pub round: u32,
    /// Black's engine name.
    pub black: Cow<'a, str>,
    /// White's engine name.
    pub white: Cow<'a, str>,
    /// The opening as sent after `position` ([`opening_text`]).
    pub opening: Cow<'a, str>,
    /// Its line in the openings file (0: the default start position).
    pub opening_line: usize,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` ([`Decision::text`]).
    pub result: Cow<'a, str>,
    /// Why the game ended ([`Reason::name`]).
    pub reason: Cow<'a, str>,
    /// The words of the `Finished game` line.
    pub detail: Cow<'a, str>,
    /// The moves the engines played (after the opening).
    pub plies: usize,
    /// The moves of the opening.
    pub opening_plies: usize,
    /// The engines' moves, from the end of the opening.
    pub moves: Vec<UsiMove>,
    /// Each side's thinking time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<SideTimes>,
    /// The `bestmove` text of an illegal move or declaration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub illegal_move: Option<Cow<'a, str>>,
    /// The earlier game this one repeated move for move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeats: Option<u64>,
    /// A failed engine's last lines on its stderr.
    #[serde(default, skip_serializing_if = "<[String]>::is_empty")]
    pub stderr: Cow<'a, [String]>,
    /// The id of the match that played it (its state's, `types::new_match_id`): whose game it
    /// is. None in lines written before matches had one.
    #[serde(rename = "match", default, skip_serializing_if = "Option::is_none")]
    pub match_id: Option<Cow<'a, str>>,
    /// The match's settings, in the first line each run of the match writes (its start, and
    /// each `--resume`): the JSON text of the state file's first line (`output::state`), so
    /// that the results file alone says under which settings its games were played. Last in
    /// the line, a member the readers from before it ignore (serde passes over a member a type
    /// does not name).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "raw_json")]
    pub settings: Option<Cow<'a, str>>,
}

/// A member whose value is a JSON text kept as it is: written as that JSON (not as a string),
/// read back as its text.
mod raw_json {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::value::RawValue;
    use std::borrow::Cow;

    pub fn serialize<S: Serializer>(text: &Option<Cow<'_, str>>, s: S) -> Result<S::Ok, S::Error> {
        let raw = text
            .as_deref()
            .map(|t| RawValue::from_string(t.to_string()))
            .transpose()
            .map_err(serde::ser::Error::custom)?;
        raw.serialize(s)
    }

    pub fn deserialize<'de, 'a, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Cow<'a, str>>, D::Error> {
        let raw = Option::<Box<RawValue>>::deserialize(d)?;
        Ok(raw.map(|r| Cow::Owned(r.get().to_string())))
    }
}

/// Each side's thinking time in milliseconds: `{"black":N,"white":N}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideTimes {
    /// Black's.
    pub black: u64,
    /// White's.
    pub white: u64,
}

/// A move in a JSON text as its USI string (`"7g7f"`, `"P*5e"`, `"8h2b+"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UsiMove(pub Move);

impl Serialize for UsiMove {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.usi().as_str())
    }
}

impl<'de> Deserialize<'de> for UsiMove {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Move::from_usi(&text)
            .map(UsiMove)
            .map_err(|_| de::Error::invalid_value(de::Unexpected::Str(&text), &"a USI move"))
    }
}

/// Just the game's number of a results-file line: what counting and trimming a results file
/// need (a torn line, or one that is no JSON object with a `game` number, is none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub struct GameNumber {
    /// The game's number.
    pub game: u64,
}

impl GameNumber {
    /// The number of a results-file line; `None` for a line that is no game.
    pub fn of(line: &str) -> Option<u64> {
        serde_json::from_str::<GameNumber>(line)
            .ok()
            .map(|g| g.game)
    }
}

impl<'a> ResultLine<'a> {
    /// The line of a game, borrowing from it.
    pub fn new(info: &'a GameInfo, record: &'a GameRecord) -> ResultLine<'a> {
        ResultLine {
            game: info.number,
            round: info.round,
            black: Cow::Borrowed(&info.black),
            white: Cow::Borrowed(&info.white),
            opening: Cow::Owned(opening_text(record)),
            opening_line: record.opening.line,
            result: Cow::Borrowed(record.end.result.text()),
            reason: Cow::Borrowed(record.end.reason.name()),
            detail: Cow::Borrowed(&record.end.detail),
            plies: record.moves.len(),
            opening_plies: record.opening.moves.len(),
            moves: record.moves.iter().map(|m| UsiMove(m.mv)).collect(),
            time_ms: Some(SideTimes {
                black: record.time_used[Color::Black],
                white: record.time_used[Color::White],
            }),
            illegal_move: record.end.illegal_move.as_deref().map(Cow::Borrowed),
            repeats: info.repeats,
            stderr: Cow::Borrowed(&record.end.stderr),
            match_id: None,
            settings: None,
        }
    }

    /// Reads a results-file line; the error says what is wrong with it ([`json_error`]).
    pub fn parse(line: &str) -> Result<ResultLine<'static>, String> {
        serde_json::from_str(line).map_err(|e| json_error(&e))
    }
}

/// What is wrong with a one-line JSON text, by serde_json, its place given as the column (the
/// caller names the file and the line): `missing field `round` at column 40`.
pub fn json_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let at = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&at) {
        Some(what) if e.line() > 0 => format!("{what} at column {}", e.column()),
        _ => text,
    }
}

/// A value's JSON text: compact, as every JSON line of the match is written. Writing the
/// plain structs of this module's formats cannot fail (no map has keys that are not strings,
/// and every `Serialize` here writes what it is given).
pub fn json_text(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("the match's JSON texts are plain data")
}

/// The results-file line of a game (without the newline): [`ResultLine`]'s JSON text. Keys, in
/// order: `game`, `round`, `black`, `white`, `opening`, `opening_line`, `result`, `reason`,
/// `detail`, `plies`, `opening_plies`, `moves`, `time_ms` (`black`, `white`), then
/// `illegal_move`, `repeats` and `stderr` when the game has them, and `match` and `settings`
/// when the match writes it ([`json_line_of`]).
#[cfg(test)]
pub fn json_line(info: &GameInfo, record: &GameRecord) -> String {
    json_text(&ResultLine::new(info, record))
}

/// [`json_line`] of a game of the match `id`: its line ends with `"match":"…"`, and then, when
/// given, with `"settings":` and the JSON text `settings` (the state's first line).
pub fn json_line_of(
    id: &str,
    info: &GameInfo,
    record: &GameRecord,
    settings: Option<&str>,
) -> String {
    let mut line = ResultLine::new(info, record);
    line.match_id = Some(Cow::Borrowed(id));
    line.settings = settings.map(Cow::Borrowed);
    json_text(&line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::book::Opening;
    use crate::game::result::{Decision, End, PlayedMove, Reason};
    use saikoro_core::{ByColor, Move};
    use std::time::SystemTime;

    fn record() -> GameRecord {
        let mut opening = Opening::startpos();
        opening.moves.push(Move::from_usi("7g7f").unwrap());
        opening.line = 3;
        GameRecord {
            opening,
            moves: vec![PlayedMove {
                mv: Move::from_usi("3c3d").unwrap(),
                time_ms: 12,
                score: None,
                depth: None,
                nodes: None,
                place: None,
            }],
            end: End {
                result: Decision::Win(Color::Black),
                reason: Reason::IllegalMove,
                detail: "White's illegal move 5e5d+".into(),
                illegal_move: Some("5e5d+".into()),
                failed: None,
                stderr: Vec::new(),
                late: None,
            },
            time_used: ByColor([0, 12]),
            started: SystemTime::UNIX_EPOCH,
            ended: SystemTime::UNIX_EPOCH,
        }
    }

    fn info() -> GameInfo {
        GameInfo {
            number: 17,
            round: 9,
            black: "new".into(),
            white: "old \"v2\"".into(),
            repeats: None,
        }
    }

    #[test]
    fn finished_line_as_the_issue_writes_it() {
        let mut i = info();
        i.white = "old".into();
        assert_eq!(
            finished_line(&i, &record()),
            "Finished game 17 (new vs old): 1-0 {White's illegal move 5e5d+}"
        );
    }

    #[test]
    fn json_lines() {
        let line = json_line(&info(), &record());
        assert_eq!(
            line,
            "{\"game\":17,\"round\":9,\"black\":\"new\",\"white\":\"old \\\"v2\\\"\",\
             \"opening\":\"startpos moves 7g7f\",\"opening_line\":3,\"result\":\"1-0\",\
             \"reason\":\"illegal_move\",\"detail\":\"White's illegal move 5e5d+\",\
             \"plies\":1,\"opening_plies\":1,\"moves\":[\"3c3d\"],\
             \"time_ms\":{\"black\":0,\"white\":12},\"illegal_move\":\"5e5d+\"}"
        );
        // Read back with the type that wrote it.
        let read = ResultLine::parse(&line).unwrap();
        assert_eq!(read.white, "old \"v2\"");
        assert_eq!(read.plies, 1);
        assert_eq!(read, ResultLine::new(&info(), &record()));
        // A key that is not there is no game number.
        assert_eq!(GameNumber::of("{\"nothing\":17}"), None);
        assert_eq!(GameNumber::of(&line), Some(17));
        assert_eq!(
            (
                read.game,
                Decision::from_text(&read.result),
                Reason::from_name(&read.reason)
            ),
            (
                17,
                Some(Decision::Win(Color::Black)),
                Some(Reason::IllegalMove)
            )
        );
        // serde_json's escapes: control characters as `\u00XX` in lower case, but `\n`.
        assert_eq!(
            serde_json::to_string("a\u{1}\n").unwrap(),
            "\"a\\u0001\\n\""
        );
    }

    /// The keys a game has only sometimes, after the others in docs/match.md's order, and the
    /// escapes of an engine's stderr: `\b` and `\f` as JSON's short escapes (the hand-written
    /// writer before serde wrote `\u0008` and `\u000c`; every JSON reader reads both), DEL
    /// and non-ASCII text as they are.
    #[test]
    fn a_line_with_repeats_and_stderr() {
        let mut i = info();
        i.repeats = Some(4);
        let mut r = record();
        r.end.illegal_move = None;
        r.end.stderr = vec!["panic: \"x\"\tat\u{8}\u{c}\u{7f}".into(), "王\\".into()];
        let line = json_line(&i, &r);
        assert!(
            line.ends_with(
                "\"time_ms\":{\"black\":0,\"white\":12},\"repeats\":4,\
                 \"stderr\":[\"panic: \\\"x\\\"\\tat\\b\\f\u{7f}\",\"王\\\\\"]}"
            ),
            "{line}"
        );
        assert_eq!(ResultLine::parse(&line), Ok(ResultLine::new(&i, &r)));
        // A line without times (no writer leaves them out; a reader takes it).
        let bare = line.replace("\"time_ms\":{\"black\":0,\"white\":12},", "");
        assert_eq!(ResultLine::parse(&bare).unwrap().time_ms, None);
        // What is wrong, and where.
        assert_eq!(
            ResultLine::parse("{\"game\":1}"),
            Err("missing field `round` at column 10".to_string())
        );
        let bad = line.replace("\"3c3d\"", "\"3c3x\"");
        // The column of the `]` after it: where serde_json's reader stands when the array
        // refuses its element.
        let column = bad.find("\"3c3x\"]").unwrap() + "\"3c3x\"]".len();
        assert_eq!(
            ResultLine::parse(&bad).map(|_| ()),
            Err(format!(
                "invalid value: string \"3c3x\", expected a USI move at column {column}"
            ))
        );
    }

    /// The settings the first line of a run carries come last, as a JSON object (not a string),
    /// and read back as their text; the readers from before them pass over the member.
    #[test]
    fn a_line_with_the_settings() {
        let settings =
            r#"{"saikoro_match_state":2,"seed":7,"id":"00000000000000ab","match":{"rounds":2}}"#;
        let id = "00000000000000ab";
        let line = json_line_of(id, &info(), &record(), Some(settings));
        let tail = format!(",\"match\":\"{id}\",\"settings\":{settings}}}");
        assert!(line.ends_with(&tail), "{line}");
        let read = ResultLine::parse(&line).unwrap();
        assert_eq!(read.settings.as_deref(), Some(settings));
        assert_eq!(read.match_id.as_deref(), Some(id));
        // Every other line of a run: as before the settings were kept.
        let plain = json_line_of(id, &info(), &record(), None);
        assert_eq!(
            line.replace(&format!(",\"settings\":{settings}"), ""),
            plain
        );
        assert_eq!(ResultLine::parse(&plain).unwrap().settings, None);
        // A reader that names fewer members (as every reader before this one did): serde
        // passes over the others, the settings among them.
        #[derive(Deserialize)]
        struct Before {
            game: u64,
            moves: Vec<UsiMove>,
            #[serde(rename = "match")]
            id: Option<String>,
        }
        let before: Before = serde_json::from_str(&line).unwrap();
        assert_eq!((before.game, before.moves.len()), (17, 1));
        assert_eq!(before.id.as_deref(), Some(id));
        assert_eq!(GameNumber::of(&line), Some(17));
    }

    /// The moves' text in a results line is their `Display`, the USI text: every legal move of
    /// the published perft positions (drops of every kind, promotions, the 593 moves of the
    /// max-moves position).
    #[test]
    fn moves_are_written_as_their_usi_text() {
        let mut n = 0;
        for case in saikoro_core::published_perft() {
            let pos = saikoro_core::Position::from_sfen(case.sfen).unwrap();
            for &mv in pos.legal_moves().iter() {
                let json = serde_json::to_string(&UsiMove(mv)).unwrap();
                assert_eq!(json, format!("\"{mv}\""));
                assert_eq!(serde_json::from_str::<UsiMove>(&json).unwrap(), UsiMove(mv));
                n += 1;
            }
        }
        assert!(n > 1000, "{n}");
    }
}
