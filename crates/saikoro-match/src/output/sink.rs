//! Where a finished game goes: the output sinks the match loop hands each game to, in this
//! order: the `Finished game` line on stdout ([`GameLines`]), the results file
//! ([`ResultsFile`], `--results`), the record ([`Records`], `--records`), the saved state
//! ([`StateFile`]), and, once the game is counted, the statistics every `--ratinginterval`
//! games ([`RatingInterval`]).
//!
//! Laid out after fastchess's `matchmaking/output/`: one interface with a hook per moment of
//! the match, each output a small type that implements the hooks it needs.

use crate::config::RecordFormat;
use crate::game::result::{GameRecord, Reason};
use crate::game::timecontrol::Limits;
use crate::output::lines::{finished_line, json_line_of, shogitest_line, GameInfo};
use crate::output::records;
use crate::output::state::{settings_line, SavedGame, StateWriter};
use crate::output::style::OutputStyle;
use crate::schedule::{ScheduledGame, Scoreboard};
use crate::types::{Ending, Match, MatchError, Progress, Reporter};
use saikoro_core::ByColor;
use saikoro_outfile::{self as outfile, AppendFile, Named};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A game that ended, as the sinks and the stop rules see it.
#[derive(Clone, Copy)]
pub struct Finished<'a> {
    /// The match it belongs to.
    pub m: &'a Match,
    /// Its place in the schedule.
    pub game: &'a ScheduledGame,
    /// Its number, round and engine names, as the output shows them.
    pub info: &'a GameInfo,
    /// How it went.
    pub record: &'a GameRecord,
    /// Its fingerprint (`output::fingerprint`).
    pub fingerprint: u128,
}

impl Finished<'_> {
    /// Whether the game counts: an interrupted game scores nothing and is not saved.
    pub fn counted(&self) -> bool {
        self.record.end.reason != Reason::Interrupted
    }

    /// Black's and White's limits.
    pub fn limits(&self) -> ByColor<Limits> {
        let engines = &self.m.config.engines;
        ByColor([
            engines[self.game.black].limits,
            engines[self.game.white].limits,
        ])
    }
}

/// Standard output with the live display: the display is taken off the screen before
/// anything is printed.
pub struct Console<'a> {
    out: &'a mut dyn Write,
    progress: &'a mut dyn Progress,
}

impl<'a> Console<'a> {
    /// Prints to `out`, with `progress` shown in between.
    pub fn new(out: &'a mut dyn Write, progress: &'a mut dyn Progress) -> Console<'a> {
        Console { out, progress }
    }

    /// Takes the display off the screen and returns stdout to print on.
    pub fn print(&mut self) -> &mut dyn Write {
        self.progress.clear();
        &mut *self.out
    }

    /// The live display.
    pub fn progress(&mut self) -> &mut dyn Progress {
        &mut *self.progress
    }
}

/// An output of the match. Each game goes through [`game`](GameSink::game) (every sink, in
/// order), and then, if it counts, through [`counted`](GameSink::counted); the match's start
/// and end through [`started`](GameSink::started) and [`ended`](GameSink::ended).
pub trait GameSink {
    /// The first game is about to start (`board` holds a resumed match's games). An error is
    /// logged, and the match goes on.
    fn started(&mut self, _m: &Match, _board: &Scoreboard) -> io::Result<()> {
        Ok(())
    }

    /// Every game is over: the match ended as `ending` says, or with `error`. An error is
    /// logged.
    fn ended(
        &mut self,
        _m: &Match,
        _board: &Scoreboard,
        _ending: &Ending,
        _error: Option<&MatchError>,
    ) -> io::Result<()> {
        Ok(())
    }

    /// A game ended (whether it counts or not): write it out. An error ends the match.
    fn game(&mut self, _game: &Finished<'_>, _console: &mut Console<'_>) -> Result<(), MatchError> {
        Ok(())
    }

    /// A game was counted: `board` holds it with the earlier ones. What is printed here (the
    /// statistics) is not a record of the match: an error is logged, and the match goes on.
    fn counted(
        &mut self,
        _game: &Finished<'_>,
        _board: &Scoreboard,
        _console: &mut Console<'_>,
    ) -> io::Result<()> {
        Ok(())
    }
}

/// The error of writing `what`.
pub(crate) fn io_error(what: impl Into<String>) -> impl FnOnce(io::Error) -> MatchError {
    let what = what.into();
    move |source| MatchError::Io { what, source }
}

/// The `Finished game 17 (new vs old): 1-0 {…}` line on stdout, in Saikoro's words or
/// shogitest's (which has no line for a game that was interrupted: the ShogiBench worker
/// could not score it).
#[derive(Debug, Default)]
pub struct GameLines {
    /// Whose words.
    pub style: OutputStyle,
}

