//! The Game_Summary a CSA server sends before a game: ids, names, colours, the Time block(s)
//! and the Position block with any moves already played.

use super::clock::TimeRules;
use saikoro_core::{ByColor, Color, Game, KingRule, Move, Position};
use saikoro_record::csa::notation::{parse_move, PositionBlock, PositionBlockError};
use std::collections::HashMap;
use std::fmt;

/// Why a Game_Summary could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SummaryError {
    /// A required key is missing.
    Missing(&'static str),
    /// A value that does not parse.
    BadValue {
        /// The key.
        key: String,
        /// Its value.
        value: String,
    },
    /// Lines outside the expected `BEGIN`/`END` structure.
    Structure(String),
    /// The Position block.
    Position(PositionBlockError),
    /// `To_Move` disagrees with the position after the listed moves.
    ToMoveMismatch,
}

impl fmt::Display for SummaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SummaryError::Missing(k) => write!(f, "Game_Summary has no {k}"),
            SummaryError::BadValue { key, value } => write!(f, "bad {key}: '{value}'"),
            SummaryError::Structure(l) => write!(f, "unexpected Game_Summary line '{l}'"),
            SummaryError::Position(e) => write!(f, "{e}"),
            SummaryError::ToMoveMismatch => {
                f.write_str("To_Move disagrees with the position and its moves")
            }
        }
    }
}

impl std::error::Error for SummaryError {}

impl From<PositionBlockError> for SummaryError {
    fn from(e: PositionBlockError) -> Self {
        SummaryError::Position(e)
    }
}

/// A parsed Game_Summary.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// `Protocol_Version` (`1.2` on shogi-server).
    pub protocol_version: Option<String>,
    /// `Declaration` (`Jishogi 1.1` = the CSA 27-point rule), if any.
    pub declaration: Option<String>,
    /// `Game_ID`.
    pub game_id: String,
    /// `Name+` and `Name-`.
    pub names: ByColor<String>,
    /// `Your_Turn`: our colour.
    pub us: Color,
    /// `To_Move`, if given: on shogi-server the side to move *after* the listed moves.
    pub to_move: Option<Color>,
    /// `Max_Moves` (0 or absent = no limit).
    pub max_moves: Option<u32>,
    /// Each side's time rules (common Time block, overridden per side by `Time+`/`Time-`).
    pub time: ByColor<TimeRules>,
    /// The Position block: start position and moves already played.
    pub position: PositionBlock,
    /// Keys the parser did not know (kept for the log).
    pub unknown: Vec<String>,
}

/// Applies a Time block's `key:value` pairs onto `r`.
fn apply_time(r: &mut TimeRules, kv: &HashMap<String, String>) -> Result<(), SummaryError> {
    let bad = |k: &str, v: &str| SummaryError::BadValue {
        key: k.to_string(),
        value: v.to_string(),
    };
    for (k, v) in kv {
        let num = || v.trim().parse::<u64>().map_err(|_| bad(k, v));
        match k.as_str() {
            "Time_Unit" => r.unit_ms = parse_time_unit(v).ok_or_else(|| bad(k, v))?,
            "Total_Time" => r.total = num()?,
            "Byoyomi" => r.byoyomi = num()?,
            "Increment" => r.increment = num()?,
            "Least_Time_Per_Move" => r.least_time_per_move = num()?,
            "Delay" => r.delay = num()?,
            "Time_Roundup" => r.roundup = v.trim() == "YES",
            _ => {}
        }
    }
    Ok(())
}

/// `1sec`, `1min`, `1msec`, `10sec`, … to milliseconds.
fn parse_time_unit(v: &str) -> Option<u64> {
    let v = v.trim();
    let digits = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
    let n: u64 = if digits == 0 {
        1
    } else {
        v[..digits].parse().ok()?
    };
    let per = match &v[digits..] {
        "msec" => 1,
        "sec" => 1000,
        "min" => 60_000,
        _ => return None,
    };
    Some(n * per)
}

fn parse_color(v: &str) -> Option<Color> {
    match v.trim() {
        "+" => Some(Color::Black),
        "-" => Some(Color::White),
        _ => None,
    }
}

/// A Game_Summary's lines sorted by block: the top-level and Time blocks' `key:value` pairs,
/// the Position block read, and the top-level lines that are no pair.
#[derive(Default)]
struct Blocks {
    top: HashMap<String, String>,
    /// `Time`, `Time+`, `Time-`.
    times: [HashMap<String, String>; 3],
    position: PositionBlock,
    unknown: Vec<String>,
}

