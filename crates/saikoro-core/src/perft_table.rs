//! The published perft counts (`positions/perft.txt`, with the provenance of every number in
//! `positions/README.md`): the reference that a move generator is measured against.

/// A position whose perft counts are published by independent move generators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// Its name (`startpos`, `max-moves`, `matsuri`, …).
    pub id: &'static str,
    /// The position as SFEN.
    pub sfen: &'static str,
    /// `(depth, leaves)` pairs, depth increasing.
    pub counts: Vec<(u32, u64)>,
}

/// The table as it is kept: shakmaty's record style (`id`, `sfen`, `perft <depth> <nodes>`
/// lines, a blank line between records, `#` comment lines).
const TEXT: &str = include_str!("../positions/perft.txt");

/// The published perft counts: the start position and positions chosen to stress drops, pins,
/// evasions and promotions, each with its leaf counts by depth as independent move generators
/// give them (the crate's `positions/README.md` names the source of every number).
///
/// ```
/// let table = saikoro_core::published_perft();
/// let start = table.iter().find(|c| c.id == "startpos").unwrap();
/// assert_eq!(start.counts[..3], [(1, 30), (2, 900), (3, 25_470)]);
/// ```
pub fn published_perft() -> Vec<PerftCase> {
    let mut cases = Vec::new();
    let mut current: Option<PerftCase> = None;
    for line in TEXT.lines().map(str::trim) {
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            cases.extend(current.take());
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => {
                cases.extend(current.take());
                current = Some(PerftCase {
                    id: value,
                    sfen: "",
                    counts: Vec::new(),
                });
            }
            "sfen" => {
                if let Some(c) = current.as_mut() {
                    c.sfen = value;
                }
            }
            "perft" => {
                let count = value
                    .split_once(' ')
                    .and_then(|(d, n)| Some((d.parse().ok()?, n.parse().ok()?)));
                if let (Some(c), Some(count)) = (current.as_mut(), count) {
                    c.counts.push(count);
                }
            }
            _ => {}
        }
    }
    cases.extend(current);
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every record of the file is read whole: an id, an SFEN, counts; the line count of its
    /// `perft` lines is the count of pairs read (no line dropped for a typo).
    #[test]
    fn every_record_is_read_whole() {
        let cases = published_perft();
        let perft_lines = TEXT.lines().filter(|l| l.starts_with("perft ")).count();
        let ids = TEXT.lines().filter(|l| l.starts_with("id ")).count();
        assert_eq!(cases.len(), ids);
        assert_eq!(
            cases.iter().map(|c| c.counts.len()).sum::<usize>(),
            perft_lines
        );
        for c in &cases {
            assert!(!c.sfen.is_empty() && !c.counts.is_empty(), "{c:?}");
            assert!(c.counts.windows(2).all(|w| w[0].0 < w[1].0), "{c:?}");
        }
    }
}
