//! One named test per rule of shogi that move generation must get right (USI spec notes,
//! `docs/usi.md` §3). Every expectation was reasoned out by hand from the diagram in the test's
//! doc comment, never copied from the generator's output. Diagrams: files 9..1 left to right,
//! ranks a..i top to bottom; upper case is Black (sente, moves up), lower case White.

use saikoro_core::{Color, IllegalMove, InvalidSfen, Move, Position, PositionError};
use std::collections::BTreeSet;

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn mv(usi: &str) -> Move {
    Move::from_usi(usi).unwrap_or_else(|e| panic!("{e}"))
}

fn legal(p: &Position) -> BTreeSet<String> {
    let set: BTreeSet<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(
        set.len(),
        p.legal_moves().len(),
        "duplicate moves generated"
    );
    assert_eq!(set.len() as u64, p.count_legal());
    set
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|s| s.to_string()).collect()
}

#[track_caller]
fn assert_legal(p: &Position, usi: &str) {
    assert!(
        legal(p).contains(usi),
        "{usi} should be legal in {}",
        p.to_sfen()
    );
    assert_eq!(p.is_legal(mv(usi)), Ok(()), "{usi} in {}", p.to_sfen());
}

#[track_caller]
fn assert_illegal(p: &Position, usi: &str, why: IllegalMove) {
    assert!(
        !legal(p).contains(usi),
        "{usi} should be illegal in {}",
        p.to_sfen()
    );
    assert_eq!(p.is_legal(mv(usi)), Err(why), "{usi} in {}", p.to_sfen());
}

/// 打ち歩詰め: a pawn drop that checkmates is illegal, while a lance dropped on the same square
/// (also mate) is legal.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . . . . . k  a
///  . . . . . . G . .  b
///  . . . . . . . . .  c
///  . . . . . . . N .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: PL   (upper case Black, lower case White)
/// ```
///
/// P*1b checks the king on 1a. The king cannot take it (the knight on 2d guards 1b), and 2a
/// and 2b are both covered by the gold on 3b (forward-diagonal and sideways). White has no
/// other piece, so the drop would mate: illegal. L*1b gives the same mate and is legal: only
/// pawns are restricted.
#[test]
fn pawn_drop_mate_is_illegal() {
    let p = pos("8k/6G2/9/7N1/9/9/9/9/4K4 b PL 1");
    assert_illegal(&p, "P*1b", IllegalMove::PawnDropMate);
    assert_legal(&p, "L*1b");
    assert!(p.play(mv("L*1b")).is_checkmate());
    // Other pawn drops on file 1 are fine.
    assert_legal(&p, "P*1c");
}

/// The same as [`pawn_drop_mate_is_illegal`] for White, the board turned round.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . k . . . .  a
///  . . . . . . . . .  b
///  . . . . . . . . .  c
///  . . . . . . . . .  d
///  . . . . . . . . .  e
///  . n . . . . . . .  f
///  . . . . . . . . .  g
///  . . g . . . . . .  h
///  K . . . . . . . .  i
/// White to move, hands: p   (upper case Black, lower case White)
/// ```
///
/// P*9h checks the king on 9i; 9h is guarded by the knight on 8f, 8h and 8i by the gold on 7h.
#[test]
fn pawn_drop_mate_is_illegal_for_white() {
    let p = pos("4k4/9/9/9/9/1n7/9/2g6/K8 w p 1");
    assert_illegal(&p, "P*9h", IllegalMove::PawnDropMate);
    assert_legal(&p, "P*9g");
}