impl Blocks {
    /// Sorts `lines` into their blocks (checking that every block ends).
    fn read<S: AsRef<str>>(lines: &[S]) -> Result<Blocks, SummaryError> {
        let mut b = Blocks::default();
        // 0 = top level, 1 = Time, 2 = Time+, 3 = Time-, 4 = Position
        let mut section = 0;
        for line in lines {
            let line = line.as_ref().trim_end_matches('\r');
            match line {
                "BEGIN Game_Summary" | "END Game_Summary" => continue,
                "BEGIN Time" if section == 0 => section = 1,
                "BEGIN Time+" if section == 0 => section = 2,
                "BEGIN Time-" if section == 0 => section = 3,
                "BEGIN Position" if section == 0 => section = 4,
                "END Time" if section == 1 => section = 0,
                "END Time+" if section == 2 => section = 0,
                "END Time-" if section == 3 => section = 0,
                "END Position" if section == 4 => section = 0,
                _ if section == 4 => b.position.feed(line)?,
                "" => {}
                _ => {
                    let Some((k, v)) = line.split_once(':') else {
                        if line.starts_with("BEGIN ") || line.starts_with("END ") {
                            return Err(SummaryError::Structure(line.to_string()));
                        }
                        b.unknown.push(line.to_string());
                        continue;
                    };
                    let map = if section == 0 {
                        &mut b.top
                    } else {
                        &mut b.times[section - 1]
                    };
                    map.insert(k.to_string(), v.to_string());
                }
            }
        }
        if section != 0 {
            return Err(SummaryError::Structure("unterminated block".into()));
        }
        Ok(b)
    }

    /// Each side's time rules: the common Time block, overridden by `Time+` and `Time-`.
    fn time(&self) -> Result<ByColor<TimeRules>, SummaryError> {
        let mut common = TimeRules::default();
        apply_time(&mut common, &self.times[0])?;
        let mut time = ByColor([common, common]);
        apply_time(&mut time[Color::Black], &self.times[1])?;
        apply_time(&mut time[Color::White], &self.times[2])?;
        Ok(time)
    }
}

impl GameSummary {
    /// Parses the lines between `BEGIN Game_Summary` and `END Game_Summary` (those two lines
    /// may be included or not). Unknown keys are kept in [`GameSummary::unknown`].
    pub fn parse<S: AsRef<str>>(lines: &[S]) -> Result<GameSummary, SummaryError> {
        let blocks = Blocks::read(lines)?;
        let time = blocks.time()?;
        let Blocks {
            mut top,
            position,
            mut unknown,
            ..
        } = blocks;
        let mut take = |k: &str| top.remove(k);
        let game_id = take("Game_ID").ok_or(SummaryError::Missing("Game_ID"))?;
        let your_turn = take("Your_Turn").ok_or(SummaryError::Missing("Your_Turn"))?;
        let us = parse_color(&your_turn).ok_or(SummaryError::BadValue {
            key: "Your_Turn".into(),
            value: your_turn,
        })?;
        let to_move = match take("To_Move") {
            None => None,
            Some(v) => Some(parse_color(&v).ok_or(SummaryError::BadValue {
                key: "To_Move".into(),
                value: v,
            })?),
        };
        let max_moves = match take("Max_Moves") {
            None => None,
            Some(v) => Some(v.trim().parse().map_err(|_| SummaryError::BadValue {
                key: "Max_Moves".into(),
                value: v,
            })?),
        };
        let names = ByColor([
            take("Name+").unwrap_or_default(),
            take("Name-").unwrap_or_default(),
        ]);
        let protocol_version = take("Protocol_Version");
        let declaration = take("Declaration");
        for k in ["Protocol_Mode", "Format", "Rematch_On_Draw"] {
            take(k);
        }
        unknown.extend(top.into_iter().map(|(k, v)| format!("{k}:{v}")));
        unknown.sort();
        Ok(GameSummary {
            protocol_version,
            declaration,
            game_id,
            names,
            us,
            to_move,
            max_moves,
            time,
            position,
            unknown,
        })
    }

