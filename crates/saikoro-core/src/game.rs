//! A game: a start position, the moves played since, and the repetition rules (千日手) that need
//! that history.

use crate::{Color, EnteringKingRule, IllegalMove, Move, Position, Undo};

/// The key of every position of a game so far, the start included, each with how many times
/// its position had occurred by then, so that the repetition count of the newest position is
/// read, not counted. Positions are chained by bucket (some bits of their keys): the last
/// occurrence of a key is found by following its bucket's chain, which is short.
#[derive(Clone)]
struct KeyHistory {
    entries: Vec<Seen>,
    /// For each bucket, 1 + the index of its newest entry, or 0 for none.
    heads: Box<[u32]>,
}

/// One position of a [`KeyHistory`].
#[derive(Clone, Copy, Debug)]
struct Seen {
    key: u64,
    /// 1 + the index of the previous entry of the same bucket, or 0 for none.
    prev: u32,
    /// How many times this key has occurred, this occurrence included.
    occurrences: u32,
}

/// Bits of a key that choose its bucket.
const BUCKET_BITS: u32 = 12;

impl KeyHistory {
    fn new() -> KeyHistory {
        KeyHistory {
            entries: Vec::with_capacity(1024),
            heads: vec![0; 1 << BUCKET_BITS].into_boxed_slice(),
        }
    }

    fn bucket(key: u64) -> usize {
        (key >> (64 - BUCKET_BITS)) as usize
    }

    /// Appends `key`; returns how many times it has occurred now.
    #[inline]
    fn push(&mut self, key: u64) -> u32 {
        let b = Self::bucket(key);
        let prev = self.heads[b];
        let mut j = prev;
        while j != 0 && self.entries[j as usize - 1].key != key {
            j = self.entries[j as usize - 1].prev;
        }
        let occurrences = match j {
            0 => 1,
            j => self.entries[j as usize - 1].occurrences + 1,
        };
        self.entries.push(Seen {
            key,
            prev,
            occurrences,
        });
        self.heads[b] = self.entries.len() as u32;
        occurrences
    }

    /// Removes the newest key; returns how many times it had occurred.
    #[inline]
    fn pop(&mut self) -> Option<u32> {
        let e = self.entries.pop()?;
        self.heads[Self::bucket(e.key)] = e.prev;
        Some(e.occurrences)
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// How many times the newest key has occurred.
    fn occurrences(&self) -> u32 {
        self.entries.last().map_or(0, |e| e.occurrences)
    }

    /// The index of the first occurrence of the newest key.
    fn first_occurrence(&self) -> usize {
        let n = self.entries.len() - 1;
        let key = self.entries[n].key;
        let mut first = n;
        let mut j = self.entries[n].prev;
        while j != 0 {
            let e = &self.entries[j as usize - 1];
            if e.key == key {
                first = j as usize - 1;
            }
            j = e.prev;
        }
        first
    }
}

impl std::fmt::Debug for KeyHistory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(&self.entries).finish()
    }
}

/// The state of the current position under the repetition rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// The position has not occurred four times.
    None,
    /// Fourth occurrence: the game is drawn (千日手).
    Draw,
    /// Fourth occurrence, and `loser` gave check with every one of its moves since the first of
    /// the four: it loses (連続王手の千日手).
    PerpetualCheck {
        /// The side that kept checking.
        loser: Color,
    },
}

/// A game's result from one player's side (勝ち, 引き分け, 負け).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The player won.
    Win,
    /// A draw.
    Draw,
    /// The player lost.
    Loss,
}

impl GameResult {
    /// The same game from the opponent's side.
    pub const fn flip(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move has no legal move (詰み); `winner` gave the mate.
    Checkmate {
        /// The side that mated.
        winner: Color,
    },
    /// Fourfold repetition (千日手): a draw.
    Repetition,
    /// Fourfold repetition with one side checking throughout: that side loses.
    PerpetualCheck {
        /// The side that did not keep checking.
        winner: Color,
    },
    /// A winning entering-king declaration (入玉宣言).
    Declaration {
        /// The declarer.
        winner: Color,
    },
    /// The move limit was reached: a draw.
    MaxMoves,
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner }
            | Outcome::PerpetualCheck { winner }
            | Outcome::Declaration { winner } => Some(winner),
            Outcome::Repetition | Outcome::MaxMoves => None,
        }
    }
}

