//! The vocabulary every part of a match shares, below the driver (`run::scheduler`) that
//! uses it: the match ready to run ([`Match`]), what ends it with an error ([`MatchError`]),
//! how it ended ([`Ending`]), the Ctrl-C flags ([`Control`]), and the hooks for a live display
//! ([`Progress`]) and the statistics ([`Reporter`]). The outputs, the stop rules and the
//! standings import these, never the driver.

use crate::config::MatchConfig;
use crate::game::book::{self, Opening};
use crate::game::engine::EngineError;
use crate::output::lines::GameInfo;
use crate::output::state::{StateError, StateWriter};
use crate::schedule::{Pairing, ScheduledGame, Scoreboard};
use saikoro_outfile::OutputError;
use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Flags the Ctrl-C handler sets.
#[derive(Debug, Default)]
pub struct Control {
    /// Start no new game; let the running ones finish.
    pub stop_new: AtomicBool,
    /// End the running games now (they score nothing).
    pub abort: AtomicBool,
}

impl Control {
    /// What one more Ctrl-C does: the first stops new games, the second ends running ones.
    /// Returns the message to show.
    pub fn interrupt(&self) -> &'static str {
        if self.stop_new.swap(true, Ordering::SeqCst) {
            self.abort.store(true, Ordering::SeqCst);
            "saikoro match: ending the running games (they score nothing)"
        } else {
            "saikoro match: stopping after the running games (Ctrl-C again to end them now)"
        }
    }
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every game was played.
    Completed,
    /// The SPRT crossed a bound.
    Sprt(String),
    /// Ctrl-C.
    Interrupted,
    /// An engine failed in too many games in a row.
    EngineFailed(String),
}

impl Ending {
    /// The match's last line on stdout: `Match finished`, `Match finished: H1 was accepted …`,
    /// `Match interrupted: …`, `Match stopped: …`.
    pub fn last_line(&self) -> String {
        match self {
            Ending::Completed => "Match finished".to_string(),
            Ending::Sprt(why) => format!("Match finished: {why}"),
            Ending::Interrupted => "Match interrupted: resume it with --resume".to_string(),
            Ending::EngineFailed(why) => format!("Match stopped: {why}"),
        }
    }
}

/// What ends a match with an error.
#[derive(Debug)]
#[non_exhaustive]
pub enum MatchError {
    /// The openings cannot be used.
    Book(book::BookError),
    /// An engine cannot be run, or its options are wrong.
    Engine(EngineError),
    /// The state file.
    State(StateError),
    /// An output breaks the rule for every output file (docs/files.md).
    Output(OutputError),
    /// Writing results or records.
    Io {
        /// What was written.
        what: String,
        /// Why it failed.
        source: io::Error,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Book(e) => e.fmt(f),
            MatchError::Engine(e) => e.fmt(f),
            MatchError::State(e) => e.fmt(f),
            MatchError::Output(e) => e.fmt(f),
            MatchError::Io { what, source } => write!(f, "cannot write {what}: {source}"),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<StateError> for MatchError {
    fn from(e: StateError) -> Self {
        MatchError::State(e)
    }
}

impl From<OutputError> for MatchError {
    fn from(e: OutputError) -> Self {
        MatchError::Output(e)
    }
}

impl From<book::BookError> for MatchError {
    fn from(e: book::BookError) -> Self {
        MatchError::Book(e)
    }
}

/// A new match's id: 16 hexadecimal digits drawn from the system's entropy. The state, the
/// results file's lines and the page name it, so that a match knows its own files from
/// another match's (docs/files.md).
pub fn new_match_id() -> String {
    format!("{:016x}", saikoro_core::RandomMover::entropy_seed())
}

/// A match ready to run: settings, engine names, openings, schedule.
pub struct Match {
    /// Its id ([`new_match_id`]; a resumed match keeps its state's).
    pub id: String,
    /// The settings.
    pub config: MatchConfig,
    /// The engines' names, as the output shows them.
    pub names: Vec<String>,
    /// The openings in playing order.
    pub openings: Vec<Opening>,
    /// The seed of the opening order.
    pub seed: u64,
    /// The pairings.
    pub pairings: Vec<Pairing>,
    /// Every game.
    pub games: Vec<ScheduledGame>,
    /// Results of the games played (from the saved state when resuming).
    pub scoreboard: Scoreboard,
    /// Where the state is saved.
    pub(crate) state: Option<StateWriter>,
}

impl Match {
    /// A match of `names` with no games and no state, for the tests of its parts.
    #[cfg(test)]
    pub(crate) fn bare(config: MatchConfig, names: &[&str]) -> Match {
        Match {
            id: "00000000000000aa".to_string(),
            config,
            names: names.iter().map(|n| n.to_string()).collect(),
            openings: vec![Opening::startpos()],
            seed: 0,
            pairings: Vec::new(),
            games: Vec::new(),
            scoreboard: Scoreboard::default(),
            state: None,
        }
    }

    /// The game's names and numbers for the output.
    pub(crate) fn info(&self, g: &ScheduledGame) -> GameInfo {
        GameInfo {
            number: g.number,
            round: g.round,
            black: self.names[g.black].clone(),
            white: self.names[g.white].clone(),
            repeats: None,
        }
    }
}

/// What happens while the match runs, for a live display.
pub trait Progress {
    /// Something is about to be printed on stdout: take the display off the screen.
    fn clear(&mut self);
    /// A game finished: `done` of `total` games are counted (redraw the display).
    fn game_finished(&mut self, done: u64, total: u64);
    /// The match is over (clear the display).
    fn finish(&mut self);
}

/// No display.
impl Progress for () {
    fn clear(&mut self) {}
    fn game_finished(&mut self, _: u64, _: u64) {}
    fn finish(&mut self) {}
}

/// Prints the statistics: every `--ratinginterval` counted games (through
/// `RatingInterval`) and, by the caller, at the end.
pub trait Reporter {
    /// Prints the statistics of `m`'s pairings (`board` holds the results) to `out`.
    fn report(&mut self, m: &Match, board: &Scoreboard, out: &mut dyn Write) -> io::Result<()>;
}
