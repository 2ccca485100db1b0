//! `go perft N` and what serves the input while a debug command counts ([`Alongside`]).
//!
//! A count runs on the session's own thread, like every other command, so the lines after it
//! are acted on once it is done and the answers come out in the order asked (YaneuraOu and
//! Stockfish do the same). Only `stop` and `isready` are served while it counts, by the
//! [`Alongside`] the binary installs: it reads the input on another thread for as long as the
//! count runs, and no longer.

use saikoro_core::{divide_until, Divide, Position};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// Serves the input while a count (`go perft`, `bench`) runs on the session's thread: from
/// [`Alongside::begin`] to [`Alongside::end`], a `stop` line sets the flag (which ends the
/// count, with a partial result), an `isready` gets its `readyok` at once, and every other
/// line waits for its turn after the count.
pub trait Alongside: Send {
    /// A count starts; setting `stop` ends it.
    fn begin(&mut self, stop: Arc<AtomicBool>);
    /// The count is over: lines read from now on are the session's again.
    fn end(&mut self);
}

/// A finished or stopped count, ready to print.
pub(super) struct PerftReport {
    pub depth: u32,
    pub divide: Divide,
    pub secs: f64,
}

/// Counts `pos` to `depth` until `stop` is set.
pub(super) fn count(mut pos: Position, depth: u32, stop: &AtomicBool) -> PerftReport {
    let started = Instant::now();
    let divide = match depth {
        0 => Divide {
            counts: Vec::new(),
            root_moves: 0,
        },
        _ => divide_until(&mut pos, depth, stop),
    };
    PerftReport {
        depth,
        divide,
        secs: started.elapsed().as_secs_f64(),
    }
}

impl PerftReport {
    /// The output lines: `move: count` per root move counted (Stockfish's divide format), a
    /// blank line, then `Nodes searched: N` and an `info string` with the time when complete;
    /// when stopped, no `Nodes searched` line (a script reading it would take a part for the
    /// total) but an `info string` that says how far the count got.
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .divide
            .counts
            .iter()
            .map(|(m, n)| format!("{m}: {n}"))
            .collect();
        lines.push(String::new());
        // perft 0 counts the position itself: no root move, one node.
        let total = if self.depth == 0 {
            1
        } else {
            self.divide.total()
        };
        let depth = self.depth;
        let time = (self.secs * 1000.0).round() as u64;
        if self.divide.is_complete() {
            let nps = (total as f64 / self.secs.max(1e-9)).round() as u64;
            lines.push(format!("Nodes searched: {total}"));
            lines.push(format!(
                "info string perft {depth} nodes {total} time {time} nps {nps}"
            ));
        } else {
            lines.push(format!(
                "info string perft {depth} stopped by stop: {} of {} moves counted, {total} nodes in them (a partial count) time {time}",
                self.divide.counts.len(),
                self.divide.root_moves
            ));
        }
        lines
    }
}