/// A start position and the moves played from it, with the history the repetition rules need.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<(Move, Undo)>,
    /// Key of every position so far, the start included, with its repetition count.
    keys: KeyHistory,
    /// How many keys have occurred three times or more: a move can only complete a fourfold
    /// repetition when some key has.
    thrice: u32,
}

impl Game {
    /// A game starting at `start` (counting repetitions from there).
    pub fn new(start: Position) -> Game {
        let mut keys = KeyHistory::new();
        keys.push(start.key());
        Game {
            keys,
            pos: start.clone(),
            start,
            moves: Vec::with_capacity(1024),
            thrice: 0,
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played so far.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.moves.iter().map(|&(m, _)| m)
    }

    /// The number of moves played.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Plays `mv` if it is legal.
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.pos.is_legal(mv)?;
        self.play(mv);
        Ok(())
    }

    /// Plays `mv`, which must be legal.
    pub fn play(&mut self, mv: Move) {
        let undo = self.pos.do_move(mv);
        self.moves.push((mv, undo));
        if self.keys.push(self.pos.key()) == 3 {
            self.thrice += 1;
        }
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let (mv, undo) = self.moves.pop()?;
        if self.keys.pop() == Some(3) {
            self.thrice -= 1;
        }
        self.pos.undo_move(mv, undo);
        Some(mv)
    }

    /// How often the current position has occurred (1 the first time).
    pub fn occurrences(&self) -> u32 {
        self.keys.occurrences()
    }

    /// The current position under the repetition rules, as shogi-server (Floodgate) judges it:
    /// at the fourth occurrence, the side that moved loses if all its moves since the first of
    /// the four occurrences gave check; otherwise the other side loses if all of its moves did;
    /// otherwise it is a draw.
    pub fn repetition(&self) -> Repetition {
        // A fourth occurrence means some key has occurred three times or more.
        if self.thrice == 0 || self.occurrences() < 4 {
            return Repetition::None;
        }
        let n = self.keys.len() - 1;
        let first = self.keys.first_occurrence();
        // Position i was reached by move i; whether its side to move is in check says whether
        // that move gave check.
        // The side that moved last made moves first + 2, first + 4, ..., n; the other side
        // made moves first + 1, first + 3, ..., n - 1.
        let checks = self.checks_since(first);
        let all_checks = |from: usize| (from..=n).step_by(2).all(|i| checks[i - first]);
        let mover = !self.pos.side_to_move();
        if all_checks(first + 2) {
            Repetition::PerpetualCheck { loser: mover }
        } else if all_checks(first + 1) {
            Repetition::PerpetualCheck { loser: !mover }
        } else {
            Repetition::Draw
        }
    }

    /// Whether some move of the side to move might lose by perpetual check: only if its
    /// previous move gave check (a losing cycle of checks includes that move), and some position
    /// has already occurred three times (the move must bring about a fourth occurrence).
    pub fn may_lose_by_perpetual_check(&self) -> bool {
        let n = self.keys.len();
        self.thrice > 0 && n >= 2 && self.checks_since(n - 2)[0]
    }

    /// Whether the side to move was in check in each position from the `first`-th (0 is the
    /// start) to the current one. Worked out when asked, by taking moves back on a copy: only
    /// the repetition rules need it, and only once some position has occurred three times.
    fn checks_since(&self, first: usize) -> Vec<bool> {
        let mut pos = self.pos.clone();
        let mut checks = vec![pos.in_check()];
        for &(mv, undo) in self.moves[first..].iter().rev() {
            pos.undo_move(mv, undo);
            checks.push(pos.in_check());
        }
        checks.reverse();
        checks
    }

    /// Whether playing `mv` (legal) would make the side to move lose by perpetual check.
    pub fn loses_by_perpetual_check(&mut self, mv: Move) -> bool {
        let us = self.pos.side_to_move();
        if !self.may_lose_by_perpetual_check() {
            return false;
        }
        self.play(mv);
        let lost = self.repetition() == Repetition::PerpetualCheck { loser: us };
        self.undo();
        lost
    }

