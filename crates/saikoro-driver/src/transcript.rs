//! Every line exchanged with an engine, in order, with the time it was sent or received: what
//! the engine checker shows under a verdict.

use std::time::Instant;

/// Which way a transcript line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From us to the engine's stdin.
    Sent,
    /// From the engine's stdout.
    Received,
    /// From the engine's stderr (when the process layer keeps it).
    Stderr,
}

/// One line of a [`Transcript`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Which way it went.
    pub direction: Direction,
    /// The text.
    pub text: String,
    /// When it was sent or received.
    pub at: Instant,
}

/// Every line exchanged with an engine, in order.
#[derive(Clone, Debug, Default)]
pub struct Transcript {
    entries: Vec<Entry>,
}

impl Transcript {
    /// Adds a line.
    pub fn push(&mut self, direction: Direction, text: &str, at: Instant) {
        self.entries.push(Entry {
            direction,
            text: text.to_string(),
            at,
        });
    }

    /// The number of lines so far: a mark for [`Transcript::excerpt`].
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no line has been kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// All lines so far.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The lines from index `from` on, as `> sent`, `< received` and `! stderr` lines.
    pub fn excerpt(&self, from: usize) -> Vec<String> {
        self.entries
            .get(from..)
            .unwrap_or_default()
            .iter()
            .map(|e| {
                let arrow = match e.direction {
                    Direction::Sent => '>',
                    Direction::Received => '<',
                    Direction::Stderr => '!',
                };
                format!("{arrow} {}", e.text)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcript_excerpts() {
        let at = Instant::now();
        let t = Transcript {
            entries: vec![
                Entry {
                    direction: Direction::Sent,
                    text: "usi".into(),
                    at,
                },
                Entry {
                    direction: Direction::Received,
                    text: "usiok".into(),
                    at,
                },
                Entry {
                    direction: Direction::Stderr,
                    text: "loading".into(),
                    at,
                },
            ],
        };
        assert_eq!(t.excerpt(0), vec!["> usi", "< usiok", "! loading"]);
        assert_eq!(t.excerpt(2), vec!["! loading"]);
        assert!(t.excerpt(9).is_empty());
    }
}
