//! Random self-play: the random player against itself, each game ended by the rules.

use saikoro_core::{
    Choice, Color, EnteringKingRule, Game, Outcome, Position, RandomMover, Repetition,
};
use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

/// Plays one game from `start` until it ends by the rules (mate, fourfold repetition,
/// perpetual check, a winning declaration under `rule`) or `max_plies` moves have been played.
pub fn play_game(
    player: &mut RandomMover,
    start: &Position,
    max_plies: u32,
    rule: EnteringKingRule,
) -> (Game, Outcome) {
    let mut game = Game::new(start.clone());
    loop {
        match game.repetition() {
            Repetition::None => {}
            Repetition::Draw => return (game, Outcome::Repetition),
            Repetition::PerpetualCheck { loser } => {
                return (game, Outcome::PerpetualCheck { winner: !loser })
            }
        }
        if game.len() >= max_plies as usize {
            return (game, Outcome::MaxMoves);
        }
        let side = game.position().side_to_move();
        match player.choose_quickly(&mut game, rule) {
            Choice::Move(m) => game.play(m),
            Choice::Resign => return (game, Outcome::Checkmate { winner: !side }),
            Choice::DeclareWin => return (game, Outcome::Declaration { winner: side }),
        }
    }
}

/// Counts and lengths over a series of games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Plies over all games.
    pub total_plies: u64,
    /// Length of the shortest game, in plies.
    pub shortest_game: u64,
    /// Length of the longest game, in plies.
    pub longest_game: u64,
    /// How many games had each length: plies → games.
    pub lengths: BTreeMap<u64, u64>,
    /// Games won by mate, by winner (Black, White).
    pub checkmates: [u64; 2],
    /// Fourfold repetitions (draws).
    pub repetitions: u64,
    /// Perpetual-check losses, by winner.
    pub perpetual_checks: [u64; 2],
    /// Winning declarations, by winner.
    pub declarations: [u64; 2],
    /// Games stopped by the ply cap (`--max-plies`) before the rules ended them.
    pub ply_cap_reached: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl Summary {
    /// Adds one finished game.
    pub fn add(&mut self, plies: u64, outcome: Outcome) {
        if self.games == 0 || plies < self.shortest_game {
            self.shortest_game = plies;
        }
        self.longest_game = self.longest_game.max(plies);
        *self.lengths.entry(plies).or_insert(0) += 1;
        self.games += 1;
        self.total_plies += plies;
        let side = |c: Color| c.index();
        match outcome {
            Outcome::Checkmate { winner } => self.checkmates[side(winner)] += 1,
            Outcome::Repetition => self.repetitions += 1,
            Outcome::PerpetualCheck { winner } => self.perpetual_checks[side(winner)] += 1,
            Outcome::Declaration { winner } => self.declarations[side(winner)] += 1,
            Outcome::MaxMoves => self.ply_cap_reached += 1,
        }
    }

    /// Games per second of wall time.
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The game lengths in at most `max_rows` rows of equal width, from the shortest game's row
    /// to the longest game's, empty rows included. The width is the smallest of 1, 2, 5, 10, 20,
    /// 50, … plies that fits, and every row starts at a multiple of it. Empty when no game was
    /// played.
    pub fn histogram(&self, max_rows: u64) -> Vec<LengthBucket> {
        if self.games == 0 {
            return Vec::new();
        }
        let (lo, hi) = (self.shortest_game, self.longest_game);
        let fits = |w: u64| hi / w - lo / w < max_rows.max(2);
        let mut decade = 1u64;
        let width = loop {
            if let Some(w) = [1, 2, 5]
                .map(|m| decade.saturating_mul(m))
                .into_iter()
                .find(|&w| fits(w))
            {
                break w;
            }
            decade = decade.saturating_mul(10);
        };
        (lo / width..=hi / width)
            .map(|row| {
                let first = row * width;
                let last = first.saturating_add(width - 1);
                LengthBucket {
                    first,
                    last,
                    games: self.lengths.range(first..=last).map(|(_, n)| n).sum(),
                }
            })
            .collect()
    }
}

/// One row of [`Summary::histogram`]: how many games lasted `first..=last` plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthBucket {
    /// The shortest length in the row, in plies.
    pub first: u64,
    /// The longest length in the row, in plies.
    pub last: u64,
    /// Games whose length falls in the row.
    pub games: u64,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mean = self.total_plies as f64 / (self.games.max(1)) as f64;
        let pair = |v: [u64; 2]| format!("{} (black {}, white {})", v[0] + v[1], v[0], v[1]);
        writeln!(f, "games: {}", self.games)?;
        writeln!(
            f,
            "plies: mean {mean:.1}, min {}, max {}, total {}",
            self.shortest_game, self.longest_game, self.total_plies
        )?;
        writeln!(f, "checkmate: {}", pair(self.checkmates))?;
        writeln!(f, "repetition: {}", self.repetitions)?;
        writeln!(f, "perpetual check: {}", pair(self.perpetual_checks))?;
        writeln!(f, "declaration: {}", pair(self.declarations))?;
        writeln!(f, "ply cap reached: {}", self.ply_cap_reached)?;
        write!(
            f,
            "time: {:.3} s, {:.1} games/s, {:.0} plies/s",
            self.elapsed.as_secs_f64(),
            self.games_per_second(),
            self.total_plies as f64 / self.elapsed.as_secs_f64().max(1e-9)
        )?;
        self.fmt_histogram(f)
    }
}