/// 打ち歩詰め where the pawn has nowhere else to go: the square in front of the king is the
/// only one left for a pawn drop, and the drop there mates.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . . . . n k  a
///  . . . . . . . l .  b
///  . . . . . . . . G  c
///  . . . . . . . . S  d
///  . . . . . . . . S  e
///  . . . . . . . . N  f
///  P P P P P P P P L  g
///  . . . . . . . . B  h
///  . . . . . . . . K  i
/// Black to move, hands: P   (upper case Black, lower case White)
/// ```
///
/// Files 9 to 2 hold a Black pawn (二歩); on file 1, 1a is the king (and a dead rank) and 1c
/// to 1i are occupied, so 1b is the only square a pawn could go to. P*1b checks the king on
/// 1a: 2a and 2b hold its own knight and lance, and the gold on 1c guards 1b; neither the
/// knight (it jumps to 1c and 3c) nor the lance (it moves down file 2) can take the pawn. Mate:
/// so no pawn drop at all is legal.
#[test]
fn pawn_drop_mate_on_the_only_pawn_square_is_illegal() {
    let p = pos("7nk/7l1/8G/8S/8S/8N/PPPPPPPPL/8B/8K b P 1");
    assert!(legal(&p).iter().all(|m| !m.starts_with("P*")));
    assert_illegal(&p, "P*1b", IllegalMove::PawnDropMate);
    assert_illegal(&p, "P*2c", IllegalMove::Nifu);
}

/// A knight that can take the dropped pawn saves the king: the drop is legal.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . . . . . .  a
///  . . . . . . . n .  b
///  . . . . . . . . k  c
///  . . . . . . S N .  d
///  . . . . . . . . G  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  K . . . . . . . .  i
/// Black to move, hands: P   (upper case Black, lower case White)
/// ```
///
/// P*1d checks the king on 1c. Its squares: 1b is covered by the knight on 2d, 2c by the silver
/// on 3d, 2d holds that knight (guarded by the gold on 1e), 2b its own knight, and the gold
/// guards the pawn. But White's knight on 2b jumps to 1d and takes it: not mate, so the drop
/// is legal, and taking the pawn is White's only answer.
#[test]
fn pawn_drop_check_a_knight_can_take_is_legal() {
    let p = pos("9/7n1/8k/6SN1/8G/9/9/9/K8 b P 1");
    assert_legal(&p, "P*1d");
    assert_eq!(legal(&p.play(mv("P*1d"))), set(&["2b1d"]));
}

/// 打ち歩詰め when the knight that could take the pawn is pinned: the position above with a
/// Black bishop on 3a, which pins the knight on 2b to the king on 1c along the diagonal.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . . . B . .  a
///  . . . . . . . n .  b
///  . . . . . . . . k  c
///  . . . . . . S N .  d
///  . . . . . . . . G  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  K . . . . . . . .  i
/// Black to move, hands: P   (upper case Black, lower case White)
/// ```
///
/// The knight may not leave the diagonal, so nothing takes the pawn: P*1d would mate, and is
/// illegal.
#[test]
fn pawn_drop_mate_with_the_knight_pinned_is_illegal() {
    let p = pos("6B2/7n1/8k/6SN1/8G/9/9/9/K8 b P 1");
    assert_illegal(&p, "P*1d", IllegalMove::PawnDropMate);
}

/// A pawn drop that blocks a check on the own king and mates the enemy king is still 打ち歩詰め:
/// the reason given is the pawn-drop mate, not the check.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . k b . . R  a
///  . . . . . . . . .  b
///  . . N . G . . . .  c
///  . . K . . . . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . . . . . .  i
/// Black to move, hands: GP   (upper case Black, lower case White)
/// ```
///
/// The bishop on 4a checks the king on 7d through 5b and 6c. P*5b blocks it and checks the king
/// on 5a: 4a holds the own bishop, 6a is covered by the knight on 7c, 4b and 6b by the gold on
/// 5c, which also guards 5b; the bishop cannot take the pawn, being pinned to its king by the
/// rook on 1a. Mate, so P*5b is illegal. A gold blocks on 5b or 6c legally, and a gold or pawn
/// dropped off the line (9i) leaves the check: illegal for that reason.
#[test]
fn pawn_drop_mate_that_blocks_a_check_is_illegal() {
    let p = pos("4kb2R/9/2N1G4/2K6/9/9/9/9/9 b GP 1");
    assert!(p.in_check());
    assert_illegal(&p, "P*5b", IllegalMove::PawnDropMate);
    assert_legal(&p, "P*6c");
    assert_legal(&p, "G*5b");
    assert_legal(&p, "G*6c");
    assert_illegal(&p, "G*9i", IllegalMove::KingInCheck);
    assert_illegal(&p, "P*9i", IllegalMove::KingInCheck);
}

