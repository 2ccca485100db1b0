//! The statistics block of a results file, for a page made after the match (`saikoro
//! report`): the tally of the first two engines as the runner keeps it — a round's two games
//! with colours swapped are a pair, any other game counts alone — printed by the same
//! [`Report`] the runner prints.

use crate::tournament::game::result::Decision;
use crate::tournament::output::lines::json_field;
use crate::tournament::stats::elo::Tally;
use crate::tournament::stats::report::Report;
use crate::Color;

/// The block for the games of the results-file `lines` between the first game's black and
/// white engines (from the black's point of view); `None` without such a game.
pub fn results_block(lines: &[&str]) -> Option<String> {
    let games: Vec<(u64, String, String, Decision)> = lines
        .iter()
        .filter_map(|l| {
            Some((
                json_field(l, "round")?.parse().ok()?,
                json_field(l, "black")?,
                json_field(l, "white")?,
                Decision::from_text(&json_field(l, "result")?)?,
            ))
        })
        .filter(|g| g.3 != Decision::None)
        .collect();
    let (first, second) = games.first().map(|g| (g.1.clone(), g.2.clone()))?;
    let side = |g: &(u64, String, String, Decision)| {
        if g.1 == first && g.2 == second {
            Some(g.3.for_side(Color::Black))
        } else if g.1 == second && g.2 == first {
            Some(g.3.for_side(Color::White))
        } else {
            None
        }
    };
    let mine: Vec<_> = games.iter().filter(|g| side(g).is_some()).collect();
    let mut tally = Tally::default();
    let mut i = 0;
    while i < mine.len() {
        let a = mine[i];
        match mine.get(i + 1) {
            Some(b) if b.0 == a.0 && b.1 == a.2 => {
                tally.add_pair(side(a)?, side(b)?);
                i += 2;
            }
            _ => {
                tally.add_unpaired(side(a)?);
                i += 1;
            }
        }
    }
    let report = Report {
        first: &first,
        second: &second,
        details: "",
        tally,
        pentanomial: true,
        sprt: None,
        notes: &[],
    };
    Some(report.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(round: u64, black: &str, white: &str, result: &str) -> String {
        format!(
            "{{\"game\":1,\"round\":{round},\"black\":\"{black}\",\"white\":\"{white}\",\
             \"result\":\"{result}\",\"reason\":\"mate\"}}"
        )
    }

    #[test]
    fn a_pair_and_an_unpaired_game() {
        // a wins as black, draws as white: a pair WD; round 2 a loses alone.
        let l = [
            line(1, "a", "b", "1-0"),
            line(1, "b", "a", "1/2-1/2"),
            line(2, "a", "b", "0-1"),
        ];
        let refs: Vec<&str> = l.iter().map(|s| s.as_str()).collect();
        let b = results_block(&refs).unwrap();
        assert!(b.contains("Games: 3, Wins: 1, Losses: 1, Draws: 1"), "{b}");
        assert!(b.contains("Ptnml(0-2): [0, 0, 0, 1, 0]"), "{b}");
    }
}
