//! A one-line progress display for long runs ("selfplay: 120/1000 games, 850.2 games/s,
//! ETA 0:01"), redrawn in place on stderr, and only when stderr is a terminal: piped into a
//! file, a script or a CI log, it prints nothing at all.
//!
//! ```text
//! let mut progress = Progress::on_stderr("selfplay", "games", Some(total));
//! for i in 0..total {
//!     play_one();
//!     progress.update(i + 1);
//! }
//! progress.finish(); // erases the line (also done on drop)
//! ```

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

/// How often the line is redrawn, at most.
const REDRAW: Duration = Duration::from_millis(200);

/// A progress line: units done out of a total (if known), the rate, and the time left.
pub struct Progress {
    /// Where to draw; `None` when disabled (stderr is not a terminal).
    out: Option<Box<dyn Write>>,
    label: String,
    unit: String,
    total: Option<u64>,
    start: Instant,
    /// No redraw before this instant; `None` before the first draw.
    next_draw: Option<Instant>,
    /// Characters of the line now on screen, to blank out when it shrinks or is erased.
    shown: usize,
}

impl Progress {
    /// A display on stderr when stderr is a terminal, else one that does nothing. `label` starts
    /// the line (the command's name), `unit` names what is counted ("games"), `total` is the
    /// number of units the run will do, if known (without it there is no estimate of the time
    /// left).
    pub fn on_stderr(label: &str, unit: &str, total: Option<u64>) -> Progress {
        let out: Option<Box<dyn Write>> = match io::stderr().is_terminal() {
            true => Some(Box::new(io::stderr())),
            false => None,
        };
        Progress::new(out, label, unit, total)
    }

    /// A display drawn into `out`, or a disabled one with `None` (for tests).
    pub fn new(out: Option<Box<dyn Write>>, label: &str, unit: &str, total: Option<u64>) -> Self {
        Progress {
            out,
            label: label.to_string(),
            unit: unit.to_string(),
            total,
            start: Instant::now(),
            next_draw: None,
            shown: 0,
        }
    }

    /// Reports `done` units so far. Draws at once the first time, then at most every 200 ms.
    /// Costs one clock read when enabled, nothing when disabled.
    pub fn update(&mut self, done: u64) {
        if self.out.is_none() {
            return;
        }
        let now = Instant::now();
        if self.next_draw.is_some_and(|t| now < t) {
            return;
        }
        self.next_draw = Some(now + REDRAW);
        let line = status_line(&self.label, &self.unit, done, self.total, now - self.start);
        self.draw(&line);
    }

    /// Erases the line, so what follows starts on a clean line. Further updates are ignored.
    pub fn finish(&mut self) {
        if self.shown > 0 {
            self.draw("");
        }
        self.out = None;
    }

    /// Replaces the line on screen by `line` (a carriage return, the text, blanks over the
    /// rest of the previous line, and a carriage return again when erasing). Write errors are
    /// ignored: progress must never stop the run.
    fn draw(&mut self, line: &str) {
        let Some(out) = self.out.as_mut() else {
            return;
        };
        let pad = self.shown.saturating_sub(line.len());
        let end = if line.is_empty() { "\r" } else { "" };
        let _ = write!(out, "\r{line}{:pad$}{end}", "");
        let _ = out.flush();
        self.shown = line.len();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The progress text: `<label>: <done>[/<total>] <unit>, <rate> <unit>/s[, ETA <time>]`. The
/// estimate assumes the rate so far holds; it is `ETA ?` until one unit is done.
pub fn status_line(
    label: &str,
    unit: &str,
    done: u64,
    total: Option<u64>,
    elapsed: Duration,
) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    let mut s = match total {
        Some(t) => format!("{label}: {done}/{t} {unit}, {rate:.1} {unit}/s"),
        None => format!("{label}: {done} {unit}, {rate:.1} {unit}/s"),
    };
    if let Some(t) = total {
        if done == 0 || rate <= 0.0 {
            s.push_str(", ETA ?");
        } else {
            let left = t.saturating_sub(done) as f64 / rate;
            s.push_str(&format!(", ETA {}", clock(left)));
        }
    }
    s
}

/// Seconds as `M:SS`, or `H:MM:SS` from one hour on, rounded up to the second.
fn clock(secs: f64) -> String {
    let s = secs.max(0.0).ceil().min(u64::MAX as f64) as u64;
    match s / 3600 {
        0 => format!("{}:{:02}", s / 60, s % 60),
        h => format!("{h}:{:02}:{:02}", s / 60 % 60, s % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn line_shows_done_total_rate_and_time_left() {
        // 250 of 1000 games in 10 s: 25 games/s, 750 left => 30 s.
        let l = status_line(
            "selfplay",
            "games",
            250,
            Some(1000),
            Duration::from_secs(10),
        );
        assert_eq!(l, "selfplay: 250/1000 games, 25.0 games/s, ETA 0:30");
        // 1 of 10,000 in 2 s: 9,999 left at 0.5/s => 19,998 s = 5 h 33 min 18 s.
        let l = status_line("match", "games", 1, Some(10_000), Duration::from_secs(2));
        assert_eq!(l, "match: 1/10000 games, 0.5 games/s, ETA 5:33:18");
        // Nothing done yet: no estimate.
        let l = status_line("match", "games", 0, Some(10), Duration::from_millis(5));
        assert_eq!(l, "match: 0/10 games, 0.0 games/s, ETA ?");
        // No total: no estimate at all.
        let l = status_line("csa", "games", 3, None, Duration::from_secs(60));
        assert_eq!(l, "csa: 3 games, 0.1 games/s");
    }

    #[test]
    fn clock_rounds_up_to_the_second() {
        assert_eq!(clock(0.0), "0:00");
        assert_eq!(clock(0.2), "0:01");
        assert_eq!(clock(59.5), "1:00");
        assert_eq!(clock(3599.0), "59:59");
        assert_eq!(clock(3600.0), "1:00:00");
        assert_eq!(clock(36_061.0), "10:01:01");
    }

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn draws_in_place_at_most_every_200_ms_and_erases_at_the_end() {
        let buf = Shared::default();
        let mut p = Progress::new(Some(Box::new(buf.clone())), "selfplay", "games", Some(100));
        p.update(1);
        p.update(2); // within 200 ms of the first draw: skipped
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(text.starts_with("\rselfplay: 1/100 games, "), "{text:?}");
        assert_eq!(text.matches('\r').count(), 1, "{text:?}");
        std::thread::sleep(REDRAW + Duration::from_millis(20));
        p.update(10);
        let shown = p.shown;
        p.finish();
        p.update(11); // after finish: nothing
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(text.contains("\rselfplay: 10/100 games, "), "{text:?}");
        let erase = format!("\r{}\r", " ".repeat(shown));
        assert!(text.ends_with(&erase), "{text:?}");
        assert!(!text.contains("11/100"), "{text:?}");
    }

    #[test]
    fn a_shorter_line_blanks_out_the_rest_of_the_longer_one() {
        let buf = Shared::default();
        let mut p = Progress::new(Some(Box::new(buf.clone())), "x", "games", None);
        p.draw("a long line");
        p.draw("short");
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text, "\ra long line\rshort      ");
    }

    #[test]
    fn disabled_display_writes_nothing() {
        let mut p = Progress::new(None, "selfplay", "games", Some(5));
        assert!(p.out.is_none());
        p.update(1);
        p.finish();
    }
}