/// A move that must promote and does, but leaves the own king in check, is illegal for the
/// check.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . . . . . .  a
///  K . . . P . . . r  b
///  . . . . . . . . .  c
///  . . . . . . . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . . . . . k  i
/// Black to move, hands: -   (upper case Black, lower case White)
/// ```
///
/// The pawn on 5b is pinned along rank b by the rook on 1b. 5b5a must promote (a pawn on the
/// last rank could never move), so 5b5a is illegal for that; 5b5a+ promotes but uncovers the
/// king. Only the king moves: 9a, 8a, 8b, 9c, 8c.
#[test]
fn forced_promotion_of_a_pinned_piece_is_illegal_for_the_check() {
    let p = pos("9/K3P3r/9/9/9/9/9/9/8k b - 1");
    assert_eq!(legal(&p), set(&["9b9a", "9b8a", "9b8b", "9b9c", "9b8c"]));
    assert_illegal(&p, "5b5a+", IllegalMove::KingInCheck);
    assert_illegal(&p, "5b5a", IllegalMove::MustPromote);
}

/// A pawn-drop check that is not mate is legal: with the gold moved from 3b to 3c, square 2a is
/// free and the king escapes there.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . . . . . k  a
///  . . . . . . . . .  b
///  . . . . . . G . .  c
///  . . . . . . . N .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: P   (upper case Black, lower case White)
/// ```
///
/// (The gold on 3c covers 2b, 3b, 4b, 2c, 4c, 3d; not 2a.)
#[test]
fn pawn_drop_check_with_an_escape_is_legal() {
    let p = pos("8k/9/6G2/7N1/9/9/9/9/4K4 b P 1");
    assert_legal(&p, "P*1b");
    let after = p.play(mv("P*1b"));
    assert!(after.in_check());
    assert_eq!(legal(&after), set(&["1a2a"]));
}

/// A pawn-drop check is legal when the king can take the pawn: the diagram of
/// [`pawn_drop_mate_is_illegal`] without the knight, so 1b is unguarded.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . . . . . k  a
///  . . . . . . G . .  b
///  . . . . . . . . .  c
///  . . . . . . . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: P   (upper case Black, lower case White)
/// ```
#[test]
fn pawn_drop_check_the_king_can_capture_is_legal() {
    let p = pos("8k/6G2/9/9/9/9/9/9/4K4 b P 1");
    assert_legal(&p, "P*1b");
    let after = p.play(mv("P*1b"));
    assert_eq!(legal(&after), set(&["1a1b"]));
}

/// 打ち歩詰め when the one piece that could capture the pawn is pinned: still mate, so the drop
/// is illegal.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . . . . . k  a
///  . . . . . . S g .  b
///  . . . . . . . . .  c
///  . . . . . B . N .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: P   (upper case Black, lower case White)
/// ```
///
/// After P*1b the gold on 2b could take the pawn sideways, but it is pinned on the diagonal
/// 4d-3c-2b-1a by the bishop, so that capture would expose the king. 1b is guarded by the
/// knight on 2d and 2a by the silver on 3b. Mate, so the drop is illegal. Without the bishop
/// the gold may capture and the same drop is legal.
#[test]
fn pawn_drop_mate_with_the_only_capturer_pinned_is_illegal() {
    let p = pos("8k/6Sg1/9/5B1N1/9/9/9/9/4K4 b P 1");
    assert_illegal(&p, "P*1b", IllegalMove::PawnDropMate);

    let unpinned = pos("8k/6Sg1/9/7N1/9/9/9/9/4K4 b P 1");
    assert_legal(&unpinned, "P*1b");
    assert_eq!(legal(&unpinned.play(mv("P*1b"))), set(&["2b1b"]));
}

