//! `go perft N` on a thread of its own, so that the session keeps answering while it counts:
//! `isready` at once, `stop` (or a new `go`, `gameover`, the end of input) ends the count with
//! what was counted so far, `quit` ends it without a word.

use crate::{divide_until, Divide, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::Instant;

/// Called on the counting thread when a count ends, so that the reader of the input can call
/// [`Engine::perft_done`](super::Engine::perft_done) without waiting for a line.
pub type PerftWaker = Arc<dyn Fn() + Send + Sync>;

/// A `go perft` being counted.
pub(super) struct PerftJob {
    depth: u32,
    stop: Arc<AtomicBool>,
    /// Set by the counting thread when it ends, before it calls the waker.
    done: Arc<OnceLock<()>>,
    counting: JoinHandle<(Divide, f64)>,
}

/// A finished or stopped count, ready to print.
pub(super) struct PerftReport {
    pub depth: u32,
    pub divide: Divide,
    pub secs: f64,
    /// What ended an incomplete count (`stop`, `end of input`, ...).
    pub stopped_by: &'static str,
}

impl PerftJob {
    /// Starts counting `pos` to `depth` (≥ 1); `waker` is called when the count ends.
    pub fn start(mut pos: Position, depth: u32, waker: Option<PerftWaker>) -> PerftJob {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let done = Arc::new(OnceLock::new());
        let done_flag = Arc::clone(&done);
        let counting = thread::spawn(move || {
            let started = Instant::now();
            let divide = match depth {
                0 => Divide {
                    counts: Vec::new(),
                    root_moves: 0,
                },
                _ => divide_until(&mut pos, depth, &flag),
            };
            let secs = started.elapsed().as_secs_f64();
            let _ = done_flag.set(());
            if let Some(wake) = waker {
                wake();
            }
            (divide, secs)
        });
        PerftJob {
            depth,
            stop,
            done,
            counting,
        }
    }

    /// Whether the count has ended (joining it waits only for the thread to return).
    pub fn is_finished(&self) -> bool {
        self.done.get().is_some()
    }

    /// Asks the count to end, without waiting.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Waits for the count (after [`PerftJob::stop`], microseconds); `stopped_by` names what
    /// ended it, should it be incomplete.
    pub fn join(self, stopped_by: &'static str) -> PerftReport {
        let (divide, secs) = match self.counting.join() {
            Ok(d) => d,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        PerftReport {
            depth: self.depth,
            divide,
            secs,
            stopped_by,
        }
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
                "info string perft {depth} stopped by {}: {} of {} moves counted, {total} nodes in them (a partial count) time {time}",
                self.stopped_by,
                self.divide.counts.len(),
                self.divide.root_moves
            ));
        }
        lines
    }
}
