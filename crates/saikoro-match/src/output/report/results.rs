//! A results file (`--results`) read back: for its page, each line's game as the page's row,
//! the engines by their names in the order they first appear; for `saikoro record convert`,
//! each line's game as a record ([`read_records`]).

use super::data::{encode_game, GameRow, Games};
use crate::game::result::{ending, Decision, Reason};
use crate::output::lines::{GameInfo, ResultLine};
use crate::output::records::results_record;
use saikoro_core::Position;
use saikoro_core::{Color, Move};
use saikoro_record::{usi, Ending, Record, RecordError};

/// One results-file line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultsGame {
    /// Its number.
    pub number: u64,
    /// Its round.
    pub round: u64,
    /// Black's and White's names.
    pub black: String,
    /// White's name.
    pub white: String,
    /// `opening`, `result`, `reason`, `detail`, as written.
    pub opening: String,
    /// The result.
    pub result: String,
    /// Why it ended.
    pub reason: String,
    /// The end in words.
    pub detail: String,
    /// The engines' plies.
    pub plies: u64,
    /// Every move from the opening's start position, encoded.
    pub moves: String,
    /// The opening's own plies.
    pub opening_plies: u64,
    /// Each side's thinking time, when the line has it.
    pub time_ms: Option<(u64, u64)>,
    /// The earlier game it repeated, when it did.
    pub repeats: Option<u64>,
    /// How it ends in its record (`tournament::game::result::ending`).
    pub end: Ending,
    /// The side to move at its end.
    pub next: Color,
    /// Whether it starts from a handicap other than 平手.
    pub handicap: bool,
    /// The match's settings the line carries (the first line of each run of the match has
    /// them: `ResultLine::settings`), as their JSON text.
    pub settings: Option<String>,
}

/// A line's game with its start and its moves: what a record of it needs.
struct Parsed {
    game: ResultsGame,
    start: Option<Position>,
    moves: Vec<Move>,
}

/// The `moves …` of an opening's text (`startpos moves 7g7f`).
fn opening_moves(opening: &str) -> Vec<&str> {
    match opening.split_once(" moves ") {
        Some((_, moves)) => moves.split_whitespace().collect(),
        None => Vec::new(),
    }
}

/// The start position of an opening's text (`startpos` or `sfen …`, perhaps with `moves …`:
/// a USI `position` line without the word), read as a USI record's start is; `None` for one
/// the rules core cannot read.
fn start_position(opening: &str) -> Option<Position> {
    let head = opening.split(" moves ").next()?;
    let game = usi::read_records(head).ok()?.into_iter().next()?;
    Some(game.start)
}

/// Reads a results-file line ([`ResultLine`]) with its start and moves; the error says what is
/// wrong with a line that is no game, or whose opening's moves are not USI moves.
fn parse(line: &str) -> Result<Parsed, String> {
    let l = ResultLine::parse(line)?;
    let before = opening_moves(&l.opening);
    let parsed: Vec<Move> = before
        .iter()
        .map(|m| Move::from_usi(m).map_err(|_| format!("the opening's move {m} is no USI move")))
        .chain(l.moves.iter().map(|m| Ok(m.0)))
        .collect::<Result<_, _>>()?;
    let start = start_position(&l.opening);
    let mut moves = String::with_capacity(2 * parsed.len());
    encode_game(&mut moves, start.as_ref(), parsed.iter().copied());
    let first = start.as_ref().map_or(Color::Black, Position::side_to_move);
    let next = if parsed.len().is_multiple_of(2) {
        first
    } else {
        !first
    };
    // A result or reason of no known name: the record says the game stopped.
    let end = match (Decision::from_text(&l.result), Reason::from_name(&l.reason)) {
        (Some(d), Some(r)) => ending(d, r, next),
        _ => Ending::Interrupt,
    };
    let game = ResultsGame {
        number: l.game,
        round: u64::from(l.round),
        black: l.black.into_owned(),
        white: l.white.into_owned(),
        opening: l.opening.into_owned(),
        result: l.result.into_owned(),
        reason: l.reason.into_owned(),
        detail: l.detail.into_owned(),
        plies: l.plies as u64,
        moves,
        opening_plies: l.opening_plies as u64,
        time_ms: l.time_ms.map(|t| (t.black, t.white)),
        repeats: l.repeats,
        end,
        next,
        handicap: start
            .as_ref()
            .is_some_and(saikoro_record::japanese::is_handicap),
        settings: l.settings.map(std::borrow::Cow::into_owned),
    };
    Ok(Parsed {
        game,
        start,
        moves: parsed,
    })
}