/// 打ち歩詰め when the pawn's only guard is itself pinned: a pinned piece still guards (taking
/// the king would end the game first), so the king may not take the pawn; still mate, still
/// illegal.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . . . . . k  a
///  . . . . . . G . .  b
///  . . . . . . . l .  c
///  . . . . . . . N .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . . . . K .  i
/// Black to move, hands: P   (upper case Black, lower case White)
/// ```
///
/// The knight on 2d guards 1b but is pinned on file 2 by the lance on 2c against the king on
/// 2i. After P*1b the king cannot take on 1b, and 2a and 2b are covered by the gold on 3b; the
/// lance cannot reach 1b. Mate, so the drop is illegal.
#[test]
fn pawn_drop_mate_guarded_by_a_pinned_piece_is_illegal() {
    let p = pos("8k/6G2/7l1/7N1/9/9/9/9/7K1 b P 1");
    assert_illegal(&p, "P*1b", IllegalMove::PawnDropMate);
    assert_legal(&p, "P*1c");
}

/// 突き歩詰め: a pawn *pushed* to give mate is legal, with or without promotion.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . . . . . k  a
///  . . . . . . G . .  b
///  . . . . . . . . P  c
///  . . . . . . . N .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: -   (upper case Black, lower case White)
/// ```
///
/// 1c1b checks; 1b is guarded by the knight, 2a and 2b by the gold: mate, and legal.
#[test]
fn pawn_push_mate_is_legal() {
    let p = pos("8k/6G2/8P/7N1/9/9/9/9/4K4 b - 1");
    assert_legal(&p, "1c1b");
    assert_legal(&p, "1c1b+");
    assert!(p.play(mv("1c1b")).is_checkmate());
    assert!(p.play(mv("1c1b+")).is_checkmate());
}

/// 二歩: no pawn drop on a file holding an own unpromoted pawn; a tokin does not count.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . k . . . .  a
///  . . . . . . . . .  b
///  . . . . . . . . .  c
///  . . . . .+P . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . P . . . .  g
///  . . . . . . . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: P   (upper case Black, lower case White)
/// ```
///
/// File 5 has Black's pawn on 5g: no pawn drop on file 5. File 4 has only a tokin (4d): pawn
/// drops there are fine. Pawn drops: 7 files x 8 ranks (b-i) = 56, plus file 4's 8 ranks less
/// the tokin's square = 7, total 63 (the king on 5i is on file 5 already excluded).
#[test]
fn nifu() {
    let p = pos("4k4/9/9/5+P3/9/9/4P4/9/4K4 b P 1");
    assert_illegal(&p, "P*5e", IllegalMove::Nifu);
    assert_illegal(&p, "P*5b", IllegalMove::Nifu);
    assert_legal(&p, "P*4e");
    assert_legal(&p, "P*4c");
    let pawn_drops = legal(&p).iter().filter(|m| m.starts_with("P*")).count();
    assert_eq!(pawn_drops, 63);

    // The same for White: pawn on 5c, tokin on 6f.
    let w = pos("4k4/9/4p4/9/9/3+p5/9/9/4K4 w p 1");
    assert_illegal(&w, "P*5e", IllegalMove::Nifu);
    assert_legal(&w, "P*6e");
}