impl GameSink for GameLines {
    fn game(&mut self, game: &Finished<'_>, console: &mut Console<'_>) -> Result<(), MatchError> {
        let line = match self.style {
            OutputStyle::Saikoro => finished_line(game.info, game.record),
            OutputStyle::Shogitest if !game.counted() => return Ok(()),
            OutputStyle::Shogitest => shogitest_line(game.info, game.record),
        };
        let out = console.print();
        writeln!(out, "{line}")
            .and_then(|_| out.flush())
            .map_err(io_error("stdout"))
    }
}

/// One JSON object per game, appended to the `--results` file, a whole line at a time. The
/// first game this run writes carries the match's settings (`settings`: the state's first
/// line), so that the file alone says under which settings its games were played; a resumed
/// match writes its own again with its first game.
#[derive(Debug)]
pub struct ResultsFile {
    file: AppendFile,
    /// Whether this run has written the settings.
    settings_written: bool,
}

impl ResultsFile {
    /// Opens `path` to append to it (creating it if need be).
    pub fn open(path: &Path) -> Result<ResultsFile, MatchError> {
        let file = AppendFile::open(path).map_err(io_error(path.display().to_string()))?;
        Ok(ResultsFile {
            file,
            settings_written: false,
        })
    }
}

impl GameSink for ResultsFile {
    fn game(&mut self, game: &Finished<'_>, _: &mut Console<'_>) -> Result<(), MatchError> {
        let m = game.m;
        let settings = (!self.settings_written).then(|| settings_line(&m.config, m.seed, &m.id));
        self.file
            .line(&json_line_of(
                &m.id,
                game.info,
                game.record,
                settings.as_deref(),
            ))
            .map_err(io_error(self.file.path().display().to_string()))?;
        self.settings_written = true;
        Ok(())
    }
}

/// Each game's record as a file in the `--records` directory.
#[derive(Debug)]
pub struct Records {
    dir: PathBuf,
    format: RecordFormat,
}

impl Records {
    /// Writes the records into `dir` (made if it is missing and its parent exists) in
    /// `format`.
    pub fn create(dir: &Path, format: RecordFormat) -> Result<Records, MatchError> {
        outfile::make_directory(Named::new("--records", dir))?;
        Ok(Records {
            dir: dir.to_path_buf(),
            format,
        })
    }
}

impl GameSink for Records {
    fn game(&mut self, game: &Finished<'_>, _: &mut Console<'_>) -> Result<(), MatchError> {
        records::write(
            &self.dir,
            self.format,
            game.info,
            game.record,
            &game.limits(),
        )
        .map(|_| ())
        .map_err(io_error(format!("the record of game {}", game.game.number)))
    }
}

/// The saved state of the match (`--state`, read by `--resume`): every game that counts.
#[derive(Debug)]
pub struct StateFile<'a> {
    writer: &'a mut StateWriter,
}

impl<'a> StateFile<'a> {
    /// Saves the games through `writer`.
    pub fn new(writer: &'a mut StateWriter) -> StateFile<'a> {
        StateFile { writer }
    }
}

impl GameSink for StateFile<'_> {
    fn game(&mut self, game: &Finished<'_>, _: &mut Console<'_>) -> Result<(), MatchError> {
        if game.counted() {
            let end = &game.record.end;
            self.writer.game(&SavedGame {
                number: game.game.number,
                result: end.result,
                reason: end.reason,
                fingerprint: Some(game.fingerprint),
            })?;
        }
        Ok(())
    }
}

/// The statistics block every `interval` counted games (0: never; the match's last block is
/// its caller's).
pub struct RatingInterval<'a> {
    interval: usize,
    reporter: &'a mut dyn Reporter,
}

