//! The random mover: a uniformly random legal move from a portable, seeded generator (with the
//! `rand` feature), and what a player does on its turn.

use crate::Move;
#[cfg(feature = "rand")]
use crate::{EnteringKingRule, Game, MoveList};
#[cfg(feature = "rand")]
use rand::rngs::Xoshiro256PlusPlus;
#[cfg(feature = "rand")]
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

/// Picks a uniformly random legal move (with the `rand` feature, on by default).
///
/// The draw is reproducible across platforms and versions of `rand`: a named generator
/// (Xoshiro256++ seeded through SplitMix64), the legal moves sorted in canonical order, and an
/// unbiased bounded draw of our own (multiply-shift with rejection) on its 64-bit outputs.
#[cfg(feature = "rand")]
#[derive(Clone, Debug)]
pub struct RandomMover {
    rng: Xoshiro256PlusPlus,
    list: MoveList,
}

#[cfg(feature = "rand")]
impl RandomMover {
    /// A player seeded with `seed`.
    pub fn new(seed: u64) -> RandomMover {
        RandomMover {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            list: MoveList::new(),
        }
    }

    /// A seed from the operating system's entropy source.
    pub fn entropy_seed() -> u64 {
        rand::make_rng::<Xoshiro256PlusPlus>().next_u64()
    }

    /// Restarts the generator from the seed (a new game replays the same choices).
    pub fn reseed(&mut self, seed: u64) {
        *self = RandomMover::new(seed);
    }

    /// A uniform integer in `0..n` (`n` > 0), unbiased (Lemire's multiply-shift with rejection).
    pub fn below(&mut self, n: u64) -> u64 {
        uniform_below(n, || self.rng.next_u64())
    }

    /// The player's choice in the game's current position: a winning declaration when `rule`
    /// allows it; otherwise a uniformly random legal move, leaving out moves that would lose
    /// by perpetual check (連続王手の千日手) unless nothing else is left; resignation when there
    /// is no legal move. The move is the legal list's (canonical order) at a place drawn with
    /// [`RandomMover::below`].
    pub fn choose(&mut self, game: &mut Game, rule: EnteringKingRule) -> Choice {
        if game.can_declare_win(rule) {
            return Choice::DeclareWin;
        }
        if game.may_lose_by_perpetual_check() {
            return self.choose_from_list(game);
        }
        // The move at a uniform place of the canonical order, found without the list.
        let rng = &mut self.rng;
        let pick = |n: usize| uniform_below(n as u64, || rng.next_u64()) as usize;
        game.position()
            .pick_legal(pick)
            .map_or(Choice::Resign, Choice::Move)
    }

    /// The same choice as [`RandomMover::choose`], as uniform, found with less work by
    /// rejection ([`crate::Position::sample_legal`]): from the same seed it plays other moves than
    /// `choose` does. Self-play uses it.
    pub fn choose_quickly(&mut self, game: &mut Game, rule: EnteringKingRule) -> Choice {
        if game.can_declare_win(rule) {
            return Choice::DeclareWin;
        }
        if game.may_lose_by_perpetual_check() {
            return self.choose_from_list(game);
        }
        let rng = &mut self.rng;
        let draw = |n: usize| uniform_below(n as u64, || rng.next_u64()) as usize;
        game.position()
            .sample_legal(draw)
            .map_or(Choice::Resign, Choice::Move)
    }

    /// A uniform choice among the legal moves that do not lose by perpetual check (all of
    /// them if every one does), from the whole list.
    fn choose_from_list(&mut self, game: &mut Game) -> Choice {
        game.position().generate_legal(&mut self.list);
        if self.list.is_empty() {
            return Choice::Resign;
        }
        let mut losing = [false; 600];
        for (i, &m) in self.list.iter().enumerate() {
            losing[i] = game.loses_by_perpetual_check(m);
        }
        keep_safe_moves(&mut self.list, &losing);
        // The list is in canonical order (see `Position::generate_legal`).
        let i = self.below(self.list.len() as u64) as usize;
        Choice::Move(self.list[i])
    }
}