/// 行き所のない駒 (drops): no pawn or lance on the last rank, no knight on the last two.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . k . . . .  a
///  . . . . . . . . .  b
///  . . . . . . . . .  c
///  . . . . . . . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: PLN   (upper case Black, lower case White)
/// ```
///
/// Count: pawn and lance drops 9 files x 8 ranks (b-i) less the king's square 5i = 71 each;
/// knight drops 9 x 7 ranks (c-i) less 5i = 62; king moves 5 (4h 5h 6h 4i 6i). P*5b checks
/// but the king can take it: legal. Total 71 + 71 + 62 + 5 = 209.
#[test]
fn dead_piece_drops() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b PLN 1");
    assert_illegal(&p, "P*1a", IllegalMove::DeadDrop);
    assert_illegal(&p, "L*9a", IllegalMove::DeadDrop);
    assert_illegal(&p, "N*1a", IllegalMove::DeadDrop);
    assert_illegal(&p, "N*1b", IllegalMove::DeadDrop);
    assert_legal(&p, "P*1b");
    assert_legal(&p, "L*1b");
    assert_legal(&p, "N*1c");
    assert_legal(&p, "P*5b");
    let moves = legal(&p);
    assert_eq!(moves.iter().filter(|m| m.starts_with("P*")).count(), 71);
    assert_eq!(moves.iter().filter(|m| m.starts_with("L*")).count(), 71);
    assert_eq!(moves.iter().filter(|m| m.starts_with("N*")).count(), 62);
    assert_eq!(moves.len(), 209);

    // White: last rank is i, last two are h and i.
    let w = pos("4k4/9/9/9/9/9/9/9/4K4 w pln 1");
    assert_illegal(&w, "P*1i", IllegalMove::DeadDrop);
    assert_illegal(&w, "L*1i", IllegalMove::DeadDrop);
    assert_illegal(&w, "N*1h", IllegalMove::DeadDrop);
    assert_illegal(&w, "N*9i", IllegalMove::DeadDrop);
    assert_legal(&w, "P*1h");
    assert_legal(&w, "L*1h");
    assert_legal(&w, "N*1g");
    assert_eq!(legal(&w).len(), 209);
}

/// Forced promotion (行き所のない駒 for board moves) next to optional promotion.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . k . . . .  a
///  . . . . . . . . P  b
///  . . . . . . . L .  c
///  . . . . . . N . .  d
///  . . N . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: -   (upper case Black, lower case White)
/// ```
///
/// Pawn 1b: to 1a only promoted. Lance 2c: 2b either way, 2a only promoted. Knight 3d: 2b and
/// 4b are on the second rank, so only promoted. Knight 7e: 6c and 8c either way. King: 5.
/// Nothing gives or stands in check. 1 + 3 + 2 + 4 + 5 = 15 moves.
#[test]
fn forced_promotion() {
    let p = pos("4k4/8P/7L1/6N2/2N6/9/9/9/4K4 b - 1");
    assert_eq!(
        legal(&p),
        set(&[
            "1b1a+", "2c2b", "2c2b+", "2c2a+", "3d2b+", "3d4b+", "7e6c", "7e6c+", "7e8c", "7e8c+",
            "5i4i", "5i6i", "5i4h", "5i5h", "5i6h",
        ])
    );
    assert_illegal(&p, "1b1a", IllegalMove::MustPromote);
    assert_illegal(&p, "2c2a", IllegalMove::MustPromote);
    assert_illegal(&p, "3d2b", IllegalMove::MustPromote);

    // White: a pawn on 9h may only reach 9i promoted.
    let w = pos("4k4/9/9/9/9/9/9/p8/4K4 w - 1");
    assert_eq!(
        legal(&w),
        set(&["9h9i+", "5a4a", "5a6a", "5a4b", "5a5b", "5a6b"])
    );
    assert_illegal(&w, "9h9i", IllegalMove::MustPromote);
}

/// Optional promotion yields both moves: into the zone, inside it and out of it, including
/// the non-promotions of pawn, bishop and rook that some generators leave out.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . k . . . .  a
///  . . . . . . . . .  b
///  R . . . . . . . .  c
///  . . P . . . . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . B  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: -   (upper case Black, lower case White)
/// ```
///
/// Rook 9c (in the zone, so every move may promote): 9b 9a, 9d..9i, 8c..1c = 16 squares, 32
/// moves. Pawn 7d: 7c either way, 2. Bishop 1f: 2e 3d (outside), 4c 5b 6a (zone, both), 2g
/// 3h 4i: 3 + 6 + 2 = 11. King 5. Total 50.
#[test]
fn optional_promotion_gives_both_moves() {
    let p = pos("4k4/9/R8/2P6/9/8B/9/9/4K4 b - 1");
    let moves = legal(&p);
    for m in [
        "7d7c", "7d7c+", // pawn into the zone
        "9c9a", "9c9a+", // rook to the last rank: not dead, so either
        "9c9i", "9c9i+", // rook out of the zone
        "9c1c", "9c1c+", // rook inside the zone
        "1f4c", "1f4c+", "1f6a", "1f6a+", // bishop into the zone
    ] {
        assert!(moves.contains(m), "{m} missing");
    }
    assert!(!moves.contains("1f3d+"), "promotion outside the zone");
    assert_illegal(&p, "1f2e+", IllegalMove::CannotPromote);
    assert_eq!(moves.len(), 50);
}

