//! The positions of `saikoro check` (`positions/check.txt`): every fact the file states is
//! verified here with the rules core. The legal-move counts themselves come from elsewhere
//! (published tables, hand counts, cshogi; see positions/README.md); the core must agree.

use saikoro_check::positions::{self, CheckPosition};
use saikoro_core::{Color, EnteringKingRule, Game, Move, PieceType, Position, Square};
use std::collections::BTreeSet;

fn all() -> Vec<CheckPosition> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/positions/check.txt"))
        .expect("read positions/check.txt");
    let all = positions::parse(&text).expect("positions/check.txt is readable");
    assert_eq!(all, positions::all(), "the built-in copy is the file");
    all
}

fn game(p: &CheckPosition) -> Game {
    p.game().unwrap_or_else(|e| panic!("{}: {e}", p.id))
}

fn mv(p: &CheckPosition, text: &str) -> Move {
    Move::from_usi(text).unwrap_or_else(|e| panic!("{}: {text}: {e}", p.id))
}

/// Points under the CSA declaration rule, counted here from the board and the hands: rook and
/// bishop 5, every other piece 1; the side's pieces in the three far ranks, king excluded, and
/// its hand. Also the number of those pieces on the board.
fn points(pos: &Position, side: Color) -> (u32, u32) {
    let far = |rank: u8| match side {
        Color::Black => rank <= 3,
        Color::White => rank >= 7,
    };
    let worth = |k: PieceType| match k {
        PieceType::Rook | PieceType::Bishop | PieceType::Dragon | PieceType::Horse => 5,
        _ => 1,
    };
    let (mut pts, mut pieces) = (0, 0);
    for sq in Square::all() {
        if let Some(pc) = pos.piece_at(sq) {
            if pc.color == side && pc.kind != PieceType::King && far(sq.rank()) {
                pts += worth(pc.kind);
                pieces += 1;
            }
        }
    }
    for kind in PieceType::HAND_KINDS {
        pts += worth(kind) * pos.hand(side).count(kind) as u32;
    }
    (pts, pieces)
}

/// The history of every record is legal, and the game is not over before its last move.
#[test]
fn histories_are_legal_games() {
    for p in all() {
        let mut g = Game::new(p.start().unwrap());
        for (i, text) in p.moves.iter().enumerate() {
            assert_eq!(g.outcome(), None, "{}: over before move {}", p.id, i + 1);
            g.try_play(mv(&p, text))
                .unwrap_or_else(|e| panic!("{} move {} {text}: {e}", p.id, i + 1));
        }
    }
}

/// `legal N`: the number of legal moves at the end.
#[test]
fn legal_move_counts() {
    for p in all() {
        let g = game(&p);
        let n = g.position().legal_moves().len();
        assert_eq!(Some(n), p.legal, "{}", p.id);
    }
}

/// `illegal MOVE REASON` and `allows MOVE`.
#[test]
fn illegal_and_allowed_moves() {
    for p in all() {
        let g = game(&p);
        for (text, reason) in &p.illegal {
            let err = g.position().is_legal(mv(&p, text)).expect_err(text);
            assert_eq!(&format!("{err:?}"), reason, "{}: {text}", p.id);
        }
        for text in &p.allows {
            assert_eq!(
                g.position().is_legal(mv(&p, text)),
                Ok(()),
                "{}: {text}",
                p.id
            );
        }
    }
}

/// `mates`: exactly the legal moves that checkmate. Where a pawn drop is refused as
/// uchifuzume, playing it anyway would indeed mate: the trap is real.
#[test]
fn mating_moves() {
    for p in all() {
        let g = game(&p);
        let pos = g.position();
        let mating: BTreeSet<String> = pos
            .legal_moves()
            .iter()
            .filter(|&&m| pos.play(m).is_checkmate())
            .map(|m| m.to_string())
            .collect();
        if let Some(expected) = &p.mates {
            let expected: BTreeSet<String> = expected.iter().cloned().collect();
            assert_eq!(mating, expected, "{}", p.id);
        }
        for (text, reason) in &p.illegal {
            if reason == "PawnDropMate" {
                assert!(pos.play(mv(&p, text)).is_checkmate(), "{}: {text}", p.id);
            }
        }
    }
}