/// Every game of a results file as a record (`records::results_record`: what `saikoro record
/// convert` writes of it): one a line, blank lines skipped. A line that is no game, or whose
/// start or moves the rules refuse, is an error at its line; a text with no game is an error.
pub fn results_records(text: &str) -> Result<Vec<Record>, RecordError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |why: &str| RecordError::at(i + 1, why);
        let p = parse(line).map_err(|why| bad(&format!("not a game of a results file: {why}")))?;
        let start = p
            .start
            .ok_or_else(|| bad("the opening's start is no legal position"))?;
        let mut pos = start.clone();
        for (k, &mv) in p.moves.iter().enumerate() {
            pos.is_legal(mv)
                .map_err(|e| bad(&format!("move {} ({mv}) is illegal: {e}", k + 1)))?;
            pos.do_move(mv);
        }
        let g = &p.game;
        let info = GameInfo {
            number: g.number,
            round: g.round as u32,
            black: g.black.clone(),
            white: g.white.clone(),
            repeats: g.repeats,
        };
        out.push(results_record(
            &info, &g.opening, start, &p.moves, g.end, &g.detail,
        ));
    }
    if out.is_empty() {
        return Err(RecordError::at(0, "no game in the results file"));
    }
    Ok(out)
}

impl ResultsGame {
    /// Reads a results-file line; the error says what is wrong with a line that is no game (or
    /// whose moves are not USI moves).
    pub fn parse(line: &str) -> Result<ResultsGame, String> {
        parse(line).map(|p| p.game)
    }

    /// The page's row, with the engines' indices.
    pub fn push_to(&self, games: &mut Games, black: usize, white: usize) {
        games.push(&GameRow {
            number: self.number,
            round: self.round,
            black,
            white,
            opening: &self.opening,
            result: &self.result,
            reason: &self.reason,
            detail: &self.detail,
            plies: self.plies,
            moves: &self.moves,
            time_ms: self.time_ms,
            opening_plies: self.opening_plies,
            end: self.end,
            next: self.next,
            handicap: self.handicap,
        });
    }
}

/// The index of `name` in `names`, added at the end if new.
pub fn engine_index(names: &mut Vec<String>, name: &str) -> usize {
    match names.iter().position(|n| n == name) {
        Some(i) => i,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_with_an_opening_and_times() {
        let line = "{\"game\":3,\"round\":2,\"black\":\"a\",\"white\":\"b \\\"c\\\"\",\
                    \"opening\":\"startpos moves 7g7f\",\"opening_line\":0,\"result\":\"0-1\",\
                    \"reason\":\"resign\",\"detail\":\"Black resigns\",\"plies\":1,\
                    \"opening_plies\":1,\"moves\":[\"3c3d\"],\"time_ms\":{\"black\":5,\
                    \"white\":7},\"repeats\":1}";
        let g = ResultsGame::parse(line).unwrap();
        assert_eq!((g.number, g.round, g.plies, g.opening_plies), (3, 2, 1, 1));
        assert_eq!(g.white, "b \"c\"");
        // 7g7f, index 24 of the 30 legal moves, then 3c3d, index 5 of 30: 24 + 31 * 5 = 179,
        // below 31 * 31 = 961, two characters: 2 * 64 + 51 → C z.
        assert_eq!(g.moves, "2:Cz");
        assert_eq!((g.time_ms, g.repeats), (Some((5, 7)), Some(1)));
        assert_eq!(
            ResultsGame::parse("{\"saikoro\":1}"),
            Err("missing field `game` at column 13".to_string())
        );
    }
}