/// A pinned piece may move only along the pin line.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . . . . . k  a
///  . . . . r . . . .  b
///  . . . . . . . . .  c
///  . . . . . . . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . S . . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: -   (upper case Black, lower case White)
/// ```
///
/// The silver on 5h is pinned by the rook on 5b: only 5h5g stays on file 5. The king has 4h,
/// 6h, 4i, 6i (none attacked). 5 moves.
#[test]
fn pinned_piece_moves_along_the_pin_only() {
    let p = pos("8k/4r4/9/9/9/9/9/4S4/4K4 b - 1");
    assert_eq!(legal(&p), set(&["5h5g", "5i4h", "5i6h", "5i4i", "5i6i"]));
    assert_illegal(&p, "5h4g", IllegalMove::KingInCheck);
    assert_illegal(&p, "5h6i", IllegalMove::KingInCheck);
}

/// A piece pinned across its movement (a rook pinned on a diagonal) cannot move at all.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . k . . . b  a
///  . . . . . . . . .  b
///  . . . . . . . . .  c
///  . . . . . . . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . R . . . . . . .  h
///  K . . . . . . . .  i
/// Black to move, hands: -   (upper case Black, lower case White)
/// ```
///
/// The bishop on 1a pins the rook on 8h against the king on 9i. The king has 8i and 9h.
#[test]
fn rook_pinned_on_a_diagonal_cannot_move() {
    let p = pos("4k3b/9/9/9/9/9/9/1R7/K8 b - 1");
    assert_eq!(legal(&p), set(&["9i8i", "9i9h"]));
    assert_illegal(&p, "8h8a+", IllegalMove::KingInCheck);
}

/// A pinned piece cannot capture a checker that is not its pinner.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . . . . . k  a
///  . . . . r . . . .  b
///  . . . . . . . . .  c
///  . . . . . . . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . n . . .  g
///  . . . . G . . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: -   (upper case Black, lower case White)
/// ```
///
/// The knight on 4g checks the king on 5i. The gold on 5h could take it (forward-diagonal) but
/// is pinned on file 5 by the rook on 5b. Only king moves remain: 4h 6h 4i 6i (the knight
/// covers 3i and 5i only).
#[test]
fn pinned_piece_cannot_capture_another_checker() {
    let p = pos("8k/4r4/9/9/9/9/5n3/4G4/4K4 b - 1");
    assert!(p.in_check());
    assert_illegal(&p, "5h4g", IllegalMove::KingInCheck);
    assert_eq!(legal(&p), set(&["5i4h", "5i6h", "5i4i", "5i6i"]));
}

/// The king cannot step back along the line of a sliding checker (the square behind it is
/// attacked once the king is gone), nor toward it.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . r . . . k  a
///  . . . . . . . . .  b
///  . . . . . . . . .  c
///  . . . . . . . . .  d
///  . . . . K . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . . . . . .  i
/// Black to move, hands: -   (upper case Black, lower case White)
/// ```
///
/// The rook on 5a checks along file 5: 5d and 5f are attacked, the six side squares are not.
#[test]
fn king_cannot_retreat_along_the_checking_ray() {
    let p = pos("4r3k/9/9/9/4K4/9/9/9/9 b - 1");
    assert_illegal(&p, "5e5f", IllegalMove::KingInCheck);
    assert_illegal(&p, "5e5d", IllegalMove::KingInCheck);
    assert_eq!(
        legal(&p),
        set(&["5e4d", "5e4e", "5e4f", "5e6d", "5e6e", "5e6f"])
    );

    // The same along a diagonal: bishop on 1a, king on 5e; 6f is behind the king.
    let d = pos("k7b/9/9/9/4K4/9/9/9/9 b - 1");
    assert_illegal(&d, "5e6f", IllegalMove::KingInCheck);
    assert_eq!(
        legal(&d),
        set(&["5e4e", "5e6e", "5e5d", "5e5f", "5e4f", "5e6d"])
    );
}