/// `loses MOVE`: legal, and it loses by perpetual check; the `allows` moves do not.
#[test]
fn perpetual_check_losses() {
    let mut seen = 0;
    for p in all() {
        let mut g = game(&p);
        for text in &p.loses {
            let m = mv(&p, text);
            assert_eq!(g.position().is_legal(m), Ok(()), "{}: {text}", p.id);
            assert!(g.loses_by_perpetual_check(m), "{}: {text}", p.id);
            seen += 1;
        }
        if !p.loses.is_empty() {
            for text in &p.allows {
                assert!(
                    !g.loses_by_perpetual_check(mv(&p, text)),
                    "{}: {text}",
                    p.id
                );
            }
        }
    }
    assert!(seen > 0);
}

/// `declare` and `points`: CSARule27 (28 points for Black, 27 for White, 10 pieces in the
/// camp, king in the camp and not in check).
#[test]
fn declarations() {
    let mut seen = 0;
    for p in all() {
        let g = game(&p);
        let pos = g.position();
        let us = pos.side_to_move();
        if let Some(declare) = p.declare {
            assert_eq!(
                pos.can_declare_win(EnteringKingRule::CsaRule27),
                declare,
                "{}",
                p.id
            );
            seen += 1;
        }
        if let Some(expected) = p.points {
            let (pts, pieces) = points(pos, us);
            assert_eq!(pts, expected, "{}", p.id);
            assert!(pieces >= 10, "{}: only {pieces} pieces in the camp", p.id);
            let count = pos.declaration_count(us);
            assert_eq!(
                (count.points, count.pieces_in_camp),
                (pts, pieces),
                "{}: the core's count",
                p.id
            );
        }
    }
    assert_eq!(seen, 2);
}

/// What each check needs of its positions.
#[test]
fn positions_fit_their_checks() {
    let all = all();
    let ids: BTreeSet<&str> = all.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids.len(), all.len(), "ids are unique");
    let names = saikoro_check::check_names();
    for p in &all {
        assert!(!p.about.is_empty(), "{}: about", p.id);
        match p.check.as_str() {
            "rules" => assert!(names.contains(&format!("rules-{}", p.id)), "{}", p.id),
            "long-history" | "go-mate" => assert_eq!(p.id, p.check),
            other => panic!("{}: unknown check '{other}'", p.id),
        }
        assert_eq!(p.resign_fails, p.legal == Some(1), "{}: resign fail", p.id);
    }
    let long = all.iter().find(|p| p.id == "long-history").unwrap();
    assert!(long.moves.len() > 500);
    assert_eq!(game(long).outcome(), None);
    let by = |id: &str| all.iter().find(|p| p.id == id).unwrap();
    assert_eq!(by("max-moves").legal, Some(593));
    assert_eq!(by("one-move").legal, Some(1));
    assert_eq!(by("mated").legal, Some(0));
    assert!(game(by("mated")).position().is_checkmate());
    assert!(game(by("evasion")).position().in_check());
    // The drops-only position has nothing but drops.
    let drops = game(by("drops-only"));
    assert!(drops
        .position()
        .legal_moves()
        .iter()
        .all(|m| matches!(m, Move::Drop { .. })));
    // The history of non-promotion has unpromoted bishop, rook and pawn moves that could
    // have promoted.
    let np = by("non-promotion");
    let mut g = Game::new(np.start().unwrap());
    let mut kinds = BTreeSet::new();
    for text in &np.moves {
        let m = mv(np, text);
        if let Move::Normal {
            from,
            to,
            promote: false,
        } = m
        {
            let promoted = Move::Normal {
                from,
                to,
                promote: true,
            };
            if g.position().is_legal(promoted).is_ok() {
                kinds.insert(format!("{:?}", g.position().piece_at(from).unwrap().kind));
            }
        }
        g.play(m);
    }
    assert_eq!(
        kinds,
        ["Bishop", "Pawn", "Rook"]
            .map(String::from)
            .into_iter()
            .collect()
    );
}
