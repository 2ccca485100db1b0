//! What the match writes per game: the `Finished game` line and one JSON object per line of the
//! results file (`--results`). JSON is written by hand: the objects are flat and their keys
//! fixed, and the reader (the match state of `--resume`) needs only a few of them.

use crate::json::{json_string, read_json_string};
use crate::tournament::game::result::{Decision, GameRecord, Reason};
use crate::tournament::output::style::{shogitest_reason, shogitest_result};
use crate::usi::PositionLine;
use crate::{Color, Move};
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

/// The results-file line of a game (without the newline). Keys, in order: `game`, `round`,
/// `black`, `white`, `opening`, `opening_line`, `result`, `reason`, `detail`, `plies`,
/// `opening_plies`, `moves`, `time_ms` (`black`, `white`), and `illegal_move` when there is one.
pub fn json_line(info: &GameInfo, record: &GameRecord) -> String {
    let mut o = String::with_capacity(256 + 6 * record.moves.len());
    let _ = write!(
        o,
        "{{\"game\":{},\"round\":{},\"black\":",
        info.number, info.round
    );
    json_string(&mut o, &info.black);
    o.push_str(",\"white\":");
    json_string(&mut o, &info.white);
    o.push_str(",\"opening\":");
    json_string(&mut o, &opening_text(record));
    let _ = write!(o, ",\"opening_line\":{}", record.opening.line);
    let _ = write!(
        o,
        ",\"result\":\"{}\",\"reason\":\"{}\",\"detail\":",
        record.end.result.text(),
        record.end.reason
    );
    json_string(&mut o, &record.end.detail);
    let _ = write!(
        o,
        ",\"plies\":{},\"opening_plies\":{},\"moves\":[",
        record.moves.len(),
        record.opening.moves.len()
    );
    for (i, m) in record.moves.iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        let _ = write!(o, "\"{}\"", m.mv);
    }
    let _ = write!(
        o,
        "],\"time_ms\":{{\"black\":{},\"white\":{}}}",
        record.time_used[Color::Black],
        record.time_used[Color::White]
    );
    if let Some(t) = &record.end.illegal_move {
        o.push_str(",\"illegal_move\":");
        json_string(&mut o, t);
    }
    if let Some(n) = info.repeats {
        let _ = write!(o, ",\"repeats\":{n}");
    }
    if !record.end.stderr.is_empty() {
        o.push_str(",\"stderr\":[");
        for (i, line) in record.end.stderr.iter().enumerate() {
            if i > 0 {
                o.push(',');
            }
            json_string(&mut o, line);
        }
        o.push(']');
    }
    o.push('}');
    o
}

/// Reads a flat JSON object's value for `key` as raw text: a string (unescaped) or a number.
/// Enough for the lines this module writes; `None` when the key is missing or the text is not
/// such an object.
pub fn json_field(line: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\":");
    let mut from = 0;
    // The key must be a key, not text inside a string: keys follow '{' or ','.
    let at = loop {
        let i = line[from..].find(&pat)? + from;
        if i > 0 && matches!(line.as_bytes()[i - 1], b'{' | b',') {
            break i + pat.len();
        }
        from = i + 1;
    };
    let rest = &line[at..];
    if rest.starts_with('"') {
        read_json_string(rest).map(|(s, _)| s)
    } else {
        let end = rest.find([',', '}']).unwrap_or(rest.len());
        Some(rest[..end].trim().to_string())
    }
}

/// The result and reason of a results-file (or state-file) line.
pub fn parse_result(line: &str) -> Option<(u64, Decision, Reason)> {
    let game = json_field(line, "game")?.parse().ok()?;
    let result = Decision::from_text(&json_field(line, "result")?)?;
    let reason = Reason::from_name(&json_field(line, "reason")?)?;
    Some((game, result, reason))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::game::book::Opening;
    use crate::tournament::game::result::{End, PlayedMove};
    use crate::{ByColor, Move};
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
                overrun_us: None,
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
        assert_eq!(json_field(&line, "white").as_deref(), Some("old \"v2\""));
        assert_eq!(json_field(&line, "plies").as_deref(), Some("1"));
        assert_eq!(json_field(&line, "nothing"), None);
        assert_eq!(
            parse_result(&line),
            Some((17, Decision::Win(Color::Black), Reason::IllegalMove))
        );
        let mut s = String::new();
        json_string(&mut s, "a\u{1}\n");
        assert_eq!(s, "\"a\\u0001\\n\"");
    }
}