/// Double check: only king moves, even where a capture or a block answers one checker.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . . . . . k  a
///  . . . . . . . . .  b
///  . . . . r . . . .  c
///  . . . . . . . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . n . . .  g
///  . . . . . G . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: G   (upper case Black, lower case White)
/// ```
///
/// The rook on 5c and the knight on 4g both check 5i. The gold on 4h can take the knight and
/// a gold in hand could block the file, but the other check would remain. King: 4i and 6i and
/// 6h are free; 5h is on the rook's file; 4h holds the own gold.
#[test]
fn double_check_allows_only_king_moves() {
    let p = pos("8k/9/4r4/9/9/9/5n3/5G3/4K4 b G 1");
    assert!(p.in_check());
    assert_eq!(legal(&p), set(&["5i4i", "5i6i", "5i6h"]));
    assert_illegal(&p, "4h4g", IllegalMove::KingInCheck);
    assert_illegal(&p, "G*5h", IllegalMove::KingInCheck);
}

/// Drops may interpose against a distant check, and only on the checking line.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . r . . . k  a
///  . . . . . . . . .  b
///  . . . . . . . . .  c
///  . . . . . . . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: GP   (upper case Black, lower case White)
/// ```
///
/// The rook on 5a checks 5i down file 5. King: 4h 4i 6h 6i (5h is on the file). Gold and pawn
/// drops on 5b..5h: 7 each (no own pawn on file 5; P*5b is not on a dead rank). 4 + 14 = 18.
#[test]
fn interposing_drops_are_legal_in_check() {
    let p = pos("4r3k/9/9/9/9/9/9/9/4K4 b GP 1");
    let mut expected = set(&["5i4h", "5i4i", "5i6h", "5i6i"]);
    for r in ["b", "c", "d", "e", "f", "g", "h"] {
        expected.insert(format!("G*5{r}"));
        expected.insert(format!("P*5{r}"));
    }
    assert_eq!(legal(&p), expected);
    assert_illegal(&p, "G*1e", IllegalMove::KingInCheck);
}

/// A king with no legal move while not in check is not checkmate (it still has no legal
/// move, and loses in shogi, but the predicates differ).
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . k . . . .  a
///  . . . . . . . . .  b
///  . . . . . . . . .  c
///  . . . . . . . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . g . . . . . . .  g
///  . . g . . . . . .  h
///  K . . . . . . . .  i
/// Black to move, hands: -   (upper case Black, lower case White)
/// ```
///
/// The gold on 8g covers 8h and 9h, the gold on 7h covers 8i; nothing attacks 9i.
#[test]
fn no_legal_move_without_check_is_not_checkmate() {
    let p = pos("4k4/9/9/9/9/9/1g7/2g6/K8 b - 1");
    assert!(!p.in_check());
    assert_eq!(p.count_legal(), 0);
    assert!(!p.has_legal_move());
    assert!(!p.is_checkmate());
}

/// Checkmate: the seed blog's mated position (White to move, no legal reply).
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  l . . . . . . . l  a
///  . . . . . . S . p  b
///  . p n p . . .+S .  c
///  p . K . . . . k .  d
///  . . . . p . . B .  e
///  . . . P P n . G .  f
///  . P . G . . g . N  g
///  . . . . . . . . .  h
///  L . g . .+r . . .  i
/// White to move, hands: RB2SNL4P6p   (upper case Black, lower case White)
/// ```
#[test]
fn checkmate_has_no_legal_move() {
    let p = pos("l7l/6S1p/1pnp3+S1/p1K4k1/4p2B1/3PPn1G1/1P1G2g1N/9/L1g2+r3 w RB2SNL4P6p 1");
    assert!(p.in_check());
    assert!(p.is_checkmate());
    assert!(!p.has_legal_move());
    assert!(p.legal_moves().is_empty());
}