    /// The game's result if it is over by the rules in the current position (mate, repetition,
    /// perpetual check); declarations and move limits are the players' and caller's business.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.repetition() {
            Repetition::Draw => return Some(Outcome::Repetition),
            Repetition::PerpetualCheck { loser } => {
                return Some(Outcome::PerpetualCheck { winner: !loser })
            }
            Repetition::None => {}
        }
        if !self.pos.has_legal_move() {
            return Some(Outcome::Checkmate {
                winner: !self.pos.side_to_move(),
            });
        }
        None
    }

    /// Whether the side to move may declare a win under `rule` (see
    /// [`Position::can_declare_win`]).
    pub fn can_declare_win(&self, rule: EnteringKingRule) -> bool {
        self.pos.can_declare_win(rule)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys that share a bucket (the same top bits) are told apart along the bucket's chain.
    #[test]
    fn key_history_counts_keys_that_share_a_bucket() {
        let (a, b, c) = (
            0xabc0_0000_0000_0001,
            0xabc0_0000_0000_0002,
            0x1230_0000_0000_0001,
        );
        let mut h = KeyHistory::new();
        let counts: Vec<u32> = [a, b, a, c, b, a].iter().map(|&k| h.push(k)).collect();
        assert_eq!(counts, [1, 1, 2, 1, 2, 3]);
        assert_eq!((h.occurrences(), h.first_occurrence()), (3, 0));
        assert_eq!(h.pop(), Some(3));
        assert_eq!((h.occurrences(), h.first_occurrence()), (2, 1));
        assert_eq!(h.push(a), 3);
        assert_eq!(h.push(b), 3);
        while h.pop().is_some() {}
        assert_eq!(h.push(b), 1);
    }

    fn play_all(game: &mut Game, moves: &str) {
        for m in moves.split_whitespace() {
            game.try_play(Move::from_usi(m).unwrap()).unwrap();
        }
    }

    /// The current position occurs for the fourth time and `checker` loses the game.
    #[track_caller]
    fn assert_lost_by_perpetual_check(game: &Game, checker: Color) {
        assert_eq!(game.occurrences(), 4);
        assert_eq!(
            game.repetition(),
            Repetition::PerpetualCheck { loser: checker }
        );
        let end = game.outcome();
        assert_eq!(end, Some(Outcome::PerpetualCheck { winner: !checker }));
        assert_eq!(end.and_then(Outcome::winner), Some(!checker));
    }

    /// Both sides shuffle a gold back and forth: the start position recurs at plies 4, 8 and
    /// 12, its fourth occurrence, and nobody checked: a draw.
    #[test]
    fn fourfold_repetition_is_a_draw() {
        let mut g = Game::new(Position::startpos());
        let cycle = "6i6h 4a4b 6h6i 4b4a ";
        play_all(&mut g, &cycle.repeat(2));
        assert_eq!(g.occurrences(), 3);
        assert_eq!(g.repetition(), Repetition::None);
        play_all(&mut g, "6i6h 4a4b 6h6i");
        assert_eq!(g.repetition(), Repetition::None);
        play_all(&mut g, "4b4a");
        assert_eq!(g.occurrences(), 4);
        assert_eq!(g.repetition(), Repetition::Draw);
        assert_eq!(g.outcome(), Some(Outcome::Repetition));
        g.undo();
        assert_eq!(g.repetition(), Repetition::None);
    }

    /// White king on 1a, Black rook on 1i checking along the file, Black king 9g, White pawn
    /// 9c. The king steps 1a-2a-1a while the rook follows from 1i to 2i and back, checking on
    /// every move; the start position recurs at plies 4, 8 and 12, and at its fourth occurrence
    /// Black, who checked throughout, loses.
    #[test]
    fn perpetual_check_loses_for_the_checker() {
        // White king 1a, Black rook 1i (check on the file), Black king 9g, a White pawn 9c.
        let start = Position::from_sfen("8k/9/p8/9/9/9/K8/9/8R w - 1").unwrap();
        assert!(start.in_check());
        let mut g = Game::new(start);
        // Position P = start (White to move, in check) recurs each 4 plies.
        let cycle = "1a2a 1i2i 2a1a 2i1i ";
        play_all(&mut g, &cycle.repeat(3));
        assert_lost_by_perpetual_check(&g, Color::Black);
        // Before the last check, the checker could see the loss coming.
        g.undo();
        assert!(g.loses_by_perpetual_check(Move::from_usi("2i1i").unwrap()));
        assert!(!g.loses_by_perpetual_check(Move::from_usi("2i3i").unwrap()));
    }

    /// Taking a move back takes its position's occurrence back. Both sides shuffle a gold
    /// (6i6h 4a4b 6h6i 4b4a): the start position occurs at plies 0, 4 and 8. Back to ply 4 it
    /// has occurred twice, back to ply 0 once; three cycles played again from there bring its
    /// fourth occurrence at ply 12, a draw, as if nothing had been taken back.
    #[test]
    fn take_backs_uncount_their_positions() {
        let mut g = Game::new(Position::startpos());
        let cycle = "6i6h 4a4b 6h6i 4b4a ";
        play_all(&mut g, &cycle.repeat(2));
        assert_eq!(g.occurrences(), 3);
        for _ in 0..4 {
            g.undo();
        }
        assert_eq!((g.len(), g.occurrences()), (4, 2));
        // Ply 3, the position after 6i6h 4a4b 6h6i, has occurred once.
        assert_eq!(g.undo(), Some(Move::from_usi("4b4a").unwrap()));
        assert_eq!(g.occurrences(), 1);
        play_all(&mut g, "4b4a");
        assert_eq!(g.occurrences(), 2);
        for _ in 0..4 {
            g.undo();
        }
        assert_eq!((g.len(), g.occurrences()), (0, 1));
        assert!(g.is_empty());
        assert_eq!(g.undo(), None);
        assert_eq!(g.position(), &Position::startpos());
        play_all(&mut g, &cycle.repeat(2));
        assert_eq!(g.occurrences(), 3);
        assert_eq!(g.repetition(), Repetition::None);
        play_all(&mut g, cycle);
        assert_eq!((g.len(), g.occurrences()), (12, 4));
        assert_eq!(g.repetition(), Repetition::Draw);
    }

    /// The perpetual-check diagram of [`perpetual_check_loses_for_the_checker`], reached after a
    /// first move: the Black rook starts on 3i (no check) and goes to 1i. The repeated position
    /// (White to move, in check) first occurs at ply 1, then at 5, 9 and 13; Black checked with
    /// every move since ply 1 and loses. At ply 12 some position has occurred three times and
    /// Black's last move gave check, so Black's next move may lose, and 2i1i does.
    #[test]
    fn perpetual_check_counts_from_the_first_occurrence() {
        let start = Position::from_sfen("8k/9/p8/9/9/9/K8/9/6R2 b - 1").unwrap();
        let mut g = Game::new(start);
        play_all(&mut g, "3i1i");
        let cycle = "1a2a 1i2i 2a1a 2i1i ";
        play_all(&mut g, &cycle.repeat(2));
        play_all(&mut g, "1a2a 1i2i 2a1a");
        assert_eq!(g.len(), 12);
        assert!(g.may_lose_by_perpetual_check());
        assert!(g.loses_by_perpetual_check(Move::from_usi("2i1i").unwrap()));
        play_all(&mut g, "2i1i");
        assert_lost_by_perpetual_check(&g, Color::Black);
    }

    /// The checker loses even when the checked side's move brings the fourth occurrence. White
    /// king 2a, Black rook 1i, Black to move: 1i2i (check) 2a1a 2i1i (check) 1a2a returns to
    /// the start, which occurs for the fourth time at ply 12, after a White move that gave no
    /// check.
    #[test]
    fn perpetual_check_loses_when_the_checked_side_repeats() {
        let start = Position::from_sfen("7k1/9/p8/9/9/9/K8/9/8R b - 1").unwrap();
        let mut g = Game::new(start);
        play_all(&mut g, &"1i2i 2a1a 2i1i 1a2a ".repeat(3));
        assert_eq!(g.position().side_to_move(), Color::Black);
        assert_lost_by_perpetual_check(&g, Color::Black);
    }

    /// Whether a move might lose by perpetual check is asked only when it could: the side to
    /// move gave check with its last move and some position has occurred three times.
    #[test]
    fn perpetual_check_is_only_feared_after_a_check_and_a_third_occurrence() {
        // Gold shuffles: positions recur but nobody checks.
        let mut g = Game::new(Position::startpos());
        assert!(!g.may_lose_by_perpetual_check());
        play_all(&mut g, &"6i6h 4a4b 6h6i 4b4a ".repeat(2));
        assert_eq!(g.occurrences(), 3);
        assert!(!g.may_lose_by_perpetual_check());
        // The checking cycle: after Black's first check (ply 2) and White's reply, no position
        // has occurred three times yet.
        let start = Position::from_sfen("8k/9/p8/9/9/9/K8/9/8R w - 1").unwrap();
        let mut g = Game::new(start);
        play_all(&mut g, "1a2a 1i2i 2a1a");
        assert!(!g.may_lose_by_perpetual_check());
        // Ply 8 repeats the start a third time; after White's 1a2a Black may lose by checking.
        play_all(&mut g, "2i1i 1a2a 1i2i 2a1a 2i1i");
        assert_eq!(g.occurrences(), 3);
        assert!(!g.may_lose_by_perpetual_check(), "White gave no check");
        play_all(&mut g, "1a2a");
        assert!(g.may_lose_by_perpetual_check());
    }

    /// ```text
    ///   9 8 7 6 5 4 3 2 1
    ///  . . . . k . . . .  a
    ///  . . . . . . . . .  b
    ///  . . . . P . . . .  c
    ///  . . . . . . . . .  d
    ///  . . . . . . . . .  e
    ///  . . . . . . . . .  f
    ///  . . . . . . . . .  g
    ///  . . . . . . . . .  h
    ///  . . . . K . . . .  i
    /// Black to move, hands: G
    /// ```
    ///
    /// G*5b mates: the gold, guarded by the pawn on 5c, covers 4a, 6a, 4b and 6b. The game is
    /// then over, won by Black; before it, it goes on.
    #[test]
    fn a_mated_game_is_won_by_the_mating_side() {
        let mut g = Game::new(Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap());
        assert_eq!(g.outcome(), None);
        play_all(&mut g, "G*5b");
        let mate = Outcome::Checkmate {
            winner: Color::Black,
        };
        assert_eq!(g.outcome(), Some(mate));
        assert_eq!(mate.winner(), Some(Color::Black));
        // The same for White, the board turned round.
        let mut g = Game::new(Position::from_sfen("4k4/9/9/9/9/9/4p4/9/4K4 w g 1").unwrap());
        assert_eq!(g.outcome(), None);
        play_all(&mut g, "G*5h");
        assert_eq!(g.outcome().and_then(Outcome::winner), Some(Color::White));
    }

    /// Draws have no winner; every other end has one.
    #[test]
    fn draws_have_no_winner() {
        assert_eq!(Outcome::Repetition.winner(), None);
        assert_eq!(Outcome::MaxMoves.winner(), None);
        let white = Color::White;
        assert_eq!(Outcome::Checkmate { winner: white }.winner(), Some(white));
        assert_eq!(
            Outcome::PerpetualCheck { winner: white }.winner(),
            Some(white)
        );
        assert_eq!(Outcome::Declaration { winner: white }.winner(), Some(white));
    }

    /// An illegal move is refused and changes nothing.
    #[test]
    fn an_illegal_move_is_not_played() {
        let mut g = Game::new(Position::startpos());
        assert_eq!(
            g.try_play(Move::from_usi("7g7e").unwrap()),
            Err(IllegalMove::CannotReach)
        );
        assert_eq!((g.len(), g.position()), (0, &Position::startpos()));
        assert!(g.is_empty());
        assert_eq!(g.try_play(Move::from_usi("7g7f").unwrap()), Ok(()));
        assert_eq!(g.len(), 1);
        assert!(!g.is_empty());
        assert_eq!(g.start(), &Position::startpos());
    }
}
