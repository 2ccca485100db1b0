//! Score adjudication (`--draw`, `--resign`), as fastchess does it: counts of consecutive
//! moves whose `info score` stayed near zero, or below the resign threshold.

use crate::config::{DrawAdjudication, ResignAdjudication};
use crate::game::result::{Decision, End, Reason};
use saikoro_core::{ByColor, Color};
use saikoro_usi::Score;

/// Counts for `--draw` and `--resign` (after fastchess's `DrawTracker` and `ResignTracker`).
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    draw: Option<DrawAdjudication>,
    resign: Option<ResignAdjudication>,
    draw_plies: u32,
    resign_moves: ByColor<u32>,
    both_sided: u32,
}

impl Adjudicator {
    /// A fresh count for a game.
    pub fn new(draw: Option<DrawAdjudication>, resign: Option<ResignAdjudication>) -> Adjudicator {
        Adjudicator {
            draw,
            resign,
            ..Adjudicator::default()
        }
    }

    /// Counts `mover`'s move with its `score`; the game's end if adjudication ends it. `plies`
    /// is the number of plies from the start position after the move.
    pub fn update(&mut self, mover: Color, score: Option<Score>, plies: u32) -> Option<End> {
        if let Some(r) = self.resign {
            let losing = match score {
                Some(Score::Cp(cp)) => cp <= -r.score,
                // `mate 0` (or `mate -0`): the reporting side is mated already.
                Some(Score::Mate(n)) => n <= 0,
                None => false,
            };
            let clear = match score {
                Some(Score::Cp(cp)) => cp.abs() >= r.score,
                Some(Score::Mate(_)) => true,
                None => false,
            };
            if r.two_sided {
                self.both_sided = if clear { self.both_sided + 1 } else { 0 };
                if self.both_sided >= 2 * r.move_count {
                    let sign = match score {
                        Some(Score::Cp(cp)) => cp.signum(),
                        Some(Score::Mate(n)) => {
                            if n > 0 {
                                1
                            } else {
                                -1
                            }
                        }
                        None => 0,
                    };
                    let loser = match sign {
                        -1 => Some(mover),
                        1 => Some(!mover),
                        _ => None,
                    };
                    if let Some(loser) = loser {
                        return Some(End::new(
                            Decision::Win(!loser),
                            Reason::Adjudication,
                            format!("{} wins by adjudication", (!loser).name()),
                        ));
                    }
                }
            } else {
                let n = &mut self.resign_moves[mover];
                *n = if losing { *n + 1 } else { 0 };
                if *n >= r.move_count {
                    return Some(End::new(
                        Decision::Win(!mover),
                        Reason::Adjudication,
                        format!("{} wins by adjudication", (!mover).name()),
                    ));
                }
            }
        }
        if let Some(d) = self.draw {
            let drawish = matches!(score, Some(Score::Cp(cp)) if cp.abs() <= d.score);
            self.draw_plies = if drawish { self.draw_plies + 1 } else { 0 };
            if plies >= d.move_number && self.draw_plies >= 2 * d.move_count {
                return Some(End::new(
                    Decision::Draw,
                    Reason::Adjudication,
                    "Draw by adjudication".into(),
                ));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--resign movecount=2 score=500`: White's second score of −500 or worse in a row loses;
    /// a mate against it counts too; a better score in between starts the count again.
    #[test]
    fn resign_adjudication() {
        let r = (
            None,
            Some(ResignAdjudication {
                move_count: 2,
                score: 500,
                two_sided: false,
            }),
        );
        let mut a = Adjudicator::new(r.0, r.1);
        let w = Color::White;
        assert_eq!(a.update(w, Some(Score::Cp(-600)), 10), None);
        assert_eq!(a.update(Color::Black, Some(Score::Cp(600)), 11), None);
        assert_eq!(a.update(w, Some(Score::Cp(-499)), 12), None);
        assert_eq!(a.update(w, Some(Score::Mate(-3)), 14), None);
        let end = a.update(w, Some(Score::Cp(-500)), 16).unwrap();
        assert_eq!(end.result, Decision::Win(Color::Black));
        assert_eq!(end.reason, Reason::Adjudication);
        assert_eq!(end.detail, "Black wins by adjudication");
        // No score breaks the run.
        let mut a = Adjudicator::new(r.0, r.1);
        a.update(w, Some(Score::Cp(-900)), 1);
        a.update(w, None, 2);
        assert_eq!(a.update(w, Some(Score::Cp(-900)), 3), None);
    }

    /// Two-sided: both sides agree for movecount moves each (2 × movecount plies).
    #[test]
    fn two_sided_resign_adjudication() {
        let r = (
            None,
            Some(ResignAdjudication {
                move_count: 1,
                score: 300,
                two_sided: true,
            }),
        );
        let mut a = Adjudicator::new(r.0, r.1);
        assert_eq!(a.update(Color::Black, Some(Score::Cp(400)), 1), None);
        let end = a.update(Color::White, Some(Score::Mate(-5)), 2).unwrap();
        assert_eq!(end.result, Decision::Win(Color::Black));
        // The side that moved last may be the winner: it reports its own good score.
        let mut a = Adjudicator::new(r.0, r.1);
        assert_eq!(a.update(Color::Black, Some(Score::Cp(-400)), 1), None);
        let end = a.update(Color::White, Some(Score::Cp(300)), 2).unwrap();
        assert_eq!(end.result, Decision::Win(Color::White));
        // White's `mate 0`: White is mated already, so it is White that loses.
        let mut a = Adjudicator::new(r.0, r.1);
        assert_eq!(a.update(Color::Black, Some(Score::Mate(3)), 1), None);
        assert_eq!(
            a.update(Color::White, Some(Score::Mate(0)), 2)
                .map(|e| e.result),
            Some(Decision::Win(Color::Black))
        );
        // movecount=2: four plies, two by each side.
        let r2 = Some(ResignAdjudication {
            move_count: 2,
            score: 300,
            two_sided: true,
        });
        let mut a = Adjudicator::new(None, r2);
        for (ply, side, cp) in [
            (1, Color::Black, 500),
            (2, Color::White, -500),
            (3, Color::Black, 500),
        ] {
            assert_eq!(a.update(side, Some(Score::Cp(cp)), ply), None, "ply {ply}");
        }
        let end = a.update(Color::White, Some(Score::Cp(-500)), 4).unwrap();
        assert_eq!(end.result, Decision::Win(Color::Black));
    }

    /// `mate 0` (or `mate -0`): the side to move is mated already, which counts as losing.
    #[test]
    fn mate_in_zero_counts_as_lost() {
        let r = ResignAdjudication {
            move_count: 1,
            score: 500,
            two_sided: false,
        };
        let mut a = Adjudicator::new(None, Some(r));
        let end = a.update(Color::White, Some(Score::Mate(0)), 7).unwrap();
        assert_eq!(end.result, Decision::Win(Color::Black));
    }

    /// `--draw movenumber=4 movecount=1 score=10`: two plies in a row within 10 cp, from ply 4.
    #[test]
    fn draw_adjudication() {
        let r = (
            Some(DrawAdjudication {
                move_number: 4,
                move_count: 1,
                score: 10,
            }),
            None,
        );
        let mut a = Adjudicator::new(r.0, r.1);
        assert_eq!(a.update(Color::Black, Some(Score::Cp(5)), 2), None);
        assert_eq!(a.update(Color::White, Some(Score::Cp(-10)), 3), None);
        let end = a.update(Color::Black, Some(Score::Cp(0)), 4).unwrap();
        assert_eq!(end.result, Decision::Draw);
        // A mate score is no draw score.
        let mut a = Adjudicator::new(r.0, r.1);
        a.update(Color::Black, Some(Score::Cp(0)), 8);
        assert_eq!(a.update(Color::White, Some(Score::Mate(9)), 9), None);
        assert_eq!(a.update(Color::Black, Some(Score::Cp(0)), 10), None);
        // movecount=3: six plies in a row within the score, not five.
        let d3 = Some(DrawAdjudication {
            move_number: 1,
            move_count: 3,
            score: 10,
        });
        let mut a = Adjudicator::new(d3, None);
        for ply in 1..=5 {
            let side = if ply % 2 == 1 {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(a.update(side, Some(Score::Cp(0)), ply), None, "ply {ply}");
        }
        let end = a.update(Color::White, Some(Score::Cp(3)), 6).unwrap();
        assert_eq!(end.result, Decision::Draw);
    }
}