/// A uniform integer in `0..n` (`n` > 0) from the 64-bit words `next` gives: Lemire's
/// multiply-shift, rejecting the words whose low product falls below 2⁶⁴ mod `n` ("Fast Random
/// Integer Generation in an Interval", ACM TOMACS 2019, algorithm 5), so that no result is more
/// likely than another.
#[cfg(feature = "rand")]
fn uniform_below(n: u64, mut next: impl FnMut() -> u64) -> u64 {
    assert!(n > 0, "below(0)");
    let mut m = next() as u128 * n as u128;
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = next() as u128 * n as u128;
        }
    }
    (m >> 64) as u64
}

/// Leaves out of `list` the moves marked in `losing` (same order), unless that would leave
/// nothing: a side whose every move loses by perpetual check still has to play one.
#[cfg(feature = "rand")]
fn keep_safe_moves(list: &mut MoveList, losing: &[bool]) {
    if losing[..list.len()].iter().all(|&l| l) {
        return;
    }
    let mut i = 0;
    list.retain(|_| {
        i += 1;
        !losing[i - 1]
    });
}

#[cfg(all(test, feature = "rand"))]
mod tests {
    use super::*;
    use crate::Position;

    /// Seeds drawn from the operating system differ from call to call (two equal 64-bit
    /// draws have a chance of 2⁻⁶⁴).
    #[test]
    fn entropy_seeds_differ() {
        assert_ne!(RandomMover::entropy_seed(), RandomMover::entropy_seed());
    }

    /// A reseeded player draws what a new player with that seed draws, whatever it drew before.
    #[test]
    fn reseeding_replays_a_new_players_draws() {
        let draws = |p: &mut RandomMover| (0..8).map(|_| p.below(1000)).collect::<Vec<_>>();
        let mut p = RandomMover::new(5);
        let first = draws(&mut p);
        p.reseed(9);
        let after = draws(&mut p);
        assert_eq!(after, draws(&mut RandomMover::new(9)));
        assert_ne!(after, first);
        p.reseed(5);
        assert_eq!(draws(&mut p), first);
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut p = RandomMover::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[p.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800 && n < 1200), "{seen:?}");
    }

    /// 2⁶⁴ mod 3 = 1, so for `n` = 3 a word whose product with 3 has low half 0 is rejected
    /// and the next word decides: 0 × 3 is rejected; (2⁶⁴ − 1) × 3 = 2 × 2⁶⁴ + (2⁶⁴ − 3)
    /// gives 2. A word of 1 (low half 3 ≥ 1) is kept and gives 0.
    /// 3 × 0xAAAA_AAAA_AAAA_AAAB = 2 × 2⁶⁴ + 1.
    #[test]
    fn below_rejects_the_words_that_would_bias_it() {
        let words = |w: Vec<u64>| {
            let mut it = w.into_iter();
            move || it.next().expect("no more words")
        };
        assert_eq!(uniform_below(3, words(vec![0, u64::MAX])), 2);
        assert_eq!(uniform_below(3, words(vec![1])), 0);
        assert_eq!(uniform_below(3, words(vec![u64::MAX / 3 + 1])), 1);
        // The inverse of 3 modulo 2⁶⁴ gives a low half of exactly 1, the threshold: kept.
        assert_eq!(uniform_below(3, words(vec![0xAAAA_AAAA_AAAA_AAAB])), 2);
    }

    /// Moves that lose by perpetual check are left out, unless every move does. (The start
    /// position's 30 moves, marked by hand.)
    #[test]
    fn every_move_losing_leaves_them_all() {
        let mut all = MoveList::new();
        Position::startpos().generate_legal(&mut all);
        assert_eq!(all.len(), 30);
        let mut losing = [true; 600];
        losing[5] = false;
        let mut l = all.clone();
        keep_safe_moves(&mut l, &losing);
        assert_eq!(&l[..], &all[5..6]);
        let mut l = all.clone();
        keep_safe_moves(&mut l, &[true; 600]);
        assert_eq!(l, all);
        let mut l = all.clone();
        keep_safe_moves(&mut l, &[false; 600]);
        assert_eq!(l, all);
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