impl<'a> RatingInterval<'a> {
    /// Prints `reporter`'s statistics every `interval` counted games.
    pub fn new(interval: u32, reporter: &'a mut dyn Reporter) -> RatingInterval<'a> {
        RatingInterval {
            interval: interval as usize,
            reporter,
        }
    }

    /// Whether the block is due once `counted` games are counted.
    fn due(&self, counted: usize) -> bool {
        self.interval > 0 && counted.is_multiple_of(self.interval)
    }
}

impl GameSink for RatingInterval<'_> {
    fn counted(
        &mut self,
        game: &Finished<'_>,
        board: &Scoreboard,
        console: &mut Console<'_>,
    ) -> io::Result<()> {
        if self.due(board.len()) {
            self.reporter.report(game.m, board, console.print())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::MatchConfig;
    use crate::game::book::Opening;
    use crate::game::result::{Decision, End};
    use std::time::SystemTime;

    fn scheduled(number: u64) -> ScheduledGame {
        ScheduledGame {
            number,
            round: 1,
            pairing: 0,
            black: 0,
            white: 1,
            opening: 0,
            partner: None,
        }
    }

    fn info(number: u64) -> GameInfo {
        GameInfo {
            number,
            round: 1,
            black: "a".into(),
            white: "b".into(),
            repeats: None,
        }
    }

    fn record(reason: Reason) -> GameRecord {
        let result = match reason {
            Reason::Interrupted => Decision::None,
            _ => Decision::Draw,
        };
        GameRecord {
            opening: Opening::startpos(),
            moves: Vec::new(),
            end: End::new(result, reason, "x".into()),
            time_used: ByColor([0, 0]),
            started: SystemTime::UNIX_EPOCH,
            ended: SystemTime::UNIX_EPOCH,
        }
    }

    /// Prints `block at N` (N: the games counted) and remembers N.
    #[derive(Default)]
    struct Blocks(Vec<usize>);

    impl Reporter for Blocks {
        fn report(&mut self, _: &Match, board: &Scoreboard, out: &mut dyn Write) -> io::Result<()> {
            self.0.push(board.len());
            writeln!(out, "block at {}", board.len())
        }
    }

    /// Counts the games `games` more on a board that holds `resumed` games (numbered from 1),
    /// every `interval` games; returns the counts at which a block was printed, and stdout.
    fn blocks(interval: u32, resumed: u64, games: u64) -> (Vec<usize>, String) {
        let m = Match::bare(MatchConfig::default(), &["a", "b"]);
        let (mut reporter, mut out, mut progress) = (Blocks::default(), Vec::new(), ());
        let mut console = Console::new(&mut out, &mut progress);
        let mut sink = RatingInterval::new(interval, &mut reporter);
        let mut board = Scoreboard::default();
        for n in 1..=resumed {
            board.add(&scheduled(n), Decision::Draw, Reason::Repetition, false);
        }
        let (g, i, r) = (scheduled(1), info(1), record(Reason::Repetition));
        let game = Finished {
            m: &m,
            game: &g,
            info: &i,
            record: &r,
            fingerprint: 7,
        };
        for n in resumed + 1..=resumed + games {
            board.add(&scheduled(n), Decision::Draw, Reason::Repetition, false);
            sink.counted(&game, &board, &mut console).unwrap();
        }
        (reporter.0, String::from_utf8(out).unwrap())
    }

    #[test]
    fn rating_interval_prints_every_n_counted_games() {
        // Games 1..=10, every 4: after the 4th and the 8th.
        let (at, out) = blocks(4, 0, 10);
        assert_eq!(at, [4, 8]);
        assert_eq!(out, "block at 4\nblock at 8\n");
        // Every game.
        assert_eq!(blocks(1, 0, 3).0, [1, 2, 3]);
    }

    #[test]
    fn rating_interval_counts_the_games_of_a_resumed_match() {
        // 3 games saved, 6 more: counted 4..=9, every 4: at 4 and 8 (not after 4 and 8 more).
        assert_eq!(blocks(4, 3, 6).0, [4, 8]);
    }

    #[test]
    fn rating_interval_zero_never_prints() {
        assert_eq!(blocks(0, 0, 25), (vec![], String::new()));
    }

    #[test]
    fn state_saves_only_counted_games() {
        let dir = std::env::temp_dir().join(format!("saikoro-sink-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state");
        let mut writer =
            StateWriter::create(&path, &MatchConfig::default(), 7, "0000000000000007").unwrap();
        let m = Match::bare(MatchConfig::default(), &["a", "b"]);
        let (mut out, mut progress) = (Vec::new(), ());
        let mut console = Console::new(&mut out, &mut progress);
        let mut sink = StateFile::new(&mut writer);
        for (n, reason) in [(1, Reason::Repetition), (2, Reason::Interrupted)] {
            let (g, i, r) = (scheduled(n), info(n), record(reason));
            let game = Finished {
                m: &m,
                game: &g,
                info: &i,
                record: &r,
                fingerprint: 7,
            };
            assert_eq!(game.counted(), reason != Reason::Interrupted);
            sink.game(&game, &mut console).unwrap();
        }
        drop(writer);
        // The header and game 1 (`load` would skip an interrupted game: read the lines).
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert_eq!(
            lines[1],
            r#"{"game":1,"result":"1/2-1/2","reason":"repetition","fingerprint":"00000000000000000000000000000007"}"#
        );
        assert!(out.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