/// Each [`IllegalMove`] reason from [`Position::is_legal`], on the start position and small
/// positions.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  l n s g k g s n l  a
///  . r . . . . . b .  b
///  p p p p p p p p p  c
///  . . . . . . . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  P P P P P P P P P  g
///  . B . . . . . R .  h
///  L N S G K G S N L  i
/// Black to move, hands: -   (upper case Black, lower case White)
/// ```
#[test]
fn is_legal_reports_each_reason() {
    let s = Position::startpos();
    assert_illegal(&s, "5e5d", IllegalMove::NoPiece);
    assert_illegal(&s, "3c3d", IllegalMove::NotOwnPiece);
    assert_illegal(&s, "7g7e", IllegalMove::CannotReach);
    assert_illegal(&s, "8h2b+", IllegalMove::CannotReach); // blocked by the own pawn on 7g
    assert_illegal(&s, "7g6f", IllegalMove::CannotReach); // a pawn steps straight ahead only
    assert_illegal(&s, "2h3f", IllegalMove::CannotReach); // a knight's jump, not a rook's
    assert_illegal(&s, "9i9g", IllegalMove::OwnPieceOnTarget);
    // A null move: a piece "moved" to its own square, and an empty square to itself.
    assert_illegal(&s, "7g7g", IllegalMove::NullMove);
    assert_illegal(&s, "5e5e", IllegalMove::NullMove);
    assert_illegal(&s, "7g7f+", IllegalMove::CannotPromote);
    assert_illegal(&s, "6i5h+", IllegalMove::CannotPromote); // a gold never promotes
    assert_illegal(&s, "P*5e", IllegalMove::NotInHand);
    assert_legal(&s, "7g7f");

    // Pieces in hand: drop on an occupied square, dead drop, nifu.
    let h = pos("4k4/9/9/9/9/9/4P4/9/4K4 b PN 1");
    assert_illegal(&h, "N*5g", IllegalMove::SquareOccupied);
    assert_illegal(&h, "N*2b", IllegalMove::DeadDrop);
    assert_illegal(&h, "P*5c", IllegalMove::Nifu);
    assert_illegal(&h, "G*5e", IllegalMove::NotInHand);
    // Must promote, and leaving the king in check (stepping into a pawn's attack).
    let m = pos("4k4/8P/9/9/9/9/4p4/9/4K4 b - 1");
    assert_illegal(&m, "1b1a", IllegalMove::MustPromote);
    assert_illegal(&m, "5i5h", IllegalMove::KingInCheck);
    // Pawn-drop mate.
    let u = pos("8k/6G2/9/7N1/9/9/9/9/4K4 b P 1");
    assert_illegal(&u, "P*1b", IllegalMove::PawnDropMate);
}

/// A position where the side *not* to move is in check cannot arise in a game (its king could
/// be taken), so it is rejected.
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///  . . . . k . . . .  a
///  . . . . P . . . .  b
///  . . . . . . . . .  c
///  . . . . . . . . .  d
///  . . . . . . . . .  e
///  . . . . . . . . .  f
///  . . . . . . . . .  g
///  . . . . . . . . .  h
///  . . . . K . . . .  i
/// Black to move, hands: -   (upper case Black, lower case White)
/// ```
///
/// Black's pawn on 5b attacks the White king on 5a with Black to move. With White to move the
/// same board is an ordinary check.
#[test]
fn side_not_to_move_in_check_is_rejected() {
    for sfen in [
        "4k4/4P4/9/9/9/9/9/9/4K4 b - 1",
        "4k4/9/9/9/9/9/9/4p4/4K4 w - 1",
    ] {
        assert_eq!(
            Position::from_sfen(sfen),
            Err(InvalidSfen::Position(PositionError::OpponentInCheck)),
            "{sfen}"
        );
        assert!(Position::from_sfen_lenient(sfen).is_err(), "{sfen}");
    }
    let ok = pos("4k4/4P4/9/9/9/9/9/9/4K4 w - 1");
    assert!(ok.in_check());
    assert_eq!(ok.side_to_move(), Color::White);
    assert_eq!(legal(&ok).len(), 5); // 4a 6a 4b 6b and 5b (the pawn is unguarded)
}