impl Summary {
    /// The histogram of game lengths after the summary: one row per length range, its game
    /// count and a bar of `#` scaled to the fullest row (any game at all shows at least one `#`).
    fn fmt_histogram(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const ROWS: u64 = 20;
        const BAR: u64 = 40;
        let rows = self.histogram(ROWS);
        let most = rows.iter().map(|r| r.games).max().unwrap_or(0);
        if most == 0 {
            return Ok(());
        }
        let range = |r: &LengthBucket| match r.first == r.last {
            true => r.first.to_string(),
            false => format!("{}-{}", r.first, r.last),
        };
        let range_width = rows.iter().map(|r| range(r).len()).max().unwrap_or(0);
        let count_width = most.to_string().len();
        write!(f, "\ngame lengths (plies: games):")?;
        for r in &rows {
            let bar = "#".repeat((r.games * BAR).div_ceil(most) as usize);
            let line = format!(
                "{:>range_width$}: {:>count_width$} {bar}",
                range(r),
                r.games
            );
            write!(f, "\n{}", line.trim_end())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_end_by_the_rules_and_replay_from_the_seed() {
        let start = Position::startpos();
        let mut a = RandomMover::new(7);
        let mut b = RandomMover::new(7);
        for _ in 0..3 {
            let (ga, oa) = play_game(&mut a, &start, 4000, EnteringKingRule::CsaRule27);
            let (gb, ob) = play_game(&mut b, &start, 4000, EnteringKingRule::CsaRule27);
            assert_eq!(oa, ob);
            assert!(ga.moves().eq(gb.moves()));
            match oa {
                Outcome::Checkmate { winner } => {
                    assert!(ga.position().is_checkmate() || !ga.position().has_legal_move());
                    assert_eq!(winner, !ga.position().side_to_move());
                }
                Outcome::MaxMoves => assert_eq!(ga.len(), 4000),
                Outcome::Repetition | Outcome::PerpetualCheck { .. } => {
                    assert_eq!(ga.occurrences(), 4)
                }
                Outcome::Declaration { .. } => {
                    assert!(ga.can_declare_win(EnteringKingRule::CsaRule27))
                }
            }
        }
    }

    fn summary_of(lengths: &[u64]) -> Summary {
        let mut s = Summary::default();
        for &n in lengths {
            s.add(n, Outcome::Repetition);
        }
        s
    }

    fn rows(h: &[LengthBucket]) -> Vec<(u64, u64, u64)> {
        h.iter().map(|b| (b.first, b.last, b.games)).collect()
    }

    /// The owner's first experiment: shortest 128 plies, longest 3,906. From 47 to 3,906 is
    /// 3,860 plies; rows of 100 would need 40 (0 to 3,999), rows of 200 need 20: 0-199 holds
    /// 47, 128 and 130, 3,800-3,999 holds 3,906, the 18 rows between are empty.
    #[test]
    fn histogram_picks_the_narrowest_round_width_that_fits() {
        let s = summary_of(&[130, 3906, 47, 128]);
        assert_eq!((s.shortest_game, s.longest_game), (47, 3906));
        let h = s.histogram(20);
        assert_eq!(h.len(), 20);
        assert_eq!((h[0].first, h[0].last, h[0].games), (0, 199, 3));
        assert_eq!((h[19].first, h[19].last, h[19].games), (3800, 3999, 1));
        assert!(h[1..19].iter().all(|b| b.games == 0));
        // 10..=19 fits in 10 rows of 1; 10..=30 needs 21 rows of 1, so rows of 2 (10-11 ... 30-31).
        assert_eq!(
            rows(&summary_of(&[10, 19, 12, 12]).histogram(20)),
            [
                (10, 10, 1),
                (11, 11, 0),
                (12, 12, 2),
                (13, 13, 0),
                (14, 14, 0)
            ]
            .into_iter()
            .chain((15..19).map(|n| (n, n, 0)))
            .chain([(19, 19, 1)])
            .collect::<Vec<_>>()
        );
        let h = summary_of(&[10, 30]).histogram(20);
        assert_eq!(h.len(), 11);
        assert_eq!(rows(&h[..1]), [(10, 11, 1)]);
        assert_eq!(rows(&h[10..]), [(30, 31, 1)]);
        // 5-wide rows: 1..=60 in rows of 2 would be 31 > 20; of 5, 13 rows (0-4 ... 60-64).
        let h = summary_of(&[1, 60]).histogram(20);
        assert_eq!(h.len(), 13);
        assert_eq!(rows(&h[..1]), [(0, 4, 1)]);
        assert!(summary_of(&[]).histogram(20).is_empty());
    }

    #[test]
    fn summary_ends_with_the_histogram() {
        let s = summary_of(&[130, 3906, 47, 128]);
        let text = s.to_string();
        let hist: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("game lengths"))
            .collect();
        let mut want = vec![
            "game lengths (plies: games):".to_string(),
            format!("    0-199: 3 {}", "#".repeat(40)),
        ];
        for row in 1..19 {
            want.push(format!(
                "{:>9}: 0",
                format!("{}-{}", row * 200, row * 200 + 199)
            ));
        }
        want.push(format!("3800-3999: 1 {}", "#".repeat(14))); // 40/3 rounded up
        assert_eq!(hist, want);
        assert!(text.contains("\nplies: mean 1052.8, min 47, max 3906, total 4211\n"));
        assert!(text.contains("\nply cap reached: 0\n"));
    }

    #[test]
    fn ply_cap_ends_the_game() {
        let mut p = RandomMover::new(1);
        let (g, o) = play_game(
            &mut p,
            &Position::startpos(),
            10,
            EnteringKingRule::CsaRule27,
        );
        assert_eq!(o, Outcome::MaxMoves);
        assert_eq!(g.len(), 10);
    }
}