    /// The game as the summary describes it: the start position with the listed moves played
    /// (each checked against the rules), and those moves with their times. Checks `To_Move`
    /// against the result, accepting it also as the side to move of the start position (the
    /// spec's reading; shogi-server means the side after the moves).
    #[allow(clippy::type_complexity)]
    pub fn game(&self) -> Result<(Game, Vec<(Move, Option<u32>)>), SummaryError> {
        let setup = self.position.setup()?;
        let start = Position::from_setup(&setup, KingRule::Required)
            .map_err(|e| SummaryError::Position(PositionBlockError::Position(e)))?;
        let mut game = Game::new(start.clone());
        let mut moves = Vec::new();
        for (index, (text, t)) in self.position.moves().iter().enumerate() {
            let mv = parse_move(game.position(), text).map_err(|error| {
                SummaryError::Position(PositionBlockError::Move { index, error })
            })?;
            game.play(mv);
            moves.push((mv, *t));
        }
        if let Some(tm) = self.to_move {
            if tm != game.position().side_to_move() && tm != start.side_to_move() {
                return Err(SummaryError::ToMoveMismatch);
            }
        }
        Ok((game, moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Floodgate summary quoted in the protocol notes (2021-11-05, floodgate-300-10F),
    /// with an extra unknown key.
    const FLOODGATE: &str = "\
BEGIN Game_Summary
Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:wdoor+floodgate-300-10F+e-gov-vote-kifuwarabe+Kristallweizen-Core2Duo-P7450+20211105220005
Name+:e-gov-vote-kifuwarabe
Name-:Kristallweizen-Core2Duo-P7450
Your_Turn:+
Rematch_On_Draw:NO
To_Move:+
Max_Moves:256
Reconnect_Token:abc
BEGIN Time
Time_Unit:1sec
Total_Time:300
Byoyomi:0
Increment:10
Least_Time_Per_Move:0
END Time
BEGIN Position
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
END Position
END Game_Summary
";

    fn lines(s: &str) -> Vec<&str> {
        s.lines().collect()
    }

    #[test]
    fn floodgate_summary() {
        let s = GameSummary::parse(&lines(FLOODGATE)).unwrap();
        assert_eq!(s.game_id, "wdoor+floodgate-300-10F+e-gov-vote-kifuwarabe+Kristallweizen-Core2Duo-P7450+20211105220005");
        assert_eq!(s.names[Color::Black], "e-gov-vote-kifuwarabe");
        assert_eq!(s.names[Color::White], "Kristallweizen-Core2Duo-P7450");
        assert_eq!(s.us, Color::Black);
        assert_eq!(s.to_move, Some(Color::Black));
        assert_eq!(s.max_moves, Some(256));
        assert_eq!(s.declaration.as_deref(), Some("Jishogi 1.1"));
        assert_eq!(s.unknown, vec!["Reconnect_Token:abc".to_string()]);
        let r = s.time[Color::White];
        assert_eq!(
            (r.unit_ms, r.total, r.byoyomi, r.increment),
            (1000, 300, 0, 10)
        );
        let (game, moves) = s.game().unwrap();
        assert_eq!(game.position(), &Position::startpos());
        assert!(moves.is_empty());
    }

    /// shogi-server's 1-move buoy: `To_Move:-` with the Position's turn line `+`.
    #[test]
    fn buoy_with_a_move_already_played() {
        let text = FLOODGATE
            .replace("To_Move:+", "To_Move:-")
            .replace("+\nEND Position", "+\n+7776FU,T1\nEND Position");
        let s = GameSummary::parse(&lines(&text)).unwrap();
        let (game, moves) = s.game().unwrap();
        assert_eq!(moves, vec![(Move::from_usi("7g7f").unwrap(), Some(1))]);
        assert_eq!(game.position().side_to_move(), Color::White);
        let bad = text.replace("+7776FU,T1", "+7775FU,T1");
        assert!(GameSummary::parse(&lines(&bad)).unwrap().game().is_err());
    }

    #[test]
    fn per_side_time_blocks_inherit_the_common_one() {
        let text = FLOODGATE.replace(
            "END Time\n",
            "END Time\nBEGIN Time+\nTotal_Time:600\nEND Time+\nBEGIN Time-\nTime_Unit:1min\nByoyomi:1\nIncrement:0\nEND Time-\n",
        );
        let s = GameSummary::parse(&lines(&text)).unwrap();
        let b = s.time[Color::Black];
        let w = s.time[Color::White];
        assert_eq!((b.unit_ms, b.total, b.increment), (1000, 600, 10));
        assert_eq!(
            (w.unit_ms, w.total, w.byoyomi, w.increment),
            (60_000, 300, 1, 0)
        );
    }

    #[test]
    fn time_units_and_flags() {
        assert_eq!(parse_time_unit("1sec"), Some(1000));
        assert_eq!(parse_time_unit("1min"), Some(60_000));
        assert_eq!(parse_time_unit("1msec"), Some(1));
        assert_eq!(parse_time_unit("10sec"), Some(10_000));
        assert_eq!(parse_time_unit("sec"), Some(1000));
        assert_eq!(parse_time_unit("1hour"), None);
        let text = FLOODGATE.replace("END Time\n", "Time_Roundup:YES\nDelay:2\nEND Time\n");
        let s = GameSummary::parse(&lines(&text)).unwrap();
        assert!(s.time[Color::Black].roundup);
        assert_eq!(s.time[Color::Black].delay, 2);
    }

    #[test]
    fn missing_id_and_bad_values_are_errors() {
        let no_id: Vec<&str> = lines(FLOODGATE)
            .into_iter()
            .filter(|l| !l.starts_with("Game_ID"))
            .collect();
        assert_eq!(
            GameSummary::parse(&no_id).unwrap_err(),
            SummaryError::Missing("Game_ID")
        );
        let bad = FLOODGATE.replace("Total_Time:300", "Total_Time:abc");
        assert!(matches!(
            GameSummary::parse(&lines(&bad)),
            Err(SummaryError::BadValue { .. })
        ));
        let mismatch = FLOODGATE.replace("To_Move:+", "To_Move:-");
        let s = GameSummary::parse(&lines(&mismatch)).unwrap();
        assert_eq!(s.game().unwrap_err(), SummaryError::ToMoveMismatch);
    }
}
