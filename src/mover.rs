//! The random mover: a uniformly random legal move from a portable, seeded generator.

use crate::{EnteringKingRule, Game, Move, MoveList};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

/// What a player does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Play this move.
    Move(Move),
    /// Resign (投了): no legal move is left.
    Resign,
    /// Declare a win by entering king (入玉宣言).
    DeclareWin,
}

/// Picks a uniformly random legal move.
///
/// The draw is reproducible across platforms and versions of `rand`: a named generator
/// (Xoshiro256++ seeded through SplitMix64), the legal moves sorted in canonical order, and an
/// unbiased bounded draw of our own (multiply-shift with rejection) on its 64-bit outputs.
#[derive(Clone, Debug)]
pub struct RandomMover {
    rng: Xoshiro256PlusPlus,
    seed: u64,
    list: MoveList,
}

impl RandomMover {
    /// A player seeded with `seed`.
    pub fn new(seed: u64) -> RandomMover {
        RandomMover {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            seed,
            list: MoveList::new(),
        }
    }

    /// A seed from the operating system's entropy source.
    pub fn entropy_seed() -> u64 {
        rand::make_rng::<Xoshiro256PlusPlus>().next_u64()
    }

    /// The seed this player started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Restarts the generator from the seed (a new game replays the same choices).
    pub fn reseed(&mut self, seed: u64) {
        *self = RandomMover::new(seed);
    }

    /// A uniform integer in `0..n` (`n` > 0), unbiased (Lemire's multiply-shift with rejection).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0)");
        let mut m = self.rng.next_u64() as u128 * n as u128;
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = self.rng.next_u64() as u128 * n as u128;
            }
        }
        (m >> 64) as u64
    }

    /// The player's choice in the game's current position: a winning declaration when `rule`
    /// allows it; otherwise a uniformly random legal move, leaving out moves that would lose
    /// by perpetual check (連続王手の千日手) unless nothing else is left; resignation when there
    /// is no legal move.
    pub fn choose(&mut self, game: &mut Game, rule: EnteringKingRule) -> Choice {
        if game.can_declare_win(rule) {
            return Choice::DeclareWin;
        }
        game.position().generate_legal(&mut self.list);
        if self.list.is_empty() {
            return Choice::Resign;
        }
        if game.may_lose_by_perpetual_check() {
            let mut losing = [false; 600];
            let mut any_safe = false;
            for (i, &m) in self.list.iter().enumerate() {
                losing[i] = game.loses_by_perpetual_check(m);
                any_safe |= !losing[i];
            }
            if any_safe {
                let mut i = 0;
                self.list.retain(|_| {
                    i += 1;
                    !losing[i - 1]
                });
            }
        }
        // The list is in canonical order (see `Position::generate_legal`).
        let i = self.below(self.list.len() as u64) as usize;
        Choice::Move(self.list[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut p = RandomMover::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[p.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800 && n < 1200), "{seen:?}");
    }

    #[test]
    fn same_seed_same_game() {
        let play = |seed| {
            let mut p = RandomMover::new(seed);
            let mut g = Game::new(Position::startpos());
            let mut v = Vec::new();
            for _ in 0..40 {
                match p.choose(&mut g, EnteringKingRule::CsaRule27) {
                    Choice::Move(m) => {
                        v.push(m);
                        g.play(m);
                    }
                    _ => break,
                }
            }
            v
        };
        assert_eq!(play(42), play(42));
        assert_ne!(play(42), play(43));
    }

    /// The checking side of a perpetual-check cycle avoids the losing fourth repetition when it
    /// has another move.
    #[test]
    fn avoids_losing_perpetual_check() {
        let start = Position::from_sfen("8k/9/p8/9/9/9/K8/9/8R w - 1").unwrap();
        for seed in 0..20 {
            let mut g = Game::new(start.clone());
            for m in "1a2a 1i2i 2a1a 2i1i 1a2a 1i2i 2a1a 2i1i 1a2a 1i2i 2a1a".split(' ') {
                g.play(Move::from_usi(m).unwrap());
            }
            let mut p = RandomMover::new(seed);
            match p.choose(&mut g, EnteringKingRule::CsaRule27) {
                Choice::Move(m) => assert_ne!(m.to_string(), "2i1i"),
                c => panic!("{c:?}"),
            }
        }
    }
}
